// The positional schemes by identity: the enum every layer uses to name one, and scheme sets.
// (The scheme table — labels, families, parameters, limits — builds on this enum.)
#pragma once

#include <cstdint>

namespace posenc {

// Display order; the bit of scheme s in a scheme set is 1 << s.
enum class Scheme : unsigned {
    additive, concatenated, rotary, learned, alibi, nope, t5, xpos, rope_pi, rope_ntk, yarn
};
inline constexpr unsigned kSchemeCount = static_cast<unsigned>(Scheme::yarn) + 1;  // yarn: the last
using SchemeSet = std::uint32_t;
inline constexpr SchemeSet scheme_bit(Scheme s) { return SchemeSet{1} << static_cast<unsigned>(s); }
inline constexpr SchemeSet kClassicSchemes =
    scheme_bit(Scheme::additive) | scheme_bit(Scheme::concatenated) | scheme_bit(Scheme::rotary);
inline constexpr SchemeSet kAllSchemes = (SchemeSet{1} << kSchemeCount) - 1;
inline constexpr bool has(SchemeSet set, Scheme s) { return (set & scheme_bit(s)) != 0; }

}  // namespace posenc
