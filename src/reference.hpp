// Plain float64 references for the kernels: straight loops over the definitions in DESIGN.md,
// no SIMD, no tricks. Tests compare every kernel against these.
//
// Shapes match the kernels they mirror (row-major, n rows of d).
#pragma once

#include <cstddef>
#include <vector>

#include "phases.hpp"

namespace posenc::reference {

std::vector<double> sinusoidal(std::size_t n, std::size_t d, double base, Layout layout,
                               double first_position = 0.0);

std::vector<double> rotate(const float* x, std::size_t n, std::size_t d, double base, double offset,
                           Layout pairing);

// Row-wise softmax of n_q×n_k scores; when causal, entries j > i are exactly 0.
std::vector<double> softmax_rows(const std::vector<double>& scores, std::size_t n_q, std::size_t n_k, bool causal);

struct AttentionResult {
    std::vector<double> scores, weights, output;  // n×n, n×n, n×d
};
AttentionResult attention(const float* q, const float* k, const float* v, std::size_t n, std::size_t d,
                          double scale, bool causal);

}  // namespace posenc::reference
