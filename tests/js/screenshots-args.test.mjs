// scripts/screenshots.mjs's arguments: window sizes and browser names parse, and a malformed one is
// refused by name (RangeError naming the option), never dropped or guessed; a --hash waits only for
// what its page shows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { awaitedFor, parseBrowsers, parseSizes } from '../../scripts/screenshots.mjs';

test('--sizes: WIDTHxHEIGHT pairs, comma-separated, in order', () => {
  assert.deepEqual(parseSizes('1280x800,1920x1080, 390x844'),
    [{ width: 1280, height: 800 }, { width: 1920, height: 1080 }, { width: 390, height: 844 }]);
  for (const bad of ['1280', '1280x', 'x800', '1280×800', '12x800', '1280x800x2', '', '1280x800,']) {
    assert.throws(() => parseSizes(bad), (error) => error instanceof RangeError && /^--sizes: /.test(error.message), bad);
  }
});

test('--browser: firefox and chromium, in the order given; anything else is refused', () => {
  assert.deepEqual(parseBrowsers('chromium,firefox'), ['chromium', 'firefox']);
  assert.deepEqual(parseBrowsers('firefox'), ['firefox']);
  for (const bad of ['safari', 'Firefox', 'firefox,', 'toString']) {
    assert.throws(() => parseBrowsers(bad), (error) => error instanceof RangeError && /^--browser: /.test(error.message), bad);
  }
});

test('--hash: the wait asks for trained heads and GloVe only where the link shows them', () => {
  assert.deepEqual(awaitedFor(''), { glove: true, trained: ['additive', 'concatenated', 'rotary'], analyses: true });
  assert.deepEqual(awaitedFor('#h=0'), { glove: true, trained: [], analyses: true });
  assert.deepEqual(awaitedFor('#h=2'), { glove: true, trained: [], analyses: true });
  assert.deepEqual(awaitedFor('#v=synthetic&h=0'), { glove: false, trained: [], analyses: true });
  assert.deepEqual(awaitedFor('#sch=rotary,alibi'), { glove: true, trained: ['rotary'], analyses: true });
});

