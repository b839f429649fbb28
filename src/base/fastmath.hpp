// Vectorisable sin/cos and exp that use no float→int conversion instruction.
//
// Why: xsimd 8.1's own exp/sin/cos round through _mm_cvt(t)ps_epi32, which Emscripten 3.1.6
// scalarises lane by lane, so they run slower than scalar wasm. Here rounding uses the
// 1.5·2^23 magic-number trick and the integer part is read from the float's bits.
//
// Every function is a template over (F, I) = (float, std::int32_t) or (Batch, IntBatch), so a
// kernel's batch loop and its scalar tail run the same operations in the same order.
// sin/cos polynomial coefficients are the Cephes single-precision minimax sets (sinf, cosf); exp's
// are a degree-6 minimax fit of our own (see exp_reduce_n).
#pragma once

#include <cstddef>
#include <cstdint>

#include "base/simd.hpp"

namespace posenc::fastmath {

// 1.5·2^23: adding it to |x| < 2^22 rounds x to the nearest integer, which then sits in the
// low mantissa bits.
inline constexpr float kRoundMagic = 12582912.0f;
inline constexpr float kTwoOverPi = 0.636619772367581343f;
// π/2 = kHalfPi1 + kHalfPi2 + kHalfPi3; the first two have 8 significant bits, so n·kHalfPi1 and
// n·kHalfPi2 are exact for |n| < 2^16 (Cody–Waite reduction).
inline constexpr float kHalfPi1 = 1.5703125f;
inline constexpr float kHalfPi2 = 4.84466552734375e-4f;
inline constexpr float kHalfPi3 = -6.397578431460715e-7f;

// Largest |theta_hi| the reduction keeps exact: |n| = |theta·2/π| < 2^16.
inline constexpr float kMaxReducedAngle = 100000.0f;

// sin(theta + quadrant_shift·π/2) for theta = theta_hi + theta_lo, |theta_hi| ≤ kMaxReducedAngle,
// |theta_lo| ≤ 2^-12·|theta_hi| (it can exceed 1, so the quadrant is chosen from the sum). quadrant_shift = 1 turns sin into cos, so one evaluation serves either.
template <class F, class I>
inline F sin_shifted(F theta_hi, F theta_lo, I quadrant_shift) {
    const F magic = F(kRoundMagic);
    const F t = (theta_hi + theta_lo) * F(kTwoOverPi) + magic;
    const F n = t - magic;
    const I quadrant = (to_bits(t) - I(to_bits(kRoundMagic))) + quadrant_shift;

    // The first two steps are exact, and r + theta_lo lands within about π/4 of 0, so add theta_lo
    // before the rounded third step: done after it, the rounding happens at |r| up to |theta_lo|
    // (≈ 16 for position 65535), costing ~1e-6 instead of ~6e-8.
    F r = theta_hi - n * F(kHalfPi1);
    r = r - n * F(kHalfPi2);
    r = r + theta_lo;
    r = r - n * F(kHalfPi3);

    const F z = r * r;
    F sin_r = F(-1.9515295891e-4f);
    sin_r = sin_r * z + F(8.3321608736e-3f);
    sin_r = sin_r * z + F(-1.6666654611e-1f);
    sin_r = sin_r * z * r + r;
    F cos_r = F(2.443315711809948e-5f);
    cos_r = cos_r * z + F(-1.388731625493765e-3f);
    cos_r = cos_r * z + F(4.166664568298827e-2f);
    cos_r = cos_r * z * z - F(0.5f) * z + F(1.0f);

    // Quadrant q: sin(r + qπ/2) is sin r, cos r, −sin r, −cos r.
    const I odd_mask = I(0) - (quadrant & I(1));
    const I sign_bit = (quadrant & I(2)) << 30;
    return from_bits(to_bits(blend(odd_mask, cos_r, sin_r)) ^ sign_bit);
}

// e << 23 with wrap-around, as the SIMD shift does: for the scalar int32 a plain << is undefined
// once the result leaves int range, which a non-finite x (logits that overflowed) reaches
// (found by fuzz_compare under UBSan).
inline std::int32_t shift_to_exponent(std::int32_t e) {
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(e) << 23);
}
#if POSENC_SIMD
inline IntBatch shift_to_exponent(IntBatch e) { return e << 23; }
#endif

// exp's argument reduction and polynomial, shared by exp_nonpositive_n and exp_in_range_n so
// the two agree bit for bit wherever both apply. For N independent values at once: each step runs
// for all N before the next, so N dependency chains (~20 operations deep) sit side by side in the
// instruction stream and the out-of-order core overlaps them; one chain at a time leaves the
// multiply and add units waiting on latency. Every value goes through the same operations as with
// N = 1.
//
// In: x[k] ∈ [−87.34, 0]. Out: t[k], whose low mantissa bits hold n = round(x·log2 e) (t = n +
// 1.5·2^23), and p[k] ≈ e^r with r = x − n·ln 2 ∈ [−0.3466, 0.3466], so e^x = p·2^n.
// ln 2 = C1 + C2 with C1 = 0.693359375 (9 significant bits): n·C1 is exact for |n| ≤ 127 and
// x − n·C1 is exact (Sterbenz), so r carries only the rounding of n·C2 and of the last subtract.
// e^r ≈ 1 + r + r²·(c2 + c3·r + c4·r² + c5·r³ + c6·r⁴): minimax for relative error on
// |r| ≤ 0.3466 (Remez exchange for q against (e^r − 1 − r)/r² with weight r²/e^r, in 40-digit
// arithmetic), 3.1e-9 = 0.05·2^-24 before float rounding. One degree below Cephes expf's set, yet
// as accurate in float: over every float in [kExpLowest, 0] both are within 0.99 ulp of e^x
// (Cephes 0.9916, this 0.9900); the rounding of r, not the polynomial, dominates.
template <class F, class I, std::size_t N>
inline void exp_reduce_n(const F* x, F* t, F* p) {
    const F magic = F(kRoundMagic);
    F r[N];
    for (std::size_t k = 0; k < N; ++k) {
        t[k] = x[k] * F(1.44269504088896341f) + magic;
        const F n = t[k] - magic;
        r[k] = x[k] - n * F(0.693359375f);
        r[k] = r[k] - n * F(-2.12194440e-4f);
    }
    for (std::size_t k = 0; k < N; ++k) p[k] = F(1.381460205e-3f) * r[k] + F(8.368715199e-3f);
    for (std::size_t k = 0; k < N; ++k) p[k] = p[k] * r[k] + F(4.166838788e-2f);
    for (std::size_t k = 0; k < N; ++k) p[k] = p[k] * r[k] + F(1.666652065e-1f);
    for (std::size_t k = 0; k < N; ++k) p[k] = p[k] * r[k] + F(4.999999345e-1f);
    for (std::size_t k = 0; k < N; ++k) p[k] = p[k] * r[k] * r[k] + r[k] + F(1.0f);
}

// Lowest argument of exp_nonpositive that is not flushed to 0: e^−87.33654 ≈ FLT_MIN.
inline constexpr float kExpLowest = -87.33654f;
// Lowest argument of exp_in_range_n: at x ≥ −87 either n ≥ −125, or n = −126 with r > 0.33 and so
// p > 1; the result p·2^n is then a normal float, reached exactly by adding n to p's exponent bits.
inline constexpr float kExpInRangeLowest = -87.0f;

// exp(x) for x ≤ 0 (softmax after max subtraction), any x ≤ 0 including −∞, N values at once.
// Below kExpLowest the result flushes to 0, where the true value is under FLT_MIN and contributes
// nothing next to the row's 1.
template <class F, class I, std::size_t N>
inline void exp_nonpositive_n(F* x) {
    I flush[N];
    F t[N], p[N];
    for (std::size_t k = 0; k < N; ++k) {
        flush[k] = below(x[k], kExpLowest);
        x[k] = max_of(x[k], F(kExpLowest));
    }
    exp_reduce_n<F, I, N>(x, t, p);
    for (std::size_t k = 0; k < N; ++k) {
        const F two_to_n = from_bits(shift_to_exponent((to_bits(t[k]) - I(to_bits(kRoundMagic))) + I(127)));
        x[k] = clear_where(p[k] * two_to_n, flush[k]);
    }
}

template <class F, class I>
inline F exp_nonpositive(F x) {
    exp_nonpositive_n<F, I, 1>(&x);
    return x;
}

// p with n added to its exponent field, n taken from t's low bits: (bits(t) << 23) wraps to
// n << 23 because bits(1.5·2^23) = 0x4B400000 has its low 9 bits clear. Unsigned in the scalar
// version: no signed overflow whatever t holds.
inline float add_to_exponent(float p, std::int32_t t_bits) {
    return from_bits(static_cast<std::int32_t>(static_cast<std::uint32_t>(to_bits(p)) +
                                               (static_cast<std::uint32_t>(t_bits) << 23)));
}
#if POSENC_SIMD
inline Batch add_to_exponent(Batch p, IntBatch t_bits) { return from_bits(to_bits(p) + (t_bits << 23)); }
#endif

// exp(x) for x ∈ [kExpInRangeLowest, 0] (caller-checked; outside it the result is meaningless but
// defined): bit for bit exp_nonpositive's result there, without its clamp, flush mask and
// multiply: 4 wasm operations fewer per batch (6 x64 instructions in V8's code); softmax's exp
// pass takes 16% less time with it (Node, measured side by side).
template <class F, class I, std::size_t N>
inline void exp_in_range_n(F* x) {
    F t[N], p[N];
    exp_reduce_n<F, I, N>(x, t, p);
    for (std::size_t k = 0; k < N; ++k) x[k] = add_to_exponent(p[k], to_bits(t[k]));
}

template <class F, class I>
inline F exp_in_range(F x) {
    exp_in_range_n<F, I, 1>(&x);
    return x;
}

}  // namespace posenc::fastmath
