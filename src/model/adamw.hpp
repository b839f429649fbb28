// PyTorch's clip_grad_norm_ followed by AdamW, as docs/ARCHITECTURE.md ("Training step") states them.
//
// Shapes: params, grads, m, v — the flat parameter buffer's layout (specs give the tensors).
//   clip:  N = ‖g‖₂ over every gradient; if clip > 0 and N > clip, g ← g·clip/(N + 1e-6).
//   AdamW at step t ≥ 1: θ ← θ·(1 − lr·wd) for 2-D tensors only; m ← β1·m + (1 − β1)·g;
//   v ← β2·v + (1 − β2)·g²; θ ← θ − (lr/(1 − β1^t))·m/(√v/√(1 − β2^t) + eps).
// Scalar constants are formed in double and rounded once to float; the per-element math is float,
// a batch loop and a scalar tail running the same operations (the same bits either way).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "model/config.hpp"

namespace posenc::model {

// lr's range, [kMinLr, kMaxLr]: validate's message is built from it, and the page's Train
// settings take it through the scheme table's limits (minLr, maxLr), not restated.
inline constexpr double kMinLr = 0.0;
inline constexpr double kMaxLr = 1.0;

struct AdamWOptions {
    float lr = 1e-3f;
    float beta1 = 0.9f;
    float beta2 = 0.95f;
    float eps = 1e-8f;
    float weight_decay = 0.1f;
    float clip = 1.0f;  // 0 turns clipping off
};

// nullptr or a message naming the option by its JS name (lr, beta1, beta2, eps, weightDecay, clip).
const char* validate(const AdamWOptions& o);

// The global L2 norm (accumulated in double), then the scaling above. Returns the norm before it.
double clip_gradients(float* grads, std::size_t count, float clip);

// One AdamW update at step t (1-based) over every tensor of specs except frozen ones (untouched).
void adamw_update(const std::vector<TensorSpec>& specs, float* params, const float* grads, float* m, float* v,
                  std::uint64_t t, const AdamWOptions& o);

}  // namespace posenc::model
