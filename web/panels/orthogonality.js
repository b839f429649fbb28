// Near-orthogonality versus d: why adding behaves almost like concatenating in high dimensions.
// The numbers come from orthogonalityMeasure (web/pipeline/measures/orthogonality.js).
import { ChartFigure } from '../figures/chart-figure.js';
import { SERIES_COLOURS } from '../pipeline/schemes.js';

export function createOrthogonalityPanel(slot) {
  const chart = new ChartFigure(slot, { title: 'Near-orthogonality versus d' });
  /** data: orthogonalityMeasure's. Returns the current vectors' point: { point, d, random }. */
  function render({ dims, random, wordPosition, point, d, label, randomAtD }) {
    chart.update({
      series: [
        { name: 'random vector pairs (std of cosine)', colour: SERIES_COLOURS.other, kind: 'line', x: dims, y: random },
        { name: '1/√d', colour: SERIES_COLOURS.reference, kind: 'line', dash: true, x: dims, y: dims.map((dim) => 1 / Math.sqrt(dim)) },
        { name: 'synthetic word vs its position, this sentence (RMS cosine)', colour: SERIES_COLOURS.concatenated, kind: 'points', x: dims, y: wordPosition },
        { name: `${label} word vs its position (RMS cosine)`, colour: SERIES_COLOURS.additive, kind: 'points', x: [d], y: [point] },
      ],
      xLabel: 'dimensions d (log scale)',
      yLabel: 'cosine spread',
      logX: true,
      yMin: 0,
      label: 'Spread of the cosine between random vectors, and between each word vector and its position vector, as d grows, with the 1/√d curve',
    });
    return { point, d, random: randomAtD };
  }
  return {
    figure: chart,
    render,
  };
}
