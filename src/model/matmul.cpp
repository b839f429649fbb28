#include "model/matmul.hpp"

#include "base/simd.hpp"

namespace posenc::model {

namespace {

#if POSENC_SIMD
// Rows × (Cols·kLanes) elements of C in Rows·Cols accumulators, loop over k: one broadcast of
// A(m, k) per row, Cols loads of B's row k. Rows = 4, Cols = 2 (8 accumulators, 2 loads, 1
// broadcast): the best of 4×3, 3×3 and 4×2 in Node 20 (a training step at the benchmark size,
// best of 40: 4×2 33 ms, 3×3 37 ms, 4×3 39 ms; 4×3's 16 live registers spill in V8).
template <std::size_t Rows, std::size_t Cols>
inline void block(std::size_t K, const float* a, std::size_t a_row, std::size_t a_col, const float* b,
                  std::size_t ldb, float* c, std::size_t ldc, bool accumulate) {
    Batch acc[Rows][Cols];
    for (std::size_t r = 0; r < Rows; ++r)
        for (std::size_t j = 0; j < Cols; ++j) acc[r][j] = Batch(0.0f);
    for (std::size_t k = 0; k < K; ++k) {
        Batch bk[Cols];
        for (std::size_t j = 0; j < Cols; ++j) bk[j] = load(b + k * ldb + j * kLanes);
        for (std::size_t r = 0; r < Rows; ++r) {
            const Batch ar(a[r * a_row + k * a_col]);
            for (std::size_t j = 0; j < Cols; ++j) acc[r][j] = acc[r][j] + ar * bk[j];
        }
    }
    for (std::size_t r = 0; r < Rows; ++r) {
        for (std::size_t j = 0; j < Cols; ++j) {
            float* out = c + r * ldc + j * kLanes;
            store(out, accumulate ? load(out) + acc[r][j] : acc[r][j]);
        }
    }
}

inline constexpr std::size_t kRowBlock = 4;
inline constexpr std::size_t kColBlock = 2;

// Rows rows of C: column blocks of kColBlock batches, then single batches.
template <std::size_t Rows>
inline std::size_t row_strip(std::size_t N, std::size_t K, const float* a, std::size_t a_row, std::size_t a_col,
                             const float* b, std::size_t ldb, float* c, std::size_t ldc, bool accumulate) {
    std::size_t n = 0;
    for (; n + kColBlock * kLanes <= N; n += kColBlock * kLanes)
        block<Rows, kColBlock>(K, a, a_row, a_col, b + n, ldb, c + n, ldc, accumulate);
    for (; n + kLanes <= N; n += kLanes) block<Rows, 1>(K, a, a_row, a_col, b + n, ldb, c + n, ldc, accumulate);
    return n;
}
#endif

// The scalar formula for C's rows [m0, m1) × columns [n0, N).
void scalar_part(std::size_t m0, std::size_t m1, std::size_t n0, std::size_t N, std::size_t K, const float* a,
                 std::size_t a_row, std::size_t a_col, const float* b, std::size_t ldb, float* c, std::size_t ldc,
                 bool accumulate) {
    for (std::size_t m = m0; m < m1; ++m) {
        for (std::size_t n = n0; n < N; ++n) {
            float sum = 0.0f;
            for (std::size_t k = 0; k < K; ++k) sum = sum + a[m * a_row + k * a_col] * b[k * ldb + n];
            c[m * ldc + n] = accumulate ? c[m * ldc + n] + sum : sum;
        }
    }
}

}  // namespace

void matmul(std::size_t M, std::size_t N, std::size_t K, const float* a, std::size_t a_row, std::size_t a_col,
            const float* b, std::size_t ldb, float* c, std::size_t ldc, bool accumulate) {
    std::size_t vector_end = 0;  // columns [0, vector_end) done by the batch loops
#if POSENC_SIMD
    std::size_t m = 0;
    for (; m + kRowBlock <= M; m += kRowBlock)
        vector_end = row_strip<kRowBlock>(N, K, a + m * a_row, a_row, a_col, b, ldb, c + m * ldc, ldc, accumulate);
    for (; m < M; ++m) vector_end = row_strip<1>(N, K, a + m * a_row, a_row, a_col, b, ldb, c + m * ldc, ldc, accumulate);
#endif
    scalar_part(0, M, vector_end, N, K, a, a_row, a_col, b, ldb, c, ldc, accumulate);
}

}  // namespace posenc::model
