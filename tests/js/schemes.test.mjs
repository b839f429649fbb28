// More positional schemes through the JS API (alibiSlopes, alibiBias, t5Bias, ropeFrequencies,
// rotateWith, xpos, learnedTable) against float64 references written here from the papers'
// formulas, on both builds, plus NoPE (attention with no positional signal) with and without the
// causal mask.
//
// Tolerances:
//   exact   slopes, frequencies (float64 end to end), buckets, table determinism
//   2e-5    rotations at positions up to a few hundred (the contract's rotate tolerance)
//   1e-5    attention (the contract)
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { load, LIMITS } from '../../dist/posenc.mjs';
import * as ref from './reference.mjs';

const TOL_ROTATE = 2e-5;
const TOL_ATTENTION = 1e-5;

// float64 references (tests/js/reference.mjs), under the names this file has always used.
const {
  alibiSlopes: alibiSlopesRef, t5Bucket: t5BucketRef, ropeFrequencies: ropeFrequenciesRef,
  rotateWith: rotateWithRef, xpos: xposRef,
} = ref;

function assertClose(actual, expected, tol, what) {
  const err = ref.maxAbsDiff(actual, expected);
  assert.ok(err <= tol, `${what}: max abs error ${err} > ${tol}`);
}

for (const simd of [true, false]) {
  describe(`${simd ? 'SIMD' : 'scalar'} build: more schemes`, () => {
    let lab;
    before(async () => {
      lab = await load({ simd });
    });

    describe('ALiBi', () => {
      it('slopes for 8 heads are 1/2 … 1/256 and for 12 heads follow the non-power-of-two rule', () => {
        assert.deepEqual([...lab.alibiSlopes(8)], [1 / 2, 1 / 4, 1 / 8, 1 / 16, 1 / 32, 1 / 64, 1 / 128, 1 / 256]);
        const twelve = lab.alibiSlopes(12);
        assert.ok(twelve instanceof Float64Array);
        const want = [...[1, 2, 3, 4, 5, 6, 7, 8].map((k) => 2 ** -k), 2 ** -0.5, 2 ** -1.5, 2 ** -2.5, 2 ** -3.5];
        for (let k = 0; k < 12; k++) assert.ok(Math.abs(twelve[k] - want[k]) <= 1e-15 * want[k], `head ${k}`);
        for (let h = 1; h <= LIMITS.maxHeads; h++) {
          const got = lab.alibiSlopes(h);
          const r = alibiSlopesRef(h);
          for (let k = 0; k < h; k++) assert.ok(Math.abs(got[k] - r[k]) <= 1e-14 * r[k], `h ${h} head ${k}`);
        }
      });

      it('bias is −m·(i − j), −Infinity above the diagonal when causal', () => {
        const n = 9;
        const m = 2 ** -1.5; // 12 heads, head 9
        const causal = lab.alibiBias(n, { heads: 12, head: 9 });
        const symmetric = lab.alibiBias(n, { heads: 12, head: 9, causal: false });
        for (let i = 0; i < n; i++) {
          for (let j = 0; j < n; j++) {
            assert.equal(symmetric[i * n + j], Math.fround(-m * Math.abs(i - j)));
            assert.equal(causal[i * n + j], j > i ? -Infinity : Math.fround(-m * (i - j)));
          }
        }
      });

      it('validates its arguments', () => {
        assert.throws(() => lab.alibiSlopes(0), RangeError);
        assert.throws(() => lab.alibiSlopes(65), /heads/);
        assert.throws(() => lab.alibiSlopes('8'), TypeError);
        assert.throws(() => lab.alibiBias(4, { heads: 4, head: 4 }), /head/);
        assert.throws(() => lab.alibiBias(4, { causal: 1 }), TypeError);
        assert.throws(() => lab.alibiBias(4097), /n/);
        assert.throws(() => lab.alibiBias(4, { slope: 1 }), TypeError);
      });
    });

    describe('T5 relative bias', () => {
      it('buckets match the reference; bias = values[bucket]; values are seeded', () => {
        for (const [bidirectional, numBuckets, maxDistance] of [[true, 32, 128], [false, 32, 128], [true, 8, 20], [false, 64, 300]]) {
          const n = 200;
          const { bias, buckets, values } = lab.t5Bias(n, { bidirectional, numBuckets, maxDistance, seed: 5 });
          assert.ok(buckets instanceof Int32Array);
          assert.equal(values.length, numBuckets);
          for (let i = 0; i < n; i++) {
            for (let j = 0; j < n; j++) {
              const b = t5BucketRef(j - i, bidirectional, numBuckets, maxDistance);
              if (buckets[i * n + j] !== b) assert.fail(`bucket (${i}, ${j}): ${buckets[i * n + j]} vs ${b}`);
              if (bias[i * n + j] !== values[b]) assert.fail(`bias (${i}, ${j})`);
            }
          }
          assert.deepEqual(lab.t5Bias(3, { bidirectional, numBuckets, maxDistance, seed: 5 }).values, values);
        }
        // Bucket starts from the T5 defaults (bidirectional, keys before the query).
        const { buckets } = lab.t5Bias(200);
        const starts = [0, 1, 7, 8, 12, 16, 23, 32, 46, 64, 91].map((r) => buckets[r * 200]);
        assert.deepEqual(starts, [0, 1, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
        assert.equal(buckets[199 * 200], 15); // clamped beyond 128
        assert.equal(buckets[5], 16 + 5); // key 5 after the query: the other half
      });

      it('validates its arguments', () => {
        assert.throws(() => lab.t5Bias(4, { numBuckets: 31 }), /numBuckets/);
        assert.throws(() => lab.t5Bias(4, { numBuckets: 2 }), /numBuckets/);
        assert.throws(() => lab.t5Bias(4, { maxDistance: 8 }), /maxDistance/); // ≤ max_exact 8
        // The exact buckets are whole: 6 bidirectional buckets have 1 (6/2/2 rounded down), so 2 is
        // beyond them (the JS API once said 2.5, refusing what the core takes).
        assert.equal(lab.t5Bias(4, { numBuckets: 6, maxDistance: 2 }).values.length, 6);
        assert.throws(() => lab.t5Bias(4, { numBuckets: 6, maxDistance: 1 }), { name: 'RangeError', message: /^maxDistance must exceed/ });
        assert.throws(() => lab.t5Bias(4, { bidirectional: 'yes' }), TypeError);
        assert.throws(() => lab.t5Bias(4, { seed: -1 }), /seed/);
      });
    });

    describe('RoPE context extension', () => {
      it('frequencies match the papers\' formulas and reduce to plain RoPE at scale 1', () => {
        for (const d of [2, 4, 64, 128]) {
          const plain = lab.ropeFrequencies(d).frequencies;
          for (const scaling of ['none', 'pi', 'ntk', 'yarn']) {
            // L' ≤ L: s = 1, every variant is plain RoPE bit for bit.
            for (const evalLength of [4096, 100]) {
              const r = lab.ropeFrequencies(d, { scaling, trainedLength: 4096, evalLength });
              assert.deepEqual(r.frequencies, plain, `${scaling} d ${d} eval ${evalLength}`);
              assert.equal(r.scale, 1);
              assert.equal(r.qkFactor, 1);
            }
            const r = lab.ropeFrequencies(d, { scaling, trainedLength: 4096, evalLength: 32768 });
            const want = ropeFrequenciesRef(d, { scaling, L: 4096, Lp: 32768 });
            for (let i = 0; i < d / 2; i++) {
              assert.ok(Math.abs(r.frequencies[i] - want[i]) <= 1e-14 * want[i], `${scaling} d ${d} pair ${i}`);
            }
            assert.equal(r.scale, 8);
            assert.equal(r.qkFactor, scaling === 'yarn' ? 0.1 * Math.log(8) + 1 : 1);
          }
        }
      });

      it('rotateWith(frequencies of base) equals rotate bit for bit', () => {
        for (const d of [2, 6, 8, 64, 100]) {
          for (const pairing of ['interleaved', 'half']) {
            const n = 17;
            const x = ref.randomMatrix(ref.mulberry32(d), n * d);
            const { frequencies } = lab.ropeFrequencies(d, { base: 500000 });
            const a = lab.rotate(x, n, d, { base: 500000, offset: 11, pairing });
            const b = lab.rotateWith(x, n, d, frequencies, { offset: 11, pairing });
            assert.deepEqual(b, a);
          }
        }
      });

      it('PI through scaled frequencies equals rotation at fractional positions m·L/L\'', () => {
        const d = 64;
        const n = 300;
        const x = ref.randomMatrix(ref.mulberry32(3), n * d);
        const { frequencies } = lab.ropeFrequencies(d, { scaling: 'pi', trainedLength: 100, evalLength: 300 });
        const plain = ropeFrequenciesRef(d, {});
        for (const pairing of ['interleaved', 'half']) {
          const got = lab.rotateWith(x, n, d, frequencies, { pairing });
          assertClose(got, rotateWithRef(x, n, d, plain, { pairing, positionScale: 1 / 3 }), TOL_ROTATE, `PI ${pairing}`);
        }
        const yarn = lab.ropeFrequencies(d, { scaling: 'yarn', trainedLength: 64, evalLength: 512 }).frequencies;
        assertClose(lab.rotateWith(x, n, d, yarn), rotateWithRef(x, n, d, yarn), TOL_ROTATE, 'YaRN rotation');
      });

      it('validates its arguments', () => {
        assert.throws(() => lab.ropeFrequencies(5), /even/);
        assert.throws(() => lab.ropeFrequencies(8, { scaling: 'linear' }), /scaling/);
        assert.throws(() => lab.ropeFrequencies(8, { trainedLength: 0 }), /trainedLength/);
        assert.throws(() => lab.ropeFrequencies(8, { evalLength: NaN }), /evalLength/);
        assert.throws(() => lab.ropeFrequencies(8, { alpha: 40 }), /beta/);
        const x = new Float32Array(8);
        assert.throws(() => lab.rotateWith(x, 2, 4, [1]), /frequencies/);
        assert.throws(() => lab.rotateWith(x, 2, 4, [1, 2]), /frequencies\[1\]/);
        assert.throws(() => lab.rotateWith(x, 2, 4, 'ab'), TypeError);
        assert.deepEqual(lab.rotateWith(x, 2, 4, [1, 0.5]), new Float32Array(8)); // still usable
      });
    });

    describe('xPos', () => {
      it('matches the reference for queries and keys; q_n·k_m depends on n − m only', () => {
        for (const pairing of ['interleaved', 'half']) {
          for (const d of [2, 8, 64]) {
            const n = 60;
            const x = ref.randomMatrix(ref.mulberry32(7 + d), n * d);
            for (const role of ['query', 'key']) {
              assertClose(lab.xpos(x, n, d, { pairing, role, offset: -20 }), xposRef(x, n, d, { pairing, role, offset: -20 }),
                TOL_ROTATE, `xpos ${role} ${pairing} d ${d}`);
            }
          }
        }
        const d = 16;
        const q = ref.randomMatrix(ref.mulberry32(1), d);
        const k = ref.randomMatrix(ref.mulberry32(2), d);
        const dotAt = (nq, nk) => ref.dot(lab.xpos(q, 1, d, { offset: nq }), 0, lab.xpos(k, 1, d, { offset: nk, role: 'key' }), 0, d);
        assert.ok(Math.abs(dotAt(100, 90) - dotAt(400, 390)) <= 1e-5);
      });

      it('reports float32 overflow instead of returning Infinity, and validates', () => {
        const x = new Float32Array(8).fill(1);
        assert.throws(() => lab.xpos(x, 1, 8, { offset: 32768, role: 'key', scaleBase: 1 }), /overflow/);
        assert.throws(() => lab.xpos(x, 1, 8, { role: 'value' }), /role/);
        assert.throws(() => lab.xpos(x, 1, 8, { gamma: 0 }), /gamma/);
        assert.throws(() => lab.xpos(x, 1, 8, { scaleBase: 0.5 }), /scaleBase/);
        assert.equal(lab.xpos(x, 1, 8).length, 8);
      });
    });

    describe('learned-style table', () => {
      it('is seeded, row p independent of n, RMS ≈ 1/√2 (the sinusoidal table\'s)', () => {
        const t = lab.learnedTable(256, 64, { seed: 9 });
        assert.deepEqual(lab.learnedTable(256, 64, { seed: 9 }), t);
        assert.notDeepEqual(lab.learnedTable(256, 64, { seed: 10 }), t);
        assert.deepEqual(lab.learnedTable(3, 64, { seed: 9 }), t.slice(0, 3 * 64));
        const rms = Math.sqrt(t.reduce((a, v) => a + v * v, 0) / t.length);
        assert.ok(Math.abs(rms - Math.SQRT1_2) < 0.02 * Math.SQRT1_2, `rms ${rms}`); // 16384 draws: 1 std ≈ 0.55%
        assert.throws(() => lab.learnedTable(4, 3), /even/);
        assert.throws(() => lab.learnedTable(4, 4, { seed: 1.5 }), /seed/);
      });
    });

    describe('NoPE: no positional signal, the causal mask the only order', () => {
      it('without the mask, permuting the tokens permutes the attention; with it, it does not', () => {
        // Attention on bare word vectors (q = k = v = E, no encoding) is permutation-equivariant:
        // reversing the tokens reverses rows and columns of the weights. With the causal mask the
        // first token attends only to itself, so order changes the picture.
        const n = 5;
        const d = 8;
        const e = ref.randomMatrix(ref.mulberry32(11), n * d);
        const reversed = new Float32Array(n * d);
        for (let p = 0; p < n; p++) reversed.set(e.subarray((n - 1 - p) * d, (n - p) * d), p * d);
        for (const causal of [false, true]) {
          const a = lab.attention(e, e, e, n, d, { causal });
          const b = lab.attention(reversed, reversed, reversed, n, d, { causal });
          assertClose(a.weights, ref.attention(e, e, e, n, d, { causal }).weights, TOL_ATTENTION, `NoPE causal ${causal}`);
          let maxDiff = 0;
          for (let i = 0; i < n; i++) {
            for (let j = 0; j < n; j++) maxDiff = Math.max(maxDiff, Math.abs(a.weights[i * n + j] - b.weights[(n - 1 - i) * n + (n - 1 - j)]));
          }
          if (causal) assert.ok(maxDiff > 0.01, `causal mask should break the symmetry (diff ${maxDiff})`);
          else assert.ok(maxDiff <= TOL_ATTENTION, `no mask: equivariant (diff ${maxDiff})`);
        }
      });
    });
  });
}
