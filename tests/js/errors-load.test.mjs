// PosEnc Lab JS API: load()'s error paths, and large valid calls (memory growth, views re-read
// after it) that must leave the lab working. errors.test.mjs has every function's error paths.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { load, LIMITS } from '../../dist/posenc.mjs';
import { assertUsable, describeValue } from './error-support.mjs';
import * as ref from './reference.mjs';

describe('load', () => {
  async function loadError(arg) {
    try {
      await load(arg);
    } catch (error) {
      return error;
    }
    return undefined;
  }

  it('rejects bad options, naming them, and still loads afterwards', async () => {
    for (const bad of [null, 'simd', 5, true, [], 1n]) {
      const error = await loadError(bad);
      assert.ok(error instanceof TypeError, `load(${describeValue(bad)}): ${error}`);
      assert.match(error.message, /options/);
    }
    for (const bad of ['yes', 1, 0, null, 'false', {}]) {
      const error = await loadError({ simd: bad });
      assert.ok(error instanceof TypeError, `load({ simd: ${describeValue(bad)} }): ${error}`);
      assert.match(error.message, /simd/);
    }
    const error = await loadError({ simd: true, flavour: 'scalar' });
    assert.ok(error instanceof TypeError);
    assert.match(error.message, /flavour/);
    assertUsable(await load());
    assertUsable(await load({ simd: false }));
  });

  describe('on an engine without wasm SIMD', () => {
    const realValidate = WebAssembly.validate;
    before(() => {
      WebAssembly.validate = () => false;
    });
    after(() => {
      WebAssembly.validate = realValidate;
    });

    it('load({ simd: true }) throws a RangeError naming simd; load() falls back to scalar', async () => {
      const error = await loadError({ simd: true });
      assert.ok(error instanceof RangeError, String(error));
      assert.match(error.message, /simd/);
      const lab = await load();
      assert.equal(lab.simd, false);
      assert.equal(lab, await load({ simd: false }));
      assertUsable(lab);
    });
  });
});

describe('large valid calls (memory growth; views re-read after it)', () => {
  it('attention n = 4096, d = 64 (64 MiB of weights) on the SIMD build', async () => {
    await largeAttention(await load({ simd: true }), 4096, 64);
  });

  it('attention n = 2048, d = 64 on the scalar build', async () => {
    await largeAttention(await load({ simd: false }), 2048, 64);
  });

  it('sinusoidal at n·d = maxElements, rotate at n = maxRows, embed and compare after growth', async () => {
    for (const simd of [true, false]) {
      const lab = await load({ simd });
      assertUsable(lab);
      const n = LIMITS.maxRows;
      const d = LIMITS.maxElements / n; // 2048
      const pe = lab.sinusoidal(n, d);
      assert.equal(pe.length, LIMITS.maxElements);
      for (const p of [0, 1, 4095, n - 1]) {
        const row = pe.subarray(p * d, (p + 1) * d);
        // positions up to 8191: the 1e-6 large-position tolerance of api.test.mjs (measured ≤ 1.2e-7)
        assert.ok(ref.maxAbsDiff(row, ref.sinusoidal(1, d, { first: p })) <= 1e-6, `row ${p}`);
      }
      const x = ref.randomMatrix(ref.mulberry32(77), n * 64);
      const rot = lab.rotate(x, n, 64, { offset: -100 });
      for (const p of [0, 5000, n - 1]) {
        const got = rot.subarray(p * 64, (p + 1) * 64);
        const want = ref.rotate(x.subarray(p * 64, (p + 1) * 64), 1, 64, { offset: p - 100 });
        assert.ok(ref.maxAbsDiff(got, want) <= 1e-6, `rotate row ${p}`);
      }
      assertUsable(lab);
      const tokens = lab.tokenize('after the heap grew the views must be re-read');
      const emb = lab.embed(tokens, 64);
      assert.deepEqual(lab.embed(tokens, 64), emb);
      const c = lab.compare(emb, tokens.length, 64);
      assert.equal(c.additive.weights.length, tokens.length ** 2);
      assert.deepEqual(c.rotary.x, emb); // alpha = 1: rotary x is E itself
    }
  });

  it('compare at n = 1024 with 4 heads', async () => {
    const lab = await load({ simd: true });
    const n = 1024;
    const d = 64;
    const e = ref.randomMatrix(ref.mulberry32(78), n * d, -2, 2);
    const c = lab.compare(e, n, d, { heads: 4 });
    for (const scheme of ['additive', 'concatenated', 'rotary']) {
      assert.equal(c[scheme].weights.length, 4 * n * n);
      for (const row of [0, 4 * n - 1]) {
        let sum = 0;
        for (let j = 0; j < n; j++) sum += c[scheme].weights[row * n + j];
        // the contract's attention tolerance
        assert.ok(Math.abs(sum - 1) <= 1e-5, `${scheme} row ${row} sums to ${sum}`);
      }
    }
    assertUsable(lab);
  });
});

async function largeAttention(lab, n, d) {
  assertUsable(lab);
  const rand = ref.mulberry32(n);
  const q = ref.randomMatrix(rand, n * d);
  const k = ref.randomMatrix(rand, n * d);
  const v = ref.randomMatrix(rand, n * d);
  const { weights, output } = lab.attention(q, k, v, n, d, { causal: true });
  assert.equal(weights.length, n * n);
  assert.equal(output.length, n * d);
  const scale = 1 / Math.sqrt(d);
  for (const i of [0, 1, n >> 1, n - 1]) {
    // Reference for row i alone: softmax over j ≤ i of q_i·k_j·scale, then Σ w_j v_j.
    const logits = new Float64Array(n).fill(-Infinity);
    for (let j = 0; j <= i; j++) logits[j] = scale * ref.dot(q, i * d, k, j * d, d);
    const w = ref.softmax(logits);
    const out = new Float64Array(d);
    for (let j = 0; j <= i; j++) for (let c = 0; c < d; c++) out[c] += w[j] * v[j * d + c];
    // contract tolerance for attention
    assert.ok(ref.maxAbsDiff(weights.subarray(i * n, (i + 1) * n), w) <= 1e-5, `weights row ${i}`);
    assert.ok(ref.maxAbsDiff(output.subarray(i * d, (i + 1) * d), out) <= 1e-5, `output row ${i}`);
  }
  assertUsable(lab);
}
