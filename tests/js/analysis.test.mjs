// lab.analysis(): one wasm call from text to lanes must give exactly the bits of the calls it
// replaces — tokenize, embed, reduce (the PCA word part), compare and sinusoidal one by one, the
// path the page and the element took before — on both builds, with GloVe and synthetic vectors,
// every scheme, while a sentence is typed, edited and cleared. Tolerance: none (bit-identical).
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { load, SCHEMES } from '../../dist/posenc.mjs';

const TEXT = 'The king sat on the throne, and the queen smiled at the zyzzyvaq king.';
const OPTIONS = { alpha: 2.5, base: 10000, layout: 'half', pairing: 'interleaved', dPos: 24, concat: 'same-width', causal: true };

const bits = (a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
function assertSameBits(got, want, path = 'result') {
  if (ArrayBuffer.isView(want)) {
    assert.ok(ArrayBuffer.isView(got), `${path} is not an array`);
    assert.ok(bits(got).equals(bits(want)), `${path} differs`);
    return;
  }
  if (want && typeof want === 'object') {
    assert.deepEqual(Object.keys(got).sort(), Object.keys(want).sort(), `${path}: keys`);
    for (const key of Object.keys(want)) assertSameBits(got[key], want[key], `${path}.${key}`);
    return;
  }
  assert.deepEqual(got, want, path);
}

// The separate calls, as web/pipeline/vocab.js and web/page/app.js made them before lab.analysis.
function separately(lab, vectors, d, text, options) {
  const tokens = vectors ? vectors.tokenize(text) : lab.tokenize(text);
  const embedded = vectors ? vectors.embed(tokens) : { vectors: lab.embed(tokens, d), unknown: tokens.map(() => false) };
  const n = tokens.length;
  const schemes = options.schemes;
  const concatWords = vectors && schemes.includes('concatenated') ? vectors.reduce(embedded.vectors, n, d) : undefined;
  const result = lab.compare(embedded.vectors, n, d, { ...options, ...(concatWords ? { concatWords } : {}) });
  const table = (width) => lab.sinusoidal(n, width, { base: options.base, layout: options.layout });
  return { tokens, unknown: embedded.unknown, vectors: embedded.vectors, result, pe: result.pe ?? table(d), peConcat: result.peConcat ?? table(options.dPos) };
}

for (const simd of [true, false]) {
  describe(`lab.analysis (${simd ? 'SIMD' : 'scalar'} core)`, () => {
    let lab;
    let glove;
    before(async () => {
      lab = await load({ simd });
      glove = await lab.loadVectors('glove');
    });

    for (const [name, vectors, d] of [['GloVe', () => glove, 100], ['synthetic', () => null, 64]]) {
      it(`gives the separate calls' bits (${name}, every scheme, in groups)`, () => {
        const analysis = lab.analysis(vectors() ?? { synthetic: d });
        for (const schemes of [SCHEMES.slice(0, 4), SCHEMES.slice(4, 8), SCHEMES.slice(8), ['rotary']]) {
          const options = { ...OPTIONS, schemes };
          const got = analysis.update(TEXT, { ...options, peTables: true });
          const want = separately(lab, vectors(), d, TEXT, options);
          assert.equal(got.total, want.tokens.length);
          assertSameBits({ ...got, total: undefined }, { ...want, total: undefined });
        }
        if (name === 'GloVe') assert.equal(analysis.update(TEXT).unknown.filter(Boolean).length, 1, 'zyzzyvaq is unknown');
        analysis.dispose();
      });
    }

    it('keeps the bits while typing, editing and clearing (its cache against a fresh analysis), its arrays on the last ones\' buffers', () => {
      const kept = lab.analysis(glove);
      const options = { ...OPTIONS, schemes: ['additive', 'concatenated', 'rotary', 'nope'], peTables: true };
      const texts = [];
      for (let cut = 1; cut <= 40; cut++) texts.push(TEXT.slice(0, cut));
      texts.push('The queen sat on the throne', '', 'the', 'The queen sat on the throne, and');
      let last = null;
      let lastVectors = null;
      let onLastBuffer = 0;
      for (const text of texts) {
        const got = kept.update(text, { ...options, ...(last ? { reuse: last, reuseVectors: lastVectors } : {}) });
        const fresh = lab.analysis(glove);
        assertSameBits(got, fresh.update(text, options), JSON.stringify(text));
        fresh.dispose();
        // A new token needs more room than the last vectors had, but a buffer with room serves the next ones.
        if (lastVectors && got.vectors.length !== lastVectors.length && got.vectors.buffer === lastVectors.buffer) onLastBuffer++;
        if (got.result) [last, lastVectors] = [got.result, got.vectors];
      }
      assert.ok(onLastBuffer >= 3, `vectors of a new length on the last update's buffer ${onLastBuffer} times`);
      kept.dispose();
    });

    it('with skipRepeat, computes nothing for the last tokens under the last options, and everything otherwise', () => {
      const analysis = lab.analysis(glove);
      const options = { ...OPTIONS, peTables: true, skipRepeat: true };
      const first = analysis.update(TEXT, options);
      assert.deepEqual(analysis.update(`${TEXT}  \n`, options), { repeated: true }, 'spaces and a line break');
      assert.deepEqual(analysis.update(`${TEXT} `, { ...options, reuse: first.result }), { repeated: true }, 'reuse aside');
      // Anything else is computed, and gives a fresh analysis's bits.
      const fresh = (text, o) => { const f = lab.analysis(glove); const got = f.update(text, o); f.dispose(); return got; };
      for (const [why, text, o] of [
        ['another base', TEXT, { ...options, base: 500 }],
        ['the base back', TEXT, options],
        ['another token', `${TEXT} a`, options],
        ['another word', `${TEXT} an`, options],
        ['without skipRepeat', `${TEXT} an `, { ...options, skipRepeat: false }],
        ['another cut', TEXT, { ...options, maxTokens: 5 }],
      ]) {
        const got = analysis.update(text, o);
        assert.equal(got.repeated, undefined, why);
        assertSameBits(got, fresh(text, { ...o, skipRepeat: false }), why);
      }
      assert.throws(() => analysis.update(TEXT, { ...options, maxTokens: 5, dPos: 3 }), { name: 'RangeError', message: /dPos/ });
      assert.deepEqual(analysis.update(`${TEXT} `, { ...options, maxTokens: 5 }), { repeated: true }, 'a refused update changes nothing');
      assert.equal(analysis.update('', options).result, null);
      assert.equal(analysis.update(' ', options).result, null, 'no tokens is never a repeat');
      assert.throws(() => analysis.update(TEXT, { skipRepeat: 1 }), { name: 'TypeError', message: /skipRepeat/ });
      analysis.dispose();
    });

    it('cuts at maxTokens, counts them all, and refuses bad options by name', () => {
      const analysis = lab.analysis(glove);
      const cut = analysis.update(TEXT, { maxTokens: 5 });
      assert.equal(cut.tokens.length, 5);
      assert.equal(cut.total, 16);
      assert.equal(cut.pe, null);
      assert.equal(analysis.update('   ').result, null);
      assert.throws(() => analysis.update(TEXT, { maxTokens: 0 }), { name: 'RangeError', message: /maxTokens/ });
      assert.throws(() => analysis.update(TEXT, { dPos: 3 }), { name: 'RangeError', message: /dPos/ });
      assert.throws(() => analysis.update(TEXT, { bogus: 1 }), { name: 'TypeError', message: /bogus/ });
      assert.throws(() => analysis.update(TEXT, { concatWords: new Float32Array(1) }), { name: 'TypeError', message: /concatWords/ });
      assert.throws(() => analysis.update(TEXT, { peTables: 1 }), { name: 'TypeError', message: /peTables/ });
      assert.throws(() => analysis.update(TEXT, { reuseVectors: [1, 2] }), { name: 'TypeError', message: /reuseVectors/ });
      assert.throws(() => analysis.update(TEXT, { schemes: ['alibi'], alibiHeads: 2, alibiHead: 5 }), { name: 'RangeError', message: /alibiHead/ });
      assert.equal(analysis.update(TEXT).tokens.length, 16, 'usable after errors');
      assert.throws(() => lab.analysis({ synthetic: 7 }), { name: 'RangeError', message: /synthetic/ });
      assert.throws(() => lab.analysis('glove'), { name: 'TypeError', message: /vectors/ });
      analysis.dispose();
      assert.throws(() => analysis.update(TEXT), { name: 'RangeError', message: /disposed/ });
    });
  });
}
