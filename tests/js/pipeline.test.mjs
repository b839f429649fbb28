// web/pipeline/pipeline.js, the one path from settings and text to views that the page and the element
// share: its fallbacks and notes (the dependent-value rules among them), and a run's view against
// the separate calls. Tolerance: none (bit-identical arrays).
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../../dist/posenc.mjs';
import { createPipeline, settleSettings } from '../../dist/pipeline/pipeline.js';
import { DEFAULTS, autoDPos } from '../../dist/pipeline/state.js';
import { syntheticSource } from '../../dist/pipeline/vocab.js';

const bits = (a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

describe('pipeline', () => {
  let lab;
  let source;
  before(async () => {
    lab = await load();
    source = syntheticSource(lab, 32);
  });

  it('settles each value that cannot apply once, with one note each', () => {
    const settings = settleSettings(lab, { ...DEFAULTS, d: 32, dPos: 32, heads: 3, alibiHeads: 2, alibiHead: 5 }, source);
    assert.equal(settings.dPos, autoDPos(32));
    assert.equal(settings.heads, 0);
    assert.equal(settings.alibiHead, 2, 'ALiBi head k clamped to H');
    assert.deepEqual(settings.notes, [
      `d_p = 32 leaves no room for the word at d = 32; using ${autoDPos(32)}.`,
      '3 heads do not divide the widths (32, 32) into even parts; using W\u00a0=\u00a0I.',
      'ALiBi head k = 5 is more than H = 2 heads; using head 2.',
    ]);
    const fine = settleSettings(lab, { ...DEFAULTS, d: 32 }, source);
    assert.deepEqual(fine.notes, []);
    assert.equal(fine.alpha, 1, "synthetic vectors' automatic α");
  });

  it("a run's view is the separate calls' bits; n = 0 without tokens", () => {
    const pipeline = createPipeline(lab);
    const state = { ...DEFAULTS, d: 32, sentence: 'the cat sat on the mat', schemes: ['rotary', 'alibi'] };
    const settings = settleSettings(lab, state, source);
    const view = pipeline.run(state, source, settings);
    const tokens = lab.tokenize(state.sentence);
    assert.deepEqual(view.tokens, tokens);
    assert.equal(view.n, tokens.length);
    assert.ok(bits(view.E).equals(bits(lab.embed(tokens, 32))));
    const want = pipeline.compare(view, 0, tokens, undefined, state.schemes);
    for (const scheme of state.schemes) assert.ok(bits(view.result[scheme].weights).equals(bits(want[scheme].weights)), scheme);
    assert.ok(bits(view.pe).equals(bits(lab.sinusoidal(tokens.length, 32))), 'PE table made without an additive lane');
    assert.ok(bits(view.peConcat).equals(bits(lab.sinusoidal(tokens.length, settings.dPos))));
    const empty = pipeline.run({ ...state, sentence: ' ' }, source, settings);
    assert.equal(empty.n, 0);
    assert.equal(empty.result, null);
    pipeline.dispose();
  });
});

it("the link fields' messages write numbers as en-US does, without Intl at load", async () => {
  const { FIELDS } = await import('../../dist/pipeline/state.js');
  const { SCHEME_TABLE } = await import('../../dist/scheme-table.mjs');
  for (const p of SCHEME_TABLE.params) {
    const range = `from ${p.pageMin.toLocaleString('en-US')} to ${p.pageMax.toLocaleString('en-US')}`;
    assert.ok(FIELDS[p.name][2].includes(range), `${p.name}: '${FIELDS[p.name][2]}' lacks '${range}'`);
  }
  assert.match(FIELDS.sentence[2], /^at most 200,000 characters$/);
});
