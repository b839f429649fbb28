// Matrix products, fills and measures behind compare()'s lanes: row-major float matrices, pointers and
// sizes, caller-owned outputs (a std::vector argument is resized by the callee, and a pack
// buffer grows once and is reused).
//
// Shapes (n rows, d columns read per row, stride the distance between rows, ≥ d):
//   x, a, b     — n×d rows at `stride` (a leading block of wider rows is allowed)
//   out, m      — n×n row-major (out_stride between rows where given)
//   terms       — four n×n blocks (count = n·n entries each); logit_terms': [a·a, a·b, b·a, b·b]·scale
//                 for q = q_a + q_b, k = k_a + k_b
//   by_offset   — 2n − 1 entries, index j − i + n − 1: a value that depends on key − query only
//   rows, step  — an n×n operand given by row: row i starts at rows + i·step (step = n: a matrix;
//                 step = −1 from by_offset + n − 1: row i is by_offset[n − 1 − i …], key − query)
// Every product is the same float products summed in the same order as attention_scores'
// (c = 0 … d − 1, one scale multiply), so a product made in pieces (row reuse) or by symmetry
// is bit-identical to the whole one.
#pragma once

#include <cstddef>
#include <vector>

namespace posenc {

// out = terms[0] + terms[1] + terms[2] + terms[3] (four blocks of count entries each).
void sum_terms(const float* terms, std::size_t count, float* out);

// out (n×n) = sum_terms of the four terms a·m, c, cᵀ and p (given by rows, step), bit for bit,
// without forming them: out[i][j] = ((a·m[i][j] + c[i][j]) + c[j][i]) + p_i[j]. c null: both
// middle terms are +0, which leaves the sum's bits alone wherever p holds no −0. out aliases
// none of the sources. keep > 0: out's leading keep×keep block already holds those sums (the last
// call's, kept by the caller from the same leading rows) and is left as it is.
void sum_identity_terms(const float* m, float a, const float* c, const float* p_rows, std::ptrdiff_t p_step,
                        std::size_t n, std::size_t keep, float* out);

// One product scale·a·bᵀ given by its rows (n rows of d floats at `stride` each side; a == b: a
// gram) rather than as a whole n×n matrix.
struct RowProduct {
    const float* a;
    const float* b;
    std::size_t d, stride;
    float scale;
};

// sum_identity_terms(m, a, c, p_rows, p_step, n, keep, out) for keep > 0 (row reuse: keep, n ≥ 4),
// with m = m_rows' product (a gram, so symmetric bit for bit) and c = c_rows' product (c_rows.a
// null: no cross terms), made from their rows: only rows [keep, n) of m, c and cᵀ are formed,
// in blocks of up to 16 rows in scratch (3·16·n floats), and rows [0, keep)'s new columns are
// read from them by symmetry. No n×n product is kept or touched, only out's new rows and columns:
// a typed key's one row and column of each. The same entries bit for bit (score_region's
// products, sum_identity_terms' order of adds).
void sum_identity_region(RowProduct m_rows, float a, RowProduct c_rows, const float* p_rows, std::ptrdiff_t p_step,
                         std::size_t n, std::size_t keep, std::vector<float>& scratch, std::vector<float>& pack,
                         float* out);

// out (n×n) = scale·x·xᵀ, bit-symmetric (the upper triangle computed, the lower copied).
void gram(const float* x, std::size_t n, std::size_t d, std::size_t stride, float scale, std::vector<float>& pack,
          float* out);

// out (n×n) = inᵀ (n×n).
void transpose(const float* in, std::size_t n, float* out);

// m (old_n×old_n) → n×n keeping its block [0, keep)²; the rest is left for the caller.
void restride(std::vector<float>& m, std::size_t old_n, std::size_t keep, std::size_t n);

// out[i][j] = scale·a_i·b_j for i in [i0, i1), j in [j0, j1) (transposed: stored at out[j][i]).
void score_region(const float* a, const float* b, std::size_t stride, std::size_t d, std::size_t i0, std::size_t i1,
                  std::size_t j0, std::size_t j1, float scale, std::vector<float>& pack, float* out,
                  std::size_t out_stride, bool transposed = false);

// m (n×n) = scale·a·bᵀ, keeping the entries among rows [0, keep) of the previous m (old_n×old_n).
void refresh_product(const float* a, const float* b, std::size_t n, std::size_t d, std::size_t stride, float scale,
                     std::size_t keep, std::size_t old_n, std::vector<float>& pack, std::vector<float>& m);

// out = alpha·e over count values.
void scale_into(float alpha, const float* e, std::size_t count, float* out);

// out[i][j] = by_offset[j − i + n − 1] (n×n); with accumulate, added to out instead.
void fill_by_offset(const float* by_offset, std::size_t n, bool accumulate, float* out);

// The four n×n terms of (q_a + q_b)·(k_a + k_b)ᵀ·scale; all inputs n×d. When the queries are
// the keys (same pointers, W = I) the third term is the transpose of the second and is copied.
void logit_terms(const float* q_a, const float* q_b, const float* k_a, const float* k_b,
                 std::size_t n, std::size_t d, float scale, float* terms);

// Largest |m[i]| over count values: 0 for none, NaN entries skipped, ±∞ counted (what a
// symmetric colour scale needs).
float max_abs(const float* m, std::size_t count);

// Whether every one of count values is finite (no ±∞, no NaN).
bool all_finite(const float* m, std::size_t count);

}  // namespace posenc
