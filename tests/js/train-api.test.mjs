// The training API over tasks in the core (lab.createTask, model.train / evaluate / tokenLosses /
// generate) in both builds: agreement with the per-batch calls, determinism across chunkings,
// learning, and refusals that name the argument and leave the model usable.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../../dist/posenc.mjs';

// 23 distinct characters, long enough for held-out windows of 32.
const TEXT = 'the quick brown fox jumps over the lazy dog; '.repeat(40);

function textModel(lab, task, scheme, extra = {}) {
  return lab.createModel({ scheme, vocab: task.vocabSize, d: 16, layers: 1, heads: 2, context: 8, seed: 2,
    ...(scheme === 'concatenated' ? { dPos: 4 } : {}), ...extra });
}

for (const simd of [true, false]) {
  describe(`training API, ${simd ? 'SIMD' : 'scalar'} build`, () => {
    let lab;
    before(async () => { lab = await load({ simd }); await lab.loadModels(); });

    it('a text task: sorted code-point vocabulary, encode/decode round trip, unknown characters refused', () => {
      const task = lab.createTask({ kind: 'text', text: TEXT });
      assert.equal(task.kind, 'text');
      assert.deepEqual([...task.vocab], [...new Set(TEXT)].sort());
      const ids = task.encode('lazy fox');
      assert.equal(task.decode(ids), 'lazy fox');
      assert.throws(() => task.encode('Lazy'), (e) => e instanceof RangeError && /text has "L"/.test(e.message));
      task.dispose();
      assert.throws(() => textModel(lab, task, 'nope').train(task), /disposed/);
    });

    it('synthetic tasks name their tokens; bad specs are refused naming the argument', () => {
      const task = lab.createTask({ kind: 'sort', symbols: 5 });
      assert.deepEqual([...task.vocab], ['<pad>', '<sep>', '0', '1', '2', '3', '4']);
      assert.deepEqual([...task.encode('3 1 <sep>')], [5, 3, 1]);
      task.dispose();
      assert.throws(() => lab.createTask({ kind: 'poem' }), (e) => e instanceof RangeError && /kind/.test(e.message));
      assert.throws(() => lab.createTask({ kind: 'copy', symbols: 1 }), (e) => e instanceof RangeError && /symbols/.test(e.message));
      assert.throws(() => lab.createTask({ kind: 'text', text: 3 }), (e) => e instanceof TypeError && /text/.test(e.message));
      assert.throws(() => lab.createTask({ kind: 'text', text: 'aaaa' }), (e) => e instanceof RangeError && /2 distinct/.test(e.message));
      assert.throws(() => lab.createTask({ kind: 'text', text: TEXT, heldOutPercent: 60 }), /heldOutPercent/);
    });

    it('train: the same losses and parameters in one call or in chunks, and learning lowers the loss', () => {
      const task = lab.createTask({ kind: 'text', text: TEXT });
      const whole = textModel(lab, task, 'rotary');
      const chunked = textModel(lab, task, 'rotary');
      const losses = whole.train(task, { steps: 6, B: 4, lr: 1e-2 });
      const parts = [...chunked.train(task, { steps: 2, B: 4, lr: 1e-2 }), ...chunked.train(task, { steps: 4, B: 4, lr: 1e-2 })];
      assert.equal(losses.length, 6);
      assert.deepEqual([...losses], parts);
      assert.deepEqual(whole.parameters(), chunked.parameters());
      assert.equal(whole.steps, 6);
      // ln V at initialisation (N(0, 0.02) weights); 60 further steps at lr 1e-2 on a 23-character
      // text that repeats every 45 characters more than halve it (seen: about 1.2 from 3.1).
      assert.ok(Math.abs(losses[0] - Math.log(task.vocabSize)) < 0.05, `first loss ${losses[0]}`);
      const later = whole.train(task, { steps: 60, B: 4, lr: 1e-2 });
      assert.ok(later.at(-1) < losses[0] / 2, `loss ${losses[0]} → ${later.at(-1)}`);
      whole.dispose();
      chunked.dispose();
      task.dispose();
    });

    it('evaluate on text: the held-out windows loss() sees, NaN where a length cannot be evaluated', () => {
      const task = lab.createTask({ kind: 'text', text: TEXT });
      const m = textModel(lab, task, 'learned');
      m.train(task, { steps: 3, B: 4 });
      // Held-out windows start at train_end + w·T, train_end = N − ⌊N/10⌋ (tasks.hpp).
      const ids = task.encode(TEXT);
      const trainEnd = ids.length - Math.floor(ids.length / 10);
      const T = 8;
      const tokens = new Int32Array(2 * (T + 1));
      for (let b = 0; b < 2; b++) tokens.set(ids.subarray(trainEnd + b * T, trainEnd + b * T + T + 1), b * (T + 1));
      const [at8, at16] = m.evaluate(task, { lengths: [8, 16], B: 2, batches: 1 });
      assert.equal(at8.length, 8);
      assert.equal(at8.loss, m.loss(tokens, 2, T));
      assert.ok(Number.isNaN(at8.accuracy) && Number.isNaN(at8.exactMatch));
      // The learned table has context = 8 rows: no loss at 16.
      assert.ok(Number.isNaN(at16.loss));
      // Longer than the held-out text (180 characters): NaN for every scheme.
      const rotary = textModel(lab, task, 'rotary');
      assert.ok(Number.isNaN(rotary.evaluate(task, { lengths: [256], B: 1 })[0].loss));
      assert.ok(Number.isFinite(rotary.evaluate(task, { lengths: [64], B: 1 })[0].loss));
      // Workspace beyond the core's limit: refused before anything is allocated.
      assert.throws(() => rotary.evaluate(task, { lengths: [4096], B: 64 }), (e) => e instanceof RangeError && /workspace/.test(e.message));
      m.dispose();
      rotary.dispose();
      task.dispose();
    });

    it('evaluate on copy: accuracy rises with training; rotary takes ropeScaling, others refuse it', () => {
      const task = lab.createTask({ kind: 'copy', symbols: 10 });
      const m = lab.createModel({ scheme: 'rotary', vocab: task.vocabSize, d: 32, layers: 2, heads: 4, context: 8, seed: 1 });
      const [before] = m.evaluate(task, { B: 16 });
      m.train(task, { steps: 300, B: 16, lr: 3e-3, weightDecay: 0 });
      const [after, longer] = m.evaluate(task, { lengths: [8, 16], B: 16 });
      // Chance is 1/12 per answer token; the existing copy test reaches loss < 0.3 in 400 steps.
      assert.ok(before.accuracy < 0.3, `accuracy before ${before.accuracy}`);
      assert.ok(after.accuracy > 0.8, `accuracy after ${after.accuracy}`);
      assert.ok(after.exactMatch <= after.accuracy && after.exactMatch >= 0);
      assert.ok(longer.accuracy >= 0 && longer.accuracy <= 1);
      const [pi] = m.evaluate(task, { lengths: [16], B: 16, ropeScaling: { type: 'pi', factor: 2 } });
      assert.notEqual(pi.loss, longer.loss);
      const additive = lab.createModel({ scheme: 'additive', vocab: task.vocabSize, d: 16, layers: 1, heads: 2, context: 8 });
      assert.throws(() => additive.evaluate(task, { ropeScaling: { type: 'pi', factor: 2 } }), /ropeScaling/);
      additive.dispose();
      m.dispose();
      task.dispose();
    });

    it('tokenLosses are the per-position terms of loss(); generate is seeded and greedy by default', () => {
      const task = lab.createTask({ kind: 'text', text: TEXT });
      const m = textModel(lab, task, 'alibi');
      m.train(task, { steps: 20, B: 4, lr: 1e-2 });
      const tokens = task.encode('the lazy dog');
      const per = m.tokenLosses(tokens, tokens.length);
      assert.equal(per.length, tokens.length - 1);
      const mean = per.reduce((a, b) => a + b, 0) / per.length;
      // float32 log-softmax in JS versus the core's: equal to 1e-5 relative.
      assert.ok(Math.abs(mean - m.loss(tokens, 1, tokens.length - 1)) < 1e-5 * mean, `${mean}`);
      const prompt = task.encode('the ');
      const greedy = m.generate(prompt, 30);
      assert.equal(greedy.length, 30);
      assert.deepEqual(m.generate(prompt, 30), greedy);
      const a = m.generate(prompt, 30, { temperature: 1, seed: 7 });
      assert.deepEqual(m.generate(prompt, 30, { temperature: 1, seed: 7 }), a);
      assert.ok(a.every((id) => id >= 0 && id < task.vocabSize));
      assert.equal(typeof task.decode(a), 'string');
      m.dispose();
      task.dispose();
    });

    it('refusals name the argument and leave the model usable', () => {
      const task = lab.createTask({ kind: 'text', text: TEXT });
      const other = lab.createTask({ kind: 'copy' });
      const m = textModel(lab, task, 'additive');
      const refusals = [
        [() => m.train({}), TypeError, /task/],
        [() => m.train(other), RangeError, /task/],
        [() => m.train(task, { steps: 0 }), RangeError, /steps/],
        [() => m.train(task, { B: '4' }), TypeError, /B/],
        [() => m.train(task, { T: 1 }), RangeError, /T/],
        [() => m.train(task, { T: 4000 }), RangeError, /T/],
        [() => m.train(task, { lr: NaN }), RangeError, /lr/],
        [() => m.train(task, { steps: 1, momentum: 1 }), TypeError, /momentum/],
        [() => m.evaluate(task, { lengths: 8 }), TypeError, /lengths/],
        [() => m.evaluate(task, { lengths: [8, 1] }), RangeError, /lengths\[1\]/],
        [() => m.evaluate(task, { batches: 0 }), RangeError, /batches/],
        [() => m.tokenLosses([1], 1), RangeError, /n/],
        [() => m.generate([], 3), RangeError, /prompt/],
        [() => m.generate([999], 3), RangeError, /token/],
        [() => m.generate([1], 0), RangeError, /length/],
        [() => m.generate([1], 3, { temperature: -1 }), RangeError, /temperature/],
      ];
      for (const [call, type, pattern] of refusals) {
        assert.throws(call, (e) => e instanceof type && pattern.test(e.message), String(call));
      }
      assert.equal(m.steps, 0);
      assert.equal(m.train(task, { steps: 1, B: 2 }).length, 1);
      m.dispose();
      task.dispose();
      other.dispose();
    });
  });
}
