// The Train section's live loss by position (web/train/evaluate.js, web/results/positions.js):
// the held-out ids are the core's split, the windows spread evenly over them, each position's
// value the mean over the windows of the model's own per-token loss, and the chart's points the
// means of bins of positions. A stand-in model for the arithmetic, the model core for the split.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { POSITION_BIN, binPositions } from '../../web/results/positions.js';
import { heldOutIds, positionLosses, windowStarts } from '../../dist/train/evaluate.js';
import { POSITION_WINDOWS } from '../../dist/train/config.js'; // it imports the generated scheme table

test('windowStarts: first at from, last ending at to, evenly between; null when one window does not fit', () => {
  assert.deepEqual(windowStarts(0, 21, 10, 3), [0, 5, 10]);   // room 21 − 10 − 1 = 10
  assert.deepEqual(windowStarts(100, 111, 10, 1), [100]);
  assert.deepEqual(windowStarts(0, 11, 10, 4), [0, 0, 0, 0]);
  assert.equal(windowStarts(0, 10, 10, 2), null);             // 10 ids hold no window of 11
});

test('binPositions: the mean over rows and over each bin of positions, a shorter last bin', () => {
  const { x, y } = binPositions([[1, 2, 3, 4, 5], [3, 4, 5, 6, 7]], 2);
  assert.deepEqual(x, [0, 2, 4]);
  assert.deepEqual(y, [2.5, 4.5, 6]);
  assert.equal(POSITION_BIN, 8);
});

test('positionLosses: per position, the mean over the windows of the model\'s token losses', () => {
  // Stand-in: the loss at position p of a window is the id there (its first n − 1 ids).
  const calls = [];
  const model = {
    config: { scheme: 'rotary', context: 4 },
    tokenLosses(ids, n) { calls.push(Array.from(ids)); return Float32Array.from(ids.subarray(0, n - 1)); },
  };
  const ids = Int32Array.from({ length: 40 }, (_, i) => i);
  const losses = positionLosses(model, ids, 8, 3);  // starts 0, 15, 31 (room 31)
  assert.deepEqual(calls.map((c) => c[0]), [0, 15, 31]);
  assert.ok(calls.every((c) => c.length === 9));
  // Sums of three small integers divided by 3: within a few ulps of the exact mean.
  losses.forEach((v, p) => assert.ok(Math.abs(v - ((0 + 15 + 31) / 3 + p)) < 1e-12, `${p}: ${v}`));
  assert.equal(positionLosses(model, ids.subarray(0, 8), 8, 3), null, 'too short');
  assert.equal(positionLosses({ ...model, config: { scheme: 'learned', context: 4 } }, ids, 8, 3), null, 'a learned table past T');
  assert.equal(positionLosses(model, ids, 8).length, 8, `${POSITION_WINDOWS} windows by default`);
});

test('heldOutIds is the core\'s held-out split, and a window\'s losses are the model\'s', { timeout: 120000 }, async () => {
  const { load } = await import('../../dist/posenc.mjs');
  const lab = await load({ simd: true });
  const models = await lab.loadModels();
  const text = 'the cat sat on the mat. '.repeat(21);  // 504 characters: 50 held out at 10%
  const task = models.createTask({ kind: 'text', text });
  const held = heldOutIds(task, text, models.modelLimits.defaultHeldOutPercent);
  assert.equal(models.modelLimits.defaultHeldOutPercent, 10);
  assert.equal(held.length, 50);
  const model = models.createModel({ scheme: 'rotary', vocab: task.vocabSize, d: 16, layers: 1, heads: 2, context: 8, seed: 3 });
  // The core evaluates held-out windows of L + 1 ids: L = 49 fits the 50 held-out ids, 50 does not.
  const [fits, over] = model.evaluate(task, { lengths: [49, 50], B: 1, batches: 1 });
  assert.ok(Number.isFinite(fits.loss) && Number.isNaN(over.loss), `${fits.loss} ${over.loss}`);
  const one = positionLosses(model, held, 16, 1);
  assert.deepEqual(Array.from(one), Array.from(model.tokenLosses(held.subarray(0, 17), 17), (v) => v));
  model.dispose();
  task.dispose();
});
