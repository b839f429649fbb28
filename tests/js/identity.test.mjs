// WordVectorSet.identity (the cached identity retrieval, src/analysis/retrieval.hpp) against the brute-force
// decode it replaces, vectors.nearest(α·E + PE) and vectors.nearest(α·E), on both builds; its
// caching across calls that change one token (what typing does); its argument errors.
//
// identity() is also held to its exact definition (src/analysis/retrieval.hpp): s_r = fl(fl(α·c_r) + q_r)
// with c_r = e·û_r and q_r = PE·û_r summed in float32 in index order, ties to the lower row. A
// float32 reference here (Math.fround after every operation) must give the same best row and
// rank on every token, in both builds, however the int8 first pass and the cache arrived at them.
//
// Tolerance: identity() scores a row as α·(e·û) + PE·û, nearest() as (α·e + PE)·û with α·e + PE
// rounded to float32 first; the two differ by a few float32 roundings of terms of size ≤ ‖x‖, so
// the cosines agree to ~1e-6 (checked below at 2e-5). The chosen rows and ranks can then differ
// only between rows whose cosines are that close: best must be the same row or one whose exact
// (float64) cosine is within 2e-5 of the best's, and |rank difference| is at most the number of
// rows whose exact cosine is within 2e-5 of the true word's.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../../dist/posenc.mjs';

const TOL = 2e-5;
const SENTENCE = 'The quick brown fox jumps over the lazy dog while the king and the queen of tokyo ' +
  'watch from a distant hill , and qwxzy zzblorf words that are not there sit beside the river ; ' +
  'every dog has its day , said the old man to the young woman who sold bread and milk in the market .';

function unitRows(rows, v, d) {
  const unit = new Float64Array(v * d);
  for (let r = 0; r < v; r++) {
    let s = 0;
    for (let j = 0; j < d; j++) s += rows[r * d + j] ** 2;
    const inv = s > 0 ? 1 / Math.sqrt(s) : 0;
    for (let j = 0; j < d; j++) unit[r * d + j] = rows[r * d + j] * inv;
  }
  return unit;
}

// Exact (float64) cosines of query x against every unit row.
function cosines(unit, v, d, x) {
  let norm = 0;
  for (let j = 0; j < d; j++) norm += x[j] * x[j];
  norm = Math.sqrt(norm);
  const out = new Float64Array(v);
  for (let r = 0; r < v; r++) {
    let s = 0;
    for (let j = 0; j < d; j++) s += unit[r * d + j] * x[j];
    out[r] = norm > 0 ? s / norm : 0;
  }
  return out;
}

// Unit rows exactly as the core makes them (normalize_rows: norm in float64, x·(1/norm) rounded).
function unitRows32(rows, v, d) {
  const unit = new Float32Array(v * d);
  for (let r = 0; r < v; r++) {
    let s = 0;
    for (let j = 0; j < d; j++) s += rows[r * d + j] * rows[r * d + j];
    const norm = Math.sqrt(s);
    const inv = norm > 0 ? 1 / norm : 0;
    for (let j = 0; j < d; j++) unit[r * d + j] = rows[r * d + j] * inv;
  }
  return unit;
}

// Float32 dot products in index order of x against every unit row.
function sequentialRow(unit, v, d, x, offset = 0) {
  const out = new Float32Array(v);
  const f = Math.fround;
  for (let r = 0; r < v; r++) {
    let s = 0;
    const o = r * d;
    for (let j = 0; j < d; j++) s = f(s + f(x[offset + j] * unit[o + j]));
    out[r] = s;
  }
  return out;
}

// Best row (first largest), its score and the rank of truth under s_r = fl(fl(α·c_r) + q_r).
function exactDecode(c, q, alpha, truth) {
  const f = Math.fround;
  const v = c.length;
  const s = new Float32Array(v);
  for (let r = 0; r < v; r++) s[r] = f(f(alpha * c[r]) + (q ? q[r] : 0));
  let best = 0;
  for (let r = 1; r < v; r++) if (s[r] > s[best]) best = r;
  let rank = 0;
  if (truth >= 0) {
    rank = 1;
    for (let r = 0; r < v; r++) if (s[r] > s[truth] || (s[r] === s[truth] && r < truth)) rank++;
  }
  return { best, score: s[best], rank };
}

const exactCache = { unit: null, content: new Map(), position: new Map() };

for (const simd of [true, false]) {
  describe(`WordVectorSet.identity, ${simd ? 'SIMD' : 'scalar'} build`, () => {
    let lab, glove, unit, tokens, E, n, d, v;
    before(async () => {
      lab = await load({ simd });
      glove = await lab.loadVectors('glove');
      ({ size: v, dim: d } = glove);
      unit = unitRows(glove.rows(), v, d);
      tokens = glove.tokenize(SENTENCE);
      n = tokens.length;
      E = glove.embed(tokens).vectors;
    });

    // identity() against nearest() on the same x_p, and against float64 cosines for near-ties.
    function agrees(result, x, label, words = tokens) {
      const n = words.length;
      const truth = words.map((t) => glove.indexOf(t));
      const known = truth.map((t) => t >= 0);
      const brute = glove.nearest(x, n, { truth: truth.map((t) => (t >= 0 ? t : 0)) });
      let differing = 0;
      for (let p = 0; p < n; p++) {
        const where = `${label}, token ${p} '${words[p]}'`;
        assert.ok(Math.abs(result.cosine[p] - brute.cosine[p]) <= TOL, `${where}: cosine ${result.cosine[p]} vs ${brute.cosine[p]}`);
        if (!known[p]) {
          assert.equal(result.rank[p], 0, `${where}: unknown token has rank 0`);
        }
        if (result.best[p] === brute.best[p] && (!known[p] || result.rank[p] === brute.rank[p])) continue;
        differing++;
        const exact = cosines(unit, v, d, x.subarray(p * d, (p + 1) * d));
        const top = Math.max(...exact);
        assert.ok(top - exact[result.best[p]] <= TOL, `${where}: best row ${result.best[p]} is not a near-tie of the best`);
        if (known[p]) {
          const ties = exact.reduce((c, s) => c + (Math.abs(s - exact[truth[p]]) <= TOL ? 1 : 0), 0);
          assert.ok(Math.abs(result.rank[p] - brute.rank[p]) <= ties,
            `${where}: rank ${result.rank[p]} vs ${brute.rank[p]} with ${ties} near-ties`);
        }
      }
      return differing;
    }

    for (const [base, layout] of [[10000, 'interleaved'], [500, 'half']]) {
      it(`additive (x = αE + PE, base ${base}, ${layout}) and rotary (x = αE) agree with nearest()`, () => {
        const alpha = 1 / glove.componentRms;
        const pe = lab.sinusoidal(n, d, { base, layout });
        const x = new Float32Array(n * d);
        for (let i = 0; i < n * d; i++) x[i] = Math.fround(Math.fround(alpha * E[i]) + pe[i]);
        const additive = glove.identity(tokens, E, { alpha, base, layout });
        assert.ok(additive.best instanceof Uint32Array && additive.cosine instanceof Float32Array && additive.rank instanceof Uint32Array);
        assert.equal(additive.best.length, n);
        const differing = agrees(additive, x, 'additive');
        assert.ok(differing <= 2, `${differing} tokens differ (near-ties only are expected, rarely)`);
        const ax = new Float32Array(n * d);
        for (let i = 0; i < n * d; i++) ax[i] = Math.fround(alpha * E[i]);
        agrees(glove.identity(tokens, E, { alpha, additive: false, base, layout }), ax, 'rotary');
        // Known words mostly decode to themselves at this α; unknown ones carry rank 0.
        const top1 = [...additive.rank].filter((r) => r === 1).length;
        assert.ok(top1 > n / 2, `top-1 ${top1} of ${n}`);
      });
    }

    // A cached answer is held to the same tolerance against nearest() as a fresh one (and is
    // equal to a fresh one: every decoded score is the same exact float sum whatever the history).
    it('cached across calls: typing (one token changed, a prefix, a longer sentence) still agrees with nearest()', () => {
      const alpha = 1.7;
      const variants = [
        tokens,
        tokens.map((t, p) => (p === 5 ? 'kin' : t)),
        tokens.map((t, p) => (p === 5 ? 'king' : t)),
        tokens.slice(0, 20),
        [...tokens, 'again', 'the', 'end'],
        tokens,
      ];
      for (const [i, words] of variants.entries()) {
        const vectors = glove.embed(words).vectors;
        const m = words.length;
        const pe = lab.sinusoidal(m, d);
        const x = new Float32Array(m * d);
        for (let j = 0; j < m * d; j++) x[j] = Math.fround(Math.fround(alpha * vectors[j]) + pe[j]);
        agrees(glove.identity(words, vectors, { alpha }), x, `variant ${i}`, words);
      }
    });

    // Against the exact definition: content rows per distinct word and position rows computed
    // once here in float32 (shared by both builds), then every token decoded by straight loops.
    it('equals exact float32 scoring: same best row and rank on every token, cosine within 2^-21', () => {
      exactCache.unit ??= unitRows32(glove.rows(), v, d);
      const unit = exactCache.unit;
      const words = [...tokens.slice(0, 30), 'kin', 'king', 'queen', 'qwxzy'];
      const m = words.length;
      const vectors = glove.embed(words).vectors;
      const pe = lab.sinusoidal(m, d);
      for (const [alpha, additive] of [[1 / glove.componentRms, true], [1 / glove.componentRms, false], [0.3, true]]) {
        const got = glove.identity(words, vectors, { alpha, additive });
        for (let p = 0; p < m; p++) {
          const key = `${words[p]}`;
          if (!exactCache.content.has(key)) exactCache.content.set(key, sequentialRow(unit, v, d, vectors, p * d));
          if (additive && !exactCache.position.has(p)) exactCache.position.set(p, sequentialRow(unit, v, d, pe, p * d));
          const truth = glove.indexOf(words[p]);
          const want = exactDecode(exactCache.content.get(key), additive ? exactCache.position.get(p) : null, alpha, truth);
          const where = `alpha=${alpha} additive=${additive} token ${p} '${words[p]}'`;
          assert.equal(got.best[p], want.best, `${where}: best`);
          assert.equal(got.rank[p], truth >= 0 ? want.rank : 0, `${where}: rank`);
          // The cosine divides that score by ‖x‖, which the core sums in its own lane order.
          let xx = 0;
          for (let j = 0; j < d; j++) {
            const x = Math.fround(Math.fround(alpha * vectors[p * d + j]) + (additive ? pe[p * d + j] : 0));
            xx += x * x;
          }
          const cosine = want.score / Math.sqrt(xx);
          assert.ok(Math.abs(got.cosine[p] - cosine) <= Math.abs(cosine) * 2 ** -21, `${where}: cosine ${got.cosine[p]} vs ${cosine}`);
        }
      }
    });

    it('alpha changes and the additive/plain switch are not served from the memo', () => {
      const a = glove.identity(tokens, E, { alpha: 1 });
      const b = glove.identity(tokens, E, { alpha: 5 });
      const c = glove.identity(tokens, E, { alpha: 5, additive: false });
      assert.notDeepEqual(a.cosine, b.cosine);
      assert.notDeepEqual(b.cosine, c.cosine);
      assert.deepEqual(glove.identity(tokens, E, { alpha: 1 }), a);
    });

    it('errors name the argument', () => {
      const ok = { alpha: 1 };
      assert.throws(() => glove.identity('the cat', E, ok), { name: 'TypeError', message: /tokens/ });
      assert.throws(() => glove.identity([], E, ok), { name: 'RangeError', message: /tokens/ });
      assert.throws(() => glove.identity(tokens, E.subarray(1), ok), { name: 'RangeError', message: /vectors/ });
      assert.throws(() => glove.identity(tokens, 'E', ok), { name: 'TypeError', message: /vectors/ });
      assert.throws(() => glove.identity(tokens, E, { alpha: NaN }), { name: 'RangeError', message: /alpha/ });
      assert.throws(() => glove.identity(tokens, E, { alpha: '1' }), { name: 'TypeError', message: /alpha/ });
      assert.throws(() => glove.identity(tokens, E, { alpha: 1e39 }), { name: 'RangeError', message: /alpha/ });
      assert.throws(() => glove.identity(tokens, E, { additive: 1 }), { name: 'TypeError', message: /additive/ });
      assert.throws(() => glove.identity(tokens, E, { base: 1 }), { name: 'RangeError', message: /base/ });
      assert.throws(() => glove.identity(tokens, E, { layout: 'spiral' }), { name: 'RangeError', message: /layout/ });
      assert.throws(() => glove.identity(tokens, E, { pairing: 'half' }), { name: 'TypeError', message: /pairing/ });
      const bad = E.slice();
      bad[3] = Infinity;
      assert.throws(() => glove.identity(tokens, bad, ok), { name: 'RangeError', message: /vectors\[3\]/ });
    });
  });
}
