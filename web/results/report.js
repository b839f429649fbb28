// The results store's records (data/experiments/<table>.json, written by scripts/experiments.mjs)
// as the page's table, its sentences and the loss-by-position series, without the DOM. The same
// grouping and pairing feed docs/EXPERIMENTS.md (scripts/experiments-docs.mjs), so the page and
// the doc say the same things, under the same rule (web/results/intervals.js).
//
// store: { table, records: [{ task, scheme, variant, seed, metric: 'loss' | 'accuracy',
//          config: { context, … }, heldOut: { "1": …, "8": … }, byWindow: { "1": [per unit] … },
//          byPosition: { "8": [per position] } | null }] }; a multiple missing from heldOut is a
//          length the model cannot run (a learned table past T).
import { comparisonSentence, meanInterval, pairedDifference, seedsText } from './intervals.js';
import { POSITION_BIN, binPositions } from './positions.js';
import { PLAIN, RESULT_MULTIPLES as MULTIPLES, RESULT_SCHEMES } from './records.js';

const VARIANTS = { pi: 'PI', ntk: 'NTK', yarn: 'YaRN' };

/** Records grouped by scheme and variant, seeds ascending; plain runs first, schemes in order. */
export function groupRuns(records) {
  const groups = new Map();
  for (const r of records) {
    const id = `${r.scheme}|${r.variant}`;
    if (!groups.has(id)) groups.set(id, { scheme: r.scheme, variant: r.variant, records: [] });
    groups.get(id).records.push(r);
  }
  const rank = (g) => RESULT_SCHEMES.indexOf(g.scheme) * 10 + (g.variant === PLAIN ? 0 : 1);
  return [...groups.values()].map((g) => ({ ...g, records: g.records.sort((a, b) => a.seed - b.seed) }))
    .sort((a, b) => rank(a) - rank(b) || (a.variant < b.variant ? -1 : 1));
}

/** A group's name: the scheme's label plus its variant ("Rotary + PI", "T5 bias (t5max=128)"). */
export function runLabel(group, labels = {}) {
  const name = labels[group.scheme] ?? group.scheme;
  if (group.variant === PLAIN) return name;
  return VARIANTS[group.variant] ? `${name} + ${VARIANTS[group.variant]}` : `${name} (${group.variant})`;
}

const has = (r, k) => Number.isFinite(r.heldOut?.[k]) && Array.isArray(r.byWindow?.[k]);
// The seeds both groups hold at multiple k (and at 1, when `alsoAt` is 1), ascending.
const commonSeeds = (a, b, k, alsoAt = k) => a.records.filter((r) => has(r, k) && has(r, alsoAt)
  && b.records.some((s) => s.seed === r.seed && has(s, k) && has(s, alsoAt))).map((r) => r.seed);

/** runs[s][u] of `group` at multiple k over the seeds `other` also has there, or null if none. */
export function runSetAt(group, k, other = group) {
  const seeds = commonSeeds(group, other, k);
  return seeds.length ? seeds.map((seed) => group.records.find((r) => r.seed === seed).byWindow[k]) : null;
}

/** runs[s][u] of the change from 1× to 8× (per unit), over the seeds `other` also has. */
export function growthSet(group, other = group) {
  const seeds = commonSeeds(group, other, 8, 1);
  return seeds.length ? seeds.map((seed) => {
    const r = group.records.find((x) => x.seed === seed);
    return r.byWindow[8].map((v, u) => v - r.byWindow[1][u]);
  }) : null;
}

/** Mean [95% interval over seeds] of a group at multiple k, or null. */
export function cellInterval(group, k) {
  return meanInterval(group.records.filter((r) => has(r, k)).map((r) => r.heldOut[k]));
}

const perplexityOf = (store) => store.records[0]?.task === 'words';
const digits = (v) => (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(3));
// "98.8 [96.1, 101.6]": perplexity for words (exp of the loss and of its interval's ends).
function shown(interval, perplexity) {
  const f = perplexity ? Math.exp : (v) => v;
  return interval.low === null ? `${digits(f(interval.mean))} (1 seed)`
    : `${digits(f(interval.mean))} [${digits(f(interval.low))}, ${digits(f(interval.high))}]`;
}

/** Column titles: "T = 32", "2T = 64", … */
export function lengthTitles(T) {
  return MULTIPLES.map((k) => `${k === 1 ? '' : k}T = ${k * T}`);
}

/** { columns, rows }: one row per scheme and variant, cells "mean [95% interval]" or "—". */
export function resultsTable(store, labels) {
  const groups = groupRuns(store.records);
  const T = store.records[0]?.config.context ?? 0;
  const perplexity = perplexityOf(store);
  return {
    columns: ['Scheme', ...lengthTitles(T), 'Seeds'],
    rows: groups.map((g) => [runLabel(g, labels), ...MULTIPLES.map((k) => {
      const c = cellInterval(g, k);
      return c ? shown(c, perplexity) : '—';
    }), String(g.records.length)]),
  };
}

const meanAt = (g, k) => cellInterval(g, k)?.mean;
const growthOf = (g) => {
  const c = meanInterval(g.records.filter((r) => has(r, 1) && has(r, 8)).map((r) => r.heldOut[8] - r.heldOut[1]));
  return c?.mean;
};

// The best two plain groups by `score` (lower first for losses), among groups with a score.
function topTwo(groups, score, lowerIsBetter) {
  return groups.filter((g) => g.variant === PLAIN && Number.isFinite(score(g)))
    .sort((a, b) => (lowerIsBetter ? 1 : -1) * (score(a) - score(b))).slice(0, 2);
}

/**
 * Sentences from the records under the interval rule: who was best at T and whether the
 * runner-up differs clearly; adding against concatenating at T and at 8×; who held up best past T
 * by growth from 1× and by level at 8×, each against the runner-up. Each says its seeds.
 */
export function resultsSentences(store, labels) {
  const groups = groupRuns(store.records);
  if (!groups.length) return [];
  const lowerIsBetter = (store.records[0].metric ?? 'loss') === 'loss';
  const perplexity = perplexityOf(store);
  const measure = perplexity ? 'held-out loss (nats per word)' : `held-out ${store.records[0].metric ?? 'loss'}`;
  const name = (g) => runLabel(g, labels);
  const compare = (a, b, k, what) => {
    const [x, y] = [runSetAt(a, k, b), runSetAt(b, k, a)];
    return x && y ? comparisonSentence(pairedDifference(x, y), { names: [name(a), name(b)], what, lowerIsBetter }) : '';
  };
  const sentences = [];
  const T = store.records[0].config.context;
  const f = perplexity ? Math.exp : (v) => v;
  const [best, second] = topTwo(groups, (g) => meanAt(g, 1), lowerIsBetter);
  if (best) {
    const c = cellInterval(best, 1);
    const interval = c.low === null ? '' : ` [${digits(f(c.low))}, ${digits(f(c.high))}]`;
    sentences.push(`At the training length T = ${T}, ${name(best)} scored best on average ` +
      `(${perplexity ? 'perplexity ' : ''}${digits(f(c.mean))}${interval}, ${seedsText(c.n)}).`);
    if (second) sentences.push(`Against the runner-up: ${compare(best, second, 1, `${measure} at T`)}`);
  }
  const find = (scheme) => groups.find((g) => g.scheme === scheme && g.variant === PLAIN);
  const [add, cat] = [find('additive'), find('concatenated')];
  if (add && cat) {
    sentences.push(`Adding against concatenating at equal width, at T: ${compare(add, cat, 1, `${measure} at T`)}`);
    sentences.push(`At 8T: ${compare(add, cat, 8, `${measure} at 8T`)}`);
  }
  const [steady, steadyNext] = topTwo(groups, growthOf, lowerIsBetter);
  if (steady && steadyNext) {
    const [x, y] = [growthSet(steady, steadyNext), growthSet(steadyNext, steady)];
    sentences.push(`Held up best by growth from T to 8T: ${comparisonSentence(pairedDifference(x, y),
      { names: [name(steady), name(steadyNext)], what: `the change of ${measure} from T to 8T`, lowerIsBetter })}`);
  }
  const [level, levelNext] = topTwo(groups, (g) => meanAt(g, 8), lowerIsBetter);
  if (level && levelNext) sentences.push(`Lowest${lowerIsBetter ? '' : ' error'} at 8T: ${compare(level, levelNext, 8, `${measure} at 8T`)}`);
  const cannot = groups.filter((g) => g.variant === PLAIN && g.records.some((r) => has(r, 1)) && !g.records.some((r) => has(r, 8)));
  if (cannot.length) sentences.push(`${cannot.map(name).join(', ')} cannot run past T.`);
  return sentences;
}

/**
 * The loss-by-position lines: one per plain scheme with byPosition, the mean over its seeds and
 * over each `bin` consecutive positions of the 8× windows (binPositions): [{ scheme, name, x (the
 * bins' first positions), y, seeds }].
 */
export function positionSeries(store, labels, { bin = POSITION_BIN } = {}) {
  return groupRuns(store.records).filter((g) => g.variant === PLAIN && g.records.every((r) => r.byPosition?.[8]))
    .map((g) => ({ scheme: g.scheme, name: runLabel(g, labels), ...binPositions(g.records.map((r) => r.byPosition[8]), bin), seeds: g.records.length }));
}
