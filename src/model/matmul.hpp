// The one matrix product behind every linear layer and every attention product of the trainable
// model, forward and backward.
//
// Shapes:
//   C  — M×N at row stride ldc
//   A  — M×K read through two strides: A(m, k) = a[m·a_row + k·a_col], so Aᵀ is the same call
//        with the strides swapped (dyᵀ·x for a weight gradient, Pᵀ·dO for dV)
//   B  — K×N at row stride ldb (rows contiguous)
// C (=|+=) A·B. Each element sums its K products from zero in order k = 0 … K − 1 and is then
// stored (or added to C), so the SIMD blocks, the scalar tail, the scalar build and the float64
// template all evaluate the same expression; only the float/double rounding differs.
#pragma once

#include <cstddef>

namespace posenc::model {

// Float: register-blocked SIMD (matmul.cpp). Declared before the template so that templates
// calling matmul on float pick it.
void matmul(std::size_t M, std::size_t N, std::size_t K, const float* a, std::size_t a_row, std::size_t a_col,
            const float* b, std::size_t ldb, float* c, std::size_t ldc, bool accumulate);

// Any other real type (the float64 reference of the tests): the plain triple loop.
template <class Real>
void matmul(std::size_t M, std::size_t N, std::size_t K, const Real* a, std::size_t a_row, std::size_t a_col,
            const Real* b, std::size_t ldb, Real* c, std::size_t ldc, bool accumulate) {
    for (std::size_t m = 0; m < M; ++m) {
        for (std::size_t n = 0; n < N; ++n) {
            Real sum = 0;
            for (std::size_t k = 0; k < K; ++k) sum = sum + a[m * a_row + k * a_col] * b[k * ldb + n];
            c[m * ldc + n] = accumulate ? c[m * ldc + n] + sum : sum;
        }
    }
}

// Aᵀ of a rows×cols matrix (row stride lda) into out (cols×rows, dense): the packing step that
// turns x·Wᵀ and Q·Kᵀ into matmul's contiguous-B form.
template <class Real>
void transpose(const Real* a, std::size_t rows, std::size_t cols, std::size_t lda, Real* out) {
    for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t c = 0; c < cols; ++c) out[c * rows + r] = a[r * lda + c];
}

}  // namespace posenc::model
