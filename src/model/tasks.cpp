#include "model/tasks.hpp"

#include <algorithm>

#include "base/limits.hpp"
#include "model/config.hpp"
#include "model/json.hpp"
#include "base/names.hpp"
#include "base/splitmix.hpp"

namespace posenc::model {

namespace {

// The code points of text, which first_invalid_utf8 has accepted.
void decode_utf8(std::string_view text, std::vector<std::uint32_t>& out) {
    const auto* s = reinterpret_cast<const unsigned char*>(text.data());
    out.clear();
    for (std::size_t i = 0; i < text.size();) {
        const unsigned c = s[i];
        const std::size_t len = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
        std::uint32_t cp = len == 1 ? c : len == 2 ? (c & 0x1F) : len == 3 ? (c & 0x0F) : (c & 0x07);
        for (std::size_t k = 1; k < len; ++k) cp = (cp << 6) | (s[i + k] & 0x3F);
        out.push_back(cp);
        i += len;
    }
}

std::string utf8_of(std::uint32_t cp) {
    std::string s;
    append_utf8(s, cp);
    return s;
}

std::string describe(std::uint32_t cp) {
    static const char* const kHex = "0123456789ABCDEF";
    std::string code = "U+";
    for (int shift = cp > 0xFFFF ? 20 : 12; shift >= 0; shift -= 4) code += kHex[(cp >> shift) & 15];
    return cp < 0x20 ? code : code + " '" + utf8_of(cp) + "'";
}

// The distinct code points, ascending, marked in a table as long as the largest one (≤ 0x110000).
std::string own_vocabulary(const std::vector<std::uint32_t>& code_points, std::vector<std::uint32_t>& vocabulary) {
    const std::uint32_t largest = *std::max_element(code_points.begin(), code_points.end());
    std::vector<bool> present(std::size_t{largest} + 1, false);
    for (std::uint32_t cp : code_points) present[cp] = true;
    vocabulary.clear();
    for (std::uint32_t cp = 0; cp <= largest; ++cp)
        if (present[cp]) vocabulary.push_back(cp);
    if (vocabulary.size() < 2) return "text must use at least 2 distinct characters";
    if (vocabulary.size() > kMaxVocab) return limits::limit_message("text has more than ", kMaxVocab, " distinct characters");
    return {};
}

// id_of[cp] = the token id of code point cp, or −1; sized by the vocabulary's largest code point.
std::vector<std::int32_t> id_table(const std::vector<std::uint32_t>& vocabulary) {
    std::vector<std::int32_t> id_of(std::size_t{vocabulary.back()} + 1, -1);
    for (std::size_t i = 0; i < vocabulary.size(); ++i) id_of[vocabulary[i]] = static_cast<std::int32_t>(i);
    return id_of;
}

// A generator for batch `index` of a task seeded with `seed`: each (seed, index) hashes to its
// own starting state, so batches are independent of each other and of the order they are made in.
SplitMix64 batch_rng(std::uint64_t seed, std::uint64_t index) {
    return SplitMix64{SplitMix64{SplitMix64{seed}.next() ^ index}.next()};
}

std::string check_shape(std::size_t B, std::size_t T) {
    if (B < 1 || B > kMaxBatchRows) return limits::limit_message("B must be an integer from 1 to ", kMaxBatchRows);
    if (T < 1 || T > kMaxContext) return limits::limit_message("T must be an integer from 1 to ", kMaxContext);
    return {};
}

void copy_window(const TextCorpus& corpus, std::size_t start, std::size_t T, std::int32_t* row, std::uint8_t* mask_row) {
    std::copy(corpus.ids.begin() + start, corpus.ids.begin() + start + T + 1, row);
    if (mask_row) std::fill(mask_row, mask_row + T, std::uint8_t{1});
}

}  // namespace

const char* symbols_range() { return limits::limit_message("symbols must be an integer from 2 to ", kMaxSymbols); }

std::string text_too_long(const char* name) {
    return std::string(name) + " has more than " + number_text(static_cast<double>(kMaxTextBytes)) + " bytes";
}

std::string build_corpus(std::string_view text, const std::vector<std::uint32_t>* vocabulary,
                         unsigned held_out_percent, TextCorpus& out) {
    if (text.empty()) return "text is empty";
    if (text.size() > kMaxTextBytes) return text_too_long("text");
    if (held_out_percent > kMaxHeldOutPercent)
        return limits::limit_message("heldOutPercent must be an integer from 0 to ", kMaxHeldOutPercent);
    if (const std::size_t bad = first_invalid_utf8(text); bad != text.size())
        return "text is not valid UTF-8 (byte " + std::to_string(bad) + ")";
    if (vocabulary && (vocabulary->size() < 2 || vocabulary->size() > kMaxVocab ||
                       !std::is_sorted(vocabulary->begin(), vocabulary->end()) ||
                       std::adjacent_find(vocabulary->begin(), vocabulary->end()) != vocabulary->end()))
        return limits::limit_message("vocabulary must hold 2 to ", kMaxVocab, " code points, sorted, without repeats");
    TextCorpus corpus;
    std::vector<std::uint32_t> code_points;
    decode_utf8(text, code_points);
    if (vocabulary) corpus.vocabulary = *vocabulary;
    else if (std::string error = own_vocabulary(code_points, corpus.vocabulary); !error.empty()) return error;
    const std::vector<std::int32_t> id_of = id_table(corpus.vocabulary);
    corpus.ids.resize(code_points.size());
    for (std::size_t i = 0; i < code_points.size(); ++i) {
        const std::int32_t id = code_points[i] < id_of.size() ? id_of[code_points[i]] : -1;
        if (id < 0)
            return "text has the character " + describe(code_points[i]) + " (character " + std::to_string(i) +
                   "), which is outside the model's vocabulary";
        corpus.ids[i] = id;
    }
    const std::size_t n = corpus.ids.size();
    corpus.train_end = n - n * held_out_percent / 100;
    out = std::move(corpus);
    return {};
}

std::vector<std::string> vocabulary_tokens(const std::vector<std::uint32_t>& vocabulary) {
    std::vector<std::string> tokens;
    tokens.reserve(vocabulary.size());
    for (std::uint32_t cp : vocabulary) tokens.push_back(utf8_of(cp));
    return tokens;
}

std::string text_batch(const TextCorpus& corpus, std::size_t B, std::size_t T, std::uint64_t seed,
                       std::uint64_t index, std::int32_t* tokens, std::uint8_t* mask, std::size_t* starts) {
    if (std::string error = check_shape(B, T); !error.empty()) return error;
    if (corpus.train_end < T + 1)
        return "T must be below " + std::to_string(corpus.train_end) + " for this text: its training split has " +
               std::to_string(corpus.train_end) + " characters";
    // Starts in [0, train_end − T − 1]: the window's last id is ids[train_end − 1] at most.
    const auto choices = static_cast<std::uint32_t>(corpus.train_end - T);
    SplitMix64 rng = batch_rng(seed, index);
    for (std::size_t b = 0; b < B; ++b) {
        const std::size_t start = rng.below(choices);
        copy_window(corpus, start, T, tokens + b * (T + 1), mask ? mask + b * T : nullptr);
        if (starts) starts[b] = start;
    }
    return {};
}

std::size_t heldout_window_count(const TextCorpus& corpus, std::size_t T) {
    const std::size_t held = corpus.ids.size() - corpus.train_end;
    return T == 0 || held == 0 ? 0 : (held - 1) / T;
}

std::string heldout_batch(const TextCorpus& corpus, std::size_t B, std::size_t T, std::uint64_t index,
                          std::int32_t* tokens, std::uint8_t* mask, std::size_t* starts) {
    if (std::string error = check_shape(B, T); !error.empty()) return error;
    const std::size_t count = heldout_window_count(corpus, T);
    const std::size_t held = corpus.ids.size() - corpus.train_end;
    if (count == 0)
        return "T must be below " + std::to_string(held) + " for this text: its held-out split has " +
               std::to_string(held) + " characters";
    for (std::size_t b = 0; b < B; ++b) {
        const std::size_t window = static_cast<std::size_t>((index % count * (B % count) + b) % count);
        const std::size_t start = corpus.train_end + window * T;
        copy_window(corpus, start, T, tokens + b * (T + 1), mask ? mask + b * T : nullptr);
        if (starts) starts[b] = start;
    }
    return {};
}

std::vector<std::string> synthetic_tokens(const SyntheticTask& task) {
    std::vector<std::string> tokens{"<pad>", "<sep>"};
    for (std::size_t s = 0; s < task.symbols; ++s) tokens.push_back(std::to_string(s));
    return tokens;
}

std::string synthetic_batch(const SyntheticTask& task, std::size_t B, std::size_t T, std::uint64_t seed,
                            std::uint64_t index, std::int32_t* tokens, std::uint8_t* mask) {
    if (task.symbols < 2 || task.symbols > kMaxSymbols) return symbols_range();
    if (task.items < 1) return "items must be at least 1";
    if (std::string error = check_shape(B, T); !error.empty()) return error;
    const std::size_t n = task.items;
    if (T < 2 * n) return "T must be at least 2·items = " + std::to_string(2 * n) + " (prompt, separator, answer)";
    SplitMix64 rng = batch_rng(seed, index);
    for (std::size_t b = 0; b < B; ++b) {
        std::int32_t* row = tokens + b * (T + 1);
        for (std::size_t i = 0; i < n; ++i)
            row[i] = kFirstSymbolToken + static_cast<std::int32_t>(rng.below(static_cast<std::uint32_t>(task.symbols)));
        row[n] = kSepToken;
        std::int32_t* answer = row + n + 1;
        if (task.kind == SyntheticKind::reverse) std::reverse_copy(row, row + n, answer);
        else std::copy(row, row + n, answer);
        if (task.kind == SyntheticKind::sort) std::sort(answer, answer + n);
        std::fill(answer + n, row + T + 1, kPadToken);
        if (mask) {
            std::uint8_t* mask_row = mask + b * T;
            std::fill(mask_row, mask_row + T, std::uint8_t{0});
            std::fill(mask_row + n, mask_row + 2 * n, std::uint8_t{1});
        }
    }
    return {};
}

SyntheticAccuracy synthetic_accuracy(const std::int32_t* predictions, const std::int32_t* tokens,
                                     const std::uint8_t* mask, std::size_t B, std::size_t T) {
    SyntheticAccuracy acc;
    std::size_t right_tokens = 0, right_rows = 0;
    for (std::size_t b = 0; b < B; ++b) {
        std::size_t counted = 0, right = 0;
        for (std::size_t p = 0; p < T; ++p) {
            if (!mask[b * T + p]) continue;
            ++counted;
            right += predictions[b * T + p] == tokens[b * (T + 1) + p + 1];
        }
        if (counted == 0) continue;
        ++acc.rows;
        acc.answer_tokens += counted;
        right_tokens += right;
        right_rows += right == counted;
    }
    if (acc.answer_tokens) acc.tokens = static_cast<double>(right_tokens) / static_cast<double>(acc.answer_tokens);
    if (acc.rows) acc.examples = static_cast<double>(right_rows) / static_cast<double>(acc.rows);
    return acc;
}

}  // namespace posenc::model
