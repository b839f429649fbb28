// What every figure offers besides its picture: exact numbers for readouts (and shorter ones for
// the ends of a colour scale), the keyboard moves of a map's cursor, the polite live region that
// announces them, and the values as a table (the text alternative of a small matrix).
import { element } from './dom.js';

/** Short, exact-enough numbers for readouts: 7 significant digits, 0 stays "0". */
export function formatValue(value) {
  if (value === 0) return '0';
  if (!Number.isFinite(value)) return String(value);
  const abs = Math.abs(value);
  if (abs >= 1e-4 && abs < 1e6) return String(Number(value.toPrecision(7)));
  return value.toExponential(4);
}

/**
 * A colour scale's end (its legend and the map's accessible name): 4 significant digits, trailing
 * zeros dropped, exponent form outside [0.001, 100000). The ends say where the colours run from
 * and to; a cell's exact value is in the readout and the values table (formatValue).
 */
export function formatScaleEnd(value) {
  if (value === 0 || !Number.isFinite(value)) return formatValue(value);
  const rounded = Number(value.toPrecision(4));
  const abs = Math.abs(rounded);
  return abs >= 1e-3 && abs < 1e5 ? String(rounded) : rounded.toExponential();
}

export const KEY_MOVES = {
  ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1],
};

/**
 * A region that screen readers announce politely: in the DOM, empty, from the figure's start,
 * because a live region added or switched on at the moment of the change is often not read.
 * Only keyboard moves write to it; the visible readout follows the pointer silently.
 */
export function liveRegion() {
  const region = element('p', { class: 'visually-hidden fig-live' });
  region.setAttribute('aria-live', 'polite');
  return region;
}

// Matrices up to this size get their values as a table; larger ones point to the CSV.
export const VALUE_TABLE_MAX = 32;
const tableNumber = (value) => (Number.isFinite(value) && value !== 0 ? String(Number(value.toPrecision(3))) : String(value));

/** A <table> of one rows × cols matrix (value(i, j)) with its row and column labels. */
export function valueTable(caption, rows, cols, value, rowLabel, colLabel) {
  const head = element('tr');
  head.append(element('td'));
  for (let j = 0; j < cols; j++) head.append(Object.assign(element('th', { text: colLabel(j) }), { scope: 'col' }));
  const body = element('tbody');
  for (let i = 0; i < rows; i++) {
    const tr = element('tr');
    tr.append(Object.assign(element('th', { text: rowLabel(i) }), { scope: 'row' }));
    for (let j = 0; j < cols; j++) tr.append(element('td', { text: tableNumber(value(i, j)) }));
    body.append(tr);
  }
  const thead = element('thead');
  thead.append(head);
  const table = element('table', { class: 'data-table' });
  table.append(element('caption', { text: caption }), thead, body);
  return table;
}
