// The rounding constants the retrieval bounds are built from (retrieval.cpp's decode, quantize.cpp's
// quantisation): one home, so both sides of a bound agree.
#pragma once

namespace posenc::retrieval_bounds {
inline constexpr double kUnit = 0x1p-24;            // float unit roundoff
inline constexpr double kInflate = 1.0 + 0x1p-20;   // covers the double rounding of a bound's own terms
inline constexpr double kTooLarge = 1e30;           // bounds and magnitudes beyond this: decode exactly
}  // namespace posenc::retrieval_bounds
