// One trained lane's box and strip: the box lives inside the lane's attention slot, after the
// figure, and holds the lane's note and its surprise strip (−ln p of each next word). The
// functions here paint what a lane's `parts` hold; which outputs those are is trained-requests.js'.
//
// parts: { slot, box, note, heading, strip, figure (the strip's), scratch (Int32Array ids, reused),
//   want, asked, shown, refused (each { model, layer, head, ids, tokens, … } or null),
//   stripShown (the `shown` the strip paints), reservedFor (n the reserved strip is laid out for),
//   notePending (the note typing held back, { head, text }, or null) }.
import { HeatmapFigure } from '../figures/heatmap-figure.js';
import { standIn } from '../formats/numbers.js';
import { LEGENDS } from './lanes.js';
import { SCHEME_LABELS } from '../options.mjs';
import { element, setAttr, setClass, setHidden, setStyle, setText } from '../figures/dom.js';
import { W_IS_I } from '../pipeline/prose.js';
import { sharedIds } from '../pipeline/model-ids.js';

/** A token named in a readout: its text and its position. */
export const tokenLabel = (tokens, i) => `“${tokens[i]}” (${i})`;

/**
 * The lane's parts, kept in `boxes` (scheme → parts) and rebuilt when the lanes rebuilt the slot;
 * null when the lanes show no such scheme. The box goes inside the slot, so the lane keeps its
 * children (and the subgrid rows that line the lanes up).
 */
export function laneBox(scheme, boxes) {
  const slot = document.querySelector(`#lanes [data-figure="${scheme}-attention"]`);
  if (!slot) return null;
  let parts = boxes.get(scheme);
  if (parts?.slot === slot) return parts;
  const box = element('div', { class: 'trained-box' });
  const note = element('p', { class: 'lane-note trained-note' });
  note.setAttribute('role', 'status');
  const heading = element('p', { class: 'trained-strip-title', text: 'Surprise: −ln p(next word) under the trained model' });
  const strip = element('div', { class: 'fig-slot trained-strip' });
  box.append(note, heading, strip);
  slot.append(box);
  const figure = new HeatmapFigure(strip, { title: `${SCHEME_LABELS[scheme]} trained model surprise`, palette: 'viridis', legendTitle: stripLegend(null) });
  parts = { slot, box, note, heading, strip, figure, scratch: null, want: null, asked: null, shown: null, stripShown: null, reservedFor: 0, refused: null,
    notePending: null };
  boxes.set(scheme, parts);
  return parts;
}

/**
 * The lane's note: its head (what the map shows) and its tail (how many words the model reads as
 * unknown, which follows every typed letter: a partial word is often outside the vocabulary).
 * While typing (typed: no pause since a key), a note whose head stays keeps the tail it reads,
 * busy, until settleNote when typing pauses. A note written at each key is laid out again and
 * repaints its lane on the page's thread, and a screen reader hears the count of each partial word.
 */
export function writeNote(parts, { head, tail }, typed) {
  const { note } = parts;
  const text = head + tail;
  if (typed && note.textContent.startsWith(head)) {
    parts.notePending = text === note.textContent ? null : { head, text };
    if (parts.notePending !== null) setAttr(note, 'aria-busy', 'true'); // until settleNote
    return;
  }
  parts.notePending = null;
  setText(note, text);
  setAttr(note, 'aria-busy', 'false');
}

/** The note typing held back (writeNote), written now: unless another note replaced it meanwhile. */
export function settleNote(parts) {
  const pending = parts.notePending;
  if (pending !== null && parts.note.textContent.startsWith(pending.head)) setText(parts.note, pending.text);
  parts.notePending = null;
  setAttr(parts.note, 'aria-busy', 'false');
}

/** The strip under the shown map: shown when it has a surprise to paint, else (n ≥ 2) kept in place. */
export function showShownStrip(parts) {
  const n = parts.shown.ids.length;
  showStrip(parts, n > 1 && parts.shown.surprise !== null, n > 1);
}

// reserve: the strip is not shown but keeps its place (a model still loading), so the map and
// strip that arrive do not move the page.
export function showStrip(parts, shown, reserve = false) {
  setHidden(parts.heading, !shown && !reserve);
  setHidden(parts.strip, !shown && !reserve);
  setClass(parts.box, 'strip-reserved', !shown && reserve);
}

/** The lane's shown map into its attention figure (createLanes' `attention`, or nothing). */
export function paintMap(scheme, parts, figure) {
  const { model, attention, tokens, ids, layer, head } = parts.shown;
  const n = ids.length;
  const { layers, heads } = model.config;
  const tile = { values: attention, rows: n, cols: n, shows: { model: model.name, layer, head, ids }, keepRows: (painted) => sameRows(painted, tile) };
  figure?.update({
    tiles: [tile],
    min: 0,
    max: 1,
    label: `${SCHEME_LABELS[scheme]} attention weights of the trained model, layer ${layer + 1} of ${layers}, head ${head + 1} of ${heads}, ` +
      `${n} × ${n} tokens, rows are queries`,
    legendTitle: LEGENDS.attention,
    rowWords: tokens,
    colWords: tokens,
    rowLabel: (i) => `query ${tokenLabel(tokens, i)}`,
    colLabel: (j) => `key ${tokenLabel(tokens, j)}`,
    note: (t, i, j) => (j > i ? ' (masked: a later word)' : ''),
  });
}

// The rows of a trained map's tile that the tile painted before it (on the same canvas) shows:
// a causal model's row i reads words 0 … i alone, so the rows before the first word that differs
// are the same when the model, layer, head and size are. A key that changes the last word thus
// repaints one row.
function sameRows(painted, tile) {
  const [was, is] = [painted?.shows, tile.shows];
  if (!was || was.model !== is.model || was.layer !== is.layer || was.head !== is.head || painted.rows !== tile.rows) return 0;
  return sharedIds(was.ids, is.ids);
}

export function paintStrip(scheme, parts) {
  const { model, ids, tokens, surprise } = parts.shown;
  const n = ids.length;
  if (!surprise) { // a heads-only model (its output layer still on its way): the strip keeps its place
    reserveStrip(scheme, parts, model.vocab.length, tokens);
    return;
  }
  if (n < 2 || parts.stripShown === parts.shown) return; // one word: nothing is predicted (showStrip hides the strip)
  parts.stripShown = parts.shown;
  parts.figure.update(stripView(scheme, model.vocab.length, surprise, tokens));
  indentStrip(parts, n);
  showStrip(parts, true);
}

// Cell j belongs to word j + 1: indented by the map's word gutter and one of its n columns, it
// sits under that word's column (the gutter's width is styles/lab.css's --axis-side).
function indentStrip(parts, n) {
  setStyle(parts.figure.tileBox, 'paddingLeft', `calc(var(--axis-side) + (100% - var(--axis-side)) / ${n})`);
}

// A lane whose model has not arrived: the strip, not shown, is laid out with zeros for the
// sentence's words, so it takes the place the real one will (legend, readout and menu included).
export function reserveStrip(scheme, parts, vocabSize, tokens) {
  const n = tokens.length;
  if (!parts.stripShown && n >= 2 && parts.reservedFor !== n) {
    parts.reservedFor = n;
    parts.figure.update(stripView(scheme, vocabSize, new Float32Array(n - 1), tokens));
    indentStrip(parts, n);
  }
  showStrip(parts, false, n >= 2);
}

// The core refuses what a model cannot do (a learned table past its rows): a note, not a
// failure; the lane keeps the identity map compare() paints.
export function refuse(scheme, parts) {
  setText(parts.note, `The trained ${SCHEME_LABELS[scheme]} model cannot read this sentence: ${parts.refused.message}. ` +
    `This lane shows identity heads (${W_IS_I}).`);
  showStrip(parts, false);
  setAttr(parts.box, 'data-state', 'ready');
  setAttr(parts.slot, 'data-trained', 'ready');
}

// pending: the lane shows outputs for other words than the sentence's (dimmed by styles/lab.css).
export function markPending(parts) {
  const ready = parts.shown && parts.shown.ids === parts.want.ids;
  setAttr(parts.box, 'data-state', ready ? 'ready' : 'pending');
  setAttr(parts.slot, 'data-trained', parts.shown && parts.shown.ids !== parts.want.ids ? 'pending' : 'ready');
}

// The strip's legend: uniform = ln V, or null before a model is in (a stand-in of its shape).
const stripLegend = (uniform) => `−ln p (nats; ${uniform === null ? standIn('0.0') : uniform.toFixed(1)} = uniform guess)`;

// The surprise strip's figure options: entry j of `surprise` is −ln p(word j + 1 | words 0 … j)
// under a V-word model, so the first word has none.
function stripView(scheme, V, surprise, tokens) {
  const cells = tokens.length - 1;
  const uniform = Math.log(V);
  return {
    tiles: [{ values: surprise, rows: 1, cols: cells }],
    min: 0,
    max: uniform,
    label: `${SCHEME_LABELS[scheme]} trained model's surprise at each next word, −ln p in nats, words 1 to ${cells} ` +
      `(the first word has no prediction); ln V = ${uniform.toFixed(2)} is a uniform guess over ${V} words`,
    legendTitle: stripLegend(uniform),
    colWords: tokens.slice(1),
    rowLabel: () => 'surprise',
    colLabel: (j) => `${tokenLabel(tokens, j + 1)} after ${tokenLabel(tokens, j)}`,
  };
}
