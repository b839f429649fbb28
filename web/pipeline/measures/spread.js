// The per-dimension disturbance's numbers: how far additive encoding's spread in each dimension
// reaches against the word vectors' own spread there. Plain data in and out, so a worker can run it.

// source → its vocabularySpread(): one pass over the whole vocabulary, done once per source.
const wordSpreads = new WeakMap();

/** source.vocabularySpread() (d per-dimension spreads), computed once per source object. */
export function wordSpreadOf(source) {
  if (!wordSpreads.has(source)) wordSpreads.set(source, source.vocabularySpread());
  return wordSpreads.get(source);
}

/**
 * args: { d, base, layout, alpha, wordSpread (d spreads), length (positions) }.
 * → { d, layout, length, ratio: number[d] (r_j = PE spread / (α · word spread)), tenth,
 *     firstTenth, lastTenth (mean r_j over the first and last `tenth` dimensions) }.
 */
export function spreadMeasure(lab, { d, base, layout, alpha, wordSpread, length }) {
  const pe = lab.sinusoidal(length, d, { base, layout });
  const peSpread = lab.columnSpread(pe, length, d);
  const ratio = Array.from({ length: d }, (_, j) => peSpread[j] / Math.max(1e-12, alpha * wordSpread[j]));
  const tenth = Math.max(1, Math.round(d / 10));
  const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length;
  return { d, layout, length, ratio, tenth, firstTenth: mean(ratio.slice(0, tenth)), lastTenth: mean(ratio.slice(d - tenth)) };
}

/** spreadMeasure's args for the page's state and settings: L = state.spreadLength, or n (the sentence) when it is 0. */
export function spreadArgs(state, source, settings, n) {
  return { d: settings.d, base: state.base, layout: state.layout, alpha: settings.alpha,
    wordSpread: wordSpreadOf(source), length: state.spreadLength || n };
}
