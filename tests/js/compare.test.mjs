// PosEnc Lab JS API: tokenize, embed and compare(), on both builds.
//
// compare() result (src/compare/compare.hpp): pe n×d, peConcat n×dPos; per scheme { width, x: n×width,
// weights: heads×n×n, terms: 4×n×n (additive, concatenated) or 1×n×n (rotary) }, where terms are
// head 0's logit decomposition (W = I when heads = 0) and already include the scale.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../../dist/posenc.mjs';
import * as ref from './reference.mjs';

const f32 = Math.fround;

// Logits and terms are float32 dot products of O(1) components over d ≤ 64 terms, scaled by
// 1/√w; 1e-5 absolute (×(1 + magnitude)) covers their rounding with a wide margin
// (float32 relative error ~6e-8 per operation × d terms).
const TOL_LOGIT = 1e-5;
const TOL_ATTENTION = 1e-5; // contract: attention weights within 1e-5

function assertCloseRel(actual, expected, tol, what) {
  assert.equal(actual.length, expected.length, `${what}: length`);
  for (let i = 0; i < actual.length; i++) {
    const err = Math.abs(actual[i] - expected[i]);
    assert.ok(err <= tol * (1 + Math.abs(expected[i])), `${what}[${i}]: ${actual[i]} vs ${expected[i]}`);
  }
}

function block(array, index, size) {
  return array.subarray(index * size, (index + 1) * size);
}

/** Logits (n×n) of q·kᵀ·scale over rows of width w, in float64 from the float32 inputs. */
function logitsOf(q, k, n, w, scale) {
  return ref.logits(q, k, n, w, { scale });
}

function assertRowsSumToOne(weights, rows, n, what) {
  for (let r = 0; r < rows; r++) {
    let sum = 0;
    for (let j = 0; j < n; j++) sum += weights[r * n + j];
    // n ≤ 64 float32 weights: rounding stays far below the contract's 1e-5
    assert.ok(Math.abs(sum - 1) <= TOL_ATTENTION, `${what}: row ${r} sums to ${sum}`);
  }
}

for (const simd of [true, false]) {
  describe(`tokenize/embed/compare, ${simd ? 'SIMD' : 'scalar'} build`, () => {
    let lab;
    before(async () => {
      lab = await load({ simd });
    });

    describe('tokenize', () => {
      const examples = [
        ["The cat's hat, co-operate!", ['the', 'cat', "'s", 'hat', ',', 'co-operate', '!']],
        ['Hello,world', ['hello', ',', 'world']],
        ['  several   spaces\tand\nnew\r\nlines  ', ['several', 'spaces', 'and', 'new', 'lines']],
        ['In 1999, it cost $3.50.', ['in', '1999', ',', 'it', 'cost', '$', '3.50', '.']],
        ["Don't e-mail TOKYO (now)?", ['do', "n't", 'e-mail', 'tokyo', '(', 'now', ')', '?']],
        ['We’re sure they’ll say I’d', ['we', "'re", 'sure', 'they', "'ll", 'say', 'i', "'d"]],
        ['CAFÉ ÉCOLE Ωmega ПРИВЕТ', ['café', 'école', 'ωmega', 'привет']],
        ["-leading and trailing- 'quoted'", ['-', 'leading', 'and', 'trailing', '-', "'", 'quoted', "'"]],
        ['a--b', ['a', '-', '-', 'b']],
        ['"Quotes" and ; colons: ok', ['"', 'quotes', '"', 'and', ';', 'colons', ':', 'ok']],
        ['café au lait', ['café', 'au', 'lait']],
        ['', []],
        ['   \t\n ', []],
        ['wait... what', ['wait', '...', 'what']],
        ['ok 👍🏽!', ['ok', '👍🏽', '!']],
        ['lone \uD800 surrogate', ['lone', '\uFFFD', 'surrogate']],
      ];
      for (const [text, tokens] of examples) {
        it(`${JSON.stringify(text)}`, () => {
          assert.deepEqual(lab.tokenize(text), tokens);
        });
      }

      it('returns a fresh array of strings each time', () => {
        const a = lab.tokenize('the cat');
        a.push('x');
        assert.deepEqual(lab.tokenize('the cat'), ['the', 'cat']);
        assert.ok(Array.isArray(a));
      });
    });

    describe('embed', () => {
      it('has shape tokens.length × d and is deterministic', () => {
        const tokens = ['the', 'cat', 'sat', 'the'];
        const d = 18;
        const e = lab.embed(tokens, d);
        assert.ok(e instanceof Float32Array);
        assert.equal(e.length, tokens.length * d);
        // same token → same vector, within one call and across calls
        assert.deepEqual(block(e, 0, d), block(e, 3, d));
        assert.deepEqual(lab.embed(['cat'], d), block(e, 1, d));
        assert.deepEqual(lab.embed(tokens, d), e);
        for (const v of e) assert.ok(Number.isFinite(v));
      });

      it('different tokens get different vectors', () => {
        const words = ['the', 'cat', 'cats', 'a', 'b', '', ',', 'co-operate', 'café', 'tokyo'];
        const d = 8;
        const e = lab.embed(words, d);
        for (let a = 0; a < words.length; a++) {
          for (let b = a + 1; b < words.length; b++) {
            assert.ok(ref.maxAbsDiff(block(e, a, d), block(e, b, d)) > 1e-3, `${words[a]} vs ${words[b]}`);
          }
        }
      });

      it('components look like N(0, 1) draws', () => {
        const d = 1024;
        const e = lab.embed(['statistics', 'of', 'synthetic', 'vectors'], d);
        let sum = 0;
        let sq = 0;
        for (const v of e) {
          sum += v;
          sq += v * v;
        }
        const mean = sum / e.length;
        const variance = sq / e.length - mean * mean;
        // 4096 draws: the mean has sd 1/64 and the variance sd ≈ 0.022; 5 sd bounds (deterministic anyway).
        assert.ok(Math.abs(mean) < 0.08, `mean ${mean}`);
        assert.ok(Math.abs(variance - 1) < 0.11, `variance ${variance}`);
      });

      it('returned arrays are fresh', () => {
        const e = lab.embed(['x', 'y'], 4);
        const copy = e.slice();
        e.fill(0);
        assert.deepEqual(lab.embed(['x', 'y'], 4), copy);
      });
    });

    describe('compare', () => {
      const sentence = 'The cat sat on the mat, and the dog slept.';
      let tokens;
      let n;
      const d = 16;
      let E;
      before(() => {
        tokens = lab.tokenize(sentence);
        n = tokens.length;
        E = lab.embed(tokens, d);
      });

      it('returns every output with its documented shape (defaults)', () => {
        const c = lab.compare(E, n, d);
        const dPos = Math.max(2, 2 * Math.round(d / 8)); // documented default in web/posenc.mjs: 4
        assert.equal(c.n, n);
        assert.equal(c.d, d);
        assert.equal(c.dPos, dPos);
        assert.equal(c.heads, 1);
        const shapes = {
          pe: n * d,
          peConcat: n * dPos,
        };
        for (const [key, length] of Object.entries(shapes)) {
          assert.ok(c[key] instanceof Float32Array, key);
          assert.equal(c[key].length, length, key);
        }
        for (const [scheme, width, terms] of [['additive', d, 4], ['concatenated', d, 4], ['rotary', d, 1]]) {
          const s = c[scheme];
          assert.equal(s.width, width, `${scheme}.width`);
          for (const part of ['x', 'weights', 'terms']) assert.ok(s[part] instanceof Float32Array, `${scheme}.${part}`);
          assert.equal(s.x.length, n * width, `${scheme}.x`);
          assert.equal(s.weights.length, n * n, `${scheme}.weights`);
          assert.equal(s.terms.length, terms * n * n, `${scheme}.terms`);
        }
      });

      it('pe and peConcat are the sinusoidal tables (layout and base honoured)', () => {
        for (const [layout, base] of [['interleaved', 10000], ['half', 10000], ['interleaved', 100], ['half', 1e6]]) {
          const c = lab.compare(E, n, d, { layout, base, dPos: 6 });
          assert.deepEqual(c.pe, lab.sinusoidal(n, d, { layout, base }));
          assert.deepEqual(c.peConcat, lab.sinusoidal(n, 6, { layout, base }));
          // and against the float64 reference (contract tolerance for small positions)
          assert.ok(ref.maxAbsDiff(c.pe, ref.sinusoidal(n, d, { layout, base })) <= 2e-5);
        }
      });

      it('x of each scheme: αE + PE, [αE_t ; PE_dPos], αE (exact float32 arithmetic)', () => {
        const alpha = 1.7;
        const a = f32(alpha);
        const dPos = 6;
        const dWord = d - dPos;
        const c = lab.compare(E, n, d, { alpha, dPos });
        for (let p = 0; p < n; p++) {
          for (let j = 0; j < d; j++) {
            const e = E[p * d + j];
            assert.equal(c.additive.x[p * d + j], f32(f32(a * e) + c.pe[p * d + j]), `additive x[${p}][${j}]`);
            assert.equal(c.rotary.x[p * d + j], f32(a * e), `rotary x[${p}][${j}]`);
          }
          for (let j = 0; j < dWord; j++) {
            assert.equal(c.concatenated.x[p * d + j], f32(a * E[p * d + j]), `concatenated x[${p}][${j}]`);
          }
          for (let j = 0; j < dPos; j++) {
            assert.equal(c.concatenated.x[p * d + dWord + j], c.peConcat[p * dPos + j], `concatenated x[${p}][${dWord + j}]`);
          }
        }
      });

      it('additive terms are the four TUPE products and sum to the logits (scale 1/√d)', () => {
        for (const alpha of [1, 0.3]) {
          const c = lab.compare(E, n, d, { alpha });
          const scale = 1 / Math.sqrt(d);
          const content = c.rotary.x; // αE, checked exactly above
          const pe = c.pe;
          const nn = n * n;
          const expected = [
            logitsOf(content, content, n, d, scale), logitsOf(content, pe, n, d, scale),
            logitsOf(pe, content, n, d, scale), logitsOf(pe, pe, n, d, scale),
          ];
          for (let t = 0; t < 4; t++) {
            assertCloseRel(block(c.additive.terms, t, nn), expected[t], TOL_LOGIT, `additive term ${t}`);
          }
          const logits = logitsOf(c.additive.x, c.additive.x, n, d, scale);
          const sum = new Float64Array(nn);
          for (let t = 0; t < 4; t++) for (let i = 0; i < nn; i++) sum[i] += c.additive.terms[t * nn + i];
          assertCloseRel(sum, logits, TOL_LOGIT, 'Σ additive terms vs logits of x');
          assert.ok(ref.maxAbsDiff(c.additive.weights, ref.softmaxRows(logits, n)) <= TOL_ATTENTION, 'additive weights');
        }
      });

      it('concatenated cross terms are exactly zero; the others match, and sum to the logits', () => {
        for (const concat of ['same-width', 'widened']) {
          const dPos = 4;
          const c = lab.compare(E, n, d, { concat, dPos });
          const w = concat === 'widened' ? d + dPos : d;
          assert.equal(c.concatenated.width, w);
          assert.equal(c.concatenated.x.length, n * w);
          const nn = n * n;
          for (const t of [1, 2]) {
            for (const v of block(c.concatenated.terms, t, nn)) assert.equal(v, 0, `${concat}: cross term ${t}`);
          }
          // words-only and positions-only parts of x, each zero outside its block
          const dWord = w - dPos;
          const word = new Float64Array(n * w);
          const pos = new Float64Array(n * w);
          for (let p = 0; p < n; p++) {
            for (let j = 0; j < w; j++) (j < dWord ? word : pos)[p * w + j] = c.concatenated.x[p * w + j];
          }
          const scale = 1 / Math.sqrt(w); // default scale is 1/√width of the scheme's input
          assertCloseRel(block(c.concatenated.terms, 0, nn), logitsOf(word, word, n, w, scale), TOL_LOGIT, `${concat} term 0`);
          assertCloseRel(block(c.concatenated.terms, 3, nn), logitsOf(pos, pos, n, w, scale), TOL_LOGIT, `${concat} term 3`);
          const logits = logitsOf(c.concatenated.x, c.concatenated.x, n, w, scale);
          const sum = new Float64Array(nn);
          for (let t = 0; t < 4; t++) for (let i = 0; i < nn; i++) sum[i] += c.concatenated.terms[t * nn + i];
          assertCloseRel(sum, logits, TOL_LOGIT, `${concat}: Σ terms vs logits`);
          assert.ok(ref.maxAbsDiff(c.concatenated.weights, ref.softmaxRows(logits, n)) <= TOL_ATTENTION, `${concat} weights`);
          if (concat === 'widened') {
            // the word part keeps all d dims; additive and rotary keep width d
            for (let p = 0; p < n; p++) {
              for (let j = 0; j < d; j++) assert.equal(c.concatenated.x[p * w + j], E[p * d + j]);
            }
            assert.equal(c.additive.width, d);
            assert.equal(c.rotary.width, d);
            assert.equal(c.additive.x.length, n * d);
          }
        }
      });

      it('rotary: x equals αE; its term is e_iᵀ R((j−i)ω) e_j · scale for both pairings', () => {
        for (const pairing of ['interleaved', 'half']) {
          for (const alpha of [1, 2.5]) {
            const c = lab.compare(E, n, d, { alpha, pairing });
            const a = f32(alpha);
            assert.deepEqual(c.rotary.x, E.map((v) => f32(a * v)));
            const scale = 1 / Math.sqrt(d);
            const rotated = ref.rotate(c.rotary.x, n, d, { pairing });
            const logits = logitsOf(rotated, rotated, n, d, scale);
            // the same term written as e_iᵀ R((j−i)ω) e_j: rotate e_i by i − j relative to e_j
            for (const [i, j] of [[0, 0], [0, 3], [5, 2], [n - 1, 0]]) {
              const ei = c.rotary.x.subarray(i * d, (i + 1) * d);
              const ej = c.rotary.x.subarray(j * d, (j + 1) * d);
              const relative = ref.dot(ref.rotate(ei, 1, d, { pairing, offset: i - j }), 0, ej, 0, d) * scale;
              assert.ok(Math.abs(relative - logits[i * n + j]) <= 1e-9 * (1 + Math.abs(relative)), 'reference self-check');
            }
            assertCloseRel(c.rotary.terms, logits, TOL_LOGIT, `rotary term (${pairing}, α=${alpha})`);
            assert.ok(ref.maxAbsDiff(c.rotary.weights, ref.softmaxRows(logits, n)) <= TOL_ATTENTION, `rotary weights ${pairing}`);
          }
        }
        // pairing must matter
        const a = lab.compare(E, n, d).rotary.terms;
        const b = lab.compare(E, n, d, { pairing: 'half' }).rotary.terms;
        assert.ok(ref.maxAbsDiff(a, b) > 1e-3);
      });

      it('W = I: symmetric terms are bit-symmetric and sinusoidal position terms depend on |i − j| only', () => {
        // The core builds these from one triangle and from the n offsets (src/compare/compare.cpp); the
        // float64 checks above bound their values, these pin the exact structure, at several n so
        // that every tail of the 4-row / 8-key blocks is crossed.
        for (const m of [1, 3, 4, 5, 8, 9, 17]) {
          const Em = lab.embed(Array.from({ length: m }, (_, i) => `w${i % 7}`), d);
          for (const concat of ['same-width', 'widened']) {
            const c = lab.compare(Em, m, d, { concat, dPos: 6, alpha: 1.5 });
            const nn = m * m;
            const symmetric = (a, what) => {
              for (let i = 0; i < m; i++) {
                for (let j = 0; j < i; j++) assert.ok(Object.is(a[i * m + j], a[j * m + i]), `${what} [${i}][${j}]`);
              }
            };
            const byDistance = (a, what) => {
              for (let i = 0; i < m; i++) {
                for (let j = 0; j < m; j++) assert.ok(Object.is(a[i * m + j], a[Math.abs(i - j)]), `${what} [${i}][${j}]`);
              }
            };
            symmetric(block(c.additive.terms, 0, nn), `n=${m} ${concat}: additive content·content`);
            symmetric(block(c.concatenated.terms, 0, nn), `n=${m} ${concat}: concatenated word·word`);
            symmetric(c.rotary.terms, `n=${m} ${concat}: rotary term`);
            byDistance(block(c.additive.terms, 3, nn), `n=${m} ${concat}: additive position·position`);
            byDistance(block(c.concatenated.terms, 3, nn), `n=${m} ${concat}: concatenated position·position`);
            for (const t of [1, 2]) {
              for (const v of block(c.concatenated.terms, t, nn)) assert.ok(Object.is(v, 0), `n=${m} ${concat}: +0 cross term`);
            }
            // position·position against the float64 product of the returned float32 table
            const scale = 1 / Math.sqrt(d);
            assertCloseRel(block(c.additive.terms, 3, nn), logitsOf(c.pe, c.pe, m, d, scale), TOL_LOGIT, `n=${m} PE·PE`);
          }
        }
      });

      it('attention rows sum to 1; causal weights are exactly 0 above the diagonal', () => {
        for (const causal of [false, true]) {
          for (const heads of [0, 2, 4]) {
            const c = lab.compare(E, n, d, { causal, heads, dPos: 4 });
            const h = Math.max(heads, 1);
            assert.equal(c.heads, h);
            for (const scheme of ['additive', 'concatenated', 'rotary']) {
              const wts = c[scheme].weights;
              assert.equal(wts.length, h * n * n);
              assertRowsSumToOne(wts, h * n, n, `${scheme} causal=${causal} heads=${heads}`);
              if (causal) {
                for (let head = 0; head < h; head++) {
                  for (let i = 0; i < n; i++) {
                    for (let j = i + 1; j < n; j++) assert.equal(wts[head * n * n + i * n + j], 0);
                  }
                }
              }
            }
          }
        }
      });

      it('causal: weights are the masked softmax of the (unmasked) terms', () => {
        const c = lab.compare(E, n, d, { causal: true });
        const nn = n * n;
        for (const scheme of ['additive', 'concatenated']) {
          const sum = new Float64Array(nn);
          for (let t = 0; t < 4; t++) for (let i = 0; i < nn; i++) sum[i] += c[scheme].terms[t * nn + i];
          assert.ok(ref.maxAbsDiff(c[scheme].weights, ref.softmaxRows(sum, n, true)) <= TOL_ATTENTION, scheme);
        }
        assert.ok(ref.maxAbsDiff(c.rotary.weights, ref.softmaxRows(Float64Array.from(c.rotary.terms), n, true)) <= TOL_ATTENTION);
      });

      it('custom scale multiplies every logit', () => {
        const scale = 0.37;
        const c = lab.compare(E, n, d, { scale });
        const logits = logitsOf(c.additive.x, c.additive.x, n, d, scale);
        const nn = n * n;
        const sum = new Float64Array(nn);
        for (let t = 0; t < 4; t++) for (let i = 0; i < nn; i++) sum[i] += c.additive.terms[t * nn + i];
        assertCloseRel(sum, logits, TOL_LOGIT, 'Σ terms with scale 0.37');
        assert.ok(ref.maxAbsDiff(c.additive.weights, ref.softmaxRows(logits, n)) <= TOL_ATTENTION);
        const rotated = ref.rotate(c.rotary.x, n, d);
        assertCloseRel(c.rotary.terms, logitsOf(rotated, rotated, n, d, scale), TOL_LOGIT, 'rotary term with scale 0.37');
      });

      it('tiny positive scale: the smallest normal float32 gives uniform weights, smaller is refused', () => {
        const c = lab.compare(E, n, d, { scale: 1.1754943508222875e-38 });
        // Logits are ~1e-37, so exp() of each is 1 to float precision and every weight is 1/n.
        for (const w of c.additive.weights) assert.ok(Math.abs(w - 1 / n) <= 1e-6, `weight ${w} vs ${1 / n}`);
        // 1e-50 would round to float 0, which the core reads as "default 1/√d_head": refused.
        assert.throws(() => lab.compare(E, n, d, { scale: 1e-50 }), (e) => e instanceof RangeError && /scale/.test(e.message));
      });

      it('heads: one weights block per head, seeded and deterministic; terms are head 0 logits', () => {
        const heads = 4;
        const c = lab.compare(E, n, d, { heads, seed: 7, dPos: 4 });
        const again = lab.compare(E, n, d, { heads, seed: 7, dPos: 4 });
        const other = lab.compare(E, n, d, { heads, seed: 8, dPos: 4 });
        const nn = n * n;
        for (const scheme of ['additive', 'concatenated', 'rotary']) {
          assert.equal(c[scheme].weights.length, heads * nn);
          assert.deepEqual(again[scheme].weights, c[scheme].weights, `${scheme}: same seed, same weights`);
          assert.ok(ref.maxAbsDiff(other[scheme].weights, c[scheme].weights) > 1e-4, `${scheme}: seed matters`);
          assert.ok(ref.maxAbsDiff(block(c[scheme].weights, 0, nn), block(c[scheme].weights, 1, nn)) > 1e-4,
            `${scheme}: heads differ`);
          // head 0's weights are the softmax of its logit terms
          const t = c[scheme].terms.length / nn;
          const sum = new Float64Array(nn);
          for (let k = 0; k < t; k++) for (let i = 0; i < nn; i++) sum[i] += c[scheme].terms[k * nn + i];
          assert.ok(ref.maxAbsDiff(block(c[scheme].weights, 0, nn), ref.softmaxRows(sum, n)) <= TOL_ATTENTION, `${scheme} head 0`);
        }
        // with projections, the concatenated word and position blocks mix, so the cross terms are no longer 0
        assert.equal(c.concatenated.terms.length, 4 * nn);
        assert.ok(ref.maxAbsDiff(block(c.concatenated.terms, 1, nn), new Float64Array(nn)) > 1e-4);
        // heads with widened concatenation: the width d + dPos must divide by heads
        const wide = lab.compare(E, n, d, { heads: 2, concat: 'widened', dPos: 4 });
        assert.equal(wide.concatenated.width, d + 4);
        assert.equal(wide.concatenated.weights.length, 2 * nn);
        assertRowsSumToOne(wide.concatenated.weights, 2 * n, n, 'widened, 2 heads');
      });

      it('results are fresh arrays, unaffected by later calls of other sizes', () => {
        const c1 = lab.compare(E, n, d);
        const copy = c1.additive.weights.slice();
        const peCopy = c1.pe.slice();
        const small = lab.embed(['a', 'b'], 8);
        const c2 = lab.compare(small, 2, 8, { heads: 2 });
        assert.equal(c2.additive.weights.length, 2 * 4);
        assert.deepEqual(c1.additive.weights, copy);
        assert.deepEqual(c1.pe, peCopy);
        c1.additive.weights.fill(0);
        c1.pe.fill(0);
        const c3 = lab.compare(E, n, d);
        assert.deepEqual(c3.additive.weights, copy);
        assert.deepEqual(c3.pe, peCopy);
        assert.notEqual(c3.additive.x.buffer, c3.rotary.x.buffer);
      });

      it('accepts Float64Array and plain-array embeddings alike', () => {
        const c = lab.compare(E, n, d, { heads: 2 });
        for (const form of [Float64Array.from(E), Array.from(E)]) {
          const other = lab.compare(form, n, d, { heads: 2 });
          assert.deepEqual(other.additive.weights, c.additive.weights);
          assert.deepEqual(other.rotary.terms, c.rotary.terms);
        }
      });
    });
  });
}

describe('SIMD and scalar builds agree on embed and compare', () => {
  it('embed is bit-identical; compare within 1e-6', async () => {
    const simd = await load({ simd: true });
    const scalar = await load({ simd: false });
    const tokens = simd.tokenize('Rotary leaves the word vector alone and rotates queries and keys.');
    assert.deepEqual(scalar.tokenize('Rotary leaves the word vector alone and rotates queries and keys.'), tokens);
    const E = simd.embed(tokens, 32);
    assert.deepEqual(scalar.embed(tokens, 32), E);
    for (const heads of [0, 4]) {
      const a = simd.compare(E, tokens.length, 32, { heads, causal: heads > 0 });
      const b = scalar.compare(E, tokens.length, 32, { heads, causal: heads > 0 });
      for (const scheme of ['additive', 'concatenated', 'rotary']) {
        for (const part of ['x', 'weights']) {
          // brief: the builds agree within 1e-6 (only summation order differs)
          assert.ok(ref.maxAbsDiff(a[scheme][part], b[scheme][part]) <= 1e-6, `${scheme}.${part} heads=${heads}`);
        }
        // terms are logits (magnitude up to ~10 here): 1e-6 relative
        assertCloseRel(a[scheme].terms, b[scheme].terms, 1e-6, `${scheme}.terms heads=${heads}`);
      }
    }
  });
});
