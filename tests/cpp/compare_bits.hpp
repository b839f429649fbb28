// Bit-for-bit comparison of two compare() results, for the tests that require identical bits
// (row reuse, the one-call Analysis).
#pragma once

#include <cstring>
#include <string>
#include <vector>

#include "compare/compare.hpp"

namespace posenc::test {

inline bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
}

// Every output of every lane, bit for bit; names the first that differs.
inline std::string first_difference(const posenc::CompareResult& got, const posenc::CompareResult& want) {
    if (!same_bits(got.pe, want.pe)) return "pe";
    if (!same_bits(got.pe_concat, want.pe_concat)) return "pe_concat";
    for (unsigned s = 0; s < posenc::kSchemeCount; ++s) {
        const posenc::SchemeResult& a = got.lane(static_cast<posenc::Scheme>(s));
        const posenc::SchemeResult& b = want.lane(static_cast<posenc::Scheme>(s));
        const std::string lane = "scheme " + std::to_string(s) + " ";
        if (a.width != b.width) return lane + "width";
        if (!same_bits(a.x, b.x)) return lane + "x";
        if (!same_bits(a.weights, b.weights)) return lane + "weights";
        if (!same_bits(a.terms, b.terms)) return lane + "terms";
        if (!same_bits(a.masked, b.masked)) return lane + "masked";
        if (!same_bits(a.unmasked, b.unmasked)) return lane + "unmasked";
    }
    return "";
}

}  // namespace posenc::test
