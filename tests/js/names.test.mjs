// Names cross the wasm boundary, not indices: the core's tables give the enum names and the
// defaults JS uses (SCHEME_TABLE.ropeScalings, ropeDefaults; lab.modelLimits.adamw,
// syntheticKinds), the bindings map names to enums, and an unknown name gets the core's message
// naming the argument, the allowed names and the value.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { LIMITS, ROPE_SCALINGS, SCHEME_ROPE_SCALING, load } from '../../dist/posenc.mjs';
import { SCHEME_TABLE } from '../../dist/scheme-table.mjs';
import { LIMITS as TRAIN_LIMITS, TRAIN_SCHEMES, readTrainHash } from '../../dist/train/config.js';
import { parseField } from '../../dist/pipeline/state.js';
import { PLAIN, RESULT_SCHEMES } from '../../dist/results/records.js';

const listed = (names) => names.map((n) => `'${n}'`).join(', ');

describe('names across the boundary', () => {
  let lab;
  before(async () => {
    lab = await load({ simd: false });
    await lab.loadModels?.();
  });

  it('RoPE scalings: the core’s list, plain RoPE first, every scheme’s scaling in it', () => {
    assert.equal(ROPE_SCALINGS, SCHEME_TABLE.ropeScalings);
    assert.equal(ROPE_SCALINGS[0], 'none');
    for (const type of Object.values(SCHEME_ROPE_SCALING)) assert.ok(ROPE_SCALINGS.includes(type), type);
    assert.equal(LIMITS.maxContextLength, SCHEME_TABLE.limits.maxContextLength);
    assert.equal(LIMITS.maxLength, undefined); // one cap for every context length
  });

  it('ropeFrequencies maps each name to its rule, whatever the enum order', () => {
    // s = 2: pi halves every ω (Chen et al.); ntk keeps ω_0 and divides the lowest by exactly s;
    // none ignores s. A reordered enum behind a name would break one of these.
    const d = 8, opts = { trainedLength: 512, evalLength: 1024 };
    const none = lab.ropeFrequencies(d, { scaling: 'none', ...opts });
    const pi = lab.ropeFrequencies(d, { scaling: 'pi', ...opts });
    const ntk = lab.ropeFrequencies(d, { scaling: 'ntk', ...opts });
    const yarn = lab.ropeFrequencies(d, { scaling: 'yarn', ...opts });
    assert.equal(none.scale, 2);
    assert.deepEqual([...pi.frequencies], [...none.frequencies].map((w) => w / 2));
    assert.equal(ntk.frequencies[0], none.frequencies[0]);
    assert.ok(Math.abs(ntk.frequencies[d / 2 - 1] - none.frequencies[d / 2 - 1] / 2) < 1e-15);
    assert.equal(none.qkFactor, 1);
    assert.ok(yarn.qkFactor > 1);
  });

  it('an unknown scaling gets the core’s message with the allowed names', () => {
    assert.throws(() => lab.ropeFrequencies(8, { scaling: 'linear' }),
      { name: 'RangeError', message: `scaling must be one of ${listed(ROPE_SCALINGS)} (got 'linear')` });
    assert.throws(() => lab.ropeFrequencies(8, { scaling: 2 }), { name: 'TypeError', message: 'scaling must be a string' });
    lab.ropeFrequencies(8);  // still usable
  });

  it('ropeFrequencies defaults are the core’s (RopeScalingConfig)', () => {
    const { trainedLength, alpha, beta } = SCHEME_TABLE.ropeDefaults;
    const implicit = lab.ropeFrequencies(16, { scaling: 'yarn', evalLength: 4 * trainedLength });
    const explicit = lab.ropeFrequencies(16, { scaling: 'yarn', trainedLength, evalLength: 4 * trainedLength, alpha, beta });
    assert.deepEqual(implicit, explicit);
    assert.equal(implicit.scale, 4);
  });

  it('a model’s ropeScaling.type and a task’s kind are names the core checks', (t) => {
    if (!lab.modelLimits) return t.skip('this build has no model core');
    const m = lab.createModel({ scheme: 'rotary', vocab: 6, d: 8, layers: 1, heads: 2, context: 4, seed: 1 });
    const tokens = new Int32Array([1, 2, 3, 4, 5]);
    assert.throws(() => m.loss(tokens, 1, 4, { ropeScaling: { type: 'linear', factor: 2 } }),
      { name: 'RangeError', message: `ropeScaling.type must be one of ${listed(ROPE_SCALINGS)} (got 'linear')` });
    for (const type of ROPE_SCALINGS) assert.ok(Number.isFinite(m.loss(tokens, 1, 4, { ropeScaling: { type, factor: 2 } })), type);
    m.dispose();
    assert.deepEqual([...lab.modelLimits.syntheticKinds], ['copy', 'reverse', 'sort']);
    assert.deepEqual([...lab.modelLimits.syntheticKinds], [...SCHEME_TABLE.syntheticKinds]);  // the generated SyntheticKind's
    for (const kind of lab.modelLimits.syntheticKinds) lab.createTask({ kind, symbols: 4 }).dispose?.();
    assert.throws(() => lab.createTask({ kind: 'shuffle' }), { name: 'RangeError', message: /^kind must be one of 'text', 'copy', 'reverse', 'sort'/ });
  });

  it('the results store lists every trainable scheme once, in its own order; a plain run is not a RoPE scaling', () => {
    assert.deepEqual([...RESULT_SCHEMES].sort(), [...SCHEME_TABLE.trainable].sort());
    assert.equal(new Set(RESULT_SCHEMES).size, RESULT_SCHEMES.length);
    assert.equal(RESULT_SCHEMES[0], 'nope'); // no position first, then absolute, then relative
    assert.ok(!ROPE_SCALINGS.slice(1).includes(PLAIN), 'a plain record is not named like an extension');
  });

  it('the page takes its trainable schemes, lr range and α limit from the core’s table, not restated', () => {
    assert.equal(TRAIN_SCHEMES, SCHEME_TABLE.trainable);
    assert.deepEqual(TRAIN_LIMITS.lr, [SCHEME_TABLE.limits.minLr, SCHEME_TABLE.limits.maxLr]);
    assert.deepEqual(TRAIN_LIMITS.lr, [0, 1]); // model/adamw.hpp, kMinLr and kMaxLr
    assert.equal(readTrainHash(`#t.lr=${SCHEME_TABLE.limits.maxLr}`).lr, SCHEME_TABLE.limits.maxLr);
    assert.notEqual(readTrainHash(`#t.lr=${SCHEME_TABLE.limits.maxLr * 1.5}`).lr, SCHEME_TABLE.limits.maxLr * 1.5);
    assert.equal(SCHEME_TABLE.limits.maxAlpha, 1e6);
    assert.equal(parseField('alpha', String(SCHEME_TABLE.limits.maxAlpha)), SCHEME_TABLE.limits.maxAlpha);
    assert.equal(parseField('alpha', String(SCHEME_TABLE.limits.maxAlpha * 1.5)), undefined);
  });

  it('layouts and concatenation modes are the core’s names: its table’s order maps a name to its enum', () => {
    assert.deepEqual([...SCHEME_TABLE.layouts], ['interleaved', 'half']);
    assert.deepEqual([...SCHEME_TABLE.concatModes], ['same-width', 'widened']);
    for (const name of SCHEME_TABLE.layouts) assert.equal(parseField('pairing', name), name);
    for (const name of SCHEME_TABLE.concatModes) assert.equal(parseField('concat', name), name);
    assert.equal(parseField('layout', 'halves'), undefined);
    assert.throws(() => lab.sinusoidal(2, 4, { layout: 'halves' }),
      { name: 'RangeError', message: `layout must be one of ${listed(SCHEME_TABLE.layouts)} (got 'halves')` });
    // Row 1 at d = 4 (ω = 1, 0.01): 'half' puts the sines first, 'interleaved' pairs each with its cosine.
    const within = (got, want) => want.forEach((w, j) => assert.ok(Math.abs(got[4 + j] - w) < 1e-6, `${j}: ${got[4 + j]} vs ${w}`));
    within(lab.sinusoidal(2, 4, { layout: 'half' }), [Math.sin(1), Math.sin(0.01), Math.cos(1), Math.cos(0.01)]);
    within(lab.sinusoidal(2, 4, { layout: 'interleaved' }), [Math.sin(1), Math.cos(1), Math.sin(0.01), Math.cos(0.01)]);
  });

  it('s = max(1, L′/L) is the core’s: settleSchemeOptions returns it with the settled options', () => {
    assert.equal(lab.settleSchemeOptions({ trainedLength: 2048, evalLength: 8192 }).scaleFactor, 4);
    assert.equal(lab.settleSchemeOptions({ trainedLength: 4096, evalLength: 1024 }).scaleFactor, 1);
    assert.equal(lab.settleSchemeOptions({ trainedLength: 3, evalLength: 7 }).scaleFactor,
      lab.ropeFrequencies(2, { trainedLength: 3, evalLength: 7 }).scale);
  });

  it('lr is checked once, by the core: the API passes any number through and names the core’s range', (t) => {
    if (!lab.modelLimits) return t.skip('this build has no model core');
    const m = lab.createModel({ scheme: 'nope', vocab: 6, d: 8, layers: 1, heads: 2, context: 4, seed: 3 });
    const tokens = new Int32Array([1, 2, 3, 4, 5, 0, 1, 2, 3, 4]);
    const range = `lr must be a finite number from ${SCHEME_TABLE.limits.minLr} to ${SCHEME_TABLE.limits.maxLr}`;
    for (const lr of [SCHEME_TABLE.limits.maxLr * 2, -0.5, NaN, Infinity]) {
      assert.throws(() => m.trainStep(tokens, 2, 4, { lr }), { name: 'RangeError', message: range }, String(lr));
    }
    assert.throws(() => m.trainStep(tokens, 2, 4, { lr: '0.1' }), { name: 'TypeError', message: 'lr must be a number' });
    assert.ok(Number.isFinite(m.trainStep(tokens, 2, 4, { lr: SCHEME_TABLE.limits.maxLr })));
    m.dispose();
  });

  it('trainStep’s AdamW defaults are the core’s AdamWOptions, as written in docs/ARCHITECTURE.md', (t) => {
    if (!lab.modelLimits) return t.skip('this build has no model core');
    assert.deepEqual({ ...lab.modelLimits.adamw }, { lr: 1e-3, beta1: 0.9, beta2: 0.95, eps: 1e-8, weightDecay: 0.1, clip: 1 });
    // Defaults and the same values given explicitly take the same step, bit for bit.
    const spec = { scheme: 'alibi', vocab: 6, d: 8, layers: 1, heads: 2, context: 4, seed: 2 };
    const a = lab.createModel(spec), b = lab.createModel(spec);
    const tokens = new Int32Array([1, 2, 3, 4, 5, 0, 1, 2, 3, 4]);
    assert.equal(a.trainStep(tokens, 2, 4), b.trainStep(tokens, 2, 4, { ...lab.modelLimits.adamw }));
    assert.equal(a.loss(tokens, 2, 4), b.loss(tokens, 2, 4));
    a.dispose();
    b.dispose();
  });
});
