// Shift invariance: prepend k filler words; how much does attention among the original words move?
// One row per scheme asked for, one column per head type. The numbers come from shiftMeasure
// (web/pipeline/measures/shift.js).
import { TableFigure } from '../figures/table-figure.js';
import { W_IS_I } from '../pipeline/prose.js';

export function createShiftPanel(slot) {
  const table = new TableFigure(slot, { title: 'Shift invariance' });
  /** data: shiftMeasure's. Returns its changes: { [headCount]: { [scheme]: largest change } }. */
  function render({ n, k, headTypes, fillers, changes, rows }) {
    const headName = (h) => (h === 0 ? W_IS_I : `${h} random heads`);
    table.update({
      label: `Largest change of attention among the original ${n} words after prepending ${k} filler word${k === 1 ? '' : 's'}, per scheme`,
      columns: ['scheme', 'position signal', ...headTypes.map(headName)],
      rows,
      format: (cell, r, c) => (c < 2 ? cell : cell === 0 ? '0' : cell.toExponential(2)),
      note: `Filler words prepended: “${fillers.join(' ')}”. Attention weights run from 0 to 1, so 0.1 is a large change ` +
        'and 10⁻⁷ is float rounding. Random heads use fixed seeded projections (seed 1); with them ALiBi gives head h the ' +
        "h-th slope of that many heads and T5 draws one seeded bias table per head.",
    });
    return changes;
  }
  return {
    figure: table,
    render,
  };
}
