// web/pipeline/statistics.js: the numbers behind the page's summaries, against hand-worked cases and the
// definitions they state. Tolerances: 1e-12 relative (double arithmetic over a few terms).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  bucketsUsed, crossTermRatio, firstRepeat, meanNormRatio, meanOwnCosine, rowGap, termRms, worstShift,
} from '../../web/pipeline/statistics.js';

const close = (got, want, message) => assert.ok(Math.abs(got - want) <= 1e-12 * Math.max(1, Math.abs(want)), `${message}: ${got} vs ${want}`);

describe('statistics', () => {
  it('meanNormRatio: ‖PE‖/‖αE‖ per token, averaged', () => {
    const E = Float32Array.of(3, 4, 0, 1);    // norms 5 and 1
    const pe = Float32Array.of(0, 1, 2, 0);   // norms 1 and 2
    close(meanNormRatio(E, pe, 2, 2, 2), (1 / 10 + 2 / 2) / 2, 'two rows');
  });

  it('meanOwnCosine: 1 without PE, the hand-worked cosine with it, 1 for a zero word', () => {
    const E = Float32Array.of(1, 0, 0, 0);
    close(meanOwnCosine(E, new Float32Array(4), 2, 2, 3), 1, 'no PE');
    // Row 0: e = (2, 0), x = (2, 2): cos = 4/(2·√8) = 1/√2; row 1: e = 0 counts as 1.
    close(meanOwnCosine(E, Float32Array.of(0, 2, 5, 5), 2, 2, 2), (Math.SQRT1_2 + 1) / 2, 'with PE');
  });

  it('termRms and crossTermRatio read the terms in the lanes order [e·e, e·p, p·e, p·p]', () => {
    const n = 2;
    const terms = new Float32Array(4 * n * n);
    terms.fill(2, 0, 4);     // e·e: RMS 2
    terms.fill(-1, 4, 8);    // e·p: RMS 1
    terms.set([0, 0, 0, 4], 8);  // p·e: RMS 2
    terms.fill(4, 12, 16);   // p·p: RMS 4
    close(termRms(terms, n, 2), 2, 'p·e');
    close(crossTermRatio(terms, n), 2 / 4, 'max cross over max own');
  });

  it('firstRepeat and rowGap find what NoPE cannot tell apart', () => {
    assert.deepEqual(firstRepeat(['a', 'b', 'c', 'b', 'a']), [1, 3]);
    assert.equal(firstRepeat(['a', 'b']), null);
    const m = Float32Array.of(0.5, 0.5, 0, 0.25, 0.25, 0.5, 0.5, 0.5, 0);
    close(rowGap(m, 3, 0, 1), 0.5, 'rows 0 and 1');
    assert.equal(rowGap(m, 3, 0, 2), 0);
  });

  it('bucketsUsed counts distinct buckets; worstShift takes the largest change, and is null while any is', () => {
    assert.equal(bucketsUsed(Int32Array.of(0, 3, 3, 1, 0), 8), 3);
    const shift = { 0: { rotary: 1e-7, alibi: 3e-7, additive: 0.2 }, 2: { rotary: 2e-6, alibi: 1e-7, additive: 0.3 } };
    assert.equal(worstShift(shift, ['rotary', 'alibi'], 0), 3e-7);
    assert.equal(worstShift(shift, ['rotary', 'alibi'], 2), 2e-6);
    // Not measured yet (the summary before its analyses): null, not Math.max's 0 for null.
    const pending = { 0: { rotary: 1e-7, alibi: null } };
    assert.equal(worstShift(pending, ['rotary', 'alibi'], 0), null);
    assert.equal(worstShift(pending, ['rotary'], 0), 1e-7);
  });
});
