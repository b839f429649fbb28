// Per-dimension phases sin(P·ω_j + s_j·π/2), the building block of the sinusoidal table and of
// rotary rotation.
//
// Shapes and terms:
//   d      — row width, even; pairs i = 0 … d/2 − 1 share frequency ω_i = base^(−2i/d).
//   j      — output dimension 0 … d − 1; its pair index is pair_of(j, d, layout).
//   P      — a position (integer, |P| ≤ kMaxPosition).
//   s_j    — quadrant shift in {0, 1, 2, 3}: 0 → sin, 1 → cos, 2 → −sin, 3 → −cos.
//
// Accuracy: ω_j is split into w_hi (12 significant bits) + w_lo, and P into a multiple of 4096
// plus a remainder, so both partial products P·w_hi are exact in float; their rounded sum is
// corrected with TwoSum. The angle is therefore known to about 2^-36 relative before the
// Cody–Waite reduction in fastmath.hpp, and the result is accurate to a few float ulps for every
// allowed position, not only small ones.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "base/fastmath.hpp"
#include "base/simd.hpp"

namespace posenc {

// Which dimensions form a pair: (2i, 2i+1) or (i, i + d/2).
enum class Layout { interleaved, half };
// Its JS names in enum order (the first is the default): they cross to JS in the scheme table.
inline constexpr const char* kLayoutNames[] = {"interleaved", "half"};
static_assert(sizeof(kLayoutNames) / sizeof(kLayoutNames[0]) == static_cast<std::size_t>(Layout::half) + 1);

inline constexpr double kMaxPosition = 65535.0;

inline std::size_t pair_of(std::size_t j, std::size_t d, Layout layout) {
    return layout == Layout::interleaved ? j / 2 : j % (d / 2);
}
// True for the second member of a pair (2i+1, or i + d/2).
inline bool second_of_pair(std::size_t j, std::size_t d, Layout layout) {
    return layout == Layout::interleaved ? (j % 2 == 1) : (j >= d / 2);
}

// ω_i = base^(−2i/d), i = 0 … d/2 − 1, computed in double.
double frequency(std::size_t i, std::size_t d, double base);

// Per-dimension frequency split and quadrant shift; built once per call, outside the loops.
struct PhasePlan {
    std::vector<float> w_hi;            // d
    std::vector<float> w_lo;            // d
    std::vector<std::int32_t> shift;    // d
};

// shift_first / shift_second: the quadrant shift for the first / second member of each pair.
PhasePlan make_phase_plan(std::size_t d, double base, Layout layout, std::int32_t shift_first,
                          std::int32_t shift_second);

// The same from explicit per-pair frequencies omega[i], i = 0 … d/2 − 1 (rescaled RoPE variants:
// position interpolation, NTK-aware, YaRN; see schemes.hpp). Given omega[i] = frequency(i, d, base)
// it builds exactly the plan above. The accuracy argument holds for any finite ω; the reduction
// in fastmath.hpp needs |P·ω| ≤ kMaxReducedAngle, so callers keep 0 ≤ ω ≤ 1.
PhasePlan make_phase_plan(const double* omega, std::size_t d, Layout layout, std::int32_t shift_first,
                          std::int32_t shift_second);

// A position split so that P·w_hi is exact: P = high + low, high a multiple of 4096.
struct SplitPosition {
    float whole, high, low;
};
SplitPosition split_position(double position);

// sin(P·ω + shift·π/2) for one lane group; see the file comment for the accuracy argument.
template <class F, class I>
inline F phase(const SplitPosition& p, F w_hi, F w_lo, I shift) {
    const F a = F(p.high) * w_hi;  // exact
    const F b = F(p.low) * w_hi;   // exact
    const F sum = a + b;
    const F b_part = sum - a;
    const F a_part = sum - b_part;
    const F rounding = (a - a_part) + (b - b_part);
    const F lo = rounding + F(p.whole) * w_lo;
    return fastmath::sin_shifted(sum, lo, shift);
}

}  // namespace posenc
