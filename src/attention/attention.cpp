#include "attention/attention.hpp"

#include <cmath>
#include <limits>

#include "base/cold.hpp"
#include "base/fastmath.hpp"
#include "attention/packed_scores.hpp"
#include "base/simd.hpp"

namespace posenc {

float dot(const float* a, const float* b, std::size_t d) {
    std::size_t j = 0;
    float sum = 0.0f;
#if POSENC_SIMD
    // Two accumulators hide the add latency; they are combined once at the end.
    Batch acc0(0.0f), acc1(0.0f);
    for (; j + 2 * kLanes <= d; j += 2 * kLanes) {
        acc0 = acc0 + load(a + j) * load(b + j);
        acc1 = acc1 + load(a + j + kLanes) * load(b + j + kLanes);
    }
    for (; j + kLanes <= d; j += kLanes) {
        acc0 = acc0 + load(a + j) * load(b + j);
    }
    sum = sum_lanes(acc0 + acc1);
#endif
    POSENC_SCALAR_TAIL
    for (; j < d; ++j) {
        sum = sum + a[j] * b[j];
    }
    return sum;
}

void dot_rows4(const float* q, const float* k, std::size_t d, float* out) {
    std::size_t j = 0;
    float sums[4] = {0.0f, 0.0f, 0.0f, 0.0f};
#if POSENC_SIMD
    // dot()'s two accumulators per row, in dot()'s order; q is loaded once for the four rows.
    Batch even[4] = {Batch(0.0f), Batch(0.0f), Batch(0.0f), Batch(0.0f)};
    Batch odd[4] = {Batch(0.0f), Batch(0.0f), Batch(0.0f), Batch(0.0f)};
    for (; j + 2 * kLanes <= d; j += 2 * kLanes) {
        const Batch q0 = load(q + j), q1 = load(q + j + kLanes);
        for (std::size_t r = 0; r < 4; ++r) {
            even[r] = even[r] + q0 * load(k + r * d + j);
            odd[r] = odd[r] + q1 * load(k + r * d + j + kLanes);
        }
    }
    for (; j + kLanes <= d; j += kLanes) {
        const Batch q0 = load(q + j);
        for (std::size_t r = 0; r < 4; ++r) even[r] = even[r] + q0 * load(k + r * d + j);
    }
    for (std::size_t r = 0; r < 4; ++r) sums[r] = sum_lanes(even[r] + odd[r]);
#endif
    for (std::size_t r = 0; r < 4; ++r) {
        float sum = sums[r];
        for (std::size_t c = j; c < d; ++c) sum = sum + q[c] * k[r * d + c];
        out[r] = sum;
    }
}


#if POSENC_SIMD
namespace {
// Register-blocked QKᵀ. Keys are packed, a tile at a time, into column panels of kLanes keys:
// panel[c][l] = k_{j0 + l}[c]. A micro-kernel then keeps kQueryBlock × 2 panels of scores in
// eight accumulators and, per dimension c, does 2 panel loads, kQueryBlock broadcasts of q[i][c]
// and 8 multiply-adds: no horizontal sums, no tail in d, and each score is stored once.
constexpr std::size_t kQueryBlock = packed::kQueryRows;
using packed::kKeyBlock;
using packed::pack_keys;
// Packed-key scratch: a tile of keys fits L1 for small d (64 keys × 64 dims = 16 KB) and never
// exceeds 8 keys × 4096 dims. Static, so attention_scores still allocates nothing.
constexpr std::size_t kPackFloats = 8 * 4096;
alignas(64) thread_local float g_pack[kPackFloats];

std::size_t key_tile(std::size_t d) {
    std::size_t keys = 16384 / d;
    keys = keys - keys % kKeyBlock;
    if (keys < kKeyBlock) keys = kKeyBlock;
    if (keys > 256) keys = 256;
    return keys;
}


// out[r] = scale·q·k_r for the four consecutive keys at k (rows of d floats): q is loaded once
// per step for all four, and each accumulator is reduced once at the end.
inline void dot4_simd(const float* q, const float* k, std::size_t d, float scale, float* out) {
    Batch acc[4] = {Batch(0.0f), Batch(0.0f), Batch(0.0f), Batch(0.0f)};
    std::size_t c = 0;
    for (; c + kLanes <= d; c += kLanes) {
        const Batch qc = load(q + c);
        for (std::size_t r = 0; r < 4; ++r) acc[r] = acc[r] + qc * load(k + r * d + c);
    }
    for (std::size_t r = 0; r < 4; ++r) {
        float sum = sum_lanes(acc[r]);
        for (std::size_t cc = c; cc < d; ++cc) sum = sum + q[cc] * k[r * d + cc];
        out[r] = scale * sum;
    }
}

}  // namespace
#endif

void attention_scores(const float* q, const float* k, std::size_t n_q, std::size_t n_k,
                      std::size_t d, float scale, bool causal, float* scores) {
    const float minus_infinity = -std::numeric_limits<float>::infinity();
#if POSENC_SIMD
    if (n_q < kQueryBlock) {
        // One to three queries (a new token against a whole vocabulary): packing the keys would
        // cost more than it saves, so stream them directly, four keys per step.
        for (std::size_t i = 0; i < n_q; ++i) {
            const std::size_t visible = causal ? (i + 1 < n_k ? i + 1 : n_k) : n_k;
            const float* qi = q + i * d;
            float* row = scores + i * n_k;
            std::size_t j = 0;
            for (; j + 4 <= visible; j += 4) dot4_simd(qi, k + j * d, d, scale, row + j);
            for (; j < visible; ++j) row[j] = scale * dot(qi, k + j * d, d);
            for (; j < n_k; ++j) row[j] = minus_infinity;
        }
        return;
    }
    const std::size_t tile = key_tile(d);
    for (std::size_t j0 = 0; j0 < n_k; j0 += tile) {
        const std::size_t tile_keys = n_k - j0 < tile ? n_k - j0 : tile;
        // Causal: no query before j0 sees this tile.
        if (causal && j0 >= n_q) break;
        pack_keys(k, d, j0, tile_keys, d, g_pack);
        std::size_t i = causal ? j0 : 0;
        i -= i % kQueryBlock;
        for (; i < n_q; i += kQueryBlock) {
            const std::size_t rows = n_q - i < kQueryBlock ? n_q - i : kQueryBlock;
            // Causal: key blocks past the block's last query are all masked.
            const std::size_t last_visible = causal ? i + rows : n_k;
            for (std::size_t kb = 0; kb < tile_keys; kb += kKeyBlock) {
                const std::size_t j = j0 + kb;
                if (j >= last_visible) break;
                const std::size_t columns = tile_keys - kb < kKeyBlock ? tile_keys - kb : kKeyBlock;
                const float* panels = g_pack + (kb / kLanes) * d * kLanes;
                float* out = scores + i * n_k + j;
                packed::score_rows(q + i * d, d, rows, d, panels, scale, out, n_k, columns);
            }
        }
    }
    if (causal) {
        for (std::size_t i = 0; i < n_q; ++i) {
            float* row = scores + i * n_k;
            for (std::size_t j = i + 1; j < n_k; ++j) row[j] = minus_infinity;
        }
    }
#else
    for (std::size_t i = 0; i < n_q; ++i) {
        const std::size_t visible = causal ? (i + 1 < n_k ? i + 1 : n_k) : n_k;
        const float* qi = q + i * d;
        float* row = scores + i * n_k;
        std::size_t j = 0;
        for (; j + 4 <= visible; j += 4) {
            const float* kj = k + j * d;
            sequential_dots4(qi, kj, kj + d, kj + 2 * d, kj + 3 * d, d, row + j);
            for (std::size_t r = 0; r < 4; ++r) row[j + r] = scale * row[j + r];
        }
        for (; j < visible; ++j) row[j] = scale * dot(qi, k + j * d, d);
        for (; j < n_k; ++j) row[j] = minus_infinity;
    }
#endif
}

namespace {
// What softmax needs to know about a row before its exp pass, from one read of it: the maximum
// (the shift), the minimum (whether every shifted score is inside exp_in_range's domain) and
// whether the row is free of NaN and ±∞ (the float sum of its scores is finite; a sum that merely
// overflows sends a row of huge logits to the general path, which is correct for any row).
struct RowScan {
    float max, min;
    bool finite;
};

RowScan scan_row(const float* row, std::size_t count) {
    float m = -std::numeric_limits<float>::infinity();
    float lo = std::numeric_limits<float>::infinity();
    float sum = 0.0f;
    std::size_t j = 0;
#if POSENC_SIMD
    if (count >= kLanes) {
        // Four independent maxima: one max per batch would chain on the max latency. Minimum and
        // sum take one operation per batch each, as pairs reduced before they meet the accumulator.
        Batch acc0 = load(row), acc1 = acc0, acc2 = acc0, acc3 = acc0;
        Batch low = acc0, total = acc0;
        for (j = kLanes; j + 4 * kLanes <= count; j += 4 * kLanes) {
            const Batch x0 = load(row + j), x1 = load(row + j + kLanes), x2 = load(row + j + 2 * kLanes),
                        x3 = load(row + j + 3 * kLanes);
            acc0 = max_of(acc0, x0);
            acc1 = max_of(acc1, x1);
            acc2 = max_of(acc2, x2);
            acc3 = max_of(acc3, x3);
            low = min_of(low, min_of(min_of(x0, x1), min_of(x2, x3)));
            total = total + ((x0 + x1) + (x2 + x3));
        }
        for (; j + kLanes <= count; j += kLanes) {
            const Batch x = load(row + j);
            acc0 = max_of(acc0, x);
            low = min_of(low, x);
            total = total + x;
        }
        alignas(64) float lanes[kLanes];
        store(lanes, max_of(max_of(acc0, acc1), max_of(acc2, acc3)));
        for (float lane : lanes) m = max_of(m, lane);
        store(lanes, low);
        for (float lane : lanes) lo = min_of(lo, lane);
        sum = sum_lanes(total);
    }
#endif
    POSENC_SCALAR_TAIL
    for (; j < count; ++j) {
        m = max_of(m, row[j]);
        lo = min_of(lo, row[j]);
        sum = sum + row[j];
    }
    return {m, lo, std::isfinite(sum)};
}

// out[j] = exp(row[j] − shift); returns Σ out[j]. InRange: every row[j] − shift is known to lie in
// [kExpInRangeLowest, 0] (the row's spread is under 87), so exp needs no clamp or flush.
// known: out[0, known) already holds those exps (a whole number of kExpStep columns), which are
// summed as the loop would sum them and not computed again.
// noinline: big inlined math in long loops is what stalls clang 14 under -msimd128 (for tens of
// minutes on one file). (Binaryen may still inline the compiled function into its one caller at
// link time; that keeps clang's instruction order.)
template <bool InRange>
__attribute__((noinline)) float exp_shifted(const float* row, std::size_t count, float shift, float* out,
                                            std::size_t known = 0) {
    std::size_t j = 0;
    float sum = 0.0f;
#if POSENC_SIMD
    // Four batches per step: exp is a ~20-deep dependency chain, and independent chains side by
    // side keep the multiply and add units busy (one chain at a time leaves them waiting). One
    // accumulator, fed a pairwise sum of the four: with four, V8 kept them in stack slots and
    // clang 14 emitted the chains one after the other (measured side by side in Node: 22% slower).
    const Batch s(shift);
    Batch acc(0.0f);
    if constexpr (InRange) {
        for (; j < known; j += 4 * kLanes) {
            acc = acc + ((load(out + j) + load(out + j + kLanes)) +
                         (load(out + j + 2 * kLanes) + load(out + j + 3 * kLanes)));
        }
    }
    for (; j + 4 * kLanes <= count; j += 4 * kLanes) {
        Batch e[4] = {load(row + j) - s, load(row + j + kLanes) - s, load(row + j + 2 * kLanes) - s,
                      load(row + j + 3 * kLanes) - s};
        if constexpr (InRange) {
            fastmath::exp_in_range_n<Batch, IntBatch, 4>(e);
        } else {
            fastmath::exp_nonpositive_n<Batch, IntBatch, 4>(e);
        }
        store(out + j, e[0]);
        store(out + j + kLanes, e[1]);
        store(out + j + 2 * kLanes, e[2]);
        store(out + j + 3 * kLanes, e[3]);
        acc = acc + ((e[0] + e[1]) + (e[2] + e[3]));
    }
    for (; j + kLanes <= count; j += kLanes) {
        const Batch x = load(row + j) - s;
        const Batch e = InRange ? fastmath::exp_in_range<Batch, IntBatch>(x) : fastmath::exp_nonpositive<Batch, IntBatch>(x);
        store(out + j, e);
        acc = acc + e;
    }
    sum = sum_lanes(acc);
#endif
    POSENC_SCALAR_TAIL
    for (; InRange && j < known; ++j) sum = sum + out[j];  // the scalar build's known columns
    POSENC_SCALAR_TAIL
    for (; j < count; ++j) {
        const float x = row[j] - shift;
        const float e = InRange ? fastmath::exp_in_range<float, std::int32_t>(x)
                                : fastmath::exp_nonpositive<float, std::int32_t>(x);
        out[j] = e;
        sum = sum + e;
    }
    return sum;
}

// Softmax's limit for a row whose largest score overflowed to +∞ (the +∞ entries share the
// mass) or whose scores are all −∞ (uniform), where max subtraction would produce ∞ − ∞ = NaN.
void infinite_row_limit(const float* row, std::size_t count, float m, float* out) {
    std::size_t winners = 0;
    for (std::size_t j = 0; j < count; ++j) winners += row[j] == m;
    for (std::size_t j = 0; j < count; ++j) out[j] = row[j] == m ? 1.0f / static_cast<float>(winners) : 0.0f;
}

// out += a · x
void add_scaled(float* out, const float* x, float a, std::size_t count) {
    std::size_t j = 0;
#if POSENC_SIMD
    for (; j + kLanes <= count; j += kLanes) store(out + j, load(out + j) + Batch(a) * load(x + j));
#endif
    POSENC_SCALAR_TAIL
    for (; j < count; ++j) out[j] = out[j] + a * x[j];
}

// out[j] = x[j] · factor (in place when out == x).
void scale_row(const float* x, std::size_t count, float factor, float* out) {
    std::size_t j = 0;
#if POSENC_SIMD
    for (; j + kLanes <= count; j += kLanes) store(out + j, load(x + j) * Batch(factor));
#endif
    POSENC_SCALAR_TAIL
    for (; j < count; ++j) out[j] = x[j] * factor;
}

// Columns exp_shifted takes a step at a time: only whole steps can be known.
#if POSENC_SIMD
constexpr std::size_t kExpStep = 4 * kLanes;
#else
constexpr std::size_t kExpStep = 1;
#endif

// One softmax row: out[0, visible) from row[0, visible) (out may be row), the exps made in `exps`
// (out itself, or a row the caller keeps). known_shift: when not null, exps[0, known) hold the exps
// of these scores under that shift, which are used if this row's shift is the same. → the shift
// (NaN for a row that took the infinite limit and left no exps).
// noinline: one copy for both callers (the element's bundles count every byte of the core).
__attribute__((noinline)) float softmax_row(const float* row, std::size_t visible, float* exps, float* out,
                                            std::size_t known, const float* known_shift) {
    const RowScan scan = scan_row(row, visible);
    const float m = scan.max;
    if (std::isinf(m)) {
        infinite_row_limit(row, visible, m, out);
        return std::numeric_limits<float>::quiet_NaN();
    }
    // In range: row[j] − m ≥ min − m ≥ kExpInRangeLowest, rounding being monotonic. Both
    // paths give the same bits there; the general one also takes −∞, NaN and wide rows. So exps
    // known from a row on either path are this row's bits when it is in range and its shift the same.
    const bool in_range = scan.finite && scan.min - m >= fastmath::kExpInRangeLowest;
    const bool reuse = in_range && known_shift != nullptr && to_bits(*known_shift) == to_bits(m);
    const std::size_t whole = reuse ? (known < visible ? known : visible) / kExpStep * kExpStep : 0;
    const float sum =
        in_range ? exp_shifted<true>(row, visible, m, exps, whole) : exp_shifted<false>(row, visible, m, exps);
    scale_row(exps, visible, 1.0f / sum, out);
    return m;
}
}  // namespace

void softmax_rows(const float* scores, std::size_t n_q, std::size_t n_k, bool causal, float* weights) {
    for (std::size_t i = 0; i < n_q; ++i) {
        const std::size_t visible = causal ? (i + 1 < n_k ? i + 1 : n_k) : n_k;
        float* out = weights + i * n_k;
        softmax_row(scores + i * n_k, visible, out, out, 0, nullptr);
        for (std::size_t j = visible; j < n_k; ++j) out[j] = 0.0f;
    }
}

bool softmax_rows_finite(const float* weights, std::size_t rows, std::size_t n_k) {
    for (std::size_t i = 0; i < rows; ++i) {
        if (!std::isfinite(weights[i * n_k])) return false;
    }
    return true;
}

POSENC_COLD void softmax_rows_kept(const float* scores, std::size_t n, bool causal, std::size_t kept, float* exps,
                                   float* shifts, float* weights) {
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t visible = causal ? i + 1 : n;
        float* out = weights + i * n;
        const float last_shift = i < kept ? shifts[i] : 0.0f;
        shifts[i] = softmax_row(scores + i * n, visible, exps + i * n, out, kept, i < kept ? &last_shift : nullptr);
        for (std::size_t j = visible; j < n; ++j) out[j] = 0.0f;
    }
}

#if POSENC_SIMD
namespace {
// Columns [c, c + Cols·kLanes) of output rows i and i + 1 (Rows = 2) or row i alone (Rows = 1):
// Rows × Cols accumulators stay in registers across all keys, so each key costs Cols loads of v,
// Rows broadcasts of a weight and Rows·Cols multiply-adds, and nothing is stored until the end.
// Row r reads keys [0, visible[r]); the rows' shared prefix runs in one loop.
template <std::size_t Rows, std::size_t Cols>
inline void weighted_block(const float* w, std::size_t n_k, const float* v, std::size_t d, std::size_t c,
                           const std::size_t* visible, float* out) {
    Batch acc[Rows][Cols];
    for (std::size_t r = 0; r < Rows; ++r)
        for (std::size_t b = 0; b < Cols; ++b) acc[r][b] = Batch(0.0f);
    const std::size_t shared = Rows == 2 && visible[1] < visible[0] ? visible[1] : visible[0];
    std::size_t j = 0;
    for (; j < shared; ++j) {
        const float* vj = v + j * d + c;
        Batch vb[Cols];
        for (std::size_t b = 0; b < Cols; ++b) vb[b] = load(vj + b * kLanes);
        for (std::size_t r = 0; r < Rows; ++r) {
            const Batch a(w[r * n_k + j]);
            for (std::size_t b = 0; b < Cols; ++b) acc[r][b] = acc[r][b] + a * vb[b];
        }
    }
    // Causal pairs: the longer row finishes alone.
    for (std::size_t r = 0; r < Rows; ++r) {
        for (std::size_t jj = j; jj < visible[r]; ++jj) {
            const Batch a(w[r * n_k + jj]);
            const float* vj = v + jj * d + c;
            for (std::size_t b = 0; b < Cols; ++b) acc[r][b] = acc[r][b] + a * load(vj + b * kLanes);
        }
    }
    for (std::size_t r = 0; r < Rows; ++r)
        for (std::size_t b = 0; b < Cols; ++b) store(out + r * d + c + b * kLanes, acc[r][b]);
}

template <std::size_t Rows>
void weighted_rows(const float* w, const float* v, std::size_t n_k, std::size_t d, const std::size_t* visible,
                   float* out) {
    constexpr std::size_t kCols = 4;
    std::size_t c = 0;
    for (; c + kCols * kLanes <= d; c += kCols * kLanes) weighted_block<Rows, kCols>(w, n_k, v, d, c, visible, out);
    for (; c + kLanes <= d; c += kLanes) weighted_block<Rows, 1>(w, n_k, v, d, c, visible, out);
    for (; c < d; ++c) {
        for (std::size_t r = 0; r < Rows; ++r) {
            float acc = 0.0f;
            for (std::size_t j = 0; j < visible[r]; ++j) acc = acc + w[r * n_k + j] * v[j * d + c];
            out[r * d + c] = acc;
        }
    }
}
}  // namespace
#endif

void weighted_sum(const float* weights, const float* v, std::size_t n_q, std::size_t n_k,
                  std::size_t d, bool causal, float* output) {
    std::size_t i = 0;
#if POSENC_SIMD
    for (; i + 2 <= n_q; i += 2) {
        const std::size_t visible[2] = {causal ? (i + 1 < n_k ? i + 1 : n_k) : n_k,
                                        causal ? (i + 2 < n_k ? i + 2 : n_k) : n_k};
        weighted_rows<2>(weights + i * n_k, v, n_k, d, visible, output + i * d);
    }
    for (; i < n_q; ++i) {
        const std::size_t visible[1] = {causal ? (i + 1 < n_k ? i + 1 : n_k) : n_k};
        weighted_rows<1>(weights + i * n_k, v, n_k, d, visible, output + i * d);
    }
#endif
    POSENC_SCALAR_TAIL
    for (; i < n_q; ++i) {
        const std::size_t visible = causal ? (i + 1 < n_k ? i + 1 : n_k) : n_k;
        const float* w = weights + i * n_k;
        float* out = output + i * d;
        // Row by row (out += w_j·v_j): v is read in order, as the SIMD blocks read it.
        for (std::size_t c = 0; c < d; ++c) out[c] = 0.0f;
        for (std::size_t j = 0; j < visible; ++j) add_scaled(out, v + j * d, w[j], d);
    }
}

void attention(const float* q, const float* k, const float* v, std::size_t n, std::size_t d,
               float scale, bool causal, float* weights, float* output) {
    attention_scores(q, k, n, n, d, scale, causal, weights);
    softmax_rows(weights, n, n, causal, weights);
    weighted_sum(weights, v, n, n, d, causal, output);
}

void project(const float* x, std::size_t n, std::size_t d_in, const float* w, std::size_t d_out,
             float* out) {
    for (std::size_t i = 0; i < n; ++i) {
        float* row = out + i * d_out;
        for (std::size_t c = 0; c < d_out; ++c) row[c] = 0.0f;
        for (std::size_t r = 0; r < d_in; ++r) {
            add_scaled(row, w + r * d_out, x[i * d_in + r], d_out);
        }
    }
}

}  // namespace posenc
