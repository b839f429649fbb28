// The benchmark grid, shared by the Node and Chromium runs (and mirrored by in_grid() in
// bench/native_bench.cpp, which must stay in step).
export const NS = [16, 64, 256, 512, 1024, 4096];
export const DS = [64, 100, 128];
export const KERNELS = [
  'sinusoidal', 'rotate', 'scores', 'softmax', 'weighted_sum', 'attention', 'decomposition',
  'identity', 'identity_brute', 'full_keystroke', 'full_cold', 'attention_causal', 'train',
];

// The training benchmark's model: the case train/T/d runs one train_step of it (bench/kernels.hpp
// holds the same numbers for C++; bench/tfjs-train.mjs trains its TF.js twin on the same batch).
export const BENCH_MODEL = Object.freeze({ scheme: 'additive', vocab: 96, d: 64, layers: 2, heads: 4, context: 64, batch: 16 });

export function inGrid(kernel, n, d) {
  switch (kernel) {
    case 'scores': case 'softmax': case 'weighted_sum': case 'decomposition': case 'identity': return n <= 1024;
    case 'attention_causal': return n === 512 || n === 4096;
    case 'identity_brute': return n <= 64;
    case 'full_keystroke': case 'full_cold': return d === 100 && n <= 512;
    case 'train': return n === BENCH_MODEL.context && d === BENCH_MODEL.d;
    default: return true;
  }
}

// FLOPs of one training step (forward + backward + clip + AdamW) of BENCH_MODEL with context T and
// width d, counted from the shapes; N = B·T tokens, a multiply-add is 2 flops:
//   matmuls  2·3·N·(L·(12d² + d(T+1)) + V·d)
//     per token and layer 12d² multiply-adds in the linear layers (qkv 3d², projection d², MLP 8d²)
//     and d(T+1) in attention (QKᵀ and P·V over the T(T+1)/2 causal pairs of each sequence:
//     h heads × d/h × 2 products); V·d in the output head. The backward pass does twice the
//     forward's products (input and weight gradients; dP, dQ, dK, dV in attention): hence 3×.
//   AdamW    17·P with P = 2V·d + 2d + L·(12d² + 13d) parameters (additive: no position weights):
//     gradient norm 2, clip scale 1, m 3, v 4, √v/bc₂ + eps 3, decayed update 4.
// Not counted: LayerNorm, softmax, GELU, cross-entropy, residual adds, the embedding (O(N·d) or
// O(N·T) each; a few % of the matmul count) — the step's useful work is its products.
export function trainStepFlops(T, d, { vocab: V, layers: L, batch: B } = BENCH_MODEL) {
  const N = B * T;
  const matmul = 2 * 3 * N * (L * (12 * d * d + d * (T + 1)) + V * d);
  const parameters = 2 * V * d + 2 * d + L * (12 * d * d + 13 * d);
  return matmul + 17 * parameters;
}

// Multiply-add counts, for GFLOP/s (2 flops each).
export function flops(kernel, n, d) {
  switch (kernel) {
    case 'train': return trainStepFlops(n, d);
    case 'scores': case 'weighted_sum': return 2 * n * n * d;
    case 'attention': return 4 * n * n * d;
    case 'decomposition': return 8 * n * n * d;
    default: return 0;
  }
}
