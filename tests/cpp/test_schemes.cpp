// The schemes of schemes.hpp against the formulas of their papers (each test names the paper,
// section and formula; equation numbers are given where we could check them against the text)
// and against independent float64 references written here.
#include <catch2/catch.hpp>

#include "test_support.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "reference.hpp"
#include "encodings/rotary.hpp"
#include "encodings/schemes.hpp"

namespace {

using namespace posenc::test;
using posenc::Layout;
using posenc::RopeScaling;
using posenc::RopeScalingConfig;

std::vector<double> slopes_of(std::size_t h) {
    std::vector<double> s(h);
    posenc::alibi_slopes(h, s.data());
    return s;
}

// The reference code's recursion, written from its description: a power of two p gets the
// geometric sequence starting at 2^(−8/p) with that ratio; otherwise the closest lower power of
// two's slopes, then the even-indexed (0-based) entries of the sequence for twice that many heads.
std::vector<double> slopes_reference(std::size_t h) {
    auto power = [](std::size_t p) {
        std::vector<double> s;
        const double start = std::pow(2.0, -8.0 / static_cast<double>(p));
        double v = start;
        for (std::size_t k = 0; k < p; ++k, v *= start) s.push_back(v);
        return s;
    };
    std::size_t p = 1;
    while (p * 2 <= h) p *= 2;
    std::vector<double> s = power(p);
    if (p == h) return s;
    const std::vector<double> twice = slopes_reference(2 * p);
    for (std::size_t k = 0; s.size() < h; k += 2) s.push_back(twice[k]);
    return s;
}

// T5 buckets from the exact boundaries: distance r ≥ max_exact lands in max_exact + k for the
// largest k with r ≥ max_exact·(max_distance/max_exact)^(k/(b − max_exact)) — the same rule as the
// code's ⌊log ratio⌋, written the other way round (thresholds instead of a logarithm).
int t5_bucket_reference(long long relative, bool bidirectional, int num_buckets, int max_distance) {
    int offset = 0;
    long long r = 0;
    if (bidirectional) {
        num_buckets /= 2;
        offset = relative > 0 ? num_buckets : 0;
        r = relative < 0 ? -relative : relative;
    } else {
        r = relative < 0 ? -relative : 0;
    }
    const int me = num_buckets / 2;
    if (r < me) return offset + static_cast<int>(r);
    int k = 0;
    const double ratio = static_cast<double>(max_distance) / me;
    while (me + k + 1 <= num_buckets - 1 &&
           static_cast<double>(r) >= me * std::pow(ratio, static_cast<double>(k + 1) / (num_buckets - me))) {
        ++k;
    }
    return offset + me + k;
}

std::vector<double> frequencies_of(std::size_t d, double base, RopeScaling kind, double trained, double eval) {
    RopeScalingConfig cfg;
    cfg.kind = kind;
    cfg.trained_length = trained;
    cfg.eval_length = eval;
    std::vector<double> w(d / 2);
    posenc::rope_frequencies(d, base, cfg, w.data());
    return w;
}

const char* name_of(RopeScaling kind) {
    switch (kind) {
        case RopeScaling::none: return "none";
        case RopeScaling::pi: return "pi";
        case RopeScaling::ntk: return "ntk";
        case RopeScaling::yarn: return "yarn";
    }
    return "?";
}

}  // namespace

// ---- ALiBi -------------------------------------------------------------------------------------

TEST_CASE("ALiBi slopes for 8 heads are 1/2 … 1/256 (Press et al. 2022, §3)", "[schemes][alibi]") {
    // §3: "For a model with 8 heads, the slopes that we used are the geometric sequence
    // 1/2^1, 1/2^2, …, 1/2^8" — m_i = 2^(−8i/h). Powers of two: exact.
    const auto s = slopes_of(8);
    for (std::size_t i = 0; i < 8; ++i) {
        CAPTURE(i);
        CHECK(s[i] == std::ldexp(1.0, -static_cast<int>(i + 1)));
    }
    // §3: 16 heads "geometrically average every consecutive pair" of the 8: start 2^−0.5, ratio 2^−0.5.
    const auto s16 = slopes_of(16);
    for (std::size_t i = 0; i < 16; ++i) {
        CAPTURE(i);
        CHECK(s16[i] == Approx(std::pow(2.0, -0.5 * static_cast<double>(i + 1))).epsilon(1e-15));
    }
}

TEST_CASE("ALiBi slopes for 12 heads follow the paper's rule for non-powers of two", "[schemes][alibi]") {
    // Press et al. 2022, §3 footnote / reference code: the 8 slopes of the closest lower power of
    // two, then every other slope of the 16-head sequence (2^−0.5, 2^−1.5, 2^−2.5, 2^−3.5).
    const auto s = slopes_of(12);
    const double want[12] = {0.5,       0.25,        0.125,       0.0625,      0.03125, 0.015625,
                             0.0078125, 0.00390625, std::pow(2.0, -0.5), std::pow(2.0, -1.5),
                             std::pow(2.0, -2.5),     std::pow(2.0, -3.5)};
    for (std::size_t i = 0; i < 12; ++i) {
        CAPTURE(i, s[i], want[i]);
        CHECK(s[i] == Approx(want[i]).epsilon(1e-15));
    }
    for (std::size_t h = 1; h <= 64; ++h) {
        const auto got = slopes_of(h);
        const auto ref = slopes_reference(h);
        for (std::size_t i = 0; i < h; ++i) {
            CAPTURE(h, i);
            CHECK(got[i] == Approx(ref[i]).epsilon(1e-14));
            CHECK(got[i] > 0.0);
            CHECK(got[i] < 1.0);
        }
    }
    CHECK(slopes_of(1)[0] == 1.0 / 256.0);  // h = 1: 2^(−8/1)
}

TEST_CASE("ALiBi bias is −m·(i − j), causal or symmetric (Press et al. 2022, §3)", "[schemes][alibi]") {
    // §3: softmax(q_i·Kᵀ + m·[−(i−1), …, −2, −1, 0]): key j gets −m·(i − j).
    const double m = std::pow(2.0, -1.5);
    for (std::size_t n : {std::size_t{1}, std::size_t{5}, std::size_t{17}}) {
        std::vector<float> causal(n * n), symmetric(n * n);
        posenc::alibi_bias(m, n, true, causal.data());
        posenc::alibi_bias(m, n, false, symmetric.data());
        for (std::size_t i = 0; i < n; ++i) {
            for (std::size_t j = 0; j < n; ++j) {
                CAPTURE(n, i, j);
                const double distance = std::fabs(static_cast<double>(i) - static_cast<double>(j));
                CHECK(symmetric[i * n + j] == static_cast<float>(-m * distance));
                if (j <= i) {
                    CHECK(causal[i * n + j] == static_cast<float>(-m * distance));
                } else {
                    CHECK(causal[i * n + j] == -std::numeric_limits<float>::infinity());
                }
            }
        }
    }
}

// ---- T5 relative buckets --------------------------------------------------------------------

TEST_CASE("T5 bucket boundaries, 32 buckets, max distance 128 (Raffel et al. 2020, §2.1)", "[schemes][t5]") {
    // §2.1: "32 embeddings … with ranges that increase in size logarithmically up to an offset of
    // 128 beyond which we assign all relative positions to the same embedding". Bucket function of
    // the T5 code: exact buckets below max_exact, then max_exact + ⌊ln(r/max_exact)/ln(128/max_exact)
    // ·(b − max_exact)⌋, clamped. The first distance of each bucket, worked out by hand from the
    // thresholds max_exact·(128/max_exact)^(k/(b − max_exact)):
    //   bidirectional (16 per side, max_exact 8): 8·2^(k/2) → 8, 12 (11.3), 16, 23 (22.6), 32, 46, 64, 91
    //   causal (32, max_exact 16): 16·8^(k/16) → 16, 19, 21, 24, 27, 31, 35, 40, 46, 52, 59, 67, 77, 87, 99, 113
    struct Start {
        long long distance;
        int bucket;
    };
    const Start bidirectional[] = {{0, 0},   {1, 1},   {7, 7},   {8, 8},   {12, 9},  {16, 10},
                                   {23, 11}, {32, 12}, {46, 13}, {64, 14}, {91, 15}};
    for (const Start& s : bidirectional) {
        CAPTURE(s.distance);
        // Keys before the query (relative ≤ 0) use buckets 0 … 15, keys after it 16 … 31.
        CHECK(posenc::t5_bucket(-s.distance, true, 32, 128) == s.bucket);
        if (s.distance > 0) {
            CHECK(posenc::t5_bucket(s.distance, true, 32, 128) == s.bucket + 16);
            CHECK(posenc::t5_bucket(-(s.distance - 1), true, 32, 128) == (s.bucket == 0 ? 0 : s.bucket - 1));
        }
    }
    const Start causal[] = {{0, 0},   {15, 15}, {16, 16}, {19, 17}, {21, 18}, {24, 19}, {27, 20}, {31, 21},
                            {35, 22}, {40, 23}, {46, 24}, {52, 25}, {59, 26}, {67, 27}, {77, 28}, {87, 29},
                            {99, 30}, {113, 31}};
    for (const Start& s : causal) {
        CAPTURE(s.distance);
        CHECK(posenc::t5_bucket(-s.distance, false, 32, 128) == s.bucket);
        if (s.distance > 0) CHECK(posenc::t5_bucket(-(s.distance - 1), false, 32, 128) == s.bucket - 1);
    }
    // Causal: keys after the query all share bucket 0.
    for (long long r : {1LL, 5LL, 1000LL}) CHECK(posenc::t5_bucket(r, false, 32, 128) == 0);
    // Clamped at and beyond max_distance, however far.
    for (long long r : {128LL, 129LL, 500LL, 100000LL, 1LL << 40}) {
        CAPTURE(r);
        CHECK(posenc::t5_bucket(-r, true, 32, 128) == 15);
        CHECK(posenc::t5_bucket(r, true, 32, 128) == 31);
        CHECK(posenc::t5_bucket(-r, false, 32, 128) == 31);
    }
}

TEST_CASE("T5 buckets match the threshold reference for many configurations", "[schemes][t5]") {
    const int configs[][2] = {{32, 128}, {16, 128}, {8, 64}, {64, 256}, {32, 64}, {16, 64}, {128, 512}, {32, 1000}, {4, 16}};
    for (const auto& c : configs) {
        for (bool bidirectional : {true, false}) {
            for (long long r = -2000; r <= 2000; ++r) {
                const int got = posenc::t5_bucket(r, bidirectional, c[0], c[1]);
                const int want = t5_bucket_reference(r, bidirectional, c[0], c[1]);
                if (got != want) {
                    CAPTURE(c[0], c[1], bidirectional, r, got, want);
                    FAIL_CHECK("bucket differs");
                }
                CHECK((got >= 0 && got < c[0]));
            }
        }
    }
}

TEST_CASE("T5 bias is values[bucket(j − i)], a Toeplitz matrix", "[schemes][t5]") {
    std::vector<float> values(32);
    posenc::t5_bucket_values(7, 32, values.data());
    std::vector<float> again(32);
    posenc::t5_bucket_values(7, 32, again.data());
    CHECK(values == again);  // seeded: reproducible
    for (bool bidirectional : {true, false}) {
        const std::size_t n = 150;
        std::vector<float> bias(n * n);
        std::vector<std::int32_t> buckets(n * n);
        posenc::t5_bias(n, bidirectional, 32, 128, values.data(), bias.data(), buckets.data());
        for (std::size_t i = 0; i < n; ++i) {
            for (std::size_t j = 0; j < n; ++j) {
                const int b = posenc::t5_bucket(static_cast<long long>(j) - static_cast<long long>(i), bidirectional, 32, 128);
                if (buckets[i * n + j] != b || bias[i * n + j] != values[b]) {
                    CAPTURE(bidirectional, i, j);
                    FAIL_CHECK("t5_bias entry");
                }
            }
        }
    }
}

// ---- RoPE context extension -----------------------------------------------------------------

TEST_CASE("PI, NTK and YaRN reduce to plain RoPE at scale 1, bit for bit", "[schemes][rope-scaling]") {
    // Chen et al. 2023 §2.3 eq. 4 (m → m·L/L'), YaRN §3.1 (b' = b·s^(|D|/(|D|−2))), §3.2 (h(θ) =
    // (1−γ)θ/s + γθ): all are the identity at s = 1. L' ≤ L also means s = 1 (nothing to extend).
    for (std::size_t d : {std::size_t{2}, std::size_t{4}, std::size_t{6}, std::size_t{64}, std::size_t{128}, std::size_t{130}}) {
        for (double base : {10000.0, 500000.0}) {
            std::vector<double> plain(d / 2);
            for (std::size_t i = 0; i < d / 2; ++i) plain[i] = posenc::frequency(i, d, base);
            for (RopeScaling kind : {RopeScaling::none, RopeScaling::pi, RopeScaling::ntk, RopeScaling::yarn}) {
                for (double eval : {2048.0, 1000.0, 1.0}) {
                    const auto w = frequencies_of(d, base, kind, 2048.0, eval);
                    CAPTURE(d, base, name_of(kind), eval);
                    CHECK(std::memcmp(w.data(), plain.data(), plain.size() * sizeof(double)) == 0);
                }
            }
        }
    }
    CHECK(posenc::yarn_qk_factor(1.0) == 1.0);
}

TEST_CASE("Position interpolation divides every frequency by s = L'/L (Chen et al. 2023, §2.3, eq. 4)", "[schemes][rope-scaling]") {
    // f'(x, m) = f(x, m·L/L'): the angle (m·L/L')·ω_i is m·(ω_i·L/L').
    const std::size_t d = 64;
    const auto w = frequencies_of(d, 10000.0, RopeScaling::pi, 2048.0, 8192.0);
    for (std::size_t i = 0; i < d / 2; ++i) {
        CAPTURE(i);
        CHECK(w[i] == posenc::frequency(i, d, 10000.0) / 4.0);
    }
}

TEST_CASE("NTK-aware scaling: base·s^(d/(d−2)) keeps ω_0 and divides the lowest ω by s", "[schemes][rope-scaling]") {
    // YaRN paper §3.1 (NTK-aware interpolation): b' = b·s^(|D|/(|D|−2)), chosen so that the lowest
    // frequency b'^(−(|D|−2)/|D|) = b^(−(|D|−2)/|D|)/s while the highest (i = 0) stays 1.
    for (std::size_t d : {std::size_t{4}, std::size_t{16}, std::size_t{128}}) {
        for (double s : {2.0, 4.0, 16.0}) {
            const auto w = frequencies_of(d, 10000.0, RopeScaling::ntk, 4096.0, 4096.0 * s);
            const std::size_t last = d / 2 - 1;
            CAPTURE(d, s);
            CHECK(w[0] == 1.0);
            CHECK(w[last] == Approx(posenc::frequency(last, d, 10000.0) / s).epsilon(1e-12));
            const double scaled_base = 10000.0 * std::pow(s, static_cast<double>(d) / (d - 2.0));
            for (std::size_t i = 0; i < d / 2; ++i) CHECK(w[i] == Approx(std::pow(scaled_base, -2.0 * i / d)).epsilon(1e-13));
        }
    }
}

TEST_CASE("YaRN ramp and NTK-by-parts frequencies (Peng et al. 2023, §3.2, §3.4)", "[schemes][rope-scaling]") {
    // §3.2: r(d) = L/λ_d, λ_d = 2π/θ_d; γ(r) = 0 if r < α, 1 if r > β, (r − α)/(β − α) otherwise;
    // h(θ_d) = (1 − γ(r(d)))·θ_d/s + γ(r(d))·θ_d; α = 1, β = 32 for LLaMA.
    CHECK(posenc::yarn_ramp(1.0, 1.0, 32.0) == 0.0);   // endpoints
    CHECK(posenc::yarn_ramp(32.0, 1.0, 32.0) == 1.0);
    CHECK(posenc::yarn_ramp(0.5, 1.0, 32.0) == 0.0);
    CHECK(posenc::yarn_ramp(1000.0, 1.0, 32.0) == 1.0);
    CHECK(posenc::yarn_ramp(16.5, 1.0, 32.0) == 0.5);
    const std::size_t d = 128;
    const double base = 10000.0, L = 4096.0, s = 8.0;
    const auto w = frequencies_of(d, base, RopeScaling::yarn, L, L * s);
    const double two_pi = 6.283185307179586;
    int kept = 0, interpolated = 0, ramped = 0;
    for (std::size_t i = 0; i < d / 2; ++i) {
        const double theta = posenc::frequency(i, d, base);
        const double r = L / (two_pi / theta);
        const double g = r < 1.0 ? 0.0 : r > 32.0 ? 1.0 : (r - 1.0) / 31.0;
        const double want = (1.0 - g) * theta / s + g * theta;  // the paper's form, in double
        CAPTURE(i, r, g);
        CHECK(w[i] == Approx(want).epsilon(1e-15));
        if (r > 32.0) {
            CHECK(w[i] == theta);  // high frequencies: not interpolated at all
            ++kept;
        } else if (r < 1.0) {
            CHECK(w[i] == theta / s);  // wavelengths beyond L: plain interpolation
            ++interpolated;
        } else {
            ++ramped;
        }
    }
    CHECK(kept > 0);
    CHECK(interpolated > 0);
    CHECK(ramped > 0);
    // §3.4: √(1/t) = 0.1·ln(s) + 1.
    CHECK(posenc::yarn_qk_factor(std::exp(1.0)) == Approx(1.1).epsilon(1e-15));
    CHECK(posenc::yarn_qk_factor(16.0) == Approx(0.1 * std::log(16.0) + 1.0).epsilon(1e-15));
    CHECK(posenc::yarn_qk_factor(0.5) == 1.0);
}

TEST_CASE("rotate_with_frequencies given base's frequencies equals rotate, bit for bit", "[schemes][rope-scaling]") {
    for (Layout pairing : {Layout::interleaved, Layout::half}) {
        for (std::size_t d : kTailSizes) {
            if (d % 2 != 0) continue;
            for (double offset : {0.0, -7.0, 32768.0}) {
                const std::size_t n = 9;
                const auto x = random_values(n * d, 500 + d);
                std::vector<double> w(d / 2);
                for (std::size_t i = 0; i < d / 2; ++i) w[i] = posenc::frequency(i, d, 10000.0);
                std::vector<float> a(n * d), b(n * d);
                posenc::rotate(x.data(), n, d, 10000.0, offset, pairing, a.data());
                posenc::rotate_with_frequencies(x.data(), n, d, w.data(), offset, pairing, b.data());
                CAPTURE(d, offset);
                CHECK(std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
            }
        }
    }
}

TEST_CASE("PI as scaled frequencies equals rotation at the fractional positions m·L/L'", "[schemes][rope-scaling]") {
    // The equivalence the implementation relies on: (m/s)·ω = m·(ω/s). Reference: float64 rotation
    // at position m/s with the unscaled ω.
    const double s = 3.0;  // L' = 3L: fractional positions m/3
    for (Layout pairing : {Layout::interleaved, Layout::half}) {
        for (std::size_t d : {std::size_t{2}, std::size_t{6}, std::size_t{64}, std::size_t{100}}) {
            const std::size_t n = 400;
            const auto x = random_values(n * d, 900 + d);
            const auto w = frequencies_of(d, 10000.0, RopeScaling::pi, 1000.0, 3000.0);
            std::vector<float> got(n * d);
            posenc::rotate_with_frequencies(x.data(), n, d, w.data(), 0.0, pairing, got.data());
            double worst = 0.0;
            for (std::size_t p = 0; p < n; ++p) {
                for (std::size_t i = 0; i < d / 2; ++i) {
                    const std::size_t a = pairing == Layout::interleaved ? 2 * i : i;
                    const std::size_t b = pairing == Layout::interleaved ? 2 * i + 1 : i + d / 2;
                    const double angle = (static_cast<double>(p) / s) * posenc::frequency(i, d, 10000.0);
                    const double xa = x[p * d + a], xb = x[p * d + b];
                    worst = std::fmax(worst, std::fabs(got[p * d + a] - (xa * std::cos(angle) - xb * std::sin(angle))));
                    worst = std::fmax(worst, std::fabs(got[p * d + b] - (xa * std::sin(angle) + xb * std::cos(angle))));
                }
            }
            CAPTURE(d, worst);
            CHECK(worst <= 2e-6);  // |x| < 1: rotate's few-ulp phases plus ω/s rounded once to double
        }
    }
}

// ---- xPos ------------------------------------------------------------------------------------

TEST_CASE("xPos ζ_i = (2i/d + γ)/(1 + γ) and the scaled rotation (Sun et al. 2023, §3.2)", "[schemes][xpos]") {
    // §3.2 eq. 9–10: ζ_i = (i/(d/2) + γ)/(1 + γ); query at n scaled by ζ^(n/λ), key at m by
    // ζ^(−m/λ), so q·k decays as ζ^((n−m)/λ); γ = 0.4 and λ = 512 (scale_base) from the reference code.
    const std::size_t d = 16;
    std::vector<double> zeta(d / 2);
    posenc::xpos_zeta(d, 0.4, zeta.data());
    CHECK(zeta[0] == Approx(0.4 / 1.4).epsilon(1e-15));
    for (std::size_t i = 0; i < d / 2; ++i) {
        CHECK(zeta[i] == Approx((2.0 * i / d + 0.4) / 1.4).epsilon(1e-15));
        CHECK(zeta[i] < 1.0);
        if (i > 0) CHECK(zeta[i] > zeta[i - 1]);
    }
    for (Layout pairing : {Layout::interleaved, Layout::half}) {
        const std::size_t n = 40;
        const auto x = random_values(n * d, 31);
        std::vector<float> q(n * d), k(n * d), plain(n * d);
        posenc::xpos_rotate(x.data(), n, d, 10000.0, 0.0, pairing, 0.4, 512.0, false, q.data());
        posenc::xpos_rotate(x.data(), n, d, 10000.0, 0.0, pairing, 0.4, 512.0, true, k.data());
        posenc::rotate(x.data(), n, d, 10000.0, 0.0, pairing, plain.data());
        // Position 0: scale 1, plain RoPE exactly.
        CHECK(std::memcmp(q.data(), plain.data(), d * sizeof(float)) == 0);
        CHECK(std::memcmp(k.data(), plain.data(), d * sizeof(float)) == 0);
        double worst = 0.0;
        for (std::size_t p = 0; p < n; ++p) {
            for (std::size_t j = 0; j < d; ++j) {
                const std::size_t i = pairing == Layout::interleaved ? j / 2 : j % (d / 2);
                const double zq = std::pow(zeta[i], static_cast<double>(p) / 512.0);
                worst = std::fmax(worst, std::fabs(q[p * d + j] - plain[p * d + j] * zq));
                worst = std::fmax(worst, std::fabs(k[p * d + j] - plain[p * d + j] / zq));
            }
        }
        CAPTURE(worst);
        CHECK(worst <= 1e-6);
    }
}

TEST_CASE("xPos q_n·k_m depends only on n − m", "[schemes][xpos]") {
    const std::size_t d = 32;
    const auto qv = random_values(d, 1);
    const auto kv = random_values(d, 2);
    for (int delta : {0, 3, 40}) {
        std::vector<double> dots;
        for (double n : {50.0, 300.0, 1000.0}) {
            std::vector<float> q(d), k(d);
            posenc::xpos_rotate(qv.data(), 1, d, 10000.0, n, Layout::half, 0.4, 512.0, false, q.data());
            posenc::xpos_rotate(kv.data(), 1, d, 10000.0, n - delta, Layout::half, 0.4, 512.0, true, k.data());
            double dot = 0.0;
            for (std::size_t j = 0; j < d; ++j) dot += static_cast<double>(q[j]) * k[j];
            dots.push_back(dot);
        }
        CAPTURE(delta, dots[0], dots[1], dots[2]);
        // ζ^(±1000/512) ≤ 11.6 inflates the float rounding of each factor.
        CHECK(std::fabs(dots[1] - dots[0]) <= 2e-5);
        CHECK(std::fabs(dots[2] - dots[0]) <= 2e-5);
    }
}

// ---- Learned-style table ---------------------------------------------------------------------

TEST_CASE("learned-style table: seeded N(0, 1/2), the sinusoidal table's RMS", "[schemes][learned]") {
    const std::size_t n = 512, d = 128;
    std::vector<float> t(n * d), again(n * d), other(n * d), prefix(10 * d);
    posenc::learned_table(42, n, d, t.data());
    posenc::learned_table(42, n, d, again.data());
    posenc::learned_table(43, n, d, other.data());
    posenc::learned_table(42, 10, d, prefix.data());
    CHECK(t == again);
    CHECK(t != other);
    CHECK(std::memcmp(prefix.data(), t.data(), prefix.size() * sizeof(float)) == 0);
    double sum_sq = 0.0;
    for (float v : t) sum_sq += static_cast<double>(v) * v;
    const double rms = std::sqrt(sum_sq / t.size());
    // The sinusoidal table's RMS is exactly 1/√2 (sin² + cos² = 1 per pair); 65536 draws give the
    // sample RMS within ≈ 0.3% (1 std); 2% is > 6 std.
    const auto pe = posenc::reference::sinusoidal(n, d, 10000.0, Layout::interleaved);
    double pe_sq = 0.0;
    for (double v : pe) pe_sq += v * v;
    CHECK(std::sqrt(pe_sq / pe.size()) == Approx(posenc::kLearnedTableSigma).epsilon(1e-12));
    CHECK(rms == Approx(posenc::kLearnedTableSigma).epsilon(0.02));
}
