// tokenizer.hpp: the GloVe-style rules, one section per rule of the header comment.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "vectors/tokenizer.hpp"
#include "vectors/vectors.hpp"

namespace {
using Tokens = std::vector<std::string>;
using posenc::tokenize;
}  // namespace

TEST_CASE("tokenize: empty and blank input give no tokens", "[tokenize]") {
    CHECK(tokenize("").empty());
    CHECK(tokenize("   \t\n\r ").empty());
    CHECK(tokenize(std::string("\x01\x02\x7f", 3)).empty());
    CHECK(tokenize(std::string(1, '\0')).empty());
    CHECK(tokenize("\xc2\xa0\xe3\x80\x80\xef\xbb\xbf").empty());  // NBSP, ideographic space, BOM
}

TEST_CASE("tokenize: whitespace and control characters separate tokens and vanish", "[tokenize]") {
    CHECK(tokenize("a\tb\nc\r\nd") == Tokens{"a", "b", "c", "d"});
    CHECK(tokenize(std::string("a\x01" "b\x7f" "c", 5)) == Tokens{"a", "b", "c"});
    CHECK(tokenize("  lead and trail  ") == Tokens{"lead", "and", "trail"});
    CHECK(tokenize("a\xc2\xa0" "b") == Tokens{"a", "b"});  // no-break space
}

TEST_CASE("tokenize: punctuation is split off, one token per mark", "[tokenize]") {
    CHECK(tokenize("Hello, world!") == Tokens{"hello", ",", "world", "!"});
    CHECK(tokenize("(a)") == Tokens{"(", "a", ")"});
    CHECK(tokenize("\"quoted\"") == Tokens{"\"", "quoted", "\""});
    CHECK(tokenize("U.S.") == Tokens{"u", ".", "s", "."});
    CHECK(tokenize("a+b=c") == Tokens{"a", "+", "b", "=", "c"});
    CHECK(tokenize("?!") == Tokens{"?", "!"});
    // …except a run of points, which is one token.
    CHECK(tokenize("wait...") == Tokens{"wait", "..."});
    CHECK(tokenize("so.. ok") == Tokens{"so", "..", "ok"});
}

TEST_CASE("tokenize: letters are lowercased, in several scripts", "[tokenize]") {
    CHECK(tokenize("The CAT sat") == Tokens{"the", "cat", "sat"});
    CHECK(tokenize("CAFÉ") == Tokens{"café"});
    CHECK(tokenize("ŁÓDŹ") == Tokens{"łódź"});
    CHECK(tokenize("ΑΘΗΝΑ") == Tokens{"αθηνα"});
    CHECK(tokenize("МОСКВА Ёж") == Tokens{"москва", "ёж"});
    CHECK(tokenize("In 1999 R2D2") == Tokens{"in", "1999", "r2d2"});
}

TEST_CASE("tokenize: inner joiners stay inside words", "[tokenize]") {
    CHECK(tokenize("co-operate") == Tokens{"co-operate"});
    CHECK(tokenize("e-mail o'clock") == Tokens{"e-mail", "o'clock"});
    CHECK(tokenize("rock'n'roll") == Tokens{"rock'n'roll"});
    CHECK(tokenize("3.14 1,000") == Tokens{"3.14", "1,000"});
    // Not inner: at either end, doubled, or between non-digits for '.' and ','.
    CHECK(tokenize("-abc") == Tokens{"-", "abc"});
    CHECK(tokenize("abc-") == Tokens{"abc", "-"});
    CHECK(tokenize("well- known") == Tokens{"well", "-", "known"});
    CHECK(tokenize("a--b") == Tokens{"a", "-", "-", "b"});
    CHECK(tokenize("a - b") == Tokens{"a", "-", "b"});
    CHECK(tokenize("'quote'") == Tokens{"'", "quote", "'"});
    CHECK(tokenize("a,b 3.") == Tokens{"a", ",", "b", "3", "."});
}

TEST_CASE("tokenize: clitics split off as in GloVe's tokenization", "[tokenize]") {
    CHECK(tokenize("king's") == Tokens{"king", "'s"});
    CHECK(tokenize("don't") == Tokens{"do", "n't"});
    CHECK(tokenize("can't") == Tokens{"ca", "n't"});
    CHECK(tokenize("they're we've you'll she'd I'm") ==
          Tokens{"they", "'re", "we", "'ve", "you", "'ll", "she", "'d", "i", "'m"});
    // ’ (U+2019) reads as '.
    CHECK(tokenize("don\xe2\x80\x99t") == Tokens{"do", "n't"});
    CHECK(tokenize("l\xe2\x80\x99homme") == Tokens{"l'homme"});
}

TEST_CASE("tokenize: non-ASCII letters stay in words; symbols and emoji stand alone", "[tokenize]") {
    CHECK(tokenize("naïve résumé") == Tokens{"naïve", "résumé"});
    CHECK(tokenize("東京 tokyo") == Tokens{"東京", "tokyo"});
    // A decomposed é (e + U+0301) stays one word, not normalised.
    CHECK(tokenize("cafe\xcc\x81!") == Tokens{"cafe\xcc\x81", "!"});
    CHECK(tokenize("5€ × 2") == Tokens{"5", "€", "×", "2"});
    CHECK(tokenize("ok👍") == Tokens{"ok", "👍"});
    // Skin-tone modifier and ZWJ sequences belong to the symbol before them.
    CHECK(tokenize("👍🏽 x") == Tokens{"👍🏽", "x"});
    CHECK(tokenize("👨\xe2\x80\x8d👩\xe2\x80\x8d👧") == Tokens{"👨\xe2\x80\x8d👩\xe2\x80\x8d👧"});
}

TEST_CASE("tokenize: invalid UTF-8 reads as U+FFFD, one byte at a time", "[tokenize]") {
    const std::string replacement = "\xef\xbf\xbd";
    CHECK(tokenize("a\xff" "b") == Tokens{"a", replacement, "b"});
    CHECK(tokenize("\xc3") == Tokens{replacement});                  // truncated sequence
    CHECK(tokenize("\xc0\xaf") == Tokens{replacement, replacement});  // overlong '/'
    CHECK(tokenize("\xed\xa0\x80") == Tokens{replacement, replacement, replacement});  // surrogate
}

TEST_CASE("tokenize: with a vocabulary, unknown hyphenated words split at their hyphens", "[tokenize]") {
    posenc::VectorSet vocabulary;
    for (const char* w : {"state", "of", "the", "art", "co-operate", "e-mail"}) {
        vocabulary.index.emplace(w, static_cast<std::uint32_t>(vocabulary.words.size()));
        vocabulary.words.emplace_back(w);
    }
    vocabulary.count = vocabulary.words.size();
    CHECK(tokenize("state-of-the-art", &vocabulary) == Tokens{"state", "-", "of", "-", "the", "-", "art"});
    CHECK(tokenize("Co-operate by e-mail", &vocabulary) == Tokens{"co-operate", "by", "e-mail"});
    // Clitic first, then the stem is checked.
    CHECK(tokenize("x-ray's", &vocabulary) == Tokens{"x", "-", "ray", "'s"});
    // Without a vocabulary the word stays whole.
    CHECK(tokenize("state-of-the-art") == Tokens{"state-of-the-art"});
}

// Regression (fuzz_tokenizer): "do-n't" split its n't off a stem ending in '-', and with a
// vocabulary the stem's hyphen split then emitted an empty token.
TEST_CASE("tokenize: n't after a hyphen stays with the hyphenated word, never an empty token", "[tokenize][fuzz]") {
    posenc::VectorSet vocabulary;
    vocabulary.index.emplace("x", 0);
    vocabulary.words.emplace_back("x");
    vocabulary.count = 1;
    CHECK(tokenize("Do-n't") == Tokens{"do-n't"});
    CHECK(tokenize("Do-n't", &vocabulary) == Tokens{"do", "-", "n't"});
    CHECK(tokenize("a-b-n't go", &vocabulary) == Tokens{"a", "-", "b", "-", "n't", "go"});
    CHECK(tokenize("don't", &vocabulary) == Tokens{"do", "n't"});
    for (const std::string& t : tokenize("x-n't y-'s z-n't's do-n't-n't", &vocabulary)) CHECK_FALSE(t.empty());
}
