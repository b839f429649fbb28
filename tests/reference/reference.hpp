// Plain float64 references for the kernels: straight loops over the definitions in docs/ARCHITECTURE.md ("The math"),
// no SIMD, no tricks. Tests compare every kernel against these.
//
// Shapes match the kernels they mirror (row-major, n rows of d).
#pragma once

#include <cstddef>
#include <vector>

#include "encodings/phases.hpp"

namespace posenc::reference {

std::vector<double> sinusoidal(std::size_t n, std::size_t d, double base, Layout layout,
                               double first_position = 0.0);

std::vector<double> rotate(const float* x, std::size_t n, std::size_t d, double base, double offset,
                           Layout pairing);

// rotate() with explicit per-pair frequencies omega[i] (d/2 of them) at positions p = 0 … n − 1.
std::vector<double> rotate_with_frequencies(const float* x, std::size_t n, std::size_t d, const double* omega,
                                            Layout pairing);

// scores[i][j] = scale · q_i·k_j (n×n, no mask) for float64 rows of width d.
std::vector<double> logits(const std::vector<double>& q, const std::vector<double>& k, std::size_t n, std::size_t d,
                           double scale);

// Row-wise softmax of n_q×n_k scores; when causal, entries j > i are exactly 0.
std::vector<double> softmax_rows(const std::vector<double>& scores, std::size_t n_q, std::size_t n_k, bool causal);

struct AttentionResult {
    std::vector<double> scores, weights, output;  // n×n, n×n, n×d
};
AttentionResult attention(const float* q, const float* k, const float* v, std::size_t n, std::size_t d,
                          double scale, bool causal);

}  // namespace posenc::reference
