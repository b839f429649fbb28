// Vectorisable sin/cos and exp that use no float→int conversion instruction.
//
// Why: xsimd 8.1's own exp/sin/cos round through _mm_cvt(t)ps_epi32, which Emscripten 3.1.6
// scalarises lane by lane, so they run slower than scalar wasm. Here rounding uses the
// 1.5·2^23 magic-number trick and the integer part is read from the float's bits.
//
// Every function is a template over (F, I) = (float, std::int32_t) or (Batch, IntBatch), so a
// kernel's batch loop and its scalar tail run the same operations in the same order.
// Polynomial coefficients are the Cephes single-precision minimax sets (sinf, cosf, expf).
#pragma once

#include <cstddef>
#include <cstdint>

#include "simd.hpp"

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

// exp(x) for x ≤ 0 (softmax after max subtraction), for N independent values at once: each step
// runs for all N before the next, so N dependency chains (~25 operations deep) sit side by side
// in the instruction stream and the out-of-order core overlaps them; one chain at a time leaves
// the multiply and add units waiting on latency. Every value goes through the same operations as
// with N = 1. Below −87.33 the result flushes to 0, where the true value is under FLT_MIN and
// contributes nothing next to the row's 1.
template <class F, class I, std::size_t N>
inline void exp_nonpositive_n(F* x) {
    const float kLowest = -87.33654f;
    const F magic = F(kRoundMagic);
    I flush[N];
    F r[N], p[N], two_to_n[N];
    for (std::size_t k = 0; k < N; ++k) {
        flush[k] = below(x[k], kLowest);
        x[k] = max_of(x[k], F(kLowest));
    }
    for (std::size_t k = 0; k < N; ++k) {
        const F t = x[k] * F(1.44269504088896341f) + magic;
        const F n = t - magic;
        two_to_n[k] = from_bits(shift_to_exponent((to_bits(t) - I(to_bits(kRoundMagic))) + I(127)));
        r[k] = x[k] - n * F(0.693359375f);
        r[k] = r[k] - n * F(-2.12194440e-4f);
    }
    for (std::size_t k = 0; k < N; ++k) p[k] = F(1.9875691500e-4f) * r[k] + F(1.3981999507e-3f);
    for (std::size_t k = 0; k < N; ++k) p[k] = p[k] * r[k] + F(8.3334519073e-3f);
    for (std::size_t k = 0; k < N; ++k) p[k] = p[k] * r[k] + F(4.1665795894e-2f);
    for (std::size_t k = 0; k < N; ++k) p[k] = p[k] * r[k] + F(1.6666665459e-1f);
    for (std::size_t k = 0; k < N; ++k) p[k] = p[k] * r[k] + F(5.0000001201e-1f);
    for (std::size_t k = 0; k < N; ++k) p[k] = p[k] * r[k] * r[k] + r[k] + F(1.0f);
    for (std::size_t k = 0; k < N; ++k) x[k] = clear_where(p[k] * two_to_n[k], flush[k]);
}

template <class F, class I>
inline F exp_nonpositive(F x) {
    exp_nonpositive_n<F, I, 1>(&x);
    return x;
}

}  // namespace posenc::fastmath
