// The words along a token-indexed map's axes: queries down the side, keys along the top (rotated).
// A label sits at the middle of its row or column; when rows are closer than MIN_PITCH_PX, only
// every step-th word is shown (thinned, never overlapping), and the font follows the pitch
// between MIN_FONT_PX and MAX_FONT_PX. Labels are spans reused from one update to the next and
// written through dom.js (equal values skip the write), so a keystroke that changes one word
// rewrites one text node. Colours come from the page's variables, so they follow the theme.
// The labels are decoration for sighted readers (aria-hidden): the canvas's name, the readout
// and the values table carry the same words. The PNG and SVG exports draw the same thinning.
import { element, setHidden, setStyle, setText } from './dom.js';
import { EXPORT_FONT, EXPORT_INK } from './export-style.js';

export const MIN_PITCH_PX = 8;   // a label per row while rows are at least this far apart (8 px type)
// A map whose only words are its rows (tokens × dimensions) may grow this much per row, up to 2:1.
export const ROW_ROOM_PX = 12;
const MIN_FONT_PX = 8;
const MAX_FONT_PX = 11;

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

// Custom properties through the CSSOM, skipped when unchanged (dom.js's setStyle writes only
// camel-cased properties).
function setVar(node, name, value) {
  if (node.style.getPropertyValue(name) !== value) node.style.setProperty(name, value);
}

/**
 * One axis: `kind` 'rows' (words down the left side) or 'cols' (along the top, read upwards).
 * update(words, count, lengthPx) shows words[0 … count−1] over an axis lengthPx long;
 * highlight(index) shows word `index` (even a thinned one) marked, or none for null.
 * Label k is placed by CSS from --i (its word's index, written when the thinning changes) and the
 * axis's --n, so a new word count is one write, and no label has a transform or clip of its own
 * (each would be a paint chunk of its own for the compositor to sort, at every keystroke).
 */
export class TokenAxis {
  constructor(kind) {
    this.kind = kind;
    this.labels = element('div', { class: 'axis-labels' });
    this.active = element('span', { class: 'axis-label axis-active' });
    this.active.hidden = true;
    this.root = element('div', { class: `token-axis token-axis-${kind}`, 'aria-hidden': 'true' }, [this.labels, this.active]);
    this.spans = [];
    this.words = null;
    this.count = 0;
    this.step = 0;
    this.activeIndex = null;
  }

  update(words, count, lengthPx) {
    this.words = words;
    this.count = count;
    const pitch = lengthPx / Math.max(count, 1);
    const step = labelStep(pitch);
    const shown = Math.ceil(count / step);
    setVar(this.root, '--n', String(count));
    setStyle(this.root, 'fontSize', `${labelFont(pitch * step)}px`);
    while (this.spans.length < shown) {
      const span = element('span', { class: 'axis-label' });
      setVar(span, '--i', String(this.spans.length * step));
      this.spans.push(span);
      this.labels.append(span);
    }
    if (step !== this.step) {
      this.step = step;
      this.spans.forEach((span, k) => setVar(span, '--i', String(k * step)));
    }
    for (let k = 0; k < this.spans.length; k++) {
      const span = this.spans[k];
      setHidden(span, k >= shown);
      if (k < shown) setText(span, wordText(words[k * step] ?? ''));
    }
    if (this.activeIndex !== null) this.highlight(this.activeIndex);
  }

  highlight(index) {
    this.activeIndex = index ?? null;
    const show = this.activeIndex !== null && this.activeIndex < this.count && this.words !== null;
    setHidden(this.active, !show);
    if (!show) return;
    setText(this.active, wordText(this.words[index] ?? ''));
    setVar(this.active, '--i', String(index));
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
