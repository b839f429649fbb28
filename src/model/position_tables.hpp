// Sin/cos tables for the model's positions: the sinusoidal input encodings (additive,
// concatenated) and the rotary angles, both as rows [sin(p·ω_0), cos(p·ω_0), sin(p·ω_1), …].
//
// Shapes: omega — pairs frequencies;  out — n rows of 2·pairs values (row p for position p).
// Float: the team's exact phases (phases.hpp), so with ω_i = frequency(i, 2·pairs, base) it is
// sinusoidal_table's interleaved layout bit for bit. Double (the tests' reference): std::sin/cos
// of the double product.
#pragma once

#include <cmath>
#include <cstddef>

namespace posenc::model {

// Allocates its phase plan: call outside the hot loops (the model caches the table).
void sin_cos_table(const double* omega, std::size_t pairs, std::size_t n, float* out);

inline void sin_cos_table(const double* omega, std::size_t pairs, std::size_t n, double* out) {
    for (std::size_t p = 0; p < n; ++p) {
        for (std::size_t i = 0; i < pairs; ++i) {
            out[p * 2 * pairs + 2 * i] = std::sin(static_cast<double>(p) * omega[i]);
            out[p * 2 * pairs + 2 * i + 1] = std::cos(static_cast<double>(p) * omega[i]);
        }
    }
}

}  // namespace posenc::model
