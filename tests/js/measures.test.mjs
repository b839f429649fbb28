// The measures (web/pipeline/measures/) return data a worker can post to the page: each one's
// output for a small fixed input must come through structuredClone deep-equal — same values,
// same typed-array kinds, plain prototypes (a class instance would clone to a plain object and
// fail the strict comparison; a function or a lab handle would make structuredClone throw).
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../../dist/posenc.mjs';
import { createPipeline, settleSettings } from '../../dist/pipeline/pipeline.js';
import { DEFAULTS } from '../../dist/pipeline/state.js';
import { syntheticSource } from '../../dist/pipeline/vocab.js';
import { spreadArgs, spreadMeasure } from '../../dist/pipeline/measures/spread.js';
import { distanceArgs, distanceMeasure } from '../../dist/pipeline/measures/distance.js';
import { anglesArgs, anglesMeasure } from '../../dist/pipeline/measures/angles.js';
import { orthogonalityMeasure } from '../../dist/pipeline/measures/orthogonality.js';
import { shiftMeasure } from '../../dist/pipeline/measures/shift.js';
import { retrievalMeasure } from '../../dist/pipeline/measures/retrieval.js';
import { createDecoderCache, neighborsMeasure } from '../../dist/pipeline/measures/neighbors.js';
import { analysisCompare, orthogonalityArgs, retrievalArgs, shiftArgs } from '../../dist/pipeline/measures/analyses.js';

/** Runs a generator to its end (what the page's scheduler does between keystrokes) → its value. */
function drain(generator) {
  let step;
  do step = generator.next(); while (!step.done);
  return step.value;
}

const survivesClone = (data) => assert.deepStrictEqual(structuredClone(data), data);

describe('orthogonalityMeasure: the random-pair spreads in slices', () => {
  it('pool to the spread of one 2000-pair core call, yielding after every slice', async () => {
    const lab = await load();  // its own lab: the spreads are cached per lab
    const args = { tokens: ['the', 'cat'], base: 10000, layout: 'interleaved', current: { vectors: new Float32Array(2 * 100), d: 100, label: 'GloVe' } };
    const run = orthogonalityMeasure(lab, args);
    let yields = 0;
    let step;
    while (!(step = run.next()).done) yields += 1;
    // Ten widths (DIMS and d = 100), each 2000 pairs in slices of 250.
    assert.equal(yields, 10 * 8);
    // The slices draw the same pairs as one call: only float64 rounding of the pooled moments
    // separates them (≤ 1e-15 relative seen); other pairs would differ by about 1e-2.
    for (const [i, d] of step.value.dims.entries()) {
      const whole = lab.cosineSpread(d, { pairs: 2000 }).std;
      assert.ok(Math.abs(step.value.random[i] - whole) <= 1e-12 * whole, `d=${d}: ${step.value.random[i]} vs ${whole}`);
    }
    // Cached per lab: a second run computes no spread, so it never yields.
    assert.equal([...orthogonalityMeasure(lab, args)].length, 0);
  });
});

describe('analysisCompare: the compares the analyses read', () => {
  it('bring the weights and x of a full compare, bit for bit, and form no terms', async () => {
    const lab = await load();
    const source = syntheticSource(lab, 32);
    const pipeline = createPipeline(lab);
    const state = { ...DEFAULTS, vectors: 'synthetic', d: 32, heads: 2, sentence: 'the cat sat on the mat' };
    const settings = settleSettings(lab, state, source);
    const view = pipeline.run(state, source, settings);
    const run = analysisCompare(view, { lab, pipeline });
    const sameBits = (a, b) => a.length === b.length && a.every((x, i) => Object.is(x, b[i]));
    // The sentence with the view's heads (its lanes and the other schemes), W = I, and a shifted sentence.
    for (const [heads, words] of [[2, view.tokens], [0, view.tokens], [2, ['so', 'well', ...view.tokens]]]) {
      const got = run(heads, words, lab.SCHEMES);
      const full = pipeline.compare(view, heads, words, undefined, lab.SCHEMES);
      for (const scheme of lab.SCHEMES) {
        const label = `${scheme}, ${heads} heads, ${words.length} words`;
        assert.ok(sameBits(got[scheme].weights, full[scheme].weights), `${label}: weights`);
        assert.ok(sameBits(got[scheme].x, full[scheme].x), `${label}: x`);
        assert.ok(full[scheme].terms.length > 0, `${label}: a full compare has terms`);
        if (!view.result[scheme] || heads !== 2 || words !== view.tokens) {
          assert.equal(got[scheme].terms?.length ?? 0, 0, `${label}: no terms formed`);
        }
      }
    }
  });
});

describe('measures: output survives structuredClone', () => {
  let lab;
  let page;
  let view;
  before(async () => {
    lab = await load();
    const source = syntheticSource(lab, 32);
    const pipeline = createPipeline(lab);
    // Evaluation past the trained length, so the angles flag pairs and the distance cuts learned.
    const state = { ...DEFAULTS, vectors: 'synthetic', d: 32, heads: 2, sentence: 'the cat sat on the mat', trainedLength: 64, evalLength: 256 };
    const settings = settleSettings(lab, state, source);
    view = pipeline.run(state, source, settings);
    page = { lab, pipeline, state };
  });

  it('the check itself rejects functions and class instances', () => {
    assert.throws(() => survivesClone({ f() {} }));
    class Box { constructor() { this.v = 1; } }
    assert.throws(() => survivesClone({ box: new Box() }));
  });

  it('spreadMeasure', () => {
    const data = spreadMeasure(lab, spreadArgs(page.state, view.source, view.settings, view.n));
    assert.equal(data.ratio.length, 32);
    survivesClone(data);
  });

  it('distanceMeasure (with NaN where learned has no row)', () => {
    const data = distanceMeasure(lab, distanceArgs(lab, page.state, view.settings));
    assert.equal(data.learnedCut, 64);
    assert.ok(Number.isNaN(data.curves.learned[100]));
    survivesClone(data);
  });

  it('anglesMeasure', () => {
    const data = anglesMeasure(lab, anglesArgs(page.state, view.settings));
    assert.equal(data.results[0].id, 'rotary');
    assert.ok(data.results.some((r) => r.count > 0), 'some variant flags a pair');
    survivesClone(data);
  });

  it('orthogonalityMeasure', () => {
    const data = drain(orthogonalityMeasure(lab, orthogonalityArgs(view, page)));
    assert.equal(data.random.length, data.dims.length);
    survivesClone(data);
  });

  it('shiftMeasure', () => {
    const data = drain(shiftMeasure(lab, shiftArgs(view, page)));
    assert.equal(data.rows.length, lab.SCHEMES.length);
    survivesClone(data);
  });

  it('retrievalMeasure and neighborsMeasure (one decoder, as the page shares it)', () => {
    const decoder = createDecoderCache();
    const data = drain(retrievalMeasure(lab, drain(retrievalArgs(view, page, () => decoder(view)))));
    assert.equal(data.rows.length, lab.SCHEMES.length);
    survivesClone(data);
    const { result, tokens, E, settings, unknown } = view;
    const near = neighborsMeasure(lab, { decoder: decoder(view), result, tokens, E, d: settings.d, dWord: settings.dWord, selected: 1, unknown });
    assert.equal(near.token, 'cat');
    assert.equal(near.rows.length, 1 + result.schemes.length);
    survivesClone(near);
  });
});
