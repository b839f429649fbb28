// The attainable wasm SIMD128 throughput of the engine running this file (Node or Chromium): the
// peak that the training step and QKᵀ are reported against (bench/report.mjs), measured with the
// same engine, JIT and clock as they are, instead of derived from a clock and an assumed issue
// width.
//
// The kernel is a wasm function assembled here byte by byte, so no compiler stands between the
// instruction mix and the engine: `chains` independent accumulators, half f32x4.mul chains
// (acc ← acc·m) and half f32x4.add chains (acc ← acc + a), updated in turn `UNROLL` times per
// loop trip. The accumulators and the two splatted operands stay in registers (at most 14 of
// x86-64's 16 xmm registers); m and a arrive as parameters, so the engine cannot fold them, and
// the function returns a lane of the accumulators' sum, so none is dead. m = 1 and a = 2⁻²⁰ keep
// every value normal (no denormal stalls) and finite. The step has no FMA (baseline SIMD128
// has none), so a multiply and an add in equal numbers is its mix: 4 flops per instruction.
//
// Several chain counts run (enough independent chains to cover 4-cycle latency on two or four
// pipes); the peak is the best count's median rate.

const UNROLL = 8;
// Up to 13 accumulators plus the two operands: 15 of x86-64's 16 xmm registers (V8 keeps one as
// scratch), so nothing spills.
export const SHAPES = [
  { kind: 'split', chains: 8 }, { kind: 'split', chains: 12 }, { kind: 'split', chains: 13 },
  { kind: 'pair', chains: 8 }, { kind: 'pair', chains: 12 }, { kind: 'pair', chains: 13 },
];

const uleb = (n) => {
  const out = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n) byte |= 0x80;
    out.push(byte);
  } while (n);
  return out;
};
const section = (id, bytes) => [id, ...uleb(bytes.length), ...bytes];
const vector = (items) => [...uleb(items.length), ...items.flat()];

const I32 = 0x7f, F32 = 0x7d, V128 = 0x7b;
const op = {
  localGet: (i) => [0x20, ...uleb(i)], localSet: (i) => [0x21, ...uleb(i)],
  i32Const: (v) => [0x41, ...uleb(v)], i32Sub: [0x6b], brIf: (depth) => [0x0d, depth],
  loop: [0x03, 0x40], end: [0x0b],
  f32x4Splat: [0xfd, ...uleb(0x13)], f32x4ExtractLane0: [0xfd, ...uleb(0x1f), 0],
  f32x4Add: [0xfd, ...uleb(0xe4)], f32x4Mul: [0xfd, ...uleb(0xe6)],
};

/**
 * The module's bytes: export `run(trips: i32, m: f32, a: f32) → f32`, trips ≥ 1 loop trips of
 * UNROLL updates of every chain. kind 'split': even chains multiply (acc·m), odd chains add
 * (acc + a); kind 'pair': every chain multiplies then adds (acc·m + a), so each chain carries
 * both latencies and fewer registers cover them.
 */
export function rooflineModule(chains, kind = 'pair') {
  if (!Number.isInteger(chains) || chains < 2 || chains > 13) throw new RangeError('chains must be an integer from 2 to 13');
  if (kind !== 'split' && kind !== 'pair') throw new RangeError("kind must be 'split' or 'pair'");
  // Locals after the three parameters: chains accumulators, then the two splatted operands.
  const acc = (i) => 3 + i, mv = 3 + chains, av = 4 + chains;
  const multiplies = (i) => kind === 'pair' || i % 2 === 0, adds = (i) => kind === 'pair' || i % 2 === 1;
  const body = [
    ...op.localGet(1), ...op.f32x4Splat, ...op.localSet(mv),
    ...op.localGet(2), ...op.f32x4Splat, ...op.localSet(av),
  ];
  for (let i = 0; i < chains; i++) body.push(...op.localGet(i % 2 ? av : mv), ...op.localSet(acc(i)));
  body.push(...op.loop);
  for (let u = 0; u < UNROLL; u++) {
    for (let i = 0; i < chains; i++) {
      body.push(...op.localGet(acc(i)));
      if (multiplies(i)) body.push(...op.localGet(mv), ...op.f32x4Mul);
      if (adds(i)) body.push(...op.localGet(av), ...op.f32x4Add);
      body.push(...op.localSet(acc(i)));
    }
  }
  body.push(...op.localGet(0), ...op.i32Const(1), ...op.i32Sub, 0x22, ...uleb(0), ...op.brIf(0), ...op.end);
  body.push(...op.localGet(acc(0)));
  for (let i = 1; i < chains; i++) body.push(...op.localGet(acc(i)), ...op.f32x4Add);
  body.push(...op.f32x4ExtractLane0, ...op.end);
  const locals = vector([[...uleb(chains + 2), V128]]);
  const code = [...locals, ...body];
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, vector([[0x60, ...vector([[I32], [F32], [F32]]), ...vector([[F32]])]])),
    ...section(3, vector([[0]])),
    ...section(7, vector([[...vector([...'run'].map((c) => [c.charCodeAt(0)])), 0x00, 0]])),
    ...section(10, vector([[...uleb(code.length), ...code]])),
  ]);
}

/** Floating-point operations of one call with `trips` loop trips (4 lanes per instruction). */
export const rooflineFlops = (chains, kind, trips) => 4 * chains * (kind === 'pair' ? 2 : 1) * UNROLL * trips;

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const m = sorted.length >> 1;
  return sorted.length % 2 ? sorted[m] : (sorted[m - 1] + sorted[m]) / 2;
}

/**
 * Measures every kernel shape: each sample one call lasting about sampleMs; the engine's optimising
 * tier is reached by warm-up calls first (V8 compiles wasm with Liftoff, then TurboFan).
 * elapsedMs(fn): the time fn takes (Node: CPU time; Chromium: wall time, clamped to 0.1 ms).
 * → { gflops (the best shape's median), kind, chains (that shape), shapes: [{ kind, chains, gflops }] }
 */
export async function measureRoofline({ elapsedMs, samples = 9, sampleMs = 20, shapes = SHAPES } = {}) {
  const results = [];
  for (const { kind, chains } of shapes) {
    const { instance } = await WebAssembly.instantiate(rooflineModule(chains, kind));
    const run = instance.exports.run;
    let trips = 1000;
    let sink = 0;
    const call = () => { sink += run(trips, 1, 2 ** -20); };
    // Warm up (tier-up), then size one call to about sampleMs.
    for (let i = 0; i < 20; i++) call();
    for (let ms = elapsedMs(call); ms < sampleMs; ms = elapsedMs(call)) {
      trips = Math.ceil(trips * Math.min(16, 1.2 * sampleMs / Math.max(ms, 0.05)));
    }
    const rates = [];
    for (let s = 0; s < samples; s++) rates.push(rooflineFlops(chains, kind, trips) / elapsedMs(call) / 1e6);
    if (!Number.isFinite(sink)) throw new Error('roofline kernel: its accumulators overflowed');
    results.push({ kind, chains, gflops: median(rates) });
  }
  const best = results.reduce((a, b) => (b.gflops > a.gflops ? b : a));
  return { gflops: best.gflops, kind: best.kind, chains: best.chains, shapes: results };
}

/**
 * The better of two measurements of one engine (the drivers measure before and after the kernel
 * suite, so a burst of load on the shared machine during one of them does not lower the peak),
 * with both rates kept in `runs`.
 */
export function bestRoofline(a, b) {
  return { ...(b.gflops > a.gflops ? b : a), runs: [a.gflops, b.gflops] };
}

// The kernels whose rate is reported against the peak: they get the roofline as an interleaved
// variant (below), so the peak is sampled in the same rounds, under the same load, as they are.
export const PEAK_KERNELS = ['scores', 'train'];

/**
 * The measured best shape as a harness variant ({ name: 'roofline', fn }) doing `callFlops`
 * flops per call (about a millisecond), for bench/wasm-harness.mjs's `peers`: timed round-robin
 * with the kernel's own variants, its median call gives the peak under the same noise.
 */
export async function rooflineVariant({ kind, chains }) {
  const { instance } = await WebAssembly.instantiate(rooflineModule(chains, kind));
  const trips = 12000;
  let sink = 0;
  return {
    variant: { name: 'roofline', fn: () => { sink += instance.exports.run(trips, 1, 2 ** -20); } },
    callFlops: rooflineFlops(chains, kind, trips),
    finite: () => Number.isFinite(sink),
  };
}
