// Rotation angles per frequency for the RoPE variants: for each pair i, the largest angle the
// evaluation length reaches (L'·ω'_i, the variant's own ω') against the range plain RoPE swept in
// training (L·ω_i), with the pairs that meet angles never seen in training marked and counted.
// xPos rotates exactly like plain RoPE (its ζ scaling changes lengths, not angles). The numbers
// come from anglesMeasure (web/pipeline/measures/angles.js); this file draws them.
import { ChartFigure } from '../figures/chart-figure.js';
import { CURVE_STYLE, SERIES_COLOURS } from '../pipeline/schemes.js';
import { TWO_PI, pairRanges } from '../pipeline/angle-flags.js';

/** anglesMeasure's results → the chart's series: the trained range, one turn, each variant's reach, its flagged pairs. */
function angleSeries(results, trainedLength, pairs) {
  const x = Array.from({ length: pairs }, (_, i) => i);
  const log = (values) => Array.from(values, (v) => (v > 0 ? Math.log10(v) : NaN));
  const trained = results[0].trained;
  return [
    { name: `trained: L·ω_i, L = ${trainedLength} (plain RoPE)`, colour: SERIES_COLOURS.concatenated, kind: 'line', dash: null, x, y: log(trained), raw: trained },
    { name: 'one full turn, 2π', colour: CURVE_STYLE.nope.colour, kind: 'line', dash: [1, 3], x, y: x.map(() => Math.log10(TWO_PI)), raw: x.map(() => TWO_PI) },
    ...results.map((r) => ({ name: `${r.short}: L'·ω'_i`, colour: CURVE_STYLE[r.id].colour, dash: CURVE_STYLE[r.id].dash, kind: 'line', x, y: log(r.reached), raw: r.reached })),
    // Flagged pairs as dots on their variant's line.
    ...results.filter((r) => r.count > 0).map((r) => {
      const at = x.filter((i) => r.flagged[i]);
      return { name: `${r.short}: angles never seen`, colour: CURVE_STYLE[r.id].colour, kind: 'points', x: at, y: at.map((i) => Math.log10(r.reached[i])), raw: at.map((i) => r.reached[i]) };
    }),
  ];
}

export function createAnglesPanel(slot) {
  const chartSlot = document.createElement('div');
  const summary = document.createElement('p');
  summary.className = 'angles-summary';
  slot.replaceChildren(chartSlot, summary);
  const chart = new ChartFigure(chartSlot, { title: 'Rotation angles per frequency', height: 280 });
  /**
   * data: anglesMeasure's. Returns { pairs, s, counts: { [variant id]: flagged pairs } } for the
   * page's summary and tests.
   */
  function render({ pairs, s, trainedLength, evalLength, results }) {
    const turned = results[0].turned.reduce((a, b) => a + b, 0);
    const counts = Object.fromEntries(results.map((r) => [r.id, r.count]));
    const where = (r) => (r.count ? ` (pair${r.count === 1 ? '' : 's'} ${pairRanges(r.flagged)})` : '');
    const head = `L = ${trainedLength} → L' = ${evalLength} (s = ${Number(s.toPrecision(4))}), ${pairs} pairs: `;
    summary.textContent = evalLength <= trainedLength
      ? `${head}the evaluation fits in the trained length, so nothing is rescaled and no pair meets an angle it did not meet in training.`
      : `${head}pairs that meet angles never seen in training — ${results.map((r) => `${r.name}: ${r.count} of ${pairs}${where(r)}`).join('; ')}. ` +
        `${turned ? `Pair${turned === 1 ? '' : 's'} 0${turned > 1 ? `–${turned - 1}` : ''} completed a full turn within L, so ${turned === 1 ? 'it' : 'they'} met every angle.` : 'No pair completed a full turn within L.'}`;
    chart.update({
      series: angleSeries(results, trainedLength, pairs),
      xLabel: 'pair i (frequency ω_i falls as i grows)',
      yLabel: 'log₁₀ angle (radians)',
      label: `Largest rotation angle per RoPE pair within the evaluation length L' = ${evalLength} for plain RoPE, position ` +
        `interpolation, NTK-aware scaling and YaRN, against the angles plain RoPE swept in training (L = ${trainedLength}), ` +
        `log scale; ${results.map((r) => `${r.short}: ${r.count} of ${pairs} pairs flagged`).join(', ')}.`,
    });
    return { pairs, s, counts };
  }
  return {
    figure: chart,
    render,
  };
}
