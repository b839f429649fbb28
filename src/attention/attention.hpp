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
// out[r] = dot(q, k + r·d, d) for r = 0 … 3, bit for bit (q read once for the four rows).
void dot_rows4(const float* q, const float* k, std::size_t d, float* out);

// out[r] = Σ_c q[c]·k_r[c] summed in order c = 0 … d − 1 (each sum's own rounding, as one
// sequential loop would give it), for four rows side by side: independent sums hide the add
// latency. The scalar build's QKᵀ, the retriever's exact rescoring and compare()'s few-row
// products all rest on this order.
inline void sequential_dots4(const float* q, const float* k0, const float* k1, const float* k2, const float* k3,
                             std::size_t d, float* out) {
    float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
    for (std::size_t c = 0; c < d; ++c) {
        s0 = s0 + q[c] * k0[c];
        s1 = s1 + q[c] * k1[c];
        s2 = s2 + q[c] * k2[c];
        s3 = s3 + q[c] * k3[c];
    }
    out[0] = s0;
    out[1] = s1;
    out[2] = s2;
    out[3] = s3;
}

// scores[i][j] = scale · q_i·k_j (−∞ above the diagonal when causal).
void attention_scores(const float* q, const float* k, std::size_t n_q, std::size_t n_k,
                      std::size_t d, float scale, bool causal, float* scores);

// Row-wise softmax with max subtraction; may run in place (weights == scores).
// Causal rows only read and normalise columns j ≤ i; the rest are written as exact zeros.
void softmax_rows(const float* scores, std::size_t n_q, std::size_t n_k, bool causal, float* weights);

// Whether softmax rows (those of softmax_rows or softmax_rows_kept: `rows` of n_k) are finite,
// read from each row's first entry. A row's weights are its exps (each in [0, 1], or NaN from a
// NaN score) times one factor 1/sum: a NaN exp makes the sum and so every weight NaN, and a zero
// sum (every exp flushed) makes the factor ∞ and every weight NaN or ∞; otherwise every weight
// is finite, as the infinite limits' are. So a row is all finite or has no finite entry in
// [0, visible), and its entry 0 is always visible: n checks rather than n·n_k.
bool softmax_rows_finite(const float* weights, std::size_t rows, std::size_t n_k);

// softmax_rows(scores, n, n, causal, weights), bit for bit, for scores whose leading kept×kept
// block is the last call's (compare()'s row reuse) and which keeps what the next call needs:
//   exps   — n×n in/out: in, for rows i < kept, the last call's exps exp(s − shift) in columns
//            below kept (and below the causal diagonal); out, this call's exps of every row
//   shifts — n in/out: each row's shift (its maximum score) for those exps; NaN where a row of
//            ±∞ scores left none
// A kept row whose shift is unchanged (its maximum did not move to a new column) takes the exps
// of its kept columns as they are, summed in softmax's order, and exponentiates only the rest,
// so exp runs over O(n·(n − kept)) entries rather than n². exps and shifts must not alias
// scores; weights may.
void softmax_rows_kept(const float* scores, std::size_t n, bool causal, std::size_t kept, float* exps, float* shifts,
                       float* weights);

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
