// The Train section's pure parts: its settings' round trip through the URL hash beside the
// lanes' keys (web/train/config.js), the workers' share of the CPU, and the sentence computed from
// a run (web/train/summary.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULTS, MIN_SHARE, nextShare, readTrainHash, trainingShare, writeTrainHash } from '../../dist/train/config.js';
import { describeRun } from '../../web/train/summary.js';
import { seedComparison } from '../../web/results/intervals.js';

test('settings round-trip through the hash and leave other keys alone', () => {
  const state = { ...DEFAULTS, task: 'sort', schemes: ['rotary', 't5'], size: 'small', dPos: 8, length: 16, lr: 0.01, seed: 9, steps: 50 };
  const hash = writeTrainHash(state, '#s=hello+world&n=3');
  assert.ok(hash.startsWith('#s=hello+world&n=3&'), hash);
  assert.deepEqual(readTrainHash(hash), state);
  assert.equal(writeTrainHash(DEFAULTS, '#s=x'), '#s=x');
  assert.equal(writeTrainHash(DEFAULTS, ''), '');
});

test('invalid values fall back to the defaults one by one', () => {
  const state = readTrainHash('#t.task=poem&t.schemes=rotary,rotary&t.len=4&t.lr=5&t.seed=-1&t.steps=3&t.dpos=7');
  assert.deepEqual(state, { ...DEFAULTS, steps: 3 });
  assert.deepEqual(readTrainHash('#t.schemes=additive,concatenated,rotary,learned,alibi').schemes, DEFAULTS.schemes);
  // dPos must leave room for word columns.
  assert.equal(readTrainHash('#t.size=tiny&t.dpos=32').dPos, 0);
});

test('the user text is in the link only for the text task and up to the limit', () => {
  assert.match(writeTrainHash({ ...DEFAULTS, task: 'text', text: 'abc abd' }, ''), /t\.text=abc\+abd/);
  assert.doesNotMatch(writeTrainHash({ ...DEFAULTS, task: 'book', text: 'abc' }, ''), /t\.text/);
  assert.doesNotMatch(writeTrainHash({ ...DEFAULTS, task: 'text', text: 'x'.repeat(5000) }, ''), /t\.text/);
});

const run = (scheme, name, losses, heldout, lengths) => ({
  scheme, name, steps: losses.map((_, i) => 10 * (i + 1)), losses, heldout,
  lengths: lengths.map((value, i) => ({ multiple: [1, 2, 4, 8][i], value })),
});

test('the sentence says it rests on one seed, names the fastest learner, level and growth past T, and no verdict on add versus concatenate', () => {
  const runs = [
    run('additive', 'Additive', [3, 2.8, 2.5, 2.4], 2.45, [2.4, 2.9, 3.3, 3.6]),
    run('concatenated', 'Concatenated', [3, 2.6, 2.3, 2.2], 2.25, [2.2, 2.5, 2.7, 2.9]),
    run('rotary', 'Rotary', [2.9, 2.3, 2.1, 2.0], 2.05, [2.0, 2.6, 3.0, 3.1]),
  ];
  const text = describeRun(runs, { metric: 'loss', dPos: 8, d: 32 });
  assert.match(text, /^From this run alone \(one seed per scheme/);
  // The level all reached is Additive's final 2.4: Rotary at step 20, Concatenated at step 30.
  assert.match(text, /Rotary learned fastest: its training loss reached 2\.4 by step 20, Concatenated by step 30\./);
  assert.match(text, /At 8× the training length, the lowest held-out loss was Concatenated's \(Concatenated 2\.2 → 2\.9; Rotary 2 → 3\.1; Additive 2\.4 → 3\.6\)/);
  // Growth from 1×: Concatenated +0.7, Rotary +1.1, Additive +1.2.
  assert.match(text, /By growth from 1×, Concatenated held up best \(\+0\.7\) and Additive worst \(\+1\.2\)/);
  assert.match(text, /held-out loss of 2\.25, adding the sinusoid 2\.45: one seed each, so no interval/);
  assert.doesNotMatch(text, /beat|below/);
  // Accuracy: higher is better; a model without the longest length is named as such.
  const accuracy = describeRun([
    run('rotary', 'Rotary', [2, 1], 1, [1, 0.5, 0.2, 0.1]),
    run('learned', 'Learned table', [2, 1.5], 1.5, [0.9, NaN, NaN, NaN]),
    run('alibi', 'ALiBi', [2, 1.2], 1.2, [0.95, 0.8, 0.6, 0.4]),
  ], { metric: 'accuracy', dPos: 8, d: 32 });
  assert.match(accuracy, /the highest answer accuracy was ALiBi's \(ALiBi 0\.95 → 0\.4; Rotary 1 → 0\.1\)/);
  assert.match(accuracy, /By growth from 1×, ALiBi held up best \(−0\.55\) and Rotary worst \(−0\.9\)\. Learned table cannot be evaluated that long\./);
  assert.doesNotMatch(accuracy, /Concatenating/);
  assert.equal(describeRun([], { metric: 'loss', dPos: 8, d: 32 }), '');
});

test('with several seeds per scheme the sentence uses the interval rule, paired by seed', () => {
  const seeded = (scheme, name, seed, heldout, lengths) => ({ ...run(scheme, name, [3, heldout], heldout, lengths), seed });
  const noisy = [0.3, -0.2, 0.25, -0.3, 0.1];
  const runs = [1, 2, 3, 4, 5].flatMap((seed, i) => [
    seeded('additive', 'Additive', seed, 2.4 + noisy[i], [2.4 + noisy[i], 2.9, 3.3, 3.6 + i * 0.01]),
    seeded('concatenated', 'Concatenated', seed, 2.42 + noisy[i] * 0.9, [2.42, 2.5, 2.7, 2.9 + i * 0.01]),
  ]);
  const text = describeRun(runs, { metric: 'loss', dPos: 8, d: 32, compare: seedComparison });
  assert.match(text, /^Over 5 seeds per scheme/);
  assert.match(text, /Concatenated beat Additive on held-out loss at 8× by 0\.7 \(95% interval/);
  assert.match(text, /Concatenated and Additive: no clear difference in held-out loss at T \(95% interval of Concatenated − Additive: \[/);
});

test('the workers leave a core to the page, then follow the frames', () => {
  assert.equal(trainingShare(2, 3), 1 / 3);   // two cores: three workers share one
  assert.equal(trainingShare(4, 3), 1);       // three free cores for three workers
  assert.equal(trainingShare(8, 4), 1);
  assert.equal(trainingShare(1, 2), 0.5);     // one core: still a full core between them, not zero
  assert.equal(trainingShare(undefined, 3), 1 / 3); // no hardwareConcurrency: assume two cores
  assert.equal(trainingShare(2, 0), 1);
  // Back off by 30% over 2% missed frames, creep back by 5 points on a clean second, hold between.
  assert.equal(nextShare(0.5, 0.03), 0.35);
  assert.equal(nextShare(0.5, 0.02), 0.5);
  assert.equal(nextShare(0.5, 0), 0.55);
  assert.equal(nextShare(0.98, 0), 1);
  assert.equal(nextShare(MIN_SHARE, 1), MIN_SHARE);
  let share = 1;
  for (let second = 0; second < 20; second++) share = nextShare(share, 0.5);
  assert.equal(share, MIN_SHARE, 'a page that keeps missing frames takes the workers to the floor, never to zero');
});
