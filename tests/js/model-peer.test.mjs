// The weights file alone rebuilds the model in an independent implementation: docs/ARCHITECTURE.md's model
// written with TensorFlow.js ops (bench/tfjs-model.mjs), fed the tensors and config of a file the
// core saved, gives the same loss and the same gradients for every scheme.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../../dist/posenc.mjs';
import { meanLoss, tf, variablesFrom } from '../../bench/tfjs-model.mjs';
import { readSafetensors } from './safetensors-reader.mjs';

const CASES = [
  ['nope'], ['additive'], ['learned'], ['concatenated', { dPos: 6 }], ['rotary'], ['rotary', { pairing: 'half' }],
  ['alibi'], ['t5', { t5Buckets: 8, t5MaxDistance: 20 }],
];
const B = 3, T = 12, V = 11;

function batch(seed) {
  const tokens = new Int32Array(B * (T + 1));
  const mask = new Uint8Array(B * T);
  let s = seed >>> 0;
  for (let i = 0; i < tokens.length; i++) tokens[i] = (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) % V;
  for (let i = 0; i < mask.length; i++) mask[i] = i % 5 === 0 ? 0 : 1;
  return { tokens, mask };
}

describe('the weights file rebuilds the same model in TensorFlow.js', () => {
  let lab;
  before(async () => {
    lab = await load();
    await tf.setBackend('cpu');
  });

  for (const [scheme, extra] of CASES) {
    it(`${scheme}${extra?.pairing ? ` (${extra.pairing})` : ''}: loss and every gradient`, () => {
      const m = lab.createModel({ scheme, vocab: V, d: 16, layers: 2, heads: 2, context: T, seed: 5, ...extra });
      const { tokens, mask } = batch(7);
      // A few steps first, so biases, LayerNorm weights and the T5 table are no longer at their
      // initial zeros and ones.
      for (let i = 0; i < 3; i++) m.trainStep(tokens, B, T, { mask, lr: 1e-2 });
      const ours = m.gradients(tokens, B, T, { mask });
      const file = readSafetensors(m.save());
      const config = JSON.parse(file.metadata.posenc);
      m.dispose();

      tf.tidy(() => {
        const params = variablesFrom(Object.fromEntries(Object.entries(file.tensors).map(
          ([name, { shape, values }]) => [name, tf.tensor(values, shape)])));
        const names = Object.keys(params);
        const { value, grads } = tf.variableGrads(() => meanLoss(config, params, tokens, B, T, mask), Object.values(params));
        // Float32 on both sides, different summation orders: the loss (≈ 2.4) agrees to a few ulps
        // of its terms, well inside 1e-5.
        assert.ok(Math.abs(value.dataSync()[0] - ours.loss) < 1e-5, `loss ${value.dataSync()[0]} vs ${ours.loss}`);
        for (const name of names) {
          const theirs = grads[params[name].name].dataSync();
          const mine = ours.grads[name];
          let scale = 0, worst = 0;
          for (let i = 0; i < mine.length; i++) {
            scale = Math.max(scale, Math.abs(theirs[i]));
            worst = Math.max(worst, Math.abs(theirs[i] - mine[i]));
          }
          // Relative to the tensor's largest gradient (float32 sums over B·T rows and d–4d
          // columns: ~1e-5 relative), plus 1e-7 absolute for tensors whose true gradient is zero
          // (the key bias) and which both sides fill with rounding noise.
          assert.ok(worst <= 2e-4 * scale + 1e-7, `${name}: worst |Δ| ${worst} against max |g| ${scale}`);
        }
        for (const v of Object.values(params)) v.dispose();
      });
    });
  }
});
