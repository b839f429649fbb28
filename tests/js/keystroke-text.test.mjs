// The keystroke benches' text (bench/keystroke-text.mjs): the tokens its typed keys add, as the
// lab's tokenizer counts them, and where a row must start so that its keys stay within the page's cut.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../../dist/posenc.mjs';
import { MAX_TOKENS } from '../../dist/pipeline/state.js';
import { TYPED, sentence, startingTokens, tokensTyped } from '../../bench/keystroke-text.mjs';

test('tokensTyped counts the tokens the first k typed keys add, as the lab tokenizes the text', async () => {
  const lab = await load();
  const start = sentence(10);
  let typed = '';
  for (let k = 0; k <= 2 * TYPED.length + 3; k++) {
    assert.equal(lab.tokenize(start + typed).length - 10, tokensTyped(k), `after ${k} keys: ${JSON.stringify(typed)}`);
    typed += TYPED[k % TYPED.length];
  }
});

test('startingTokens keeps a row\'s keys within the page\'s cut, and the last new token at n', () => {
  assert.equal(startingTokens(64, 30), 64);
  assert.equal(startingTokens(MAX_TOKENS, 30), MAX_TOKENS - tokensTyped(30));
  assert.equal(startingTokens(MAX_TOKENS, 30) + tokensTyped(30), MAX_TOKENS);
  assert.equal(startingTokens(MAX_TOKENS - 2, 30), MAX_TOKENS - tokensTyped(30));
});
