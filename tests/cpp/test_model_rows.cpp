// The step's per-row kernels (row_ops.hpp, LayerNorm, cross-entropy) in float — batch loops and
// scalar tails in the SIMD build — against their float64 instantiation, on row lengths that hit
// every tail (1 … 9, 15, 17, and the benchmark's 64 and 96). Tolerances are first-order rounding
// bounds in units of u = 2^-24, derived per kernel in the comments; softmax rows are covered by the
// attention head test in test_model_kernels.cpp.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "model/cross_entropy.hpp"
#include "model/layernorm.hpp"
#include "model/row_ops.hpp"
#include "model_reference.hpp"
#include "test_support.hpp"

using namespace posenc;
using namespace posenc::model;
using namespace posenc::test;

namespace {
constexpr double kUnit = 0x1p-24;
constexpr double kSlack = 1 + 1e-6;  // second-order terms
constexpr std::size_t kLengths[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 15, 17, 64, 96};

double max_abs(const float* x, std::size_t n) {
    double m = 0.0;
    for (std::size_t i = 0; i < n; ++i) m = std::fmax(m, std::fabs(x[i]));
    return m;
}
}  // namespace

TEST_CASE("row reductions (float) within the summation bound, max exact", "[model][kernels]") {
    for (std::size_t n : kLengths) {
        INFO("count " << n);
        const auto x = random_values(n, 11 + n, 3.0f), y = random_values(n, 12 + n, 2.0f);
        const auto xd = to_double(x.data(), n), yd = to_double(y.data(), n);
        // Any order of summing n terms from zero: |error| ≤ (n − 1)·u·Σ|terms| (Higham §4.2);
        // a product or a centred square rounds its term first (≤ 2u more per term).
        double abs_sum = 0, abs_dot = 0, abs_sq = 0;
        const float mu = 0.25f;
        for (std::size_t j = 0; j < n; ++j) {
            abs_sum += std::fabs(xd[j]);
            abs_dot += std::fabs(xd[j] * yd[j]);
            abs_sq += (xd[j] - mu) * (xd[j] - mu);
        }
        CHECK(std::fabs(row_sum(x.data(), n) - row_sum(xd.data(), n)) <= (n + 1) * kUnit * abs_sum * kSlack);
        CHECK(std::fabs(row_dot(x.data(), y.data(), n) - row_dot(xd.data(), yd.data(), n)) <= (n + 2) * kUnit * abs_dot * kSlack);
        CHECK(std::fabs(row_centered_squares(x.data(), mu, n) - row_centered_squares(xd.data(), double{mu}, n)) <=
              (n + 3) * kUnit * abs_sq * kSlack);
        CHECK(row_max(x.data(), n) == *std::max_element(x.begin(), x.end()));
    }
}

TEST_CASE("row updates (float) round each element once or twice", "[model][kernels]") {
    for (std::size_t n : kLengths) {
        INFO("count " << n);
        const auto src = random_values(n, 21 + n), dst0 = random_values(n, 22 + n);
        const float a = 0.7f;
        std::vector<float> sum = dst0, axpy = dst0, scaled(n);
        add_into(sum.data(), src.data(), n);
        add_scaled_into(axpy.data(), a, src.data(), n);
        scale_into(scaled.data(), a, src.data(), n);
        for (std::size_t j = 0; j < n; ++j) {
            const double s = double{src[j]}, d = double{dst0[j]};
            CHECK(std::fabs(sum[j] - (d + s)) <= kUnit * std::fabs(d + s));
            CHECK(std::fabs(axpy[j] - (d + a * s)) <= 2 * kUnit * (std::fabs(d) + std::fabs(a * s)) * kSlack);
            CHECK(std::fabs(scaled[j] - a * s) <= kUnit * std::fabs(a * s));
        }
    }
}

TEST_CASE("exp_shifted_sum (float, fastmath exp) against float64", "[model][kernels]") {
    for (std::size_t n : kLengths) {
        INFO("count " << n);
        const auto x = random_values(n, 31 + n, 4.0f);
        const float shift = row_max(x.data(), n);
        std::vector<float> e(n);
        std::vector<double> ed(n);
        const double total = exp_shifted_sum(x.data(), shift, n, e.data());
        const auto xd = to_double(x.data(), n);
        const double exact = exp_shifted_sum(xd.data(), double{shift}, n, ed.data());
        // A term: the argument x − shift rounds (u·|x − shift| relative after exp), fastmath's exp
        // is within 0.99 ulp ≤ 2u; the sum adds (n − 1)·u·Σe. |x − shift| ≤ 8 here.
        CHECK(std::fabs(total - exact) <= (n + 10) * kUnit * exact * kSlack);
        for (std::size_t j = 0; j < n; ++j) CHECK(std::fabs(e[j] - ed[j]) <= (std::fabs(xd[j] - shift) + 2) * kUnit * ed[j] * kSlack);
        CHECK(exp_shifted_sum(x.data(), shift, n, static_cast<float*>(nullptr)) == total);
    }
}

TEST_CASE("LayerNorm forward and backward (float) against float64, every tail of d", "[model][kernels]") {
    const std::size_t N = 5;
    for (std::size_t d : kLengths) {
        INFO("d " << d);
        const auto x = random_values(N * d, 41 + d, 2.0f), w = random_values(d, 42 + d), b = random_values(d, 43 + d);
        const auto dy = random_values(N * d, 44 + d), dx0 = random_values(N * d, 45 + d);
        const auto xd = to_double(x.data(), x.size()), wd = to_double(w.data(), d), bd = to_double(b.data(), d);
        const auto dyd = to_double(dy.data(), dy.size());
        std::vector<float> y(N * d), mean(N), rstd(N), dx = dx0, dw(d, 0.0f), db(d, 0.0f);
        std::vector<double> yd(N * d), meand(N), rstdd(N), dxd = to_double(dx0.data(), dx0.size()), dwd(d, 0.0), dbd(d, 0.0);
        layernorm_forward(x.data(), N, d, w.data(), b.data(), y.data(), mean.data(), rstd.data());
        layernorm_forward(xd.data(), N, d, wd.data(), bd.data(), yd.data(), meand.data(), rstdd.data());
        layernorm_backward(x.data(), dy.data(), N, d, w.data(), mean.data(), rstd.data(), dx.data(), dw.data(), db.data(), true);
        layernorm_backward(xd.data(), dyd.data(), N, d, wd.data(), meand.data(), rstdd.data(), dxd.data(), dwd.data(),
                           dbd.data(), true);
        std::vector<double> dw_scale(d, 0.0), db_scale(d, 0.0);
        for (std::size_t r = 0; r < N; ++r) {
            INFO("row " << r);
            const double rs = rstdd[r];
            // X bounds |x̂| and the scale, in units of the row's spread, at which x − mean is rounded
            // (mean and variance are sums of d terms: ≤ (d + 1)·u relative to rs·max|x| each).
            const double X = max_abs(x.data() + r * d, d) * rs + 1;
            double g_max = 0;
            for (std::size_t j = 0; j < d; ++j) g_max = std::fmax(g_max, std::fabs(dyd[r * d + j] * wd[j]));
            for (std::size_t j = 0; j < d; ++j) {
                const std::size_t i = r * d + j;
                // y: x̂ carries ≤ (2d + 6)·u·X (mean, variance, sqrt, divide, subtract, multiply),
                // then ·w and + b round twice more.
                CHECK(std::fabs(y[i] - yd[i]) <= (2 * d + 8) * kUnit * (std::fabs(wd[j]) * X + std::fabs(bd[j])) * kSlack);
                // dx: rs·(g − mean g − x̂·mean(g x̂)) + dx0; every term ≤ rs·g_max·X², each from
                // two more sums of d terms: ≤ (3d + 16)·u on that scale, plus the accumulate's u.
                CHECK(std::fabs(dx[i] - dxd[i]) <=
                      ((3 * d + 16) * kUnit * rs * g_max * X * X + kUnit * std::fabs(dxd[i])) * kSlack);
                dw_scale[j] += std::fabs(dyd[i]) * X;
                db_scale[j] += std::fabs(dyd[i]);
            }
        }
        // dw, db: N accumulated terms each ((N + 1)·u), dw's terms carrying x̂'s (2d + 6)·u·X.
        for (std::size_t j = 0; j < d; ++j) {
            CHECK(std::fabs(dw[j] - dwd[j]) <= (N + 2 * d + 8) * kUnit * dw_scale[j] * kSlack);
            CHECK(std::fabs(db[j] - dbd[j]) <= (N + 1) * kUnit * db_scale[j] * kSlack);
        }
    }
}

TEST_CASE("cross-entropy (float) loss and gradient against float64, every tail of V, masked rows", "[model][kernels]") {
    const std::size_t N = 6;
    const std::uint8_t mask[N] = {1, 0, 1, 1, 0, 1};
    for (std::size_t V : kLengths) {
        INFO("V " << V);
        const auto z = random_values(N * V, 51 + V, 5.0f);
        std::vector<std::int32_t> targets(N);
        for (std::size_t r = 0; r < N; ++r) targets[r] = static_cast<std::int32_t>((r * 7 + V) % V);
        const auto zd = to_double(z.data(), z.size());
        for (const std::uint8_t* m : {static_cast<const std::uint8_t*>(nullptr), mask}) {
            std::vector<float> g(N * V);
            std::vector<double> gd(N * V);
            const double loss = cross_entropy(z.data(), targets.data(), m, N, V, g.data());
            const double exact = cross_entropy(zd.data(), targets.data(), m, N, V, gd.data());
            // Per row: the sum is within (V + 10)·u relative (exp_shifted_sum above), so log of it
            // within that absolutely; log, + max and − z_t round thrice on |terms| ≤ log V + 20.
            const std::size_t count = counted_targets(m, N);
            double bound = 0;
            for (std::size_t r = 0; r < N; ++r) {
                if (!m || m[r]) bound += ((V + 10) + 3 * (std::log(double(V)) + 20)) * kUnit / count;
            }
            CHECK(std::fabs(loss - exact) <= bound * kSlack);
            // g = e·(1/count)/sum: e within (|z − max| + 2)·u, the scale within (V + 13)·u; the
            // target's − 1/count rounds once more.
            for (std::size_t r = 0; r < N; ++r) {
                const double zmax = row_max(zd.data() + r * V, V);
                for (std::size_t v = 0; v < V; ++v) {
                    const std::size_t i = r * V + v;
                    const double target_term = v == std::size_t(targets[r]) ? kUnit * (std::fabs(gd[i]) + 1.0 / count) : 0.0;
                    CHECK(std::fabs(g[i] - gd[i]) <=
                          ((zmax - zd[i] + V + 16) * kUnit * std::fabs(gd[i] + (target_term ? 1.0 / count : 0.0)) + target_term) * kSlack);
                }
            }
        }
    }
}
