// docs/EXPERIMENTS.md's generated comparisons between two evaluations or two trainings of the same
// runs (scripts/experiments-docs.mjs calls them for a table that sets the option):
//   t.sliding      the same models under the sliding-window protocol against the windows protocol
//                  (t.sliding.windows names that table): paired by seed and held-out window;
//   t.floatOrderOf the same seeds trained with sums in another float order (another rank or
//                  thread count) against that table, beside that table's difference from another
//                  engine's (t.engineOf, else its `twin`).
// Every interval is the bootstrap of web/results/intervals.js over seeds and held-out windows; a
// sentence claims a difference only where its interval excludes 0, and says its seed count.
import { comparisonSentence, intervalText, meanInterval, pairedDifference } from '../web/results/intervals.js';
import { groupRuns, growthSet, runSetAt } from '../web/results/report.js';
import { MULTIPLES, PLAIN, TABLES } from './experiment-tables.mjs';

const fixed = (v, digits) => (v === null || !Number.isFinite(v) ? '—' : v.toFixed(digits));
const signed = (v, digits = 3) => `${v >= 0 ? '+' : '−'}${fixed(Math.abs(v), digits)}`;
const diffText = (c) => (c ? `${signed(c.diff)} ${intervalText(c, 2)}` : '—');
const same = (a) => (g) => g.scheme === a.scheme && g.variant === a.variant;

/** a − b at multiple k, paired by the seeds both hold and by held-out unit, or null. */
function pairedAt(a, b, k) {
  const [x, y] = a && b ? [runSetAt(a, k, b), runSetAt(b, k, a)] : [null, null];
  return x && y ? pairedDifference(x, y) : null;
}

// The 8×/1× perplexity ratio, exp(mean change of loss) [exp of the t-interval's ends over seeds].
function ratioText(group) {
  const r = meanInterval(group.records.filter((x) => Number.isFinite(x.heldOut[8])).map((x) => x.heldOut[8] - x.heldOut[1]));
  if (!r) return '—';
  return r.low === null ? `${fixed(Math.exp(r.mean), 2)} (1 seed)` : `${fixed(Math.exp(r.mean), 2)} [${fixed(Math.exp(r.low), 2)}, ${fixed(Math.exp(r.high), 2)}]`;
}

// The plain schemes with a value at k, by mean held-out loss over `seeds` (lowest first).
function order(groups, k, seeds) {
  const at = (g) => g.records.filter((r) => seeds.includes(r.seed));
  const mean = (g) => at(g).reduce((a, r) => a + r.heldOut[k], 0) / at(g).length;
  return plainAt(groups, k).sort((a, b) => mean(a) - mean(b));
}
const plainAt = (groups, k) => groups.filter((g) => g.variant === PLAIN && g.records.every((r) => Number.isFinite(r.heldOut[k])));
// The seeds every plain scheme with a value at k holds: an order over other seeds would set one
// scheme's mean over three seeds against another's over one.
function sharedSeeds(groups, k) {
  const sets = plainAt(groups, k).map((g) => g.records.map((r) => r.seed));
  return sets.length ? sets[0].filter((s) => sets.every((set) => set.includes(s))) : [];
}

// Pairs of plain schemes ranked one way under one protocol and the other way under the other.
function swapped(a, b) {
  const ib = new Map(b.map((g, i) => [`${g.scheme}|${g.variant}`, i]));
  const out = [];
  for (let i = 0; i < a.length; i++) {
    for (let j = i + 1; j < a.length; j++) {
      const [x, y] = [a[i], a[j]].map((g) => `${g.scheme}|${g.variant}`);
      if (ib.has(x) && ib.has(y) && ib.get(x) > ib.get(y)) out.push([a[i], a[j]]);
    }
  }
  return out;
}

/** The sliding table's section tail: sliding − windows per run and length, the ratios, the order. */
export function slidingComparison(own, stores, t, runLabel) {
  // The windows records of the same models only: the runs and seeds this table holds.
  const windows = groupRuns(stores[t.sliding.windows]?.records ?? []).map((w) => {
    const g = own.find(same(w));
    return g ? { ...w, records: w.records.filter((r) => g.records.some((x) => x.seed === r.seed)) } : null;
  }).filter((w) => w?.records.length);
  const lowerIsBetter = t.metric === 'loss';
  const shorter = MULTIPLES.filter((k) => k < 8);
  const rows = [];
  for (const g of own) {
    const w = windows.find(same(g));
    const cells = shorter.map((k) => pairedAt(g, w, k));
    if (cells.every((c) => !c)) continue;
    rows.push(`| ${runLabel(g)} | ${Math.max(...cells.map((c) => c?.seeds ?? 0))} | ${cells.map(diffText).join(' | ')} |`);
  }
  if (!rows.length) return `No run is evaluated under both protocols yet (${t.sliding.windows}).`;
  const out = [`Sliding − windows, the same model on the same targets (paired by seed and held-out window; at 8× the ` +
    `two protocols are one row of 8T and agree exactly):`, '',
  `| sliding − windows | seeds | ${shorter.map((k) => `held-out ${t.metric} at ${k}× [95% interval]`).join(' | ')} |`,
  `|---|---:|${shorter.map(() => '---:').join('|')}|`, ...rows, ''];

  const ratioRows = own.filter((g) => g.records.every((r) => Number.isFinite(r.heldOut[8]))).map((g) => {
    const w = windows.find(same(g));
    const [x, y] = w ? [growthSet(g, w), growthSet(w, g)] : [null, null];
    const change = x && y ? pairedDifference(x, y) : null;
    return `| ${runLabel(g)} | ${g.records.length} | ${w ? ratioText(w) : '—'} | ${ratioText(g)} | ${diffText(change)} |`;
  });
  out.push(`The 8×/1× perplexity ratio, exp(loss at 8× − loss at 1×) [exp of the 95% t-interval over seeds], under each ` +
    `protocol, and the change of its logarithm, sliding − windows (paired by seed and window):`, '',
  '| 8×/1× perplexity | seeds | windows | sliding | change of ln ratio [95% interval] |', '|---|---:|---:|---:|---:|', ...ratioRows, '');

  out.push('The order of the plain schemes by mean held-out loss (lowest first) under each protocol, over the seeds ' +
    'all of them hold, and every pair the two protocols rank differently, compared under each over the seeds both hold:', '');
  for (const k of shorter) {
    const seeds = sharedSeeds(own, k);
    const [a, b] = [order(windows, k, seeds), order(own, k, seeds)];
    const names = (list) => list.map(runLabel).join(' < ');
    const over = seeds.length === 1 ? `seed ${seeds[0]}` : `seeds ${seeds.join(', ')}`;
    out.push(`- ${k}× (${over}), windows: ${names(a)}; sliding: ${names(b)}.`);
    for (const [x, y] of swapped(a, b)) {
      const [xs, ys] = [own.find(same(x)), own.find(same(y))];
      const under = (p, q, protocol) => {
        const c = pairedAt(p, q, k);
        return c ? `${protocol}: ${comparisonSentence(c, { names: [runLabel(p), runLabel(q)], what: `held-out ${t.metric} at ${k}×`, lowerIsBetter, digits: 2 })}` : null;
      };
      for (const s of [under(x, y, 'windows'), under(xs, ys, 'sliding')]) if (s) out.push(`  - ${s}`);
    }
  }
  return out.join('\n');
}

// a − b of the mean held-out value at k, seed by seed (the seeds both hold).
function seedDifferences(a, b, k) {
  if (!a || !b) return [];
  return a.records.map((r) => [r, b.records.find((s) => s.seed === r.seed)])
    .filter(([r, s]) => s && Number.isFinite(r.heldOut[k]) && Number.isFinite(s.heldOut[k]))
    .map(([r, s]) => r.heldOut[k] - s.heldOut[k]);
}
// "+0.031, −0.004, +0.052"
const perSeedText = (values) => (values.length ? values.map((v) => signed(v)).join(', ') : '—');

/**
 * A float-order control's section tail: this table's runs against the same seeds of
 * t.floatOrderOf (same model, sums in another order), beside that table's runs against another
 * engine's (t.engineOf, else its twin) and this table's against those, at 1× and 8×, with the per-seed
 * differences the intervals rest on, and the largest of those at 8× each way.
 */
export function floatOrderComparison(own, stores, t, name, runLabel) {
  const reference = t.floatOrderOf;
  const original = t.engineOf ?? TABLES[reference].twin;
  if (!original) throw new Error(`${name}: a float-order control needs engineOf, or a floatOrderOf table (${reference}) with a twin`);
  const ref = groupRuns(stores[reference]?.records ?? []);
  const orig = groupRuns(stores[original]?.records ?? []);
  const rows = [];
  const largest = { order: null, engine: null };
  const keep = (which, values, g) => {
    for (const v of values) if (!largest[which] || Math.abs(v) > Math.abs(largest[which].v)) largest[which] = { v, g };
  };
  for (const g of own) {
    const [r, o] = [ref.find(same(g)), orig.find(same(g))];
    const cells = [pairedAt(g, r, 1), pairedAt(g, r, 8), pairedAt(r, o, 8), pairedAt(g, o, 8)];
    if (cells.every((c) => !c)) continue;
    const [order, engine, both] = [seedDifferences(g, r, 8), seedDifferences(r, o, 8), seedDifferences(g, o, 8)];
    keep('order', order, g);
    keep('engine', engine, g);
    const seeds = (c) => c?.seeds ?? 0;
    rows.push(`| ${runLabel(g)} | ${Math.max(seeds(cells[0]), seeds(cells[1]))} | ${diffText(cells[0])} | ${diffText(cells[1])} | ` +
      `${perSeedText(order)} | ${seeds(cells[2])} | ${diffText(cells[2])} | ${perSeedText(engine)} | ${diffText(cells[3])} | ${perSeedText(both)} |`);
  }
  if (!rows.length) return `No run shares a seed with the ${reference} table yet.`;
  const most = (x) => (x ? `${signed(x.v)} (${runLabel(x.g)})` : '—');
  return [`${name} − ${reference} (another float order, the same model otherwise) beside ${reference} − ${original} ` +
    `and ${name} − ${original} (another engine), held-out ${t.metric}, paired by seed and held-out window, with each ` +
    `seed's difference at 8×:`, '',
  `| run | seeds | ${name} − ${reference} at 1× | at 8× | per seed at 8× | seeds | ${reference} − ${original} at 8× | per seed | ${name} − ${original} at 8× | per seed |`,
  '|---|---:|---:|---:|---|---:|---:|---|---:|---|', ...rows, '',
  `The largest difference of one seed at 8×: ${most(largest.order)} between the two float orders, ` +
    `${most(largest.engine)} between ${reference} and ${original}.`].join('\n');
}
