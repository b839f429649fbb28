// LayerNorm over the last dimension (eps 1e-5, biased variance), forward and backward.
//
// Shapes: x, y, dy, dx — N×d rows;  w, b, dw, db — d;  mean, rstd — N (saved for the backward)
// y = (x − mean)·rstd·w + b with rstd = 1/√(var + eps), var = Σ(x − mean)²/d.
// Float rows run as batch loops + scalar tails (row_ops.hpp); sums in the batch order of the build.
#pragma once

#include <cmath>
#include <cstddef>

#include "model/row_ops.hpp"

namespace posenc::model {

inline constexpr double kLayerNormEps = 1e-5;

template <class Real>
void layernorm_forward(const Real* x, std::size_t N, std::size_t d, const Real* w, const Real* b, Real* y,
                       Real* mean, Real* rstd) {
    const Real inv_d = Real(1) / static_cast<Real>(d);
    for (std::size_t r = 0; r < N; ++r) {
        const Real* row = x + r * d;
        Real* out = y + r * d;
        const Real mu = row_sum(row, d) * inv_d;
        const Real rs = Real(1) / std::sqrt(row_centered_squares(row, mu, d) * inv_d + static_cast<Real>(kLayerNormEps));
        row_apply<Real>(d, [&](std::size_t j, auto f) {
            using F = decltype(f);
            set_lanes(out + j, (lanes_at<F>(row + j) - F(mu)) * F(rs) * lanes_at<F>(w + j) + lanes_at<F>(b + j));
        });
        mean[r] = mu;
        rstd[r] = rs;
    }
}

// One lane group j of the backward's first pass: dw += dy·x̂, db += dy, gx_acc += g·x̂; returns g =
// dy·w. F is Real (one j) or Batch (kLanes of them).
template <class F, class Real>
inline F layernorm_grad_terms(const Real* x, const Real* dy, const Real* w, Real mu, Real rs, Real* dw, Real* db,
                              std::size_t j, F& gx_acc) {
    const F xhat = (lanes_at<F>(x + j) - F(mu)) * F(rs), dyj = lanes_at<F>(dy + j);
    const F g = dyj * lanes_at<F>(w + j);
    gx_acc = gx_acc + g * xhat;
    set_lanes(dw + j, lanes_at<F>(dw + j) + dyj * xhat);
    set_lanes(db + j, lanes_at<F>(db + j) + dyj);
    return g;
}

// dx = rstd·(g − mean(g) − x̂·mean(g·x̂)) with g = dy·w, x̂ = (x − mean)·rstd; dw += Σ dy·x̂,
// db += Σ dy. dx is overwritten unless accumulate (the residual stream adds it to its gradient).
template <class Real>
void layernorm_backward(const Real* x, const Real* dy, std::size_t N, std::size_t d, const Real* w,
                        const Real* mean, const Real* rstd, Real* dx, Real* dw, Real* db, bool accumulate) {
    const Real inv_d = Real(1) / static_cast<Real>(d);
    for (std::size_t r = 0; r < N; ++r) {
        const Real* row = x + r * d;
        const Real* g_row = dy + r * d;
        Real* dx_row = dx + r * d;
        const Real mu = mean[r], rs = rstd[r];
        // Σ g and Σ g·x̂ in one pass: two sums, so row_accumulate's single total does not fit.
        Real g_sum = 0, gx_sum = 0;
        std::size_t j = 0;
#if POSENC_SIMD
        if constexpr (kSimdReal<Real>) {
            Batch g_acc(0.0f), gx_acc(0.0f);
            for (; j < simd_prefix(d); j += kLanes) {
                g_acc = g_acc + layernorm_grad_terms(row, g_row, w, mu, rs, dw, db, j, gx_acc);
            }
            g_sum = sum_lanes(g_acc);
            gx_sum = sum_lanes(gx_acc);
        }
#endif
        POSENC_SCALAR_TAIL
        for (; j < d; ++j) g_sum = g_sum + layernorm_grad_terms(row, g_row, w, mu, rs, dw, db, j, gx_sum);
        const Real g_mean = g_sum * inv_d, gx_mean = gx_sum * inv_d;
        row_apply<Real>(d, [&](std::size_t j, auto f) {
            using F = decltype(f);
            const F xhat = (lanes_at<F>(row + j) - F(mu)) * F(rs);
            const F grad = F(rs) * (lanes_at<F>(g_row + j) * lanes_at<F>(w + j) - F(g_mean) - xhat * F(gx_mean));
            set_lanes(dx_row + j, accumulate ? lanes_at<F>(dx_row + j) + grad : grad);
        });
    }
}

}  // namespace posenc::model
