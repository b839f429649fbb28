// web/pipeline/model-ids.js' modelTokens: a sentence as a loaded model reads it (the element's
// model-src and the PyTorch twin's show() follow one rule, docs/MODELS.md "Showing a model"), on
// stand-in models with the Model's vocab, unknownId and tokenize.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { modelTokens } from '../../web/pipeline/model-ids.js';

const characterModel = (vocab) => ({ vocab, unknownId: null, tokenize() { throw new Error('a character model has no word tokenizer'); } });

describe('modelTokens', () => {
  it('reads a character model by code point, and gives back the sentence (property, fixed seed)', () => {
    const vocab = [' ', 'a', 'b', 'é', '😀', '\n'];
    const model = characterModel(vocab);
    let seed = 12345;
    const next = () => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed; };
    for (let trial = 0; trial < 200; trial++) {
      const text = Array.from({ length: 1 + (next() % 40) }, () => vocab[next() % vocab.length]).join('');
      const { ids, pieces, unknown } = modelTokens(model, text);
      assert.equal(pieces.join(''), text);
      assert.deepEqual(pieces, [...text], 'one piece per code point (an astral character is one)');
      assert.deepEqual([...ids].map((id) => vocab[id]), pieces);
      assert.ok(unknown.every((u) => u === false));
    }
  });

  it('refuses a character outside the vocabulary, naming it and its position', () => {
    assert.throws(() => modelTokens(characterModel(['a', 'b', ' ']), 'ab z'),
      { name: 'RangeError', message: 'sentence has "z" (character 4), which is not in the model\'s vocabulary of 3 characters' });
  });

  it('reads a task model by whitespace-separated token names', () => {
    const model = { vocab: ['<sep>', '1', '2', '3'], unknownId: null, tokenize: null };
    assert.deepEqual([...modelTokens(model, ' 1 2\t<sep>\n2 1 ').ids], [1, 2, 0, 2, 1]);
    assert.throws(() => modelTokens(model, '1 4'), { name: 'RangeError', message: /sentence has "4" \(token 2\).* of 4 tokens/ });
  });

  it("reads a word model through its own tokenize, marking the unknown words", () => {
    const vocab = ['the', 'cat', '<unk>'];
    const model = { vocab, unknownId: 2, tokenize: (text) => Int32Array.from(text.split(' '), (w) => (vocab.includes(w) ? vocab.indexOf(w) : 2)) };
    const { ids, pieces, unknown } = modelTokens(model, 'the zebra cat');
    assert.deepEqual([...ids], [0, 2, 1]);
    assert.deepEqual(pieces, ['the', '<unk>', 'cat']);
    assert.deepEqual(unknown, [false, true, false]);
  });

  it('refuses what no model can read: no vocabulary, no tokens, a sentence that is not a string', () => {
    assert.throws(() => modelTokens({ vocab: null, unknownId: null }, 'a'), { name: 'RangeError', message: /no vocabulary/ });
    assert.throws(() => modelTokens(characterModel(['a', 'b']), ''), { name: 'RangeError', message: 'sentence has no tokens for this model' });
    assert.throws(() => modelTokens(characterModel(['a', 'b']), 3), { name: 'TypeError', message: 'sentence must be a string' });
  });
});
