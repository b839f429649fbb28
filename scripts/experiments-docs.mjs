// docs/EXPERIMENTS.md's generated parts, from the records in data/experiments/: each
// table cell a mean with a 95% interval over seeds, each comparison paired by seed and held-out
// unit with the bootstrap of web/results/intervals.js, stated only when its interval excludes 0.
// Called by `node scripts/experiments.mjs docs`; rewrites the text between
// <!-- generated:NAME --> and <!-- /generated:NAME --> and nothing else.
import fs from 'node:fs';
import path from 'node:path';
import { comparisonSentence, intervalText, meanInterval, pairedDifference, seedsText } from '../web/results/intervals.js';
import { MULTIPLES, PLAIN, ROPE_SCALINGS, SCHEMES, TABLES } from './experiment-tables.mjs';
import { groupRuns, runLabel as label, runSetAt, growthSet } from '../web/results/report.js';
import { SCHEME_LABELS } from '../dist/posenc.mjs';
import { floatOrderComparison, slidingComparison } from './experiments-docs-protocols.mjs';

const runLabel = (group) => label(group, SCHEME_LABELS);
const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const DOC = path.join(ROOT, 'docs/EXPERIMENTS.md');

const fixed = (v, digits) => (v === null || !Number.isFinite(v) ? '—' : v.toFixed(digits));

// "2.095 [2.071, 2.119]" (loss, accuracy) or "98.8 [96.1, 101.6]" (perplexity: exp of the loss's).
function cell(values, { perplexity, digits }) {
  const r = meanInterval(values);
  if (!r) return '—';
  const f = perplexity ? Math.exp : (v) => v;
  const d = perplexity ? 1 : digits;
  return r.low === null ? `${fixed(f(r.mean), d)} (1 seed)` : `${fixed(f(r.mean), d)} [${fixed(f(r.low), d)}, ${fixed(f(r.high), d)}]`;
}

function lengthTable(groups, t, { perplexity }) {
  const T = t.model.context;
  const digits = t.metric === 'accuracy' ? 3 : 3;
  const head = `| ${perplexity ? 'perplexity' : `held-out ${t.metric}`} at | ${MULTIPLES.map((k) => `${k}× (${k * T})`).join(' | ')} | seeds |`;
  const rows = groups.map((g) => `| ${runLabel(g)} | ${MULTIPLES.map((k) => cell(g.records.map((r) => r.heldOut[k]), { perplexity, digits })).join(' | ')} | ${g.records.length} |`);
  return [head, `|---|${MULTIPLES.map(() => '---:').join('|')}|---:|`, ...rows].join('\n');
}

function growthTable(groups, t) {
  const last = MULTIPLES.at(-1);
  const rows = groups.filter((g) => g.records.every((r) => Number.isFinite(r.heldOut[last]))).map((g) => {
    const r = meanInterval(g.records.map((x) => x.heldOut[last] - x.heldOut[1]));
    return `| ${runLabel(g)} | ${r.low === null ? `${fixed(r.mean, 3)} (1 seed)` : `${fixed(r.mean, 3)} [${fixed(r.low, 3)}, ${fixed(r.high, 3)}]`} |`;
  });
  return [`| change of held-out ${t.metric} from 1× to ${last}× | mean [95% interval over seeds] |`, '|---|---:|', ...rows].join('\n');
}

// Mean loss by position inside the 8× windows, in bins of T positions.
function positionTable(groups, t) {
  const T = t.model.context;
  const withPositions = groups.filter((g) => g.records.every((r) => r.byPosition?.[8]));
  if (!withPositions.length) return '';
  const bins = Array.from({ length: 8 }, (_, b) => b);
  const head = `| held-out ${t.metric} at positions | ${bins.map((b) => `${b * T}–${(b + 1) * T - 1}`).join(' | ')} |`;
  const rows = withPositions.map((g) => `| ${runLabel(g)} | ${bins.map((b) => {
    const values = g.records.map((r) => r.byPosition[8].slice(b * T, (b + 1) * T).reduce((a, v) => a + v, 0) / T);
    return fixed(values.reduce((a, v) => a + v, 0) / values.length, 3);
  }).join(' | ')} |`);
  return [head, `|---|${bins.map(() => '---:').join('|')}|`, ...rows].join('\n');
}

// The paired comparisons the text makes: adjacent ranks at 1× and 8×, growth, and the named pairs.
function comparisons(groups, t) {
  const lowerIsBetter = t.metric === 'loss';
  const find = (scheme, variant = PLAIN) => groups.find((g) => g.scheme === scheme && g.variant === variant);
  const sentence = (a, b, k, what) => {
    const [x, y] = [runSetAt(a, k, b), runSetAt(b, k, a)];
    if (!x || !y) return null;
    return comparisonSentence(pairedDifference(x, y), { names: [runLabel(a), runLabel(b)], what, lowerIsBetter, digits: 2 });
  };
  const out = [];
  const plain = groups.filter((g) => g.variant === PLAIN);
  for (const k of [1, MULTIPLES.at(-1)]) {
    const ranked = plain.filter((g) => g.records.every((r) => Number.isFinite(r.heldOut[k])))
      .sort((a, b) => (lowerIsBetter ? 1 : -1) * (mean(a, k) - mean(b, k)));
    if (ranked.length >= 2) out.push(`- Best at ${k}×: ${sentence(ranked[0], ranked[1], k, `held-out ${t.metric} at ${k}×`)}`);
  }
  const growing = plain.filter((g) => g.records.every((r) => Number.isFinite(r.heldOut[8])))
    .sort((a, b) => (lowerIsBetter ? 1 : -1) * (growthMean(a) - growthMean(b)));
  if (growing.length >= 2) {
    const [x, y] = [growthSet(growing[0], growing[1]), growthSet(growing[1], growing[0])];
    out.push(`- Held up best (change from 1× to 8×): ${comparisonSentence(pairedDifference(x, y),
      { names: [runLabel(growing[0]), runLabel(growing[1])], what: `the change of held-out ${t.metric} from 1× to 8×`, lowerIsBetter, digits: 2 })}`);
  }
  const pairs = [['additive', 'concatenated', 1], ['additive', 'concatenated', 8], ['rotary', 'alibi', 1], ['rotary', 'alibi', 8]];
  for (const [a, b, k] of pairs) {
    const s = find(a) && find(b) ? sentence(find(a), find(b), k, `held-out ${t.metric} at ${k}×`) : null;
    if (s) out.push(`- ${s}`);
  }
  const [t5, old] = [find('t5'), find('t5', 't5max=128')];
  if (t5 && old) for (const k of [1, 8]) out.push(`- ${sentence(t5, old, k, `held-out ${t.metric} at ${k}×`)}`);
  return out.join('\n');
}
const mean = (g, k) => g.records.reduce((a, r) => a + r.heldOut[k], 0) / g.records.length;
const growthMean = (g) => mean(g, 8) - mean(g, 1);

// A control table's rows: each control against its scheme's plain run in the reference table, at
// 1× and 8×, paired by seed and held-out unit (the two tables share the held-out windows). An
// additive control is also set against plain concatenation: the lead it tries to explain.
function controlComparisons(groups, t) {
  const lowerIsBetter = t.metric === 'loss';
  const out = [];
  const against = (g, plain) => {
    for (const k of [1, MULTIPLES.at(-1)]) {
      const [x, y] = [runSetAt(g, k, plain), runSetAt(plain, k, g)];
      if (x && y) out.push(`- ${comparisonSentence(pairedDifference(x, y), { names: [runLabel(g), runLabel(plain)], what: `held-out ${t.metric} at ${k}×`, lowerIsBetter, digits: 2 })}`);
    }
  };
  const plainOf = (scheme) => groups.find((x) => x.scheme === scheme && x.variant === PLAIN);
  for (const g of groups.filter((x) => x.variant !== PLAIN)) {
    if (plainOf(g.scheme)) against(g, plainOf(g.scheme));
    if (g.scheme === 'additive' && plainOf('concatenated')) against(g, plainOf('concatenated'));
  }
  return out.join('\n') || `- No control shares a seed with its reference run yet.`;
}

// A twin table (t.twin: the table it retrains on another engine) against that table, run by run:
// twin − original at 1× and 8×, paired by seed and held-out window (both evaluate the same
// windows), over the seeds both hold. "Within the seeds' intervals" means the 95% interval of the
// paired difference contains 0; from one seed the interval covers the held-out text only.
function twinTable(own, stores, t) {
  const original = groupRuns(stores[t.twin]?.records ?? []);
  const rows = [];
  for (const g of own) {
    const o = original.find((x) => x.scheme === g.scheme && x.variant === g.variant);
    const cells = [1, MULTIPLES.at(-1)].map((k) => {
      const [x, y] = o ? [runSetAt(g, k, o), runSetAt(o, k, g)] : [null, null];
      return x && y ? pairedDifference(x, y) : null;
    });
    if (cells.every((c) => !c)) continue;
    const seeds = Math.max(...cells.map((c) => c?.seeds ?? 0));
    const verdict = seeds < 2 ? 'one seed: no claim'
      : cells.every((c) => !c || (c.low <= 0 && c.high >= 0)) ? 'within the seeds\' intervals' : 'differs';
    const text = (c) => (c ? `${c.diff >= 0 ? '+' : '−'}${fixed(Math.abs(c.diff), 3)} ${intervalText(c, 2)}` : '—');
    rows.push(`| ${runLabel(g)} | ${seeds} | ${cells.map(text).join(' | ')} | ${verdict} |`);
  }
  if (!rows.length) return `No run shares a seed with the ${t.twin} table yet.`;
  return [`| ${t.engine} − ${t.twin} | seeds | held-out ${t.metric} at 1× [95% interval] | at ${MULTIPLES.at(-1)}× | |`,
    '|---|---:|---:|---:|---|', ...rows].join('\n');
}

// stores: every table's store, for a table with a `reference` (the controls: their plain runs).
function section(name, store, stores) {
  const t = TABLES[name];
  const own = groupRuns(store.records);
  if (!own.length) return `No records yet: \`node scripts/experiments.mjs run ${name}\`.`;
  // The reference table's plain runs of the schemes this table varies, first.
  const reference = t.reference ? groupRuns(stores[t.reference]?.records ?? [])
    .filter((g) => g.variant === PLAIN && own.some((o) => o.scheme === g.scheme)) : [];
  const groups = [...reference, ...own];
  const seeds = [...new Set(store.records.map((r) => r.seed))].sort((a, b) => a - b);
  // Training runs only: the rotary scalings are evaluations of the plain run, written beside it.
  const wall = store.records.filter((r) => !ROPE_SCALINGS.includes(r.variant) && !r.timing.reusedShipped).map((r) => r.timing.wallSeconds);
  const m = t.model;
  const lines = [
    `Task ${t.task}; ${m.layers} layers, d = ${m.d}, ${m.heads} heads, T = ${m.context}; B = ${t.train.B}, lr = ${t.train.lr}, ` +
      `${t.steps} steps${SCHEMES.includes('concatenated') ? `; dPos = ${t.dPos} for concatenated` : ''}. ` +
      `Seeds ${seeds.join(', ')} (each cell says how many it rests on); cells are the mean [95% t-interval over seeds]. ` +
      `Held-out units: ${t.windows} ${t.task === 'copy' ? `batches of ${t.unitRows} fresh examples` : 'windows of 8T targets spread over the whole held-out part, the same targets at every length'}. ` +
      (t.sliding ? `Protocol: sliding rows of kT advancing by ${t.sliding.stride} tokens over each window (the first row scores its kT targets, each later row its last ${t.sliding.stride}). ` : '') +
      (t.models ? `The models are the ${t.models} table's, evaluated again` : wall.length ? `Wall time per run (training and evaluation) on this machine, shared and loaded: median ${median(wall).toFixed(0)} s over ${wall.length} runs` : 'No run trained here') +
      `${store.records.some((r) => r.timing.reusedShipped) ? '; seed 1 of the shipped schemes is the shipped model itself (same flags; train-models --check reproduced it byte for byte), evaluated here' : ''}.`,
    '',
    lengthTable(groups, t, { perplexity: false }),
  ];
  if (t.task === 'words') lines.push('', 'The same as perplexity (exp of the mean loss and of its interval\'s ends):', '', lengthTable(groups, t, { perplexity: true }));
  lines.push('', growthTable(groups, t));
  // Under the sliding protocol the 8× rows are the windows protocol's: positions are that table's.
  const positions = t.sliding ? '' : positionTable(groups, t);
  if (positions) lines.push('', `Loss by position inside the 8× windows (mean over windows and seeds, in bins of T = ${t.model.context}):`, '', positions);
  if (reference.length) lines.splice(1, 0, `Plain rows (no variant in brackets) are the ${t.reference} table's runs, for comparison.`);
  if (t.twin) {
    lines.push('', `Against the ${t.twin} table, run by run (${t.engine} − ${t.twin}; paired by seed and held-out window, ` +
      `bootstrap as below; "within the seeds' intervals" when the 95% interval contains 0 at both lengths):`, '', twinTable(own, stores, t));
  }
  if (t.sliding) lines.push('', slidingComparison(own, stores, t, runLabel));
  if (t.floatOrderOf) lines.push('', floatOrderComparison(own, stores, t, name, runLabel));
  // A float-order control holds one scheme's runs: its comparisons are the ones above.
  if (!t.floatOrderOf) {
    // Where runs hold different seeds (more seeds of one scheme), a comparison rests on the seeds both hold.
    const over = groups.every((g) => g.records.length === seeds.length) ? seedsText(seeds.length) : 'each over the seeds both runs hold';
    lines.push('', `Paired comparisons (bootstrap over seeds and held-out units, 2,000 resamples, seed 24; ${over}):`, '',
      (t.reference ? controlComparisons(groups, t) : comparisons(groups, t)) || '- No two runs to compare yet.');
  }
  return lines.join('\n');
}
const median = (v) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)] ?? 0;

export function writeDocs(stores) {
  let text = fs.readFileSync(DOC, 'utf8');
  for (const [name, store] of Object.entries(stores)) {
    const open = `<!-- generated:${name} -->`;
    const close = `<!-- /generated:${name} -->`;
    const from = text.indexOf(open);
    const to = text.indexOf(close);
    if (from < 0 || to < 0) { console.log(`docs: no ${open} … ${close} in docs/EXPERIMENTS.md, skipped`); continue; }
    text = `${text.slice(0, from + open.length)}\n${section(name, store, stores)}\n${text.slice(to)}`;
  }
  fs.writeFileSync(DOC, text);
  console.log('docs: docs/EXPERIMENTS.md rewritten from data/experiments/');
}
