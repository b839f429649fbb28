// The Train charts' y ranges: fitted to the data (not from 0: losses differ by tenths of a nat
// around 2–3) and held still while the data moves a little, so a chart repainted four times a
// second does not jitter. Pure (no DOM), so tests/js can check it.
import { tickStep } from 'd3-array';

const PAD = 0.08;  // room above and below the data, as a fraction of its span
const LEAD = 0.15; // extra room on the side the data left the kept range from
const FILL = 0.5;  // a kept range must stay at least this full, or it is fitted afresh
const ENDS = 10;   // the range's ends are multiples of the tick step for about this many ticks

/**
 * values: numbers (non-finite ones are ignored); previous: the last range returned, or null.
 * → { min, max } holding every finite value, min < max; `previous` itself while it still holds
 * them all and they span at least FILL of it; null when there is no finite value. A fresh range is
 * the data's span padded by PAD on each side (PAD + LEAD on a side the data crossed), its ends
 * rounded out to a fine tick step, clamped to
 * [floor, ceiling] (e.g. [0, 1] for an accuracy) where given.
 */
export function fitRange(values, previous = null, { floor = -Infinity, ceiling = Infinity } = {}) {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of values) {
    if (!Number.isFinite(v)) continue;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  if (lo > hi) return null;
  if (previous && lo >= previous.min && hi <= previous.max && hi - lo >= FILL * (previous.max - previous.min)) return previous;
  // One value (or several equal): a span of a tenth of its size, or 1 around zero.
  const span = hi > lo ? hi - lo : Math.abs(lo) * 0.1 || 1;
  // Data that left the kept range on one side (a falling loss) is likely to go on: more room there.
  const below = previous && lo < previous.min ? LEAD : 0;
  const above = previous && hi > previous.max ? LEAD : 0;
  const padded = [lo - (PAD + below) * span, hi + (PAD + above) * span];
  const step = tickStep(padded[0], padded[1], ENDS);
  const min = Math.max(floor, Math.floor(padded[0] / step) * step);
  const max = Math.min(ceiling, Math.ceil(padded[1] / step) * step);
  // Rounding to the step can leave float dust (2.2000000000000002); the ticks are read from these.
  const clean = (v) => Number(v.toPrecision(12));
  return max > min ? { min: clean(min), max: clean(max) } : { min: clean(min), max: clean(min + step) };
}
