// GELU in its tanh form, forward and backward, elementwise.
//
// Shapes: x, y, tanh_out, dy, dx — count values.
// y = 0.5·x·(1 + t), t = tanh(u), u = √(2/π)·(x + 0.044715·x³); the forward keeps t for the
// backward: dy/dx = 0.5·(1 + t) + 0.5·x·(1 − t²)·√(2/π)·(1 + 3·0.044715·x²).
#pragma once

#include <cmath>
#include <cstddef>

namespace posenc::model {

inline constexpr double kGeluSqrt2OverPi = 0.7978845608028654;
inline constexpr double kGeluCubic = 0.044715;

template <class Real>
void gelu_forward(const Real* x, std::size_t count, Real* y, Real* tanh_out) {
    const Real c = static_cast<Real>(kGeluSqrt2OverPi), a = static_cast<Real>(kGeluCubic);
    for (std::size_t i = 0; i < count; ++i) {
        const Real v = x[i];
        const Real t = std::tanh(c * (v + a * v * v * v));
        tanh_out[i] = t;
        y[i] = Real(0.5) * v * (Real(1) + t);
    }
}

template <class Real>
void gelu_backward(const Real* x, const Real* tanh_in, const Real* dy, std::size_t count, Real* dx) {
    const Real c = static_cast<Real>(kGeluSqrt2OverPi), a3 = static_cast<Real>(3 * kGeluCubic);
    for (std::size_t i = 0; i < count; ++i) {
        const Real v = x[i], t = tanh_in[i];
        const Real slope = Real(0.5) * (Real(1) + t) + Real(0.5) * v * (Real(1) - t * t) * c * (Real(1) + a3 * v * v);
        dx[i] = dy[i] * slope;
    }
}

}  // namespace posenc::model
