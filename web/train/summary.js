// The sentence the Train section states from the run's own numbers: which scheme learned fastest,
// which held up past the training length (by growth from 1× and by level), and concatenation
// against adding at the same width. It says how many seeds it rests on: a live run is one seed
// per scheme, and then it reports numbers without ranking close ones; with several runs of a
// scheme (the same settings, other seeds) a comparison is stated only when the 95% interval of
// the paired-by-seed difference excludes zero, as the results panel and docs/EXPERIMENTS.md do:
// options.compare is web/results/intervals.js's seedComparison, passed in by the Train panel (the
// element's replay, one seed per scheme, leaves it out and stays small). Pure (no DOM).

const fmt = (v) => String(Number(v.toPrecision(3)));

/**
 * runs: [{ scheme, name, seed?, steps: [..], losses: [..] (smoothed training loss at those steps),
 *          heldout: number (latest held-out loss), lengths: [{ multiple, value }] }]; several
 *          runs of one scheme are seeds of the same settings.
 * metric: 'loss' (lower is better) or 'accuracy' (higher is better) for the lengths; compare:
 * seedComparison (needed only when a scheme has several runs).
 * → a string, or '' while there is too little to say.
 */
export function describeRun(runs, { metric, dPos, d, compare }) {
  const trained = runs.filter((r) => r.losses.length >= 2);
  if (trained.length < 1) return '';
  const groups = groupBySchemes(trained);
  const seeds = Math.min(...groups.map((g) => g.runs.length));
  const parts = [seeds === 1
    ? 'From this run alone (one seed per scheme: another seed can reorder close results):'
    : `Over ${seeds} seeds per scheme (differences paired by seed, stated only when their 95% interval excludes zero):`];
  const fastest = seeds === 1 ? fastestLearner(trained) : '';
  if (fastest) parts.push(fastest);
  const paired = (a, b, value, what, lower) => (compare ? compare(pairs(a, b, value), [a.name, b.name], what, lower) : '');
  parts.push(...pastLength(groups, metric, seeds, paired));
  const concat = groups.find((g) => g.scheme === 'concatenated');
  const add = groups.find((g) => g.scheme === 'additive');
  if (concat && add) parts.push(concatVersusAdd(concat, add, { dPos, d, seeds, paired }));
  return parts.filter(Boolean).join(' ');
}

function groupBySchemes(runs) {
  const groups = [];
  for (const r of runs) {
    let g = groups.find((x) => x.scheme === r.scheme);
    if (!g) groups.push(g = { scheme: r.scheme, name: r.name, runs: [] });
    g.runs.push(r);
  }
  return groups;
}

// The level every model reached (the highest of their latest losses), and who got there first.
function fastestLearner(runs) {
  if (runs.length < 2) return '';
  const level = Math.max(...runs.map((r) => r.losses.at(-1)));
  const reached = runs.map((r) => ({ r, step: r.steps[r.losses.findIndex((l) => l <= level)] }));
  reached.sort((a, b) => a.step - b.step);
  const [first, second] = reached;
  if (first.step === second.step) return `${first.r.name} and ${second.r.name} reached a training loss of ${fmt(level)} at the same step (${first.step}).`;
  return `${first.r.name} learned fastest: its training loss reached ${fmt(level)} by step ${first.step}` +
    `${second ? `, ${second.r.name} by step ${second.step}` : ''}.`;
}

const valueAt = (r, multiple) => r.lengths.find((p) => p.multiple === multiple && Number.isFinite(p.value))?.value;
const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length;

// Level at the longest multiple every group reached, and growth from 1× to it, each ranked; with
// several seeds the best is compared with the runner-up under the interval rule.
function pastLength(groups, metric, seeds, paired) {
  const longest = Math.max(0, ...groups.flatMap((g) => g.runs.flatMap((r) => r.lengths.filter((p) => p.multiple > 1 && Number.isFinite(p.value)).map((p) => p.multiple))));
  if (!longest) return [];
  const scored = groups.filter((g) => g.runs.every((r) => valueAt(r, 1) !== undefined && valueAt(r, longest) !== undefined));
  const missing = groups.filter((g) => !scored.includes(g)).map((g) => g.name);
  const lower = metric === 'loss';
  const what = lower ? 'held-out loss' : 'answer accuracy';
  const far = (g) => mean(g.runs.map((r) => valueAt(r, longest)));
  const growth = (g) => mean(g.runs.map((r) => valueAt(r, longest) - valueAt(r, 1)));
  const base = (g) => mean(g.runs.map((r) => valueAt(r, 1)));
  const order = (score) => [...scored].sort((a, b) => (lower ? 1 : -1) * (score(a) - score(b)));
  const out = [];
  if (scored.length) {
    const byLevel = order(far);
    const byGrowth = order(growth);
    out.push(`At ${longest}× the training length, the ${lower ? 'lowest' : 'highest'} ${what} was ${byLevel[0].name}'s ` +
      `(${byLevel.map((g) => `${g.name} ${fmt(base(g))} → ${fmt(far(g))}`).join('; ')}).`);
    if (scored.length >= 2) {
      const signed = (v) => `${v >= 0 ? '+' : '−'}${fmt(Math.abs(v))}`;
      out.push(`By growth from 1×, ${byGrowth[0].name} held up best (${signed(growth(byGrowth[0]))}) and ` +
        `${byGrowth.at(-1).name} worst (${signed(growth(byGrowth.at(-1)))}).`);
      if (seeds >= 2) {
        out.push(paired(byLevel[0], byLevel[1], (r) => valueAt(r, longest), `${what} at ${longest}×`, lower));
        out.push(paired(byGrowth[0], byGrowth[1], (r) => valueAt(r, longest) - valueAt(r, 1), `growth of ${what} from 1× to ${longest}×`, lower));
      }
    }
  }
  if (missing.length) out.push(`${missing.join(', ')} cannot be evaluated that long.`);
  return out;
}

// [[a's value, b's value] per seed both have] (runs matched by their seed field, else by order).
function pairs(a, b, value) {
  const seedOf = (r, i) => r.seed ?? i;
  return a.runs.map((r, i) => [r, b.runs.find((s, j) => seedOf(s, j) === seedOf(r, i))]).filter(([, s]) => s)
    .map(([r, s]) => [value(r), value(s)]);
}

function concatVersusAdd(concat, add, { dPos, d, seeds, paired }) {
  const setup = `Concatenating ${dPos} position dimensions beside ${d - dPos} word dimensions (the same width ${d})`;
  if (seeds === 1) {
    const [c, a] = [concat.runs[0].heldout, add.runs[0].heldout];
    if (!Number.isFinite(c) || !Number.isFinite(a)) return '';
    return `${setup} ended with a held-out loss of ${fmt(c)}, adding the sinusoid ${fmt(a)}: one seed each, so no ` +
      'interval to tell a difference from seed noise.';
  }
  const s = paired(concat, add, (r) => r.heldout, 'held-out loss at T', true);
  return s ? `${setup}: ${s}` : '';
}
