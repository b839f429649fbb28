// web/results/intervals.js: the interval rule behind every comparison sentence.
// Property tests on seeded random run sets; tolerances are float64 rounding of means of a few
// hundred numbers (1e-12 relative) unless stated.
import test from 'node:test';
import assert from 'node:assert/strict';
import {
  clearWinner, comparisonSentence, meanInterval, pairedDifference, t975, uniforms,
} from '../../web/results/intervals.js';

// S seeds × U units of N(mean, sd) values (Box–Muller on the seeded generator).
function runSet(S, U, seed, { mean = 2, sd = 0.1 } = {}) {
  const u = uniforms(seed);
  const normal = () => Math.sqrt(-2 * Math.log(1 - u())) * Math.cos(2 * Math.PI * u());
  return Array.from({ length: S }, () => Array.from({ length: U }, () => mean + sd * normal()));
}
const close = (a, b, tol = 1e-12) => assert.ok(Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)), `${a} vs ${b}`);

test('meanInterval: t interval of the mean; one value has none', () => {
  const one = meanInterval([3]);
  assert.deepEqual([one.mean, one.low, one.high, one.n], [3, null, null, 1]);
  // Values 1 … 5: mean 3, sd √2.5, t(4) = 2.776 → half width 2.776·√2.5/√5 = 1.96292…
  const r = meanInterval([1, 2, 3, 4, 5]);
  close(r.mean, 3);
  close(r.high - r.mean, 2.776 * Math.sqrt(2.5) / Math.sqrt(5));
  close(r.mean - r.low, r.high - r.mean);
  assert.equal(meanInterval([NaN, 2]).n, 1);
  assert.equal(meanInterval([]), null);
  assert.equal(t975(4), 2.776);
  assert.ok(t975(100) > 1.96 && t975(100) < t975(30));
  assert.throws(() => t975(0), /df/);
});

test('pairedDifference: deterministic for a seed, antisymmetric, blind to a shared shift', () => {
  const a = runSet(5, 64, 1);
  const b = runSet(5, 64, 2);
  const r = pairedDifference(a, b);
  assert.deepEqual(pairedDifference(a, b), r);
  const swapped = pairedDifference(b, a);
  close(swapped.diff, -r.diff);
  close(swapped.low, -r.high);
  close(swapped.high, -r.low);
  // Adding the same amount to both sides of every pair changes nothing.
  const shift = (set, f) => set.map((row, s) => row.map((v, u) => v + f(s, u)));
  const f = (s, u) => 0.5 * s - 0.01 * u;
  const shifted = pairedDifference(shift(a, f), shift(b, f));
  close(shifted.diff, r.diff, 1e-9);
  close(shifted.low, r.low, 1e-9);
  assert.ok(r.low <= r.diff && r.diff <= r.high);
});

test('pairedDifference: identical sets give exactly zero; a constant gap gives exactly that gap', () => {
  const a = runSet(3, 16, 7);
  assert.deepEqual(pairedDifference(a, a), { diff: 0, low: 0, high: 0, seeds: 3, units: 16 });
  const b = a.map((row) => row.map((v) => v - 0.25));
  const r = pairedDifference(a, b);
  for (const v of [r.diff, r.low, r.high]) close(v, 0.25, 1e-12);
});

test('the rule: a clear gap is claimed, noise is "no clear difference", in both directions', () => {
  const a = runSet(5, 64, 11);
  const noise = runSet(5, 64, 12);
  const worse = a.map((row) => row.map((v) => v + 0.1));
  assert.equal(clearWinner(pairedDifference(a, worse)), 'a');
  assert.equal(clearWinner(pairedDifference(worse, a)), 'b');
  assert.equal(clearWinner(pairedDifference(a, worse), false), 'b');  // higher is better (accuracy)
  const null0 = pairedDifference(a, noise);
  assert.equal(clearWinner(null0), null, `pure noise: ${JSON.stringify(null0)}`);
  const text = comparisonSentence(null0, { names: ['Additive', 'Concatenated'], what: 'held-out loss at T' });
  assert.match(text, /^Additive and Concatenated: no clear difference in held-out loss at T \(95% interval of Additive − Concatenated: \[/);
  assert.match(text, /over 5 seeds and 64 units/);
  const claim = comparisonSentence(pairedDifference(a, worse), { names: ['Rotary', 'ALiBi'], what: 'loss' });
  assert.match(claim, /^Rotary beat ALiBi on loss by 0\.1 /);
  // One seed: the units alone would call it, but no claim is made.
  const one = comparisonSentence(pairedDifference([a[0]], [worse[0]]), { names: ['A', 'B'], what: 'loss' });
  assert.match(one, /^A − B in loss: −0\.1 \(95% interval over 64 held-out units \[−0\.1, −0\.1\], from one seed: .* so no claim\)\.$/);
  assert.doesNotMatch(one, /beat/);
});

test('the seeds count: a gap that one seed shows but the others reverse is not claimed', () => {
  // Seed-level effects of ±0.3 around a mean gap of 0.05, tiny unit noise: the units alone would
  // call it, the seeds do not.
  const a = runSet(5, 64, 21, { sd: 0.001 });
  const seedEffect = [0.35, -0.25, 0.3, -0.3, 0.15];
  const b = a.map((row, s) => row.map((v) => v - seedEffect[s]));
  const r = pairedDifference(a, b);
  close(r.diff, 0.05, 1e-9);
  assert.equal(clearWinner(r), null, JSON.stringify(r));
});

test('pairedDifference refuses unequal shapes, naming the argument', () => {
  assert.throws(() => pairedDifference([[1, 2]], [[1, 2], [3, 4]]), /same number of seeds/);
  assert.throws(() => pairedDifference([[1, 2]], [[1]]), /same number of units/);
});
