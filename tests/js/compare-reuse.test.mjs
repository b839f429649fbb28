// lab.compare() keeps the n×n·d products of the rows a call shares with the previous one (typing at
// the end of a sentence changes only its last token): through the API, a lab that has seen the
// previous sentences must return exactly the bits of a lab that has not, on both builds. The core's
// own test (tests/cpp/test_compare_reuse.cpp) covers every edit kind; this one covers the binding
// path — one Comparison per lab, inputs copied into the heap each call, options in between — and
// the API's own savings: options.reuse (arrays overwritten in place), options.inputOnly (lanes
// whose n×n parts are skipped) and the lanes' max|·|.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { load, SCHEMES } from '../../dist/posenc.mjs';

const D = 24;

function sameBits(a, b) {
  return a.length === b.length && Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
}

// Every Float32Array of a compare() result, by path, for a bit-for-bit comparison.
function arraysOf(result) {
  const out = {};
  for (const [key, value] of Object.entries(result)) {
    if (value instanceof Float32Array) out[key] = value;
    else if (value && typeof value === 'object' && !Array.isArray(value)) {
      for (const [k, v] of Object.entries(value)) if (v instanceof Float32Array) out[`${key}.${k}`] = v;
    }
  }
  return out;
}

// A seeded sentence of n rows whose row p depends on (p, version[p]) only.
function sentence(n, versions) {
  const e = new Float32Array(n * D);
  for (let p = 0; p < n; p++) {
    let s = (p + 1) * 7919 + (versions[p] ?? 0) * 104729;
    for (let c = 0; c < D; c++) {
      s = (s * 1103515245 + 12345) % 2147483648;
      e[p * D + c] = (s / 2147483648) * 3 - 1.5;
    }
  }
  return e;
}

for (const simd of [true, false]) {
  describe(`compare() row reuse, ${simd ? 'SIMD' : 'scalar'} build`, () => {
    let typing;
    let fresh;
    before(async () => {
      typing = await load({ simd });
      fresh = await load({ simd });
    });

    it('typing, editing and switching options give a fresh lab\'s bits', () => {
      const versions = [];
      const steps = [];
      for (let n = 1; n <= 20; n++) {
        versions[n - 1] = 0;
        steps.push({ n, options: {} });
        versions[n - 1] = 1;  // the word being typed changes
        steps.push({ n, options: {} });
      }
      steps.push({ n: 19, options: {} });                     // backspace over a token
      steps.push({ n: 19, options: { causal: true } });       // a setting: nothing reused
      steps.push({ n: 19, options: { causal: true } });       // the same again: everything reused
      steps.push({ n: 19, options: { heads: 2 } });           // projection heads: no reuse
      steps.push({ n: 19, options: {} });
      let compared = 0;
      for (const { n, options } of steps) {
        const e = sentence(n, versions);
        const all = { schemes: [...SCHEMES], dPos: 6, alpha: 1.25, trainedLength: 8, evalLength: 40, ...options };
        const got = arraysOf(typing.compare(e, n, D, all));
        const want = arraysOf(fresh.compare(e, n, D, all));
        assert.deepEqual(Object.keys(got).sort(), Object.keys(want).sort());
        for (const key of Object.keys(want)) {
          assert.ok(sameBits(got[key], want[key]), `n = ${n}, ${JSON.stringify(options)}: ${key} differs`);
          compared++;
        }
        // The reference lab forgets: a call with other settings leaves nothing to reuse next time.
        fresh.compare(sentence(5, [9, 9, 9, 9, 9]), 5, D, { schemes: ['additive'] });
      }
      assert.ok(compared > 40 * 11);
    });

    it('options.reuse overwrites the previous result\'s arrays of the same length, or their buffers where they have room, with a fresh call\'s values', () => {
      const versions = Array(12).fill(0);
      const options = { schemes: ['additive', 'concatenated', 'rotary', 'nope'], dPos: 6 };
      const first = typing.compare(sentence(12, versions), 12, D, options);
      const firstArrays = arraysOf(first);
      versions[11] = 3;
      const e = sentence(12, versions);
      const second = typing.compare(e, 12, D, { ...options, reuse: first });
      const want = arraysOf(fresh.compare(e, 12, D, options));
      for (const [key, array] of Object.entries(arraysOf(second))) {
        assert.equal(array, firstArrays[key], `${key} is the reused array`);
        assert.ok(sameBits(array, want[key]), `${key} holds this call's values`);
      }
      // A longer sentence: no buffer of the first call's (each its array's size) has room, so new
      // arrays, on buffers with room for a few more tokens; the old ones stay as they were.
      const before = Float32Array.from(second.additive.weights);
      const third = typing.compare(sentence(13, versions), 13, D, { ...options, reuse: second });
      assert.notEqual(third.additive.weights, second.additive.weights);
      assert.ok(sameBits(second.additive.weights, before));
      // One token more, then one less: every array lands on the third call's buffers, with a fresh call's values.
      let last = third;
      for (const n of [14, 13]) {
        const buffers = Object.fromEntries(Object.entries(arraysOf(last)).map(([key, array]) => [key, array.buffer]));
        last = typing.compare(sentence(n, versions), n, D, { ...options, reuse: last });
        const wanted = arraysOf(fresh.compare(sentence(n, versions), n, D, options));
        for (const [key, array] of Object.entries(arraysOf(last))) {
          assert.equal(array.buffer, buffers[key], `${n} tokens: ${key} on the last call's buffer`);
          assert.ok(sameBits(array, wanted[key]), `${n} tokens: ${key} holds this call's values`);
        }
      }
      assert.throws(() => typing.compare(e, 12, D, { reuse: 5 }), TypeError);
      assert.throws(() => typing.compare(e, 12, D, { reuse: null }), TypeError);
    });

    it('inputOnly lanes bring x alone, flagged; a typing lab that skipped them still gives a fresh lab\'s bits after', () => {
      const versions = [];
      const options = { schemes: ['additive', 'concatenated', 'rotary', 'nope'], dPos: 6 };
      for (let n = 6; n <= 9; n++) {
        versions[n - 1] = 0;
        const e = sentence(n, versions);
        // Typing under trained maps: three lanes input-only, NoPE whole.
        const covered = typing.compare(e, n, D, { ...options, inputOnly: ['additive', 'concatenated', 'rotary'] });
        const whole = fresh.compare(e, n, D, options);
        for (const name of ['additive', 'concatenated', 'rotary']) {
          const lane = covered[name];
          assert.equal(lane.inputOnly, true, name);
          assert.deepEqual([lane.weights.length, lane.terms.length, lane.termMaxAbs.length], [0, 0, 0], `${name}: nothing n×n`);
          assert.deepEqual(lane.termNames, whole[name].termNames);
          assert.ok(sameBits(lane.x, whole[name].x), `${name} x`);
        }
        assert.equal(covered.nope.inputOnly, undefined);
        assert.ok(sameBits(covered.nope.weights, whole.nope.weights), 'NoPE computed in full');
      }
      // Unfolded: the whole call equals a fresh lab's, bit for bit.
      const e = sentence(9, versions);
      const got = arraysOf(typing.compare(e, 9, D, options));
      const want = arraysOf(fresh.compare(e, 9, D, options));
      for (const key of Object.keys(want)) assert.ok(sameBits(got[key], want[key]), `${key} differs after input-only calls`);
      assert.throws(() => typing.compare(e, 9, D, { ...options, inputOnly: ['alibi'] }), /inputOnly must name only schemes that are computed/);
      assert.throws(() => typing.compare(e, 9, D, { ...options, inputOnly: ['RoPE'] }), /inputOnly\[0\]/);
      assert.throws(() => typing.compare(e, 9, D, { ...options, inputOnly: 'rotary' }), TypeError);
    });

    it('skipTerms lanes come without their terms or their maxima, the rest of the call as without it', () => {
      const versions = [];
      const options = { schemes: ['additive', 'concatenated', 'rotary', 'nope'], dPos: 6 };
      const e = sentence(9, versions);
      const whole = fresh.compare(e, 9, D, options);
      const skipped = typing.compare(e, 9, D, { ...options, skipTerms: ['additive', 'nope'] });
      for (const name of ['additive', 'nope']) {
        assert.equal(skipped[name].terms.length, 0, `${name}: no terms`);
        assert.deepEqual(skipped[name].termMaxAbs, [], `${name}: no terms' maxima`);
        assert.ok(whole[name].termMaxAbs.length > 0, `${name}: maxima without skipTerms`);
      }
      const got = arraysOf(skipped);
      const want = arraysOf(whole);
      for (const key of Object.keys(want)) {
        if (/^(additive|nope)\.terms$/.test(key)) continue;
        assert.ok(sameBits(got[key], want[key]), `${key} differs with skipTerms`);
      }
      assert.throws(() => typing.compare(e, 9, D, { ...options, skipTerms: ['alibi'] }), /skipTerms must name only schemes that are computed/);
      assert.throws(() => typing.compare(e, 9, D, { ...options, skipTerms: ['RoPE'] }), /skipTerms\[0\]/);
      assert.throws(() => typing.compare(e, 9, D, { ...options, skipTerms: 'rotary' }), TypeError);
    });

    it('every lane reports max|x| and max|term| of each term', () => {
      const e = sentence(9, []);
      const result = typing.compare(e, 9, D, { schemes: [...SCHEMES], dPos: 6 });
      const maxAbs = (a, from = 0, to = a.length) => { let m = 0; for (let i = from; i < to; i++) m = Math.max(m, Math.abs(a[i])); return m; };
      for (const name of SCHEMES) {
        const lane = result[name];
        assert.equal(lane.xMaxAbs, maxAbs(lane.x), `${name} x`);
        assert.equal(lane.termMaxAbs.length, lane.termNames.length);
        lane.termMaxAbs.forEach((m, t) => assert.equal(m, maxAbs(lane.terms, t * 81, (t + 1) * 81), `${name} term ${t}`));
      }
    });
  });
}
