// The held-out-loss-by-position chart, one home for the results panel's trained models
// (web/panels/results-table.js) and the Train section's running ones (web/train/figures.js).
import { ChartFigure } from '../figures/chart-figure.js';
import { CURVE_STYLE, SERIES_COLOURS } from '../pipeline/schemes.js';
import { POSITION_BIN } from '../results/positions.js';

/**
 * A chart of held-out loss by position inside windows of 8T tokens in `slot` (the results panel's
 * trained models, and the Train section's running ones): update(lines, { T, unit, over, note })
 * draws one line per { scheme, name, x, y, dash? } (binPositions' points) in the scheme's curve style;
 * unit names a token ('word', 'character'), over what each point averages besides its bin's
 * positions, note (optional) is added to the description. update([], …) draws the empty frame.
 */
export function createPositionChart(slot, { title, height }) {
  const chart = new ChartFigure(slot, { title, height });
  return {
    chart,
    update(lines, { T, unit, over, note = '' }) {
      const ys = lines.flatMap((s) => s.y).filter(Number.isFinite);
      chart.update({
        series: lines.length
          ? lines.map((s) => ({ name: s.name, colour: CURVE_STYLE[s.scheme]?.colour ?? SERIES_COLOURS.other, dash: s.dash ?? CURVE_STYLE[s.scheme]?.dash, kind: 'line', x: s.x, y: s.y }))
          : [{ name: '(no model evaluated yet)', colour: CURVE_STYLE.nope.colour, kind: 'line', x: [0], y: [NaN] }],
        xLabel: `position in a window of ${8 * T} ${unit}s (trained: 0–${T - 1})`,
        yLabel: `held-out loss (nats per ${unit})`,
        yMin: ys.length ? Math.min(...ys) * 0.95 : undefined,
        label: `Held-out loss by position inside windows of ${8 * T} ${unit}s, one line per scheme (mean over ${over} and ` +
          `each ${POSITION_BIN} positions)${note}: positions past ${T - 1} were never seen in training.`,
      });
    },
  };
}
