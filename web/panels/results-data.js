// The trained models' results (data/models/results.json) as a table and as plain sentences, both
// computed from the numbers, without the DOM.
//
// results: { lengths: [T, 2T, …], rows: [{ scheme, variant, perplexity: [{ mean, spread } | null …] }],
//            seeds (a count or the list of seeds), steps, pollution }; perplexity[k] belongs to
//            lengths[k]; a missing or non-finite mean is a length the model cannot run (a learned
//            table past T); spread is the sample standard deviation over seeds, null for one seed.

const VARIANTS = { pi: 'PI', ntk: 'NTK', yarn: 'YaRN' };
const isPlain = (row) => !row.variant || row.variant === 'none';

/** A row's name: the scheme's label, plus its RoPE extension if any ("Rotary + PI"). */
export function rowLabel(row, labels = {}) {
  const name = labels[row.scheme] ?? row.scheme;
  return isPlain(row) ? name : `${name} + ${VARIANTS[row.variant] ?? row.variant}`;
}

const cell = (row, k) => {
  const value = row.perplexity?.[k];
  return value && Number.isFinite(value.mean) ? value : null;
};
const digits = (v) => (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2));
const hasSpread = (value) => Number.isFinite(value.spread);
// The spread to two significant digits: it says how far the mean can be trusted, no further.
const shown = (value) => `${digits(value.mean)}${hasSpread(value) ? ` ± ${Number(value.spread.toPrecision(2))}` : ''}`;

/** How many seeds the results average over (results.seeds is a count or the seeds themselves). */
export function seedCount(results) {
  return Array.isArray(results.seeds) ? results.seeds.length : Number(results.seeds) || 0;
}

/** Column titles: "T = 32", "2T = 64", … (multiples of the first length, the training length). */
export function lengthTitles(lengths) {
  return lengths.map((length, k) => {
    const multiple = length / lengths[0];
    return `${k === 0 ? '' : Number.isInteger(multiple) ? multiple : multiple.toFixed(1)}T = ${length}`;
  });
}

/** { columns, rows }: one row per scheme and variant, cells "mean ± spread" or "—" (not run). */
export function resultsTable(results, labels) {
  return {
    columns: ['Scheme', ...lengthTitles(results.lengths)],
    rows: results.rows.map((row) => [rowLabel(row, labels), ...results.lengths.map((_, k) => {
      const value = cell(row, k);
      return value ? shown(value) : '—';
    })]),
  };
}

/** The plain (unextended) rows with a number at length index k, best (lowest perplexity) first. */
function ranked(results, k) {
  return results.rows.filter((row) => isPlain(row) && cell(row, k)).sort((a, b) => cell(a, k).mean - cell(b, k).mean);
}

/**
 * One or two sentences from the numbers: which scheme learned best at the training length (and
 * whether adding or concatenating differs by more than the seeds' spread), and which held up
 * best and worst at the longest length measured, as a multiple of its own perplexity at T.
 */
export function resultsSentences(results, labels) {
  const name = (row) => rowLabel(row, labels);
  const count = seedCount(results);
  const seeds = count ? ` over ${count} seed${count === 1 ? '' : 's'}` : '';
  const sentences = [];
  const atT = ranked(results, 0);
  if (atT.length) {
    const best = atT[0];
    let text = `At the training length T = ${results.lengths[0]}, ${name(best)} learned best (perplexity ${shown(cell(best, 0))}${seeds})`;
    const add = atT.find((row) => row.scheme === 'additive');
    const cat = atT.find((row) => row.scheme === 'concatenated');
    if (add && cat) {
      const [a, c] = [cell(add, 0), cell(cat, 0)];
      // "Clear" only when the gap exceeds both spreads together: the seeds alone could explain less.
      // Without spreads (one seed) there is nothing to weigh the gap against: say so.
      const better = a.mean < c.mean ? add : cat;
      const pair = `${shown(a)} against ${shown(c)} for adding and concatenating`;
      if (!hasSpread(a) || !hasSpread(c)) {
        text += `; at equal width ${name(better)} came out ahead (${pair}), from one seed, so with no spread to judge it by`;
      } else if (Math.abs(a.mean - c.mean) > a.spread + c.spread) {
        text += `; at equal width ${name(better)} beat ${name(better === add ? cat : add)} (${pair})`;
      } else {
        text += `; adding and concatenating at equal width show no clear difference (${pair}, within the spread over seeds)`;
      }
    }
    sentences.push(`${text}.`);
  }
  const last = results.lengths.length - 1;
  if (last > 0) {
    const growth = (row) => cell(row, last).mean / cell(row, 0).mean;
    const past = results.rows.filter((row) => cell(row, 0) && cell(row, last)).sort((a, b) => growth(a) - growth(b));
    const cannot = results.rows.filter((row) => cell(row, 0) && !cell(row, last)).map(name);
    if (past.length >= 2) {
      const times = (row) => `×${growth(row).toFixed(2)} its perplexity at T`;
      const [best, worst] = [past[0], past.at(-1)];
      const lowest = past.reduce((a, b) => (cell(b, last).mean < cell(a, last).mean ? b : a));
      sentences.push(`Past the training length, at ${results.lengths[last]} tokens (${lengthTitles(results.lengths)[last].split(' ')[0]}), ` +
        `${name(best)} held up best (${times(best)}) and ${name(worst)} worst (${times(worst)}); ` +
        `the lowest perplexity there is ${name(lowest)}'s (${shown(cell(lowest, last))})` +
        `${cannot.length ? `; ${cannot.join(', ')} cannot run past T` : ''}.`);
    }
  }
  return sentences;
}
