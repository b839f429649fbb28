// The map axes' fitted labels (web/figures/token-axes.js, fittedText): a word is measured once per
// pen (context font and room) whichever axis asks, so three lanes' axes share the work, and the
// answer is fitText's for that font and room.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fitText, fittedText } from '../../web/figures/token-axes.js';

// A stand-in 2D context: every character is `advance` px wide; counts measureText calls.
function fakeContext(advance) {
  const g = { calls: 0, measureText(text) { g.calls++; return { width: [...text].length * advance }; } };
  return g;
}

test('a word is measured once per font and room, whichever context asks', () => {
  const font = '11px test-shared';
  const a = fakeContext(6);
  const b = fakeContext(6);
  assert.equal(fittedText(a, font, 'queen', 40), 'queen');
  const measured = a.calls;
  assert.ok(measured > 0);
  // Another axis (another canvas) with the same pen: answered without measuring.
  assert.equal(fittedText(b, font, 'queen', 40), 'queen');
  assert.equal(b.calls, 0);
  // Another room or another font: measured again.
  assert.equal(fittedText(b, font, 'queen', 20), fitText(fakeContext(6), 'queen', 20));
  assert.ok(b.calls > 0);
  const before = b.calls;
  fittedText(b, '10px test-shared', 'queen', 40);
  assert.ok(b.calls > before);
});

test('the remembered answer is fitText\'s: cut with an ellipsis where the word is too long', () => {
  const font = '9px test-cut';
  for (const [word, room] of [['the', 50], ['distant', 30], ['people', 5], ['', 10], ['纵横交错', 30]]) {
    const fresh = fitText(fakeContext(7), word, room);
    assert.equal(fittedText(fakeContext(7), font, word, room), fresh, `${word} in ${room} px`);
    assert.equal(fittedText(fakeContext(7), font, word, room), fresh, `${word} in ${room} px, remembered`);
  }
});

test('pens beyond the bound are forgotten oldest first, and still answer right', () => {
  const g = fakeContext(5);
  const fonts = Array.from({ length: 40 }, (_, i) => `${8 + (i % 4)}px test-bound-${i}`);
  for (const font of fonts) assert.equal(fittedText(g, font, 'market', 100), 'market');
  // The first pens were dropped: asking again measures again (a bounded memory, not a growing one).
  const before = g.calls;
  fittedText(g, fonts[0], 'market', 100);
  assert.ok(g.calls > before);
  // The newest is still remembered.
  const after = g.calls;
  fittedText(g, fonts.at(-1), 'market', 100);
  assert.equal(g.calls, after);
});
