// PosEnc Lab JS API, the analyses (docs/ARCHITECTURE.md, "What the page measures") and word-vector
// decoding, on both builds: columnSpread, vocabulary().nearest, shiftChange (by hand and through
// compare), offsetCurves, cosineSpread, and GloVe's nearest / retained / reduce /
// reducedVocabulary with compare({ concatWords }). Every reference is float64 written here or in
// reference.mjs; each tolerance is stated where it is used.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../../dist/posenc.mjs';
import * as ref from './reference.mjs';

const f32 = Math.fround;
const EPS = 2 ** -24; // float32 unit roundoff
const DIMS = [1, 3, 4, 5, 7, 8, 15, 16, 17, 63, 100]; // every SIMD tail: d mod 4, d mod 8
const SENTENCE = 'the king and queen of france visited tokyo , where the weather was cold .';

/** Population std of every column, two passes in float64. */
function columnStd64(m, n, d) {
  const out = new Float64Array(d);
  for (let j = 0; j < d; j++) {
    let mean = 0;
    for (let p = 0; p < n; p++) mean += m[p * d + j];
    mean /= n;
    let ss = 0;
    for (let p = 0; p < n; p++) ss += (m[p * d + j] - mean) ** 2;
    out[j] = Math.sqrt(ss / n);
  }
  return out;
}

/** Float64 cosine of row a of A and row b of B (0 when either is zero). */
function cosine64(A, a, B, b, d) {
  let ab = 0, aa = 0, bb = 0;
  for (let j = 0; j < d; j++) {
    ab += A[a * d + j] * B[b * d + j];
    aa += A[a * d + j] ** 2;
    bb += B[b * d + j] ** 2;
  }
  return aa > 0 && bb > 0 ? ab / Math.sqrt(aa * bb) : 0;
}

/** A PELVEC01 file (data/README.md) with the given words, dim, scales and int8 values. */
function packVectors(words, dim, scales, values, componentRms = 0.5, meanNorm = 5) {
  const vocabulary = new TextEncoder().encode(words.join('\n'));
  const padded = Math.ceil(vocabulary.length / 4) * 4;
  const count = words.length;
  const bytes = new Uint8Array(24 + padded + 4 * count + count * dim + 8);
  const view = new DataView(bytes.buffer);
  bytes.set(new TextEncoder().encode('PELVEC01'), 0);
  view.setUint32(8, count, true);
  view.setUint32(12, dim, true);
  view.setUint32(16, vocabulary.length, true);
  bytes.set(vocabulary, 24);
  const s = 24 + padded;
  scales.forEach((scale, i) => view.setFloat32(s + 4 * i, scale, true));
  values.forEach((v, i) => view.setInt8(s + 4 * count + i, v));
  view.setFloat32(s + 4 * count + count * dim, componentRms, true);
  view.setFloat32(s + 4 * count + count * dim + 4, meanNorm, true);
  return bytes;
}

for (const simd of [true, false]) {
  describe(`analyses, ${simd ? 'SIMD' : 'scalar'} build`, () => {
    let lab;
    before(async () => {
      lab = await load({ simd });
    });

    describe('columnSpread', () => {
      it('equals a float64 two-pass population std (relative 2^-23)', () => {
        // The core accumulates in double and rounds the result to float once: ≤ 2^-24
        // relative; 2^-23 leaves a factor 2.
        const rand = ref.mulberry32(11);
        for (const n of [1, 3, 4, 5, 7, 8, 15, 16, 17, 63, 100]) {
          for (const d of DIMS) {
            const m = ref.randomMatrix(rand, n * d, -3, 3);
            for (let p = 0; p < n; p++) for (let j = 0; j < d; j++) m[p * d + j] += j - 7.5;
            const got = lab.columnSpread(m, n, d);
            assert.ok(got instanceof Float32Array && got.length === d);
            const want = columnStd64(m, n, d);
            for (let j = 0; j < d; j++) {
              assert.ok(Math.abs(got[j] - want[j]) <= want[j] * 2 * EPS, `n=${n} d=${d} j=${j}: ${got[j]} vs ${want[j]}`);
            }
          }
        }
      });

      it('constant columns give exactly 0; the cos≈1 columns of a PE table stay accurate', () => {
        // n copies of a float sum exactly in double, so the mean is the constant itself.
        const n = 17, d = 3;
        const m = new Float32Array(n * d);
        for (let p = 0; p < n; p++) m.set([0.1, -3.7, 12345.678], p * d);
        assert.deepEqual([...lab.columnSpread(m, n, d)], [0, 0, 0]);
        // Column 127 of a 100×128 table is cos(p·ω) with p·ω ≤ 0.012: a spread ~1e-5 beside a
        // mean ≈ 1, where a one-pass float formula would lose every digit.
        const pe = lab.sinusoidal(100, 128);
        const got = lab.columnSpread(pe, 100, 128);
        const want = columnStd64(pe, 100, 128);
        assert.ok(want[127] > 0 && want[127] < 1e-4, String(want[127]));
        for (let j = 0; j < 128; j++) assert.ok(Math.abs(got[j] - want[j]) <= want[j] * 2 * EPS, `j=${j}`);
      });
    });

    describe('vocabulary().nearest', () => {
      it('agrees with a float64 brute-force argmax; ranks bracket the float64 ranks', () => {
        // Float cosines carry ≤ (d + 8)·2^-24 error, so float and float64 orders may only
        // disagree between rows whose float64 cosines are that close (tie).
        const rand = ref.mulberry32(23);
        for (const [v, d] of [[1, 4], [3, 7], [17, 16], [100, 17], [500, 100], [64, 63]]) {
          const tie = 2 * (d + 8) * EPS;
          const rows = ref.randomMatrix(rand, v * d);
          const n = 9;
          const queries = ref.randomMatrix(rand, n * d, -0.3, 0.3);
          const truth = Array.from({ length: n }, (_, i) => (i * 7 + 3) % v);
          for (let i = 0; i < n; i++) {
            if (i % 3 === 2) continue; // pure noise
            for (let j = 0; j < d; j++) queries[i * d + j] += rows[truth[i] * d + j];
          }
          const vocab = lab.vocabulary(rows, v, d);
          assert.equal(vocab.size, v);
          assert.equal(vocab.dim, d);
          const plain = vocab.nearest(queries, n);
          assert.equal(plain.rank, undefined, 'no ranks without truth');
          const { best, cosine, rank } = vocab.nearest(queries, n, { truth });
          assert.ok(best instanceof Uint32Array && rank instanceof Uint32Array && cosine instanceof Float32Array);
          assert.deepEqual(best, plain.best);
          assert.deepEqual(cosine, plain.cosine);
          for (let i = 0; i < n; i++) {
            const c = Array.from({ length: v }, (_, r) => cosine64(queries, i, rows, r, d));
            const top = Math.max(...c);
            const what = `v=${v} d=${d} i=${i}`;
            assert.ok(c[best[i]] >= top - tie, `${what}: best ${best[i]} (${c[best[i]]}) vs ${top}`);
            assert.ok(Math.abs(cosine[i] - c[best[i]]) <= tie / 2, `${what}: cosine ${cosine[i]} vs ${c[best[i]]}`);
            const ct = c[truth[i]];
            let surely = 0, maybe = 0;
            for (let r = 0; r < v; r++) {
              if (r === truth[i]) continue;
              if (c[r] > ct + tie) surely++;
              else if (c[r] >= ct - tie) maybe++;
            }
            assert.ok(rank[i] >= surely + 1 && rank[i] <= surely + maybe + 1, `${what}: rank ${rank[i]}, ${surely}+${maybe}`);
            assert.equal(rank[i] === 1, best[i] === truth[i], `${what}: rank 1 ⇔ decoded correctly`);
          }
          vocab.dispose();
        }
      });

      it('ties go to the lower row; rank counts equal rows listed before the truth; zero query', () => {
        // Rows e0, e1, e0, −e0, e0 + e1, 0 (exact unit rows); query 2·e0: cosines 1, 0, 1, −1, 0.707, 0.
        const rows = [1, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, -1, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0];
        const vocab = lab.vocabulary(rows, 6, 4);
        const q = [2, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0];
        const r = vocab.nearest(q, 6, { truth: [0, 1, 2, 3, 4, 5] });
        assert.deepEqual([...r.best], [0, 0, 0, 0, 0, 0]);
        assert.deepEqual([...r.rank], [1, 4, 2, 6, 3, 5]);
        assert.deepEqual([...r.cosine], [1, 1, 1, 1, 1, 1]);
        // A zero query has cosine 0 with every row: row 0 wins and rank(t) = t + 1.
        const z = vocab.nearest(new Float32Array(16), 4, { truth: [0, 1, 3, 5] });
        assert.deepEqual([...z.best], [0, 0, 0, 0]);
        assert.deepEqual([...z.cosine].map(Math.abs), [0, 0, 0, 0]);
        assert.deepEqual([...z.rank], [1, 2, 4, 6]);
        vocab.dispose();
      });

      it('dispose() then nearest throws RangeError; dispose twice is harmless', () => {
        const vocab = lab.vocabulary([1, 0, 0, 1], 2, 2);
        assert.equal(vocab.nearest([1, 0], 1).best[0], 0);
        vocab.dispose();
        assert.throws(() => vocab.nearest([1, 0], 1), { name: 'RangeError', message: /disposed/ });
        vocab.dispose();
      });

      it('errors name the argument', () => {
        const vocab = lab.vocabulary([1, 0, 0, 1, 1, 1], 3, 2);
        assert.throws(() => vocab.nearest([1, 0, 0], 1), { name: 'RangeError', message: /queries/ });
        assert.throws(() => vocab.nearest([1, 0], 1, { truth: [0, 1] }), { name: 'RangeError', message: /truth/ });
        assert.throws(() => vocab.nearest([1, 0], 1, { truth: [3] }), { name: 'RangeError', message: /truth\[0\]/ });
        assert.throws(() => vocab.nearest([1, 0], 1, { truth: [-1] }), { name: 'RangeError', message: /truth\[0\]/ });
        assert.throws(() => vocab.nearest([1, 0], 1, { truth: [0.5] }), { name: 'RangeError', message: /truth\[0\]/ });
        assert.throws(() => vocab.nearest([1, 0], 1, { truth: 0 }), { name: 'TypeError', message: /truth/ });
        assert.throws(() => vocab.nearest([1, 0], 1, { ranks: true }), { name: 'TypeError', message: /ranks/ });
        assert.throws(() => lab.vocabulary([1, 0, 0], 2, 2), { name: 'RangeError', message: /rows/ });
        assert.throws(() => lab.vocabulary([], 0, 2), { name: 'RangeError', message: /\bv\b/ });
        vocab.dispose();
      });
    });

    describe('shiftChange', () => {
      it('hand-built: prepended mass is dropped, the rest renormalised, the largest change returned', () => {
        const base = [0.5, 0.5, 0.75, 0.25];
        const shifted = [9, 9, 9, 9, 9, 9, 9, 9, 0.25, 0.25, 0.25, 0.25, 0.5, 0.1, 0.3, 0.1];
        // [0.25, 0.25] → [0.5, 0.5] exactly; [0.3, 0.1] → [0.75, 0.25] up to one float rounding.
        assert.ok(lab.shiftChange(base, shifted, 2, 2) <= 3e-8);
        shifted[14] = 0.1; // row 1 → [0.5, 0.5]: a change of 0.25
        assert.ok(Math.abs(lab.shiftChange(base, shifted, 2, 2) - 0.25) <= 1e-7);
        assert.equal(lab.shiftChange(base, base, 2, 0), 0);
      });

      it('through compare: rotary and concatenated (W = I) ≈ 0; additive and concatenated with heads > 1e-3', () => {
        // "≈ 0" is 1e-5: the same real logits, rounded differently because the float rotations
        // and PE values are taken at positions p vs p + k (~d·2^-24 of a logit, a quarter of
        // that in a weight). Not invariant means 0.01–0.5 here: two orders of margin each way.
        const tokens = lab.tokenize('the cat sat on the mat because it was warm');
        const n = tokens.length;
        for (const d of [16, 64]) {
          for (const heads of [0, 2]) {
            for (const k of [1, 5]) {
              const options = { heads, dPos: d / 4 };
              const a = lab.compare(lab.embed(tokens, d), n, d, options);
              const shiftedTokens = [...Array(k).fill('<pad>'), ...tokens];
              const b = lab.compare(lab.embed(shiftedTokens, d), n + k, d, options);
              const h = Math.max(heads, 1), w = n + k;
              const change = (scheme) => {
                let m = 0;
                for (let i = 0; i < h; i++) {
                  m = Math.max(m, lab.shiftChange(a[scheme].weights.subarray(i * n * n, (i + 1) * n * n),
                    b[scheme].weights.subarray(i * w * w, (i + 1) * w * w), n, k));
                }
                return m;
              };
              const what = `d=${d} heads=${heads} k=${k}`;
              const [rot, add, cat] = [change('rotary'), change('additive'), change('concatenated')];
              assert.ok(rot <= 1e-5, `${what}: rotary ${rot}`);
              assert.ok(add > 1e-3, `${what}: additive ${add}`);
              // Concatenated with W = I: x_p·x_q = α²e_p·e_q + PE(p)·PE(q), and PE(p)·PE(q)
              // depends on p − q only. Random heads mix word and position dims: e·W_q·W_kᵀ·PE.
              if (heads === 0) assert.ok(cat <= 1e-5, `${what}: concatenated ${cat}`);
              else assert.ok(cat > 1e-3, `${what}: concatenated ${cat}`);
            }
          }
        }
      });

      it('errors name the argument', () => {
        assert.throws(() => lab.shiftChange([1], [1, 0, 0], 1, 1), { name: 'RangeError', message: /shifted/ });
        assert.throws(() => lab.shiftChange([1, 0], [1], 1, 0), { name: 'RangeError', message: /base/ });
        assert.throws(() => lab.shiftChange([1], [1], 0, 0), { name: 'RangeError', message: /\bn\b/ });
        assert.throws(() => lab.shiftChange([1], [1], 1, -1), { name: 'RangeError', message: /\bk\b/ });
      });
    });

    describe('offsetCurves', () => {
      it('score[k] = Σ cos(k·ω_i) = PE(p)·PE(p+k); bound = RoFormer\'s formula; exact at k = 0', () => {
        const K = 300;
        for (const base of [10000, 100]) {
          for (const d of [2, 8, 16, 64, 100, 128]) {
            const { score, bound } = lab.offsetCurves(K, d, { base });
            assert.equal(score.length, K + 1);
            assert.equal(bound.length, K + 1);
            assert.equal(score[0], d / 2); // row 0 of the table is exactly [0, 1, 0, 1, …]
            assert.equal(bound[0], (d / 2 + 1) / 2); // every partial sum is j: Σ j / (d/2)
            // Score: table entries within a few ulps (4·2^-24 each, d/2 of them) plus a float dot of
            // d/2 terms ≤ 1 (≤ (d/2)·(d/8)·2^-24 with lane accumulators).
            const tolScore = (2 * d + (d * d) / 16 + 4) * EPS;
            const pe = ref.sinusoidal(K + 60, d, { base });
            for (let k = 0; k <= K; k++) {
              let want = 0;
              for (let i = 0; i < d / 2; i++) want += Math.cos(k * ref.omega(i, d, base));
              assert.ok(Math.abs(score[k] - want) <= tolScore, `base=${base} d=${d} k=${k}: ${score[k]} vs ${want}`);
              for (const p of [1, 59]) {
                const atP = ref.dot(pe, p * d, pe, (p + k) * d, d); // float64: equal to want up to 1e-13
                assert.ok(Math.abs(score[k] - atP) <= tolScore, `p=${p} k=${k}`);
              }
              // Bound: RoFormer §3.4.3, (1/(d/2))·Σ_{j=1}^{d/2} |Σ_{m<j} e^{i·k·ω_m}|, in float64 here;
              // the core is double throughout and rounds to float once: 2^-23 relative.
              let re = 0, im = 0, total = 0;
              for (let j = 1; j <= d / 2; j++) {
                re += Math.cos(k * ref.omega(j - 1, d, base));
                im += Math.sin(k * ref.omega(j - 1, d, base));
                total += Math.hypot(re, im);
              }
              const wantBound = total / (d / 2);
              assert.ok(Math.abs(bound[k] - wantBound) <= wantBound * 2 * EPS + 1e-12, `bound d=${d} k=${k}`);
            }
          }
        }
      });

      it('the bound decays on average: mean over k ∈ [200, 400] < mean over k ∈ [1, 20]', () => {
        for (const d of [16, 64, 128]) {
          const { bound } = lab.offsetCurves(400, d);
          const mean = (a, b) => bound.slice(a, b + 1).reduce((s, x) => s + x, 0) / (b - a + 1);
          assert.ok(mean(200, 400) < mean(1, 20), `d=${d}: ${mean(200, 400)} vs ${mean(1, 20)}`);
        }
      });

      it('errors name the argument', () => {
        assert.throws(() => lab.offsetCurves(10, 7), { name: 'RangeError', message: /\bd\b/ });
        assert.throws(() => lab.offsetCurves(-1, 8), { name: 'RangeError', message: /maxOffset/ });
        assert.throws(() => lab.offsetCurves(10, 8, { base: 1 }), { name: 'RangeError', message: /base/ });
        assert.throws(() => lab.offsetCurves(10, 8, { layout: 'half' }), { name: 'TypeError', message: /layout/ });
      });
    });

    describe('cosineSpread', () => {
      it('mean ≈ 0 and std ≈ 1/√d within sampling error; deterministic per seed', () => {
        const pairs = 2000;
        for (const d of [4, 16, 64, 256, 1024]) {
          const { mean, std } = lab.cosineSpread(d, { pairs, seed: 3 });
          const sd = 1 / Math.sqrt(d); // exact: E[c²] = 1/d by symmetry
          // Mean: standard error sd/√pairs, 4 of them. Std: c² has variance 3/(d(d+2)) − 1/d², so
          // the sample std has relative standard error ½·√(3d/(d+2) − 1)/√pairs; allow 5.
          assert.ok(Math.abs(mean) <= (4 * sd) / Math.sqrt(pairs), `d=${d}: mean ${mean}`);
          const relSe = (0.5 * Math.sqrt((3 * d) / (d + 2) - 1)) / Math.sqrt(pairs);
          assert.ok(Math.abs(std / sd - 1) <= 5 * relSe, `d=${d}: std ${std} vs ${sd}`);
        }
        assert.deepEqual(lab.cosineSpread(64, { seed: 9, pairs: 300 }), lab.cosineSpread(64, { seed: 9, pairs: 300 }));
        assert.notEqual(lab.cosineSpread(64, { seed: 9, pairs: 300 }).mean, lab.cosineSpread(64, { seed: 10, pairs: 300 }).mean);
      });

      it('errors name the argument', () => {
        assert.throws(() => lab.cosineSpread(0), { name: 'RangeError', message: /\bd\b/ });
        assert.throws(() => lab.cosineSpread(8, { pairs: 1 }), { name: 'RangeError', message: /pairs/ });
        assert.throws(() => lab.cosineSpread(8, { seed: -1 }), { name: 'RangeError', message: /seed/ });
      });
    });

    describe('GloVe decoding and PCA', () => {
      let glove, tokens, E, n, truth;
      before(async () => {
        glove = await lab.loadVectors('glove');
        tokens = glove.tokenize(SENTENCE).filter((t) => glove.has(t));
        n = tokens.length;
        E = glove.embed(tokens).vectors;
        truth = tokens.map((t) => glove.indexOf(t));
      });

      it('indexOf matches word(i); -1 for a word not in the set', () => {
        assert.ok(n >= 14, tokens.join(' '));
        for (let i = 0; i < n; i++) assert.equal(glove.word(truth[i]), tokens[i]);
        assert.equal(glove.indexOf('the'), 0);
        assert.equal(glove.indexOf('qwxz'), -1);
      });

      it('nearest decodes the plain word vectors: rank 1 for every word, cosine ≈ 1', () => {
        const { best, cosine, rank } = glove.nearest(E, n, { truth });
        for (let i = 0; i < n; i++) {
          assert.equal(best[i], truth[i], tokens[i]);
          assert.equal(rank[i], 1, tokens[i]);
          // A float dot of a vector with its own unit row: a few ulps from 1 (d = 100 terms).
          assert.ok(Math.abs(cosine[i] - 1) <= 1e-5, `${tokens[i]}: ${cosine[i]}`);
        }
      });

      it('columnSpread() is lab.columnSpread over rows(), bit for bit (one kernel over the same rows)', () => {
        const spread = glove.columnSpread();
        assert.ok(spread instanceof Float32Array && spread.length === glove.dim);
        assert.deepEqual([...spread], [...lab.columnSpread(glove.rows(), glove.size, glove.dim)]);
        assert.ok(spread.every((s) => s > 0.1 && s < 2), 'GloVe columns spread by a few tenths');
      });

      it('retained(k) increases with k and retained(100) = 1', () => {
        let previous = 0;
        for (let k = 1; k <= 100; k++) {
          const r = glove.retained(k);
          assert.ok(r > previous && r <= 1, `k=${k}: ${r}`);
          previous = r;
        }
        // The same sum over the same eigenvalues on both sides of the division.
        assert.equal(glove.retained(100), 1);
        assert.ok(glove.retained(1) < 0.2, 'GloVe has no dominant direction');
      });

      it('reduce(E, n, 100) is an orthogonal transform of centred vectors: distances preserved', () => {
        const R = glove.reduce(E, n, 100);
        assert.ok(R instanceof Float32Array && R.length === n * 100);
        // A coordinate is a float dot of the uncentred x with a float axis minus mean·axis:
        // ≤ (d + 4)·2^-24·Σ|x_j·a_j| ≈ 2.5e-5 each in the worst case, but the errors are random
        // and mostly cancel in a distance: measured ≤ 6e-7 on both builds. 1e-5 keeps a 15×
        // margin and still catches axes that are orthogonal only to ~1e-5.
        let worst = 0;
        for (let a = 0; a < n; a++) {
          for (let b = a + 1; b < n; b++) {
            let d0 = 0, d1 = 0;
            for (let j = 0; j < 100; j++) {
              d0 += (E[a * 100 + j] - E[b * 100 + j]) ** 2;
              d1 += (R[a * 100 + j] - R[b * 100 + j]) ** 2;
            }
            worst = Math.max(worst, Math.abs(Math.sqrt(d0) - Math.sqrt(d1)));
          }
        }
        assert.ok(worst <= 1e-5, `max distance change ${worst}`);
        // The first k coordinates of reduce(E, n, 100) are reduce(E, n, k), bit for bit.
        const R7 = glove.reduce(E, n, 7);
        for (let i = 0; i < n; i++) assert.deepEqual(R7.subarray(i * 7, i * 7 + 7), R.subarray(i * 100, i * 100 + 7));
      });

      it('reduce() of the whole vocabulary: coordinates centred, variance shares equal retained(k)', () => {
        const v = glove.size;
        const rows = new Float32Array(v * 100);
        for (let i = 0; i < v; i++) rows.set(glove.vector(glove.word(i)), i * 100);
        const R = glove.reduce(rows, v, 100);
        const mean = new Float64Array(100), variance = new Float64Array(100);
        for (let i = 0; i < v; i++) for (let a = 0; a < 100; a++) mean[a] += R[i * 100 + a] / v;
        for (let i = 0; i < v; i++) for (let a = 0; a < 100; a++) variance[a] += (R[i * 100 + a] - mean[a]) ** 2 / v;
        // Centred: each coordinate's float error (≤ ~2.5e-5, see above) averages over 20,000 rows;
        // a wrong mean would shift a coordinate's average by the error in mean·axis (≥ 1e-3).
        for (let a = 0; a < 100; a++) assert.ok(Math.abs(mean[a]) <= 1e-5, `axis ${a}: mean ${mean[a]}`);
        // Variances decrease (axes by decreasing variance) and their shares are retained(k):
        // the coordinates' float errors change a variance by ~2·σ·err ≈ 1e-6 relative.
        const total = variance.reduce((x, y) => x + y, 0);
        let kept = 0;
        for (let a = 0; a < 100; a++) {
          if (a > 0) assert.ok(variance[a] <= variance[a - 1] * (1 + 1e-5), `axis ${a}`);
          kept += variance[a];
          assert.ok(Math.abs(kept / total - glove.retained(a + 1)) <= 1e-5, `k=${a + 1}: ${kept / total} vs ${glove.retained(a + 1)}`);
        }
      });

      it('reducedVocabulary(k) is lab.vocabulary over reduce(rows(), size, k), bit for bit', () => {
        // It projects the set's rows where they lie in the core's heap; the same kernel on a copy
        // of them must give the same vocabulary, so the same decoding to the last bit.
        const k = 74;
        const copy = lab.vocabulary(glove.reduce(glove.rows(), glove.size, k), glove.size, k);
        const q = glove.reduce(E, n, k);
        const want = copy.nearest(q, n, { truth });
        const got = glove.reducedVocabulary(k).nearest(q, n, { truth });
        for (const key of ['best', 'cosine', 'rank']) {
          assert.ok(got[key].every((x, i) => Object.is(x, want[key][i])), `${key}: ${got[key]} vs ${want[key]}`);
        }
        const neighbours = (vocab) => JSON.stringify(vocab.neighbors(q.subarray(0, k), 10));
        assert.equal(neighbours(glove.reducedVocabulary(k)), neighbours(copy));
        copy.dispose();
      });

      it('reducing(k) yields between slices of rows and gives reducedVocabulary(k)\'s bits; an unfinished one is taken up', () => {
        const k = 50;
        const rows = glove.rows();
        const copy = lab.vocabulary(glove.reduce(rows, glove.size, k), glove.size, k);
        // Words from every slice of rows (the sentence's are all among the first 2,500).
        const far = [19999, 17500, 12345, 7777, 2500, 2499];
        const queries = new Float32Array((n + far.length) * glove.dim);
        queries.set(E);
        far.forEach((row, i) => queries.set(rows.subarray(row * glove.dim, (row + 1) * glove.dim), (n + i) * glove.dim));
        const q = glove.reduce(queries, n + far.length, k);
        const want = copy.nearest(q, n + far.length, { truth: [...truth, ...far] });
        // Three slices, then the run is dropped (a newer keystroke); the next call takes it up.
        const dropped = glove.reducing(k);
        for (let i = 0; i < 3; i++) assert.equal(dropped.next().done, false);
        const run = glove.reducing(k);
        let yields = 0;
        let step;
        while (!(step = run.next()).done) yields += 1;
        // 20,000 rows in slices of 2,500 (three done before), then the vocabulary made of them.
        assert.equal(yields, 8 - 3 + 1);
        assert.equal(step.value, glove.reducedVocabulary(k), 'cached alike');
        assert.equal([...glove.reducing(k)].length, 0, 'made: no slice left');
        const got = step.value.nearest(q, n + far.length, { truth: [...truth, ...far] });
        for (const key of ['best', 'cosine', 'rank']) {
          assert.ok(got[key].every((x, i) => Object.is(x, want[key][i])), `${key}: ${got[key]} vs ${want[key]}`);
        }
        const neighbours = (vocab) => JSON.stringify(vocab.neighbors(q.subarray(n * k, (n + 1) * k), 10));
        assert.equal(neighbours(step.value), neighbours(copy));
        assert.throws(() => glove.reducing(0).next(), /k must be/);
        copy.dispose();
      });

      it('reducedVocabulary(k) decodes the words from their first k PCA coordinates (rank 1)', () => {
        const R = glove.reduce(E, n, 100);
        for (const k of [88, 74]) { // 88 per the brief; 74 = d − dPos with compare's default dPos = 26
          const vocab = glove.reducedVocabulary(k);
          assert.equal(glove.reducedVocabulary(k), vocab, 'cached per k');
          assert.equal(vocab.size, 20000);
          assert.equal(vocab.dim, k);
          const q = new Float32Array(n * k);
          for (let i = 0; i < n; i++) q.set(R.subarray(i * 100, i * 100 + k), i * k);
          const { best, rank } = vocab.nearest(q, n, { truth });
          for (let i = 0; i < n; i++) {
            assert.equal(rank[i], 1, `k=${k} ${tokens[i]} decoded as ${glove.word(best[i])}`);
            assert.equal(best[i], truth[i]);
          }
        }
      });

      it('compare({ concatWords }) puts α·concatWords\' first d − dPos columns in concatenated.x', () => {
        const d = 100, alpha = 1.5;
        const concatWords = glove.reduce(E, n, d);
        const r = lab.compare(E, n, d, { alpha, concatWords });
        const plain = lab.compare(E, n, d, { alpha });
        const dWord = d - r.dPos;
        assert.equal(r.concatenated.width, d);
        for (let p = 0; p < n; p++) {
          for (let j = 0; j < d; j++) {
            const got = r.concatenated.x[p * d + j];
            // α·x in float: one rounding of an exact double product, i.e. Math.fround(α·x).
            if (j < dWord) {
              assert.equal(got, f32(alpha * concatWords[p * d + j]), `p=${p} j=${j}`);
              assert.equal(plain.concatenated.x[p * d + j], f32(alpha * E[p * d + j]), `plain p=${p} j=${j}`);
            } else {
              assert.equal(got, r.peConcat[p * r.dPos + j - dWord], `p=${p} j=${j}: position part`);
            }
          }
        }
        // concatWords changes only the concatenated scheme.
        assert.deepEqual(r.additive.x, plain.additive.x);
        assert.deepEqual(r.rotary.weights, plain.rotary.weights);
        // And the page's decoding of that word part recovers every word at rank 1.
        const q = new Float32Array(n * dWord);
        for (let p = 0; p < n; p++) q.set(r.concatenated.x.subarray(p * d, p * d + dWord), p * dWord);
        const { rank } = glove.reducedVocabulary(dWord).nearest(q, n, { truth });
        assert.deepEqual([...rank], Array(n).fill(1));
      });

      it('errors name the argument', () => {
        const R = (fn, re) => assert.throws(fn, { name: 'RangeError', message: re });
        R(() => glove.reducedVocabulary(0), /\bk\b/);
        R(() => glove.reducedVocabulary(101), /\bk\b/);
        R(() => glove.retained(0), /\bk\b/);
        R(() => glove.retained(101), /\bk\b/);
        R(() => glove.reduce(E, n, 0), /\bk\b/);
        R(() => glove.reduce(E, n, 101), /\bk\b/);
        R(() => glove.reduce(E.subarray(1), n, 5), /\bx\b/);
        R(() => glove.reduce(E, 0, 5), /\bn\b/);
        R(() => glove.nearest(E, n, { truth: truth.slice(1) }), /truth/);
        R(() => glove.nearest(E, n, { truth: [...truth.slice(1), 20000] }), new RegExp(`truth\\[${n - 1}\\]`));
        R(() => glove.nearest(E.subarray(0, 50), 1), /queries/);
        R(() => lab.compare(E, n, 100, { concatWords: E.subarray(1) }), /concatWords/);
        assert.throws(() => glove.indexOf(3), { name: 'TypeError', message: /word/ });
      });

      it('a disposed set and its reduced vocabularies throw RangeError', async () => {
        const bytes = packVectors(['a', 'b', 'c'], 4, [0.01, 0.02, 0.03], [127, 0, -5, 9, 1, 127, 3, -2, 0, 4, -127, 6]);
        const set = await lab.loadVectors(bytes);
        assert.equal(set.size, 3);
        const vocab = set.reducedVocabulary(2);
        assert.equal(vocab.nearest(set.reduce(set.vector('b'), 1, 2), 1).best[0], 1);
        assert.deepEqual([...set.nearest(set.vector('c'), 1, { truth: [2] }).rank], [1]);
        set.dispose();
        assert.throws(() => set.nearest([1, 0, 0, 0], 1), { name: 'RangeError', message: /disposed/ });
        assert.throws(() => set.reduce([1, 0, 0, 0], 1, 2), { name: 'RangeError', message: /disposed/ });
        assert.throws(() => set.retained(1), { name: 'RangeError', message: /disposed/ });
        assert.throws(() => set.indexOf('a'), { name: 'RangeError', message: /disposed/ });
        assert.throws(() => set.reducedVocabulary(2), { name: 'RangeError', message: /disposed/ });
        assert.throws(() => vocab.nearest([1, 0], 1), { name: 'RangeError', message: /disposed/ });
      });
    });
  });
}
