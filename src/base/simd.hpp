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
#include <utility>

#if POSENC_SIMD
#include <xsimd/xsimd.hpp>
#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif
#endif

namespace posenc {

// Put before a kernel's scalar tail: after its batch loop the tail runs fewer than kLanes times,
// so vector code the compiler would make for it never runs and only adds bytes (about 250 per
// kernel in the wasm core, whose embedded copy has a size budget). Without SIMD the tail is the
// whole loop, left to the compiler.
#if POSENC_SIMD && defined(__clang__)
#define POSENC_SCALAR_TAIL _Pragma("clang loop vectorize(disable) interleave(disable) unroll(disable)")
#else
#define POSENC_SCALAR_TAIL
#endif

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
#if defined(__wasm_simd128__)
// a > b ? a : b in one f32x4.pmax (Emscripten expands _mm_max_ps, hence xsimd::max, to a compare
// and a bitselect); same result as the scalar max_of below, NaN included.
inline Batch max_of(Batch a, Batch b) {
    return Batch(static_cast<__m128>(wasm_f32x4_pmax(static_cast<v128_t>(b.data), static_cast<v128_t>(a.data))));
}
// a < b ? a : b in one f32x4.pmin, likewise.
inline Batch min_of(Batch a, Batch b) {
    return Batch(static_cast<__m128>(wasm_f32x4_pmin(static_cast<v128_t>(b.data), static_cast<v128_t>(a.data))));
}
#else
inline Batch max_of(Batch a, Batch b) { return xsimd::select(a > b, a, b); }
inline Batch min_of(Batch a, Batch b) { return xsimd::select(a < b, a, b); }
#endif
// All-ones where x < limit, else zero (NaN: zero); clear_where(v, mask) is +0 where the mask is
// set, else v. Together: zero_where_below in two operations (a compare and an and-not).
inline IntBatch below(Batch x, float limit) { return to_bits(Batch((x < Batch(limit)).data)); }
// xsimd 8.1: bitwise_andnot(a, b) = ~a & b (_mm_andnot semantics).
inline Batch clear_where(Batch v, IntBatch mask) { return from_bits(xsimd::bitwise_andnot(mask, to_bits(v))); }
inline Batch zero_where_below(Batch x, float limit, Batch v) {
    return xsimd::select(x < Batch(limit), Batch(0.0f), v);
}
// Swaps lanes (0,1), (2,3), …: pairs (2i, 2i+1) of a row that starts on an even index. Written
// for any even lane count (4 for SSE / wasm SIMD128, 8 for the AVX2 benchmark build).
template <std::size_t... L>
inline Batch swap_adjacent_lanes(Batch v, std::index_sequence<L...>) {
    using Pattern = xsimd::batch_constant<xsimd::batch<std::uint32_t>, static_cast<std::uint32_t>(L ^ 1u)...>;
    return xsimd::swizzle(v, Pattern{});
}
inline Batch swap_adjacent(Batch v) {
    static_assert(kLanes % 2 == 0, "swap_adjacent needs an even lane count");
    return swap_adjacent_lanes(v, std::make_index_sequence<kLanes>{});
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
inline float min_of(float a, float b) { return a < b ? a : b; }
inline float zero_where_below(float x, float limit, float v) { return x < limit ? 0.0f : v; }
inline std::int32_t below(float x, float limit) { return x < limit ? -1 : 0; }
inline float clear_where(float v, std::int32_t mask) { return from_bits(to_bits(v) & ~mask); }

// Number of leading elements of a length-n range that the batch loop covers.
inline constexpr std::size_t simd_prefix(std::size_t n) { return n - n % kLanes; }

}  // namespace posenc
