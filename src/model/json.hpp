// A small strict JSON reader (RFC 8259) for the weights file's header and the config it holds,
// plus the string escaping its writer needs. Hardened for hostile input: the text must be valid
// UTF-8, nesting is bounded (kMaxJsonDepth), the tree is bounded (kMaxJsonValues values), a
// duplicate key in any object is an error, and a number keeps its literal text so integers
// (offsets up to 2^64 − 1) are read exactly.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace posenc::model {

inline constexpr std::size_t kMaxJsonDepth = 32;
// Enough for a weights header (≈ 7 values per tensor, ≤ 200 tensors) and for a vocabulary
// array of kMaxVocab strings; caps the tree at a few tens of MB whatever the text's length.
inline constexpr std::size_t kMaxJsonValues = std::size_t{1} << 18;

struct JsonValue {
    enum class Kind { null, boolean, number, string, array, object };
    Kind kind = Kind::null;
    bool boolean = false;
    std::string text;  // a string's decoded value, or a number's literal text
    std::vector<JsonValue> items;                             // array
    std::vector<std::pair<std::string, JsonValue>> members;   // object, in file order

    // The member named key, or nullptr (objects only).
    const JsonValue* find(std::string_view key) const;
};

// "" when text is one JSON value (surrounded by optional whitespace), else a message saying
// what is wrong and at which byte.
std::string parse_json(std::string_view text, JsonValue& out);

// Offset of the first byte that breaks UTF-8 (overlong forms, surrogates and code points past
// U+10FFFF included), or text.size() when it is all valid.
std::size_t first_invalid_utf8(std::string_view text);

// Appends code point cp (≤ U+10FFFF, not a surrogate) encoded as UTF-8.
void append_utf8(std::string& out, std::uint32_t cp);

// A number literal without sign, fraction or exponent that fits in 64 bits.
bool json_to_uint(const JsonValue& v, std::uint64_t& out);
// Any number literal, as the nearest double.
bool json_to_double(const JsonValue& v, double& out);

// Appends s as a JSON string literal (quotes included); s must be valid UTF-8.
void append_json_string(std::string& out, std::string_view s);

}  // namespace posenc::model
