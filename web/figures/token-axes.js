// The words along a token-indexed map's axes: queries down the side, keys along the top (rotated).
// A label sits at the middle of its row or column; when rows are closer than MIN_PITCH_PX, only
// every step-th word is shown (thinned, never overlapping), and the font follows the pitch
// between MIN_FONT_PX and MAX_FONT_PX. Labels are drawn on one canvas per axis, not written as
// spans: a keystroke that changes one word clears and redraws that word's band alone, and asks
// the browser for no style, layout or text painting at all (as spans, the labels of three lanes
// cost about 5 ms of a 64-token keystroke in headless Chromium). Colours come from the page's
// variables (read when the axis is resized or the colour scheme changes, never while typing), so
// they follow the theme. The labels are decoration for sighted readers (aria-hidden): the map's
// name, the readout and the values table carry the same words. The marked word of the crosshair
// is one span over the canvas. The PNG and SVG exports draw the same thinning.
import { element, setHidden, setText } from './dom.js';
import { EXPORT_FONT, EXPORT_INK } from './export-style.js';

export const MIN_PITCH_PX = 8;   // a label per row while rows are at least this far apart (8 px type)
// A map whose only words are its rows (tokens × dimensions) may grow this much per row, up to 2:1.
export const ROW_ROOM_PX = 12;
const MIN_FONT_PX = 8;
const MAX_FONT_PX = 11;
const EDGE_PX = 4; // the gap between a label and the map
const MAX_REMEMBERED_FITS = 4096; // fitted labels kept per pen (a bound, not a tuning)

/** Every step-th label when rows are `pitch` px apart: the smallest step whose labels are MIN_PITCH_PX apart. */
export function labelStep(pitch) {
  return pitch >= MIN_PITCH_PX ? 1 : Math.ceil(MIN_PITCH_PX / Math.max(pitch, 1e-3));
}

/** The label font size (px) for labels `spacing` px apart. */
export function labelFont(spacing) {
  return Math.max(MIN_FONT_PX, Math.min(MAX_FONT_PX, Math.floor(spacing - 1)));
}

/** A word as a label: line breaks and spaces made visible, empty words named. */
export function wordText(word) {
  if (word === '\n') return '↵';
  if (word === ' ') return '␣';
  return word === '' ? '∅' : String(word);
}

/** `text` cut to fit `room` px on context `g` (its font set), ending in an ellipsis when cut. */
export function fitText(g, text, room) {
  if (g.measureText(text).width <= room) return text;
  let low = 0;
  let high = text.length;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (g.measureText(`${text.slice(0, mid)}…`).width <= room) low = mid;
    else high = mid - 1;
  }
  return low === 0 ? '' : `${text.slice(0, low)}…`;
}

// One observer for every axis's size (CSS px); its callbacks run after layout and before paint,
// so a resized axis is redrawn in the same frame, and sizes are never read while typing.
// Made with the first axis: the module's pure helpers (labelStep, fitText, …) also run outside a
// page (the SVG writer's tests in Node).
const axes = new WeakMap();
let sizes = null;
function observeSize(axis) {
  sizes ??= new ResizeObserver((entries) => {
    redrawAll(entries.map((entry) => axes.get(entry.target)?.resize(entry.contentRect.width, entry.contentRect.height)));
  });
  axes.set(axis.root, axis);
  sizes.observe(axis.root);
}
// Colours are the page's; a colour-scheme change redraws every axis with the new ones (held
// weakly: a figure thrown away takes its axes with it).
const live = new Set();
globalThis.matchMedia?.('(prefers-color-scheme: dark)').addEventListener('change', () => {
  const shown = [];
  for (const ref of live) {
    const axis = ref.deref();
    if (axis) shown.push(axis);
    else live.delete(ref);
  }
  redrawAll(shown);
});

// Redraws the given axes whole (falsy entries skipped) in three passes: every colour read, then
// every canvas sized, then every label drawn. Sizing a canvas leaves its style to be updated, and
// both reading the page's colours and setting a context's font bring style up to date at once,
// so axis after axis would recalculate style once per axis (six at a first view of three lanes).
function redrawAll(list) {
  const drawable = list.filter((axis) => axis?.drawable());
  for (const axis of drawable) axis.readStyle();
  for (const axis of drawable) axis.size();
  for (const axis of drawable) axis.redraw();
}

// fitText's answers, by context font and room: the same words at the same size fit the same way
// on every axis (measureText ignores the canvas's transform), so three lanes' axes measure each
// word once between them, not once each. A new token redraws every label, and measuring them all
// again cost about 0.5 ms a keystroke at 64 tokens (three maps, two axes). Bounded: at most
// MAX_REMEMBERED_PENS pens (the oldest dropped), MAX_REMEMBERED_FITS words each.
const MAX_REMEMBERED_PENS = 16;
const fits = new Map(); // `${font}|${room}` → Map word → fitted text

/** fitText(g, text, room) for context g whose font is `font`, remembered across axes. */
export function fittedText(g, font, text, room) {
  const key = `${font}|${room}`;
  let texts = fits.get(key);
  if (!texts) {
    if (fits.size >= MAX_REMEMBERED_PENS) fits.delete(fits.keys().next().value);
    fits.set(key, texts = new Map());
  }
  let fitted = texts.get(text);
  if (fitted === undefined) {
    fitted = fitText(g, text, room);
    if (texts.size >= MAX_REMEMBERED_FITS) texts.clear();
    texts.set(text, fitted);
  }
  return fitted;
}

/**
 * One axis: `kind` 'rows' (words down the left side) or 'cols' (along the top, read upwards).
 * update(words, count, lengthPx) shows words[0 … count−1] over an axis lengthPx long;
 * highlight(index) shows word `index` (even a thinned one) marked, or none for null.
 * `drawn` lists the labels on the canvas: { index, text, x, y, width, height } in CSS px from
 * the axis's top left corner (the band the label was drawn in, for tests and exports).
 */
export class TokenAxis {
  constructor(kind) {
    this.kind = kind;
    this.canvas = element('canvas', { class: 'axis-canvas' });
    this.active = element('span', { class: 'axis-label axis-active' });
    this.active.hidden = true;
    this.root = element('div', { class: `token-axis token-axis-${kind}`, 'aria-hidden': 'true' }, [this.canvas, this.active]);
    this.words = null;
    this.count = 0;
    this.length = 0;
    this.width = 0;   // the axis box, CSS px (from the observer)
    this.height = 0;
    this.colour = null; // and fontFamily: the page's, read with the colour
    this.fontFamily = EXPORT_FONT;
    this.drawn = [];  // slot k → its label (see above), or undefined
    this.frame = null; // what the canvas was last drawn for: { count, step, length, width, height, dpr }
    this.font = null;  // the font last set on the canvas's context (null: none, or the pen must be set again)
    this.activeIndex = null;
    // For tests and tools: the labels as drawn (the canvas has no DOM to read them from).
    Object.defineProperty(this.root, 'drawnLabels', { get: () => this.drawn.filter(Boolean) });
    observeSize(this);
    live.add(new WeakRef(this));
  }

  update(words, count, lengthPx) {
    this.words = words;
    this.count = count;
    this.length = lengthPx;
    this.redraw();
    if (this.activeIndex !== null) this.highlight(this.activeIndex);
  }

  /** Takes the axis box's new size (CSS px) → this axis when it changed (to be redrawn), else null. */
  resize(width, height) {
    if (Math.abs(width - this.width) < 0.5 && Math.abs(height - this.height) < 0.5) return null;
    this.width = width;
    this.height = height;
    return this;
  }

  /** Whether there is anything to draw: words, a size, and a place in the document. */
  drawable() {
    return this.words !== null && this.width > 0 && this.height > 0 && this.root.isConnected;
  }

  // The labels' frame for the current words and size: how many, how thinned, how long the axis.
  #frame() {
    const count = this.count;
    const length = this.length || (this.kind === 'rows' ? this.height : this.width);
    return { count, step: labelStep(length / Math.max(count, 1)), length, width: this.width, height: this.height, dpr: globalThis.devicePixelRatio || 1 };
  }

  /** Reads the page's colour and font for the labels (forces a style update if one is due). */
  readStyle() {
    const style = getComputedStyle(this.root);
    const colour = style.color || EXPORT_INK.text;
    if (colour !== this.colour) this.font = null; // the pen takes the new colour (a new family makes a new font)
    this.colour = colour;
    this.fontFamily = style.fontFamily || EXPORT_FONT;
  }

  /** Sizes and clears the canvas for `frame` (the current one): every label is drawn again after it. */
  size(frame = this.#frame()) {
    this.frame = frame;
    const w = Math.max(1, Math.round(frame.width * frame.dpr));
    const h = Math.max(1, Math.round(frame.height * frame.dpr));
    // Setting a canvas's width or height, even to the same value, resets its context's state
    // (font, colours, alignment): the pen is set again then, and only then.
    if (this.canvas.width !== w || this.canvas.height !== h) {
      this.canvas.width = w;
      this.canvas.height = h;
      this.font = null;
    }
    const g = this.canvas.getContext('2d');
    g.setTransform(frame.dpr, 0, 0, frame.dpr, 0, 0);
    g.clearRect(0, 0, frame.width, frame.height);
    this.drawn = [];
  }

  // Draws the labels: all of them when the thinning or the size changed (or size() cleared the
  // canvas), else only the slots whose word changed, each in its own band.
  redraw() {
    if (!this.drawable()) return;
    const rows = this.kind === 'rows';
    const frame = this.#frame();
    const same = this.frame && Object.keys(frame).every((key) => this.frame[key] === frame[key]);
    if (this.colour === null) this.readStyle(); // the first draw; later, redrawAll reads them
    if (!same) this.size(frame);
    const g = this.canvas.getContext('2d');
    const { count, step, length } = frame;
    const pitch = length / Math.max(count, 1);
    const spacing = pitch * step;
    this.pen(g, spacing, rows);
    const shown = Math.ceil(count / step);
    const room = (rows ? this.width : this.height) - EDGE_PX - 1;
    for (let k = 0; k < Math.max(shown, this.drawn.length); k++) {
      const index = k * step;
      const text = k < shown ? wordText(this.words[index] ?? '') : null;
      const before = this.drawn[k];
      if (before?.text === text) continue;
      const centre = (index + 0.5) * pitch;
      const band = rows
        ? { x: 0, y: centre - spacing / 2, width: this.width, height: spacing }
        : { x: centre - spacing / 2, y: 0, width: spacing, height: this.height };
      g.clearRect(band.x, band.y, band.width, band.height);
      if (text === null) { this.drawn[k] = undefined; continue; }
      const fitted = fittedText(g, this.font, text, room);
      if (rows) {
        g.fillText(fitted, this.width - EDGE_PX, centre);
      } else {
        g.save();
        g.translate(centre, this.height - EDGE_PX);
        g.rotate(-Math.PI / 2);
        g.fillText(fitted, 0, 0);
        g.restore();
      }
      this.drawn[k] = { index, text, ...band };
    }
    this.drawn.length = shown;
  }

  // The context's font, colour and alignment for labels `spacing` px apart, set only when the font
  // changes (with the thinning or the page's font; most keystrokes keep it), or when the context
  // lost them or the page's colour changed (this.font null). A keystroke that adds a word redraws
  // every label (they all move) but keeps the pen: setting a font costs Chromium a parse of it and
  // a style update of the canvas, which right after the view's other writes is a style
  // recalculation inside the keystroke's task; the colour is parsed on every write.
  pen(g, spacing, rows) {
    const font = `${labelFont(spacing)}px ${this.fontFamily}`;
    if (this.font === font) return;
    g.font = font;
    g.fillStyle = this.colour;
    g.textBaseline = 'middle';
    g.textAlign = rows ? 'right' : 'left';
    this.font = font;
  }

  highlight(index) {
    this.activeIndex = index ?? null;
    const show = this.activeIndex !== null && this.activeIndex < this.count && this.words !== null;
    setHidden(this.active, !show);
    if (!show) return;
    setText(this.active, wordText(this.words[index] ?? ''));
    this.active.style.setProperty('--i', String(index));
    this.root.style.setProperty('--n', String(this.count));
  }
}

/**
 * The labels of one map drawn on a 2D context for a PNG: words down the left of the map and along
 * its top (rotated), thinned as on the page for `cell` px per row/column, in `colour`.
 * map: { x, y, rows, cols, cell } (the map's place and cell size in the picture); left, top: the
 * gutters' widths.
 */
export function drawTokenLabels(g, { rowWords, colWords, map, colour = EXPORT_INK.text, left, top }) {
  g.save();
  g.fillStyle = colour;
  const step = labelStep(map.cell);
  const font = labelFont(map.cell * step);
  g.font = `${font}px ${EXPORT_FONT}`;
  if (rowWords) {
    g.textAlign = 'right';
    g.textBaseline = 'middle';
    for (let i = 0; i < map.rows; i += step) {
      g.fillText(wordText(rowWords[i] ?? ''), map.x - 4, map.y + (i + 0.5) * map.cell, left - 6);
    }
  }
  if (colWords) {
    g.textAlign = 'left';
    g.textBaseline = 'middle';
    for (let j = 0; j < map.cols; j += step) {
      g.save();
      g.translate(map.x + (j + 0.5) * map.cell, map.y - 4);
      g.rotate(-Math.PI / 2);
      g.fillText(wordText(colWords[j] ?? ''), 0, 0, top - 6);
      g.restore();
    }
  }
  g.restore();
}

/** The width a PNG gives its label gutters: the longest label, within [24, 120] px. */
export function gutterFor(g, words, cell) {
  if (!words) return 0;
  g.save();
  g.font = `${labelFont(cell * labelStep(cell))}px ${EXPORT_FONT}`;
  let widest = 0;
  for (const word of words) widest = Math.max(widest, g.measureText(wordText(word)).width);
  g.restore();
  return Math.ceil(Math.min(120, Math.max(24, widest + 10)));
}
