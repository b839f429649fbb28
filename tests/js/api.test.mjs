// PosEnc Lab JS API: values against the float64 reference (reference.mjs), on both builds.
//
// Tolerances (each stated where used):
//   2e-5  sinusoidal / rotate at positions up to a few hundred — the contract.
//   1e-6  sinusoidal / rotate at positions up to 8191 (sinusoidal) and 32768 + n (rotate) —
//         src/encodings/phases.hpp claims "a few float ulps for every allowed position"; measured
//         max 1.2e-7 (sinusoidal, p ≤ 8191) and 4.7e-7 (rotate, |p| ≤ 32784) on both builds.
//   1e-5  attention weights and outputs — the contract (measured ≤ 3.1e-6 with scale 1.7).
//   1e-6  SIMD vs scalar — the brief (same kernels, only summation order differs).
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { load, LIMITS, wasmSimdSupported } from '../../dist/posenc.mjs';
import * as ref from './reference.mjs';

const DIMS = [2, 4, 6, 8, 10, 14, 16, 18, 64, 100, 128]; // every SIMD tail: d mod 4, d mod 8
const ROWS = [1, 3, 4, 5, 7, 8, 15, 16, 17, 63, 100];
const LAYOUTS = ['interleaved', 'half'];

// Tolerances, named once so each assertion below says which one it uses and why.
const TOL_SMALL_POS = 2e-5; // contract: sinusoidal / rotate for positions up to a few hundred
const TOL_LARGE_POS = 1e-6; // design: a few float ulps at every allowed position (measured ≤ 4.7e-7)
const TOL_ATTENTION = 1e-5; // contract: attention weights and outputs
const TOL_BUILDS = 1e-6; // brief: SIMD and scalar builds agree within 1e-6

function assertClose(actual, expected, tol, what) {
  assert.ok(actual instanceof Float32Array, `${what}: expected a Float32Array, got ${actual?.constructor?.name}`);
  const err = ref.maxAbsDiff(actual, expected);
  assert.ok(err <= tol, `${what}: max abs error ${err} > ${tol}`);
}

assert.ok(wasmSimdSupported(), 'Node 20 supports wasm SIMD; the SIMD build must be testable here');

for (const simd of [true, false]) {
  describe(`${simd ? 'SIMD' : 'scalar'} build`, () => {
    let lab;
    before(async () => {
      lab = await load({ simd });
    });

    describe('module', () => {
      it('reports a MAJOR.MINOR.PATCH version', () => {
        assert.equal(typeof lab.version, 'string');
        assert.match(lab.version, /^\d+\.\d+\.\d+$/);
      });

      it(`reports simd === ${simd}`, () => {
        assert.equal(lab.simd, simd);
      });

      it('exposes the documented limits', () => {
        assert.equal(lab.limits, LIMITS);
        assert.ok(Object.isFrozen(LIMITS));
        for (const key of ['maxRows', 'maxAttentionRows', 'maxDim', 'maxElements', 'maxCompareTokens', 'maxHeads']) {
          assert.ok(Number.isInteger(LIMITS[key]) && LIMITS[key] > 0, key);
        }
      });

      it('load() is cached: same promise and same lab for the same flavour', async () => {
        const p1 = load({ simd });
        const p2 = load({ simd });
        assert.equal(p1, p2);
        assert.equal(await p1, lab);
        // The default flavour is SIMD where supported (it is, in Node 20).
        if (simd) {
          assert.equal(load(), p1);
          assert.equal(load({}), p1);
          assert.equal(load(undefined), p1);
        }
      });

      it('the two flavours are distinct instances', async () => {
        const other = await load({ simd: !simd });
        assert.notEqual(other, lab);
        assert.equal(other.simd, !simd);
      });
    });

    describe('sinusoidal', () => {
      it('matches the reference for every d × n and both layouts (positions < 100)', () => {
        for (const layout of LAYOUTS) {
          for (const d of DIMS) {
            for (const n of ROWS) {
              const got = lab.sinusoidal(n, d, { layout });
              assert.equal(got.length, n * d);
              assertClose(got, ref.sinusoidal(n, d, { layout }), TOL_SMALL_POS, `sinusoidal(${n}, ${d}, ${layout})`);
            }
          }
        }
      });

      it('matches the reference for positions up to 400 (contract tolerance 2e-5)', () => {
        for (const layout of LAYOUTS) {
          for (const d of DIMS) {
            assertClose(lab.sinusoidal(400, d, { layout }), ref.sinusoidal(400, d, { layout }), TOL_SMALL_POS,
              `sinusoidal(400, ${d}, ${layout})`);
          }
        }
      });

      it('stays within 1e-6 for positions up to 8191 (measured 1.2e-7)', () => {
        for (const layout of LAYOUTS) {
          for (const d of [2, 6, 16, 18, 64]) {
            assertClose(lab.sinusoidal(8192, d, { layout }), ref.sinusoidal(8192, d, { layout }), TOL_LARGE_POS,
              `sinusoidal(8192, ${d}, ${layout})`);
          }
        }
      });

      it('honours base', () => {
        for (const base of [2, 10, 500000, 1e12, 1.0001]) {
          for (const layout of LAYOUTS) {
            assertClose(lab.sinusoidal(300, 18, { base, layout }), ref.sinusoidal(300, 18, { base, layout }), TOL_SMALL_POS,
              `sinusoidal base ${base} ${layout}`);
          }
        }
        // A different base must change the table (guards against base being ignored).
        assert.ok(ref.maxAbsDiff(lab.sinusoidal(50, 8, { base: 10 }), lab.sinusoidal(50, 8)) > 0.1);
      });

      it('layouts are permutations of each other with sin first, cos second', () => {
        const n = 20;
        const d = 14;
        const a = lab.sinusoidal(n, d);
        const b = lab.sinusoidal(n, d, { layout: 'half' });
        for (let p = 0; p < n; p++) {
          for (let i = 0; i < d / 2; i++) {
            assert.equal(a[p * d + 2 * i], b[p * d + i]);
            assert.equal(a[p * d + 2 * i + 1], b[p * d + i + d / 2]);
          }
        }
        // Row 0 is sin 0 = 0, cos 0 = 1 exactly.
        for (let i = 0; i < d / 2; i++) {
          assert.equal(a[2 * i], 0);
          assert.equal(a[2 * i + 1], 1);
        }
      });

      it('explicit defaults equal the implicit ones', () => {
        const implicit = lab.sinusoidal(33, 10);
        assert.deepEqual(lab.sinusoidal(33, 10, {}), implicit);
        assert.deepEqual(lab.sinusoidal(33, 10, undefined), implicit);
        assert.deepEqual(lab.sinusoidal(33, 10, { base: 10000, layout: 'interleaved' }), implicit);
        assert.deepEqual(lab.sinusoidal(33, 10, { base: undefined, layout: undefined }), implicit);
      });
    });

    describe('rotate', () => {
      it('matches the reference for every d × n, both pairings, small offsets', () => {
        const rand = ref.mulberry32(101);
        for (const pairing of LAYOUTS) {
          for (const d of DIMS) {
            for (const n of ROWS) {
              for (const offset of [0, -250, 7, 300]) {
                const x = ref.randomMatrix(rand, n * d);
                const got = lab.rotate(x, n, d, { offset, pairing });
                assert.equal(got.length, n * d);
                assertClose(got, ref.rotate(x, n, d, { offset, pairing }), TOL_SMALL_POS,
                  `rotate(n=${n}, d=${d}, offset=${offset}, ${pairing})`);
              }
            }
          }
        }
      });

      it('stays within 1e-6 at large positions, up to the offset limit (measured 4.7e-7)', () => {
        const rand = ref.mulberry32(102);
        for (const pairing of LAYOUTS) {
          for (const d of DIMS) {
            for (const offset of [8000, -8000, 20000, LIMITS.maxOffset, -LIMITS.maxOffset]) {
              const n = 17;
              const x = ref.randomMatrix(rand, n * d);
              assertClose(lab.rotate(x, n, d, { offset, pairing }), ref.rotate(x, n, d, { offset, pairing }), TOL_LARGE_POS,
                `rotate(d=${d}, offset=${offset}, ${pairing})`);
            }
          }
        }
      });

      it('rows cover positions 0 … 8191 without offset', () => {
        const rand = ref.mulberry32(103);
        const n = LIMITS.maxRows;
        const d = 18;
        const x = ref.randomMatrix(rand, n * d);
        for (const pairing of LAYOUTS) {
          assertClose(lab.rotate(x, n, d, { pairing }), ref.rotate(x, n, d, { pairing }), TOL_LARGE_POS,
            `rotate(n=8192, d=18, ${pairing})`);
        }
      });

      it('honours base', () => {
        const rand = ref.mulberry32(104);
        const x = ref.randomMatrix(rand, 40 * 16);
        for (const base of [2, 10, 1e6, 1e12]) {
          for (const pairing of LAYOUTS) {
            assertClose(lab.rotate(x, 40, 16, { base, pairing, offset: 100 }),
              ref.rotate(x, 40, 16, { base, pairing, offset: 100 }), TOL_SMALL_POS, `rotate base ${base}`);
          }
        }
      });

      it('row p with offset k equals a single row rotated with offset p + k (bit for bit)', () => {
        const rand = ref.mulberry32(105);
        const n = 9;
        const d = 10;
        const x = ref.randomMatrix(rand, n * d);
        for (const pairing of LAYOUTS) {
          for (const offset of [-5, 0, 123]) {
            const all = lab.rotate(x, n, d, { offset, pairing });
            for (let p = 0; p < n; p++) {
              const one = lab.rotate(x.subarray(p * d, (p + 1) * d), 1, d, { offset: p + offset, pairing });
              assert.deepEqual(all.subarray(p * d, (p + 1) * d), one);
            }
          }
        }
      });

      it('offset 0 (position 0) is the identity; pairings differ elsewhere', () => {
        const rand = ref.mulberry32(106);
        const x = ref.randomMatrix(rand, 16);
        assert.deepEqual(lab.rotate(x, 1, 16), x);
        assert.deepEqual(lab.rotate(x, 1, 16, { pairing: 'half' }), x);
        const a = lab.rotate(x, 1, 16, { offset: 3 });
        const b = lab.rotate(x, 1, 16, { offset: 3, pairing: 'half' });
        assert.ok(ref.maxAbsDiff(a, b) > 0.01, 'pairing must change the result');
      });

      it('explicit defaults equal the implicit ones', () => {
        const x = ref.randomMatrix(ref.mulberry32(107), 5 * 6);
        const implicit = lab.rotate(x, 5, 6);
        assert.deepEqual(lab.rotate(x, 5, 6, {}), implicit);
        assert.deepEqual(lab.rotate(x, 5, 6, { base: 10000, offset: 0, pairing: 'interleaved' }), implicit);
      });
    });

    describe('attention', () => {
      it('matches the reference for every d × n, causal or not, default scale', () => {
        const rand = ref.mulberry32(201);
        for (const d of [1, 3, 5, ...DIMS]) { // attention takes any d ≥ 1
          for (const n of ROWS) {
            for (const causal of [false, true]) {
              const q = ref.randomMatrix(rand, n * d);
              const k = ref.randomMatrix(rand, n * d);
              const v = ref.randomMatrix(rand, n * d);
              const got = lab.attention(q, k, v, n, d, { causal });
              const want = ref.attention(q, k, v, n, d, { causal });
              assert.equal(got.weights.length, n * n);
              assert.equal(got.output.length, n * d);
              assertClose(got.weights, want.weights, TOL_ATTENTION, `weights n=${n} d=${d} causal=${causal}`);
              assertClose(got.output, want.output, TOL_ATTENTION, `output n=${n} d=${d} causal=${causal}`);
            }
          }
        }
      });

      it('honours a custom scale (including 0 and negative)', () => {
        const rand = ref.mulberry32(202);
        for (const scale of [1.7, 0.05, -0.5, 0, 1]) {
          for (const d of [4, 18, 64]) {
            for (const n of [5, 17, 63]) {
              for (const causal of [false, true]) {
                const q = ref.randomMatrix(rand, n * d);
                const k = ref.randomMatrix(rand, n * d);
                const v = ref.randomMatrix(rand, n * d);
                const got = lab.attention(q, k, v, n, d, { causal, scale });
                const want = ref.attention(q, k, v, n, d, { causal, scale });
                assertClose(got.weights, want.weights, TOL_ATTENTION, `weights scale=${scale} n=${n} d=${d}`);
                assertClose(got.output, want.output, TOL_ATTENTION, `output scale=${scale} n=${n} d=${d}`);
              }
            }
          }
        }
      });

      it('the default scale is 1/√d', () => {
        const rand = ref.mulberry32(203);
        const n = 12;
        const d = 64;
        const q = ref.randomMatrix(rand, n * d, -3, 3);
        const k = ref.randomMatrix(rand, n * d, -3, 3);
        const v = ref.randomMatrix(rand, n * d);
        const implicit = lab.attention(q, k, v, n, d);
        assert.deepEqual(lab.attention(q, k, v, n, d, { scale: 1 / Math.sqrt(d) }), implicit);
        assert.deepEqual(lab.attention(q, k, v, n, d, { causal: false }), implicit);
        // and differs from scale 1 (the inputs make the logits large enough to matter)
        assert.ok(ref.maxAbsDiff(lab.attention(q, k, v, n, d, { scale: 1 }).weights, implicit.weights) > 1e-3);
      });

      it('handles logits beyond exp()\'s float32 range (max subtraction) within 1e-5', () => {
        const rand = ref.mulberry32(204);
        const n = 16;
        const d = 16;
        const q = ref.randomMatrix(rand, n * d, -5, 5);
        const k = ref.randomMatrix(rand, n * d, -5, 5);
        const v = ref.randomMatrix(rand, n * d);
        const want = ref.attention(q, k, v, n, d, { scale: 1 });
        let maxLogit = 0;
        for (const s of ref.logits(q, k, n, d, { scale: 1 })) maxLogit = Math.max(maxLogit, s);
        assert.ok(maxLogit > 89, `the inputs must give a logit above ln(FLT_MAX) ≈ 88.7 (got ${maxLogit})`);
        const got = lab.attention(q, k, v, n, d, { scale: 1 });
        for (const w of got.weights) assert.ok(Number.isFinite(w));
        // Contract tolerance (measured 1.3e-6 weights, 2.4e-6 output on the scalar build).
        assertClose(got.weights, want.weights, TOL_ATTENTION, 'weights with large logits');
        assertClose(got.output, want.output, TOL_ATTENTION, 'output with large logits');
      });
    });

    describe('attention with overflowing logits', () => {
      it('logits that overflow to +∞ share the weight; no NaN, rows still sum to 1', () => {
        // scale 3e38 is a valid float32, but q·k·scale overflows: ∞ − ∞ must not reach exp().
        const x = [1, 2, 3, 4];
        const { weights, output } = lab.attention(x, x, x, 2, 2, { scale: 3e38 });
        assert.deepEqual([...weights], [0.5, 0.5, 0.5, 0.5]);
        assert.ok(output.every(Number.isFinite));
      });

      it('a row whose logits all overflow to −∞ is uniform', () => {
        const q = [2, 0, 2, 0];  // q·k·3e38 = −6e38 and −1.2e39: both overflow to −∞
        const k = [-1, 0, -2, 0];
        const { weights } = lab.attention(q, k, [1, 1, 1, 1], 2, 2, { scale: 3e38 });
        assert.deepEqual([...weights], [0.5, 0.5, 0.5, 0.5]);
      });
    });

    describe('returned arrays', () => {
      it('are fresh Float32Arrays that later calls do not touch', () => {
        const s1 = lab.sinusoidal(4, 6);
        const copy = s1.slice();
        assert.ok(s1 instanceof Float32Array);
        s1.fill(42);
        assert.deepEqual(lab.sinusoidal(4, 6), copy, 'mutating a result must not affect later calls');
        const s2 = lab.sinusoidal(4, 6);
        assert.notEqual(s2, s1);
        assert.notEqual(s2.buffer, s1.buffer);
        // A later call of another function must not overwrite an earlier result.
        const keep = lab.sinusoidal(4, 6);
        lab.rotate(ref.randomMatrix(ref.mulberry32(1), 24), 4, 6, { offset: 9 });
        lab.attention(new Float32Array(24).fill(3), new Float32Array(24), new Float32Array(24), 4, 6);
        assert.deepEqual(keep, copy);

        const x = ref.randomMatrix(ref.mulberry32(2), 24);
        const r1 = lab.rotate(x, 4, 6, { offset: 5 });
        const r1copy = r1.slice();
        r1.fill(-1);
        assert.deepEqual(lab.rotate(x, 4, 6, { offset: 5 }), r1copy);
        assert.ok(r1copy instanceof Float32Array);

        const a1 = lab.attention(x, x, x, 4, 6);
        assert.ok(a1.weights instanceof Float32Array && a1.output instanceof Float32Array);
        assert.notEqual(a1.weights.buffer, a1.output.buffer);
        const w = a1.weights.slice();
        const o = a1.output.slice();
        a1.weights.fill(9);
        a1.output.fill(9);
        const a2 = lab.attention(x, x, x, 4, 6);
        assert.deepEqual(a2.weights, w);
        assert.deepEqual(a2.output, o);
      });

      it('inputs are not modified', () => {
        const x = ref.randomMatrix(ref.mulberry32(3), 8 * 10);
        const before = x.slice();
        lab.rotate(x, 8, 10, { offset: 77 });
        lab.attention(x, x, x, 8, 10, { causal: true });
        assert.deepEqual(x, before);
      });
    });

    describe('input types', () => {
      it('accept Float32Array, Float64Array and plain arrays alike', () => {
        const n = 7;
        const d = 10;
        const rand = ref.mulberry32(301);
        const x32 = ref.randomMatrix(rand, n * d);
        const k32 = ref.randomMatrix(rand, n * d);
        const v32 = ref.randomMatrix(rand, n * d);
        const forms = [(a) => a, (a) => Float64Array.from(a), (a) => Array.from(a)];
        const rot = lab.rotate(x32, n, d, { offset: 11 });
        const att = lab.attention(x32, k32, v32, n, d, { causal: true });
        for (const form of forms) {
          assert.deepEqual(lab.rotate(form(x32), n, d, { offset: 11 }), rot);
          const a = lab.attention(form(x32), form(k32), form(v32), n, d, { causal: true });
          assert.deepEqual(a.weights, att.weights);
          assert.deepEqual(a.output, att.output);
        }
        // Mixed forms in one call.
        const mixed = lab.attention(Array.from(x32), Float64Array.from(k32), v32, n, d, { causal: true });
        assert.deepEqual(mixed.output, att.output);
      });

      it('float64 values are rounded to float32 like a Float32Array would', () => {
        const values = [0.1, 1 / 3, -2.718281828459045, 1e-30, 12345.678901234];
        const x64 = [...values, 0.7, 0.2, 0.3];
        assert.deepEqual(lab.rotate(x64, 2, 4, { offset: 3 }), lab.rotate(Float32Array.from(x64), 2, 4, { offset: 3 }));
      });

      it('accept other numeric typed arrays (Int16Array) by value', () => {
        const ints = new Int16Array([1, -2, 3, 4, 5, -6, 7, 8]);
        assert.deepEqual(lab.rotate(ints, 2, 4, { offset: 2 }), lab.rotate(Float32Array.from(ints), 2, 4, { offset: 2 }));
      });
    });

    describe('properties', () => {
      it('rotate preserves the norm of each pair', () => {
        const rand = ref.mulberry32(401);
        for (const pairing of LAYOUTS) {
          for (const d of [2, 6, 18, 64]) {
            const n = 50;
            const x = ref.randomMatrix(rand, n * d, -4, 4);
            for (const offset of [0, 333, -9000]) {
              const y = lab.rotate(x, n, d, { offset, pairing });
              for (let p = 0; p < n; p++) {
                for (let i = 0; i < d / 2; i++) {
                  const [a, b] = ref.pairIndices(i, d, pairing);
                  const before = Math.hypot(x[p * d + a], x[p * d + b]);
                  const after = Math.hypot(y[p * d + a], y[p * d + b]);
                  // cos² + sin² of the float kernel is 1 within a few ulps: 1e-6 relative.
                  assert.ok(Math.abs(after - before) <= 1e-6 * Math.max(1, before),
                    `pair ${i} of row ${p} (${pairing}, offset ${offset}): ${before} → ${after}`);
                }
              }
            }
          }
        }
      });

      it('q_m · k_n depends only on m − n', () => {
        const rand = ref.mulberry32(402);
        for (const pairing of LAYOUTS) {
          for (const d of [4, 16, 64, 100]) {
            const q = ref.randomMatrix(rand, d);
            const k = ref.randomMatrix(rand, d);
            const norm = Math.hypot(...q) * Math.hypot(...k);
            for (const distance of [0, 1, 5, 40, -17]) {
              let first;
              for (const shift of [0, 1, 13, 250, -300]) {
                const m = distance + shift;
                const qm = lab.rotate(q, 1, d, { offset: m, pairing });
                const kn = lab.rotate(k, 1, d, { offset: shift, pairing });
                const s = ref.dot(qm, 0, kn, 0, d);
                first ??= s;
                // Each rotated component is within ~2e-7·|pair| of exact: 1e-5·‖q‖‖k‖ bounds the dot.
                assert.ok(Math.abs(s - first) <= 1e-5 * norm,
                  `d=${d} ${pairing} distance ${distance} shift ${shift}: ${s} vs ${first}`);
              }
              // and equals the reference's value for that distance (q rotated by the distance alone)
              const expected = ref.dot(ref.rotate(q, 1, d, { offset: distance, pairing }), 0, k, 0, d);
              assert.ok(Math.abs(first - expected) <= 1e-5 * norm);
            }
          }
        }
      });

      it('attention rows sum to 1 and causal weights are exactly 0 above the diagonal', () => {
        const rand = ref.mulberry32(403);
        for (const d of [3, 8, 18, 64]) {
          for (const n of [1, 5, 17, 100]) {
            for (const causal of [false, true]) {
              const q = ref.randomMatrix(rand, n * d, -2, 2);
              const k = ref.randomMatrix(rand, n * d, -2, 2);
              const { weights } = lab.attention(q, k, q, n, d, { causal });
              for (let i = 0; i < n; i++) {
                let sum = 0;
                for (let j = 0; j < n; j++) {
                  const w = weights[i * n + j];
                  assert.ok(w >= 0 && w <= 1, `weight ${w}`);
                  if (causal && j > i) assert.equal(w, 0, `causal weight [${i}][${j}]`);
                  sum += w;
                }
                // n float32 terms each within an ulp, scaled by a rounded 1/sum: ≤ 1e-5 for n ≤ 100.
                assert.ok(Math.abs(sum - 1) <= 1e-5, `row ${i} sums to ${sum} (n=${n}, d=${d})`);
              }
              if (causal) assert.equal(weights[0], 1, 'row 0 of a causal mask sees only itself');
            }
          }
        }
      });

      it('PE(p) · PE(p+k) depends only on k and equals Σ cos(k·ω_i)', () => {
        for (const layout of LAYOUTS) {
          for (const d of [8, 64, 128]) {
            const n = 600;
            const pe = lab.sinusoidal(n, d, { layout });
            for (const k of [0, 1, 3, 10, 100]) {
              let expected = 0;
              for (let i = 0; i < d / 2; i++) expected += Math.cos(k * ref.omega(i, d));
              for (const p of [0, 1, 7, 90, 250, 499]) {
                const s = ref.dot(pe, p * d, pe, (p + k) * d, d);
                // d components, each within ~1e-7: 1e-5 covers d = 128 with margin.
                assert.ok(Math.abs(s - expected) <= 1e-5, `d=${d} ${layout} k=${k} p=${p}: ${s} vs ${expected}`);
              }
            }
          }
        }
      });
    });
  });
}

describe('SIMD and scalar builds agree within 1e-6', () => {
  let simd;
  let scalar;
  before(async () => {
    simd = await load({ simd: true });
    scalar = await load({ simd: false });
  });

  it('sinusoidal', () => {
    for (const layout of LAYOUTS) {
      for (const d of DIMS) {
        const a = simd.sinusoidal(300, d, { layout });
        assertClose(a, scalar.sinusoidal(300, d, { layout }), TOL_BUILDS, `sinusoidal d=${d} ${layout}`);
      }
    }
  });

  it('rotate', () => {
    const rand = ref.mulberry32(501);
    for (const pairing of LAYOUTS) {
      for (const d of DIMS) {
        for (const n of [1, 5, 17]) {
          const x = ref.randomMatrix(rand, n * d, -3, 3);
          for (const offset of [0, -123, 30000]) {
            assertClose(simd.rotate(x, n, d, { offset, pairing }), scalar.rotate(x, n, d, { offset, pairing }), TOL_BUILDS,
              `rotate d=${d} n=${n} offset=${offset}`);
          }
        }
      }
    }
  });

  it('attention', () => {
    const rand = ref.mulberry32(502);
    for (const d of DIMS) {
      for (const n of ROWS) {
        for (const causal of [false, true]) {
          const q = ref.randomMatrix(rand, n * d);
          const k = ref.randomMatrix(rand, n * d);
          const v = ref.randomMatrix(rand, n * d);
          const a = simd.attention(q, k, v, n, d, { causal });
          const b = scalar.attention(q, k, v, n, d, { causal });
          assertClose(a.weights, b.weights, TOL_BUILDS, `weights n=${n} d=${d}`);
          assertClose(a.output, b.output, TOL_BUILDS, `output n=${n} d=${d}`);
        }
      }
    }
  });
});
