// The Train charts' y ranges (web/train/axis.js): they hold the data, start near it rather than at
// 0, stay put while the data stays inside, and move a bounded number of times over a whole run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fitRange } from '../../web/train/axis.js';
import { uniforms } from '../../web/results/intervals.js';

// A seeded generator (the results' own, mulberry32), so every run of the test sees the same curves.
const random = uniforms;

// A character model's binned training loss: ln 89 ≈ 4.49 at the start, decaying towards `floor`
// with noise of ±noise.
function lossCurve(bins, { floor = 2.3, rate = 0.08, noise = 0.03, seed = 1 } = {}) {
  const next = random(seed);
  return Array.from({ length: bins }, (_, k) => floor + (4.49 - floor) * Math.exp(-rate * k) + noise * (2 * next() - 1));
}

test('the range holds every finite value and starts near the data, not at 0', () => {
  for (const seed of [1, 2, 3]) {
    const curve = lossCurve(60, { seed });
    const range = fitRange([...curve, NaN, Infinity]);
    const lo = Math.min(...curve);
    const hi = Math.max(...curve);
    assert.ok(range.min <= lo && range.max >= hi, JSON.stringify({ range, lo, hi }));
    // Padding of 8% a side, then each end rounded out by less than one step of about ten ticks
    // (a tenth of the padded span or less, times the 2.5 of d3's 1-2-5 steps): at most 1.6 × the span.
    assert.ok(range.max - range.min <= 1.6 * (hi - lo), JSON.stringify({ range, lo, hi }));
    assert.ok(range.min > 1.5, `a loss of ${lo.toFixed(2)} and up gives an axis from ${range.min}`);
  }
});

test('no finite value gives null; equal values still give min < max; floor and ceiling clamp', () => {
  assert.equal(fitRange([]), null);
  assert.equal(fitRange([NaN, undefined, -Infinity]), null);
  for (const v of [0, 3, -2, 1e-6]) {
    const range = fitRange([v, v]);
    assert.ok(range.min <= v && v <= range.max && range.min < range.max, `${v}: ${JSON.stringify(range)}`);
  }
  const accuracy = fitRange([0.97, 1, 1], null, { floor: 0, ceiling: 1 });
  assert.equal(accuracy.max, 1);
  assert.ok(accuracy.min > 0.9 && accuracy.min < 0.97, JSON.stringify(accuracy));
  assert.deepEqual(fitRange([0, 0.02], null, { floor: 0, ceiling: 1 }).min, 0);
});

test('a kept range is returned as is while the data stays inside and fills half of it', () => {
  const first = fitRange([2.5, 4.4]);
  assert.equal(fitRange([2.6, 4.3], first), first);
  assert.equal(fitRange([2.5, 3.9], first), first, 'still more than half full');
  assert.notEqual(fitRange([2.5, 2.9], first), first, 'less than half full: fitted afresh');
  assert.notEqual(fitRange([2.0, 4.4], first), first, 'data below the range: fitted afresh');
});

test('over a whole run the axis moves a few times, then not at all once the loss settles', () => {
  for (const seed of [1, 2, 3]) {
    const curve = lossCurve(400, { seed });
    let range = null;
    const changes = [];
    // A repaint per new bin, as the page does (each paint sees every bin so far).
    for (let bins = 1; bins <= curve.length; bins++) {
      const next = fitRange(curve.slice(0, bins), range);
      if (next !== range) changes.push(bins);
      range = next;
    }
    // The loss falls by 2.2 nats, mostly in the first 60 bins; each refit leaves 8% + 15% of the
    // span and a rounding step of room below, so a handful of refits follow it down (7 to 11 here).
    assert.ok(changes.length <= 15, `seed ${seed}: ${changes.length} changes at bins ${changes.join(', ')}`);
    assert.ok(changes.at(-1) < 100, `seed ${seed}: the last change at bin ${changes.at(-1)}, after the loss settled`);
    // And the settled range still fits: the curve fills at least 70% of it.
    const fill = (Math.max(...curve) - Math.min(...curve)) / (range.max - range.min);
    assert.ok(fill >= 0.7, `seed ${seed}: the curve fills ${fill.toFixed(2)} of ${JSON.stringify(range)}`);
  }
});
