// Identity and position retrieval: how well each scheme's encoded input x decodes back to its word
// and its position. The numbers come from retrievalMeasure (web/pipeline/measures/retrieval.js);
// this file lays them out as a table.
import { TableFigure } from '../figures/table-figure.js';

const percent = (v) => (Number.isFinite(v) ? `${(100 * v).toFixed(1)}%` : '—');

export function createRetrievalPanel(slot) {
  const table = new TableFigure(slot, { title: 'Identity and position retrieval' });
  /** data: retrievalMeasure's. Returns its identity: { [scheme]: identity result } for the summary. */
  function render({ n, alpha, schemes, identity, rows, positionNotes, decoderLabel, counted, skipped }) {
    table.update({
      label: `Identity and position retrieval for ${n} tokens (α = ${alpha.toPrecision(4)}), per scheme`,
      columns: ['scheme', 'word decoded (top-1)', 'mean rank of true word', 'position decoded (top-1)', 'x decoded'],
      rows,
      format: (cell, r, c) => {
        if (c === 0 || c === 4) return cell;
        if (cell === null) return positionNotes[r];
        return c === 2 ? (Number.isFinite(cell) ? cell.toFixed(2) : '—') : percent(cell);
      },
      note: `Words decoded among ${decoderLabel}; ${counted} token${counted === 1 ? '' : 's'} scored` +
        `${skipped ? `, ${skipped} unknown token${skipped === 1 ? '' : 's'} left out (no true word to find)` : ''}. ` +
        'Only the absolute schemes put position into x; the others act on queries and keys or on the logits, and their x ' +
        'is compared with αE value by value before its decode is reused.' +
        (schemes.includes('learned') ? ' The learned-style table is seeded N(0, ½), not trained.' : ''),
    });
    return identity;
  }
  return {
    figure: table,
    render,
  };
}
