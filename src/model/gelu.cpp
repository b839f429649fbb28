#include "model/gelu.hpp"

#include <cstdint>

#include "fastmath.hpp"
#include "simd.hpp"

namespace posenc::model {

namespace {

// tanh(u) = sign(u)·(1 − e)/(1 + e) with e = exp(−2|u|) ≤ 1 (exp_nonpositive's domain); the
// sign is copied bit-wise so ±0 and the odd symmetry are exact.
template <class F, class I>
inline F tanh_of(F u) {
    const F magnitude = from_bits(to_bits(u) & I(0x7fffffff));
    const F e = fastmath::exp_nonpositive<F, I>(F(-2.0f) * magnitude);
    const F t = (F(1.0f) - e) / (F(1.0f) + e);
    return from_bits(to_bits(t) | (to_bits(u) & I(INT32_MIN)));
}

template <class F, class I>
inline void gelu_lane(F x, F& y, F& t) {
    t = tanh_of<F, I>(gelu_argument<F, float>(x));
    y = gelu_value<F, float>(x, t);
}

}  // namespace

void gelu_forward(const float* x, std::size_t count, float* y, float* tanh_out) {
    std::size_t i = 0;
#if POSENC_SIMD
    for (; i < simd_prefix(count); i += kLanes) {
        Batch yb, tb;
        gelu_lane<Batch, IntBatch>(load(x + i), yb, tb);
        store(y + i, yb);
        store(tanh_out + i, tb);
    }
#endif
    for (; i < count; ++i) gelu_lane<float, std::int32_t>(x[i], y[i], tanh_out[i]);
}

void gelu_backward(const float* x, const float* tanh_in, const float* dy, std::size_t count, float* dx) {
    std::size_t i = 0;
#if POSENC_SIMD
    for (; i < simd_prefix(count); i += kLanes) store(dx + i, load(dy + i) * gelu_slope<Batch, float>(load(x + i), load(tanh_in + i)));
#endif
    for (; i < count; ++i) dx[i] = dy[i] * gelu_slope<float, float>(x[i], tanh_in[i]);
}

}  // namespace posenc::model
