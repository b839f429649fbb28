// Float64 references shared by the analyses' tests (test_analyses.cpp, test_nearest.cpp).
#pragma once

#include <cmath>
#include <cstddef>
#include <vector>

#include "analysis/analyses.hpp"

namespace posenc::test {

// Sizes that hit every tail of the 4-lane loops and the 8-wide loop of dot.
inline constexpr std::size_t kSizes[] = {1, 3, 4, 5, 7, 8, 15, 16, 17, 63, 100};

inline double dot64(const float* a, const float* b, std::size_t d) {
    double s = 0.0;
    for (std::size_t j = 0; j < d; ++j) s += static_cast<double>(a[j]) * b[j];
    return s;
}

// Float64 cosine; 0 when either vector is zero (the contract for a zero query).
inline double cosine64(const float* a, const float* b, std::size_t d) {
    const double na = std::sqrt(dot64(a, a, d)), nb = std::sqrt(dot64(b, b, d));
    return na > 0.0 && nb > 0.0 ? dot64(a, b, d) / (na * nb) : 0.0;
}

// normalize_rows' unit rows of an n×d matrix.
inline std::vector<float> unit_rows(const std::vector<float>& m, std::size_t n, std::size_t d) {
    std::vector<float> out(n * d);
    posenc::normalize_rows(m.data(), n, d, out.data());
    return out;
}

}  // namespace posenc::test
