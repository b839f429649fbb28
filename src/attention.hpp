// Scaled dot-product attention and its pieces.
//
// Shapes:
//   q      — n_q×d row-major queries;  k, v — n_k×d keys and values
//   scores — n_q×n_k row-major; weights — the same after softmax; output — n_q×d
//   w      — d_in×d_out row-major projection matrix
// Causal masking hides key j from query i when j > i: the score is −∞ and the weight exactly 0.
// All outputs are caller-owned; no function allocates.
#pragma once

#include <cstddef>
#include <cstdint>

namespace posenc {

float dot(const float* a, const float* b, std::size_t d);

// scores[i][j] = scale · q_i·k_j (−∞ above the diagonal when causal).
void attention_scores(const float* q, const float* k, std::size_t n_q, std::size_t n_k,
                      std::size_t d, float scale, bool causal, float* scores);

// Row-wise softmax with max subtraction; may run in place (weights == scores).
// Causal rows only read and normalise columns j ≤ i; the rest are written as exact zeros.
void softmax_rows(const float* scores, std::size_t n_q, std::size_t n_k, bool causal, float* weights);

// output_i = Σ_j weights[i][j] · v_j.
void weighted_sum(const float* weights, const float* v, std::size_t n_q, std::size_t n_k,
                  std::size_t d, bool causal, float* output);

// The three steps above; weights (n×n) doubles as the score buffer.
void attention(const float* q, const float* k, const float* v, std::size_t n, std::size_t d,
               float scale, bool causal, float* weights, float* output);

// out = x · w  (x: n×d_in, w: d_in×d_out, out: n×d_out).
void project(const float* x, std::size_t n, std::size_t d_in, const float* w, std::size_t d_out,
             float* out);

}  // namespace posenc
