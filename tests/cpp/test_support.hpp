// Helpers shared by the Catch2 suites: seeded inputs, the tail sizes, error measures.
#pragma once

#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "embedding.hpp"

namespace posenc::test {

// True under `-s`, where tests print the errors they measured.
inline bool verbose() { return Catch::getCurrentContext().getConfig()->includeSuccessfulResults(); }

// Deterministic uniform values in [-scale, scale) on every platform (SplitMix64, fixed seed).
inline std::vector<float> random_values(std::size_t count, std::uint64_t seed, float scale = 1.0f) {
    std::vector<float> out(count);
    posenc::uniform_values(seed, count, scale, out.data());
    return out;
}

// Sizes that hit every tail of the 4-lane loops (and the 8-wide two-accumulator loop of dot).
inline constexpr std::size_t kTailSizes[] = {1, 2, 3, 4, 5, 6, 7, 8, 10, 14, 15, 16, 17, 63, 64, 100, 128};

inline double max_abs_diff(const float* got, const double* want, std::size_t count) {
    double m = 0.0;
    for (std::size_t i = 0; i < count; ++i) m = std::fmax(m, std::fabs(got[i] - want[i]));
    return m;
}

}  // namespace posenc::test
