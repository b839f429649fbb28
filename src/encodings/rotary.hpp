// Rotary position embedding (Su et al., RoFormer).
//
// Shapes:
//   x, out — n×d row-major (d even); out is caller-owned and may not alias x.
//   Row p is rotated for position P = p + offset: each pair (a, b) of dimensions with frequency
//   ω_i becomes [a·cos − b·sin, a·sin + b·cos] with angle P·ω_i.
// Pairing interleaved pairs (2i, 2i+1) (RoFormer); half pairs (i, i + d/2) (GPT-NeoX / LLaMA).
#pragma once

#include <cstddef>

#include "encodings/phases.hpp"

namespace posenc {

// Requires: d even; every P integral with |P| ≤ kMaxPosition.
void rotate(const float* x, std::size_t n, std::size_t d, double base, double offset,
            Layout pairing, float* out);

// The same rotation with explicit per-pair frequencies omega[i] (d/2 of them) instead of
// base^(−2i/d): the rescaled RoPE variants of schemes.hpp. Same SIMD kernel; given the base's
// frequencies it returns exactly what rotate() does.
// Requires additionally: every omega[i] finite with 0 ≤ omega[i] ≤ 1.
void rotate_with_frequencies(const float* x, std::size_t n, std::size_t d, const double* omega, double offset,
                             Layout pairing, float* out);

}  // namespace posenc
