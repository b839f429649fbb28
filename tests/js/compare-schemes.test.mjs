// compare() with the further schemes (learned, alibi, nope, t5, xpos, rope-pi, rope-ntk, yarn) and
// lab.distanceCurves, on both builds, against float64 references built from the formulas
// (tests/js/reference.mjs) — never from the module's own lane code.
//
// Seeded stand-ins come from the module's independent standalone functions: the learned-style table
// from lab.learnedTable(n, d) (seed 1) and T5's bucket values from lab.t5Bias(…, { seed }).values
// (seed 1, or 1 + k for head k).
//
// Tolerances (inputs: N(0,1) vectors × α = 1.5, d ≤ 32, n ≤ 64, so |logit| ≲ 30):
//   TOL_X       1e-6 × (1 + |v|)  αE + L in float32: two roundings of O(1) values
//   TOL_LOGIT   1e-5 × (1 + |v|)  float32 dot products of ≤ 32 terms (each rounding ~6e-8
//                                 relative) scaled by 1/√d: the error stays near 1e-6
//   TOL_ROTATED 3e-5 × (1 + |v|)  the same, after a float32 rotation whose components carry a few
//                                 ulps (≈ 1e-6 relative of |αe| ≲ 5) each, summed over d terms
//   TOL_WEIGHT  1e-5 absolute      the contract's attention tolerance
//   curves      1e-6 × (1 + |v|)  float64 sums rounded once to float32 (relative 6e-8), with margin
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { load, SCHEMES } from '../../dist/posenc.mjs';
import * as ref from './reference.mjs';

const TOL_X = 1e-6;
const TOL_LOGIT = 1e-5;
const TOL_ROTATED = 3e-5;
const TOL_WEIGHT = 1e-5;
const TOL_CURVE = 1e-6;
const ALPHA = 1.5;
const NEW_SCHEMES = ['learned', 'alibi', 'nope', 't5', 'xpos', 'rope-pi', 'rope-ntk', 'yarn'];
const ROPE = ['rotary', 'xpos', 'rope-pi', 'rope-ntk', 'yarn'];

function assertCloseRel(actual, expected, tol, what) {
  assert.equal(actual.length, expected.length, `${what}: length`);
  for (let i = 0; i < actual.length; i++) {
    const err = Math.abs(actual[i] - expected[i]);
    assert.ok(err <= tol * (1 + Math.abs(expected[i])), `${what}[${i}]: ${actual[i]} vs ${expected[i]}`);
  }
}

function assertClose(actual, expected, tol, what) {
  const err = ref.maxAbsDiff(actual, expected);
  assert.ok(err <= tol, `${what}: max abs error ${err} > ${tol}`);
}

function sameBits(a, b) {
  return a.length === b.length && Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
}

function sumBlocks(terms, t, nn) {
  const out = new Float64Array(nn);
  for (let b = 0; b < t; b++) for (let i = 0; i < nn; i++) out[i] += terms[b * nn + i];
  return out;
}

function byOffset(n, f) {
  const out = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) out[i * n + j] = f(j - i);
  return out;
}

const DEFAULTS = {
  trainedLength: 2048, evalLength: 8192, alibiHeads: 8, alibiHead: 1, t5Buckets: 32, t5MaxDistance: 128,
  xposGamma: 0.4, xposScaleBase: 512, yarnAlpha: 1, yarnBeta: 32,
};

/**
 * The W = I lane of `name` from the formulas: { x, terms: Float64Array[] (pre-mask, scaled),
 * extras }. c = fround(α·E) is exactly the content the core scales once.
 */
function referenceLane(lab, name, E, n, d, options) {
  const o = { ...DEFAULTS, ...options };
  const scale = 1 / Math.sqrt(d);
  const c = Float32Array.from(E, (e) => ALPHA * e);
  const cc = () => ref.logits(c, c, n, d, { scale });
  if (name === 'learned') {
    const L = lab.learnedTable(n, d);
    const x = Float64Array.from(c, (v, i) => v + L[i]);
    return {
      x, terms: [cc(), ref.logits(c, L, n, d, { scale }), ref.logits(L, c, n, d, { scale }), ref.logits(L, L, n, d, { scale })],
      extras: { trainedLength: o.trainedLength },
    };
  }
  if (name === 'alibi') {
    const m = ref.alibiSlopes(o.alibiHeads)[o.alibiHead - 1];
    return { x: c, terms: [cc(), byOffset(n, (r) => -m * Math.abs(r))], extras: { slopes: [m] } };
  }
  if (name === 't5') {
    const bidirectional = !o.causal;
    const values = lab.t5Bias(1, { numBuckets: o.t5Buckets, seed: 1 }).values;
    const bucket = (r) => ref.t5Bucket(r, bidirectional, o.t5Buckets, o.t5MaxDistance);
    return { x: c, terms: [cc(), byOffset(n, (r) => values[bucket(r)])], extras: { buckets: byOffset(n, bucket) } };
  }
  if (name === 'nope') return { x: c, terms: [cc()], extras: {} };
  // Rope family.
  const scaling = { rotary: 'none', xpos: 'none', 'rope-pi': 'pi', 'rope-ntk': 'ntk', yarn: 'yarn' }[name];
  const s = scaling === 'none' ? 1 : Math.max(1, o.evalLength / o.trainedLength);
  const omega = ref.ropeFrequencies(d, { scaling, L: o.trainedLength, Lp: o.evalLength, alpha: o.yarnAlpha, beta: o.yarnBeta });
  const qk = name === 'yarn' && s > 1 ? 0.1 * Math.log(s) + 1 : 1;
  let q;
  let k;
  if (name === 'xpos') {
    q = ref.xpos(c, n, d, { role: 'query', gamma: o.xposGamma, scaleBase: o.xposScaleBase });
    k = ref.xpos(c, n, d, { role: 'key', gamma: o.xposGamma, scaleBase: o.xposScaleBase });
  } else {
    q = ref.rotateWith(c, n, d, omega);
    k = q;
  }
  const extras = { frequencies: omega, scaleFactor: s };
  if (name === 'yarn') extras.qkFactor = qk;
  return { x: c, terms: [ref.logits(q, k, n, d, { scale: scale * qk * qk })], extras };
}

for (const simd of [true, false]) {
  describe(`compare() schemes and distanceCurves, ${simd ? 'SIMD' : 'scalar'} build`, () => {
    let lab;
    before(async () => {
      lab = await load({ simd });
    });
    const embed = (n, d, salt = 'w') => lab.embed(Array.from({ length: n }, (_, p) => `${salt}${p % 7}-${p}`), d);

    it('SCHEMES: the eleven names in display order, frozen, also on the lab', () => {
      assert.deepEqual([...SCHEMES], ['additive', 'concatenated', 'rotary', 'learned', 'alibi', 'nope', 't5', 'xpos', 'rope-pi', 'rope-ntk', 'yarn']);
      assert.ok(Object.isFrozen(SCHEMES));
      assert.equal(lab.SCHEMES, SCHEMES);
    });

    it('only the requested schemes are returned, in the requested order; default is the original three', () => {
      const E = embed(5, 8);
      const c = lab.compare(E, 5, 8, { schemes: ['yarn', 'alibi'] });
      assert.deepEqual(c.schemes, ['yarn', 'alibi']);
      for (const name of SCHEMES) assert.equal(name in c, name === 'yarn' || name === 'alibi', name);
      assert.ok(!('pe' in c) && !('peConcat' in c));
      const classic = lab.compare(E, 5, 8);
      assert.deepEqual(classic.schemes, ['additive', 'concatenated', 'rotary']);
      assert.ok(classic.pe instanceof Float32Array && classic.peConcat instanceof Float32Array);
      // concatenated's dPos constraint does not apply when it is not requested (d = 2).
      assert.equal(lab.compare(lab.embed(['a'], 2), 1, 2, { schemes: ['rotary', 'nope'] }).rotary.width, 2);
      assert.throws(() => lab.compare(lab.embed(['a'], 2), 1, 2, { schemes: ['concatenated'] }), /dPos/);
    });

    for (const causal of [false, true]) {
      for (const [n, d] of [[1, 8], [3, 4], [5, 20], [8, 8], [17, 12], [64, 16]]) {
        it(`W = I, every new lane against float64, n=${n} d=${d} causal=${causal}`, () => {
          const E = embed(n, d);
          const options = { causal, t5Buckets: 16, t5MaxDistance: 20, alibiHeads: 12, alibiHead: 10, evalLength: 6000, trainedLength: 1000 };
          const c = lab.compare(E, n, d, { ...options, alpha: ALPHA, schemes: [...NEW_SCHEMES, 'rotary'] });
          const nn = n * n;
          for (const name of [...NEW_SCHEMES, 'rotary']) {
            const lane = c[name];
            const want = referenceLane(lab, name, E, n, d, { ...options, causal });
            const t = want.terms.length;
            assert.equal(lane.width, d, name);
            assert.equal(lane.termNames.length, t, name);
            assert.equal(lane.terms.length, t * nn, name);
            assert.equal(lane.weights.length, nn, name);
            assertCloseRel(lane.x, want.x, TOL_X, `${name}.x`);
            const tol = ROPE.includes(name) ? TOL_ROTATED : TOL_LOGIT;
            for (let b = 0; b < t; b++) assertCloseRel(lane.terms.subarray(b * nn, (b + 1) * nn), want.terms[b], tol, `${name}.terms[${b}]`);
            const sum = new Float64Array(nn);
            for (const term of want.terms) for (let i = 0; i < nn; i++) sum[i] += term[i];
            assertClose(lane.weights, ref.softmaxRows(sum, n, causal), TOL_WEIGHT, `${name}.weights`);
            // The lane's own terms sum to its pre-mask logits: softmax of their sum is its weights.
            assertClose(lane.weights, ref.softmaxRows(sumBlocks(lane.terms, t, nn), n, causal), TOL_WEIGHT, `${name}: terms sum to logits`);
            for (const [key, value] of Object.entries(want.extras)) {
              if (typeof value === 'number') assert.ok(Math.abs(lane[key] - value) <= 1e-15 * Math.abs(value), `${name}.${key}`);
              else assertClose(lane[key], value, key === 'buckets' ? 0 : 1e-15, `${name}.${key}`);
            }
          }
          assert.ok(c.alibi.slopes instanceof Float64Array && c.t5.buckets instanceof Int32Array);
          assert.ok(c.yarn.frequencies instanceof Float64Array && c.yarn.frequencies.length === d / 2);
          // NoPE: both maps, whatever causal is.
          const cc = referenceLane(lab, 'nope', E, n, d, {}).terms[0];
          assertClose(c.nope.masked, ref.softmaxRows(cc, n, true), TOL_WEIGHT, 'nope.masked');
          assertClose(c.nope.unmasked, ref.softmaxRows(cc, n, false), TOL_WEIGHT, 'nope.unmasked');
          assert.ok(sameBits(c.nope.weights, causal ? c.nope.masked : c.nope.unmasked));
        });
      }
    }

    for (const heads of [2, 4]) {
      for (const causal of [false, true]) {
        it(`${heads} random heads, causal=${causal}: shapes, rows, head 0 terms, per-head biases`, () => {
          const n = 17;
          const d = 16;
          const E = embed(n, d, 'h');
          const nn = n * n;
          const c = lab.compare(E, n, d, { heads, causal, alpha: ALPHA, schemes: SCHEMES.slice(), t5Buckets: 8, t5MaxDistance: 12 });
          for (const name of SCHEMES) {
            const lane = c[name];
            const t = lane.termNames.length;
            assert.equal(lane.weights.length, heads * nn, name);
            for (let h = 0; h < heads; h++) {
              const block = lane.weights.subarray(h * nn, (h + 1) * nn);
              for (let i = 0; i < n; i++) {
                let sum = 0;
                for (let j = 0; j < n; j++) {
                  sum += block[i * n + j];
                  if (causal && j > i) assert.equal(block[i * n + j], 0, `${name} head ${h}`);
                }
                assert.ok(Math.abs(sum - 1) <= TOL_WEIGHT, `${name} head ${h} row ${i}: ${sum}`);
              }
            }
            assertClose(lane.weights.subarray(0, nn), ref.softmaxRows(sumBlocks(lane.terms, t, nn), n, causal), TOL_WEIGHT,
              `${name}: head 0 terms sum to its logits`);
          }
          assert.deepEqual([...c.alibi.slopes], ref.alibiSlopes(heads));
          // Head k's bias on top of the same head's content logits (NoPE's, recovered from its
          // unmasked weights up to a per-row constant, which softmax ignores).
          const nope = lab.compare(E, n, d, { heads, causal: false, alpha: ALPHA, schemes: ['nope'] }).nope.weights;
          for (let h = 0; h < heads; h++) {
            const content = Float64Array.from(nope.subarray(h * nn, (h + 1) * nn), Math.log);
            const m = c.alibi.slopes[h];
            const alibi = content.map((v, i) => v - m * Math.abs((i % n) - Math.floor(i / n)));
            assertClose(c.alibi.weights.subarray(h * nn, (h + 1) * nn), ref.softmaxRows(alibi, n, causal), TOL_WEIGHT, `alibi head ${h}`);
            const t5 = lab.t5Bias(n, { numBuckets: 8, maxDistance: 12, seed: 1 + h, bidirectional: !causal }).bias;
            assertClose(c.t5.weights.subarray(h * nn, (h + 1) * nn), ref.softmaxRows(content.map((v, i) => v + t5[i]), n, causal),
              TOL_WEIGHT, `t5 head ${h}`);
          }
          assert.equal(c.rotary.frequencies.length, d / heads / 2);
        });
      }
    }

    it('paper checks: ALiBi slopes (8 heads 1/2 … 1/256; 12 heads), chosen by alibiHead with W = I', () => {
      const E = embed(3, 8);
      for (let head = 1; head <= 8; head++) {
        assert.deepEqual([...lab.compare(E, 3, 8, { schemes: ['alibi'], alibiHead: head }).alibi.slopes], [2 ** -head]);
      }
      const twelve = [...[1, 2, 3, 4, 5, 6, 7, 8].map((k) => 2 ** -k), 2 ** -0.5, 2 ** -1.5, 2 ** -2.5, 2 ** -3.5];
      for (let head = 1; head <= 12; head++) {
        const [m] = lab.compare(E, 3, 8, { schemes: ['alibi'], alibiHeads: 12, alibiHead: head }).alibi.slopes;
        assert.ok(Math.abs(m - twelve[head - 1]) <= 1e-15 * m, `head ${head}: ${m}`);
      }
      const [two] = lab.compare(E, 3, 8, { schemes: ['alibi'], heads: 2 }).alibi.slopes.slice(1);
      assert.equal(two, 1 / 256); // 2 heads: 2^(−8·2/2)
    });

    it('paper checks: T5 bucket boundaries (32 buckets, max distance 128)', () => {
      const n = 300;
      const E = embed(n, 4);
      const at = (b, i, j) => b[i * n + j];
      const bi = lab.compare(E, n, 4, { schemes: ['t5'] }).t5.buckets;
      // Bidirectional: 16 per direction, 8 exact; keys after the query from bucket 16.
      assert.deepEqual([0, 1, 7, 8, 11, 12, 15, 16, 31, 32, 63, 64, 127, 128, 299].map((r) => at(bi, r, 0)),
        [0, 1, 7, 8, 8, 9, 9, 10, 11, 12, 13, 14, 15, 15, 15]);
      assert.deepEqual([1, 7, 8, 12, 299].map((r) => at(bi, 0, r)), [17, 23, 24, 25, 31]);
      const causal = lab.compare(E, n, 4, { schemes: ['t5'], causal: true }).t5.buckets;
      // Causal: 32 buckets for keys at or before the query, 16 exact; later keys share bucket 0.
      // Bucket 17 starts at 16·8^(1/16) ≈ 18.2.
      assert.deepEqual([0, 15, 16, 18, 19, 127, 128, 299].map((r) => at(causal, r, 0)), [0, 15, 16, 16, 17, 31, 31, 31]);
      assert.equal(at(causal, 0, 5), 0);
      for (let i = 0; i < n; i += 13) {
        for (let j = 0; j < n; j += 7) {
          assert.equal(at(bi, i, j), ref.t5Bucket(j - i, true, 32, 128));
          assert.equal(at(causal, i, j), ref.t5Bucket(j - i, false, 32, 128));
        }
      }
    });

    for (const heads of [0, 2]) {
      for (const causal of [false, true]) {
        it(`every RoPE scaling is plain RoPE at s = 1, bit for bit (heads=${heads}, causal=${causal})`, () => {
          const n = 17;
          const E = embed(n, 16);
          for (const [trainedLength, evalLength] of [[2048, 2048], [4096, 100], [1, 1]]) {
            const c = lab.compare(E, n, 16, { heads, causal, schemes: ['rotary', 'rope-pi', 'rope-ntk', 'yarn'], trainedLength, evalLength });
            for (const name of ['rope-pi', 'rope-ntk', 'yarn']) {
              for (const part of ['x', 'weights', 'terms', 'frequencies']) {
                assert.ok(sameBits(c[name][part], c.rotary[part]), `${name}.${part} L=${trainedLength} L'=${evalLength}`);
              }
              assert.equal(c[name].scaleFactor, 1);
            }
            assert.equal(c.yarn.qkFactor, 1);
          }
        });
      }
    }

    it('YaRN temperature: qkFactor = 0.1·ln s + 1 and the logits carry its square', () => {
      const E = embed(9, 16);
      for (const s of [2, 4, 32]) {
        const c = lab.compare(E, 9, 16, { schemes: ['yarn'], trainedLength: 1000, evalLength: 1000 * s, alpha: ALPHA });
        assert.ok(Math.abs(c.yarn.qkFactor - (0.1 * Math.log(s) + 1)) <= 1e-15);
        assert.equal(c.yarn.scaleFactor, s);
        // Without the factor the logits would be those of the same ω, unscaled.
        const want = referenceLane(lab, 'yarn', E, 9, 16, { trainedLength: 1000, evalLength: 1000 * s }).terms[0];
        assertCloseRel(c.yarn.terms, want, TOL_ROTATED, `yarn s=${s}`);
        // and the factor matters: without it the logits would be smaller by qkFactor².
        const qk2 = c.yarn.qkFactor ** 2;
        assert.ok(ref.maxAbsDiff(c.yarn.terms, want.map((v) => v / qk2)) > 1e-3);
      }
    });

    it('xPos reduces to RoPE as ζ^(P/λ) → 1 (huge xposScaleBase), and decays otherwise', () => {
      const n = 17;
      const E = embed(n, 16);
      const near = lab.compare(E, n, 16, { schemes: ['rotary', 'xpos'], xposScaleBase: 1e9, alpha: ALPHA });
      // ζ^(±16/1e9) = 1 ± 2e-8·|ln ζ| (|ln ζ| ≤ 1.3): within float rounding of RoPE's.
      assertCloseRel(near.xpos.terms, near.rotary.terms, 1e-6, 'xpos → rotary');
      const far = lab.compare(E, n, 16, { schemes: ['rotary', 'xpos'], xposScaleBase: 4, alpha: ALPHA });
      assert.ok(ref.maxAbsDiff(far.xpos.terms, far.rotary.terms) > 1e-2, 'xPos with λ = 4 differs from RoPE');
    });

    it('NoPE without a mask is permutation-equivariant', () => {
      const n = 9;
      const d = 12;
      const E = embed(n, d);
      const [a, b] = [2, 6];
      const swapped = E.slice();
      swapped.set(E.subarray(a * d, (a + 1) * d), b * d);
      swapped.set(E.subarray(b * d, (b + 1) * d), a * d);
      const perm = (i) => (i === a ? b : i === b ? a : i);
      for (const causal of [false, true]) {
        const one = lab.compare(E, n, d, { schemes: ['nope'], causal }).nope;
        const two = lab.compare(swapped, n, d, { schemes: ['nope'], causal }).nope;
        let err = 0;
        for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) err = Math.max(err, Math.abs(two.unmasked[i * n + j] - one.unmasked[perm(i) * n + perm(j)]));
        assert.ok(err <= 1e-6, `unmasked permutation error ${err}`);
        // The causal mask breaks it: row 0 sees only itself.
        let moved = 0;
        for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) moved = Math.max(moved, Math.abs(two.masked[i * n + j] - one.masked[perm(i) * n + perm(j)]));
        assert.ok(moved > 1e-3, `masked map unexpectedly equivariant (${moved})`);
      }
    });

    it('relative schemes keep the attention among the original tokens when fillers are prepended; absolute ones do not', () => {
      const n = 12;
      const d = 16;
      const k = 5;
      const E = embed(n, d);
      const fillers = embed(k, d, 'filler');
      const shifted = new Float32Array((n + k) * d);
      shifted.set(fillers);
      shifted.set(E, k * d);
      for (const causal of [false, true]) {
        const options = { causal, alpha: ALPHA, schemes: SCHEMES.slice(), t5Buckets: 8, t5MaxDistance: 12 };
        const one = lab.compare(E, n, d, options);
        const two = lab.compare(shifted, n + k, d, options);
        for (const name of SCHEMES) {
          const change = lab.shiftChange(one[name].weights, two[name].weights, n, k);
          // With W = I concatenation is relative too: its logits are αe_i·αe_j + PE(i)·PE(j), and
          // PE(i)·PE(j) depends on i − j only (its cross terms vanish).
          if (['additive', 'learned'].includes(name)) {
            assert.ok(change > 1e-3, `${name} should change (${change})`);
          } else {
            // float rounding of logits computed at other absolute positions
            assert.ok(change <= 2e-5, `${name} changed by ${change} (causal=${causal})`);
          }
        }
      }
    });

    it('learned: the table is fixed (same for every call), row p independent of n', () => {
      const E = embed(20, 8);
      const a = lab.compare(E.subarray(0, 40), 5, 8, { schemes: ['learned'], alpha: 0 }).learned.x;
      const b = lab.compare(E, 20, 8, { schemes: ['learned'], alpha: 0 }).learned.x;
      assert.ok(sameBits(a, b.subarray(0, 40)));
      assert.ok(sameBits(a, lab.learnedTable(5, 8)));
      assert.equal(lab.compare(E, 20, 8, { schemes: ['learned'], trainedLength: 16 }).learned.trainedLength, 16);
    });

    describe('distanceCurves', () => {
      const omegaOf = (d, base, scaling, o) => ref.ropeFrequencies(d, { base, scaling, L: o.trainedLength, Lp: o.evalLength, alpha: o.yarnAlpha, beta: o.yarnBeta });
      function referenceCurve(name, d, K, o) {
        const out = new Float64Array(K + 1);
        const base = o.base ?? 10000;
        const sumCos = (omega, k, weight = () => 1) => omega.reduce((s, w, i) => s + Math.cos(k * w) * weight(i, k), 0);
        for (let k = 0; k <= K; k++) {
          switch (name) {
            case 'additive': out[k] = sumCos(omegaOf(d, base, 'none', o), k) / Math.sqrt(d); break;
            case 'concatenated': {
              const w = o.concat === 'widened' ? d + o.dPos : d;
              out[k] = sumCos(omegaOf(o.dPos, base, 'none', o), k) / Math.sqrt(w);
              break;
            }
            case 'learned': {
              const L = lab.learnedTable(K + 1, d);
              out[k] = ref.dot(L, k * d, L, 0, d) / Math.sqrt(d);
              break;
            }
            case 'alibi': out[k] = -ref.alibiSlopes(o.alibiHeads)[o.alibiHead - 1] * k; break;
            case 't5': out[k] = lab.t5Bias(1, { numBuckets: o.t5Buckets, seed: 1 }).values[ref.t5Bucket(-k, !o.causal, o.t5Buckets, o.t5MaxDistance)]; break;
            case 'nope': out[k] = 0; break;
            default: {
              const scaling = { rotary: 'none', xpos: 'none', 'rope-pi': 'pi', 'rope-ntk': 'ntk', yarn: 'yarn' }[name];
              const s = Math.max(1, o.evalLength / o.trainedLength);
              const qk = name === 'yarn' && s > 1 ? 0.1 * Math.log(s) + 1 : 1;
              const zeta = (i) => ((2 * i) / d + o.xposGamma) / (1 + o.xposGamma);
              const weight = name === 'xpos' ? (i, kk) => zeta(i) ** (kk / o.xposScaleBase) : () => 1;
              out[k] = ((2 / Math.sqrt(d)) * sumCos(omegaOf(d, base, scaling, o), k, weight)) * qk * qk;
            }
          }
        }
        return out;
      }

      for (const [d, K, extra] of [[16, 300, {}], [8, 50, { causal: true, concat: 'widened', dPos: 4, alibiHeads: 12, alibiHead: 11, t5Buckets: 8, t5MaxDistance: 40 }],
        [64, 1000, { base: 500, trainedLength: 100, evalLength: 1000, yarnAlpha: 2, yarnBeta: 8, xposGamma: 2, xposScaleBase: 64 }]]) {
        it(`every scheme against float64, d=${d} maxDistance=${K} ${JSON.stringify(extra)}`, () => {
          const o = { ...DEFAULTS, causal: false, concat: 'same-width', dPos: Math.max(2, 2 * Math.round(d / 8)), ...extra };
          const { maxDistance, curves } = lab.distanceCurves({ d, maxDistance: K, schemes: SCHEMES.slice(), ...extra });
          assert.equal(maxDistance, K);
          assert.deepEqual(Object.keys(curves), [...SCHEMES]);
          for (const name of SCHEMES) {
            assert.ok(curves[name] instanceof Float32Array && curves[name].length === K + 1, name);
            assertCloseRel(curves[name], referenceCurve(name, d, K, o), TOL_CURVE, `${name} curve`);
          }
          // k = 0: cos 0 = 1 in every pair.
          assert.ok(Math.abs(curves.additive[0] - Math.sqrt(d) / 2) <= 1e-6 * d);
          assert.ok(Math.abs(curves.rotary[0] - Math.sqrt(d)) <= 1e-6 * d);
          assert.ok(Math.abs(curves.xpos[0] - Math.sqrt(d)) <= 1e-6 * d);
          assert.equal(curves.alibi[0], 0);
          assert.equal(curves.nope[0], 0);
          // ALiBi is linear: −m·k rounded once.
          const m = ref.alibiSlopes(o.alibiHeads)[o.alibiHead - 1];
          for (let k = 0; k <= K; k++) assert.equal(curves.alibi[k], Math.fround(0 - m * k));
        });
      }

      it('rope scalings equal rotary at s = 1 (bit for bit); the order follows the request', () => {
        const { curves } = lab.distanceCurves({ d: 32, maxDistance: 4000, schemes: ['yarn', 'rotary', 'rope-pi', 'rope-ntk'], evalLength: 2048 });
        assert.deepEqual(Object.keys(curves), ['yarn', 'rotary', 'rope-pi', 'rope-ntk']);
        for (const name of ['yarn', 'rope-pi', 'rope-ntk']) assert.ok(sameBits(curves[name], curves.rotary), name);
        const scaled = lab.distanceCurves({ d: 32, maxDistance: 4000, schemes: ['rotary', 'rope-pi'], evalLength: 8192 }).curves;
        assert.ok(!sameBits(scaled['rope-pi'], scaled.rotary));
        // Asked for against the core's order, each name still gets its own row: NoPE is 0, ALiBi −m·k.
        const swapped = lab.distanceCurves({ d: 8, maxDistance: 3, schemes: ['nope', 'alibi'] }).curves;
        assert.deepEqual(Array.from(swapped.nope), [0, 0, 0, 0]);
        assert.deepEqual(Array.from(swapped.alibi), [0, -0.5, -1, -1.5]);
      });

      it('validates its options', () => {
        assert.throws(() => lab.distanceCurves(), TypeError);
        assert.throws(() => lab.distanceCurves({ maxDistance: 4 }), TypeError);
        assert.throws(() => lab.distanceCurves({ d: 7, maxDistance: 4 }), /d must be even/);
        assert.throws(() => lab.distanceCurves({ d: 8, maxDistance: 0 }), /maxDistance/);
        assert.throws(() => lab.distanceCurves({ d: 8, maxDistance: 65537 }), /maxDistance/);
        assert.throws(() => lab.distanceCurves({ d: 4096, maxDistance: 65536 }), /maxDistance/);
        assert.throws(() => lab.distanceCurves({ d: 8, maxDistance: 4, schemes: ['alibi', 'alibi'] }), /twice/);
        assert.throws(() => lab.distanceCurves({ d: 8, maxDistance: 4, schemes: ['bogus'] }), RangeError);
        assert.throws(() => lab.distanceCurves({ d: 8, maxDistance: 4, xposGamma: 0 }), /xposGamma/);
        assert.throws(() => lab.distanceCurves({ d: 8, maxDistance: 4, layout: 'half' }), TypeError);
        assert.equal(lab.distanceCurves({ d: 8, maxDistance: 4 }).curves.rotary.length, 5);
      });
    });

    it('validates the new compare options (RangeError/TypeError naming the option)', () => {
      const E = embed(4, 8);
      const bad = [
        [{ schemes: [] }, RangeError, /schemes/], [{ schemes: 'rotary' }, TypeError, /schemes/],
        [{ schemes: ['rotary', 'rotary'] }, RangeError, /twice/], [{ schemes: ['RoPE'] }, RangeError, /schemes\[0\]/],
        [{ schemes: [1] }, TypeError, /schemes\[0\]/],
        [{ trainedLength: 0 }, RangeError, /trainedLength/], [{ evalLength: 2 ** 20 + 1 }, RangeError, /evalLength/],
        [{ evalLength: 1.5 }, RangeError, /evalLength/], [{ trainedLength: '2048' }, TypeError, /trainedLength/],
        [{ alibiHeads: 65 }, RangeError, /alibiHeads/], [{ alibiHead: 0 }, RangeError, /alibiHead/],
        [{ alibiHeads: 4, alibiHead: 5 }, RangeError, /alibiHead/],
        [{ t5Buckets: 6.5 }, RangeError, /t5Buckets/], [{ t5Buckets: 258 }, RangeError, /t5Buckets/], [{ t5Buckets: 10 + 1 }, RangeError, /t5Buckets/],
        [{ t5MaxDistance: 8 }, RangeError, /t5MaxDistance/], [{ t5MaxDistance: 16, causal: true }, RangeError, /t5MaxDistance/],
        [{ xposGamma: 0 }, RangeError, /xposGamma/], [{ xposGamma: 10.5 }, RangeError, /xposGamma/], [{ xposGamma: NaN }, RangeError, /xposGamma/],
        [{ xposScaleBase: 0 }, RangeError, /xposScaleBase/], [{ xposScaleBase: -1 }, RangeError, /xposScaleBase/],
        [{ yarnAlpha: -1 }, RangeError, /yarnAlpha/], [{ yarnAlpha: 5, yarnBeta: 5 }, RangeError, /yarnBeta/],
        [{ yarnBeta: Infinity }, RangeError, /yarnBeta/], [{ yarnAlpha: '1' }, TypeError, /yarnAlpha/],
      ];
      for (const [options, type, message] of bad) {
        assert.throws(() => lab.compare(E, 4, 8, options), (e) => e instanceof type && message.test(e.message), JSON.stringify(options));
      }
      // Too small an xPos λ for n tokens: the scale would leave float32 range.
      assert.throws(() => lab.compare(embed(64, 8), 64, 8, { schemes: ['xpos'], xposScaleBase: 0.5 }), /xposScaleBase/);
      assert.equal(lab.compare(embed(64, 8), 64, 8, { schemes: ['rotary'], xposScaleBase: 0.5 }).rotary.width, 8);
      // All lanes together are bounded like the original three.
      assert.throws(() => lab.compare(embed(1024, 64), 1024, 64, { heads: 8, schemes: ['rotary', 'alibi', 't5', 'nope', 'xpos', 'yarn', 'learned'] }), /schemes/);
      // Still usable.
      assert.equal(lab.compare(E, 4, 8, { schemes: SCHEMES.slice() }).yarn.weights.length, 16);
    });
  });
}
