// fastmath.hpp: sin_shifted, exp_nonpositive and exp_in_range against std::sin/cos/exp in double,
// for the scalar (float, int32) instantiation that kernels use in their tails and the
// (Batch, IntBatch) one their SIMD loops use, and the two against each other bit for bit.
//
// Error unit: "ulp" below is the spacing of floats at the true value, ulp(y) = 2^(e−23) for
// |y| ∈ [2^e, 2^(e+1)), floored at ulp(2^-126) — i.e. |got − exact| / ulp(exact).
#include <catch2/catch.hpp>

#include "test_support.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <vector>

#include "base/fastmath.hpp"

namespace {

using namespace posenc::test;

using posenc::fastmath::exp_in_range;
using posenc::fastmath::exp_nonpositive;
using posenc::fastmath::kExpInRangeLowest;
using posenc::fastmath::kExpLowest;
using posenc::fastmath::sin_shifted;

double ulp_of(double exact) {
    const double a = std::fabs(exact);
    if (a < 0x1p-126) return 0x1p-149;
    int e = 0;
    std::frexp(a, &e);  // a = m·2^e, m ∈ [0.5, 1)
    return std::ldexp(1.0, e - 24);
}

// Measured maxima are printed with -s (--success), next to the passing assertions.

std::uint32_t bits_of(float v) {
    std::uint32_t b;
    std::memcpy(&b, &v, sizeof b);
    return b;
}

float sin_scalar(float hi, float lo, std::int32_t shift) { return sin_shifted<float, std::int32_t>(hi, lo, shift); }
float exp_scalar(float x) { return exp_nonpositive<float, std::int32_t>(x); }
float exp_in_range_scalar(float x) { return exp_in_range<float, std::int32_t>(x); }

float float_of_bits(std::uint32_t b) {
    float v;
    std::memcpy(&v, &b, sizeof v);
    return v;
}

// The exact value sin(hi + lo + shift·π/2) in double.
double sin_exact(float hi, float lo, int shift) {
    const double theta = static_cast<double>(hi) + static_cast<double>(lo);
    switch (((shift % 4) + 4) % 4) {
        case 0: return std::sin(theta);
        case 1: return std::cos(theta);
        case 2: return -std::sin(theta);
        default: return -std::cos(theta);
    }
}

struct ErrorStats {
    double max_abs = 0.0, max_ulp = 0.0, worst_x = 0.0;
    void add(double x, double got, double exact) {
        const double abs_err = std::fabs(got - exact);
        const double ulp_err = abs_err / ulp_of(exact);
        if (abs_err > max_abs) max_abs = abs_err;
        if (ulp_err > max_ulp) {
            max_ulp = ulp_err;
            worst_x = x;
        }
    }
};

}  // namespace

TEST_CASE("sin_shifted (scalar) matches std::sin/cos on a dense grid of small angles", "[fastmath]") {
    // |θ| ≤ 8: the reduction is exact here; only the minimax polynomials and the final rounding
    // contribute. Cephes sinf/cosf polynomials are accurate to < 1 ulp on |r| ≤ π/4 and the
    // quadrant flip adds nothing, so 2 ulp at |y| ≥ 2^-20 (measured 1.49), and 2^-23 ≈ 1.2e-7
    // absolute anywhere (2 ulp of values near 1; near a zero of sin the result's ulp shrinks but
    // the rounding of the reduced argument r does not; measured 7.5e-8).
    for (int shift = 0; shift < 4; ++shift) {
        ErrorStats rel, all;
        for (int k = -400000; k <= 400000; ++k) {
            const float x = static_cast<float>(k) * 2e-5f;
            const double exact = sin_exact(x, 0.0f, shift);
            const double got = sin_scalar(x, 0.0f, shift);
            all.add(x, got, exact);
            if (std::fabs(exact) >= 0x1p-20) rel.add(x, got, exact);
        }
        if (verbose()) {
            std::printf("  sin_shifted scalar, shift %d, |θ| ≤ 8: max %.3g abs, %.3f ulp (|y| ≥ 2^-20)\n",
                        shift, all.max_abs, rel.max_ulp);
        }
        CAPTURE(shift, rel.worst_x);
        CHECK(rel.max_ulp <= 2.0);
        CHECK(all.max_abs <= 0x1p-23);
    }
}

TEST_CASE("sin_shifted is exact at zero: sin 0 = 0, cos 0 = 1", "[fastmath]") {
    CHECK(sin_scalar(0.0f, 0.0f, 0) == 0.0f);
    CHECK(sin_scalar(0.0f, 0.0f, 1) == 1.0f);
    CHECK(sin_scalar(0.0f, 0.0f, 2) == 0.0f);
    CHECK(sin_scalar(0.0f, 0.0f, 3) == -1.0f);
    // shift is taken mod 4, also for negative shifts (two's complement & 3).
    CHECK(sin_scalar(0.0f, 0.0f, 5) == 1.0f);
    CHECK(sin_scalar(0.0f, 0.0f, -1) == -1.0f);
}

TEST_CASE("sin_shifted (scalar) stays accurate up to the largest reducible angle", "[fastmath]") {
    // θ_hi up to kMaxReducedAngle = 1e5 (|n| < 2^16, so n·π/2 split into three parts is exact in
    // its first two). The remaining error is n·(π/2 − C1 − C2 − C3) + rounding of n·C3, about
    // 2^16·2^-24·|C3| + 2^16·2^-48 ≈ 3e-9, far below the polynomial's 2^-23 above; absolute bound
    // 2^-23 + 1e-8 (measured 7.8e-8).
    ErrorStats all;
    const float limit = posenc::fastmath::kMaxReducedAngle;
    for (int k = 0; k <= 2000000; ++k) {
        // Two sweeps: an irregular one over the whole range, and one hugging the largest angles.
        const float x = k <= 1000000 ? limit * static_cast<float>(k) / 1000000.0f * 0.999983f
                                     : limit - static_cast<float>(k - 1000000) * 0.0078125f;
        for (int shift = 0; shift < 2; ++shift) {
            all.add(x, sin_scalar(x, 0.0f, shift), sin_exact(x, 0.0f, shift));
            all.add(-x, sin_scalar(-x, 0.0f, shift), sin_exact(-x, 0.0f, shift));
        }
    }
    if (verbose()) std::printf("  sin_shifted scalar, |θ| ≤ 1e5: max %.3g abs (worst at θ = %.9g)\n", all.max_abs, all.worst_x);
    CHECK(all.max_abs <= 0x1p-23 + 1e-8);
}

TEST_CASE("sin_shifted uses theta_lo as part of the angle", "[fastmath]") {
    // θ = hi + lo with lo carrying the bits hi cannot hold: the result must be sin(hi + lo), not
    // sin(hi). Angles up to 6e4 (positions × ω ≤ 65535), lo up to 2^-12·|hi| (≈ 15), including
    // values where lo moves the sum across a quadrant boundary. lo joins the reduced argument
    // before its only rounded step, so the tolerance stays that of lo = 0: 2^-23 + 1e-8 (measured
    // 9.0e-8; adding lo after that step measured 4.8e-7).
    ErrorStats all;
    std::uint32_t state = 12345u;
    auto next = [&state] {
        state = state * 1664525u + 1013904223u;
        return static_cast<double>(state >> 8) * 0x1p-24;  // [0, 1)
    };
    for (int k = 0; k < 400000; ++k) {
        const float hi = static_cast<float>((next() * 2.0 - 1.0) * 60000.0);
        const float lo = static_cast<float>((next() * 2.0 - 1.0) * std::fabs(hi) * 0x1p-12);
        const int shift = k % 4;
        all.add(hi, sin_scalar(hi, lo, shift), sin_exact(hi, lo, shift));
    }
    if (verbose()) std::printf("  sin_shifted scalar, hi + lo: max %.3g abs\n", all.max_abs);
    CHECK(all.max_abs <= 0x1p-23 + 1e-8);
    // A lo that alone is worth a quarter turn: sin(hi + lo) must follow it.
    const float hi = 4096.0f, lo = 1.0f;
    CHECK(std::fabs(sin_scalar(hi, lo, 0) - std::sin(4097.0)) <= 0x1p-23 + 1e-8);
    CHECK(std::fabs(sin_scalar(hi, lo, 0) - std::sin(4096.0)) > 0.1);
}

TEST_CASE("exp_nonpositive (scalar) matches std::exp on [-87.3, 0]", "[fastmath]") {
    // Cody–Waite reduction by ln 2 (C1 = 0.693359375 has 9 bits, so n·C1 is exact for |n| ≤ 127)
    // and a degree-6 minimax polynomial on |r| ≤ 0.3466: 0.05 ulp for the polynomial itself, ≤ 0.5
    // for the rounding of r (relative error of e^r = absolute error of r), ≤ 0.5 for the final
    // 1 + (r + …) and a little for the Horner steps (their terms are ≤ r²/2 ≈ 0.06): under 2 ulp.
    // Measured over every float in [kExpLowest, 0] (1.1e9 of them, offline): 0.990 ulp. Results
    // stay normal (≥ FLT_MIN) down to kLowest.
    ErrorStats all;
    for (int k = 0; k <= 4000000; ++k) {
        const float x = -87.33f * static_cast<float>(k) / 4000000.0f;
        all.add(x, exp_scalar(x), std::exp(static_cast<double>(x)));
    }
    // And near 0, where exp ≈ 1 + x is most sensitive to how r is formed.
    for (int k = 0; k <= 200000; ++k) {
        const float x = -static_cast<float>(k) * 0x1p-20f;
        all.add(x, exp_scalar(x), std::exp(static_cast<double>(x)));
    }
    if (verbose()) std::printf("  exp_nonpositive scalar on [-87.33, 0]: max %.3f ulp (worst at x = %.9g)\n", all.max_ulp, all.worst_x);
    CAPTURE(all.worst_x);
    CHECK(all.max_ulp <= 2.0);
}

TEST_CASE("exp_nonpositive special values", "[fastmath]") {
    CHECK(exp_scalar(0.0f) == 1.0f);
    CHECK(exp_scalar(-0.0f) == 1.0f);
    // Flush: below −87.3365 (where e^x < FLT_MIN) the result is exactly 0, also for −∞ and −FLT_MAX.
    CHECK(exp_scalar(-87.34f) == 0.0f);
    CHECK(exp_scalar(-88.0f) == 0.0f);
    CHECK(exp_scalar(-100.0f) == 0.0f);
    CHECK(exp_scalar(-1e30f) == 0.0f);
    CHECK(exp_scalar(-std::numeric_limits<float>::max()) == 0.0f);
    CHECK(exp_scalar(-std::numeric_limits<float>::infinity()) == 0.0f);
    // Just above the flush threshold the value is a normal float close to FLT_MIN (within 2 ulp).
    const float near_limit = -87.3365f;
    const double exact_at_limit = std::exp(static_cast<double>(near_limit));
    const float at_limit = exp_scalar(near_limit);
    CHECK(at_limit >= std::numeric_limits<float>::min());
    CHECK(std::fabs(at_limit - exact_at_limit) / ulp_of(exact_at_limit) <= 2.0);
    // exp(−ln 2·k) = 2^-k exactly-ish: within 2 ulp of a power of two.
    for (int k = 1; k <= 125; ++k) {
        const float x = static_cast<float>(-k * 0.6931471805599453);
        CHECK(std::fabs(exp_scalar(x) - std::exp(static_cast<double>(x))) <= 2.0 * ulp_of(std::exp(static_cast<double>(x))));
    }
}

TEST_CASE("exp_nonpositive (scalar) over every 61st float bit pattern of [kExpLowest, -0]", "[fastmath]") {
    // The whole input range in the float encoding, not on a decimal grid: subnormal and tiny
    // arguments (e^x rounds to 1), every binade down to −87.34, and the last floats before the
    // flush. Bound as above (2 ulp; measured 0.99 over all of them).
    const std::uint32_t first = bits_of(-0.0f), last = bits_of(kExpLowest);
    ErrorStats all;
    std::size_t below_min = 0, count = 0;
    for (std::uint32_t b = first; b <= last; b += 61) {
        const float x = float_of_bits(b);
        const float got = exp_scalar(x);
        all.add(x, got, std::exp(static_cast<double>(x)));
        if (got < std::numeric_limits<float>::min()) ++below_min;
        ++count;
    }
    // And the ends themselves.
    all.add(kExpLowest, exp_scalar(kExpLowest), std::exp(static_cast<double>(kExpLowest)));
    all.add(-0x1p-149f, exp_scalar(-0x1p-149f), std::exp(-0x1p-149));
    if (verbose()) std::printf("  exp_nonpositive scalar, %zu bit patterns: max %.3f ulp (worst at x = %.9g)\n", count, all.max_ulp, all.worst_x);
    CAPTURE(all.worst_x);
    CHECK(count > 18000000);
    CHECK(all.max_ulp <= 2.0);
    CHECK(below_min == 0);
    CHECK(exp_scalar(-0x1p-149f) == 1.0f);
}

TEST_CASE("exp_in_range (scalar) equals exp_nonpositive bit for bit on [kExpInRangeLowest, 0]", "[fastmath]") {
    // Same reduction and polynomial; only the scaling by 2^n differs (exponent-bit add instead of a
    // multiply), and the two agree wherever the result is a normal float, which the domain
    // guarantees. Every 37th bit pattern, plus the domain's edge and the 4096 floats above it.
    const std::uint32_t first = bits_of(-0.0f), last = bits_of(kExpInRangeLowest);
    std::size_t mismatches = 0, count = 0, not_normal = 0;
    for (std::uint32_t b = first; b <= last; b += 37) {
        const float x = float_of_bits(b);
        const float fast = exp_in_range_scalar(x);
        if (bits_of(fast) != bits_of(exp_scalar(x))) ++mismatches;
        if (!(fast >= std::numeric_limits<float>::min())) ++not_normal;
        ++count;
    }
    for (std::uint32_t b = last - 4096; b <= last; ++b) {
        const float x = float_of_bits(b);
        if (bits_of(exp_in_range_scalar(x)) != bits_of(exp_scalar(x))) ++mismatches;
    }
    CHECK(count > 30000000);
    CHECK(mismatches == 0);
    CHECK(not_normal == 0);
    CHECK(exp_in_range_scalar(0.0f) == 1.0f);
    CHECK(exp_in_range_scalar(-0.0f) == 1.0f);
    const double exact = std::exp(static_cast<double>(kExpInRangeLowest));
    CHECK(std::fabs(exp_in_range_scalar(kExpInRangeLowest) - exact) <= 2.0 * ulp_of(exact));
}

#if POSENC_SIMD
namespace {
using posenc::Batch;
using posenc::IntBatch;
using posenc::kLanes;

// Evaluates both instantiations on the same inputs; returns the number of lanes that differ in
// any bit.
std::size_t sin_mismatches(const std::vector<float>& hi, const std::vector<float>& lo,
                           const std::vector<std::int32_t>& shift) {
    std::size_t mismatches = 0;
    for (std::size_t j = 0; j + kLanes <= hi.size(); j += kLanes) {
        float out[kLanes];
        const Batch r = sin_shifted<Batch, IntBatch>(Batch::load_unaligned(hi.data() + j),
                                                     Batch::load_unaligned(lo.data() + j),
                                                     IntBatch::load_unaligned(shift.data() + j));
        r.store_unaligned(out);
        for (std::size_t l = 0; l < kLanes; ++l) {
            if (bits_of(out[l]) != bits_of(sin_scalar(hi[j + l], lo[j + l], shift[j + l]))) ++mismatches;
        }
    }
    return mismatches;
}
}  // namespace

TEST_CASE("sin_shifted: Batch and scalar instantiations agree bit for bit", "[fastmath][simd]") {
    // Same formula, same operation order, no contraction (-ffp-contract=off): every lane must be
    // identical to the scalar result. Lanes carry different shifts and magnitudes at once.
    std::vector<float> hi, lo;
    std::vector<std::int32_t> shift;
    std::uint32_t state = 777u;
    auto next = [&state] {
        state = state * 1664525u + 1013904223u;
        return static_cast<double>(state >> 8) * 0x1p-24;
    };
    for (int k = 0; k < 400000; ++k) {
        const double magnitude = k % 3 == 0 ? 8.0 : (k % 3 == 1 ? 3000.0 : 99000.0);
        const float h = static_cast<float>((next() * 2.0 - 1.0) * magnitude);
        hi.push_back(h);
        lo.push_back(k % 2 == 0 ? 0.0f : static_cast<float>((next() * 2.0 - 1.0) * std::fabs(h) * 0x1p-12));
        shift.push_back(static_cast<std::int32_t>(k % 4));
    }
    CHECK(sin_mismatches(hi, lo, shift) == 0);

    // The Batch instantiation against std::sin/cos directly (not only through the scalar one).
    ErrorStats all;
    for (std::size_t j = 0; j + kLanes <= 40000; j += kLanes) {
        float out[kLanes];
        sin_shifted<Batch, IntBatch>(Batch::load_unaligned(hi.data() + j), Batch::load_unaligned(lo.data() + j),
                                     IntBatch::load_unaligned(shift.data() + j))
            .store_unaligned(out);
        for (std::size_t l = 0; l < kLanes; ++l) all.add(hi[j + l], out[l], sin_exact(hi[j + l], lo[j + l], shift[j + l]));
    }
    if (verbose()) std::printf("  sin_shifted Batch: max %.3g abs\n", all.max_abs);
    CHECK(all.max_abs <= 0x1p-23 + 1e-8);  // as for the scalar instantiation
}

TEST_CASE("exp_nonpositive: Batch and scalar instantiations agree bit for bit", "[fastmath][simd]") {
    std::vector<float> xs;
    for (int k = 0; k <= 1000000; ++k) xs.push_back(-90.0f * static_cast<float>(k) / 1000000.0f);
    // Special values, mixed into lanes with ordinary ones.
    const float specials[] = {0.0f, -0.0f, -87.33654f, -87.3365f, -87.34f, -1e30f,
                              -std::numeric_limits<float>::max(), -std::numeric_limits<float>::infinity(),
                              -1e-30f, -0x1p-149f, -0.5f, -1.0f};
    for (float s : specials) xs.push_back(s);
    while (xs.size() % kLanes != 0) xs.push_back(-1.0f);

    std::size_t mismatches = 0;
    ErrorStats all;
    for (std::size_t j = 0; j < xs.size(); j += kLanes) {
        float out[kLanes];
        exp_nonpositive<Batch, IntBatch>(Batch::load_unaligned(xs.data() + j)).store_unaligned(out);
        for (std::size_t l = 0; l < kLanes; ++l) {
            const float x = xs[j + l];
            if (bits_of(out[l]) != bits_of(exp_scalar(x))) ++mismatches;
            if (x >= -87.33f) all.add(x, out[l], std::exp(static_cast<double>(x)));
        }
    }
    CHECK(mismatches == 0);
    if (verbose()) std::printf("  exp_nonpositive Batch: max %.3f ulp\n", all.max_ulp);
    CHECK(all.max_ulp <= 2.0);  // as for the scalar instantiation

    // exp_in_range: Batch against scalar, lanes mixing magnitudes, over its whole domain.
    std::size_t in_range_mismatches = 0;
    for (std::size_t j = 0; j + kLanes <= xs.size(); j += kLanes) {
        float in[kLanes], got[kLanes];
        for (std::size_t l = 0; l < kLanes; ++l) in[l] = std::fmax(xs[(j + l * 7919) % xs.size()], kExpInRangeLowest);
        exp_in_range<Batch, IntBatch>(Batch::load_unaligned(in)).store_unaligned(got);
        for (std::size_t l = 0; l < kLanes; ++l) {
            if (bits_of(got[l]) != bits_of(exp_in_range_scalar(in[l]))) ++in_range_mismatches;
            if (bits_of(got[l]) != bits_of(exp_scalar(in[l]))) ++in_range_mismatches;
        }
    }
    CHECK(in_range_mismatches == 0);

    float out[kLanes];
    exp_nonpositive<Batch, IntBatch>(Batch(-std::numeric_limits<float>::infinity())).store_unaligned(out);
    for (float v : out) CHECK(v == 0.0f);
    exp_nonpositive<Batch, IntBatch>(Batch(0.0f)).store_unaligned(out);
    for (float v : out) CHECK(v == 1.0f);
}
#endif
