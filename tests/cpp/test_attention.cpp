// attention.hpp against reference::attention (float64) and against straight double loops for the
// pieces (rectangular scores and softmax, project), plus the softmax properties.
#include <catch2/catch.hpp>

#include "test_support.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <vector>

#include "attention/attention.hpp"
#include "base/splitmix.hpp"
#include "reference.hpp"

namespace {

using namespace posenc::test;


// scale·q_i·k_j in double for n_q×n_k (any shape), −∞ above the diagonal when causal.
std::vector<double> scores_double(const std::vector<float>& q, const std::vector<float>& k, std::size_t n_q,
                                  std::size_t n_k, std::size_t d, double scale, bool causal) {
    std::vector<double> s(n_q * n_k);
    for (std::size_t i = 0; i < n_q; ++i) {
        for (std::size_t j = 0; j < n_k; ++j) {
            double acc = 0.0;
            for (std::size_t c = 0; c < d; ++c) acc += static_cast<double>(q[i * d + c]) * k[j * d + c];
            s[i * n_k + j] = causal && j > i ? -std::numeric_limits<double>::infinity() : scale * acc;
        }
    }
    return s;
}

}  // namespace

TEST_CASE("attention matches the float64 reference: weights and outputs within 1e-5", "[attention]") {
    // Tolerance (the contract's): logits = scale·q·k with |q|, |k| ≤ 1 carry float error
    // ≤ d·2^-24·scale·Σ|q||k| ≤ √d·2^-24·… (< 1e-6 here); exp_nonpositive ≤ 2 ulp; the sum and the
    // reciprocal ≤ (n/4 + 3)·2^-24 relative; weights ≤ 1, so |Δw| < 1e-5. The output adds n
    // products of weights with |v| ≤ 1 summing to 1: ≤ Σ_j |Δw_j| + n·2^-24 < 1e-5.
    double worst_w = 0.0, worst_o = 0.0;
    for (bool causal : {false, true}) {
        for (std::size_t n : kTailSizes) {
            for (std::size_t d : kTailSizes) {
                if (n * d > 128 * 64 && d != 128) continue;  // keep the grid quick; 100 and 128 still meet
                const auto q = random_values(n * d, 11 * n + d), k = random_values(n * d, 13 * n + d, 2.0f);
                const auto v = random_values(n * d, 17 * n + d);
                const float scale = 1.0f / std::sqrt(static_cast<float>(d));
                std::vector<float> w(n * n), o(n * d);
                posenc::attention(q.data(), k.data(), v.data(), n, d, scale, causal, w.data(), o.data());
                const auto ref = posenc::reference::attention(q.data(), k.data(), v.data(), n, d, scale, causal);
                const double ew = max_abs_diff(w.data(), ref.weights.data(), n * n);
                const double eo = max_abs_diff(o.data(), ref.output.data(), n * d);
                worst_w = std::fmax(worst_w, ew);
                worst_o = std::fmax(worst_o, eo);
                CAPTURE(causal, n, d, ew, eo);
                CHECK(ew <= 1e-5);
                CHECK(eo <= 1e-5);
            }
        }
    }
    if (verbose()) std::printf("  attention vs reference: weights max abs %.3g, output max abs %.3g\n", worst_w, worst_o);
}

TEST_CASE("attention with sharp logits still matches the reference within 1e-5", "[attention]") {
    // |q|, |k| up to 4 and scale 1: logits up to ±16·d reach the flush region of exp; the weights
    // must still agree (values below e^-87 are 0 in both to within 1e-38).
    for (bool causal : {false, true}) {
        for (std::size_t n : {std::size_t{5}, std::size_t{17}, std::size_t{64}}) {
            const std::size_t d = 16;
            const auto q = random_values(n * d, 101 + n, 4.0f), k = random_values(n * d, 103 + n, 4.0f);
            const auto v = random_values(n * d, 107 + n);
            std::vector<float> w(n * n), o(n * d);
            posenc::attention(q.data(), k.data(), v.data(), n, d, 1.0f, causal, w.data(), o.data());
            const auto ref = posenc::reference::attention(q.data(), k.data(), v.data(), n, d, 1.0, causal);
            CAPTURE(causal, n);
            // Logits up to ~100 in magnitude carry float error ~ d·2^-24·100 ≈ 1e-4 relative to a
            // weight's exponent: |Δw| ≤ w·(1 − w)·Δlogit ≤ Δlogit/4 ≈ 3e-5 in the worst case;
            // 1e-4 leaves margin while still catching any wrong weight.
            CHECK(max_abs_diff(w.data(), ref.weights.data(), n * n) <= 1e-4);
            CHECK(max_abs_diff(o.data(), ref.output.data(), n * d) <= 1e-4);
        }
    }
}

TEST_CASE("softmax rows sum to 1; causal rows are exactly zero above the diagonal", "[attention][property]") {
    for (bool causal : {false, true}) {
        for (std::size_t n : kTailSizes) {
            const std::size_t d = 8;
            const auto q = random_values(n * d, 7 * n), k = random_values(n * d, 9 * n, 3.0f);
            const auto v = random_values(n * d, 5 * n);
            std::vector<float> w(n * n), o(n * d);
            posenc::attention(q.data(), k.data(), v.data(), n, d, 0.5f, causal, w.data(), o.data());
            double worst = 0.0;
            std::size_t nonzero_above = 0, negative = 0;
            for (std::size_t i = 0; i < n; ++i) {
                double sum = 0.0;
                for (std::size_t j = 0; j < n; ++j) {
                    sum += w[i * n + j];
                    if (w[i * n + j] < 0.0f) ++negative;
                    // Exactly 0.0f (not merely tiny) above the diagonal.
                    if (causal && j > i && w[i * n + j] != 0.0f) ++nonzero_above;
                }
                worst = std::fmax(worst, std::fabs(sum - 1.0));
            }
            CAPTURE(causal, n, worst);
            CHECK(nonzero_above == 0);
            CHECK(negative == 0);
            // Σ e_j in float: per lane, pairwise sums of four batches into one accumulator, then the
            // lanes (≤ (n/16 + 4)·2^-24 relative); the reciprocal and n scalings (each 2^-24
            // relative, summing to 2^-24 overall): (n + 8)·2^-24 covers it.
            CHECK(worst <= (n + 8) * 0x1p-24);
            if (causal) {
                // Row 0 sees only itself: weight exactly 1, output exactly v_0.
                CHECK(w[0] == 1.0f);
                CHECK(std::memcmp(o.data(), v.data(), d * sizeof(float)) == 0);
            }
        }
    }
}

TEST_CASE("attention_scores applies the scale and the causal mask", "[attention]") {
    const std::size_t n = 10, d = 6;
    const auto q = random_values(n * d, 1), k = random_values(n * d, 2);
    std::vector<float> s1(n * n), s3(n * n), sc(n * n);
    posenc::attention_scores(q.data(), k.data(), n, n, d, 1.0f, false, s1.data());
    posenc::attention_scores(q.data(), k.data(), n, n, d, 0.375f, false, s3.data());
    posenc::attention_scores(q.data(), k.data(), n, n, d, 0.375f, true, sc.data());
    for (std::size_t i = 0; i < n * n; ++i) {
        // scale·dot: one float multiply of the same dot product, so exactly fl(0.375·s1).
        CHECK(s3[i] == 0.375f * s1[i]);
        const std::size_t row = i / n, col = i % n;
        if (col > row) {
            CHECK(sc[i] == -std::numeric_limits<float>::infinity());
        } else {
            CHECK(sc[i] == s3[i]);
        }
    }
    // scale = 0: all logits 0, weights exactly fl(1/n) (exp(0) = 1, Σ = n exactly).
    std::vector<float> w(n * n), o(n * d);
    const auto v = random_values(n * d, 3);
    posenc::attention(q.data(), k.data(), v.data(), n, d, 0.0f, false, w.data(), o.data());
    for (float x : w) CHECK(x == 1.0f / n);
}

TEST_CASE("attention_scores and softmax_rows with n_q != n_k", "[attention]") {
    struct Shape {
        std::size_t n_q, n_k, d;
    };
    const Shape shapes[] = {{1, 7, 4}, {3, 17, 5}, {17, 3, 8}, {6, 64, 16}, {64, 6, 3}, {15, 100, 10}, {2, 1, 2}};
    for (bool causal : {false, true}) {
        for (const Shape& sh : shapes) {
            const auto q = random_values(sh.n_q * sh.d, 21 + sh.n_q), k = random_values(sh.n_k * sh.d, 23 + sh.n_k);
            const float scale = 0.7f;
            std::vector<float> s(sh.n_q * sh.n_k), w(sh.n_q * sh.n_k);
            posenc::attention_scores(q.data(), k.data(), sh.n_q, sh.n_k, sh.d, scale, causal, s.data());
            posenc::softmax_rows(s.data(), sh.n_q, sh.n_k, causal, w.data());
            const auto s_ref = scores_double(q, k, sh.n_q, sh.n_k, sh.d, scale, causal);
            const auto w_ref = posenc::reference::softmax_rows(s_ref, sh.n_q, sh.n_k, false);
            CAPTURE(causal, sh.n_q, sh.n_k, sh.d);
            double es = 0.0;
            for (std::size_t i = 0; i < s.size(); ++i) {
                if (std::isinf(s_ref[i])) {
                    CHECK(s[i] == -std::numeric_limits<float>::infinity());
                } else {
                    es = std::fmax(es, std::fabs(s[i] - s_ref[i]));
                }
            }
            // scale·(float sum of d products of values ≤ 1): ≤ (d + 1)·2^-24·0.7·d.
            CHECK(es <= (sh.d + 1) * 0x1p-24 * scale * sh.d);
            CHECK(max_abs_diff(w.data(), w_ref.data(), w.size()) <= 1e-6);  // logits ≤ 0.7·d; see first test
            if (causal) {
                for (std::size_t i = 0; i < sh.n_q; ++i)
                    for (std::size_t j = i + 1; j < sh.n_k; ++j) CHECK(w[i * sh.n_k + j] == 0.0f);
            }
            // In place (weights == scores) gives the same bits.
            posenc::softmax_rows(s.data(), sh.n_q, sh.n_k, causal, s.data());
            CHECK(std::memcmp(s.data(), w.data(), w.size() * sizeof(float)) == 0);
        }
    }
}

TEST_CASE("weighted_sum with n_q != n_k matches double loops", "[attention]") {
    for (bool causal : {false, true}) {
        const std::size_t n_q = 5, n_k = 9, d = 7;
        const auto w = random_values(n_q * n_k, 61), v = random_values(n_k * d, 62);
        std::vector<float> o(n_q * d);
        posenc::weighted_sum(w.data(), v.data(), n_q, n_k, d, causal, o.data());
        for (std::size_t i = 0; i < n_q; ++i) {
            for (std::size_t c = 0; c < d; ++c) {
                double want = 0.0, magnitude = 0.0;
                for (std::size_t j = 0; j < n_k; ++j) {
                    if (causal && j > i) continue;
                    want += static_cast<double>(w[i * n_k + j]) * v[j * d + c];
                    magnitude += std::fabs(static_cast<double>(w[i * n_k + j]) * v[j * d + c]);
                }
                CAPTURE(causal, i, c);
                // A float sum of ≤ n_k rounded products: ≤ n_k·2^-24·Σ|terms|. Masked columns
                // contribute nothing (their weights here are not zero, so a leak would show).
                CHECK(std::fabs(o[i * d + c] - want) <= n_k * 0x1p-24 * magnitude);
            }
        }
    }
}

TEST_CASE("softmax is invariant to adding a constant to a row", "[attention][property]") {
    for (std::size_t n : kTailSizes) {
        // Logits on a 2^-10 grid in [-4, 4): s + 64 is exact, and so is (s + 64) − (max + 64), so
        // the shifted row must give identical bits.
        std::vector<float> s(n), shifted(n), w(n), w_shifted(n);
        const auto r = random_values(n, 300 + n, 4.0f);
        for (std::size_t j = 0; j < n; ++j) {
            s[j] = std::round(r[j] * 1024.0f) / 1024.0f;
            shifted[j] = s[j] + 64.0f;
        }
        posenc::softmax_rows(s.data(), 1, n, false, w.data());
        posenc::softmax_rows(shifted.data(), 1, n, false, w_shifted.data());
        CAPTURE(n);
        CHECK(std::memcmp(w.data(), w_shifted.data(), n * sizeof(float)) == 0);

        // An arbitrary constant: adding c = -1000.3 rounds each logit by ≤ 2^-24·1004 ≈ 6e-5, which
        // moves each weight by ≤ w·2·6e-5: 1.2e-4.
        for (std::size_t j = 0; j < n; ++j) shifted[j] = r[j] - 1000.3f;
        posenc::softmax_rows(r.data(), 1, n, false, w.data());
        posenc::softmax_rows(shifted.data(), 1, n, false, w_shifted.data());
        for (std::size_t j = 0; j < n; ++j) CHECK(std::fabs(w[j] - w_shifted[j]) <= 1.2e-4 * w[j] + 1e-7);
    }
}

TEST_CASE("softmax: rows on exp's fast path and on the general one agree bit for bit", "[attention][property]") {
    // softmax_rows evaluates exp with exp_in_range when a row is finite and its spread (max − min)
    // is ≤ 87, and with exp_nonpositive (clamp, flush to 0 below −87.34) otherwise; the two give
    // the same bits where both apply. Three rows differing in one entry k, the others in [−4, 4):
    //   A: s_k = m − 80 (spread 80: fast path), B: s_k = m − 100 (general, e^−100 flushes to 0),
    //   C: s_k = −∞ (general).
    // e^−80 ≈ 1.8e-35 vanishes in every partial sum it joins (the other terms are ≥ e^−8 ≈ 3e-4, so
    // it is below half an ulp), so the three sums, reciprocals and every other weight must be
    // identical; w_k is 1.8e-35/Σ in A and exactly 0 in B and C. Positions k in the four-batch
    // loop, the single-batch loop and the scalar tail.
    const float inf = std::numeric_limits<float>::infinity();
    for (std::size_t n : kTailSizes) {
        if (n < 2) continue;
        for (std::size_t k : {std::size_t{0}, n / 2, n - 1}) {
            const auto r = random_values(n, 900 + n + k, 4.0f);
            float m = -inf;
            for (std::size_t j = 0; j < n; ++j) if (j != k) m = std::fmax(m, r[j]);
            std::vector<float> a = r, b = r, c = r;
            a[k] = m - 80.0f;
            b[k] = m - 100.0f;
            c[k] = -inf;
            std::vector<float> wa(n), wb(n), wc(n);
            posenc::softmax_rows(a.data(), 1, n, false, wa.data());
            posenc::softmax_rows(b.data(), 1, n, false, wb.data());
            posenc::softmax_rows(c.data(), 1, n, false, wc.data());
            std::size_t differ = 0;
            for (std::size_t j = 0; j < n; ++j) {
                if (j == k) continue;
                differ += std::memcmp(&wa[j], &wb[j], sizeof(float)) != 0;
                differ += std::memcmp(&wa[j], &wc[j], sizeof(float)) != 0;
            }
            CAPTURE(n, k, wa[k]);
            CHECK(differ == 0);
            CHECK(wa[k] > 0.0f);
            CHECK(wa[k] <= 1e-34f);
            CHECK(wb[k] == 0.0f);
            CHECK(wc[k] == 0.0f);
        }
    }
    // Spread exactly 87 (fast path, its domain's edge) against the float64 reference: e^−87 ≈
    // 1.6e-38 is still normal; every weight within 1e-6 (see the first test's budget).
    for (std::size_t n : {std::size_t{5}, std::size_t{17}, std::size_t{100}}) {
        // On a 2^-10 grid, so that m − 87 and (m − 87) − m are exact: the spread is 87 exactly.
        auto row = random_values(n, 950 + n, 2.0f);
        for (float& x : row) x = std::round(x * 1024.0f) / 1024.0f;
        float m = -inf;
        for (float x : row) m = std::fmax(m, x);
        row[n / 2] = m - 87.0f;
        std::vector<float> w(n);
        posenc::softmax_rows(row.data(), 1, n, false, w.data());
        const auto want = posenc::reference::softmax_rows(std::vector<double>(row.begin(), row.end()), 1, n, false);
        CAPTURE(n);
        CHECK(max_abs_diff(w.data(), want.data(), n) <= 1e-6);
        CHECK(w[n / 2] > 0.0f);
    }
}

TEST_CASE("softmax of large-magnitude logits has no NaN and follows the maximum", "[attention]") {
    const float big = std::numeric_limits<float>::max();
    const std::vector<std::vector<float>> rows = {
        {1e30f, -1e30f, 0.0f, 5.0f, 1e30f},
        {big, -big, big, 0.0f, -big, 3.0f, 2.0f},
        {-big, -big, -big, -big, -big, -big, -big, -big, -big},  // all equal: uniform
        {-1e38f, 1e38f, -1e38f, 1e38f - 1e32f, 7.0f, 8.0f, 9.0f, 10.0f, 11.0f, 12.0f},
        {3e4f, 3e4f - 1.0f, 3e4f - 100.0f, -3e4f},
    };
    for (const auto& row : rows) {
        const std::size_t n = row.size();
        std::vector<float> w(n);
        posenc::softmax_rows(row.data(), 1, n, false, w.data());
        const auto want = posenc::reference::softmax_rows(std::vector<double>(row.begin(), row.end()), 1, n, false);
        double sum = 0.0;
        for (std::size_t j = 0; j < n; ++j) {
            CAPTURE(n, j, row[j]);
            CHECK(std::isfinite(w[j]));
            CHECK(std::fabs(w[j] - want[j]) <= 1e-6);  // see the first test's budget
            sum += w[j];
        }
        CHECK(std::fabs(sum - 1.0) <= (n + 8) * 0x1p-24);
    }
    // Large inputs through the whole pipeline: |q|, |k| up to 1e3, d = 64 → logits ~1e6·scale.
    const std::size_t n = 17, d = 64;
    const auto q = random_values(n * d, 8, 1000.0f), k = random_values(n * d, 9, 1000.0f);
    const auto v = random_values(n * d, 10);
    std::vector<float> w(n * n), o(n * d);
    posenc::attention(q.data(), k.data(), v.data(), n, d, 0.125f, true, w.data(), o.data());
    for (float x : w) CHECK(std::isfinite(x));
    for (float x : o) CHECK(std::isfinite(x));
}

TEST_CASE("project equals a naive matrix product", "[attention]") {
    for (std::size_t d_in : {std::size_t{1}, std::size_t{3}, std::size_t{8}, std::size_t{17}, std::size_t{64}}) {
        for (std::size_t d_out : kTailSizes) {
            const std::size_t n = 5;
            const auto x = random_values(n * d_in, 40 + d_in), w = random_values(d_in * d_out, 50 + d_out);
            std::vector<float> out(n * d_out);
            posenc::project(x.data(), n, d_in, w.data(), d_out, out.data());
            double worst = 0.0;
            for (std::size_t i = 0; i < n; ++i) {
                for (std::size_t c = 0; c < d_out; ++c) {
                    double want = 0.0, magnitude = 0.0;
                    for (std::size_t r = 0; r < d_in; ++r) {
                        want += static_cast<double>(x[i * d_in + r]) * w[r * d_out + c];
                        magnitude += std::fabs(static_cast<double>(x[i * d_in + r]) * w[r * d_out + c]);
                    }
                    // A float sum of d_in rounded products: ≤ d_in·2^-24·Σ|terms|.
                    worst = std::fmax(worst, std::fabs(out[i * d_out + c] - want) / (d_in * 0x1p-24 * magnitude + 1e-30));
                }
            }
            CAPTURE(d_in, d_out, worst);
            CHECK(worst <= 1.0);  // worst error as a fraction of its bound
        }
    }
}

TEST_CASE("dot matches double accumulation for every tail length", "[attention]") {
    for (std::size_t d : kTailSizes) {
        const auto a = random_values(d, 600 + d), b = random_values(d, 700 + d);
        double want = 0.0, magnitude = 0.0;
        for (std::size_t j = 0; j < d; ++j) {
            want += static_cast<double>(a[j]) * b[j];
            magnitude += std::fabs(static_cast<double>(a[j]) * b[j]);
        }
        CAPTURE(d);
        // Standard bound for a float sum of d rounded products: d·2^-24·Σ|a_j·b_j|.
        CHECK(std::fabs(posenc::dot(a.data(), b.data(), d) - want) <= d * 0x1p-24 * magnitude);
    }
    // Exact small-integer case: every partial sum is representable, so the result is exact.
    for (std::size_t d : kTailSizes) {
        std::vector<float> a(d), b(d);
        double want = 0.0;
        for (std::size_t j = 0; j < d; ++j) {
            a[j] = static_cast<float>(static_cast<int>(j % 7) - 3);
            b[j] = static_cast<float>(static_cast<int>(j % 5) + 1);
            want += a[j] * b[j];
        }
        CAPTURE(d);
        CHECK(posenc::dot(a.data(), b.data(), d) == static_cast<float>(want));
    }
}

TEST_CASE("dot_rows4 gives dot's bits for each of its four rows", "[attention]") {
    // nearest_by_cosine's answers (ties, ranks) rest on dot()'s rounding, so the four-row
    // version must not change a single bit, at every tail of dot's 8- and 4-lane loops.
    for (std::size_t d : kTailSizes) {
        const auto q = random_values(d, 800 + d), k = random_values(4 * d, 900 + d);
        float got[4];
        posenc::dot_rows4(q.data(), k.data(), d, got);
        for (std::size_t r = 0; r < 4; ++r) {
            CAPTURE(d, r);
            const float want = posenc::dot(q.data(), k.data() + r * d, d);
            CHECK(std::memcmp(&got[r], &want, sizeof(float)) == 0);
        }
    }
}

TEST_CASE("softmax rows with infinite scores take their limit, never NaN", "[attention]") {
    const float inf = std::numeric_limits<float>::infinity();
    SECTION("+∞ entries share the mass equally") {
        const std::vector<float> row = {inf, 1.0f, inf, -inf, 3.0f, 2.0f};
        std::vector<float> w(row.size());
        posenc::softmax_rows(row.data(), 1, row.size(), false, w.data());
        CHECK(w == std::vector<float>{0.5f, 0.0f, 0.5f, 0.0f, 0.0f, 0.0f});
    }
    SECTION("a row of −∞ only is uniform") {
        for (std::size_t n : kTailSizes) {
            const std::vector<float> row(n, -inf);
            std::vector<float> w(n);
            posenc::softmax_rows(row.data(), 1, n, false, w.data());
            CAPTURE(n);
            for (float x : w) CHECK(x == 1.0f / static_cast<float>(n));
        }
    }
    SECTION("overflowing logits through attention: finite weights summing to 1") {
        const std::size_t n = 6, d = 5;
        const auto q = random_values(n * d, 70, 1e20f), k = random_values(n * d, 71, 1e20f);
        const auto v = random_values(n * d, 72);
        std::vector<float> w(n * n), o(n * d);
        for (bool causal : {false, true}) {
            posenc::attention(q.data(), k.data(), v.data(), n, d, 1.0f, causal, w.data(), o.data());
            for (std::size_t i = 0; i < n; ++i) {
                double sum = 0.0;
                for (std::size_t j = 0; j < n; ++j) {
                    CHECK(std::isfinite(w[i * n + j]));
                    sum += w[i * n + j];
                }
                CAPTURE(causal, i);
                CHECK(std::fabs(sum - 1.0) <= (n + 8) * 0x1p-24);
            }
            for (float x : o) CHECK(std::isfinite(x));
        }
    }
}

TEST_CASE("a softmax row is all finite or has no finite entry, so softmax_rows_finite reads each row's first",
          "[attention][property]") {
    // Scores of every tail size with NaN, ±∞ and ±3e38 dropped at seeded places (a third of the
    // rows clean), through softmax_rows and softmax_rows_kept: in every row the visible entries
    // are all finite or none is (softmax_rows_finite's header), and NaN scores do make some rows
    // non-finite, so both cases are seen.
    const float inf = std::numeric_limits<float>::infinity();
    const float specials[] = {std::numeric_limits<float>::quiet_NaN(), inf, -inf, 3e38f, -3e38f};
    std::size_t finite_rows = 0, non_finite_rows = 0;
    for (bool causal : {false, true}) {
        for (std::size_t n : kTailSizes) {
            std::vector<float> scores = random_values(n * n, 5000 + n, 4.0f);
            posenc::SplitMix64 places{77 + n};
            for (std::size_t i = 0; i < n; ++i) {
                for (std::size_t k = 0; i % 3 != 0 && k < 1 + i % 4; ++k) {
                    scores[i * n + places.below(static_cast<std::uint32_t>(n))] = specials[places.below(5)];
                }
            }
            std::vector<float> w(n * n), kept_w(n * n), exps(n * n), shifts(n);
            posenc::softmax_rows(scores.data(), n, n, causal, w.data());
            posenc::softmax_rows_kept(scores.data(), n, causal, 0, exps.data(), shifts.data(), kept_w.data());
            bool all_rows_finite = true;
            for (std::size_t i = 0; i < n; ++i) {
                const std::size_t visible = causal ? i + 1 : n;
                for (const std::vector<float>* weights : {&w, &kept_w}) {
                    std::size_t finite = 0;
                    for (std::size_t j = 0; j < visible; ++j) finite += std::isfinite((*weights)[i * n + j]);
                    CAPTURE(causal, n, i);
                    CHECK((finite == visible || finite == 0));
                    CHECK(posenc::softmax_rows_finite(weights->data() + i * n, 1, n) == (finite == visible));
                }
                const bool row_finite = posenc::softmax_rows_finite(w.data() + i * n, 1, n);
                all_rows_finite = all_rows_finite && row_finite;
                ++(row_finite ? finite_rows : non_finite_rows);
            }
            CHECK(posenc::softmax_rows_finite(w.data(), n, n) == all_rows_finite);
        }
    }
    CHECK(finite_rows > 0);
    CHECK(non_finite_rows > 0);
    // The check itself: a row made non-finite (as a NaN sum makes every entry of it) is found in
    // any place, and rows past `rows` are not read.
    for (std::size_t n : {std::size_t{1}, std::size_t{5}, std::size_t{17}}) {
        for (float bad : {std::numeric_limits<float>::quiet_NaN(), inf, -inf}) {
            for (std::size_t row = 0; row < n; ++row) {
                std::vector<float> w(n * n, 1.0f / static_cast<float>(n));
                for (std::size_t j = 0; j < n; ++j) w[row * n + j] = bad;
                CAPTURE(n, bad, row);
                CHECK_FALSE(posenc::softmax_rows_finite(w.data(), n, n));
                CHECK(posenc::softmax_rows_finite(w.data(), row, n));
            }
        }
    }
}

namespace {
// Whether two float arrays hold the same bits.
bool same_floats(const std::vector<float>& a, const std::vector<float>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

// Scores for two calls of softmax_rows_kept: `last` and `next` share their leading kept×kept block,
// the rest of next is new (drawn from [−4, 4)). In a kept row the last column changes from −5 to
// −4.5, under the row's maximum, except in every third row, where it becomes 10: that row's
// maximum moves, so its kept exps are stale. Rows 1 and 2 (when kept) hold −∞ and +∞ in column 0
// of both calls: the general path and the infinite limit.
struct KeptScores {
    std::vector<float> last, next;
};
KeptScores kept_scores(std::size_t n, std::size_t kept, std::uint64_t seed) {
    KeptScores s{random_values(n * n, seed, 4.0f), random_values(n * n, seed + 1, 4.0f)};
    const float inf = std::numeric_limits<float>::infinity();
    if (kept > 1) s.last[n] = -inf;
    if (kept > 2) s.last[2 * n] = inf;
    for (std::size_t i = 0; i < kept; ++i)
        for (std::size_t j = 0; j < kept; ++j) s.next[i * n + j] = s.last[i * n + j];
    if (kept < n) {
        for (std::size_t i = 0; i < kept; ++i) {
            s.last[i * n + n - 1] = -5.0f;
            s.next[i * n + n - 1] = i % 3 == 0 ? 10.0f : -4.5f;
        }
    }
    return s;
}
}  // namespace

TEST_CASE("softmax_rows_kept gives softmax_rows' bits, kept rows or not", "[attention][property]") {
    // Every size of the exp loop's steps and tails, kept from none to all rows, causal or not; the
    // first call reads scores apart from its weights (as compare() reads a rotated lane's kept
    // product), the second runs in place (weights == scores, as for the other lanes).
    for (bool causal : {false, true}) {
        for (std::size_t n : kTailSizes) {
            for (std::size_t kept : {std::size_t{0}, std::size_t{1}, n / 2, n - 1, n}) {
                const KeptScores s = kept_scores(n, kept, 4000 + n);
                std::vector<float> exps(n * n), shifts(n), first(n * n), want(n * n);
                posenc::softmax_rows_kept(s.last.data(), n, causal, 0, exps.data(), shifts.data(), first.data());
                posenc::softmax_rows(s.last.data(), n, n, causal, want.data());
                CAPTURE(causal, n, kept);
                CHECK(same_floats(first, want));
                std::vector<float> second = s.next;
                posenc::softmax_rows_kept(second.data(), n, causal, kept, exps.data(), shifts.data(), second.data());
                posenc::softmax_rows(s.next.data(), n, n, causal, want.data());
                CHECK(same_floats(second, want));
            }
        }
    }
}

TEST_CASE("softmax_rows_kept takes a kept row's exps exactly when its maximum stays", "[attention]") {
    // After the first call each row's first exp is made half as large again, so a row that takes
    // its kept exps no longer gives softmax_rows' bits (its first weight grows by half): those must
    // be the kept rows (i < 63) whose maximum stayed (i not a multiple of 3, and not the rows of
    // ±∞), and no other.
    const std::size_t n = 64, kept = 63;
    const KeptScores s = kept_scores(n, kept, 4100);
    std::vector<float> exps(n * n), shifts(n), weights(n * n), want(n * n);
    posenc::softmax_rows_kept(s.last.data(), n, false, 0, exps.data(), shifts.data(), weights.data());
    for (std::size_t i = 0; i < n; ++i) exps[i * n] *= 1.5f;
    posenc::softmax_rows_kept(s.next.data(), n, false, kept, exps.data(), shifts.data(), weights.data());
    posenc::softmax_rows(s.next.data(), n, n, false, want.data());
    for (std::size_t i = 0; i < n; ++i) {
        const bool reused = i < kept && i % 3 != 0 && i != 1 && i != 2;
        CAPTURE(i);
        CHECK((std::memcmp(weights.data() + i * n, want.data() + i * n, n * sizeof(float)) != 0) == reused);
    }
}
