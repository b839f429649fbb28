// Compares the SIMD wasm core compiled for xsimd's sse2 kernels with the one compiled for sse4.1
// (Emscripten translates both to wasm SIMD128). Run through scripts/bench-sse-level, which builds
// both flavours into build-bench/<level>/. Prints medians and the sse2/sse4.1 ratio per kernel.
import { performance } from 'node:perf_hooks';

const levels = ['sse2', 'sse4.1'];
const labs = {};
for (const level of levels) {
  const { load } = await import(new URL(`../build-bench/${level}/posenc.mjs`, import.meta.url));
  labs[level] = await load({ simd: true });
}

function seeded(n, seed) {
  let s = seed >>> 0;
  return Float32Array.from({ length: n }, () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32 - 0.5;
  });
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

// Median time per call in ms, timing batches so that each sample is well above timer resolution.
function time(fn, batch, samples = 15) {
  for (let i = 0; i < batch; i++) fn();
  const result = [];
  for (let s = 0; s < samples; s++) {
    const start = performance.now();
    for (let i = 0; i < batch; i++) fn();
    result.push((performance.now() - start) / batch);
  }
  return median(result);
}

const n = 512, d = 64;
const x = seeded(n * d, 1), q = seeded(n * d, 2), k = seeded(n * d, 3), v = seeded(n * d, 4);
const kernels = {
  [`sinusoidal n=${n} d=${d}`]: (lab) => () => lab.sinusoidal(n, d),
  [`rotate n=${n} d=${d}`]: (lab) => () => lab.rotate(x, n, d),
  [`attention n=${n} d=${d}`]: (lab) => () => lab.attention(q, k, v, n, d),
};

console.log('kernel'.padEnd(28), ...levels.map((l) => `${l} ms`.padStart(12)), 'sse2/sse4.1'.padStart(13));
for (const [name, make] of Object.entries(kernels)) {
  // Interleave the two levels so that machine noise hits both alike.
  const ms = Object.fromEntries(levels.map((l) => [l, []]));
  for (let round = 0; round < 3; round++) {
    for (const level of levels) ms[level].push(time(make(labs[level]), 20));
  }
  const med = levels.map((l) => median(ms[l]));
  console.log(name.padEnd(28), ...med.map((m) => m.toFixed(3).padStart(12)), (med[0] / med[1]).toFixed(2).padStart(13));
}
