// bench/roofline.mjs, the peak ./scripts/bench reports the training step against: its kernel is
// valid wasm doing what it says, and in this engine its measured peak is finite and above the rate
// the training step itself reaches here (a peak below an achieved rate would be a wrong peak, as
// the folded clock probe's was, only in the other direction). Times a few steps; asserts no speed,
// only that order between two rates measured side by side.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../../dist/posenc.mjs';
import { BENCH_MODEL, trainStepFlops } from '../../bench/grid.mjs';
import { SHAPES, bestRoofline, measureRoofline, rooflineFlops, rooflineModule } from '../../bench/roofline.mjs';

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const elapsedMs = (fn) => {
  const c0 = cpuMs();
  fn();
  return cpuMs() - c0;
};

test('every roofline kernel validates and computes its chains: m = 2 doubles, a adds', async () => {
  for (const { kind, chains } of SHAPES) {
    const bytes = rooflineModule(chains, kind);
    assert.ok(WebAssembly.validate(bytes), `${kind}/${chains}`);
    const { instance } = await WebAssembly.instantiate(bytes);
    // trips loop trips of 8 updates: split chains start at m (×m each update) or a (+a each update);
    // pair chains start at m or a and take ·m + a. Lane 0 of their sum is returned.
    const trips = 2, updates = 8 * trips;
    const expected = Array.from({ length: chains }, (_, i) => {
      let v = i % 2 ? 0.5 : 2;
      for (let u = 0; u < updates; u++) {
        if (kind === 'pair') v = Math.fround(Math.fround(v * 2) + 0.5);
        else v = i % 2 ? v + 0.5 : v * 2;
      }
      return v;
    }).reduce((a, b) => Math.fround(a + b));
    assert.equal(instance.exports.run(trips, 2, 0.5), expected, `${kind}/${chains}`);
  }
  assert.equal(rooflineFlops(12, 'split', 10), 4 * 12 * 8 * 10);
  assert.equal(rooflineFlops(12, 'pair', 10), 2 * 4 * 12 * 8 * 10);
  assert.throws(() => rooflineModule(14), /chains/);
  assert.deepEqual(bestRoofline({ gflops: 3, kind: 'pair' }, { gflops: 5, kind: 'split' }), { gflops: 5, kind: 'split', runs: [3, 5] });
  assert.deepEqual(bestRoofline({ gflops: 5, kind: 'pair' }, { gflops: 3, kind: 'split' }), { gflops: 5, kind: 'pair', runs: [5, 3] });
});

test('the measured peak is finite and above the training step\'s GFLOP/s in the same engine', async () => {
  const lab = await load();
  assert.equal(lab.simd, true);
  await lab.loadModels();
  const { vocab, d, layers, heads, context: T, batch: B, scheme } = BENCH_MODEL;
  const model = lab.createModel({ scheme, vocab, d, layers, heads, context: T, seed: 1 });
  const tokens = Int32Array.from({ length: B * (T + 1) }, (_, i) => (i * 7919) % vocab);
  for (let i = 0; i < 3; i++) model.trainStep(tokens, B, T);
  const steps = 6;
  const ms = elapsedMs(() => { for (let i = 0; i < steps; i++) model.trainStep(tokens, B, T); }) / steps;
  model.dispose();
  const stepGflops = trainStepFlops(T, d) / ms / 1e6;
  const roofline = await measureRoofline({ elapsedMs, samples: 5, sampleMs: 10 });
  assert.ok(Number.isFinite(roofline.gflops) && roofline.gflops > 0, `peak ${roofline.gflops}`);
  assert.ok(roofline.gflops > stepGflops, `peak ${roofline.gflops.toFixed(1)} GFLOP/s ≤ the step's ${stepGflops.toFixed(1)} GFLOP/s`);
  assert.deepEqual(roofline.shapes.map((s) => `${s.kind}/${s.chains}`), SHAPES.map((s) => `${s.kind}/${s.chains}`));
});
