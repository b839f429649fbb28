// model/tasks.hpp: deterministic batches, masks that cover exactly the answers, a held-out
// split that training never touches, and the accuracy helper.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "model/config.hpp"
#include "model/tasks.hpp"
#include "test_support.hpp"

namespace {
using namespace posenc::model;
using Catch::Matchers::Contains;

// 200 characters: ASCII plus 'é' (2 bytes), '—' (3 bytes) and a 4-byte code point.
std::string sample_text() {
    std::string text;
    for (int i = 0; i < 40; ++i) text += std::string(1, char('a' + i % 7)) + (i % 5 == 0 ? "é" : "b") + " ";
    for (int i = 0; i < 80; ++i) text += i % 9 == 0 ? "—" : (i % 13 == 0 ? "\xF0\x9F\x90\x8B" : "x");
    return text;
}

TextCorpus corpus_of(const std::string& text, unsigned held_out = kDefaultHeldOutPercent) {
    TextCorpus corpus;
    REQUIRE(build_corpus(text, nullptr, held_out, corpus) == "");
    return corpus;
}
}  // namespace

TEST_CASE("text corpus: sorted code-point vocabulary, ids and a 10% held-out tail", "[model][tasks]") {
    const TextCorpus corpus = corpus_of("ba\xC3\xA9" "ab\n");  // "baéab\n"
    CHECK(corpus.vocabulary == std::vector<std::uint32_t>{'\n', 'a', 'b', 0xE9});
    CHECK(corpus.ids == std::vector<std::int32_t>{2, 1, 3, 1, 2, 0});
    CHECK(corpus.train_end == 6);  // ⌊6·10/100⌋ = 0 held out
    CHECK(vocabulary_tokens(corpus.vocabulary) == std::vector<std::string>{"\n", "a", "b", "é"});
    const TextCorpus sample = corpus_of(sample_text());
    CHECK(sample.ids.size() == 200);
    CHECK(sample.train_end == 180);
    CHECK(corpus_of(sample_text(), 50).train_end == 100);
    CHECK(corpus_of(sample_text(), 0).train_end == 200);
}

TEST_CASE("text corpus: the user's text, with its own or a model's vocabulary", "[model][tasks]") {
    TextCorpus corpus;
    CHECK(build_corpus("", nullptr, 10, corpus) == "text is empty");
    CHECK(build_corpus("aaaa", nullptr, 10, corpus) == "text must use at least 2 distinct characters");
    CHECK(build_corpus("ab\xC3", nullptr, 10, corpus) == "text is not valid UTF-8 (byte 2)");
    CHECK(build_corpus("ab", nullptr, 51, corpus) == "heldOutPercent must be an integer from 0 to 50");
    const std::vector<std::uint32_t> book = {'\n', ' ', 'a', 'b', 'c'};
    REQUIRE(build_corpus("cab ab\n", &book, 10, corpus) == "");
    CHECK(corpus.vocabulary == book);
    CHECK(corpus.ids == std::vector<std::int32_t>{4, 2, 3, 1, 2, 3, 0});
    CHECK(build_corpus("cab d", &book, 10, corpus) ==
          "text has the character U+0064 'd' (character 4), which is outside the model's vocabulary");
    CHECK(build_corpus("ca\t", &book, 10, corpus) ==
          "text has the character U+0009 (character 2), which is outside the model's vocabulary");
    const std::vector<std::uint32_t> unsorted = {'b', 'a'};
    CHECK(build_corpus("ab", &unsorted, 10, corpus) == "vocabulary must hold 2 to 65536 code points, sorted, without repeats");
    // Too short for the window: the message names T and the split's length.
    REQUIRE(build_corpus("abcdefghij", nullptr, 10, corpus) == "");
    std::vector<std::int32_t> tokens(10);
    CHECK(text_batch(corpus, 1, 9, 1, 0, tokens.data(), nullptr) ==
          "T must be below 9 for this text: its training split has 9 characters");
    CHECK(text_batch(corpus, 1, 8, 1, 0, tokens.data(), nullptr) == "");
    CHECK(heldout_batch(corpus, 1, 1, 0, tokens.data(), nullptr) ==
          "T must be below 1 for this text: its held-out split has 1 characters");
}

TEST_CASE("text batches: deterministic windows that never reach the held-out split", "[model][tasks]") {
    const TextCorpus corpus = corpus_of(sample_text());
    const std::size_t B = 7, T = 16;
    std::vector<std::int32_t> tokens(B * (T + 1)), again(B * (T + 1)), other(B * (T + 1));
    std::vector<std::uint8_t> mask(B * T, 9);
    std::vector<std::size_t> starts(B);
    std::size_t lowest = corpus.train_end, highest = 0;
    for (std::uint64_t index = 0; index < 300; ++index) {
        REQUIRE(text_batch(corpus, B, T, 42, index, tokens.data(), mask.data(), starts.data()) == "");
        REQUIRE(text_batch(corpus, B, T, 42, index, again.data(), nullptr) == "");
        CHECK(tokens == again);
        for (std::size_t b = 0; b < B; ++b) {
            CHECK(starts[b] + T < corpus.train_end);  // the window's last id is in the training split
            lowest = std::min(lowest, starts[b]);
            highest = std::max(highest, starts[b]);
            CHECK(std::equal(tokens.begin() + b * (T + 1), tokens.begin() + (b + 1) * (T + 1), corpus.ids.begin() + starts[b]));
        }
        CHECK(std::all_of(mask.begin(), mask.end(), [](std::uint8_t m) { return m == 1; }));
    }
    // 2,100 draws over 164 starts: both ends are reached, so the bound above is tight.
    CHECK(lowest == 0);
    CHECK(highest == corpus.train_end - T - 1);
    REQUIRE(text_batch(corpus, B, T, 42, 1, tokens.data(), nullptr) == "");
    REQUIRE(text_batch(corpus, B, T, 42, 2, again.data(), nullptr) == "");
    REQUIRE(text_batch(corpus, B, T, 43, 1, other.data(), nullptr) == "");
    CHECK(tokens != again);
    CHECK(tokens != other);
}

TEST_CASE("held-out batches: evenly spaced windows inside the held-out split", "[model][tasks]") {
    const TextCorpus corpus = corpus_of(sample_text(), 30);  // ids[140, 200) held out
    REQUIRE(corpus.train_end == 140);
    for (const std::size_t T : {1, 4, 7, 59}) {
        CAPTURE(T);
        const std::size_t count = heldout_window_count(corpus, T);
        CHECK(count == 59 / T);
        const std::size_t B = 5;
        std::vector<std::int32_t> tokens(B * (T + 1));
        std::vector<std::uint8_t> mask(B * T, 0);
        std::vector<std::size_t> starts(B);
        std::set<std::size_t> seen;
        for (std::uint64_t index = 0; index * B < count; ++index) {
            REQUIRE(heldout_batch(corpus, B, T, index, tokens.data(), mask.data(), starts.data()) == "");
            for (std::size_t b = 0; b < B; ++b) {
                const std::size_t window = (index * B + b) % count;
                CHECK(starts[b] == corpus.train_end + window * T);
                CHECK(starts[b] + T < corpus.ids.size());
                CHECK(std::equal(tokens.begin() + b * (T + 1), tokens.begin() + (b + 1) * (T + 1), corpus.ids.begin() + starts[b]));
                seen.insert(starts[b]);
            }
            CHECK(std::all_of(mask.begin(), mask.end(), [](std::uint8_t m) { return m == 1; }));
        }
        CHECK(seen.size() == count);  // one pass visits every window
    }
}

TEST_CASE("copy, reverse and sort: answers, masks and padding", "[model][tasks]") {
    const std::size_t B = 9, T = 13;
    for (const SyntheticKind kind : {SyntheticKind::copy, SyntheticKind::reverse, SyntheticKind::sort}) {
        for (const std::size_t n : {1, 3, 6}) {
            const SyntheticTask task{kind, 5, n};
            CHECK(task.vocab() == 7);
            std::vector<std::int32_t> tokens(B * (T + 1)), again(B * (T + 1));
            std::vector<std::uint8_t> mask(B * T, 7);
            REQUIRE(synthetic_batch(task, B, T, 3, 11, tokens.data(), mask.data()) == "");
            REQUIRE(synthetic_batch(task, B, T, 3, 11, again.data(), nullptr) == "");
            CHECK(tokens == again);
            std::set<std::int32_t> symbols_seen;
            for (std::size_t b = 0; b < B; ++b) {
                const std::int32_t* row = tokens.data() + b * (T + 1);
                std::vector<std::int32_t> prompt(row, row + n), answer(row + n + 1, row + 2 * n + 1);
                for (std::int32_t t : prompt) CHECK((t >= kFirstSymbolToken && t < 7));
                symbols_seen.insert(prompt.begin(), prompt.end());
                CHECK(row[n] == kSepToken);
                std::vector<std::int32_t> want = prompt;
                if (kind == SyntheticKind::reverse) std::reverse(want.begin(), want.end());
                if (kind == SyntheticKind::sort) std::sort(want.begin(), want.end());
                CHECK(answer == want);
                for (std::size_t p = 2 * n + 1; p <= T; ++p) CHECK(row[p] == kPadToken);
                for (std::size_t p = 0; p < T; ++p) CHECK(mask[b * T + p] == (p >= n && p < 2 * n ? 1 : 0));
            }
            if (n == 6) CHECK(symbols_seen.size() == 5);  // 54 draws reach every symbol
            CHECK(synthetic_tokens(task) == std::vector<std::string>{"<pad>", "<sep>", "0", "1", "2", "3", "4"});
        }
    }
}

TEST_CASE("synthetic tasks: validation names the argument", "[model][tasks]") {
    std::vector<std::int32_t> tokens(64);
    std::vector<std::uint8_t> mask(64);
    auto run = [&](SyntheticTask task, std::size_t B, std::size_t T) {
        return synthetic_batch(task, B, T, 1, 0, tokens.data(), mask.data());
    };
    CHECK(run({SyntheticKind::copy, 1, 2}, 1, 8) == "symbols must be an integer from 2 to 1024");
    CHECK(run({SyntheticKind::copy, 1025, 2}, 1, 8) == "symbols must be an integer from 2 to 1024");
    CHECK(run({SyntheticKind::copy, 4, 0}, 1, 8) == "items must be at least 1");
    CHECK(run({SyntheticKind::copy, 4, 5}, 1, 9) == "T must be at least 2·items = 10 (prompt, separator, answer)");
    CHECK(run({SyntheticKind::copy, 4, 5}, 1, 10) == "");
    CHECK(run({SyntheticKind::copy, 4, 2}, 0, 8) == "B must be an integer from 1 to 4096");
    CHECK(run({SyntheticKind::copy, 4, 2}, 4097, 8) == "B must be an integer from 1 to 4096");
    CHECK(run({SyntheticKind::copy, 4, 2}, 1, 0) == "T must be an integer from 1 to 4096");
    CHECK(run({SyntheticKind::copy, 4, 2}, 1, kMaxContext + 1) == "T must be an integer from 1 to 4096");
}

TEST_CASE("synthetic accuracy: a hand-made case", "[model][tasks]") {
    // Two rows, T = 4. Row 0: answers at p = 1, 2 (targets 5, 6), both right. Row 1: answers at
    // p = 2, 3 (targets 7, 8), one right. A wrong prediction at an unmasked position is ignored.
    const std::int32_t tokens[] = {9, 9, 5, 6, 9, /**/ 9, 9, 9, 7, 8};
    const std::uint8_t mask[] = {0, 1, 1, 0, /**/ 0, 0, 1, 1};
    const std::int32_t predictions[] = {0, 5, 6, 0, /**/ 0, 0, 7, 3};
    const SyntheticAccuracy acc = synthetic_accuracy(predictions, tokens, mask, 2, 4);
    CHECK(acc.answer_tokens == 4);
    CHECK(acc.rows == 2);
    CHECK(acc.tokens == 0.75);
    CHECK(acc.examples == 0.5);
    const std::uint8_t none[8] = {};
    const SyntheticAccuracy empty = synthetic_accuracy(predictions, tokens, none, 2, 4);
    CHECK((empty.rows == 0 && empty.tokens == 0 && empty.examples == 0));
}

TEST_CASE("the book: data/moby-dick.txt builds the documented 89-character vocabulary", "[model][tasks]") {
    std::vector<std::uint8_t> bytes;
    if (!posenc::test::read_repo_file("data/moby-dick.txt", bytes)) {
        WARN("data/moby-dick.txt not readable here (wasm suite): skipped");
        return;
    }
    TextCorpus corpus;
    REQUIRE(build_corpus(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()), nullptr,
                         kDefaultHeldOutPercent, corpus) == "");
    CHECK(corpus.vocabulary.size() == 89);
    CHECK(corpus.vocabulary.back() == 0x2014);  // the em dash, the highest code point
    CHECK(corpus.vocabulary.front() == '\n');
    CHECK(corpus.vocabulary[1] == ' ');
    CHECK(corpus.ids.size() - corpus.train_end == corpus.ids.size() / 10);
    std::vector<std::int32_t> tokens(4 * 65);
    CHECK(text_batch(corpus, 4, 64, 1, 0, tokens.data(), nullptr) == "");
}
