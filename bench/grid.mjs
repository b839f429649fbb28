// The benchmark grid, shared by the Node and Chromium runs (and mirrored by in_grid() in
// bench/native_bench.cpp, which must stay in step).
export const NS = [16, 64, 256, 512, 1024, 4096];
export const DS = [64, 100, 128];
export const KERNELS = [
  'sinusoidal', 'rotate', 'scores', 'softmax', 'weighted_sum', 'attention', 'decomposition',
  'identity', 'identity_brute', 'full_keystroke', 'full_cold', 'attention_causal',
];

export function inGrid(kernel, n, d) {
  switch (kernel) {
    case 'scores': case 'softmax': case 'weighted_sum': case 'decomposition': case 'identity': return n <= 1024;
    case 'attention_causal': return n === 512 || n === 4096;
    case 'identity_brute': return n <= 64;
    case 'full_keystroke': case 'full_cold': return d === 100 && n <= 512;
    default: return true;
  }
}

// Multiply-add counts, for GFLOP/s (2 flops each).
export function flops(kernel, n, d) {
  switch (kernel) {
    case 'scores': case 'weighted_sum': return 2 * n * n * d;
    case 'attention': return 4 * n * n * d;
    case 'decomposition': return 8 * n * n * d;
    default: return 0;
  }
}
