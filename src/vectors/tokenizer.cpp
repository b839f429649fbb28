#include "vectors/tokenizer.hpp"

#include <cstdint>

#include "vectors/vectors.hpp"

namespace posenc {

namespace {

constexpr char32_t kReplacement = 0xFFFD;

// Decodes one UTF-8 sequence at text[i]; advances i. Overlong, surrogate and out-of-range
// sequences, and stray continuation bytes, read as U+FFFD (one byte consumed).
char32_t decode(std::string_view text, std::size_t& i) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char lead = byte(i);
    if (lead < 0x80) {
        ++i;
        return lead;
    }
    const int length = lead >= 0xF0 && lead <= 0xF4 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC2 && lead < 0xE0 ? 2 : 0;
    if (length == 0 || i + length > text.size()) {
        ++i;
        return kReplacement;
    }
    char32_t c = lead & (0x7F >> length);
    for (int k = 1; k < length; ++k) {
        const unsigned char next = byte(i + k);
        if ((next & 0xC0) != 0x80) {
            ++i;
            return kReplacement;
        }
        c = (c << 6) | (next & 0x3F);
    }
    const char32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
    if (c < smallest[length] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) {
        ++i;
        return kReplacement;
    }
    i += length;
    return c;
}

void append_utf8(std::string& out, char32_t c) {
    if (c < 0x80) {
        out.push_back(static_cast<char>(c));
    } else if (c < 0x800) {
        out.push_back(static_cast<char>(0xC0 | (c >> 6)));
        out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
    } else if (c < 0x10000) {
        out.push_back(static_cast<char>(0xE0 | (c >> 12)));
        out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
    } else {
        out.push_back(static_cast<char>(0xF0 | (c >> 18)));
        out.push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
    }
}

bool is_space(char32_t c) {
    return c <= 0x20 || (c >= 0x7F && c <= 0xA0) || (c >= 0x2000 && c <= 0x200B) || c == 0x2028 ||
           c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000 || c == 0xFEFF;
}

// Attaches to the character before it: combining marks, variation selectors, ZWJ, skin tones.
bool is_attaching(char32_t c) {
    return (c >= 0x0300 && c <= 0x036F) || c == 0x200D || (c >= 0xFE00 && c <= 0xFE0F) ||
           (c >= 0x1F3FB && c <= 0x1F3FF) || c == 0x20E3 || (c >= 0xE0020 && c <= 0xE007F);
}

bool is_digit(char32_t c) { return c >= '0' && c <= '9'; }

// Letters and digits of any script; symbols, punctuation and emoji are not.
bool is_word_char(char32_t c) {
    if (c < 0x80) return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    if (c < 0xC0) return c == 0xAA || c == 0xB5 || c == 0xBA;  // ª µ º; the rest are symbols
    if (c == 0xD7 || c == 0xF7) return false;                    // × ÷
    if (c >= 0x2000 && c <= 0x2BFF) return false;                // punctuation, currency, arrows, math, dingbats
    if (c >= 0x3000 && c <= 0x303F) return false;                // CJK punctuation
    if (c >= 0xFF00 && c <= 0xFF0F) return false;                // fullwidth punctuation
    if (c >= 0x1F000 && c <= 0x1FAFF) return false;              // emoji and pictographs
    if (c == kReplacement) return false;
    return true;
}

char32_t lowercase(char32_t c) {
    if (c >= 'A' && c <= 'Z') return c + 32;
    if ((c >= 0xC0 && c <= 0xDE && c != 0xD7)) return c + 32;
    if (c >= 0x100 && c <= 0x17F && c != 0x130 && c != 0x138 && c != 0x149 && c != 0x178) {
        // Latin Extended-A pairs capital/small as even/odd, except in 0x139–0x148 and 0x179–0x17E.
        const bool odd_capitals = (c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E);
        if (odd_capitals ? (c % 2 == 1) : (c % 2 == 0)) return c + 1;
        return c;
    }
    if (c == 0x178) return 0xFF;
    if (c >= 0x391 && c <= 0x3A9 && c != 0x3A2) return c + 32;
    if (c >= 0x410 && c <= 0x42F) return c + 32;
    if (c >= 0x400 && c <= 0x40F) return c + 80;
    return c;
}

struct Token {
    std::u32string text;
    bool word = false;
};

void emit(std::vector<std::string>& out, std::u32string_view text) {
    std::string utf8;
    for (char32_t c : text) append_utf8(utf8, c);
    out.push_back(std::move(utf8));
}

bool vocabulary_has(const VectorSet* vocabulary, std::u32string_view word) {
    std::string utf8;
    for (char32_t c : word) append_utf8(utf8, c);
    return vocabulary->find(utf8) >= 0;
}

// A stem without its clitic; hyphenated stems the vocabulary lacks split at the hyphens.
void emit_stem(std::vector<std::string>& out, std::u32string_view stem, const VectorSet* vocabulary) {
    if (stem.empty()) return;
    if (!vocabulary || stem.find(U'-') == std::u32string_view::npos || vocabulary_has(vocabulary, stem)) {
        emit(out, stem);
        return;
    }
    std::size_t start = 0;
    for (std::size_t k = 0; k <= stem.size(); ++k) {
        if (k == stem.size() || stem[k] == U'-') {
            emit(out, stem.substr(start, k - start));
            if (k < stem.size()) emit(out, U"-");
            start = k + 1;
        }
    }
}

bool ends_with(std::u32string_view s, std::u32string_view suffix) {
    return s.size() > suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

void emit_word(std::vector<std::string>& out, std::u32string_view word, const VectorSet* vocabulary) {
    // "do-n't": the n belongs to a hyphenated part, not to a clitic; splitting it off would leave
    // a stem ending in '-', whose hyphen split produced an empty token (found by fuzz_tokenizer).
    if (ends_with(word, U"n't") && word[word.size() - 4] != U'-') {
        emit_stem(out, word.substr(0, word.size() - 3), vocabulary);
        emit(out, U"n't");
        return;
    }
    for (std::u32string_view clitic : {U"'s", U"'re", U"'ve", U"'ll", U"'d", U"'m"}) {
        if (ends_with(word, clitic)) {
            emit_stem(out, word.substr(0, word.size() - clitic.size()), vocabulary);
            emit(out, clitic);
            return;
        }
    }
    emit_stem(out, word, vocabulary);
}

}  // namespace

std::vector<std::string> tokenize(std::string_view text, const VectorSet* vocabulary) {
    // Decode once, lowercase and fold ’ to ', so the rules below look at code points.
    std::u32string chars;
    chars.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        const char32_t c = decode(text, i);
        chars.push_back(c == 0x2019 ? U'\'' : lowercase(c));
    }

    std::vector<std::string> tokens;
    const std::size_t n = chars.size();
    const auto word_at = [&](std::size_t k) { return k < n && is_word_char(chars[k]); };
    std::size_t i = 0;
    while (i < n) {
        const char32_t c = chars[i];
        if (is_space(c)) {
            ++i;
            continue;
        }
        std::size_t end = i + 1;
        if (is_word_char(c)) {
            while (end < n) {
                const char32_t e = chars[end];
                const bool inner_joiner = ((e == U'-' || e == U'\'') && word_at(end + 1)) ||
                                          ((e == U'.' || e == U',') && is_digit(chars[end - 1]) &&
                                           end + 1 < n && is_digit(chars[end + 1]));
                if (!(is_word_char(e) || is_attaching(e) || inner_joiner)) break;
                ++end;
            }
            emit_word(tokens, std::u32string_view(chars).substr(i, end - i), vocabulary);
        } else {
            if (c == U'.') {
                while (end < n && chars[end] == U'.') ++end;
            }
            // Attaching marks, and whatever a zero-width joiner glues on, belong to this symbol.
            while (end < n && (is_attaching(chars[end]) || (chars[end - 1] == 0x200D && !is_space(chars[end])))) ++end;
            emit(tokens, std::u32string_view(chars).substr(i, end - i));
        }
        i = end;
    }
    return tokens;
}

}  // namespace posenc
