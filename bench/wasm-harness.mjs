// Times the wasm kernels (SIMD and scalar bench modules) and the plain-JS versions on the grid of
// bench/grid.mjs, interleaving the variants so machine noise hits them alike. The same file runs
// in Node (bench/node-run.mjs) and in headless Chromium (bench/chromium-run.mjs).
//
// Timing: every sample is a batch of calls lasting ≥ BATCH_MS (Chromium clamps performance.now()
// to 100 µs); the reported value is the median per-call time over the samples. In Node the CPU
// time of the batch (process.cpuUsage) is recorded too: two cores are shared with other work, so
// wall time includes time spent descheduled.
import * as plain from './plain.mjs';
import { DS, KERNELS, NS, inGrid } from './grid.mjs';

const BATCH_MS = 25;
const WARM_UP_MS = 150;
const KERNEL_ID = Object.fromEntries(KERNELS.map((k, i) => [k, i]));

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const m = sorted.length >> 1;
  return sorted.length % 2 ? sorted[m] : (sorted[m - 1] + sorted[m]) / 2;
}

function seeded(count, seed, scale = 1) {
  let s = seed >>> 0;
  const out = new Float32Array(count);
  for (let i = 0; i < count; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out[i] = scale * (s / 2 ** 32 * 2 - 1);
  }
  return out;
}

// Plain-JS state for one (n, d): inputs copied from the SIMD module so both see the same data.
function plainCase(core, n, d) {
  const f32 = (id, len) => new Float32Array(core.HEAPF32.buffer, core._bench_buffer(id), len).slice();
  const q = f32(0, n * d), k = f32(1, n * d), v = f32(2, n * d), scores = f32(3, n * n), x = f32(7, n * d);
  const vocabRows = core._bench_vocab_rows();
  return {
    q, k, v, scores, x, vocabRows,
    weights: new Float32Array(n * n), out: new Float32Array(n * d),
    unitVocab: null, terms: null, truth: null, rows: null,
  };
}

function plainKernel(kernel, c, n, d, core) {
  switch (kernel) {
    case 'sinusoidal': return () => plain.sinusoidal(n, d, c.out);
    case 'rotate': return () => plain.rotate(c.x, n, d, c.out);
    case 'scores': return () => plain.scores(c.q, c.k, n, d, 1 / Math.sqrt(d), c.weights);
    case 'softmax': return () => plain.softmax(c.scores, n, c.weights);
    case 'weighted_sum': return () => plain.weightedSum(c.scores, c.v, n, d, c.out);
    case 'attention': return () => plain.attention(c.q, c.k, c.v, n, d, c.weights, c.out);
    case 'attention_causal': return () => plain.attentionCausal(c.q, c.k, c.v, n, d, c.weights, c.out);
    case 'decomposition':
      c.terms ??= new Float32Array(4 * n * n);
      return () => plain.decomposition(c.q, c.x, n, d, c.terms);
    case 'identity_brute':
    case 'identity': {
      const v = c.vocabRows;
      c.unitVocab ??= new Float32Array(core.HEAPF32.buffer, core._bench_unit_vocab(), v * d).slice();
      c.truth ??= Uint32Array.from({ length: n }, (_, p) => Math.min(v - 1, Math.floor(v ** ((p * 0.618034) % 1))));
      const best = new Uint32Array(n), rank = new Uint32Array(n);
      if (kernel === 'identity_brute') {
        const pe = new Float32Array(n * d), x = new Float32Array(n * d);
        return () => plain.identityBrute(c.unitVocab, v, c.truth, n, d, pe, x, best, rank);
      }
      // Decode timing does not depend on the rows' values; random rows stand in for the cached ones.
      c.rows ??= { content: Array.from({ length: n }, (_, p) => seeded(v, 5 + p)), position: Array.from({ length: n }, (_, p) => seeded(v, 9000 + p)) };
      return () => plain.identityCached(c.rows.content, c.rows.position, v, n, 3, best, rank, c.truth);
    }
    default: return null;  // full recompute: no plain-JS version (see docs/BENCHMARKS.md)
  }
}

/**
 * cores: { simd, scalar } bench modules; glove: bytes of glove-6b-100d-20k.i8 or null.
 * cpuMicros: () => CPU µs used so far (Node) or null. log: progress lines.
 * peers: (kernel, n, d) => [{ name, fn }] — other implementations of the same case (TF.js for
 * train), timed interleaved with the wasm variants.
 * Returns [{ kernel, n, d, variant, ms, cpuMs, samples }].
 */
export async function runSuite({ cores, glove, cpuMicros = null, log = () => {}, filter = () => true, maxMs = Infinity,
  peers = () => [] }) {
  const now = () => performance.now();
  if (glove) {
    for (const core of Object.values(cores)) {
      const address = core._malloc(glove.length);
      core.HEAPU8.set(glove, address);
      if (core._bench_load_vectors(address, glove.length) !== 0) throw new Error('bench: could not parse the GloVe file');
      core._free(address);
    }
  }
  const results = [];
  const started = now();
  for (const kernel of KERNELS) {
    for (const d of DS) {
      for (const n of NS) {
        if (!inGrid(kernel, n, d) || !filter(kernel, n, d)) continue;
        if (now() - started > maxMs) {
          log(`time budget reached; skipping the rest`);
          return results;
        }
        for (const core of Object.values(cores)) core._bench_setup(n, d);
        const variants = [];
        for (const [name, core] of Object.entries(cores)) {
          variants.push({ name: `wasm_${name}`, fn: () => core._bench_run(KERNEL_ID[kernel]) });
        }
        const plainFn = plainKernel(kernel, plainCase(cores.simd, n, d), n, d, cores.simd);
        // Plain JS at n = 4096 takes ~17 s a call: only d = 64 keeps scripts/bench near 10 minutes.
        if (plainFn && (n < 4096 || d === 64)) variants.push({ name: 'plain_js', fn: plainFn });
        variants.push(...await peers(kernel, n, d));
        // Calibrate: warm-up calls for WARM_UP_MS (fills caches, and lets V8's dynamic tiering move
        // the hot functions from its baseline compiler to the optimising one: Chromium's first
        // batches were up to 1.5× slower without it), then one timed call.
        for (const v of variants) {
          const warm = now();
          do v.fn(); while (now() - warm < WARM_UP_MS);
          const t0 = now();
          v.fn();
          v.single = Math.max(now() - t0, 0.001);
          v.batch = Math.max(1, Math.ceil(BATCH_MS / v.single));
          v.samples = v.single > 1000 ? 1 : v.single > 200 ? 3 : 7;
          v.wall = [];
          v.cpu = [];
        }
        const rounds = Math.max(...variants.map((v) => v.samples));
        for (let round = 0; round < rounds; round++) {
          for (const v of variants) {
            if (round >= v.samples) continue;
            const c0 = cpuMicros?.();
            const t0 = now();
            for (let i = 0; i < v.batch; i++) v.fn();
            const t1 = now();
            const c1 = cpuMicros?.();
            v.wall.push((t1 - t0) / v.batch);
            if (cpuMicros) v.cpu.push((c1 - c0) / 1000 / v.batch);
          }
        }
        for (const v of variants) {
          results.push({
            kernel, n, d, variant: v.name, ms: median(v.wall),
            cpuMs: cpuMicros ? median(v.cpu) : null, samples: v.samples, batch: v.batch,
          });
        }
        log(`${kernel} n=${n} d=${d}: ${variants.map((v) => `${v.name} ${median(v.wall).toFixed(3)} ms`).join(', ')}`);
      }
    }
  }
  return results;
}
