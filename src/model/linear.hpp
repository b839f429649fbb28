// PyTorch's nn.Linear on a batch of rows, forward and backward, through matmul.
//
// Shapes:
//   x   — N×in rows;  y, dy — N×out;  W, dW — out×in ([out, in], nn.Linear's layout);  b, db — out
//   wt  — in×out scratch (Wᵀ packed so the forward product reads contiguous rows)
// Forward  y = x·Wᵀ + b: each y element is b + (its dot product), the sum formed first.
// Backward dx = dy·W (overwritten), dW += dyᵀ·x, db += Σ_rows dy (accumulated: gradients of one
// step add up across the calls that share a tensor).
#pragma once

#include <cstddef>

#include "model/matmul.hpp"
#include "model/row_ops.hpp"

namespace posenc::model {

// The same with Wᵀ (in×out) already made, for callers that keep it across calls.
template <class Real>
void linear_forward_transposed(const Real* x, std::size_t N, std::size_t in, const Real* wt, const Real* b,
                               std::size_t out, Real* y) {
    for (std::size_t r = 0; r < N; ++r)
        for (std::size_t o = 0; o < out; ++o) y[r * out + o] = b ? b[o] : Real(0);
    matmul(N, out, in, x, in, 1, wt, out, y, out, /*accumulate=*/true);
}

template <class Real>
void linear_forward(const Real* x, std::size_t N, std::size_t in, const Real* W, const Real* b, std::size_t out,
                    Real* wt, Real* y) {
    transpose(W, out, in, in, wt);
    linear_forward_transposed(x, N, in, static_cast<const Real*>(wt), b, out, y);
}

// dx may be null (the first layer's input needs no gradient); db may be null (lm_head).
template <class Real>
void linear_backward(const Real* x, const Real* dy, std::size_t N, std::size_t in, std::size_t out, const Real* W,
                     Real* dx, Real* dW, Real* db) {
    if (dx) matmul(N, in, out, dy, out, 1, W, in, dx, in, /*accumulate=*/false);
    matmul(out, in, N, dy, 1, out, x, in, dW, in, /*accumulate=*/true);
    if (db)
        for (std::size_t r = 0; r < N; ++r) add_into(db, dy + r * out, out);
}

}  // namespace posenc::model
