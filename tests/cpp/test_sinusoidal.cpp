// sinusoidal_table against reference::sinusoidal (float64), closed forms, and the relative-position
// property PE(p)·PE(p+k) = Σ_i cos(k·ω_i).
#include <catch2/catch.hpp>

#include "test_support.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "reference.hpp"
#include "encodings/sinusoidal.hpp"

namespace {

using namespace posenc::test;

using posenc::Layout;


const char* name_of(Layout layout) { return layout == Layout::interleaved ? "interleaved" : "half"; }

// Even widths around every SIMD tail (lanes = 4: d mod 4 ∈ {0, 2}) and both sides of 64 / 128.
const std::size_t kEvenDims[] = {2, 4, 6, 8, 10, 14, 16, 18, 62, 64, 66, 100, 128, 130, 512, 1024};

std::vector<float> table(std::size_t n, std::size_t d, double base, Layout layout, double first = 0.0) {
    std::vector<float> out(n * d);
    posenc::sinusoidal_table(n, d, base, layout, out.data(), first);
    return out;
}

double max_abs_diff(const std::vector<float>& got, const std::vector<double>& want) {
    REQUIRE(got.size() == want.size());
    double m = 0.0;
    for (std::size_t i = 0; i < got.size(); ++i) m = std::fmax(m, std::fabs(got[i] - want[i]));
    return m;
}

}  // namespace

// Error budget of one entry sin(P·ω + s·π/2), ω < 1 (ω_0 = 1 has w_lo = 0): the angle is
// P·w_hi (exact) + P·w_lo, where |w_lo| ≤ 2^-13 (ω rounded to 12 bits); storing w_lo in float
// costs ≤ 2^-37·P and rounding the product P·w_lo (≤ 2^-13·P) costs ≤ 2^-38·P; the reduction
// (fastmath.hpp) adds ≤ 2^-25 and the polynomial with the final rounding ≤ 2^-23 (measured 7.5e-8
// in test_fastmath.cpp).
//   P ≤ 8192:  2^-24 + 2^-25 + 2^-25 + 2^-23 ≈ 2.4e-7  → 2.5e-7 (measured 9.7e-8)
//   P ≤ 65535: 2^-21 + 2^-22 + 2^-25 + 2^-23 ≈ 8.7e-7 → 1e-6   (measured 4.0e-7)
// Tight either way: a wrong frequency, layout or quadrant is off by O(1), and the kernel before
// its theta_lo fix (rounding the reduced argument at |r| ≈ |P·w_lo|) measured 6.3e-7 at P ≈ 65535.
constexpr double kTolUpTo8192 = 2.5e-7;
constexpr double kTolUpTo65535 = 1e-6;

TEST_CASE("sinusoidal_table matches the float64 reference for every width and both layouts", "[sinusoidal]") {
    const double bases[] = {10000.0, 500.0, 1e6};
    for (Layout layout : {Layout::interleaved, Layout::half}) {
        for (std::size_t d : kEvenDims) {
            for (double base : bases) {
                const std::size_t n = d >= 512 ? 40 : 300;
                const double err = max_abs_diff(table(n, d, base, layout), posenc::reference::sinusoidal(n, d, base, layout));
                CAPTURE(name_of(layout), d, base, n, err);
                // Positions < 300: the angle part of the budget is < 1e-8, so 2^-23 + 1e-8.
                CHECK(err <= 0x1p-23 + 1e-8);
            }
        }
    }
}

TEST_CASE("sinusoidal_table stays accurate at every row position up to 8192", "[sinusoidal]") {
    for (Layout layout : {Layout::interleaved, Layout::half}) {
        for (std::size_t d : {std::size_t{6}, std::size_t{64}, std::size_t{130}}) {
            const std::size_t n = 8192;
            const double err = max_abs_diff(table(n, d, 10000.0, layout), posenc::reference::sinusoidal(n, d, 10000.0, layout));
            if (verbose()) std::printf("  sinusoidal %s d=%zu, P < 8192: max abs error %.3g\n", name_of(layout), d, err);
            CAPTURE(name_of(layout), d, err);
            CHECK(err <= kTolUpTo8192);
        }
    }
}

TEST_CASE("sinusoidal_table with first_position, up to the largest allowed position", "[sinusoidal]") {
    struct Case {
        double first;
        std::size_t n;
        double tol;
    };
    const Case cases[] = {
        {-65535.0, 64, kTolUpTo65535}, {-8192.0, 200, kTolUpTo8192}, {-3.0, 7, 0x1p-23 + 1e-8},
        {5.0, 17, 0x1p-23 + 1e-8},     {4090.0, 12, kTolUpTo8192},    {8000.0, 192, kTolUpTo8192},
        {30000.0, 300, kTolUpTo65535}, {65535.0 - 255.0, 256, kTolUpTo65535},
    };
    for (Layout layout : {Layout::interleaved, Layout::half}) {
        for (std::size_t d : {std::size_t{2}, std::size_t{14}, std::size_t{64}, std::size_t{100}}) {
            for (const Case& c : cases) {
                const double err = max_abs_diff(table(c.n, d, 10000.0, layout, c.first),
                                                posenc::reference::sinusoidal(c.n, d, 10000.0, layout, c.first));
                if (verbose() && d == 64) {
                    std::printf("  sinusoidal %s d=%zu, P in [%g, %g]: max abs error %.3g\n", name_of(layout), d,
                                c.first, c.first + c.n - 1, err);
                }
                CAPTURE(name_of(layout), d, c.first, c.n, err);
                CHECK(err <= c.tol);
            }
        }
    }
    // first_position shifts rows: row p of a table starting at F is row F + p of one starting at 0,
    // bit for bit (the kernel only ever sees the position F + p).
    const auto from0 = table(300, 10, 10000.0, Layout::interleaved);
    const auto from100 = table(200, 10, 10000.0, Layout::interleaved, 100.0);
    CHECK(std::memcmp(from0.data() + 100 * 10, from100.data(), 200 * 10 * sizeof(float)) == 0);
}

TEST_CASE("sinusoidal closed forms", "[sinusoidal]") {
    SECTION("row 0 is [0, 1, 0, 1, …] interleaved and [0 … 0, 1 … 1] half, exactly") {
        for (std::size_t d : kEvenDims) {
            const auto inter = table(1, d, 10000.0, Layout::interleaved);
            const auto half = table(1, d, 10000.0, Layout::half);
            for (std::size_t j = 0; j < d; ++j) {
                CAPTURE(d, j);
                CHECK(inter[j] == (j % 2 == 0 ? 0.0f : 1.0f));
                CHECK(half[j] == (j < d / 2 ? 0.0f : 1.0f));
            }
        }
    }
    SECTION("d = 2 has ω = 1: sin p, cos p") {
        const std::size_t n = 2000;
        const auto inter = table(n, 2, 10000.0, Layout::interleaved);
        const auto half = table(n, 2, 10000.0, Layout::half);
        double err = 0.0;
        for (std::size_t p = 0; p < n; ++p) {
            err = std::fmax(err, std::fabs(inter[2 * p] - std::sin(static_cast<double>(p))));
            err = std::fmax(err, std::fabs(inter[2 * p + 1] - std::cos(static_cast<double>(p))));
        }
        CHECK(err <= 0x1p-23 + 1e-8);  // ω = 1 has no low part: only reduction + polynomial error
        CHECK(std::memcmp(inter.data(), half.data(), n * 2 * sizeof(float)) == 0);  // same layout at d = 2
    }
    SECTION("the last pair's frequency is base^(−(d−2)/d): d = 4, base = 100 gives ω_1 = 1/10") {
        const auto t = table(50, 4, 100.0, Layout::interleaved);
        for (std::size_t p = 0; p < 50; ++p) {
            CAPTURE(p);
            CHECK(std::fabs(t[4 * p + 2] - std::sin(p * 0.1)) <= 0x1p-23 + 1e-8);
            CHECK(std::fabs(t[4 * p + 3] - std::cos(p * 0.1)) <= 0x1p-23 + 1e-8);
        }
    }
    SECTION("half layout is a permutation of interleaved: PE_half[p][i] = PE_inter[p][2i], [i+d/2] = [2i+1]") {
        for (std::size_t d : kEvenDims) {
            const std::size_t n = 33;
            const auto inter = table(n, d, 10000.0, Layout::interleaved);
            const auto half = table(n, d, 10000.0, Layout::half);
            std::size_t mismatches = 0;
            for (std::size_t p = 0; p < n; ++p) {
                for (std::size_t i = 0; i < d / 2; ++i) {
                    // Same ω_i, same position, same formula: bit-identical.
                    if (half[p * d + i] != inter[p * d + 2 * i]) ++mismatches;
                    if (half[p * d + i + d / 2] != inter[p * d + 2 * i + 1]) ++mismatches;
                }
            }
            CAPTURE(d);
            CHECK(mismatches == 0);
        }
    }
    SECTION("every row has norm √(d/2) (sin² + cos² = 1 per pair)") {
        for (std::size_t d : kEvenDims) {
            const std::size_t n = 500;
            const auto t = table(n, d, 10000.0, Layout::half);
            double worst = 0.0;
            for (std::size_t p = 0; p < n; ++p) {
                double s = 0.0;
                for (std::size_t j = 0; j < d; ++j) s += static_cast<double>(t[p * d + j]) * t[p * d + j];
                worst = std::fmax(worst, std::fabs(s - d / 2.0));
            }
            CAPTURE(d);
            // Each pair: sin² + cos² off by ≤ 2·2^-23 (two entries each within 2^-23); d/2 pairs.
            CHECK(worst <= d / 2.0 * 2.0 * 0x1p-23);
        }
    }
}

TEST_CASE("PE(p)·PE(p+k) depends only on k and equals Σ cos(k·ω_i)", "[sinusoidal][property]") {
    for (Layout layout : {Layout::interleaved, Layout::half}) {
        for (std::size_t d : {std::size_t{2}, std::size_t{6}, std::size_t{16}, std::size_t{64}, std::size_t{128}}) {
            const std::size_t n = 1200;
            const auto t = table(n, d, 10000.0, layout);
            for (std::size_t k : {std::size_t{0}, std::size_t{1}, std::size_t{3}, std::size_t{17}, std::size_t{100}}) {
                double expected = 0.0;
                for (std::size_t i = 0; i < d / 2; ++i) expected += std::cos(k * posenc::frequency(i, d, 10000.0));
                double worst = 0.0;
                for (std::size_t p = 0; p + k < n; p += 7) {
                    double dot = 0.0;
                    for (std::size_t j = 0; j < d; ++j) dot += static_cast<double>(t[p * d + j]) * t[(p + k) * d + j];
                    worst = std::fmax(worst, std::fabs(dot - expected));
                }
                CAPTURE(name_of(layout), d, k, expected, worst);
                // d products of entries each within ≤ 1.2e-7 of exact (positions < 1200), values ≤ 1:
                // |Δdot| ≤ d·2·1.2e-7 ≈ d·2.4e-7; double accumulation adds nothing visible.
                CHECK(worst <= d * 2.4e-7);
            }
        }
    }
}

#if POSENC_SIMD
TEST_CASE("sinusoidal_table: SIMD lanes equal the scalar formula bit for bit", "[sinusoidal][simd]") {
    // The batch loop covers dims [0, d − d mod 4); the scalar phase<float, int32_t> over the same
    // plan must give identical bits everywhere (same operations, no contraction).
    for (Layout layout : {Layout::interleaved, Layout::half}) {
        for (std::size_t d : kEvenDims) {
            const std::size_t n = 70;
            const double first = 4000.0;
            const auto got = table(n, d, 10000.0, layout, first);
            const posenc::PhasePlan plan = posenc::make_phase_plan(d, 10000.0, layout, 0, 1);
            std::size_t mismatches = 0;
            for (std::size_t p = 0; p < n; ++p) {
                const posenc::SplitPosition pos = posenc::split_position(first + p);
                for (std::size_t j = 0; j < d; ++j) {
                    const float want = posenc::phase<float, std::int32_t>(pos, plan.w_hi[j], plan.w_lo[j], plan.shift[j]);
                    if (std::memcmp(&want, &got[p * d + j], sizeof want) != 0) ++mismatches;
                }
            }
            CAPTURE(name_of(layout), d);
            CHECK(mismatches == 0);
        }
    }
}
#endif
