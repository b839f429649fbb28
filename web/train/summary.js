// The sentence the Train section states from the run's own numbers: which scheme learned fastest,
// which held up past the training length, and concatenation against adding at the same width.
// Pure (no DOM), so tests/js can check it on made-up runs.

const fmt = (v) => String(Number(v.toPrecision(3)));

/**
 * runs: [{ scheme, name, steps: [..], losses: [..] (smoothed training loss at those steps),
 *          heldout: number (latest held-out loss), lengths: [{ multiple, value }] }]
 * metric: 'loss' (lower is better) or 'accuracy' (higher is better) for the lengths.
 * → a string, or '' while there is too little to say.
 */
export function describeRun(runs, { metric, dPos, d }) {
  const trained = runs.filter((r) => r.losses.length >= 2);
  if (trained.length < 1) return '';
  const parts = [];
  const fastest = fastestLearner(trained);
  if (fastest) parts.push(fastest);
  const heldUp = bestPastLength(trained, metric);
  if (heldUp) parts.push(heldUp);
  const concat = trained.find((r) => r.scheme === 'concatenated');
  const add = trained.find((r) => r.scheme === 'additive');
  if (concat && add && Number.isFinite(concat.heldout) && Number.isFinite(add.heldout)) {
    const diff = concat.heldout - add.heldout;
    const relation = Math.abs(diff) < 0.01 * add.heldout ? 'about the same as'
      : diff < 0 ? `${fmt(-diff)} below` : `${fmt(diff)} above`;
    parts.push(`Concatenating ${dPos} position dimensions beside ${d - dPos} word dimensions (the same width ${d}) ended ` +
      `with a held-out loss of ${fmt(concat.heldout)}, ${relation} adding the sinusoid (${fmt(add.heldout)}).`);
  }
  return parts.join(' ');
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

// Change from 1× to the longest evaluated length each model has a value at.
function bestPastLength(runs, metric) {
  const scored = runs.map((r) => {
    const base = r.lengths.find((p) => p.multiple === 1 && Number.isFinite(p.value));
    const far = r.lengths.filter((p) => p.multiple > 1 && Number.isFinite(p.value)).at(-1);
    return base && far ? { r, base: base.value, far: far.value, multiple: far.multiple } : null;
  }).filter(Boolean);
  if (scored.length < 1) return '';
  const longest = Math.max(...scored.map((s) => s.multiple));
  const comparable = scored.filter((s) => s.multiple === longest);
  const better = metric === 'loss' ? (a, b) => a.far - b.far : (a, b) => b.far - a.far;
  comparable.sort(better);
  const best = comparable[0];
  const what = metric === 'loss' ? 'held-out loss' : 'answer accuracy';
  const others = comparable.slice(1).map((s) => `${s.r.name} ${fmt(s.far)}`).join(', ');
  const missing = runs.filter((r) => !comparable.some((s) => s.r === r)).map((r) => r.name);
  return `At ${longest}× the training length, ${best.r.name} held up best (${what} ${fmt(best.base)} → ${fmt(best.far)}` +
    `${others ? `; ${others}` : ''})${missing.length ? `; ${missing.join(', ')} cannot be evaluated that long` : ''}.`;
}
