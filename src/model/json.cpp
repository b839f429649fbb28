#include "model/json.hpp"

#include <algorithm>
#include <cstdlib>

#include "base/limits.hpp"

namespace posenc::model {

const JsonValue* JsonValue::find(std::string_view key) const {
    for (const auto& member : members)
        if (member.first == key) return &member.second;
    return nullptr;
}

std::size_t first_invalid_utf8(std::string_view text) {
    const auto* s = reinterpret_cast<const unsigned char*>(text.data());
    const std::size_t n = text.size();
    std::size_t i = 0;
    while (i < n) {
        const unsigned c = s[i];
        if (c < 0x80) { ++i; continue; }
        std::size_t len = 0;
        std::uint32_t cp = 0, min = 0;
        if (c >= 0xC2 && c <= 0xDF) { len = 2; cp = c & 0x1F; min = 0x80; }
        else if (c >= 0xE0 && c <= 0xEF) { len = 3; cp = c & 0x0F; min = 0x800; }
        else if (c >= 0xF0 && c <= 0xF4) { len = 4; cp = c & 0x07; min = 0x10000; }
        else return i;
        if (n - i < len) return i;
        for (std::size_t k = 1; k < len; ++k) {
            if ((s[i + k] & 0xC0) != 0x80) return i;
            cp = (cp << 6) | (s[i + k] & 0x3F);
        }
        if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return i;
        i += len;
    }
    return n;
}

void append_utf8(std::string& out, std::uint32_t cp) {
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}

namespace {

int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Recursive descent over text, which first_invalid_utf8 has already accepted.
class Parser {
public:
    explicit Parser(std::string_view text) : text_(text) {}

    std::string parse(JsonValue& out) {
        skip_space();
        if (!value(out, 0)) return error_;
        skip_space();
        if (pos_ != text_.size()) return fail("unexpected text after the value");
        return {};
    }

private:
    std::string_view text_;
    std::size_t pos_ = 0;
    std::size_t values_ = 0;
    std::string error_;

    std::string fail(const char* what) {
        error_ = what + std::string(" at byte ") + std::to_string(pos_);
        return error_;
    }
    bool at_end() const { return pos_ >= text_.size(); }
    char peek() const { return text_[pos_]; }
    void skip_space() {
        while (!at_end() && (peek() == ' ' || peek() == '\t' || peek() == '\n' || peek() == '\r')) ++pos_;
    }
    bool literal(std::string_view word) {
        if (text_.substr(pos_, word.size()) != word) return fail("invalid literal"), false;
        pos_ += word.size();
        return true;
    }

    bool value(JsonValue& out, std::size_t depth) {
        if (depth >= kMaxJsonDepth) return fail(limits::limit_message("nesting deeper than ", kMaxJsonDepth)), false;
        if (++values_ > kMaxJsonValues) return fail(limits::limit_message("more than ", kMaxJsonValues, " values")), false;
        if (at_end()) return fail("unexpected end of text"), false;
        switch (peek()) {
            case '{': return object(out, depth);
            case '[': return array(out, depth);
            case '"': out.kind = JsonValue::Kind::string; return string(out.text);
            case 't': out.kind = JsonValue::Kind::boolean; out.boolean = true; return literal("true");
            case 'f': out.kind = JsonValue::Kind::boolean; return literal("false");
            case 'n': out.kind = JsonValue::Kind::null; return literal("null");
            default: out.kind = JsonValue::Kind::number; return number(out.text);
        }
    }

    // The list grammar objects and arrays share: the opening bracket at pos_, then nothing or
    // entries read by read_entry() (which starts past any space), separated by ',', then close.
    // `where` and `expected` name the container in the messages.
    template <class ReadEntry>
    bool entries(char close, const char* where, const char* expected, ReadEntry read_entry) {
        ++pos_;
        skip_space();
        if (!at_end() && peek() == close) return ++pos_, true;
        for (;;) {
            skip_space();
            if (!read_entry()) return false;
            skip_space();
            if (at_end()) return fail(where), false;
            if (peek() == close) return ++pos_, true;
            if (peek() != ',') return fail(expected), false;
            ++pos_;
        }
    }

    bool object(JsonValue& out, std::size_t depth) {
        out.kind = JsonValue::Kind::object;
        const bool read = entries('}', "unexpected end of text in an object", "expected ',' or '}'", [&] {
            if (at_end() || peek() != '"') return fail("expected a key string"), false;
            std::string key;
            if (!string(key)) return false;
            skip_space();
            if (at_end() || peek() != ':') return fail("expected ':'"), false;
            ++pos_;
            skip_space();
            out.members.emplace_back(std::move(key), JsonValue{});
            return value(out.members.back().second, depth + 1);
        });
        return read && unique_keys(out);
    }

    // Sorting copies keeps the check O(k log k) on objects with many keys.
    bool unique_keys(const JsonValue& obj) {
        std::vector<std::string_view> keys;
        keys.reserve(obj.members.size());
        for (const auto& m : obj.members) keys.push_back(m.first);
        std::sort(keys.begin(), keys.end());
        const auto dup = std::adjacent_find(keys.begin(), keys.end());
        if (dup == keys.end()) return true;
        error_ = "duplicate key \"" + std::string(*dup) + "\" in an object ending at byte " + std::to_string(pos_);
        return false;
    }

    bool array(JsonValue& out, std::size_t depth) {
        out.kind = JsonValue::Kind::array;
        return entries(']', "unexpected end of text in an array", "expected ',' or ']'", [&] {
            out.items.emplace_back();
            return value(out.items.back(), depth + 1);
        });
    }

    bool hex4(std::uint32_t& cp) {
        if (text_.size() - pos_ < 4) return fail("truncated \\u escape"), false;
        cp = 0;
        for (int k = 0; k < 4; ++k) {
            const int h = hex_digit(text_[pos_ + k]);
            if (h < 0) return fail("invalid \\u escape"), false;
            cp = cp * 16 + static_cast<std::uint32_t>(h);
        }
        pos_ += 4;
        return true;
    }

    bool escape(std::string& out) {
        if (at_end()) return fail("unterminated string"), false;
        const char c = text_[pos_++];
        switch (c) {
            case '"': case '\\': case '/': out += c; return true;
            case 'b': out += '\b'; return true;
            case 'f': out += '\f'; return true;
            case 'n': out += '\n'; return true;
            case 'r': out += '\r'; return true;
            case 't': out += '\t'; return true;
            case 'u': break;
            default: --pos_; return fail("invalid escape"), false;
        }
        std::uint32_t cp = 0;
        if (!hex4(cp)) return false;
        if (cp >= 0xDC00 && cp <= 0xDFFF) return fail("lone low surrogate"), false;
        if (cp >= 0xD800 && cp <= 0xDBFF) {
            std::uint32_t low = 0;
            if (text_.substr(pos_, 2) != "\\u") return fail("lone high surrogate"), false;
            pos_ += 2;
            if (!hex4(low)) return false;
            if (low < 0xDC00 || low > 0xDFFF) return fail("lone high surrogate"), false;
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
        }
        append_utf8(out, cp);
        return true;
    }

    bool string(std::string& out) {
        ++pos_;  // opening quote
        for (;;) {
            if (at_end()) return fail("unterminated string"), false;
            const char c = text_[pos_];
            if (c == '"') return ++pos_, true;
            if (static_cast<unsigned char>(c) < 0x20) return fail("control character in a string"), false;
            ++pos_;
            if (c == '\\') {
                if (!escape(out)) return false;
            } else {
                out += c;
            }
        }
    }

    // -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
    bool number(std::string& out) {
        const std::size_t start = pos_;
        auto digits = [&] {
            const std::size_t from = pos_;
            while (!at_end() && is_digit(peek())) ++pos_;
            return pos_ > from;
        };
        if (!at_end() && peek() == '-') ++pos_;
        if (at_end() || !is_digit(peek())) return fail("invalid value"), false;
        if (peek() == '0') ++pos_; else digits();
        if (!at_end() && peek() == '.') {
            ++pos_;
            if (!digits()) return fail("invalid number"), false;
        }
        if (!at_end() && (peek() == 'e' || peek() == 'E')) {
            ++pos_;
            if (!at_end() && (peek() == '+' || peek() == '-')) ++pos_;
            if (!digits()) return fail("invalid number"), false;
        }
        out.assign(text_.substr(start, pos_ - start));
        return true;
    }
};

}  // namespace

std::string parse_json(std::string_view text, JsonValue& out) {
    out = JsonValue{};
    const std::size_t bad = first_invalid_utf8(text);
    if (bad != text.size()) return "invalid UTF-8 at byte " + std::to_string(bad);
    return Parser(text).parse(out);
}

bool json_to_uint(const JsonValue& v, std::uint64_t& out) {
    if (v.kind != JsonValue::Kind::number || v.text.empty()) return false;
    std::uint64_t value = 0;
    for (char c : v.text) {
        if (!is_digit(c)) return false;
        const auto digit = static_cast<std::uint64_t>(c - '0');
        if (value > (UINT64_MAX - digit) / 10) return false;
        value = value * 10 + digit;
    }
    out = value;
    return true;
}

bool json_to_double(const JsonValue& v, double& out) {
    if (v.kind != JsonValue::Kind::number) return false;
    // The literal is a validated JSON number, which strtod reads the same in the "C" locale.
    out = std::strtod(v.text.c_str(), nullptr);
    return true;
}

void append_json_string(std::string& out, std::string_view s) {
    static const char* const kHex = "0123456789abcdef";
    out += '"';
    for (char c : s) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (c == '\n') {
            out += "\\n";
        } else if (u < 0x20) {
            out += "\\u00";
            out += kHex[u >> 4];
            out += kHex[u & 15];
        } else {
            out += c;
        }
    }
    out += '"';
}

}  // namespace posenc::model
