// Memory: 10,000 full recomputes on the SIMD build must not grow the wasm heap after warm-up.
//
// Each iteration does what a keystroke on the page does, and more: tokenize a 32-token sentence,
// embed it with GloVe, compare() (3 schemes; W = I, every tenth with 2 heads), the analyses (columnSpread, offsetCurves,
// shiftChange, cosineSpread, vocabulary decoding) and two calls that throw. Every 100 iterations a
// vocabulary is created, queried and disposed, and a small PELVEC01 file is loaded, queried and
// disposed (plus a damaged one refused). The heap (lab.heapBytes: wasm memory only grows) must be
// identical after iteration 1,000 and after 10,000: a leak of even one C++ object per iteration
// (a Vocabulary, a WordVectors, a scratch buffer) would grow it by megabytes.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../../dist/posenc.mjs';

const ITERATIONS = 10000;
const WARM_UP = 1000;

// A tiny valid PELVEC01 file (format in data/README.md): `count` words of dimension `dim`.
function pelvec(count, dim) {
  const words = Array.from({ length: count }, (_, i) => `w${i}`);
  const vocab = new TextEncoder().encode(words.join('\n'));
  const padded = Math.ceil(vocab.length / 4) * 4;
  const bytes = new Uint8Array(24 + padded + 4 * count + count * dim + 8);
  const view = new DataView(bytes.buffer);
  bytes.set(new TextEncoder().encode('PELVEC01'), 0);
  view.setUint32(8, count, true);
  view.setUint32(12, dim, true);
  view.setUint32(16, vocab.length, true);
  bytes.set(vocab, 24);
  const scales = 24 + padded;
  for (let i = 0; i < count; i++) view.setFloat32(scales + 4 * i, 0.01 * (1 + (i % 7)), true);
  for (let i = 0; i < count * dim; i++) view.setInt8(scales + 4 * count + i, ((i * 37) % 255) - 127);
  view.setFloat32(bytes.length - 8, 0.5, true);
  view.setFloat32(bytes.length - 4, 3.0, true);
  return bytes;
}

const WORDS = ('the king spoke to the queen in paris and she answered him with a smile , while ' +
  'the dog slept by the fire . tomorrow they will travel to tokyo by train').split(' ');

describe('memory (SIMD build)', () => {
  // Runs first, on the lab's fresh heap. The unit rows (a float per value) are made by the first
  // nearest-word query, not by loadVectors: the page's first views of a set only tokenize and
  // embed. 50,000 × 100 unit rows are 20 MB; the heap grows by at least half that at the query
  // (the heap grows in steps, so some of it may already be free).
  it('a loaded word-vector set makes its unit rows at its first nearest-word query', async () => {
    const lab = await load({ simd: true });
    const [count, dim] = [50000, 100];
    const set = await lab.loadVectors(pelvec(count, dim));
    const loaded = lab.heapBytes;
    const { best } = set.nearest(set.rows().slice(0, dim), 1);
    assert.ok(lab.heapBytes - loaded >= 2 * count * dim, `heap ${loaded} → ${lab.heapBytes} bytes at the first query`);
    assert.equal(best[0], 0);
    const queried = lab.heapBytes;
    set.neighbors('w1', 3);
    set.nearest(set.rows().slice(dim, 2 * dim), 1);
    assert.equal(lab.heapBytes, queried, 'made once');
    set.dispose();
  });

  it(`${ITERATIONS} full recomputes: the wasm heap stops growing after warm-up`, async () => {
    const lab = await load({ simd: true });
    const glove = await lab.loadVectors('glove');
    const small = pelvec(300, 16);
    const damaged = small.slice(0, small.length - 5);
    const d = glove.dim;
    const bigRows = Float32Array.from({ length: 2000 * d }, (_, i) => Math.sin(i * 0.37));
    let heapAtWarmUp = 0;
    let checksum = 0;
    const t0 = performance.now();
    for (let it = 1; it <= ITERATIONS; it++) {
      // A sentence of 32 tokens that changes a little every iteration, like typing.
      const words = WORDS.slice();
      words[it % words.length] = `word${it % 50}`;
      const tokens = glove.tokenize(words.join(' '));
      assert.equal(tokens.length, 32);
      const { vectors } = glove.embed(tokens);
      const heads = it % 10 === 0 ? 2 : 0;
      const result = lab.compare(vectors, 32, d, { heads, alpha: 1 / glove.componentRms, causal: it % 2 === 0 });
      checksum += result.rotary.weights[it % 1024];
      lab.columnSpread(result.additive.x, 32, d);
      lab.offsetCurves(64, 32);
      lab.shiftChange(result.rotary.weights.subarray(0, 8 * 8).map(() => 1 / 8), new Float32Array(10 * 10).fill(0.1), 8, 2);
      lab.cosineSpread(16, { pairs: 20, seed: it });
      // Errors must not leak either.
      assert.throws(() => lab.compare(vectors, 32, d + 1), RangeError);
      assert.throws(() => lab.attention([1, 2], [1, 2], [1, 2], 1, 2, { scale: 1e38 * 1e10 }), RangeError);

      if (it % 100 === 0) {
        // 2,000 rows (800 KB in wasm): a leaked vocabulary would grow the heap by 80 MB.
        bigRows.set(glove.embed(tokens).vectors);
        const vocabulary = lab.vocabulary(bigRows, 2000, d);
        const { best } = vocabulary.nearest(result.additive.x, 32, { truth: Array.from({ length: 32 }, (_, i) => i) });
        checksum += best[3];
        vocabulary.dispose();
        const set = await lab.loadVectors(small);
        checksum += set.neighbors('w7', 5).length;
        set.dispose();
        await assert.rejects(lab.loadVectors(damaged), RangeError);
      }
      if (it === WARM_UP) heapAtWarmUp = lab.heapBytes;
    }
    const heapAtEnd = lab.heapBytes;
    const seconds = (performance.now() - t0) / 1000;
    console.log(`# memory: heap ${heapAtWarmUp} bytes after ${WARM_UP} iterations, ${heapAtEnd} after ` +
      `${ITERATIONS} (${seconds.toFixed(1)} s, checksum ${checksum.toFixed(3)})`);
    assert.ok(Number.isFinite(checksum));
    assert.equal(heapAtEnd, heapAtWarmUp, 'the wasm heap grew after warm-up: something leaks');
  });
});
