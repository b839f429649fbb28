#include "attention/products.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "attention/attention.hpp"
#include "base/cold.hpp"
#include "encodings/encodings.hpp"
#include "attention/packed_scores.hpp"
#include "base/simd.hpp"

namespace posenc {

// out = terms[0] + terms[1] + terms[2] + terms[3] (four n×n blocks of count entries each).
__attribute__((noinline)) void sum_terms(const float* terms, std::size_t count, float* out) {
    for (std::size_t i = 0; i < count; ++i) {
        out[i] = ((terms[i] + terms[count + i]) + terms[2 * count + i]) + terms[3 * count + i];
    }
}

// In passes over out, each adding one term in sum_terms' order (add_encoding's 1·x is exact).
// Without c, the two +0 adds are left out: they change nothing unless term 0 is −0 and term 3
// is −0 too (−0 + −0 is −0, where (−0 + 0 + 0) + −0 is +0). The one lane without cross terms,
// concatenated, has sinusoidal position terms, which never are: a double sum from +0 (which
// never reads −0) times a positive scale. With keep > 0 only the entries outside the leading
// keep×keep block are made, row by row in the same order (the few new rows and columns of a
// key: cᵀ's column reads are short there).
__attribute__((noinline)) void sum_identity_terms(const float* m, float a, const float* c, const float* p_rows,
                                                  std::ptrdiff_t p_step, std::size_t n, std::size_t keep, float* out) {
    const std::size_t nn = n * n;
    if (keep > 0) {
        for (std::size_t i = 0; i < n; ++i) {
            const std::size_t from = i < keep ? keep : 0, at = i * n + from, count = n - from;
            if (c) {
                add_encoding(m + at, a, c + at, count, out + at);
                for (std::size_t j = from; j < n; ++j) out[i * n + j] = out[i * n + j] + c[j * n + i];
            } else {
                scale_into(a, m + at, count, out + at);
            }
            add_encoding(out + at, 1.0f, p_rows + static_cast<std::ptrdiff_t>(i) * p_step + static_cast<std::ptrdiff_t>(from),
                         count, out + at);
        }
        return;
    }
    if (c) {
        add_encoding(m, a, c, nn, out);
        // out[i][j] += c[j][i], in 16×16 tiles so the column reads stay in cache.
        constexpr std::size_t kTile = 16;
        for (std::size_t i0 = 0; i0 < n; i0 += kTile) {
            for (std::size_t j0 = 0; j0 < n; j0 += kTile) {
                for (std::size_t i = i0; i < std::min(n, i0 + kTile); ++i)
                    for (std::size_t j = j0; j < std::min(n, j0 + kTile); ++j) out[i * n + j] = out[i * n + j] + c[j * n + i];
            }
        }
    } else {
        scale_into(a, m, nn, out);
    }
    for (std::size_t i = 0; i < n; ++i) {
        float* row = out + i * n;
        add_encoding(row, 1.0f, p_rows + static_cast<std::ptrdiff_t>(i) * p_step, n, row);
    }
}

// Rows [r0, r1) of m, c and cᵀ into the block's scratch (score_region with the row pointers
// moved to r0: row r of each block is token r0 + r), then out's rows r0 … r1 − 1 in full and
// their columns in the kept rows, each entry summed as sum_identity_terms sums it:
// ((a·m[i][j] + c[i][j]) + c[j][i]) + p_i[j], where for a kept row i and a new column j
// m[i][j] = m[j][i] (a gram is bit-symmetric), c[i][j] = cᵀ[j][i] and c[j][i] is row j of c.
void sum_identity_region(RowProduct m_rows, float a, RowProduct c_rows, const float* p_rows, std::ptrdiff_t p_step,
                         std::size_t n, std::size_t keep, std::vector<float>& scratch, std::vector<float>& pack,
                         float* out) {
    constexpr std::size_t kBlock = 16;
    const bool cross = c_rows.a != nullptr;
    if (scratch.size() < 3 * kBlock * n) scratch.resize(3 * kBlock * n);
    const auto p_row = [&](std::size_t i) { return p_rows + static_cast<std::ptrdiff_t>(i) * p_step; };
    for (std::size_t r0 = keep; r0 < n; r0 += kBlock) {
        const std::size_t rows = std::min(kBlock, n - r0);
        float* m = scratch.data();  // rows×n each: m[r0 + r][·], c[r0 + r][·], c[·][r0 + r]
        float* c = m + rows * n;
        float* ct = c + rows * n;
        score_region(m_rows.a + r0 * m_rows.stride, m_rows.b, m_rows.stride, m_rows.d, 0, rows, 0, n, m_rows.scale,
                     pack, m, n);
        if (cross) {
            score_region(c_rows.a + r0 * c_rows.stride, c_rows.b, c_rows.stride, c_rows.d, 0, rows, 0, n, c_rows.scale,
                         pack, c, n);
            score_region(c_rows.b + r0 * c_rows.stride, c_rows.a, c_rows.stride, c_rows.d, 0, rows, 0, n, c_rows.scale,
                         pack, ct, n);
        }
        for (std::size_t r = 0; r < rows; ++r) {
            float* row = out + (r0 + r) * n;
            if (cross) {
                add_encoding(m + r * n, a, c + r * n, n, row);
                add_encoding(row, 1.0f, ct + r * n, n, row);  // 1·x is exact: row + c[j][i]
            } else {
                scale_into(a, m + r * n, n, row);
            }
            add_encoding(row, 1.0f, p_row(r0 + r), n, row);
        }
        for (std::size_t i = 0; i < keep; ++i) {
            const float* p = p_row(i);
            float* row = out + i * n;
            for (std::size_t r = 0; r < rows; ++r) {
                const std::size_t j = r0 + r;
                float v = a * m[r * n + i];
                if (cross) v = (v + ct[r * n + i]) + c[r * n + i];
                row[j] = v + p[j];
            }
        }
    }
}

// out (n×n) = scale·x·xᵀ for x with n rows of d floats at row stride `stride` (a leading block
// of wider rows is allowed). x·xᵀ is symmetric: only blocks touching the upper triangle are
// computed (≈ n²/2 products instead of n²) and the lower triangle is copied from the upper, so
// out is bit-symmetric. Entries are attention_scores(x, x, …) bit for bit: the same products
// summed in the same order with one scale multiply (n < 4 rows in the SIMD build: its own call).
// pack grows once and is reused.
__attribute__((noinline)) void gram(const float* x, std::size_t n, std::size_t d, std::size_t stride, float scale,
                                    std::vector<float>& pack, float* out) {
#if POSENC_SIMD
    constexpr std::size_t kRows = packed::kQueryRows, kKeys = packed::kKeyBlock;
    if (n < kRows && stride == d) {
        // Nothing to halve with one block row; attention_scores' own path for so few rows.
        attention_scores(x, x, n, n, d, scale, false, out);
        return;
    }
    const std::size_t padded = (n + kKeys - 1) / kKeys * kKeys;
    if (pack.size() < padded * d) pack.resize(padded * d);
    // Rows past n are zeros in the panels (computed, never stored).
    packed::pack_keys(x, stride, 0, n, d, pack.data());
    for (std::size_t i0 = 0; i0 < n; i0 += kRows) {
        const std::size_t rows = n - i0 < kRows ? n - i0 : kRows;
        // From the key block holding the diagonal: entries left of it lie in the lower triangle.
        for (std::size_t j0 = i0 / kKeys * kKeys; j0 < n; j0 += kKeys) {
            const std::size_t columns = n - j0 < kKeys ? n - j0 : kKeys;
            const float* panels = pack.data() + j0 * d;
            float* o = out + i0 * n + j0;
            packed::score_rows(x + i0 * stride, stride, rows, d, panels, scale, o, n, columns);
        }
    }
#else
    (void)pack;
    for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t j = i; j < n; ++j) {
            float sum = 0.0f;
            for (std::size_t c = 0; c < d; ++c) sum = sum + x[i * stride + c] * x[j * stride + c];
            out[i * n + j] = scale * sum;
        }
    }
#endif
    // Lower triangle from the upper, in 16×16 tiles so the column reads stay in cache.
    constexpr std::size_t kTile = 16;
    for (std::size_t i0 = 0; i0 < n; i0 += kTile) {
        const std::size_t i1 = std::min(n, i0 + kTile);
        for (std::size_t j0 = 0; j0 <= i0; j0 += kTile) {
            for (std::size_t i = i0; i < i1; ++i) {
                const std::size_t j1 = std::min(i, j0 + kTile);
                for (std::size_t j = j0; j < j1; ++j) out[i * n + j] = out[j * n + i];
            }
        }
    }
}

// out (n×n) = the transpose of in (n×n), in 16×16 tiles so the column reads stay in cache.
__attribute__((noinline)) void transpose(const float* in, std::size_t n, float* out) {
    constexpr std::size_t kTile = 16;
    for (std::size_t i0 = 0; i0 < n; i0 += kTile) {
        const std::size_t i1 = std::min(n, i0 + kTile);
        for (std::size_t j0 = 0; j0 < n; j0 += kTile) {
            const std::size_t j1 = std::min(n, j0 + kTile);
            for (std::size_t i = i0; i < i1; ++i)
                for (std::size_t j = j0; j < j1; ++j) out[i * n + j] = in[j * n + i];
        }
    }
}

// m (old_n×old_n) → n×n with its block [0, keep)² in place (keep ≤ min(old_n, n)); the other
// entries are left unspecified for the caller to compute. Rows move towards the end when n grows
// (last row first) and towards the start when it shrinks, so no row overwrites one still to move.
// At the same n (a changed last word: most keys) every row is already in place and none moves.
void restride(std::vector<float>& m, std::size_t old_n, std::size_t keep, std::size_t n) {
    if (n == old_n) {
        m.resize(n * n);
    } else if (n > old_n) {
        m.resize(n * n);
        for (std::size_t i = keep; i-- > 0;) std::memmove(m.data() + i * n, m.data() + i * old_n, keep * sizeof(float));
    } else {
        for (std::size_t i = 0; i < keep; ++i) std::memmove(m.data() + i * n, m.data() + i * old_n, keep * sizeof(float));
        m.resize(n * n);
    }
}

// out[i][j] = scale·a_i·b_j for i in [i0, i1), j in [j0, j1) (rows of d floats at `stride`; out
// at row stride out_stride; transposed: stored at out[j][i] instead): attention_scores' and
// gram's entries bit for bit for n ≥ 4 rows (the same packed micro-kernel, sums in order
// c = 0 … d − 1, one scale multiply; a_i[c]·b_j[c] = b_j[c]·a_i[c], so either side may be the
// packed one).
__attribute__((noinline)) void score_region(const float* a, const float* b, std::size_t stride, std::size_t d,
                                            std::size_t i0, std::size_t i1, std::size_t j0, std::size_t j1,
                                            float scale, std::vector<float>& pack, float* out, std::size_t out_stride,
                                            bool transposed) {
    if (i0 >= i1 || j0 >= j1) return;
#if POSENC_SIMD
    constexpr std::size_t kRows = packed::kQueryRows, kKeys = packed::kKeyBlock;
    if (i1 - i0 < kRows) {
        // A row or two (a token typed): packing every key would cost more than the products.
        // Plain float sums in the kernel's order, four keys at a time.
        for (std::size_t i = i0; i < i1; ++i) {
            const float* q = a + i * stride;
            std::size_t j = j0;
            for (; j + 4 <= j1; j += 4) {
                const float* k0 = b + j * stride;
                float sums[4];
                sequential_dots4(q, k0, k0 + stride, k0 + 2 * stride, k0 + 3 * stride, d, sums);
                for (std::size_t t = 0; t < 4; ++t) {
                    out[transposed ? (j + t) * out_stride + i : i * out_stride + j + t] = scale * sums[t];
                }
            }
            for (; j < j1; ++j) {
                float sum = 0.0f;
                for (std::size_t c = 0; c < d; ++c) sum = sum + q[c] * b[j * stride + c];
                out[transposed ? j * out_stride + i : i * out_stride + j] = scale * sum;
            }
        }
        return;
    }
    const std::size_t count = j1 - j0;
    const std::size_t padded = (count + kKeys - 1) / kKeys * kKeys;
    if (pack.size() < padded * d) pack.resize(padded * d);
    packed::pack_keys(b, stride, j0, count, d, pack.data());
    alignas(16) float block[kRows * kKeys];
    for (std::size_t i = i0; i < i1; i += kRows) {
        const std::size_t rows = i1 - i < kRows ? i1 - i : kRows;
        for (std::size_t kb = 0; kb < count; kb += kKeys) {
            const std::size_t columns = count - kb < kKeys ? count - kb : kKeys;
            const float* panels = pack.data() + kb * d;
            float* o = transposed ? block : out + i * out_stride + j0 + kb;
            const std::size_t o_stride = transposed ? kKeys : out_stride;
            packed::score_rows(a + i * stride, stride, rows, d, panels, scale, o, o_stride, columns);
            if (transposed) {
                for (std::size_t r = 0; r < rows; ++r)
                    for (std::size_t c = 0; c < columns; ++c) out[(j0 + kb + c) * out_stride + i + r] = block[r * kKeys + c];
            }
        }
    }
#else
    (void)pack;
    for (std::size_t i = i0; i < i1; ++i) {
        for (std::size_t j = j0; j < j1; ++j) {
            float sum = 0.0f;
            for (std::size_t c = 0; c < d; ++c) sum = sum + a[i * stride + c] * b[j * stride + c];
            out[transposed ? j * out_stride + i : i * out_stride + j] = scale * sum;
        }
    }
#endif
}

// m (n×n) = scale·a·bᵀ (a == b: the symmetric gram; otherwise stride must be d), keeping the
// entries among rows [0, keep) of the previous m (old_n×old_n, made from the same leading rows).
// keep = 0 computes everything; row reuse needs n, old_n ≥ 4 (below that the SIMD kernels take
// a path with another summation order).
void refresh_product(const float* a, const float* b, std::size_t n, std::size_t d, std::size_t stride, float scale,
                     std::size_t keep, std::size_t old_n, std::vector<float>& pack, std::vector<float>& m) {
    const bool symmetric = a == b;
    if (keep == 0) {
        m.resize(n * n);
        if (symmetric) {
            gram(a, n, d, stride, scale, pack, m.data());
        } else {
            attention_scores(a, b, n, n, d, scale, false, m.data());
        }
        return;
    }
    restride(m, old_n, keep, n);
    score_region(a, b, stride, d, keep, n, 0, n, scale, pack, m.data(), n);
    if (symmetric) {
        for (std::size_t i = keep; i < n; ++i)
            for (std::size_t j = 0; j < keep; ++j) m[j * n + i] = m[i * n + j];
    } else {
        // Rows [0, keep) × columns [keep, n), usually one column: computed with the new rows of b
        // as the queries, so the kernel packs the many old rows of a instead of padding one key.
        score_region(b, a, stride, d, keep, n, 0, keep, scale, pack, m.data(), n, true);
    }
}

// out = alpha·e over count values (also scale·dots: attention_scores' final multiply).
__attribute__((noinline)) void scale_into(float alpha, const float* e, std::size_t count, float* out) {
    std::size_t i = 0;
#if POSENC_SIMD
    for (; i + kLanes <= count; i += kLanes) store(out + i, Batch(alpha) * load(e + i));
#endif
    POSENC_SCALAR_TAIL
    for (; i < count; ++i) out[i] = alpha * e[i];
}

// out[i][j] = by_offset[j − i + n − 1] (n×n): a bias that depends on j − i only (ALiBi, T5) is
// a row-by-row copy of a (2n − 1)-entry table. With accumulate, added to out instead.
POSENC_COLD void fill_by_offset(const float* by_offset, std::size_t n, bool accumulate, float* out) {
    for (std::size_t i = 0; i < n; ++i) {
        const float* from = by_offset + (n - 1 - i);
        float* row = out + i * n;
        if (accumulate) {
            add_encoding(row, 1.0f, from, n, row);  // 1·x is exact: row + from, one rounding
        } else {
            std::memcpy(row, from, n * sizeof(float));
        }
    }
}

void logit_terms(const float* q_a, const float* q_b, const float* k_a, const float* k_b,
                 std::size_t n, std::size_t d, float scale, float* terms) {
    const std::size_t nn = n * n;
    attention_scores(q_a, k_a, n, n, d, scale, false, terms);
    attention_scores(q_a, k_b, n, n, d, scale, false, terms + nn);
    if (q_a == k_a && q_b == k_b) {
        // Queries are the keys (W = I): b·aᵀ is the transpose of a·bᵀ, bit for bit, since every
        // score sums the same products in the same order; copy instead of a third product.
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = 0; j < n; ++j) terms[2 * nn + i * n + j] = terms[nn + j * n + i];
    } else {
        attention_scores(q_b, k_a, n, n, d, scale, false, terms + 2 * nn);
    }
    attention_scores(q_b, k_b, n, n, d, scale, false, terms + 3 * nn);
}

float max_abs(const float* m, std::size_t count) {
    // |x| > best keeps best for NaN and max is exact, so lanes and order change nothing.
    float best = 0.0f;
    std::size_t i = 0;
#if POSENC_SIMD
    Batch lanes(0.0f);
    for (; i + kLanes <= count; i += kLanes) lanes = max_of(xsimd::abs(load(m + i)), lanes);
    alignas(64) float parts[kLanes];
    store(parts, lanes);
    for (float part : parts) best = max_of(part, best);
#endif
    POSENC_SCALAR_TAIL
    for (; i < count; ++i) best = max_of(std::fabs(m[i]), best);
    return best;
}

// x·0 is ±0 for a finite x and NaN for ±∞ or NaN, and a NaN stays in the running sum: a multiply
// and an add a value, no branch.
bool all_finite(const float* m, std::size_t count) {
    float sum = 0.0f;
    std::size_t i = 0;
#if POSENC_SIMD
    Batch lanes(0.0f);
    for (; i + kLanes <= count; i += kLanes) lanes = lanes + load(m + i) * Batch(0.0f);
    sum = sum_lanes(lanes);
#endif
    POSENC_SCALAR_TAIL
    for (; i < count; ++i) sum = sum + m[i] * 0.0f;
    return sum == sum;
}

}  // namespace posenc
