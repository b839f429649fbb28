// libFuzzer target: posenc::tokenize on arbitrary bytes, without and with a small vocabulary.
//
// Invariants checked on every input (a violation aborts, which libFuzzer reports as a crash):
//   - no token is empty, and every token is valid UTF-8 without whitespace or control characters
//     at its start;
//   - the vocabulary only changes where hyphenated words split: the tokens, joined without
//     separators, spell the same text with and without it;
//   - tokenizing is deterministic.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "vectors/tokenizer.hpp"
#include "vectors/vectors.hpp"

namespace {

#define FUZZ_CHECK(cond)                                                                  \
    do {                                                                                  \
        if (!(cond)) {                                                                    \
            std::fprintf(stderr, "fuzz_tokenizer: invariant failed: %s (line %d)\n", #cond, \
                         __LINE__);                                                       \
            std::abort();                                                                 \
        }                                                                                 \
    } while (0)

const posenc::VectorSet& vocabulary() {
    static const posenc::VectorSet set = [] {
        posenc::VectorSet s;
        for (const char* w : {"the", "state", "of", "art", "co-operate", "e-mail", "x-ray", "-", "'s", "n't",
                              "well-known", "a", "king", "caf\xc3\xa9", "\xe2\x80\xa6"}) {
            s.index.emplace(w, static_cast<std::uint32_t>(s.words.size()));
            s.words.emplace_back(w);
        }
        s.count = s.words.size();
        s.dim = 2;
        s.rows.assign(s.count * s.dim, 0.5f);
        return s;
    }();
    return set;
}

// Strict UTF-8 check (no overlongs, surrogates or code points above U+10FFFF).
bool valid_utf8(std::string_view s) {
    for (std::size_t i = 0; i < s.size();) {
        const unsigned char c = s[i];
        std::size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
        if (len == 0 || i + len > s.size()) return false;
        std::uint32_t cp = len == 1 ? c : c & (0x7F >> len);
        for (std::size_t k = 1; k < len; ++k) {
            const unsigned char next = s[i + k];
            if ((next & 0xC0) != 0x80) return false;
            cp = (cp << 6) | (next & 0x3F);
        }
        const std::uint32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
        if (cp < smallest[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
        i += len;
    }
    return true;
}

std::string joined(const std::vector<std::string>& tokens) {
    std::string out;
    for (const std::string& t : tokens) out += t;
    return out;
}

void check_tokens(const std::vector<std::string>& tokens) {
    for (const std::string& t : tokens) {
        FUZZ_CHECK(!t.empty());
        FUZZ_CHECK(valid_utf8(t));
        FUZZ_CHECK(static_cast<unsigned char>(t[0]) > 0x20 && t[0] != 0x7F);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size > 4096) return 0;  // long inputs only slow the search down; the loops are linear
    const std::string_view text(reinterpret_cast<const char*>(data), size);

    const std::vector<std::string> plain = posenc::tokenize(text);
    const std::vector<std::string> with_vocabulary = posenc::tokenize(text, &vocabulary());
    check_tokens(plain);
    check_tokens(with_vocabulary);
    FUZZ_CHECK(with_vocabulary.size() >= plain.size());
    FUZZ_CHECK(joined(plain) == joined(with_vocabulary));
    FUZZ_CHECK(posenc::tokenize(text) == plain);
    return 0;
}
