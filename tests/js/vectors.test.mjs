// The word-vector API: loadVectors('glove') and the set it returns, on both builds.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { load } from '../../dist/posenc.mjs';

const FILE = new URL('../../data/glove-6b-100d-20k.i8', import.meta.url);

// Row `index` of the packed file, dequantised here independently of the core's parser.
function dequantisedRow(bytes, index) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = view.getUint32(8, true);
  const dim = view.getUint32(12, true);
  const vocabularyBytes = view.getUint32(16, true);
  const scales = 24 + Math.ceil(vocabularyBytes / 4) * 4;
  const values = scales + 4 * count;
  const scale = view.getFloat32(scales + 4 * index, true);
  return Array.from({ length: dim }, (_, j) => Math.fround(scale * view.getInt8(values + index * dim + j)));
}

for (const simd of [true, false]) {
  describe(`word vectors, ${simd ? 'SIMD' : 'scalar'} build`, () => {
    let lab, glove, bytes;
    before(async () => {
      lab = await load({ simd });
      glove = await lab.loadVectors('glove');
      bytes = new Uint8Array(await readFile(FILE));
    });

    it('GloVe: 20,000 words of 100 dims, loaded once and cached', async () => {
      assert.equal(glove.size, 20000);
      assert.equal(glove.dim, 100);
      assert.equal(await lab.loadVectors('glove'), glove);
      assert.equal(glove.word(0), 'the');
      assert.ok(Math.abs(glove.componentRms - 0.54051685) < 1e-6);
    });

    it('vector(word) is the file row, dequantised exactly (scale × int8 in float32)', () => {
      const words = ['the', 'king', 'queen', 'tokyo', ','];
      for (const word of words) {
        let index = -1;
        for (let i = 0; i < glove.size && index < 0; i++) if (glove.word(i) === word) index = i;
        assert.ok(index >= 0, word);
        assert.deepEqual([...glove.vector(word)], dequantisedRow(bytes, index), word);
      }
    });

    it('has() knows the vocabulary; numbers, clitics and accented words are not in it', () => {
      for (const w of ['king', 'paris', 'well-known', ',', '"']) assert.equal(glove.has(w), true, w);
      for (const w of ['1999', "'s", "n't", 'café', 'co-operate', 'qwxz']) assert.equal(glove.has(w), false, w);
    });

    it('neighbors(word): k results, best first, the word itself excluded', () => {
      const result = glove.neighbors('king', 10);
      assert.equal(result.length, 10);
      assert.ok(result.every((r) => r.word !== 'king'));
      for (let i = 1; i < result.length; i++) assert.ok(result[i - 1].cosine >= result[i].cosine);
      assert.ok(result.some((r) => r.word === 'queen'), JSON.stringify(result));
      assert.equal(glove.neighbors('paris', 1)[0].word, 'france');
    });

    it('neighbours match those of the original float vectors (top 5, as printed by scripts/make-vectors)', () => {
      // Computed by scripts/make-vectors from the package's unquantized vectors over the same
      // 20,000 words; near-ties may swap order after int8 quantization, so sets are compared.
      const original = {
        king: ['prince', 'queen', 'son', 'brother', 'monarch'],
        paris: ['france', 'london', 'brussels', 'french', 'rome'],
        music: ['musical', 'songs', 'dance', 'pop', 'recording'],
        computer: ['computers', 'software', 'technology', 'pc', 'hardware'],
        good: ['better', 'sure', 'really', 'kind', 'very'],
        river: ['rivers', 'creek', 'lake', 'valley', 'danube'],
        january: ['december', 'october', 'february', 'november', 'september'],
        france: ['belgium', 'french', 'britain', 'spain', 'paris'],
      };
      for (const [word, expected] of Object.entries(original)) {
        const got = glove.neighbors(word, 5).map((r) => r.word);
        assert.deepEqual([...got].sort(), [...expected].sort(), word);
      }
    });

    it('neighbors(vector) includes the word itself at cosine 1 (nothing to exclude)', () => {
      const [top] = glove.neighbors(glove.vector('tokyo'), 1);
      assert.equal(top.word, 'tokyo');
      // float32 dot products of unit vectors: within a few ulps of 1.
      assert.ok(Math.abs(top.cosine - 1) < 1e-5, String(top.cosine));
    });

    it('neighbors agree with a brute-force float64 cosine over the whole vocabulary', () => {
      const query = glove.vector('music');
      const scored = [];
      for (let i = 0; i < glove.size; i++) {
        const word = glove.word(i);
        if (word === 'music') continue;
        const v = glove.vector(word);
        let dot = 0, qq = 0, vv = 0;
        for (let j = 0; j < 100; j++) { dot += query[j] * v[j]; qq += query[j] ** 2; vv += v[j] ** 2; }
        scored.push({ word, cosine: dot / Math.sqrt(qq * vv) });
      }
      scored.sort((a, b) => b.cosine - a.cosine);
      const got = glove.neighbors('music', 5);
      assert.deepEqual(got.map((r) => r.word), scored.slice(0, 5).map((r) => r.word));
      // float32 accumulation over 100 terms vs float64: well under 1e-5.
      got.forEach((r, i) => assert.ok(Math.abs(r.cosine - scored[i].cosine) < 1e-5));
    });

    it('embed(tokens): known words use their row, unknown ones a hashed vector scaled like GloVe', () => {
      const { vectors, unknown } = glove.embed(['the', '1999', 'king', "'s"]);
      assert.deepEqual(unknown, [false, true, false, true]);
      assert.deepEqual([...vectors.subarray(0, 100)], [...glove.vector('the')]);
      const hashed = vectors.subarray(100, 200);
      const rms = Math.sqrt(hashed.reduce((a, v) => a + v * v, 0) / 100);
      // 100 N(0, rms²) draws: the sample RMS is within ±30% of componentRms with overwhelming odds.
      assert.ok(Math.abs(rms / glove.componentRms - 1) < 0.3, String(rms));
      assert.deepEqual([...glove.embed(['1999']).vectors], [...hashed], 'deterministic');
    });

    it('tokenize with the vocabulary splits hyphenated words it lacks', () => {
      assert.deepEqual(glove.tokenize('A well-known state-of-the-art e-mail'),
        ['a', 'well-known', 'state', '-', 'of', '-', 'the', '-', 'art', 'e', '-', 'mail']);
      assert.deepEqual(lab.tokenize('state-of-the-art'), ['state-of-the-art']);
    });

    it('errors name the argument and leave the set usable', () => {
      assert.throws(() => glove.vector('qwxz'), (e) => e instanceof RangeError && /qwxz/.test(e.message));
      assert.throws(() => glove.vector(5), TypeError);
      assert.throws(() => glove.neighbors('king', 0), (e) => e instanceof RangeError && /\bk\b/.test(e.message));
      assert.throws(() => glove.neighbors([1, 2, 3], 3), (e) => e instanceof RangeError && /vector/.test(e.message));
      assert.throws(() => glove.embed('king'), TypeError);
      assert.equal(glove.neighbors('king', 1).length, 1);
    });

    it('a damaged file is refused with a message saying what is wrong; the lab stays usable', async () => {
      const cases = [
        [bytes.subarray(0, 10), /truncated/],
        [bytes.subarray(0, bytes.length - 1), /truncated/],
        [Uint8Array.from([...bytes.slice(0, 8).fill(65), ...bytes.subarray(8, 100)]), /magic/],
        [new Uint8Array([...bytes, 0]), /trailing/],
      ];
      const odd = bytes.slice();
      new DataView(odd.buffer).setUint32(12, 99, true);
      cases.push([odd, /dimension/]);
      for (const [damaged, message] of cases) {
        await assert.rejects(lab.loadVectors(damaged), (e) => e instanceof RangeError && message.test(e.message));
      }
      await assert.rejects(lab.loadVectors('word2vec'), TypeError);
      const copy = await lab.loadVectors(bytes);
      assert.equal(copy.size, 20000);
      copy.dispose();
      assert.throws(() => copy.has('king'), RangeError);
      assert.equal(glove.has('king'), true);
    });
  });
}
