// Score versus distance: PE(p)·PE(p+k) and RoFormer's long-term decay bound.
import { ChartFigure, SERIES_COLOURS } from '../figure.js';

export function createDistancePanel(slot) {
  const chart = new ChartFigure(slot, { title: 'Score versus distance' });
  return {
    figure: chart,
    update({ lab, d, base, maxDistance }) {
      const { score, bound } = lab.offsetCurves(maxDistance, d, { base });
      const ks = Array.from({ length: maxDistance + 1 }, (_, k) => k);
      const normalise = (values) => Array.from(values, (v) => v / values[0]);
      chart.update({
        series: [
          { name: `PE(p)·PE(p+k) ÷ ${score[0].toPrecision(4)}`, colour: SERIES_COLOURS.additive, kind: 'line', x: ks, y: normalise(score), raw: score },
          { name: `RoFormer decay bound ÷ ${bound[0].toPrecision(4)}`, colour: SERIES_COLOURS.rotary, kind: 'line', dash: true, x: ks, y: normalise(bound), raw: bound },
        ],
        xLabel: 'distance k',
        yLabel: 'relative to k = 0',
        label: `Positional score versus distance for d = ${d}, base = ${base}: dot product of encodings k apart and the RoFormer decay bound, each divided by its value at k = 0`,
      });
    },
  };
}
