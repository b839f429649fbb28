#include "model/gelu.hpp"

#include <cstdint>

#include "base/fastmath.hpp"
#include "base/simd.hpp"

namespace posenc::model {

namespace {

// tanh(u) = sign(u)·(1 − e)/(1 + e) with e = exp(−2|u|) ≤ 1 (exp_nonpositive's domain); the
// sign is copied bit-wise so ±0 and the odd symmetry are exact. N values at once (fastmath's _n
// form: N exp chains side by side), each through the same operations as with N = 1.
template <class F, class I, std::size_t N>
inline void gelu_lanes(const F* x, F* y, F* t) {
    F u[N], e[N];
    for (std::size_t k = 0; k < N; ++k) {
        u[k] = gelu_argument<F, float>(x[k]);
        e[k] = F(-2.0f) * from_bits(to_bits(u[k]) & I(0x7fffffff));
    }
    fastmath::exp_nonpositive_n<F, I, N>(e);
    for (std::size_t k = 0; k < N; ++k) {
        const F magnitude = (F(1.0f) - e[k]) / (F(1.0f) + e[k]);
        t[k] = from_bits(to_bits(magnitude) | (to_bits(u[k]) & I(INT32_MIN)));
        y[k] = gelu_value<F, float>(x[k], t[k]);
    }
}

#if POSENC_SIMD
// Batches per step of gelu_forward's main loop.
inline constexpr std::size_t kGeluBatches = 4;
#endif

}  // namespace

void gelu_forward(const float* x, std::size_t count, float* y, float* tanh_out) {
    std::size_t i = 0;
#if POSENC_SIMD
    for (; i + kGeluBatches * kLanes <= count; i += kGeluBatches * kLanes) {
        Batch xb[kGeluBatches], yb[kGeluBatches], tb[kGeluBatches];
        for (std::size_t k = 0; k < kGeluBatches; ++k) xb[k] = load(x + i + k * kLanes);
        gelu_lanes<Batch, IntBatch, kGeluBatches>(xb, yb, tb);
        for (std::size_t k = 0; k < kGeluBatches; ++k) {
            store(y + i + k * kLanes, yb[k]);
            store(tanh_out + i + k * kLanes, tb[k]);
        }
    }
    for (; i < simd_prefix(count); i += kLanes) {
        Batch yb, tb;
        const Batch xb = load(x + i);
        gelu_lanes<Batch, IntBatch, 1>(&xb, &yb, &tb);
        store(y + i, yb);
        store(tanh_out + i, tb);
    }
#endif
    POSENC_SCALAR_TAIL
    for (; i < count; ++i) gelu_lanes<float, std::int32_t, 1>(x + i, y + i, tanh_out + i);
}

void gelu_backward(const float* x, const float* tanh_in, const float* dy, std::size_t count, float* dx) {
    std::size_t i = 0;
#if POSENC_SIMD
    for (; i < simd_prefix(count); i += kLanes) store(dx + i, load(dy + i) * gelu_slope<Batch, float>(load(x + i), load(tanh_in + i)));
#endif
    POSENC_SCALAR_TAIL
    for (; i < count; ++i) dx[i] = dy[i] * gelu_slope<float, float>(x[i], tanh_in[i]);
}

}  // namespace posenc::model
