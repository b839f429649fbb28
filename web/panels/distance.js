// Score versus distance for every scheme: the position part of the attention logit between two
// identical words k tokens apart (lab.distanceCurves, in logit units), one curve per scheme, and
// RoFormer's long-term decay bound. A legend of toggle buttons shows or hides each curve; the
// lanes' schemes are marked in it. ALiBi's −m·k dwarfs every other curve, so by default the y
// range fits the others and ALiBi's line is clipped, and the note below says where it leaves.
import { ChartFigure } from '../figures/chart-figure.js';
import { element } from '../figures/dom.js';
import { SCHEME_IDS } from '../pipeline/state.js';
import { BOUND, CURVE_STYLE, SCHEME_NAMES } from '../pipeline/schemes.js';

export const curveName = (id) => (id === BOUND ? 'RoFormer decay bound' : SCHEME_NAMES[id] ?? id);

/**
 * A short line in the curve's colour and dash, for the legend buttons: a CSS gradient repeating
 * the canvas's dash pattern (no SVG or canvas, so the page's markup checks and figure lookups
 * see only the chart).
 */
function swatch({ colour, dash }) {
  const span = element('span', { class: 'curve-swatch' });
  span.setAttribute('aria-hidden', 'true');
  if (!dash) {
    span.style.background = colour;
    return span;
  }
  let at = 0;
  const stops = dash.map((length, i) => {
    const stop = `${i % 2 === 0 ? colour : 'transparent'} ${at}px ${at + length}px`;
    at += length;
    return stop;
  });
  span.style.background = `repeating-linear-gradient(to right, ${stops.join(', ')})`;
  return span;
}

/** Rounded-out range of the finite values of some arrays, with 5% headroom. */
function range(arrays) {
  let lo = Infinity;
  let hi = -Infinity;
  for (const values of arrays) {
    for (const v of values) {
      if (!Number.isFinite(v)) continue;
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
  }
  if (!(hi >= lo)) return { yMin: -1, yMax: 1 };
  const pad = Math.max(1e-6, (hi - lo) * 0.05);
  return { yMin: Math.min(0, lo - pad), yMax: Math.max(0, hi + pad) };
}

// The panel's DOM: the legend's group of toggles, the show-all / lanes-only buttons and the y-range
// select, the note and the chart → the parts the painter and the controls use.
function buildPanel(slot) {
  const root = element('div', { class: 'distance-panel' });
  const toggles = element('div', { class: 'curve-toggles' });
  toggles.setAttribute('role', 'group');
  toggles.setAttribute('aria-label', 'Curves shown (press to show or hide)');
  const tools = element('div', { class: 'panel-controls' });
  const showAll = element('button', { class: 'small-button', text: 'Show all' });
  const lanesOnly = element('button', { class: 'small-button', text: "Only the lanes' schemes" });
  showAll.type = 'button';
  lanesOnly.type = 'button';
  const rangeLabel = element('label', { class: 'inline-check', text: 'y range ' });
  const rangeSelect = element('select');
  rangeSelect.append(new Option('fit all but ALiBi (ALiBi clipped)', 'clip'), new Option('fit every shown curve', 'all'));
  rangeLabel.append(rangeSelect);
  tools.append(showAll, lanesOnly, rangeLabel);
  const chartSlot = element('div');
  const note = element('p', { class: 'table-note distance-note' });
  root.append(toggles, tools, note, chartSlot);
  slot.replaceChildren(root);
  const chart = new ChartFigure(chartSlot, { title: 'Score versus distance', height: 280 });
  return { toggles, showAll, lanesOnly, rangeSelect, note, chart, buttons: new Map() };
}

// One legend button per curve (every scheme and the bound), in parts.buttons; onToggle(id).
function addToggles(parts, onToggle) {
  for (const id of [...SCHEME_IDS, BOUND]) {
    const button = element('button', { class: 'curve-toggle' });
    button.type = 'button';
    button.append(swatch(CURVE_STYLE[id]), document.createTextNode(curveName(id)));
    button.addEventListener('click', () => onToggle(id));
    parts.buttons.set(id, button);
    parts.toggles.append(button);
  }
}

// The sentences under the chart: where ALiBi's clipped line leaves, where the learned curve
// stops, or that every curve is hidden.
function noteOf(data, shown, clipAlibi, yMin) {
  const { curves, maxDistance, slopeNote, learnedCut } = data;
  const notes = [];
  if (clipAlibi) {
    const leaves = curves.alibi.findIndex((v) => v < yMin);
    notes.push(leaves > 0
      ? `ALiBi's −m·k (${slopeNote}) leaves the plotted range at k = ${leaves} (it reaches ${Number(curves.alibi[maxDistance].toPrecision(4))} at k = ${maxDistance}); choose “fit every shown curve” to see it whole.`
      : `ALiBi's −m·k (${slopeNote}) stays within the range of the other curves up to k = ${maxDistance}.`);
  }
  if (learnedCut !== null && shown.includes('learned')) {
    notes.push(`Learned: no curve from k = ${learnedCut} on — a table trained on L = ${learnedCut} positions has no row there.`);
  }
  if (shown.length === 0) notes.push('Every curve is hidden: press a name above to show it.');
  return notes.join(' ');
}

// The figure: the shown curves of `data` (distanceMeasure's) against k, the legend's pressed
// states, and the note.
function paint(parts, data, hidden) {
  const { d, base, maxDistance, curves, ids, lanes } = data;
  const ks = Array.from({ length: maxDistance + 1 }, (_, k) => k);
  const shown = ids.filter((id) => !hidden.has(id));
  for (const [id, button] of parts.buttons) {
    button.setAttribute('aria-pressed', String(!hidden.has(id)));
    button.classList.toggle('is-lane', lanes.includes(id));
    button.hidden = !ids.includes(id);
  }
  const series = shown.map((id) => ({
    name: curveName(id), colour: CURVE_STYLE[id].colour, dash: CURVE_STYLE[id].dash, kind: 'line', x: ks, y: curves[id],
  }));
  const clipAlibi = parts.rangeSelect.value === 'clip' && shown.includes('alibi') && shown.length > 1;
  const { yMin, yMax } = range(shown.filter((id) => !(clipAlibi && id === 'alibi')).map((id) => curves[id]));
  parts.note.textContent = noteOf(data, shown, clipAlibi, yMin);
  parts.chart.update({
    series: series.length ? series : [{ name: '(no curve shown)', colour: CURVE_STYLE.nope.colour, kind: 'line', x: ks, y: ks.map(() => NaN) }],
    xLabel: 'distance k',
    yLabel: 'logit (position part)',
    yMin,
    yMax,
    label: `Positional score versus distance for d = ${d}, base = ${base}: the position part of the attention logit ` +
      `between two identical words k tokens apart, k = 0 to ${maxDistance}, for ${shown.map(curveName).join(', ') || 'no scheme'}` +
      `${clipAlibi ? '; y range fitted to the curves other than ALiBi, whose line is clipped' : ''}. ` +
      'Focus the chart and use the left and right arrow keys to read every curve at one distance.',
  });
}

/** The panel in `slot` → { figure, render(data) }; data: distanceMeasure's, kept for repaints after a toggle. */
export function createDistancePanel(slot) {
  const parts = buildPanel(slot);
  const hidden = new Set();  // the curves the reader turned off
  let last = null;           // the latest data
  const repaint = () => { if (last) paint(parts, last, hidden); };
  addToggles(parts, (id) => {
    if (hidden.has(id)) hidden.delete(id); else hidden.add(id);
    repaint();
  });
  parts.showAll.addEventListener('click', () => { hidden.clear(); repaint(); });
  parts.lanesOnly.addEventListener('click', () => {
    if (!last) return;
    hidden.clear();
    for (const id of last.ids) if (id !== BOUND && !last.lanes.includes(id)) hidden.add(id);
    repaint();
  });
  parts.rangeSelect.addEventListener('change', repaint);
  return {
    figure: parts.chart,
    render(data) {
      last = data;
      repaint();
    },
  };
}
