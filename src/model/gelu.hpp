// GELU in its tanh form, forward and backward, elementwise.
//
// Shapes: x, y, tanh_out, dy, dx — count values.
// y = 0.5·x·(1 + t), t = tanh(u), u = √(2/π)·(x + 0.044715·x³); the forward keeps t for the
// backward: dy/dx = 0.5·(1 + t) + 0.5·x·(1 − t²)·√(2/π)·(1 + 3·0.044715·x²).
// Float (gelu.cpp): batch loop + scalar tail with tanh from fastmath's conversion-free exp
// (absolute error about 1e-7, which the y and dy/dx formulas carry as absolute errors too; libm's
// tanhf was 8% of a training step natively and has no vector form in wasm). Double: std::tanh.
#pragma once

#include <cmath>
#include <cstddef>

namespace posenc::model {

inline constexpr double kGeluSqrt2OverPi = 0.7978845608028654;
inline constexpr double kGeluCubic = 0.044715;

// The formulas, over a lane type F (float, double or a SIMD batch) and its scalar type S.
template <class F, class S>
inline F gelu_argument(F x) {
    return F(static_cast<S>(kGeluSqrt2OverPi)) * (x + F(static_cast<S>(kGeluCubic)) * x * x * x);
}
template <class F, class S>
inline F gelu_value(F x, F t) {
    return F(static_cast<S>(0.5)) * x * (F(static_cast<S>(1)) + t);
}
template <class F, class S>
inline F gelu_slope(F x, F t) {
    const F half = F(static_cast<S>(0.5)), one = F(static_cast<S>(1));
    return half * (one + t) + half * x * (one - t * t) * F(static_cast<S>(kGeluSqrt2OverPi)) *
                                  (one + F(static_cast<S>(3 * kGeluCubic)) * x * x);
}

void gelu_forward(const float* x, std::size_t count, float* y, float* tanh_out);
void gelu_backward(const float* x, const float* tanh_in, const float* dy, std::size_t count, float* dx);

template <class Real>
void gelu_forward(const Real* x, std::size_t count, Real* y, Real* tanh_out) {
    for (std::size_t i = 0; i < count; ++i) {
        tanh_out[i] = std::tanh(gelu_argument<Real, Real>(x[i]));
        y[i] = gelu_value<Real, Real>(x[i], tanh_out[i]);
    }
}

template <class Real>
void gelu_backward(const Real* x, const Real* tanh_in, const Real* dy, std::size_t count, Real* dx) {
    for (std::size_t i = 0; i < count; ++i) dx[i] = dy[i] * gelu_slope<Real, Real>(x[i], tanh_in[i]);
}

}  // namespace posenc::model
