// web/pipeline/vocab.js's word-vector source for GloVe: concatWords(E, n) projects only the rows that
// differ from its last call and copies the rest, so it must return exactly what the word-vector
// set's reduce(E, n, dim) returns for every sentence, however it changed since the last one.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../../dist/posenc.mjs';
import { vectorSetSource } from '../../dist/pipeline/vocab.js';

function sameBits(a, b) {
  return a.length === b.length && Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
}

describe('vocab.js GloVe source', () => {
  let glove;
  let source;
  before(async () => {
    const lab = await load();
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
});
