// analyses.hpp against straight float64 loops written here: column_spread, normalize_rows,
// max_shift_change (hand cases and the shift-invariance claims through posenc::compare),
// score_by_offset, rope_decay_bound and random_cosine_spread. The cosine searches
// (nearest_by_cosine, top_k_by_cosine) are test_nearest.cpp's.
#include <catch2/catch.hpp>

#include "analyses_support.hpp"
#include "test_support.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "analysis/analyses.hpp"
#include "attention/products.hpp"
#include "attention/attention.hpp"
#include "compare/compare.hpp"
#include "vectors/embedding.hpp"
#include "encodings/sinusoidal.hpp"

namespace {

using namespace posenc::test;  // random_values, verbose, and analyses_support.hpp's references

// Population std of every column, two passes in float64.
std::vector<double> column_std64(const std::vector<float>& m, std::size_t n, std::size_t d) {
    std::vector<double> out(d);
    for (std::size_t j = 0; j < d; ++j) {
        double mean = 0.0;
        for (std::size_t p = 0; p < n; ++p) mean += m[p * d + j];
        mean /= static_cast<double>(n);
        double ss = 0.0;
        for (std::size_t p = 0; p < n; ++p) ss += (m[p * d + j] - mean) * (m[p * d + j] - mean);
        out[j] = std::sqrt(ss / static_cast<double>(n));
    }
    return out;
}

}  // namespace

// ---- column_spread --------------------------------------------------------------------------

TEST_CASE("column_spread equals a float64 two-pass population std (relative 2^-23)", "[analyses]") {
    // The accumulation is in double (error ~ n·2^-53, negligible); the only float step is the
    // final rounding of the result: ≤ 2^-24 relative. 2^-23 leaves a factor 2.
    double worst = 0.0;
    for (std::size_t n : kSizes) {
        for (std::size_t d : kSizes) {
            auto m = random_values(n * d, 31 * n + d, 3.0f);
            // Give the columns different means so centring matters.
            for (std::size_t p = 0; p < n; ++p)
                for (std::size_t j = 0; j < d; ++j) m[p * d + j] += static_cast<float>(j) - 7.5f;
            std::vector<float> got(d, -1.0f);
            posenc::column_spread(m.data(), n, d, got.data());
            const auto want = column_std64(m, n, d);
            for (std::size_t j = 0; j < d; ++j) {
                const double err = std::fabs(got[j] - want[j]);
                worst = std::fmax(worst, want[j] > 0 ? err / want[j] : err);
                CAPTURE(n, d, j, got[j], want[j]);
                CHECK(err <= want[j] * 0x1p-23);
            }
            if (n == 1) {
                for (std::size_t j = 0; j < d; ++j) CHECK(got[j] == 0.0f);  // one row: no spread at all
            }
        }
    }
    if (verbose()) std::printf("  column_spread vs float64: max relative error %.3g\n", worst);
}

TEST_CASE("column_spread equals a column-at-a-time float64 two-pass exactly, across its 256-column blocks",
          "[analyses]") {
    // column_spread walks rows in order and accumulates a block of columns side by side; each
    // column still sums the same terms in the same order as column_std64, so after the one final
    // rounding the results must be identical, not merely close.
    for (std::size_t n : {std::size_t{1}, std::size_t{5}, std::size_t{17}, std::size_t{64}}) {
        for (std::size_t d : {std::size_t{3}, std::size_t{255}, std::size_t{256}, std::size_t{257}, std::size_t{300},
                              std::size_t{513}}) {
            auto m = random_values(n * d, 7 * n + d, 5.0f);
            for (std::size_t p = 0; p < n; ++p) m[p * d + d - 1] += 1000.0f;  // a large mean in the last block
            std::vector<float> got(d, -1.0f);
            posenc::column_spread(m.data(), n, d, got.data());
            const auto want = column_std64(m, n, d);
            for (std::size_t j = 0; j < d; ++j) {
                CAPTURE(n, d, j);
                REQUIRE(got[j] == static_cast<float>(want[j]));
            }
        }
    }
}

TEST_CASE("column_spread of constant columns is exactly 0", "[analyses]") {
    // n copies of a 24-bit float sum exactly in double (n < 2^29), so the mean is exactly the
    // constant and every deviation exactly 0: not merely small.
    for (std::size_t n : kSizes) {
        const std::size_t d = 7;
        const float constants[d] = {0.1f, -3.7f, 1e30f, -1e-30f, 0.0f, 12345.678f, 0.33333334f};
        std::vector<float> m(n * d);
        for (std::size_t p = 0; p < n; ++p)
            for (std::size_t j = 0; j < d; ++j) m[p * d + j] = constants[j];
        std::vector<float> got(d, -1.0f);
        posenc::column_spread(m.data(), n, d, got.data());
        for (std::size_t j = 0; j < d; ++j) {
            CAPTURE(n, j, got[j]);
            CHECK(got[j] == 0.0f);
        }
    }
}

TEST_CASE("column_spread stays accurate on the cos≈1 columns of a PE table", "[analyses]") {
    // The low-frequency pairs of a sinusoidal table: cos(p·ω) with p·ω ≤ 0.01 is within 5e-5 of 1,
    // so the spread (~1e-5) is ~1e-5 of the mean. A one-pass float formula E[x²] − E[x]² would
    // lose every digit here (float keeps 2^-24 ≈ 6e-8 of the mean², i.e. of 1); two passes in
    // double keep the 2^-23 relative accuracy of the test above.
    for (std::size_t n : {std::size_t{16}, std::size_t{63}, std::size_t{100}}) {
        const std::size_t d = 128;
        std::vector<float> table(n * d);
        posenc::sinusoidal_table(n, d, 10000.0, posenc::Layout::interleaved, table.data());
        std::vector<float> got(d);
        posenc::column_spread(table.data(), n, d, got.data());
        const auto want = column_std64(table, n, d);
        const std::size_t last_cos = d - 1;  // ω = 10000^(−126/128) ≈ 1.2e-4
        CAPTURE(n, got[last_cos], want[last_cos]);
        REQUIRE(want[last_cos] > 0.0);
        REQUIRE(want[last_cos] < 1e-4);  // the case really is a tiny spread next to a mean ≈ 1
        for (std::size_t j = 0; j < d; ++j) {
            CAPTURE(j);
            CHECK(std::fabs(got[j] - want[j]) <= want[j] * 0x1p-23);  // as above: one final rounding
        }
        // And the float64 std of the float values is close to the exact std of cos(p·ω): the
        // table's own rounding (≤ a few ulps of 1, ~2e-7) bounds the difference.
        const double omega = std::pow(10000.0, -126.0 / 128.0);
        double mean = 0.0, ss = 0.0;
        for (std::size_t p = 0; p < n; ++p) mean += std::cos(p * omega);
        mean /= n;
        for (std::size_t p = 0; p < n; ++p) ss += (std::cos(p * omega) - mean) * (std::cos(p * omega) - mean);
        CHECK(std::fabs(got[last_cos] - std::sqrt(ss / n)) <= 2e-7);
    }
}

// ---- normalize_rows ---------------------------------------------------------------------------

TEST_CASE("max_abs: the largest |value| at every tail, NaN skipped, infinity and -0 handled", "[analyses]") {
    for (std::size_t count : posenc::test::kTailSizes) {
        for (std::size_t at = 0; at < count; at += (count + 2) / 3) {
            std::vector<float> m = random_values(count, 40 + count);
            m[at] = -7.5f;  // the largest, negative, anywhere in the batch loop or the tail
            CAPTURE(count, at);
            CHECK(posenc::max_abs(m.data(), count) == 7.5f);
            m[at] = std::nanf("");
            float want = 0.0f;
            for (float v : m) want = std::fabs(v) > want ? std::fabs(v) : want;
            CHECK(posenc::max_abs(m.data(), count) == want);
            m[count - 1 - at] = -std::numeric_limits<float>::infinity();
            CHECK(posenc::max_abs(m.data(), count) == std::numeric_limits<float>::infinity());
        }
    }
    CHECK(posenc::max_abs(nullptr, 0) == 0.0f);
    const float zeros[5] = {-0.0f, 0.0f, -0.0f, 0.0f, -0.0f};
    CHECK(std::signbit(posenc::max_abs(zeros, 5)) == false);
}

TEST_CASE("compare: each lane's max_abs holds max|x| and max|term| of its terms", "[analyses][compare]") {
    const posenc::CompareConfig cfg = posenc::test::compare_config(17, 12, 4, posenc::kAllSchemes);
    const std::vector<float> e = random_values(cfg.n * cfg.d, 77, 1.5f);
    posenc::CompareResult r;
    posenc::compare(cfg, e.data(), r);
    const std::size_t nn = cfg.n * cfg.n;
    for (unsigned s = 0; s < posenc::kSchemeCount; ++s) {
        const posenc::SchemeResult& lane = r.lane(static_cast<posenc::Scheme>(s));
        CAPTURE(s);
        REQUIRE(lane.max_abs.size() == 1 + lane.term_count);
        float x = 0.0f;
        for (float v : lane.x) x = std::max(x, std::fabs(v));
        CHECK(lane.max_abs[0] == x);
        for (std::size_t t = 0; t < lane.term_count; ++t) {
            float m = 0.0f;
            for (std::size_t i = 0; i < nn; ++i) m = std::max(m, std::fabs(lane.terms[t * nn + i]));
            CHECK(lane.max_abs[1 + t] == m);
        }
    }
}

TEST_CASE("normalize_rows: unit rows matching float64 x/|x|; a zero row stays exactly zero", "[analyses]") {
    double worst = 0.0;
    for (std::size_t n : {std::size_t{1}, std::size_t{5}, std::size_t{17}}) {
        for (std::size_t d : kSizes) {
            auto m = random_values(n * d, 7 * n + 3 * d, 2.0f);
            const std::size_t zero_row = n / 2;
            std::fill(m.begin() + zero_row * d, m.begin() + (zero_row + 1) * d, 0.0f);
            const auto u = unit_rows(m, n, d);
            for (std::size_t p = 0; p < n; ++p) {
                const double norm = std::sqrt(dot64(&m[p * d], &m[p * d], d));
                for (std::size_t j = 0; j < d; ++j) {
                    CAPTURE(n, d, p, j);
                    if (p == zero_row) {
                        CHECK(u[p * d + j] == 0.0f);
                        continue;
                    }
                    // float dot (≤ (d/2 + 2)·2^-24 relative with its split accumulators, halved by
                    // the sqrt), the sqrt, the reciprocal and the product (2^-24 each); components
                    // are ≤ 1, so (d + 8)·2^-24 absolute covers it.
                    const double err = std::fabs(u[p * d + j] - m[p * d + j] / norm);
                    worst = std::fmax(worst, err);
                    CHECK(err <= (d + 8) * 0x1p-24);
                }
            }
        }
    }
    if (verbose()) std::printf("  normalize_rows vs float64: max abs error %.3g\n", worst);
}

TEST_CASE("normalize_rows: unit rows for magnitudes 1e-44 … 3e38 at several widths", "[analyses]") {
    // A float dot product of the row with itself underflows to 0 for components ~1e-25 (squares
    // ~1e-50) and overflows for ~1e25; the row is non-zero and must not come back zero or NaN.
    for (float magnitude : {1e-25f, 1e-38f, 1e-44f, 1e20f, 1e25f, 2e38f}) {  // ×1.5 stays below FLT_MAX
        for (std::size_t d : {std::size_t{1}, std::size_t{5}, std::size_t{17}, std::size_t{100}}) {
            auto m = random_values(d, 17 + d);
            for (float& x : m) x = (x >= 0 ? 0.5f + x : x - 0.5f) * magnitude;  // |x| ≥ magnitude/2, no zeros
            const auto u = unit_rows(m, 1, d);
            double sum_sq = 0.0;
            for (float x : u) sum_sq += static_cast<double>(x) * x;
            CAPTURE(magnitude, d, sum_sq);
            // Subnormal inputs (1e-44) carry only a few significant bits, but the normalised
            // components are normal floats: one rounding each, ≤ 2·d·2^-24 on the squared norm.
            CHECK(std::fabs(sum_sq - 1.0) <= (2.0 * d + 4.0) * 0x1p-24);
        }
    }
}

// ---- max_shift_change -------------------------------------------------------------------------

TEST_CASE("max_shift_change: hand-built cases", "[analyses]") {
    SECTION("k = 0 and identical weights: exactly 0") {
        const std::vector<float> w = {0.5f, 0.5f, 0.25f, 0.75f};
        CHECK(posenc::max_shift_change(w.data(), w.data(), 2, 0) == 0.0f);
    }
    SECTION("prepended tokens' mass is removed and the rest renormalised") {
        // n = 2, k = 2. Original rows are shifted rows 2, 3, columns 2, 3. Filler rows (0, 1) are
        // garbage that must be ignored.
        const std::vector<float> base = {0.5f, 0.5f, 0.75f, 0.25f};
        const std::vector<float> shifted = {
            9, 9, 9, 9,
            9, 9, 9, 9,
            0.25f, 0.25f, 0.25f, 0.25f,   // → [0.5, 0.5]: no change
            0.5f, 0.1f, 0.3f, 0.1f,       // → [0.75, 0.25]: no change
        };
        CHECK(posenc::max_shift_change(base.data(), shifted.data(), 2, 2) <= 3e-8f);  // 0.3/0.4 rounding only
        std::vector<float> changed = shifted;
        changed[3 * 4 + 2] = 0.1f;  // row 1 → [0.5, 0.5]: change 0.25 in both entries
        changed[3 * 4 + 3] = 0.1f;
        CHECK(std::fabs(posenc::max_shift_change(base.data(), changed.data(), 2, 2) - 0.25f) <= 1e-7f);
    }
    SECTION("the largest entry wins, wherever it is") {
        const std::size_t n = 3;
        std::vector<float> base(n * n, 1.0f / 3.0f), shifted = base;
        CHECK(posenc::max_shift_change(base.data(), shifted.data(), n, 0) <= 1e-7f);
        shifted[2 * n + 1] = 2.0f / 3.0f;  // row 2 → [1/4, 1/2, 1/4]: largest change 1/6 at (2, 1)
        CHECK(std::fabs(posenc::max_shift_change(base.data(), shifted.data(), n, 0) - 1.0 / 6.0) <= 1e-7);
    }
}

namespace {

std::vector<float> sentence_embeddings(const std::vector<std::string>& words, std::size_t d) {
    std::vector<float> e(words.size() * d);
    for (std::size_t p = 0; p < words.size(); ++p) posenc::synthetic_embedding(posenc::hash_token(words[p]), d, &e[p * d]);
    return e;
}

struct ShiftChanges {
    float additive, concatenated, rotary;
};

// Largest weight change of each scheme over every head when `k` copies of `filler` are prepended.
ShiftChanges shift_changes(const posenc::CompareConfig& base_cfg, const std::vector<std::string>& words,
                           std::size_t k, const std::string& filler) {
    const std::size_t d = base_cfg.d, n = words.size();
    std::vector<std::string> shifted_words(k, filler);
    shifted_words.insert(shifted_words.end(), words.begin(), words.end());
    posenc::CompareConfig cfg = base_cfg, cfg_shifted = base_cfg;
    cfg.n = n;
    cfg_shifted.n = n + k;
    REQUIRE(posenc::validate(cfg) == nullptr);
    REQUIRE(posenc::validate(cfg_shifted) == nullptr);
    posenc::CompareResult a, b;
    posenc::compare(cfg, sentence_embeddings(words, d).data(), a);
    posenc::compare(cfg_shifted, sentence_embeddings(shifted_words, d).data(), b);
    const std::size_t heads = std::max<std::size_t>(cfg.heads, 1), w = n + k;
    auto worst = [&](const posenc::SchemeResult& x, const posenc::SchemeResult& y) {
        float m = 0.0f;
        for (std::size_t h = 0; h < heads; ++h) {
            m = std::fmax(m, posenc::max_shift_change(x.weights.data() + h * n * n, y.weights.data() + h * w * w, n, k));
        }
        return m;
    };
    return {worst(a.additive, b.additive), worst(a.concatenated, b.concatenated), worst(a.rotary, b.rotary)};
}

}  // namespace

TEST_CASE("shift invariance through compare: rotary ≈ 0, additive large, concatenated only with W = I",
          "[analyses]") {
    // Tolerance 1e-5 for "invariant": the logits among the original tokens are the same real
    // numbers before and after the shift, but the float rotations (rotary) and the float PE
    // values at positions p vs p + k (concatenated) round differently: the logits (|x|² ~ d over
    // √d_head) differ by ~ d·2^-24·|logit| ≲ 1e-5 and a softmax weight by at most a quarter
    // of that. A scheme that is not invariant changes weights by ~0.01–0.5, so "> 1e-3" is the
    // opposite claim with two orders of margin on each side.
    const std::vector<std::string> sentence = {"the", "cat", "sat", "on", "the", "mat", "because", "it", "was", "warm"};
    float worst_invariant = 0.0f, least_variant = 1.0f;
    for (std::size_t d : {std::size_t{16}, std::size_t{64}}) {
        for (std::size_t heads : {std::size_t{0}, std::size_t{2}}) {
            for (bool causal : {false, true}) {
                for (std::size_t k : {std::size_t{1}, std::size_t{5}, std::size_t{17}}) {
                    posenc::CompareConfig cfg;
                    cfg.d = d;
                    cfg.d_pos = d / 4;
                    cfg.heads = heads;
                    cfg.causal = causal;
                    cfg.alpha = 1.0f;
                    const ShiftChanges s = shift_changes(cfg, sentence, k, "<pad>");
                    CAPTURE(d, heads, causal, k, s.additive, s.concatenated, s.rotary);
                    CHECK(s.rotary <= 1e-5f);
                    CHECK(s.additive > 1e-3f);
                    worst_invariant = std::fmax(worst_invariant, s.rotary);
                    least_variant = std::fmin(least_variant, s.additive);
                    if (heads == 0) {
                        // x_p·x_q = α²·e_p·e_q + PE(p)·PE(q), and PE(p)·PE(q) = Σ cos((p − q)ω_i).
                        CHECK(s.concatenated <= 1e-5f);
                        worst_invariant = std::fmax(worst_invariant, s.concatenated);
                    } else {
                        // Random W_q, W_k mix word and position dims: e·W_q·W_kᵀ·PE(q) terms move.
                        CHECK(s.concatenated > 1e-3f);
                        least_variant = std::fmin(least_variant, s.concatenated);
                    }
                }
            }
        }
    }
    if (verbose()) {
        std::printf("  shift change: invariant schemes ≤ %.3g, variant schemes ≥ %.3g\n", worst_invariant, least_variant);
    }
}

// ---- score_by_offset and rope_decay_bound ----------------------------------------------------

TEST_CASE("score_by_offset equals Σ cos(k·ω_i) and PE(p)·PE(p+k); k = 0 gives d/2 exactly", "[analyses]") {
    const std::size_t max_offset = 300;
    double worst = 0.0;
    for (double base : {10000.0, 100.0}) {
        for (std::size_t d : {std::size_t{2}, std::size_t{4}, std::size_t{6}, std::size_t{8}, std::size_t{16},
                              std::size_t{64}, std::size_t{100}, std::size_t{128}, std::size_t{512}}) {
            std::vector<float> out(max_offset + 1, -1.0f);
            posenc::score_by_offset(max_offset, d, base, out.data());
            // Row 0 of the table is exactly [0, 1, 0, 1, …], so k = 0 sums d/2 exact ones.
            CHECK(out[0] == static_cast<float>(d / 2));
            // Each table entry is within a few float ulps (≤ 4·2^-24, phases.hpp); the float dot
            // of d/2 terms ≤ 1 with partial sums ≤ d/2 adds ≤ (d/2)·(d/8)·2^-24 with its lane
            // accumulators: (4·d/2 + d²/16 + 4)·2^-24 bounds the difference.
            const double tol = (2.0 * d + d * d / 16.0 + 4.0) * 0x1p-24;
            std::vector<float> table((max_offset + 1100) * d);
            posenc::sinusoidal_table(max_offset + 1100, d, base, posenc::Layout::interleaved, table.data());
            for (std::size_t k = 0; k <= max_offset; ++k) {
                double want = 0.0;
                for (std::size_t i = 0; i < d / 2; ++i) want += std::cos(k * std::pow(base, -2.0 * i / d));
                const double err = std::fabs(out[k] - want);
                worst = std::fmax(worst, err);
                CAPTURE(base, d, k, out[k], want);
                CHECK(err <= tol);
                // The same curve from any starting position p: PE(p)·PE(p+k) in float64 over the
                // float table; both sides carry the table's rounding, so 2·tol.
                for (std::size_t p : {std::size_t{1}, std::size_t{37}, std::size_t{799}}) {
                    const double at_p = dot64(&table[p * d], &table[(p + k) * d], d);
                    CAPTURE(p, at_p);
                    CHECK(std::fabs(out[k] - at_p) <= 2.0 * tol);
                }
            }
        }
    }
    if (verbose()) std::printf("  score_by_offset vs float64 Σcos: max abs error %.3g\n", worst);
}

namespace {
// RoFormer §3.4.3, written independently: (1/(d/2))·Σ_{j=1}^{d/2} |Σ_{m<j} e^{i·k·ω_m}|, with the
// partial sums carried as separate real and imaginary parts.
double decay_bound64(std::size_t k, std::size_t d, double base) {
    const std::size_t h = d / 2;
    double re = 0.0, im = 0.0, total = 0.0;
    for (std::size_t j = 1; j <= h; ++j) {
        const double angle = static_cast<double>(k) * std::pow(base, -2.0 * static_cast<double>(j - 1) / d);
        re += std::cos(angle);
        im += std::sin(angle);
        total += std::sqrt(re * re + im * im);
    }
    return total / static_cast<double>(h);
}
}  // namespace

TEST_CASE("rope_decay_bound matches RoFormer's formula, starts at (d/2 + 1)/2 and decays", "[analyses]") {
    const std::size_t max_offset = 400;
    double worst = 0.0;
    for (double base : {10000.0, 500.0}) {
        for (std::size_t d : {std::size_t{2}, std::size_t{8}, std::size_t{16}, std::size_t{64}, std::size_t{100},
                              std::size_t{128}, std::size_t{256}}) {
            std::vector<float> out(max_offset + 1, -1.0f);
            posenc::rope_decay_bound(max_offset, d, base, out.data());
            // k = 0: every partial sum is j exactly, and Σ j / (d/2) = (d/2 + 1)/2 is a half-integer.
            CHECK(out[0] == static_cast<float>((d / 2 + 1) / 2.0));
            for (std::size_t k = 0; k <= max_offset; ++k) {
                const double want = decay_bound64(k, d, base);
                // Everything is double (the ω's may differ in the last bit: k·Δω ~ 400·1e-16), and
                // the result is rounded to float once: 2^-23 relative.
                const double err = std::fabs(out[k] - want);
                worst = std::fmax(worst, err / want);
                CAPTURE(base, d, k, out[k], want);
                CHECK(err <= want * 0x1p-23 + 1e-12);
                CHECK(out[k] <= out[0]);  // the triangle inequality: |Σ_{m<j}| ≤ j
            }
            if (d >= 16) {
                double early = 0.0, late = 0.0;
                for (std::size_t k = 1; k <= 20; ++k) early += out[k] / 20.0;
                for (std::size_t k = 200; k <= 400; ++k) late += out[k] / 201.0;
                CAPTURE(base, d, early, late);
                CHECK(late < early);  // the long-term decay, on average
            }
        }
    }
    if (verbose()) std::printf("  rope_decay_bound vs float64: max relative error %.3g\n", worst);
}

TEST_CASE("rope_decay_bound at long offsets and wide d: within 2^-23 of float64 across its 64-offset anchors",
          "[analyses]") {
    // The phasors are advanced by complex multiplication and recomputed directly every 64
    // offsets; rounding that compounded would show at large k and d. Checked around anchors (63,
    // 64, 65), far out (up to 8191) and at the widest d, with the same tolerance as above.
    const std::size_t max_offset = 8191;
    for (std::size_t d : {std::size_t{4}, std::size_t{100}, std::size_t{1024}}) {
        std::vector<float> out(max_offset + 1);
        posenc::rope_decay_bound(max_offset, d, 10000.0, out.data());
        CHECK(out[0] == static_cast<float>((d / 2 + 1) / 2.0));
        for (std::size_t k : {std::size_t{1}, std::size_t{63}, std::size_t{64}, std::size_t{65}, std::size_t{127},
                              std::size_t{1000}, std::size_t{4095}, std::size_t{4096}, std::size_t{8190}, std::size_t{8191}}) {
            const double want = decay_bound64(k, d, 10000.0);
            CAPTURE(d, k, out[k], want);
            CHECK(std::fabs(out[k] - want) <= want * 0x1p-23 + 1e-12);
        }
    }
}

TEST_CASE("score_by_offset sums the sinusoidal kernel's own cos entries, rounded once", "[analyses]") {
    // out[k] = Σ_i cos(k·ω_i) from the same phase evaluations as the table's columns 2i + 1,
    // summed in double: equal to float(Σ_i table[k][2i+1]) exactly, for every tail of the lanes.
    for (std::size_t d : {std::size_t{2}, std::size_t{6}, std::size_t{10}, std::size_t{16}, std::size_t{18},
                          std::size_t{100}, std::size_t{130}}) {
        const std::size_t max_offset = 200;
        std::vector<float> out(max_offset + 1), table((max_offset + 1) * d);
        posenc::score_by_offset(max_offset, d, 500.0, out.data());
        posenc::sinusoidal_table(max_offset + 1, d, 500.0, posenc::Layout::interleaved, table.data());
        for (std::size_t k = 0; k <= max_offset; ++k) {
            double sum = 0.0;
            for (std::size_t i = 0; i < d / 2; ++i) sum += table[k * d + 2 * i + 1];
            CAPTURE(d, k);
            REQUIRE(out[k] == static_cast<float>(sum));
        }
    }
}

// ---- random_cosine_spread ---------------------------------------------------------------------

TEST_CASE("random_cosine_spread: mean ≈ 0 and std ≈ 1/√d within sampling error; deterministic", "[analyses]") {
    const std::size_t pairs = 4000;
    for (std::size_t d : {std::size_t{4}, std::size_t{16}, std::size_t{64}, std::size_t{256}, std::size_t{1024}}) {
        for (std::uint64_t seed : {std::uint64_t{1}, std::uint64_t{123456789}}) {
            const posenc::CosineSpread s = posenc::random_cosine_spread(d, pairs, seed);
            const double sd = 1.0 / std::sqrt(static_cast<double>(d));  // exact: E[c²] = 1/d by symmetry
            CAPTURE(d, seed, s.mean, s.std, sd);
            // Mean: standard error sd/√pairs; 4 of them.
            CHECK(std::fabs(s.mean) <= 4.0 * sd / std::sqrt(static_cast<double>(pairs)));
            // Std: c² has variance E[c⁴] − E[c²]² = 3/(d(d+2)) − 1/d², so the sample variance has
            // relative standard error √(3d/(d+2) − 1)/√pairs and the std half that; allow 5.
            const double rel_se = 0.5 * std::sqrt(3.0 * d / (d + 2.0) - 1.0) / std::sqrt(static_cast<double>(pairs));
            CHECK(std::fabs(s.std / sd - 1.0) <= 5.0 * rel_se);
        }
    }
    // Determinism: the same seed gives the same bits; another seed other values.
    const posenc::CosineSpread s = posenc::random_cosine_spread(64, 500, 9);
    const posenc::CosineSpread again = posenc::random_cosine_spread(64, 500, 9);
    CHECK(std::memcmp(&again, &s, sizeof s) == 0);
    const posenc::CosineSpread other = posenc::random_cosine_spread(64, 500, 10);
    CHECK(other.mean != s.mean);
    // d = 1: every cosine is ±1 (up to float rounding of a·a and b·b), so mean² + std² = 1.
    const posenc::CosineSpread one = posenc::random_cosine_spread(1, 1000, 5);
    CHECK(std::fabs(one.mean * one.mean + one.std * one.std - 1.0) <= 1e-6);
}
