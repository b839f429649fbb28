// Training tasks: deterministic batch generators, each a pure function of (task, seed, batch
// index) that writes into caller-owned buffers (docs/ARCHITECTURE.md, "Batches").
//
// Glossary (B rows, T positions fed per row):
//   tokens  int32 [B, T+1]  row b feeds tokens[b][0 … T−1] and predicts tokens[b][1 … T]
//   mask    uint8 [B, T]    mask[b][p] = 1 when the target tokens[b][p+1] counts in the loss
//   starts  size_t [B]      (optional) where each row's window starts in corpus.ids
//
// Character-level language modelling (the book, or the user's own text):
//   vocabulary  the text's distinct Unicode code points, sorted ascending; token id i is the
//               code point vocabulary[i] (so V = vocabulary.size(), 2 ≤ V ≤ kMaxVocab). The book
//               (data/moby-dick.txt) has V = 89: '\n', ' ', ASCII punctuation, digits and
//               letters, then 'Œ', five Greek and two Hebrew letters (once each), '—'.
//   ids         the text as token ids, one per code point, length N
//   split       training ids[0, train_end), held out ids[train_end, N),
//               train_end = N − ⌊N·held_out_percent/100⌋ (10% by default)
//   training    row b of batch k: a window ids[s … s+T] with s uniform in [0, train_end − T − 1]
//               (SplitMix64 seeded from (seed, k)); every target counts (mask all 1)
//   held out    window w starts at train_end + w·T (stride T: one pass counts each held-out
//               target once); heldout_window_count(T) = ⌊(N − train_end − 1)/T⌋ windows; row b
//               of batch k is window (k·B + b) mod count; no seed
//   User text: a model trained from scratch on it builds the vocabulary from that text
//   (vocabulary == nullptr); text evaluated by a model trained on another text is encoded with
//   that model's vocabulary and refused if it has a character outside it.
//
// Copy, reverse, sort (K symbols, n items per example):
//   ids         0 = PAD, 1 = SEP, symbol s (0 ≤ s < K) = s + 2; V = K + 2
//   row         x_1 … x_n SEP y_1 … y_n PAD … PAD   (T + 1 tokens; requires T ≥ 2n)
//               x uniform over the K symbols (with repetition); y = x (copy), x reversed
//               (reverse), x sorted by id ascending (sort)
//   mask        1 exactly at p = n … 2n − 1, the positions whose targets are y_1 … y_n; the
//               prompt, the separator and the padding never count
//   Training and test lengths differ through items (n) alone: same K, same V.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace posenc::model {

inline constexpr std::size_t kMaxBatchRows = 4096;           // B
inline constexpr std::size_t kMaxTextBytes = std::size_t{1} << 26;
inline constexpr unsigned kDefaultHeldOutPercent = 10;
inline constexpr unsigned kMaxHeldOutPercent = 50;
inline constexpr std::size_t kMaxSymbols = 1024;             // K
inline constexpr std::int32_t kPadToken = 0;
inline constexpr std::int32_t kSepToken = 1;
inline constexpr std::int32_t kFirstSymbolToken = 2;

// "<name> has more than 67108864 bytes", from kMaxTextBytes.
std::string text_too_long(const char* name);

// "symbols must be an integer from 2 to 1024", from kMaxSymbols: a synthetic task's K.
const char* symbols_range();

struct TextCorpus {
    std::vector<std::uint32_t> vocabulary;  // sorted code points; id i ↔ vocabulary[i]
    std::vector<std::int32_t> ids;          // the text, N ids
    std::size_t train_end = 0;              // ids[0, train_end) train, the rest held out
};

// "" and out filled when text (UTF-8 bytes, at most kMaxTextBytes) is valid and, given a
// vocabulary, uses only its characters; held_out_percent from 0 to 50. Else a message naming
// the argument (text, vocabulary, heldOutPercent).
std::string build_corpus(std::string_view text, const std::vector<std::uint32_t>* vocabulary,
                         unsigned held_out_percent, TextCorpus& out);

// The vocabulary's token strings (UTF-8), for the weights file's "vocab".
std::vector<std::string> vocabulary_tokens(const std::vector<std::uint32_t>& vocabulary);

// Training batch `index` of the corpus (layout above). "" or a message naming B or T.
std::string text_batch(const TextCorpus& corpus, std::size_t B, std::size_t T, std::uint64_t seed,
                       std::uint64_t index, std::int32_t* tokens, std::uint8_t* mask, std::size_t* starts = nullptr);

std::size_t heldout_window_count(const TextCorpus& corpus, std::size_t T);
// Held-out batch `index` (layout above). "" or a message naming B or T.
std::string heldout_batch(const TextCorpus& corpus, std::size_t B, std::size_t T, std::uint64_t index,
                          std::int32_t* tokens, std::uint8_t* mask, std::size_t* starts = nullptr);

enum class SyntheticKind { copy, reverse, sort };
// The JS names (lab.createTask's kind), in enum order; the bindings map names, never indices.
inline constexpr const char* kSyntheticKindNames[] = {"copy", "reverse", "sort"};
static_assert(sizeof(kSyntheticKindNames) / sizeof(kSyntheticKindNames[0]) == static_cast<std::size_t>(SyntheticKind::sort) + 1);

struct SyntheticTask {
    SyntheticKind kind = SyntheticKind::copy;
    std::size_t symbols = 10;  // K, 2 … kMaxSymbols
    std::size_t items = 8;     // n, 1 … T/2
    std::size_t vocab() const { return symbols + 2; }
};

// The task's token strings for the weights file's "vocab": "<pad>", "<sep>", then each symbol s
// as its decimal number ("0", "1", …).
std::vector<std::string> synthetic_tokens(const SyntheticTask& task);

// Batch `index` of the task (layout above). "" or a message naming symbols, items, B or T.
std::string synthetic_batch(const SyntheticTask& task, std::size_t B, std::size_t T, std::uint64_t seed,
                            std::uint64_t index, std::int32_t* tokens, std::uint8_t* mask);

struct SyntheticAccuracy {
    double tokens = 0;             // fraction of counted targets predicted right
    double examples = 0;           // fraction of rows whose counted targets are all right
    std::size_t answer_tokens = 0; // counted targets
    std::size_t rows = 0;          // rows with at least one counted target
};
// predictions int32 [B, T]: the argmax of the logits at each position, compared with
// tokens[b][p+1] where mask[b][p] = 1. Rows without a counted target are not examples.
SyntheticAccuracy synthetic_accuracy(const std::int32_t* predictions, const std::int32_t* tokens,
                                     const std::uint8_t* mask, std::size_t B, std::size_t T);

}  // namespace posenc::model
