// Per-row reductions and element-wise updates shared by the step's row kernels (LayerNorm,
// softmax rows, cross-entropy, residual adds, embedding).
//
// Shapes: x, y, dst, src — count values each (contiguous); results are written to caller buffers.
// Each is a template over the real type: for float (SIMD builds) an xsimd batch loop over
// simd_prefix(count) then a scalar tail with the same formula; for double (the tests' reference)
// and with POSENC_SIMD=0 the scalar loop covers everything. Reductions keep kLanes partial sums
// and add them lane by lane, then the tail: the order is fixed per build, so the step stays
// deterministic, but differs from the scalar build's by rounding.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "base/fastmath.hpp"
#include "base/simd.hpp"

namespace posenc::model {

template <class Real>
inline constexpr bool kSimdReal =
#if POSENC_SIMD
    std::is_same_v<Real, float>;
#else
    false;
#endif

// Lane access for the formulas below, written once over F = Real (one value) or Batch (kLanes).
template <class F, class Real>
inline F lanes_at(const Real* p) {
    if constexpr (std::is_same_v<F, Real>) {
        return *p;
    } else {
        return load(p);
    }
}
template <class F, class Real>
inline void set_lanes(Real* p, F v) {
    if constexpr (std::is_same_v<F, Real>) {
        *p = v;
    } else {
        store(p, v);
    }
}

// Σ term(j, F{}) over j < count: term(j, Batch{}) covers j … j + kLanes − 1 in the batch loop,
// term(j, Real{}) one j in the tail.
template <class Real, class Term>
Real row_accumulate(std::size_t count, Term term) {
    std::size_t j = 0;
    Real total = 0;
#if POSENC_SIMD
    if constexpr (kSimdReal<Real>) {
        Batch acc(0.0f);
        for (; j < simd_prefix(count); j += kLanes) acc = acc + term(j, Batch(0.0f));
        total = sum_lanes(acc);
    }
#endif
    POSENC_SCALAR_TAIL
    for (; j < count; ++j) total = total + term(j, Real(0));
    return total;
}

// step(j, F{}) for j < count, batch loop then tail as above.
template <class Real, class Step>
void row_apply(std::size_t count, Step step) {
    std::size_t j = 0;
#if POSENC_SIMD
    if constexpr (kSimdReal<Real>) {
        for (; j < simd_prefix(count); j += kLanes) step(j, Batch(0.0f));
    }
#endif
    POSENC_SCALAR_TAIL
    for (; j < count; ++j) step(j, Real(0));
}

// Σ x[j].
template <class Real>
Real row_sum(const Real* x, std::size_t count) {
    return row_accumulate<Real>(count, [&](std::size_t j, auto f) { return lanes_at<decltype(f)>(x + j); });
}

// Σ x[j]·y[j].
template <class Real>
Real row_dot(const Real* x, const Real* y, std::size_t count) {
    return row_accumulate<Real>(count, [&](std::size_t j, auto f) {
        using F = decltype(f);
        return lanes_at<F>(x + j) * lanes_at<F>(y + j);
    });
}

// Σ (x[j] − mu)².
template <class Real>
Real row_centered_squares(const Real* x, Real mu, std::size_t count) {
    return row_accumulate<Real>(count, [&](std::size_t j, auto f) {
        using F = decltype(f);
        const F c = lanes_at<F>(x + j) - F(mu);
        return c * c;
    });
}

// max_j x[j]; count ≥ 1. Exact whatever the order (NaN aside), so every build agrees.
template <class Real>
Real row_max(const Real* x, std::size_t count) {
    std::size_t j = 1;
    Real best = x[0];
#if POSENC_SIMD
    if constexpr (kSimdReal<Real>) {
        if (count >= kLanes) {
            Batch acc = load(x);
            for (j = kLanes; j < simd_prefix(count); j += kLanes) acc = max_of(load(x + j), acc);
            float lanes[kLanes];
            acc.store_unaligned(lanes);
            for (float lane : lanes) best = max_of(lane, best);
        }
    }
#endif
    POSENC_SCALAR_TAIL
    for (; j < count; ++j) best = x[j] > best ? x[j] : best;
    return best;
}

// dst[j] = dst[j] + a·src[j].
template <class Real>
void add_scaled_into(Real* dst, Real a, const Real* src, std::size_t count) {
    row_apply<Real>(count, [&](std::size_t j, auto f) {
        using F = decltype(f);
        set_lanes(dst + j, lanes_at<F>(dst + j) + F(a) * lanes_at<F>(src + j));
    });
}

// dst[j] = dst[j] + src[j].
template <class Real>
void add_into(Real* dst, const Real* src, std::size_t count) {
    row_apply<Real>(count, [&](std::size_t j, auto f) {
        using F = decltype(f);
        set_lanes(dst + j, lanes_at<F>(dst + j) + lanes_at<F>(src + j));
    });
}

// dst[j] = a·src[j] (dst may alias src).
template <class Real>
void scale_into(Real* dst, Real a, const Real* src, std::size_t count) {
    row_apply<Real>(count, [&](std::size_t j, auto f) {
        using F = decltype(f);
        set_lanes(dst + j, F(a) * lanes_at<F>(src + j));
    });
}

// e^x for x ≤ 0: fastmath's conversion-free exp for float (xsimd::exp's float→int conversions
// are scalarised under Emscripten), std::exp for the double reference.
inline float exp_nonpositive_real(float x) { return fastmath::exp_nonpositive<float, std::int32_t>(x); }
inline double exp_nonpositive_real(double x) { return std::exp(x); }
#if POSENC_SIMD
inline Batch exp_nonpositive_real(Batch x) { return fastmath::exp_nonpositive<Batch, IntBatch>(x); }
#endif

// Σ_j e^(x[j] − shift) with shift ≥ max x (so every argument is ≤ 0); out (nullable, may alias x)
// receives the terms.
template <class Real>
Real exp_shifted_sum(const Real* x, Real shift, std::size_t count, Real* out) {
    return row_accumulate<Real>(count, [&](std::size_t j, auto f) {
        using F = decltype(f);
        const F e = exp_nonpositive_real(lanes_at<F>(x + j) - F(shift));
        if (out) set_lanes(out + j, e);
        return e;
    });
}

}  // namespace posenc::model
