// The generated comparisons between two evaluations or trainings of the same runs
// (scripts/experiments-docs-protocols.mjs), on made-up records whose differences are known:
// sliding − windows per run and length, the 8×/1× ratios, the pairs the protocols rank
// differently, and a float-order control beside its table's own difference from the native one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { floatOrderComparison, slidingComparison } from '../../scripts/experiments-docs-protocols.mjs';
import { TABLES } from '../../scripts/experiment-tables.mjs';
import { groupRuns } from '../../web/results/report.js';

const UNITS = 4;
const label = (g) => (g.variant === 'none' ? g.scheme : `${g.scheme} + ${g.variant}`);
// A record whose window u at multiple k holds loss(k, u); heldOut is their mean.
function record(scheme, seed, loss, variant = 'none') {
  const byWindow = {}; const heldOut = {};
  for (const k of [1, 2, 4, 8]) {
    byWindow[k] = Array.from({ length: UNITS }, (_, u) => loss(k, u));
    heldOut[k] = byWindow[k].reduce((a, b) => a + b, 0) / UNITS;
  }
  return { task: 'book', scheme, variant, seed, metric: 'loss', config: { context: 64 }, heldOut, byWindow, byPosition: null };
}

test('sliding − windows: paired per run and length, the ratios from the same seeds, and the pairs ranked differently', () => {
  const seeds = [1, 2, 3];
  // Windows: rotary below alibi at 1×; sliding lowers rotary by 0.1 and alibi by 0.3 at 1×, so
  // alibi goes below rotary there, and raises rotary at 2× by 0.5. The 8× losses are the same.
  const windowsLoss = { rotary: (k, u) => 1.4 + 0.1 * k + 0.01 * u, alibi: (k, u) => 1.6 + 0.001 * u };
  const shift = { rotary: { 1: -0.1, 2: 0.5, 4: 0, 8: 0 }, alibi: { 1: -0.3, 2: 0, 4: 0, 8: 0 } };
  const windows = seeds.flatMap((s) => ['rotary', 'alibi'].map((scheme) => record(scheme, s, (k, u) => windowsLoss[scheme](k, u) + 0.001 * s)));
  // A windows seed the sliding table lacks: left out of every windows number.
  windows.push(record('rotary', 4, () => 9));
  const sliding = seeds.flatMap((s) => ['rotary', 'alibi'].map((scheme) =>
    record(scheme, s, (k, u) => windowsLoss[scheme](k, u) + 0.001 * s + shift[scheme][k])));
  const text = slidingComparison(groupRuns(sliding), { 'book-large-torch': { records: windows } },
    { metric: 'loss', sliding: { stride: 16, windows: 'book-large-torch' } }, label);
  assert.match(text, /\| rotary \| 3 \| −0\.100 \[−0\.1, −0\.1\] \| \+0\.500 \[\+0\.5, \+0\.5\] \| \+0\.000 /);
  assert.match(text, /\| alibi \| 3 \| −0\.300 \[−0\.3, −0\.3\] \| \+0\.000 /);
  // The ratio exp(8× − 1×) rises by the 1× drop: ln ratio +0.1 for rotary, +0.3 for alibi.
  assert.match(text, /\| rotary \| 3 \| [\d.]+ \(?[^|]*\| [\d.]+ [^|]*\| \+0\.100 \[\+0\.1, \+0\.1\] \|/);
  assert.match(text, /\| alibi \| 3 \| [^|]+\| [^|]+\| \+0\.300 \[\+0\.3, \+0\.3\] \|/);
  assert.doesNotMatch(text, /9\.\d/);
  assert.match(text, /- 1× \(seeds 1, 2, 3\), windows: rotary < alibi; sliding: alibi < rotary\./);
  // The swapped pair, compared under each protocol (intervals exclude 0: a claim each way).
  assert.match(text, / {2}- windows: rotary beat alibi on held-out loss at 1×/);
  assert.match(text, / {2}- sliding: alibi beat rotary on held-out loss at 1× by 0.11 \(95% interval of rotary − alibi: \[\+0.1, \+0.12\], paired by seed and held-out unit, over 3 seeds and 4 units\)/);
  assert.match(text, /- 2× \(seeds 1, 2, 3\), windows: alibi < rotary; sliding: alibi < rotary\.\n- 4×/);
});

test('float-order control: its difference from the two-rank runs beside theirs from the native ones, seed by seed', () => {
  const t = TABLES['book-large-torch-1rank'];
  const at = (base) => (s) => (k, u) => base + 0.01 * s * (k === 8) + 0.0001 * u;
  const stores = {
    'book-large-torch': { records: [1, 2, 3].map((s) => record('rotary', s, at(2)(s), 'ntk')) },
    'book-large': { records: [1, 2, 3].map((s) => record('rotary', s, at(1.9)(s), 'ntk')) },
  };
  const own = groupRuns([1, 2].map((s) => record('rotary', s, (k, u) => at(2)(s)(k, u) + (s === 1 ? 0.05 : -0.02), 'ntk')));
  const text = floatOrderComparison(own, stores, t, 'book-large-torch-1rank', label);
  // 1 rank − 2 ranks over seeds 1 and 2: +0.05 and −0.02; 2 ranks − native over all 3: +0.1 each;
  // 1 rank − native over seeds 1 and 2: +0.15 and +0.08.
  assert.match(text, /\| rotary \+ ntk \| 2 \| \+0\.015 [^|]+\| \+0\.015 [^|]+\| \+0\.050, −0\.020 \| 3 \| \+0\.100 [^|]+\| \+0\.100, \+0\.100, \+0\.100 \| \+0\.115 [^|]+\| \+0\.150, \+0\.080 \|/);
  assert.match(text, /The largest difference of one seed at 8×: \+0\.050 \(rotary \+ ntk\) between the two float orders, \+0\.100 \(rotary \+ ntk\) between book-large-torch and book-large\./);
});

test('float-order control with engineOf: the other engine is that table, not the reference\'s twin; none is refused', () => {
  const t = TABLES['book-large-1thread'];
  const at = (base) => (s) => (k, u) => base + 0.01 * s * (k === 8) + 0.0001 * u;
  const stores = {
    'book-large': { records: [1, 2].map((s) => record('rotary', s, at(2)(s))) },
    'book-large-torch-1rank': { records: [1, 2].map((s) => record('rotary', s, at(2.2)(s))) },
  };
  const own = groupRuns([1, 2].map((s) => record('rotary', s, (k, u) => at(2)(s)(k, u) + 0.03)));
  const text = floatOrderComparison(own, stores, t, 'book-large-1thread', label);
  // one thread − two: +0.03 each seed; two threads − twin at one rank: −0.2; one thread − twin: −0.17.
  assert.match(text, /\| rotary \| 2 \| \+0\.030 [^|]+\| \+0\.030 [^|]+\| \+0\.030, \+0\.030 \| 2 \| −0\.200 [^|]+\| −0\.200, −0\.200 \| −0\.170 [^|]+\| −0\.170, −0\.170 \|/);
  assert.match(text, /between book-large and book-large-torch-1rank\./);
  assert.throws(() => floatOrderComparison(own, stores, { ...t, engineOf: undefined }, 'book-large-1thread', label), /book-large-1thread: a float-order control needs engineOf/);
});

test('the order under each protocol is taken over the seeds every scheme holds', () => {
  // rotary's seed 2 is far worse than its seed 1; t5 has seed 1 only: the order is seed 1's.
  const loss = { rotary: (s) => (s === 1 ? 1.0 : 5.0), t5: () => 2.0 };
  const records = [record('rotary', 1, () => loss.rotary(1)), record('rotary', 2, () => loss.rotary(2)), record('t5', 1, () => loss.t5())];
  const text = slidingComparison(groupRuns(records), { 'book-large-torch': { records } },
    { metric: 'loss', sliding: { stride: 16, windows: 'book-large-torch' } }, label);
  assert.match(text, /- 1× \(seed 1\), windows: rotary < t5; sliding: rotary < t5\./);
});
