// Figures: canvas heatmaps (one or more matrices on one shared colour scale) and line/bar charts,
// each with a legend or axes, an accessible name, a readout of the exact value under the pointer
// (or the keyboard cursor), and PNG / CSV / JSON export.
import { ticks as niceTicks } from 'd3-array';
import { paintMatrix, paintLegend, PALETTE_NAMES } from './heatmap.js';
import { canvasToPng, csvBlob, download, fileStem, jsonBlob } from './export.js';
import { setAttr, setHidden, setStyle, setText } from './dom.js';

/** Short, exact-enough numbers for readouts: 7 significant digits, 0 stays "0". */
export function formatValue(value) {
  if (value === 0) return '0';
  if (!Number.isFinite(value)) return String(value);
  const abs = Math.abs(value);
  if (abs >= 1e-4 && abs < 1e6) return String(Number(value.toPrecision(7)));
  return value.toExponential(4);
}

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function exportBar(title, { png, csv, json }) {
  const bar = element('div', 'fig-actions');
  const button = (label, what, run) => {
    const b = element('button', 'fig-export', label);
    b.type = 'button';
    b.setAttribute('aria-label', `Download ${title} as ${what}`);
    b.addEventListener('click', run);
    bar.append(b);
  };
  button('PNG', 'PNG image', async () => download(await png(), `${fileStem(title)}.png`));
  button('CSV', 'CSV data', () => download(csv(), `${fileStem(title)}.csv`));
  button('JSON', 'JSON data', () => download(json(), `${fileStem(title)}.json`));
  return bar;
}

// One observer for every heatmap; 300 px of margin paints a figure just before it scrolls in.
const watched = new WeakMap();
const visibility = new IntersectionObserver((entries) => {
  for (const entry of entries) watched.get(entry.target)?.(entry.isIntersecting);
}, { rootMargin: '300px' });

const KEY_MOVES = {
  ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1],
};

/**
 * A region that screen readers announce politely: in the DOM, empty, from the figure's start,
 * because a live region added or switched on at the moment of the change is often not read.
 * Only keyboard moves write to it; the visible readout follows the pointer silently.
 */
function liveRegion() {
  const region = element('p', 'visually-hidden fig-live');
  region.setAttribute('aria-live', 'polite');
  return region;
}

// Matrices up to this size get their values as a table; larger ones point to the CSV.
export const VALUE_TABLE_MAX = 32;
const tableNumber = (value) => (Number.isFinite(value) && value !== 0 ? String(Number(value.toPrecision(3))) : String(value));

/** A <table> of one rows × cols matrix (value(i, j)) with its row and column labels. */
function valueTable(caption, rows, cols, value, rowLabel, colLabel) {
  const head = element('tr');
  head.append(element('td'));
  for (let j = 0; j < cols; j++) head.append(Object.assign(element('th', '', colLabel(j)), { scope: 'col' }));
  const body = element('tbody');
  for (let i = 0; i < rows; i++) {
    const tr = element('tr');
    tr.append(Object.assign(element('th', '', rowLabel(i)), { scope: 'row' }));
    for (let j = 0; j < cols; j++) tr.append(element('td', '', tableNumber(value(i, j))));
    body.append(tr);
  }
  const thead = element('thead');
  thead.append(head);
  const table = element('table', 'data-table');
  table.append(element('caption', '', caption), thead, body);
  return table;
}

/**
 * A heatmap figure. update() takes tiles (matrices painted side by side on one colour scale),
 * row/column label functions and a description used as the canvases' accessible name.
 * onPick(row, col) fires on click or Enter, so the page can select a token.
 */
export class HeatmapFigure {
  constructor(slot, { title, palette = 'viridis', onPick = null, tokenRows = false, tokenCols = false }) {
    this.title = title;
    this.palette = palette;
    this.onPick = onPick;
    this.tokenRows = tokenRows;
    this.tokenCols = tokenCols;
    this.tiles = [];
    this.spec = null;
    this.selected = null;

    this.root = element('div', 'fig');
    this.tileBox = element('div', 'fig-tiles');
    const legend = element('div', 'legend');
    this.legendMin = element('span', 'legend-end');
    const ramp = element('canvas', 'legend-ramp');
    ramp.setAttribute('aria-hidden', 'true');
    paintLegend(ramp, palette);
    this.legendMax = element('span', 'legend-end');
    this.legendTitle = element('span', 'legend-title');
    legend.append(this.legendMin, ramp, this.legendMax, this.legendTitle);
    this.readout = element('p', 'cell-readout', 'Point at a cell to read its value.');
    this.live = liveRegion();
    this.stop = 0; // the tile whose canvas is the figure's one tab stop
    // The text alternative: every matrix's values, made only while it is open.
    this.valuesBox = element('details', 'fig-values');
    this.valuesBody = element('div', 'fig-values-body');
    // A scrolling box keyboard users can scroll: focusable, named (only while the details are open).
    this.valuesBody.tabIndex = 0;
    this.valuesBody.setAttribute('role', 'region');
    this.valuesBody.setAttribute('aria-label', `${title}: values`);
    this.valuesBox.append(element('summary', '', 'Values as a table'), this.valuesBody);
    this.valuesBox.addEventListener('toggle', () => this.#fillValues());
    this.root.append(this.tileBox, legend, this.readout, this.live, this.valuesBox, exportBar(title, {
      png: () => this.#png(),
      csv: () => this.#csv(),
      json: () => jsonBlob(this.#data()),
    }));
    slot.replaceChildren(this.root);
    this.visible = false;
    this.dirty = false;
    visibility.observe(this.root);
    watched.set(this.root, (visible) => {
      this.visible = visible;
      if (visible && this.dirty) this.#render();
    });
  }

  /**
   * spec: { tiles: [{ title, values, rows, cols, offset? }], min, max, label, legendTitle,
   *         rowLabel(i), colLabel(j), note?(tileIndex, row, col), flagRowsFrom? }
   */
  update(spec) {
    this.spec = spec;
    // Off-screen figures wait until they scroll into view: painting a dozen 512 × 512 maps
    // nobody is looking at would cost more than the maths of a keystroke.
    this.dirty = true;
    if (this.visible) this.#render();
  }

  #render() {
    const spec = this.spec;
    this.dirty = false;
    while (this.tiles.length < spec.tiles.length) this.tiles.push(this.#makeTile(this.tiles.length));
    this.tiles.forEach((tile, index) => setHidden(tile.box, index >= spec.tiles.length));
    spec.tiles.forEach((data, index) => {
      const tile = this.tiles[index];
      setText(tile.title, data.title ?? '');
      setHidden(tile.title, !data.title);
      paintMatrix(tile.canvas, data.values, data.rows, data.cols,
        { palette: this.palette, min: spec.min, max: spec.max, offset: data.offset ?? 0 });
      // Keep very wide or tall matrices legible: cells may stretch, the picture stays in bounds.
      const ratio = Math.min(3, Math.max(0.5, data.cols / data.rows));
      setStyle(tile.frame, 'aspectRatio', String(ratio));
      // Rows from spec.flagRowsFrom on are hatched (e.g. positions a trained table would not have).
      const flagged = spec.flagRowsFrom !== undefined && spec.flagRowsFrom < data.rows;
      setHidden(tile.flag, !flagged);
      if (flagged) setStyle(tile.flag, 'top', `${(spec.flagRowsFrom / data.rows) * 100}%`);
      setAttr(tile.canvas, 'aria-label', `${spec.label}${data.title ? ` — ${data.title}` : ''}; ` +
        `${data.rows} × ${data.cols}; colour range ${formatValue(spec.min)} to ${formatValue(spec.max)}`);
    });
    setAttr(this.tileBox, 'data-count', String(spec.tiles.length));
    setText(this.legendMin, formatValue(spec.min));
    setText(this.legendMax, formatValue(spec.max));
    setText(this.legendTitle, `${spec.legendTitle} · ${PALETTE_NAMES[this.palette]}`);
    if (this.stop >= spec.tiles.length) this.#moveStop(0);
    if (this.cursor) this.#showCursor(this.cursor.tile, this.cursor.row, this.cursor.col, false);
    this.setSelectedToken(this.selected);
    this.#fillValues();
  }

  #fillValues() {
    const spec = this.spec;
    if (!this.valuesBox.open || !spec) return;
    this.valuesBody.replaceChildren(...spec.tiles.map((data) => {
      const name = data.title ? `${spec.label} — ${data.title}` : spec.label;
      if (data.rows > VALUE_TABLE_MAX || data.cols > VALUE_TABLE_MAX) {
        return element('p', '', `${name}: ${data.rows} × ${data.cols}, larger than ${VALUE_TABLE_MAX} × ${VALUE_TABLE_MAX}; its values are in the CSV download.`);
      }
      const offset = data.offset ?? 0;
      return valueTable(`${name} (values to 3 significant digits; the CSV has them in full)`, data.rows, data.cols,
        (i, j) => data.values[offset + i * data.cols + j], spec.rowLabel, spec.colLabel);
    }));
  }

  // Roving tab stop: one canvas of the figure is in the tab order, the arrows move between tiles.
  #moveStop(index) {
    if (index === this.stop) return;
    this.tiles[this.stop].canvas.tabIndex = -1;
    this.tiles[index].canvas.tabIndex = 0;
    this.stop = index;
  }

  /** The figure as a PNG Blob, as its PNG button downloads it. */
  toPng() {
    return this.#png();
  }

  /** Highlights token `index`'s row (and column for token × token maps) in every tile. */
  setSelectedToken(index) {
    this.selected = index;
    for (const [t, tile] of this.tiles.entries()) {
      const data = this.spec?.tiles[t];
      const show = index !== null && data && index < data.rows;
      setHidden(tile.rowBand, !(show && this.tokenRows));
      setHidden(tile.colBand, !(show && this.tokenCols && index < data.cols));
      if (!show) continue;
      setStyle(tile.rowBand, 'top', `${(index / data.rows) * 100}%`);
      setStyle(tile.rowBand, 'height', `${100 / data.rows}%`);
      setStyle(tile.colBand, 'left', `${(index / data.cols) * 100}%`);
      setStyle(tile.colBand, 'width', `${100 / data.cols}%`);
    }
  }

  #makeTile(index) {
    const box = element('div', 'fig-tile');
    const title = element('span', 'tile-title');
    const frame = element('div', 'map-frame');
    const canvas = element('canvas', 'map-canvas');
    canvas.setAttribute('role', 'img');
    canvas.tabIndex = index === this.stop ? 0 : -1;
    const rowBand = element('div', 'sel-band sel-row');
    const colBand = element('div', 'sel-band sel-col');
    const cursor = element('div', 'cell-cursor');
    rowBand.hidden = true;
    colBand.hidden = true;
    cursor.hidden = true;
    const flag = element('div', 'row-flag');
    flag.hidden = true;
    frame.append(canvas, flag, rowBand, colBand, cursor);
    box.append(title, frame);
    this.tileBox.append(box);
    const tile = { box, title, frame, canvas, cursor, rowBand, colBand, flag };

    const cellAt = (event) => {
      const data = this.spec?.tiles[index];
      if (!data) return null;
      const rect = canvas.getBoundingClientRect();
      const col = Math.floor(((event.clientX - rect.left) / rect.width) * data.cols);
      const row = Math.floor(((event.clientY - rect.top) / rect.height) * data.rows);
      return row >= 0 && col >= 0 && row < data.rows && col < data.cols ? { row, col } : null;
    };
    canvas.addEventListener('pointermove', (event) => {
      const cell = cellAt(event);
      if (cell) this.#showCursor(index, cell.row, cell.col, false);
    });
    canvas.addEventListener('pointerleave', () => {
      if (canvas.getRootNode().activeElement !== canvas) this.#hideCursor();
    });
    canvas.addEventListener('click', (event) => {
      const cell = cellAt(event);
      if (cell && this.onPick) this.onPick(cell.row, cell.col);
    });
    canvas.addEventListener('focus', () => {
      if (!this.cursor || this.cursor.tile !== index) this.#showCursor(index, 0, 0, true);
    });
    canvas.addEventListener('blur', () => this.#hideCursor());
    canvas.addEventListener('keydown', (event) => {
      const data = this.spec?.tiles[index];
      if (!data) return;
      const at = this.cursor && this.cursor.tile === index ? this.cursor : { row: 0, col: 0 };
      if (event.key === 'Enter' || event.key === ' ') {
        event.preventDefault();
        this.onPick?.(at.row, at.col);
        return;
      }
      const move = KEY_MOVES[event.key];
      if (!move) return;
      event.preventDefault(); // arrows would otherwise scroll the page
      const row = Math.max(0, Math.min(data.rows - 1, at.row + move[0]));
      const col = at.col + move[1];
      // Past a tile's left or right edge: the neighbouring tile, same row.
      const next = col < 0 ? index - 1 : col >= data.cols ? index + 1 : index;
      const target = this.spec.tiles[next];
      if (next !== index && target) {
        this.#showCursor(next, Math.min(row, target.rows - 1), col < 0 ? target.cols - 1 : 0, true);
        this.#moveStop(next);
        this.tiles[next].canvas.focus();
        return;
      }
      this.#showCursor(index, row, Math.max(0, Math.min(data.cols - 1, col)), true);
    });
    return tile;
  }

  #showCursor(tileIndex, row, col, announce) {
    const data = this.spec?.tiles[tileIndex];
    if (!data || row >= data.rows || col >= data.cols) { this.#hideCursor(); return; }
    this.cursor = { tile: tileIndex, row, col };
    for (const [t, tile] of this.tiles.entries()) setHidden(tile.cursor, t !== tileIndex);
    const { cursor } = this.tiles[tileIndex];
    setStyle(cursor, 'left', `${(col / data.cols) * 100}%`);
    setStyle(cursor, 'top', `${(row / data.rows) * 100}%`);
    setStyle(cursor, 'width', `${100 / data.cols}%`);
    setStyle(cursor, 'height', `${100 / data.rows}%`);
    const value = data.values[(data.offset ?? 0) + row * data.cols + col];
    const note = this.spec.note?.(tileIndex, row, col) ?? '';
    const where = `${this.spec.rowLabel(row)}, ${this.spec.colLabel(col)}`;
    const text = `${data.title ? `${data.title}: ` : ''}${where} = ${formatValue(value)}${note}`;
    setText(this.readout, text);
    // Screen readers hear the cell only when the keyboard moved it, not on every mouse twitch.
    if (announce) setText(this.live, text);
  }

  #hideCursor() {
    this.cursor = null;
    for (const tile of this.tiles) setHidden(tile.cursor, true);
    setText(this.readout, 'Point at a cell to read its value.');
  }

  #data() {
    const spec = this.spec;
    if (!spec) return { title: this.title };
    return {
      title: this.title,
      description: spec.label,
      colourRange: [spec.min, spec.max],
      palette: this.palette,
      matrices: spec.tiles.map((t) => ({
        title: t.title ?? this.title,
        rows: t.rows,
        cols: t.cols,
        rowLabels: Array.from({ length: t.rows }, (_, i) => spec.rowLabel(i)),
        colLabels: Array.from({ length: t.cols }, (_, j) => spec.colLabel(j)),
        values: t.values.subarray((t.offset ?? 0), (t.offset ?? 0) + t.rows * t.cols),
      })),
    };
  }

  #csv() {
    const spec = this.spec;
    const rows = [];
    for (const t of spec?.tiles ?? []) {
      const offset = t.offset ?? 0;
      for (let i = 0; i < t.rows; i++) {
        for (let j = 0; j < t.cols; j++) {
          rows.push([t.title ?? this.title, i, spec.rowLabel(i), j, spec.colLabel(j), t.values[offset + i * t.cols + j]]);
        }
      }
    }
    return csvBlob(['matrix', 'row', 'row_label', 'column', 'column_label', 'value'], rows);
  }

  #png() {
    const visible = this.tiles.filter((tile) => !tile.box.hidden);
    if (visible.length === 1) return canvasToPng(visible[0].canvas, { title: this.spec?.label ?? this.title });
    // Several matrices: lay them side by side at a common enlargement.
    const gap = 4;
    const strip = document.createElement('canvas');
    strip.width = visible.reduce((w, tile) => w + tile.canvas.width + gap, 0);
    strip.height = Math.max(...visible.map((tile) => tile.canvas.height));
    const context = strip.getContext('2d');
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, strip.width, strip.height);
    let x = 0;
    for (const tile of visible) {
      context.drawImage(tile.canvas, x, 0);
      x += tile.canvas.width + gap;
    }
    return canvasToPng(strip, { title: this.spec?.label ?? this.title, minSize: 960 });
  }
}

/** Okabe–Ito colours: distinguishable with every common colour-vision deficiency. */
export const SERIES_COLOURS = {
  additive: '#E69F00',
  concatenated: '#0072B2',
  rotary: '#009E73',
  reference: '#CC79A7',
  other: '#56B4E9',
};

/**
 * A chart of one or more series over a shared x. update({ series: [{ name, colour, kind:
 * 'line' | 'bars' | 'points', dash?, x, y }], xLabel, yLabel, logX?, yMin?, yMax?, label }).
 */
export class ChartFigure {
  constructor(slot, { title, height = 240 }) {
    this.title = title;
    this.height = height;
    this.spec = null;
    this.hoverX = null;
    this.root = element('div', 'fig chart');
    this.canvas = element('canvas', 'chart-canvas');
    this.canvas.setAttribute('role', 'img');
    this.canvas.setAttribute('aria-label', title); // until update() gives the full description
    this.canvas.tabIndex = 0;
    // Drawn `height` px tall: shown at that height too (style.css's 240 px is only the default).
    this.canvas.style.height = `${height}px`;
    this.key = element('ul', 'chart-key');
    this.readout = element('p', 'cell-readout', 'Point at the chart to read its values.');
    this.live = liveRegion();
    this.root.append(this.canvas, this.key, this.readout, this.live, exportBar(title, {
      png: () => new Promise((resolve) => this.#paint(true, resolve)),
      csv: () => this.#csv(),
      json: () => jsonBlob({ title: this.title, description: this.spec?.label, series: this.spec?.series }),
    }));
    slot.replaceChildren(this.root);
    this.canvas.addEventListener('pointermove', (event) => this.#hover(event));
    this.canvas.addEventListener('pointerleave', () => { this.hoverIndex = null; this.#paint(); this.#read(); });
    this.canvas.addEventListener('keydown', (event) => {
      const first = this.spec?.series[0];
      if (!first || !(event.key === 'ArrowLeft' || event.key === 'ArrowRight')) return;
      event.preventDefault();
      const step = event.key === 'ArrowLeft' ? -1 : 1;
      this.hoverIndex = Math.max(0, Math.min(first.x.length - 1, (this.hoverIndex ?? -step) + step));
      this.#paint();
      this.#read(true);
    });
    // Width comes from the observer, so painting never forces a layout in the middle of a
    // keystroke; colours are read once per colour-scheme change for the same reason.
    this.width = 0;
    new ResizeObserver(([entry]) => {
      const width = Math.round(entry.contentRect.width);
      if (width !== this.width) { this.width = width; this.#paint(); }
    }).observe(this.canvas);
    matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => { this.colours = null; this.#paint(); });
  }

  /** The chart as a PNG Blob, as its PNG button downloads it. */
  toPng() {
    return new Promise((resolve) => this.#paint(true, resolve));
  }

  update(spec) {
    this.spec = spec;
    this.canvas.setAttribute('aria-label', spec.label);
    this.key.replaceChildren(...spec.series.map((s) => {
      const item = element('li', 'chart-key-item');
      const swatch = element('span', `swatch swatch-${s.kind}${s.dash ? ' swatch-dashed' : ''}`);
      swatch.style.setProperty('--swatch', s.colour);
      item.append(swatch, document.createTextNode(s.name));
      return item;
    }));
    if (this.hoverIndex != null && this.hoverIndex >= (spec.series[0]?.x.length ?? 0)) this.hoverIndex = null;
    this.#paint();
    this.#read();
  }

  #layout(width) {
    const s = this.spec;
    const xs = s.series.flatMap((series) => Array.from(series.x));
    const ys = s.series.flatMap((series) => Array.from(series.y).filter(Number.isFinite));
    const fx = s.logX ? Math.log10 : (v) => v;
    let xMin = Math.min(...xs.map(fx));
    let xMax = Math.max(...xs.map(fx));
    if (s.series.some((series) => series.kind === 'bars')) { xMin -= 0.5; xMax += 0.5; }
    if (xMax === xMin) xMax = xMin + 1;
    if (s.series.some((series) => series.kind === 'points')) {
      // Room for the dots at the ends.
      const margin = (xMax - xMin) * 0.03;
      xMin -= margin;
      xMax += margin;
    }
    let yMin = s.yMin ?? Math.min(0, ...ys);
    let yMax = s.yMax ?? Math.max(...ys) * 1.05;
    if (!(yMax > yMin)) yMax = yMin + 1;
    const pad = { left: 52, right: 12, top: 10, bottom: 40 };
    const plotW = Math.max(10, width - pad.left - pad.right);
    const plotH = this.height - pad.top - pad.bottom;
    return {
      pad, plotW, plotH, xMin, xMax, yMin, yMax,
      px: (x) => pad.left + ((fx(x) - xMin) / (xMax - xMin)) * plotW,
      py: (y) => pad.top + (1 - (y - yMin) / (yMax - yMin)) * plotH,
      fromPx: (p) => xMin + ((p - pad.left) / plotW) * (xMax - xMin),
    };
  }

  #paint(forExport = false, done = null) {
    const s = this.spec;
    const width = forExport ? 800 : this.width;
    if (!s || width === 0) { done?.(new Blob()); return; }
    const dpr = forExport ? 2 : (window.devicePixelRatio || 1);
    const canvas = forExport ? document.createElement('canvas') : this.canvas;
    canvas.width = Math.round(width * dpr);
    canvas.height = Math.round(this.height * dpr);
    const g = canvas.getContext('2d');
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    if (!this.colours) {
      // Resolved colours (style.css maps --fg and --border onto the canvas's color and
      // column-rule-color), so values such as light-dark() reach the canvas as plain rgb().
      const style = getComputedStyle(this.canvas);
      this.colours = { fg: style.color || '#000', grid: style.columnRuleColor || '#ccc' };
    }
    const fg = forExport ? '#1c1d1f' : this.colours.fg;
    const grid = forExport ? '#d5d7dc' : this.colours.grid;
    if (forExport) { g.fillStyle = '#fff'; g.fillRect(0, 0, width, this.height); }
    const L = this.#layout(width);
    this.lastLayout = L;
    g.font = '11px system-ui, sans-serif';
    g.strokeStyle = grid;
    g.fillStyle = fg;
    g.lineWidth = 1;
    // Y ticks.
    for (const tick of niceTicks(L.yMin, L.yMax, 5)) {
      const y = L.py(tick);
      g.beginPath(); g.moveTo(L.pad.left, y); g.lineTo(L.pad.left + L.plotW, y); g.stroke();
      g.textAlign = 'right'; g.textBaseline = 'middle';
      g.fillText(formatTick(tick), L.pad.left - 4, y);
    }
    // X ticks.
    const xTicks = s.logX
      ? decadeTicks(10 ** L.xMin, 10 ** L.xMax)
      : niceTicks(L.xMin, L.xMax, Math.max(3, Math.floor(L.plotW / 70))).filter((t) => Number.isInteger(t));
    g.textAlign = 'center'; g.textBaseline = 'top';
    for (const tick of xTicks) {
      const x = L.px(tick);
      g.beginPath(); g.moveTo(x, L.pad.top + L.plotH); g.lineTo(x, L.pad.top + L.plotH + 4); g.stroke();
      g.fillText(formatTick(tick), x, L.pad.top + L.plotH + 6);
    }
    g.fillText(s.xLabel, L.pad.left + L.plotW / 2, this.height - 14);
    g.save();
    g.translate(11, L.pad.top + L.plotH / 2);
    g.rotate(-Math.PI / 2);
    g.textBaseline = 'middle';
    g.fillText(s.yLabel, 0, 0);
    g.restore();
    if (L.yMin < 0 && L.yMax > 0) {
      g.strokeStyle = fg; g.globalAlpha = 0.5;
      g.beginPath(); g.moveTo(L.pad.left, L.py(0)); g.lineTo(L.pad.left + L.plotW, L.py(0)); g.stroke();
      g.globalAlpha = 1;
    }
    g.save();
    g.beginPath(); g.rect(L.pad.left, L.pad.top - 2, L.plotW, L.plotH + 4); g.clip();
    for (const series of s.series) drawSeries(g, series, L);
    g.restore();
    if (!forExport && this.hoverIndex != null && s.series[0]) {
      const x = L.px(s.series[0].x[this.hoverIndex]);
      g.strokeStyle = fg; g.setLineDash([3, 3]);
      g.beginPath(); g.moveTo(x, L.pad.top); g.lineTo(x, L.pad.top + L.plotH); g.stroke();
      g.setLineDash([]);
    }
    if (forExport) {
      g.fillStyle = fg; g.textAlign = 'left'; g.textBaseline = 'top';
      canvas.toBlob(done, 'image/png');
    }
  }

  #hover(event) {
    const first = this.spec?.series[0];
    if (!first || !this.lastLayout) return;
    const rect = this.canvas.getBoundingClientRect();
    const xValue = this.lastLayout.fromPx(event.clientX - rect.left);
    const target = this.spec.logX ? 10 ** xValue : xValue;
    let best = 0;
    for (let i = 1; i < first.x.length; i++) {
      if (Math.abs(first.x[i] - target) < Math.abs(first.x[best] - target)) best = i;
    }
    this.hoverIndex = best;
    this.#paint();
    this.#read();
  }

  #read(announce = false) {
    const s = this.spec;
    if (!s || this.hoverIndex == null) {
      this.readout.textContent = 'Point at the chart (or focus it and use ← →) to read its values.';
      return;
    }
    const x = s.series[0].x[this.hoverIndex];
    const values = [];
    for (const series of s.series) {
      const i = Array.prototype.indexOf.call(series.x, x);
      if (i < 0) continue;
      // Series drawn normalised carry their raw values too; the readout gives both.
      const raw = series.raw ? ` (raw ${formatValue(series.raw[i])})` : '';
      values.push(`${series.name}: ${formatValue(series.y[i])}${raw}`);
    }
    this.readout.textContent = `${s.xLabel} = ${formatValue(x)}: ${values.join('; ')}`;
    if (announce) this.live.textContent = this.readout.textContent;
  }

  #csv() {
    const s = this.spec;
    if (!s) return csvBlob(['x'], []);
    const rows = [];
    for (const series of s.series) {
      for (let i = 0; i < series.x.length; i++) rows.push([series.name, series.x[i], series.y[i]]);
    }
    return csvBlob(['series', s.xLabel, s.yLabel], rows);
  }
}

function drawSeries(g, series, L) {
  const { x, y } = series;
  g.strokeStyle = series.colour;
  g.fillStyle = series.colour;
  g.lineWidth = 2;
  g.setLineDash(Array.isArray(series.dash) ? series.dash : series.dash ? [6, 4] : []);
  if (series.kind === 'bars') {
    const barWidth = Math.max(1, (L.plotW / (L.xMax - L.xMin)) * 0.8);
    const zero = L.py(Math.max(L.yMin, 0));
    for (let i = 0; i < x.length; i++) {
      if (!Number.isFinite(y[i])) continue;
      const top = L.py(y[i]);
      g.fillRect(L.px(x[i]) - barWidth / 2, Math.min(top, zero), barWidth, Math.abs(zero - top));
    }
  } else if (series.kind === 'points') {
    for (let i = 0; i < x.length; i++) {
      if (!Number.isFinite(y[i])) continue;
      g.beginPath(); g.arc(L.px(x[i]), L.py(y[i]), 4, 0, 2 * Math.PI); g.fill();
    }
  } else {
    g.beginPath();
    let pen = false;
    for (let i = 0; i < x.length; i++) {
      if (!Number.isFinite(y[i])) { pen = false; continue; }
      if (pen) g.lineTo(L.px(x[i]), L.py(y[i]));
      else g.moveTo(L.px(x[i]), L.py(y[i]));
      pen = true;
    }
    g.stroke();
  }
  g.setLineDash([]);
}

function decadeTicks(min, max) {
  const ticks = [];
  for (let e = Math.floor(Math.log10(min)); e <= Math.ceil(Math.log10(max)); e++) {
    for (const m of [1, 2, 5]) {
      const t = m * 10 ** e;
      if (t >= min * 0.999 && t <= max * 1.001) ticks.push(t);
    }
  }
  return ticks;
}

function formatTick(value) {
  if (value === 0) return '0';
  const abs = Math.abs(value);
  if (abs >= 1e4 || abs < 1e-3) return value.toExponential(0);
  return String(Number(value.toPrecision(3)));
}

/**
 * A table of numbers with the same export buttons as the pictures (its PNG is the table drawn
 * as text). update({ columns: [..], rows: [[..]], label, note? }).
 */
export class TableFigure {
  constructor(slot, { title }) {
    this.title = title;
    this.spec = null;
    this.root = element('div', 'fig table-fig');
    this.table = element('table', 'data-table');
    this.caption = element('caption', 'visually-hidden');
    this.head = element('thead');
    this.body = element('tbody');
    this.table.append(this.caption, this.head, this.body);
    const scroller = element('div', 'table-scroll');
    scroller.append(this.table);
    this.note = element('p', 'table-note');
    this.root.append(scroller, this.note, exportBar(title, {
      png: () => this.#png(),
      csv: () => csvBlob(this.spec?.columns ?? [], this.spec?.rows ?? []),
      json: () => jsonBlob({ title: this.title, description: this.spec?.label, columns: this.spec?.columns, rows: this.spec?.rows }),
    }));
    slot.replaceChildren(this.root);
  }

  /** The table drawn as a PNG Blob, as its PNG button downloads it. */
  toPng() {
    return this.#png();
  }

  update(spec) {
    this.spec = spec;
    this.caption.textContent = spec.label;
    const headRow = element('tr');
    headRow.append(...spec.columns.map((c) => { const th = element('th', '', c); th.scope = 'col'; return th; }));
    this.head.replaceChildren(headRow);
    this.body.replaceChildren(...spec.rows.map((row, r) => {
      const tr = element('tr');
      row.forEach((cell, c) => {
        const td = element(c === 0 ? 'th' : 'td', '', spec.format ? spec.format(cell, r, c) : String(cell));
        if (c === 0) td.scope = 'row';
        tr.append(td);
      });
      return tr;
    }));
    this.note.textContent = spec.note ?? '';
    this.note.hidden = !spec.note;
  }

  #png() {
    const spec = this.spec ?? { columns: [], rows: [] };
    const text = (cell, r, c) => (spec.format ? spec.format(cell, r, c) : String(cell));
    const lines = [spec.columns, ...spec.rows.map((row, r) => row.map((cell, c) => text(cell, r, c)))];
    const colWidth = 180;
    const canvas = document.createElement('canvas');
    canvas.width = colWidth * Math.max(1, spec.columns.length) + 20;
    canvas.height = 40 + lines.length * 24 + 30;
    const g = canvas.getContext('2d');
    g.fillStyle = '#fff'; g.fillRect(0, 0, canvas.width, canvas.height);
    g.fillStyle = '#1c1d1f';
    g.font = 'bold 14px system-ui, sans-serif';
    g.fillText(spec.label ?? this.title, 10, 22, canvas.width - 20);
    lines.forEach((line, r) => {
      g.font = `${r === 0 ? 'bold ' : ''}13px system-ui, sans-serif`;
      line.forEach((cell, c) => g.fillText(String(cell), 10 + c * colWidth, 50 + r * 24, colWidth - 8));
    });
    if (spec.note) { g.font = '12px system-ui, sans-serif'; g.fillText(spec.note, 10, canvas.height - 12, canvas.width - 20); }
    return new Promise((resolve) => canvas.toBlob(resolve, 'image/png'));
  }
}
