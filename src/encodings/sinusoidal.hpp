// Sinusoidal positional encoding (Vaswani et al. 2017).
//
// Shapes:
//   n    — positions 0 … n − 1 (first_position shifts them)
//   d    — dimensions, even
//   out  — n×d row-major, caller-owned
// Layout interleaved: out[p][2i] = sin(p·ω_i), out[p][2i+1] = cos(p·ω_i).
// Layout half:        out[p][i]  = sin(p·ω_i), out[p][i + d/2] = cos(p·ω_i).
#pragma once

#include <cstddef>

#include "encodings/phases.hpp"

namespace posenc {

// Requires: d even, every position first_position + p within ±kMaxPosition and integral.
void sinusoidal_table(std::size_t n, std::size_t d, double base, Layout layout, float* out,
                      double first_position = 0.0);

}  // namespace posenc
