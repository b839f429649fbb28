// rotate() against reference::rotate (float64), both pairings, offsets up to the ±32768 limits,
// and RoPE's properties: norms preserved per pair, q_m·k_n a function of m − n only, identity at
// position 0, offsets equivalent to shifted rows.
#include <catch2/catch.hpp>

#include "test_support.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "reference.hpp"
#include "encodings/rotary.hpp"

namespace {

using namespace posenc::test;

using posenc::Layout;

const char* name_of(Layout layout) { return layout == Layout::interleaved ? "interleaved" : "half"; }

std::vector<float> rotated(const std::vector<float>& x, std::size_t n, std::size_t d, double offset, Layout pairing,
                           double base = 10000.0) {
    std::vector<float> out(n * d);
    posenc::rotate(x.data(), n, d, base, offset, pairing, out.data());
    return out;
}

std::size_t partner_of(std::size_t j, std::size_t d, Layout pairing) {
    if (pairing == Layout::interleaved) return j ^ 1u;
    return j < d / 2 ? j + d / 2 : j - d / 2;
}

// Largest |got − want| / (|x_j| + |x_partner(j)|): each output mixes one pair, so its error scales
// with the pair's magnitude.
double max_pair_relative_error(const std::vector<float>& x, const std::vector<float>& got,
                               const std::vector<double>& want, std::size_t n, std::size_t d, Layout pairing) {
    double m = 0.0;
    for (std::size_t p = 0; p < n; ++p) {
        for (std::size_t j = 0; j < d; ++j) {
            const double mag = std::fabs(x[p * d + j]) + std::fabs(x[p * d + partner_of(j, d, pairing)]);
            if (mag == 0.0) continue;
            m = std::fmax(m, std::fabs(got[p * d + j] - want[p * d + j]) / mag);
        }
    }
    return m;
}

const std::size_t kEvenDims[] = {2, 4, 6, 8, 10, 14, 16, 18, 62, 64, 66, 100, 128, 130};

// One output is fl(fl(a·cos θ) + fl(b·s·sin θ)): with cos/sin each within ε of exact (ε as in
// test_sinusoidal.cpp: 2.5e-7 for |P| ≤ 8192, 1e-6 for |P| ≤ 65535) and three roundings of
// values ≤ |a| + |b|, the error is ≤ (|a| + |b|)·(ε + 2^-23).
constexpr double kRelTolUpTo8192 = 2.5e-7 + 0x1p-23;
constexpr double kRelTolUpTo65535 = 1e-6 + 0x1p-23;

}  // namespace

TEST_CASE("rotate matches the float64 reference for every width, both pairings", "[rotary]") {
    double worst_abs = 0.0;
    for (Layout pairing : {Layout::interleaved, Layout::half}) {
        for (std::size_t d : kEvenDims) {
            for (double base : {10000.0, 500000.0}) {
                const std::size_t n = 300;
                const auto x = random_values(n * d, 1000 + d);
                const auto got = rotated(x, n, d, 0.0, pairing, base);
                const auto want = posenc::reference::rotate(x.data(), n, d, base, 0.0, pairing);
                const double err = max_pair_relative_error(x, got, want, n, d, pairing);
                double abs_err = 0.0;
                for (std::size_t i = 0; i < got.size(); ++i) abs_err = std::fmax(abs_err, std::fabs(got[i] - want[i]));
                CAPTURE(name_of(pairing), d, base, err, abs_err);
                CHECK(err <= kRelTolUpTo8192);
                // The contract's absolute bound for positions up to a few hundred, |x| ≤ 1.
                CHECK(abs_err <= 2e-5);
                worst_abs = std::fmax(worst_abs, abs_err);
            }
        }
    }
    if (verbose()) std::printf("  rotate vs reference, |x| < 1, P < 300: max abs error %.3g\n", worst_abs);
}

TEST_CASE("rotate with offsets, including the ±32768 extremes", "[rotary]") {
    struct Case {
        double offset;
        std::size_t n;
        double tol;
    };
    const Case cases[] = {
        {-32768.0, 3, kRelTolUpTo65535}, {-32768.0, 200, kRelTolUpTo65535}, {-5.0, 11, kRelTolUpTo8192},
        {7.0, 9, kRelTolUpTo8192},       {8000.0, 192, kRelTolUpTo8192},     {32768.0, 1, kRelTolUpTo65535},
        {32768.0, 5, kRelTolUpTo65535},  {32768.0, 8192, kRelTolUpTo65535},  {-1.0, 8192, kRelTolUpTo8192},
    };
    double worst_small = 0.0, worst_large = 0.0;
    for (Layout pairing : {Layout::interleaved, Layout::half}) {
        for (std::size_t d : {std::size_t{2}, std::size_t{6}, std::size_t{16}, std::size_t{66}}) {
            for (const Case& c : cases) {
                const auto x = random_values(c.n * d, 77 + d, 3.0f);
                const auto got = rotated(x, c.n, d, c.offset, pairing);
                const auto want = posenc::reference::rotate(x.data(), c.n, d, 10000.0, c.offset, pairing);
                const double err = max_pair_relative_error(x, got, want, c.n, d, pairing);
                (c.tol == kRelTolUpTo8192 ? worst_small : worst_large) =
                    std::fmax(c.tol == kRelTolUpTo8192 ? worst_small : worst_large, err);
                CAPTURE(name_of(pairing), d, c.offset, c.n, err);
                CHECK(err <= c.tol);
            }
        }
    }
    if (verbose()) {
        std::printf("  rotate: max error / (|a|+|b|) %.3g for |P| ≤ 8192, %.3g for |P| ≤ 40959\n", worst_small,
                    worst_large);
    }
}

TEST_CASE("rotate at position 0 is the identity, exactly", "[rotary]") {
    // cos 0 = 1 and sin 0 = 0 exactly, so a·1 + b·(±0) = a bit for bit.
    for (Layout pairing : {Layout::interleaved, Layout::half}) {
        for (std::size_t d : kEvenDims) {
            const auto x = random_values(3 * d, 5 + d);
            const auto y = rotated(x, 3, d, 0.0, pairing);
            CAPTURE(name_of(pairing), d);
            CHECK(std::memcmp(x.data(), y.data(), d * sizeof(float)) == 0);
            // Row 2 (position 2) is really rotated.
            CHECK(std::memcmp(x.data() + 2 * d, y.data() + 2 * d, d * sizeof(float)) != 0);
            // Offset −2 puts row 2 at position 0.
            const auto z = rotated(x, 3, d, -2.0, pairing);
            CHECK(std::memcmp(x.data() + 2 * d, z.data() + 2 * d, d * sizeof(float)) == 0);
        }
    }
}

TEST_CASE("rotate with offset a equals rotate of the same rows placed a rows later", "[rotary]") {
    // Row p with offset a sits at position a + p, exactly like row a + p with offset 0: the
    // results must be bit-identical (one position, one code path per lane).
    for (Layout pairing : {Layout::interleaved, Layout::half}) {
        for (std::size_t d : {std::size_t{4}, std::size_t{6}, std::size_t{10}, std::size_t{64}, std::size_t{100}}) {
            const std::size_t n = 120, a = 37;
            const auto x = random_values(n * d, 31 + d);
            const auto all_rows = rotated(x, n, d, 0.0, pairing);
            const std::vector<float> tail(x.begin() + a * d, x.end());
            const auto shifted = rotated(tail, n - a, d, static_cast<double>(a), pairing);
            CAPTURE(name_of(pairing), d);
            CHECK(std::memcmp(all_rows.data() + a * d, shifted.data(), (n - a) * d * sizeof(float)) == 0);
            // A negative offset runs the other way: rows placed at positions −a … give back the
            // inverse rotation, which undoes +a within the rotation tolerance.
            const std::vector<float> one(all_rows.begin() + a * d, all_rows.begin() + (a + 1) * d);
            const auto back = rotated(one, 1, d, -static_cast<double>(a), pairing);
            for (std::size_t j = 0; j < d; ++j) {
                const double mag = std::fabs(x[a * d + j]) + std::fabs(x[a * d + partner_of(j, d, pairing)]);
                CAPTURE(j);
                CHECK(std::fabs(back[j] - x[a * d + j]) <= 2.0 * kRelTolUpTo8192 * mag + 1e-12);
            }
        }
    }
}

TEST_CASE("rotate preserves the norm of every pair", "[rotary][property]") {
    for (Layout pairing : {Layout::interleaved, Layout::half}) {
        for (std::size_t d : kEvenDims) {
            for (double offset : {0.0, 1000.0, 32768.0, -32768.0}) {
                const std::size_t n = 64;
                const auto x = random_values(n * d, 900 + d, 2.0f);
                const auto y = rotated(x, n, d, offset, pairing);
                double worst = 0.0;
                for (std::size_t p = 0; p < n; ++p) {
                    for (std::size_t j = 0; j < d; ++j) {
                        const std::size_t k = partner_of(j, d, pairing);
                        if (k < j) continue;
                        const double before = static_cast<double>(x[p * d + j]) * x[p * d + j] +
                                              static_cast<double>(x[p * d + k]) * x[p * d + k];
                        const double after = static_cast<double>(y[p * d + j]) * y[p * d + j] +
                                             static_cast<double>(y[p * d + k]) * y[p * d + k];
                        const double mag = std::fabs(x[p * d + j]) + std::fabs(x[p * d + k]);
                        if (mag > 0.0) worst = std::fmax(worst, std::fabs(after - before) / (mag * mag));
                    }
                }
                CAPTURE(name_of(pairing), d, offset, worst);
                // a'² + b'² − (a² + b²) with each of a', b' within δ = tol·(|a|+|b|) of exact:
                // ≤ 2·δ·(|a|+|b|) + δ² → 2.1·tol·(|a|+|b|)².
                CHECK(worst <= 2.1 * kRelTolUpTo65535);
            }
        }
    }
}

TEST_CASE("rotated q_m·k_n depends only on m − n", "[rotary][property]") {
    // q_m·k_n = qᵀ·R((n − m)·ω)·k: the same two vectors rotated at many (m, n) with one difference
    // must give one dot product, the closed form Σ_i q_aᵢ(k_a cos θ − k_b sin θ) + q_b(k_a sin θ + k_b cos θ).
    for (Layout pairing : {Layout::interleaved, Layout::half}) {
        for (std::size_t d : {std::size_t{2}, std::size_t{6}, std::size_t{16}, std::size_t{64}, std::size_t{130}}) {
            const auto q = random_values(d, 4242 + d);
            const auto k = random_values(d, 4343 + d);
            for (int delta : {0, 1, -3, 25, 1000}) {
                double expected = 0.0, bound = 0.0;
                for (std::size_t i = 0; i < d / 2; ++i) {
                    const std::size_t a = pairing == Layout::interleaved ? 2 * i : i;
                    const std::size_t b = pairing == Layout::interleaved ? 2 * i + 1 : i + d / 2;
                    const double theta = -delta * posenc::frequency(i, d, 10000.0);  // n − m = −delta
                    expected += q[a] * (k[a] * std::cos(theta) - k[b] * std::sin(theta)) +
                                q[b] * (k[a] * std::sin(theta) + k[b] * std::cos(theta));
                    bound += (std::fabs(q[a]) + std::fabs(q[b])) * (std::fabs(k[a]) + std::fabs(k[b]));
                }
                double worst = 0.0;
                for (double m : {0.0, 7.0, 999.0, 8191.0, 20000.0, 32768.0, -32768.0 + 1000.0}) {
                    const auto qm = rotated(q, 1, d, m, pairing);
                    const auto kn = rotated(k, 1, d, m - delta, pairing);
                    double dot = 0.0;
                    for (std::size_t j = 0; j < d; ++j) dot += static_cast<double>(qm[j]) * kn[j];
                    worst = std::fmax(worst, std::fabs(dot - expected));
                }
                CAPTURE(name_of(pairing), d, delta, expected, worst);
                // Each rotated entry within tol·(pair magnitude) of exact, and rotation keeps a
                // pair's 2-norm: |Δ(q'·k')| ≤ 2·tol·Σ_pairs (|q_a|+|q_b|)(|k_a|+|k_b|).
                CHECK(worst <= 2.0 * kRelTolUpTo65535 * bound);
            }
        }
    }
}

#if POSENC_SIMD
TEST_CASE("rotate: SIMD lanes equal the scalar formula bit for bit", "[rotary][simd]") {
    // out[j] = x[j]·cos θ_j + x[partner]·(±sin θ_j) with the scalar phase<float, int32_t>; the
    // batch loop (swizzled partners for interleaved, a second load for half) must agree exactly.
    for (Layout pairing : {Layout::interleaved, Layout::half}) {
        for (std::size_t d : kEvenDims) {
            const std::size_t n = 40;
            const double offset = -1234.0;
            const auto x = random_values(n * d, 55 + d);
            const auto got = rotated(x, n, d, offset, pairing);
            const posenc::PhasePlan plan = posenc::make_phase_plan(d, 10000.0, pairing, 2, 0);
            std::size_t mismatches = 0;
            for (std::size_t p = 0; p < n; ++p) {
                const posenc::SplitPosition pos = posenc::split_position(offset + p);
                for (std::size_t j = 0; j < d; ++j) {
                    const float c = posenc::phase<float, std::int32_t>(pos, plan.w_hi[j], plan.w_lo[j], 1);
                    const float s = posenc::phase<float, std::int32_t>(pos, plan.w_hi[j], plan.w_lo[j], plan.shift[j]);
                    const float want = x[p * d + j] * c + x[p * d + partner_of(j, d, pairing)] * s;
                    if (std::memcmp(&want, &got[p * d + j], sizeof want) != 0) ++mismatches;
                }
            }
            CAPTURE(name_of(pairing), d);
            CHECK(mismatches == 0);
        }
    }
}
#endif
