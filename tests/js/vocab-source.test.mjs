// web/pipeline/vocab.js's word-vector source for GloVe: concatWords(E, n) projects only the rows that
// differ from its last call and copies the rest, so it must return exactly what the word-vector
// set's reduce(E, n, dim) returns for every sentence, however it changed since the last one. Its
// decoder's identityOf decodes a new text a slice of positions per call (the first token alone),
// with one call's scores; its identity decodes the rows of any x DECODE_CHUNK queries per slice,
// with the scores of one search over every row.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { load } from '../../dist/posenc.mjs';
import { GLOVE_FILE } from '../../dist/assets.mjs';
import { vectorSetSource } from '../../dist/pipeline/vocab.js';
import { DECODE_CHUNK } from '../../dist/pipeline/slices.js';

function sameBits(a, b) {
  return a.length === b.length && Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
}

describe('vocab.js GloVe source', () => {
  let lab;
  let glove;
  let source;
  before(async () => {
    lab = await load();
    glove = await lab.loadVectors('glove');
    source = vectorSetSource(lab, glove);
  });

  it('concatWords equals reduce(E, n, dim) after every kind of edit', () => {
    const words = 'the king and the queen walk along the river to the old market every day'.split(' ');
    const steps = [
      words.slice(0, 1), words.slice(0, 5), words.slice(0, 6),           // typing: one more word
      [...words.slice(0, 5), 'quee'], [...words.slice(0, 5), 'queen'],    // the last word changes
      words.slice(0, 4),                                                  // a word deleted
      ['a', ...words.slice(1, 4)],                                        // the first word changes
      words, words,                                                       // the same sentence twice
      ['zzyzx', ...words],                                                // everything shifts
    ];
    for (const tokens of steps) {
      const { vectors } = glove.embed(tokens);
      const got = source.concatWords(vectors, tokens.length);
      const want = glove.reduce(vectors, tokens.length, glove.dim);
      assert.ok(sameBits(got, want), `“${tokens.join(' ')}”`);
      got.fill(0);  // what a caller does with its array must not reach the next call
    }
  });

  it('identityOf decodes a new text in slices (one token, then 16 positions each), with the scores of one identity call', async () => {
    // 100 tokens: seven slices (1, 16, 32, … 96) then the whole text, the last slice a partial chunk.
    const words = 'the king and the queen walk along the river to the old market every day zzblorf'.split(' ');
    const tokens = Array.from({ length: 100 }, (_, i) => words[(i * 7) % words.length]);
    const { vectors: E } = glove.embed(tokens);
    // A set of its own (loadVectors('glove') would answer with the same one), so no memo of this
    // one's calls reaches the reference.
    const other = await lab.loadVectors(await readFile(new URL(`../../dist/${GLOVE_FILE}`, import.meta.url)));
    for (const additive of [true, false]) {
      const options = { alpha: 1.5, additive, base: 10000, layout: 'interleaved' };
      const run = source.decoder(tokens).identityOf(E, tokens, options);
      let yields = 0;
      let step;
      while (!(step = run.next()).done) yields += 1;
      assert.equal(yields, 7);
      const { best, rank } = other.identity(tokens, E, options);
      const hits = [...rank].filter((r) => r === 1).length;
      const counted = [...rank].filter((r) => r > 0).length;
      assert.equal(step.value.counted, counted);
      assert.equal(step.value.top1, hits / counted);
      assert.equal(step.value.meanRank, [...rank].reduce((a, b) => a + b, 0) / counted);
      assert.deepEqual(step.value.best, [...rank].map((r, p) => (r > 0 ? glove.word(best[p]) : null)));
    }
    other.dispose();
  });

  it('identity decodes x a slice of DECODE_CHUNK known tokens at a time, with the scores of one search', () => {
    // 4·DECODE_CHUNK + 4 tokens, every eighth unknown: the known ones (about 3.5 chunks) fill three
    // whole chunks and part of a fourth, and a chunk's rows are not the text's consecutive ones.
    const words = 'the king and the queen walk along zzblorf'.split(' ');
    const tokens = Array.from({ length: 4 * DECODE_CHUNK + 4 }, (_, i) => words[i % words.length]);
    const { vectors: x } = glove.embed(tokens);
    const d = glove.dim;
    const run = source.decoder(tokens).identity(x, tokens);
    let yields = 0;
    let step;
    while (!(step = run.next()).done) yields += 1;
    const kept = tokens.flatMap((t, p) => (glove.indexOf(t) >= 0 ? [p] : []));
    assert.ok(kept.length > 3 * DECODE_CHUNK && kept.length < 4 * DECODE_CHUNK, `${kept.length} known tokens`);
    assert.equal(yields, 3);
    const q = new Float32Array(kept.length * d);
    kept.forEach((p, i) => q.set(x.subarray(p * d, (p + 1) * d), i * d));
    const { rank, best } = glove.nearest(q, kept.length, { truth: kept.map((p) => glove.indexOf(tokens[p])) });
    assert.equal(step.value.counted, kept.length);
    assert.equal(step.value.skipped, tokens.length - kept.length);
    assert.equal(step.value.top1, [...rank].filter((r) => r === 1).length / kept.length);
    assert.equal(step.value.meanRank, [...rank].reduce((a, b) => a + b, 0) / kept.length);
    const decoded = new Array(tokens.length).fill(null);
    kept.forEach((p, i) => { decoded[p] = glove.word(best[i]); });
    assert.deepEqual(step.value.best, decoded);
  });
});
