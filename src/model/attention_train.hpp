// Causal self-attention of one (batch row, head) for training, forward and backward, and the
// rotary rotation of one head's q or k row.
//
// Shapes (n positions, dh head width, stride = the qkv row stride 3d):
//   q, k, v   — n rows of dh at `stride` (rotary already applied to q and k)
//   dout, out — n rows of dh at out_stride (the head's columns of the concatenated output)
//   probs     — n×n softmax weights, row = query i, column = key j, exactly 0 above the diagonal
//   scratch   — dh·n (Kᵀ or Vᵀ);  dprobs — n×n
//   dq, dk, dv — n rows of dh at `stride` (overwritten)
// S_ij = scale·q_i·k_j + bias(i − j) for j ≤ i; P = softmax_j(S) with the row max subtracted.
// Query rows go in strips of kStrip so the products skip (most of) the masked upper triangle.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>

#include "model/matmul.hpp"
#include "model/row_ops.hpp"
#include "encodings/phases.hpp"

namespace posenc::model {

// The additive bias of a head as a function of the distance i − j ≥ 0.
template <class Real>
struct HeadBias {
    enum class Kind { none, alibi, t5 } kind = Kind::none;
    double slope = 0.0;                          // alibi: bias = −slope·(i − j)
    const Real* t5_values = nullptr;             // t5: t5_values[bucket·t5_stride], this head's column
    std::size_t t5_stride = 1;
    const std::int32_t* bucket_of_distance = nullptr;  // t5: n entries
    Real at(std::size_t distance) const {
        if (kind == Kind::alibi) return static_cast<Real>(-slope * static_cast<double>(distance));
        if (kind == Kind::t5) return t5_values[static_cast<std::size_t>(bucket_of_distance[distance]) * t5_stride];
        return Real(0);
    }
};

inline constexpr std::size_t kStrip = 4;

// Row i of the scores (n columns, the first i + 1 causal) to probabilities in place: S_ij =
// row[j]·scale + bias(i − j), then P_ij = e^(S_ij − max S_i·)/Σ for j ≤ i, and 0 after.
template <class Real>
void causal_softmax_row(Real* row, std::size_t i, std::size_t n, Real scale, const HeadBias<Real>& bias) {
    const std::size_t count = i + 1;
    if (bias.kind == HeadBias<Real>::Kind::none) {
        scale_into(row, scale, row, count);
    } else {
        for (std::size_t j = 0; j < count; ++j) row[j] = row[j] * scale + bias.at(i - j);
    }
    const Real sum = exp_shifted_sum(row, row_max(row, count), count, row);
    scale_into(row, Real(1) / sum, row, count);
    for (std::size_t j = count; j < n; ++j) row[j] = Real(0);
}

// Its backward on row i: g (dP on entry) becomes scale·dS with dS_ij = P_ij·(dP_ij − Σ_k P_ik·dP_ik);
// d_t5 (nullable) collects Σ dS per bucket as attention_head_backward describes.
template <class Real>
void causal_softmax_row_backward(const Real* p, Real* g, std::size_t i, std::size_t n, Real scale,
                                 const HeadBias<Real>& bias, Real* d_t5) {
    const std::size_t count = i + 1;
    const Real dot = row_dot(p, g, count);
    std::size_t j = 0;
#if POSENC_SIMD
    if constexpr (kSimdReal<Real>) {
        if (!d_t5) {
            for (; j < simd_prefix(count); j += kLanes)
                store(g + j, load(p + j) * (load(g + j) - Batch(dot)) * Batch(scale));
        }
    }
#endif
    POSENC_SCALAR_TAIL
    for (; j < count; ++j) {
        const Real ds = p[j] * (g[j] - dot);
        if (d_t5) {
            Real& cell = d_t5[static_cast<std::size_t>(bias.bucket_of_distance[i - j]) * bias.t5_stride];
            cell = cell + ds;
        }
        g[j] = ds * scale;
    }
    for (j = count; j < n; ++j) g[j] = Real(0);
}

// Rows first … n − 1 only of the pass below (rows before first are neither read nor written):
// probs and out from row first on (their row 0 is query row first), probs rows at stride ld ≥ n.
// Every row's values are those of the whole pass: scores and softmax are per row, and P·V sums
// each row's products in key order, the masked keys adding exact zeros.
template <class Real>
void attention_head_rows(const Real* q, const Real* k, const Real* v, std::size_t stride, std::size_t n,
                         std::size_t first, std::size_t dh, Real scale, const HeadBias<Real>& bias, Real* scratch,
                         Real* probs, std::size_t ld, Real* out, std::size_t out_stride) {
    transpose(k, n, dh, stride, scratch);
    for (std::size_t i0 = first; i0 < n; i0 += kStrip) {
        const std::size_t rows = n - i0 < kStrip ? n - i0 : kStrip;
        matmul(rows, i0 + rows, dh, q + i0 * stride, stride, 1, scratch, n, probs + (i0 - first) * ld, ld, false);
    }
    for (std::size_t i = first; i < n; ++i) causal_softmax_row(probs + (i - first) * ld, i, n, scale, bias);
    for (std::size_t i0 = first; i0 < n; i0 += kStrip) {
        const std::size_t rows = n - i0 < kStrip ? n - i0 : kStrip;
        matmul(rows, dh, i0 + rows, probs + (i0 - first) * ld, ld, 1, v, stride, out + (i0 - first) * out_stride,
               out_stride, false);
    }
}

template <class Real>
void attention_head_forward(const Real* q, const Real* k, const Real* v, std::size_t stride, std::size_t n,
                            std::size_t dh, Real scale, const HeadBias<Real>& bias, Real* scratch, Real* probs,
                            Real* out, std::size_t out_stride) {
    attention_head_rows(q, k, v, stride, n, 0, dh, scale, bias, scratch, probs, n, out, out_stride);
}

// Backward of the above. d_t5 (nullable): this head's column of the t5 table's gradient
// (d_t5[bucket·t5_stride] += Σ dS over the pairs in that bucket). dprobs ends holding scale·dS.
template <class Real>
void attention_head_backward(const Real* q, const Real* k, const Real* v, std::size_t stride, std::size_t n,
                             std::size_t dh, Real scale, const Real* probs, const Real* dout, std::size_t out_stride,
                             const HeadBias<Real>& bias, Real* d_t5, Real* scratch, Real* dprobs, Real* dq, Real* dk,
                             Real* dv) {
    transpose(v, n, dh, stride, scratch);
    for (std::size_t i0 = 0; i0 < n; i0 += kStrip) {
        const std::size_t rows = n - i0 < kStrip ? n - i0 : kStrip;
        matmul(rows, i0 + rows, dh, dout + i0 * out_stride, out_stride, 1, scratch, n, dprobs + i0 * n, n, false);
    }
    for (std::size_t i = 0; i < n; ++i) causal_softmax_row_backward(probs + i * n, dprobs + i * n, i, n, scale, bias, d_t5);
    for (std::size_t i0 = 0; i0 < n; i0 += kStrip) {
        const std::size_t rows = n - i0 < kStrip ? n - i0 : kStrip;
        matmul(rows, dh, i0 + rows, dprobs + i0 * n, n, 1, k, stride, dq + i0 * stride, stride, false);
        // Key / value rows j ∈ [i0, i0 + rows) collect from queries i ≥ i0 only: Aᵀ through strides.
        matmul(rows, dh, n - i0, dprobs + i0 * n + i0, 1, n, q + i0 * stride, stride, dk + i0 * stride, stride, false);
        matmul(rows, dh, n - i0, probs + i0 * n + i0, 1, n, dout + i0 * out_stride, out_stride, dv + i0 * stride,
               stride, false);
    }
}

// Rotates one head row x (dh values) in place by the angles of a sin/cos table row
// (sin_cos[2i] = sin θ_i, sin_cos[2i + 1] = cos θ_i): pair i = (2i, 2i + 1) or (i, i + dh/2),
// (a, b) → (a·cos − b·sin, a·sin + b·cos). inverse rotates by −θ: the transpose, which carries a
// gradient from the rotated values back to the unrotated ones.
template <class Real>
void rotate_head(Real* x, std::size_t dh, Layout pairing, const Real* sin_cos, bool inverse) {
    const std::size_t pairs = dh / 2;
    for (std::size_t i = 0; i < pairs; ++i) {
        const std::size_t first = pairing == Layout::interleaved ? 2 * i : i;
        const std::size_t second = pairing == Layout::interleaved ? 2 * i + 1 : i + pairs;
        const Real s = inverse ? -sin_cos[2 * i] : sin_cos[2 * i], c = sin_cos[2 * i + 1];
        const Real a = x[first], b = x[second];
        x[first] = a * c - b * s;
        x[second] = a * s + b * c;
    }
}

}  // namespace posenc::model
