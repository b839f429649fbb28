// Combining word vectors with position: additive and concatenated inputs, and the logit
// decomposition into content and position terms (Ke et al., TUPE).
//
// Shapes:
//   e      — n×d_src word vectors;  pe — n×d_pos sinusoidal table
//   out    — n×d (additive) or n×(d_word + d_pos) (concatenated), caller-owned
//   terms  — 4×n×n: [a·a, a·b, b·a, b·b] for q = a + b, k = a + b, each times scale
#pragma once

#include <cstddef>

namespace posenc {

// out = alpha·e + pe over count elements.
void add_encoding(const float* e, float alpha, const float* pe, std::size_t count, float* out);

// out row p = [alpha·e[p][0 … d_word) ; pe[p]] — the word vector truncated to d_word dims.
void concatenate_encoding(const float* e, std::size_t n, std::size_t d_src, std::size_t d_word,
                          float alpha, const float* pe, std::size_t d_pos, float* out);

// The four n×n terms of (q_a + q_b)·(k_a + k_b)ᵀ·scale; all inputs n×d. When the queries are
// the keys (same pointers, W = I) the third term is the transpose of the second and is copied.
void logit_terms(const float* q_a, const float* q_b, const float* k_a, const float* k_b,
                 std::size_t n, std::size_t d, float scale, float* terms);

}  // namespace posenc
