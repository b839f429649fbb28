// A diverged run says so and loses nothing: a training step whose loss or gradient
// norm is not finite is not applied, and trainStep / train throw TrainingDivergedError (exported
// by the API) with the weights, AdamW's state and m.steps those of the last good step. Both builds.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { TrainingDivergedError, load } from '../../dist/posenc.mjs';

// lr 1, no clipping, beta2 0.5, no decay: the weights grow until a gradient or the loss overflows
// (a few hundred steps at this size; the native CLI's test has the same run).
const WILD = { lr: 1, clip: 0, beta2: 0.5, weightDecay: 0 };
const CONFIG = { scheme: 'additive', d: 16, layers: 4, heads: 2, context: 8, seed: 1 };

// The model's weights file with every F32 value multiplied by `factor` (finite, but large enough
// that LayerNorm's squares overflow): a model the next step cannot survive.
function scaled(bytes, factor) {
  const out = bytes.slice();
  const view = new DataView(out.buffer);
  const start = 8 + Number(view.getBigUint64(0, true));
  for (let at = start; at + 4 <= out.length; at += 4) view.setFloat32(at, view.getFloat32(at, true) * factor, true);
  return out;
}

const allFinite = (params) => Object.values(params).every((values) => values.every(Number.isFinite));

for (const simd of [true, false]) {
  describe(`diverged steps (${simd ? 'SIMD' : 'scalar'} build)`, () => {
    let lab, task;
    before(async () => {
      lab = await load({ simd });
      await lab.loadModels(); // the model core, fetched on demand (web/posenc.mjs)
      task = lab.createTask({ kind: 'copy', symbols: 10 });
    });

    it('trainStep: not applied, TrainingDivergedError names the step; the model stays usable', () => {
      const fresh = lab.createModel({ ...CONFIG, vocab: task.vocabSize });
      const model = lab.loadModel(scaled(fresh.save(), 1e17));
      fresh.dispose();
      const before = model.parameters();
      assert.ok(allFinite(before));
      const tokens = Int32Array.from({ length: 2 * 9 }, (_, i) => 2 + (i % 10));
      let caught;
      try { model.trainStep(tokens, 2, 8, WILD); } catch (e) { caught = e; }
      assert.ok(caught instanceof TrainingDivergedError && caught instanceof Error);
      assert.equal(caught.name, 'TrainingDivergedError');
      assert.equal(caught.step, 1);
      assert.ok(!Number.isFinite(caught.loss));
      assert.equal(caught.losses.length, 0);
      assert.match(caught.message, /^step 1 diverged \(loss (NaN|-?Infinity)\): it was not applied, the weights are those after step 0; lower lr or set clip$/);
      assert.equal(model.steps, 0);
      assert.deepEqual(model.parameters(), before);
      assert.ok(!Number.isFinite(model.loss(tokens, 2, 8)));  // still the model it was
      model.dispose();
    });

    it('train: stops at the diverged step with the losses before it; the weights of the step before are kept', () => {
      const model = lab.createModel({ ...CONFIG, vocab: task.vocabSize });
      let caught;
      try { model.train(task, { steps: 3000, B: 4, T: 8, ...WILD }); } catch (e) { caught = e; }
      assert.ok(caught instanceof TrainingDivergedError, `no divergence in 3000 steps: ${caught}`);
      assert.equal(model.steps, caught.step - 1);
      assert.equal(caught.losses.length, caught.step - 1);
      assert.ok(caught.losses.every(Number.isFinite));
      const kept = model.parameters();
      assert.ok(allFinite(kept));
      // Trying again meets the same batch at the same weights: refused again, nothing changed.
      assert.throws(() => model.train(task, { steps: 1, B: 4, T: 8, ...WILD }), (e) => e instanceof TrainingDivergedError && e.step === caught.step);
      assert.deepEqual(model.parameters(), kept);
      // The last good weights are there to keep: saved and loaded back, bit for bit.
      const copy = lab.loadModel(model.save());
      assert.deepEqual(copy.parameters(), kept);
      for (const m of [model, copy]) m.dispose();
    });
  });
}
