// Shared encoding panels: the positional-encoding heatmap and the per-dimension disturbance.
import { HeatmapFigure } from '../figures/heatmap-figure.js';
import { ChartFigure } from '../figures/chart-figure.js';
import { SERIES_COLOURS } from '../pipeline/schemes.js';

export function createPeFigure(slot) {
  const figure = new HeatmapFigure(slot, { title: 'Positional encoding', palette: 'diverging' });
  return {
    figure,
    update({ pe, peConcat, n, d, dPos, layout }) {
      figure.update({
        tiles: [
          { title: `PE, d = ${d} (additive)`, values: pe, rows: n, cols: d },
          { title: `PE, d_p = ${dPos} (concatenated)`, values: peConcat, rows: n, cols: dPos },
        ],
        min: -1,
        max: 1,
        label: `Sinusoidal positional encoding, ${layout} layout: ${n} positions × dimensions`,
        legendTitle: 'PE value',
        rowLabel: (i) => `position ${i}`,
        colLabel: (j) => `dim ${j}`,
      });
    },
  };
}

export function createSpreadPanel(slot) {
  const chart = new ChartFigure(slot, { title: 'Per-dimension disturbance' });
  /** data: spreadMeasure's. Returns { firstTenth, lastTenth, tenth, length } mean ratios for the summary. */
  function render({ d, layout, length, ratio, tenth, firstTenth, lastTenth }) {
    const dims = Array.from({ length: d }, (_, j) => j);
    chart.update({
      series: [
        { name: 'additive: r_j', colour: SERIES_COLOURS.additive, kind: 'bars', x: dims, y: ratio },
        { name: 'concatenated and rotary: 0 (word coordinates untouched)', colour: SERIES_COLOURS.concatenated, kind: 'line', dash: true, x: dims, y: dims.map(() => 0) },
      ],
      xLabel: 'dimension j',
      yLabel: 'PE spread / word spread',
      label: `Per-dimension disturbance of additive encoding over ${length} positions, ${layout} layout, d = ${d}: ` +
        `ratio of the encoding's spread to the word vectors' spread in each dimension`,
    });
    return { firstTenth, lastTenth, tenth, length };
  }
  return {
    figure: chart,
    render,
  };
}
