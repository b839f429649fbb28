// LayerNorm over the last dimension (eps 1e-5, biased variance), forward and backward.
//
// Shapes: x, y, dy, dx — N×d rows;  w, b, dw, db — d;  mean, rstd — N (saved for the backward)
// y = (x − mean)·rstd·w + b with rstd = 1/√(var + eps), var = Σ(x − mean)²/d.
#pragma once

#include <cmath>
#include <cstddef>

namespace posenc::model {

inline constexpr double kLayerNormEps = 1e-5;

template <class Real>
void layernorm_forward(const Real* x, std::size_t N, std::size_t d, const Real* w, const Real* b, Real* y,
                       Real* mean, Real* rstd) {
    const Real inv_d = Real(1) / static_cast<Real>(d);
    for (std::size_t r = 0; r < N; ++r) {
        const Real* row = x + r * d;
        Real sum = 0;
        for (std::size_t j = 0; j < d; ++j) sum = sum + row[j];
        const Real mu = sum * inv_d;
        Real sq = 0;
        for (std::size_t j = 0; j < d; ++j) sq = sq + (row[j] - mu) * (row[j] - mu);
        const Real rs = Real(1) / std::sqrt(sq * inv_d + static_cast<Real>(kLayerNormEps));
        for (std::size_t j = 0; j < d; ++j) y[r * d + j] = (row[j] - mu) * rs * w[j] + b[j];
        mean[r] = mu;
        rstd[r] = rs;
    }
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
        Real g_sum = 0, gx_sum = 0;
        for (std::size_t j = 0; j < d; ++j) {
            const Real xhat = (row[j] - mean[r]) * rstd[r];
            const Real g = g_row[j] * w[j];
            g_sum = g_sum + g;
            gx_sum = gx_sum + g * xhat;
            dw[j] = dw[j] + g_row[j] * xhat;
            db[j] = db[j] + g_row[j];
        }
        const Real g_mean = g_sum * inv_d, gx_mean = gx_sum * inv_d;
        for (std::size_t j = 0; j < d; ++j) {
            const Real xhat = (row[j] - mean[r]) * rstd[r];
            const Real grad = rstd[r] * (g_row[j] * w[j] - g_mean - xhat * gx_mean);
            dx[r * d + j] = accumulate ? dx[r * d + j] + grad : grad;
        }
    }
}

}  // namespace posenc::model
