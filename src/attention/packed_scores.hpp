// The register-blocked micro-kernel behind QKᵀ (attention_scores) and compare()'s symmetric
// x·xᵀ: keys packed into column panels, scores accumulated without horizontal sums. Internal to
// the core (SIMD builds only).
//
// Shapes:
//   k, q     — rows of d floats at a row stride (≥ d); a leading block of wider rows is allowed
//   panels   — keys packed kLanes at a time: panel[c][l] = k_{j0 + l}[c], d·kLanes floats each;
//              the last panel is zero-padded so every block reads whole panels
//   out      — Rows × kKeyBlock scores at row stride out_stride; only `columns` ≤ kKeyBlock stored
// Each score sums its d products in order c = 0 … d − 1 and is multiplied by scale once, so any
// caller gets the same bits for the same q and k.
#pragma once

#include <cstddef>

#include "base/simd.hpp"

#if POSENC_SIMD
namespace posenc::packed {

inline constexpr std::size_t kKeyBlock = 2 * kLanes;

// Packs keys [j0, j0 + count) (row stride `stride`) into panels, zero-padding to a whole key block.
inline void pack_keys(const float* k, std::size_t stride, std::size_t j0, std::size_t count, std::size_t d,
                      float* pack) {
    const std::size_t padded = (count + kKeyBlock - 1) / kKeyBlock * kKeyBlock;
    for (std::size_t key = 0; key < padded; ++key) {
        float* dst = pack + (key / kLanes) * d * kLanes + key % kLanes;
        if (key < count) {
            const float* src = k + (j0 + key) * stride;
            for (std::size_t c = 0; c < d; ++c) dst[c * kLanes] = src[c];
        } else {
            for (std::size_t c = 0; c < d; ++c) dst[c * kLanes] = 0.0f;
        }
    }
}

// Rows × kKeyBlock scores: out row r gets scale·q_r·k for the keys of the two panels at `panels`.
template <std::size_t Rows>
inline void score_block(const float* q, std::size_t q_stride, std::size_t d, const float* panels, float scale,
                        float* out, std::size_t out_stride, std::size_t columns) {
    Batch acc0[Rows], acc1[Rows];
    for (std::size_t r = 0; r < Rows; ++r) acc0[r] = acc1[r] = Batch(0.0f);
    const float* p0 = panels;
    const float* p1 = panels + d * kLanes;
    for (std::size_t c = 0; c < d; ++c) {
        const Batch b0 = load(p0 + c * kLanes);
        const Batch b1 = load(p1 + c * kLanes);
        for (std::size_t r = 0; r < Rows; ++r) {
            const Batch a(q[r * q_stride + c]);
            acc0[r] = acc0[r] + a * b0;
            acc1[r] = acc1[r] + a * b1;
        }
    }
    const Batch s(scale);
    for (std::size_t r = 0; r < Rows; ++r) {
        float* row = out + r * out_stride;
        if (columns == kKeyBlock) {
            store(row, acc0[r] * s);
            store(row + kLanes, acc1[r] * s);
        } else {
            alignas(16) float tmp[kKeyBlock];
            store(tmp, acc0[r] * s);
            store(tmp + kLanes, acc1[r] * s);
            for (std::size_t c = 0; c < columns; ++c) row[c] = tmp[c];
        }
    }
}

// Query rows one micro-kernel call covers at most: Rows = kQueryRows × two panels is eight
// accumulators, which fit the registers with the two panel loads and the broadcast.
inline constexpr std::size_t kQueryRows = 4;

// score_block for `rows` ≤ kQueryRows consecutive queries: all four in one call, fewer (the last
// block of rows) one at a time. Same bits either way: each score's sum does not depend on Rows.
inline void score_rows(const float* q, std::size_t q_stride, std::size_t rows, std::size_t d, const float* panels,
                       float scale, float* out, std::size_t out_stride, std::size_t columns) {
    if (rows == kQueryRows) {
        score_block<kQueryRows>(q, q_stride, d, panels, scale, out, out_stride, columns);
        return;
    }
    for (std::size_t r = 0; r < rows; ++r) {
        score_block<1>(q + r * q_stride, q_stride, d, panels, scale, out + r * out_stride, out_stride, columns);
    }
}

}  // namespace posenc::packed
#endif
