// SIMD plumbing shared by every kernel.
//
// POSENC_SIMD (set by CMake) selects the xsimd batch loops; without it every kernel runs its
// scalar tail over the whole range, which is how the scalar wasm build contains no SIMD at all.
//
// The math helpers are written once as templates over a lane type F (float or Batch) and its
// integer twin I (std::int32_t or IntBatch), so a kernel's batch loop and its scalar tail
// evaluate the same formula, operation for operation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#if POSENC_SIMD
#include <xsimd/xsimd.hpp>
#endif

namespace posenc {

#if POSENC_SIMD
using Batch = xsimd::batch<float>;
using IntBatch = xsimd::batch<std::int32_t>;
inline constexpr std::size_t kLanes = Batch::size;

inline Batch load(const float* p) { return Batch::load_unaligned(p); }
inline void store(float* p, Batch v) { v.store_unaligned(p); }
inline IntBatch to_bits(Batch v) { return xsimd::bitwise_cast<IntBatch>(v); }
inline Batch from_bits(IntBatch v) { return xsimd::bitwise_cast<Batch>(v); }
// mask is all-ones or all-zeros per lane.
inline Batch blend(IntBatch mask, Batch if_set, Batch if_clear) {
    return from_bits((to_bits(if_set) & mask) | (to_bits(if_clear) & ~mask));
}
inline float sum_lanes(Batch v) { return xsimd::hadd(v); }
inline Batch max_of(Batch a, Batch b) { return xsimd::max(a, b); }
inline Batch zero_where_below(Batch x, float limit, Batch v) {
    return xsimd::select(x < Batch(limit), Batch(0.0f), v);
}
// Swaps lanes (0,1), (2,3), …: pairs (2i, 2i+1) of a row that starts on an even index.
inline Batch swap_adjacent(Batch v) {
    static_assert(kLanes == 4, "swap_adjacent is written for 4-lane (SSE / wasm SIMD128) batches");
    using Pattern = xsimd::batch_constant<xsimd::batch<std::uint32_t>, 1, 0, 3, 2>;
    return xsimd::swizzle(v, Pattern{});
}
#else
inline constexpr std::size_t kLanes = 1;
#endif

inline std::int32_t to_bits(float v) {
    std::int32_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    return bits;
}
inline float from_bits(std::int32_t bits) {
    float v;
    std::memcpy(&v, &bits, sizeof v);
    return v;
}
inline float blend(std::int32_t mask, float if_set, float if_clear) {
    return from_bits((to_bits(if_set) & mask) | (to_bits(if_clear) & ~mask));
}
inline float max_of(float a, float b) { return a > b ? a : b; }
inline float zero_where_below(float x, float limit, float v) { return x < limit ? 0.0f : v; }

// Number of leading elements of a length-n range that the batch loop covers.
inline constexpr std::size_t simd_prefix(std::size_t n) { return n - n % kLanes; }

}  // namespace posenc
