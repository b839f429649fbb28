// Intervals over seeds and paired comparisons for the results store (data/experiments/):
// one module for docs/EXPERIMENTS.md's generator (scripts/experiments.mjs), the page's results
// panel and the Train section's summary, so a sentence says the same thing wherever it appears.
// Pure functions, no DOM; tested in tests/js/intervals.test.mjs.
//
// Shapes: a "run set" is runs[s][u]: seed s (same seeds, same order, in every set compared) by
// held-out unit u (a window of held-out text, or a batch of fresh examples, the same units in
// every set compared); a value is a loss, a perplexity or an accuracy.

// Student's t, two-sided 95% (the 0.975 quantile), for 1 … 30 degrees of freedom.
const T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145,
  2.131, 2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042];

/** t's 0.975 quantile for df ≥ 1 (beyond 30 the normal's 1.96 plus the first correction term). */
export function t975(df) {
  if (!(df >= 1)) throw new RangeError('df must be at least 1');
  return df <= 30 ? T975[Math.floor(df) - 1] : 1.96 + 2.4 / df;
}

const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length;

/**
 * Mean of values (one per seed) with the t-based 95% interval: { mean, low, high, n }; low and
 * high are null for one value (no spread to weigh the mean by).
 */
export function meanInterval(values) {
  const finite = values.filter(Number.isFinite);
  if (!finite.length) return null;
  const m = mean(finite);
  const n = finite.length;
  if (n < 2) return { mean: m, low: null, high: null, n };
  const sd = Math.sqrt(finite.reduce((a, v) => a + (v - m) ** 2, 0) / (n - 1));
  const half = t975(n - 1) * sd / Math.sqrt(n);
  return { mean: m, low: m - half, high: m + half, n };
}

/** A seeded generator of uniform numbers in [0, 1) (mulberry32): the same seed, the same draws. */
export function uniforms(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const BOOTSTRAP = Object.freeze({ resamples: 2000, seed: 24 });

/**
 * The mean of a − b, paired by seed and unit, with a 95% percentile interval from a bootstrap
 * that resamples the seeds and, independently, the units (each replicate draws S seeds and U
 * units with replacement and averages a − b over every drawn pair), so both the spread over
 * training seeds and the spread over held-out text count. a, b: runs[s][u] of equal shapes.
 * → { diff, low, high, seeds, units }. Deterministic for a given options.seed.
 */
export function pairedDifference(a, b, { resamples = BOOTSTRAP.resamples, seed = BOOTSTRAP.seed } = {}) {
  const S = a.length;
  if (!S || S !== b.length) throw new RangeError('a and b must hold the same number of seeds (at least one)');
  const U = a[0].length;
  if (!U || a.some((row) => row.length !== U) || b.some((row) => row.length !== U)) {
    throw new RangeError('every seed must hold the same number of units in a and b');
  }
  const d = a.map((row, s) => row.map((v, u) => v - b[s][u]));
  const draw = uniforms(seed);
  const replicates = new Float64Array(resamples);
  const seeds = new Int32Array(S);
  for (let r = 0; r < resamples; r++) {
    for (let s = 0; s < S; s++) seeds[s] = Math.floor(draw() * S);
    let sum = 0;
    for (let u = 0; u < U; u++) {
      const unit = Math.floor(draw() * U);
      for (let s = 0; s < S; s++) sum += d[seeds[s]][unit];
    }
    replicates[r] = sum / (S * U);
  }
  replicates.sort();
  const at = (q) => replicates[Math.min(resamples - 1, Math.max(0, Math.round(q * (resamples - 1))))];
  return { diff: mean(d.map(mean)), low: at(0.025), high: at(0.975), seeds: S, units: U };
}

/** 'a' or 'b' when the interval excludes zero (the better one by `lowerIsBetter`), else null. */
export function clearWinner({ low, high }, lowerIsBetter = true) {
  if (low > 0) return lowerIsBetter ? 'b' : 'a';
  if (high < 0) return lowerIsBetter ? 'a' : 'b';
  return null;
}

const fmt = (v, digits) => (Math.abs(v) >= 100 ? v.toFixed(0) : Number(v.toPrecision(digits)).toString());

/** "[low, high]" of a difference, signed, to `digits` significant digits. */
export function intervalText({ low, high }, digits = 2) {
  const signed = (v) => `${v > 0 ? '+' : v < 0 ? '−' : ''}${fmt(Math.abs(v), digits)}`;
  return `[${signed(low)}, ${signed(high)}]`;
}

/** "over 5 seeds" / "from one seed". */
export function seedsText(n) {
  return n === 1 ? 'from one seed' : `over ${n} seeds`;
}

/**
 * The sentence for one paired comparison under the rule: a claim only when the 95% interval of
 * a − b excludes zero, else "no clear difference" with the interval; from one seed, no claim. names: [a's, b's]; what:
 * the measure ("held-out loss at 8×"); lowerIsBetter for losses and perplexities.
 */
export function comparisonSentence(result, { names, what, lowerIsBetter = true, digits = 2 }) {
  if (result.seeds < 2) {
    // One training seed: the interval covers the held-out text only, not how another seed would
    // train, so it cannot carry a claim about the schemes.
    const signed = `${result.diff > 0 ? '+' : result.diff < 0 ? '−' : ''}${fmt(Math.abs(result.diff), digits)}`;
    return `${names[0]} − ${names[1]} in ${what}: ${signed} (95% interval over ${result.units} held-out units ` +
      `${intervalText(result, digits)}, from one seed: the spread over training seeds is unmeasured, so no claim).`;
  }
  const winner = clearWinner(result, lowerIsBetter);
  const basis = `95% interval of ${names[0]} − ${names[1]}: ${intervalText(result, digits)}, paired by seed and ` +
    `held-out unit, ${seedsText(result.seeds)} and ${result.units} units`;
  if (!winner) return `${names[0]} and ${names[1]}: no clear difference in ${what} (${basis}).`;
  const [better, worse] = winner === 'a' ? names : [names[1], names[0]];
  return `${better} beat ${worse} on ${what} by ${fmt(Math.abs(result.diff), digits)} (${basis}).`;
}

/**
 * The Train section's comparison of two schemes over seeds (web/train/summary.js): pairs =
 * [[a's value, b's value] per seed], one unit per seed; '' for fewer than two seeds.
 */
export function seedComparison(pairs, names, what, lowerIsBetter) {
  if (pairs.length < 2) return '';
  const result = pairedDifference(pairs.map(([a]) => [a]), pairs.map(([, b]) => [b]));
  return comparisonSentence(result, { names, what, lowerIsBetter }).replace(' and 1 units', '');
}
