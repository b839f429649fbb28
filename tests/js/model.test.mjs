// The trained-model API (web/model.mjs over the core's TrainableModel) in both builds: the
// contract (docs/ARCHITECTURE.md, "The trained model"; docs/MODELS.md), the weights file as an independent reader sees it, refusals that leave
// everything else untouched, and learning on a copy task.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../../dist/posenc.mjs';
import { readSafetensors } from './safetensors-reader.mjs';

const SCHEMES = ['nope', 'additive', 'learned', 'concatenated', 'rotary', 'alibi', 't5'];

function config(scheme, extra = {}) {
  return { scheme, vocab: 12, d: 16, layers: 2, heads: 2, context: 8, seed: 3,
    ...(scheme === 'concatenated' ? { dPos: 4 } : {}), ...extra };
}

// A seeded copy batch: x_1 … x_4 SEP x_1 … x_4 (ids 2…11 symbols, 1 SEP), answer counted only.
function copyBatch(B, T, seed) {
  const tokens = new Int32Array(B * (T + 1));
  const mask = new Uint8Array(B * T);
  let s = seed >>> 0;
  const next = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0);
  const items = T / 2;
  for (let b = 0; b < B; b++) {
    const row = tokens.subarray(b * (T + 1));
    for (let i = 0; i < items; i++) row[i] = 2 + (next() % 10);
    row[items] = 1;
    for (let i = 0; i < items; i++) row[items + 1 + i] = row[i];
    for (let p = items; p < T; p++) mask[b * T + p] = 1;
  }
  return { tokens, mask };
}

// A float array's bits, to compare arrays exactly (NaN and −0 included).
const bits = (a) => new Uint32Array(a.buffer, a.byteOffset, a.length);

// A rotary model one step from its initialisation (attention far from uniform), and 7 ids to inspect.
function steppedRotary(lab) {
  const m = lab.createModel(config('rotary', { context: 20 }));
  m.trainStep(copyBatch(4, 8, 0).tokens, 4, 8, { lr: 0.05 });
  const ids = [2, 3, 4, 5, 6, 7, 8];
  return { m, ids, n: ids.length, ...m.config };
}

for (const simd of [true, false]) {
  describe(`models, ${simd ? 'SIMD' : 'scalar'} build`, () => {
    let lab;
    before(async () => { lab = await load({ simd }); await lab.loadModels(); });

    it('every scheme: config, tensors in file order, loss at initialisation ≈ ln V', () => {
      for (const scheme of SCHEMES) {
        const m = lab.createModel(config(scheme));
        try {
          assert.equal(m.config.scheme, scheme);
          assert.equal(m.config.d, 16);
          assert.equal(m.tensors[0].name, 'wte.weight');
          assert.deepEqual(m.tensors[0].shape, [12, scheme === 'concatenated' ? 12 : 16]);
          assert.equal(m.tensors.at(-1).name, 'lm_head.weight');
          const last = m.tensors.at(-1);
          assert.equal(last.offset + 12 * 16, m.parameterCount);
          const { tokens, mask } = copyBatch(4, 8, 1);
          // N(0, 0.02) weights make the logits ≈ 0.02²·d-sized: the loss is ln 12 within 0.05.
          assert.ok(Math.abs(m.loss(tokens, 4, 8, { mask }) - Math.log(12)) < 0.05, scheme);
        } finally {
          m.dispose();
        }
      }
    });

    it('gradients name every tensor with its size; the loss matches loss()', () => {
      const m = lab.createModel(config('t5'));
      const { tokens, mask } = copyBatch(3, 8, 2);
      const { loss, grads } = m.gradients(tokens, 3, 8, { mask });
      assert.equal(loss, m.loss(tokens, 3, 8, { mask }));
      assert.deepEqual(Object.keys(grads), m.tensors.map((t) => t.name));
      for (const t of m.tensors) assert.equal(grads[t.name].length, t.shape.reduce((a, b) => a * b, 1));
      // T5's bias table receives gradient (it is the scheme's only position signal).
      assert.ok(grads['t5_bias.weight'].some((g) => g !== 0));
      m.dispose();
    });

    it('inspect writes the map into options.into when given: the same bits, that array returned', () => {
      const { m, ids, n, layers, heads } = steppedRotary(lab);
      const plain = m.inspect(ids, n, { layer: layers - 1, head: 1 });
      // On a buffer longer than the map, as the lab worker's pool lends them, at an offset, filled with junk.
      const into = new Float32Array(new ArrayBuffer(4 * (n * n + 9)), 8, n * n).fill(-3);
      const got = m.inspect(ids, n, { layer: layers - 1, head: 1, into });
      assert.equal(got.attention, into);
      assert.deepEqual(bits(into), bits(plain.attention));
      assert.deepEqual(bits(got.surprise), bits(plain.surprise));
      const every = new Float32Array(layers * heads * n * n);
      assert.deepEqual(bits(m.inspect(ids, n, { into: every }).attention), bits(m.attention(ids, n)), 'every map');
      assert.throws(() => m.inspect(ids, n, { layer: 0, head: 0, into: new Float32Array(n * n + 1) }), /options\.into holds 50 floats; the map has 49/);
      assert.throws(() => m.inspect(ids, n, { layer: 0, head: 0, into: new Float64Array(n * n) }), /options\.into must be a Float32Array/);
      assert.throws(() => m.inspect(ids, n, { into: new Float32Array(n * n) }), RangeError, 'every map is L·h·n² floats');
      m.dispose();
    });

    it('inspect with options.fromRow gives each map\'s rows from there on, the whole map\'s bits', () => {
      const { m, ids, n, layers, heads } = steppedRotary(lab);
      const whole = m.inspect(ids, n);
      for (const fromRow of [0, 1, 4, n - 1]) {
        const rows = (n - fromRow) * n;
        const one = m.inspect(ids, n, { layer: layers - 1, head: 1, fromRow });
        const mapAt = ((layers - 1) * heads + 1) * n * n;
        assert.deepEqual(bits(one.attention), bits(whole.attention.subarray(mapAt + fromRow * n, mapAt + n * n)), `one map from row ${fromRow}`);
        assert.deepEqual(bits(one.surprise), bits(whole.surprise));
        const into = new Float32Array(rows).fill(-3);
        assert.equal(m.inspect(ids, n, { layer: 0, head: 0, fromRow, into }).attention, into);
        assert.deepEqual(bits(into), bits(whole.attention.subarray(fromRow * n, n * n)), `into from row ${fromRow}`);
        const every = m.inspect(ids, n, { fromRow }).attention;
        assert.equal(every.length, layers * heads * rows);
        for (let map = 0; map < layers * heads; map++) {
          assert.deepEqual(bits(every.subarray(map * rows, (map + 1) * rows)), bits(whole.attention.subarray(map * n * n + fromRow * n, (map + 1) * n * n)));
        }
      }
      assert.throws(() => m.inspect(ids, n, { layer: 0, head: 0, fromRow: n }), /options\.fromRow must be an integer from 0 to 6/);
      assert.throws(() => m.inspect(ids, n, { layer: 0, head: 0, fromRow: -1 }), /options\.fromRow/);
      assert.throws(() => m.inspect(ids, n, { layer: 0, head: 0, fromRow: 1.5 }), /options\.fromRow/);
      assert.throws(() => m.inspect(ids, n, { layer: 0, head: 0, fromRow: 2, into: new Float32Array(n * n) }), /options\.into holds 49 floats; the map has 35/);
      m.dispose();
    });

    it('a row scored ahead with any next id (tokenLosses) leaves the pass that adds the real word a fresh model\'s bits', () => {
      // The lab worker scores the last word's row after a space with the unknown id after it
      // (web/pipeline/model-host.js, scoreAhead); the key that adds a word then reuses that row.
      for (const scheme of SCHEMES) {
        const m = lab.createModel(config(scheme, { context: 20 }));
        for (let step = 0; step < 3; step++) m.trainStep(copyBatch(4, 8, step).tokens, 4, 8, { lr: 0.05 });
        const saved = m.save();
        const { layers, heads } = m.config;
        const ids = [2, 3, 4, 5, 6, 7, 8];
        const n = ids.length;
        // The first map's layer (the layers above it left out by a typed key's pass) and the last's.
        for (const [layer, head] of [[0, 0], [layers - 1, heads - 1]]) {
          for (const next of [9, 1]) { // another id than the one scored ahead, then the same one
            m.inspect(ids, n, { layer, head });
            m.tokenLosses([...ids, 1], n + 1);
            const added = [...ids, next];
            const got = m.inspect(added, n + 1, { layer, head, fromRow: n });
            const fresh = lab.loadModel(saved);
            const whole = fresh.inspect(added, n + 1, { layer, head });
            fresh.dispose();
            const what = `${scheme}, map (${layer}, ${head}), next id ${next}`;
            assert.deepEqual(bits(got.attention), bits(whole.attention.subarray(n * (n + 1))), what);
            assert.deepEqual(bits(got.surprise), bits(whole.surprise), what);
          }
        }
        m.dispose();
      }
    });

    it('attention rows are causal distributions; logits have n·V entries', () => {
      const m = lab.createModel(config('alibi'));
      const n = 5;
      const w = m.attention([2, 3, 4, 5, 6], n);
      assert.equal(w.length, 2 * 2 * n * n);
      for (let r = 0; r < 2 * 2 * n; r++) {
        const i = r % n;
        let sum = 0;
        for (let j = 0; j < n; j++) {
          if (j > i) assert.equal(w[r * n + j], 0);
          sum += w[r * n + j];
        }
        assert.ok(Math.abs(sum - 1) < 1e-5);
      }
      assert.equal(m.logits([2, 3, 4, 5, 6], n).length, n * 12);
      m.dispose();
    });

    it('inspect: attention() bit for bit, surprise the exact terms of loss(), reused rows equal a fresh model', () => {
      for (const scheme of SCHEMES) {
        const m = lab.createModel(config(scheme, { context: 20 }));
        // Weights far from the initialisation, so attention is not near uniform: a few steps.
        for (let step = 0; step < 5; step++) m.trainStep(copyBatch(4, 8, step).tokens, 4, 8, { lr: 0.05 });
        const fresh = lab.loadModel(m.save());
        const typed = [[2, 3, 4, 5, 6, 7, 8, 9, 10], [2, 3, 4, 5, 6, 7, 8, 9, 11], [2, 3, 4, 5, 6, 7, 8, 9, 11, 1],
          [2, 3, 9, 5, 6, 7, 8, 9, 11, 1], [2, 3, 9, 5], [2], Array.from({ length: 20 }, (_, i) => 2 + (i % 10))];
        for (const ids of typed) {
          const n = ids.length;
          const got = m.inspect(ids, n);
          const other = lab.loadModel(fresh.save());
          const once = other.inspect(ids, n);
          other.dispose();
          assert.deepEqual(bits(got.attention), bits(fresh.attention(ids, n)), `${scheme} n = ${n}`);
          assert.deepEqual(bits(got.attention), bits(once.attention));
          assert.deepEqual(bits(got.surprise), bits(once.surprise));
          assert.equal(got.surprise.length, n - 1);
          if (n > 1) assert.equal(got.surprise.reduce((a, b) => a + b, 0) / (n - 1), fresh.loss(ids, 1, n - 1), `${scheme} n = ${n}`);
          // One head alone: that n×n slice of every head's maps (the last of layers × heads).
          const { layers, heads } = m.config;
          const one = m.inspect(ids, n, { layer: layers - 1, head: heads - 1 });
          assert.deepEqual(bits(one.attention), bits(got.attention.subarray((layers * heads - 1) * n * n)));
          assert.deepEqual(bits(one.surprise), bits(got.surprise));
          if (n > 1) assert.deepEqual(bits(m.tokenLosses(ids, n)), bits(got.surprise), 'tokenLosses: the surprise, no maps copied');
        }
        assert.throws(() => m.inspect([2, 3], 2, { layer: 0 }), /options\.layer and options\.head go together/);
        assert.throws(() => m.inspect([2, 3], 2, { layer: m.config.layers, head: 0 }), /options\.layer must be an integer from 0 to/);
        assert.throws(() => m.inspect([2, 3], 2, { layer: 0, head: -1 }), /options\.head must be an integer from 0 to/);
        if (scheme === 'learned') assert.throws(() => m.inspect(new Int32Array(21).fill(2), 21), RangeError);
        assert.throws(() => m.inspect([2, 3], 3), /tokens/);
        assert.throws(() => m.inspect([2, 3], 2, { bogus: 1 }), /bogus/);
        assert.deepEqual(bits(m.inspect([2, 3, 4], 3).surprise), bits(fresh.inspect([2, 3, 4], 3).surprise));
        m.dispose();
        fresh.dispose();
      }
    });

    it('trainStep learns the copy task (loss below 0.3 within 400 steps)', () => {
      const m = lab.createModel(config('rotary', { d: 32, heads: 4, seed: 1 }));
      let loss = Infinity;
      for (let step = 0; step < 400 && loss > 0.3; step++) {
        const { tokens, mask } = copyBatch(16, 8, step + 1);
        m.trainStep(tokens, 16, 8, { mask, lr: 3e-3, weightDecay: 0 });
        const held = copyBatch(16, 8, 100000 + step);
        loss = m.loss(held.tokens, 16, 8, { mask: held.mask });
      }
      assert.ok(loss < 0.3, `held-out copy loss ${loss}`);
      assert.ok(m.steps > 0);
      m.dispose();
    });

    it('save → loadModel gives the same parameters and losses; an independent reader agrees', () => {
      const m = lab.createModel(config('concatenated'));
      const { tokens, mask } = copyBatch(4, 8, 5);
      for (let i = 0; i < 3; i++) m.trainStep(tokens, 4, 8, { mask });
      const bytes = m.save();
      const file = readSafetensors(bytes);
      assert.equal((8 + file.headerLength) % 8, 0);
      assert.deepEqual(JSON.parse(file.metadata.posenc), m.config);
      const params = m.parameters();
      assert.deepEqual(Object.keys(file.tensors), m.tensors.map((t) => t.name));
      for (const t of m.tensors) {
        assert.deepEqual(file.tensors[t.name].shape, t.shape);
        assert.deepEqual(file.tensors[t.name].values, params[t.name], t.name);
      }
      const copy = lab.loadModel(bytes);
      assert.deepEqual(copy.config, m.config);
      assert.equal(copy.loss(tokens, 4, 8, { mask }), m.loss(tokens, 4, 8, { mask }));
      assert.deepEqual(copy.save(), bytes);
      const half = lab.loadModel(m.save({ dtype: 'f16' }));
      assert.ok(Math.abs(half.loss(tokens, 4, 8, { mask }) - m.loss(tokens, 4, 8, { mask })) < 1e-3);
      for (const model of [m, copy, half]) model.dispose();
    });

    it('hostile weights files are refused with a message, and the running model is untouched', () => {
      const m = lab.createModel(config('additive'));
      const { tokens, mask } = copyBatch(2, 8, 9);
      const before = m.loss(tokens, 2, 8, { mask });
      const good = m.save();
      const huge = good.slice();
      new DataView(huge.buffer).setBigUint64(0, 2n ** 40n, true);
      const wrongDtype = new TextEncoder().encode(new TextDecoder().decode(good).replace('"F32"', '"F64"'));
      for (const [what, bytes] of [['truncated', good.subarray(0, good.length - 1)], ['empty', new Uint8Array(0)],
        ['huge header length', huge], ['wrong dtype', wrongDtype], ['header only', good.subarray(0, 8)]]) {
        assert.throws(() => lab.loadModel(bytes), (e) => e instanceof RangeError && /^weights file: /.test(e.message), what);
      }
      assert.throws(() => lab.loadModel('file.safetensors'), TypeError);
      assert.equal(m.loss(tokens, 2, 8, { mask }), before);
      m.dispose();
    });

    it('arguments are refused with errors that name them; the model stays usable', () => {
      const m = lab.createModel(config('learned'));
      const { tokens, mask } = copyBatch(2, 8, 4);
      const named = (fn, type, name) => assert.throws(fn, (e) => e instanceof type && e.message.includes(name), name);
      named(() => lab.createModel({ ...config('rotary'), heads: 3 }), RangeError, 'heads');
      named(() => lab.createModel({ ...config('xpos') }), RangeError, 'scheme');
      named(() => lab.createModel({ vocab: 12 }), TypeError, 'scheme');
      named(() => lab.createModel({ ...config('nope'), colour: 1 }), TypeError, 'colour');
      named(() => lab.createModel({ ...config('nope'), d: 2.5 }), RangeError, 'd');
      named(() => m.loss(tokens, 2, 7, { mask }), RangeError, 'tokens');
      named(() => m.loss(tokens.map((t) => t + 20), 2, 8), RangeError, 'tokens');
      named(() => m.loss(tokens, 2, 8, { mask: mask.subarray(1) }), RangeError, 'mask');
      named(() => m.trainStep(tokens, 2, 8, { lr: NaN }), RangeError, 'lr');
      named(() => m.attention(new Int32Array(9).fill(2), 9), RangeError, 'context');
      named(() => m.attention([2, 3], 2, { ropeScaling: { type: 'pi', factor: 2 } }), RangeError, 'ropeScaling');
      named(() => m.save({ dtype: 'bf16' }), RangeError, 'dtype');
      assert.ok(Number.isFinite(m.loss(tokens, 2, 8, { mask })));
      m.dispose();
      named(() => m.loss(tokens, 2, 8), RangeError, 'disposed');
    });

    it('rotary evaluation takes PI / NTK / YaRN past the training length; factor 1 is plain RoPE', () => {
      const m = lab.createModel(config('rotary'));
      const long = Array.from({ length: 24 }, (_, i) => 2 + (i % 10));
      const plain = m.logits(long, 24);
      for (const type of ['pi', 'ntk', 'yarn']) {
        assert.deepEqual(m.logits(long, 24, { ropeScaling: { type, factor: 1 } }), plain, type);
        assert.notDeepEqual(m.logits(long, 24, { ropeScaling: { type, factor: 3 } }), plain, type);
      }
      m.dispose();
    });

    it('ropeScaling without a factor takes s = max(1, length / context) at each length, the bits of that factor given', () => {
      const m = lab.createModel(config('rotary'));
      const T = m.config.context;
      const ids = (n) => Array.from({ length: n }, (_, i) => 2 + ((i * 7) % 10));
      const task = lab.createTask({ kind: 'copy', symbols: 10 });
      for (const type of ['pi', 'ntk', 'yarn']) {
        for (const n of [T - 3, T, 2 * T + 5, 3 * T]) {
          const given = { ropeScaling: { type, factor: Math.max(1, n / T) } };
          assert.deepEqual(m.logits(ids(n), n, { ropeScaling: { type } }), m.logits(ids(n), n, given), `${type} logits at ${n}`);
          assert.deepEqual(m.tokenLosses(ids(n), n, { ropeScaling: { type } }), m.tokenLosses(ids(n), n, given), `${type} losses at ${n}`);
        }
        // A factor given is checked, never read as "left out": 0 and 0.5 are refused by name.
        for (const factor of [0, 0.5]) {
          assert.throws(() => m.logits(ids(T), T, { ropeScaling: { type, factor } }), { name: 'RangeError', message: /^ropeScaling\.factor must be a number from 1 to 1048576/ }, `${type} ${factor}`);
        }
        // One call over several lengths: each its own s (a single factor would give one of them).
        const lengths = [T, 2 * T, 4 * T];
        const derived = m.evaluate(task, { lengths, B: 2, batches: 1, ropeScaling: { type } });
        lengths.forEach((L, i) => assert.deepEqual(derived[i],
          m.evaluate(task, { lengths: [L], B: 2, batches: 1, ropeScaling: { type, factor: L / T } })[0], `${type} evaluate at ${L}`));
        // inspect keeps rows between calls: growing n past T changes s, so no row may be reused.
        m.inspect(ids(2 * T), 2 * T, { ropeScaling: { type } });
        const grown = m.inspect(ids(3 * T), 3 * T, { ropeScaling: { type } });
        m.inspect(ids(T - 1), T - 1);
        assert.deepEqual(grown, m.inspect(ids(3 * T), 3 * T, { ropeScaling: { type, factor: 3 } }), `${type} inspect after a shorter call`);
      }
      task.dispose();
      m.dispose();
    });

    it('100 create/dispose cycles and 1,000 steps leave the heap where it was', () => {
      const { tokens, mask } = copyBatch(8, 8, 11);
      const warm = lab.createModel(config('t5'));
      warm.trainStep(tokens, 8, 8, { mask });
      warm.dispose();
      const heap = lab.heapBytes;
      for (let i = 0; i < 100; i++) lab.createModel(config(SCHEMES[i % SCHEMES.length])).dispose();
      const m = lab.createModel(config('t5'));
      for (let i = 0; i < 1000; i++) m.trainStep(tokens, 8, 8, { mask });
      m.save();
      m.dispose();
      assert.equal(lab.heapBytes, heap);
    });
  });
}

describe('models: the two builds agree', () => {
  it('SIMD and scalar losses after training differ only by float rounding', async () => {
    const [a, b] = [await load({ simd: true }), await load({ simd: false })];
    await Promise.all([a.loadModels(), b.loadModels()]);
    const [ma, mb] = [a.createModel(config('rotary')), b.createModel(config('rotary'))];
    const { tokens, mask } = copyBatch(4, 8, 21);
    for (let i = 0; i < 5; i++) {
      ma.trainStep(tokens, 4, 8, { mask });
      mb.trainStep(tokens, 4, 8, { mask });
    }
    // Same initial bits (seeded in double, rounded once); five AdamW steps of size ≈ lr move the
    // parameters by ≈ 5e-3 and the two builds' sums differ in rounding only: 1e-4 on a loss of ≈ 2.4.
    assert.deepEqual(ma.parameters()['wte.weight'].length, mb.parameters()['wte.weight'].length);
    assert.ok(Math.abs(ma.loss(tokens, 4, 8, { mask }) - mb.loss(tokens, 4, 8, { mask })) < 1e-4);
    ma.dispose();
    mb.dispose();
  });
});
