// A canvas heatmap figure: one or more matrices on one shared colour scale, with a legend, an
// accessible name, a readout of the exact value under the pointer (or the keyboard cursor), the
// values as a table and PNG / SVG / CSV / JSON export. Token-indexed maps name their words on
// their axes (token-axes.js), and the pointer or keyboard cursor draws a crosshair through its row
// and column.
import { colourOf, legendGradient, paintMatrix, PALETTE_NAMES } from './heatmap.js';
import { canvasToPng, csvBlob, exportBar, jsonBlob, svgBlob } from './export.js';
import { EXPORT_INK } from './export-style.js';
import { KEY_MOVES, VALUE_TABLE_MAX, formatScaleEnd, formatValue, liveRegion, valueTable } from './accessibility.js';
import { element, setAttr, setClass, setHidden, setStyle, setText } from './dom.js';
import { ROW_ROOM_PX, TokenAxis, drawTokenLabels, gutterFor } from './token-axes.js';
import { watchOnScreen } from './on-screen.js';

// A map's canvas grows 32 cells at a time, not one per new token (paintMatrix's room).
const ROOM = 32;

// One observer for every map's size (CSS px): the labels' thinning and the painted resolution
// follow it. Its callbacks run after layout and before paint, so a new size shows at once.
const resized = new WeakMap();
const sizes = new ResizeObserver((entries) => {
  for (const entry of entries) resized.get(entry.target)?.(entry.contentRect.width, entry.contentRect.height);
});

/**
 * A heatmap figure. update() takes tiles (matrices painted side by side on one colour scale),
 * row/column label functions and a description used as the canvases' accessible name.
 * onPick(row, col) fires on click or Enter, so the page can select a token. buffers ({ hold(array),
 * release(array) }, optional) hears which arrays the figure reads: those of its spec, until the
 * next spec replaces them (web/page/view-buffers.js).
 */
/**
 * One tile's DOM: its title, the map's canvas in its frame with the selection bands, the cursor
 * and its crosshair (hidden until used), and the token axes. label: the canvas's name until
 * update() gives the full description; stop: whether it is the figure's tab stop.
 */
function tileParts(label, stop) {
  const box = element('div', { class: 'fig-tile' });
  const title = element('span', { class: 'tile-title' });
  const frame = element('div', { class: 'map-frame' });
  const canvas = element('canvas', { class: 'map-canvas' });
  canvas.setAttribute('role', 'img');
  canvas.setAttribute('aria-label', label);
  canvas.tabIndex = stop ? 0 : -1;
  const rowBand = element('div', { class: 'sel-band sel-row' });
  const colBand = element('div', { class: 'sel-band sel-col' });
  const cursor = element('div', { class: 'cell-cursor' });
  // The crosshair: the cursor's whole row and column, their words marked on the axes.
  const crossRow = element('div', { class: 'crosshair crosshair-row' });
  const crossCol = element('div', { class: 'crosshair crosshair-col' });
  for (const part of [rowBand, colBand, cursor, crossRow, crossCol]) part.hidden = true;
  const flag = element('div', { class: 'row-flag' });
  flag.hidden = true;
  frame.append(canvas, flag, rowBand, colBand, crossRow, crossCol, cursor);
  const rowAxis = new TokenAxis('rows');
  const colAxis = new TokenAxis('cols');
  const grid = element('div', { class: 'map-grid' }, [colAxis.root, rowAxis.root, frame]);
  box.append(title, grid);
  return { box, title, grid, frame, canvas, cursor, crossRow, crossCol, rowAxis, colAxis, rowBand, colBand, flag, width: 0, painted: undefined };
}

// The distinct arrays a spec's tiles read (several tiles may read one array at offsets).
const tileValues = (spec) => new Set(spec?.tiles.map((tile) => tile.values) ?? []);

export class HeatmapFigure {
  // legendTitle: the legend's title before the first spec brings one, so that the legend has its
  // lines (its ends hold a space meanwhile: styles/lab.css) and nothing moves when the values come.
  constructor(slot, { title, palette = 'viridis', onPick = null, tokenRows = false, tokenCols = false, buffers = null, legendTitle = null }) {
    this.title = title;
    this.legendBefore = legendTitle;
    this.buffers = buffers;
    this.palette = palette;
    this.onPick = onPick;
    this.tokenRows = tokenRows;
    this.tokenCols = tokenCols;
    this.tiles = [];
    this.spec = null;
    this.selected = null;
    this.waiting = null; // { promise, resolve } while the figure is stale: settled by the next update

    this.root = element('div', { class: 'fig' });
    this.tileBox = element('div', { class: 'fig-tiles' });
    const legend = element('div', { class: 'legend' });
    this.legendMin = element('span', { class: 'legend-end' });
    const ramp = element('span', { class: 'legend-ramp' });
    ramp.setAttribute('aria-hidden', 'true');
    setStyle(ramp, 'backgroundImage', legendGradient(palette));
    this.legendMax = element('span', { class: 'legend-end' });
    this.legendTitle = element('span', { class: 'legend-title' });
    legend.append(this.legendMin, ramp, this.legendMax, this.legendTitle);
    if (legendTitle !== null) setText(this.legendTitle, this.#legendText());
    this.readout = element('p', { class: 'cell-readout', text: 'Point at a cell for its value.' });
    this.live = liveRegion();
    this.stop = 0; // the tile whose canvas is the figure's one tab stop
    // The text alternative: every matrix's values, made only while it is open.
    this.valuesBox = element('details', { class: 'fig-values' });
    this.valuesBody = element('div', { class: 'fig-values-body' });
    // A scrolling box keyboard users can scroll: focusable, named (only while the details are open).
    this.valuesBody.tabIndex = 0;
    this.valuesBody.setAttribute('role', 'region');
    this.valuesBody.setAttribute('aria-label', `${title}: values`);
    this.valuesBox.append(element('summary', { text: 'Values as a table' }), this.valuesBody);
    this.valuesBox.addEventListener('toggle', () => this.#fillValues());
    // One line under the map: the values disclosure and the export menu (styles/lab.css, .fig-foot).
    const foot = element('div', { class: 'fig-foot' });
    // A figure waiting for its values (stale) exports them once they come, never the old ones.
    foot.append(this.valuesBox, exportBar(title, {
      png: () => this.#current().then(() => this.#png()),
      svg: () => this.#current().then(() => this.toSvg()),
      csv: () => this.#current().then(() => this.#csv()),
      json: () => this.#current().then(() => jsonBlob(this.#data())),
    }));
    this.root.append(this.tileBox, legend, this.readout, this.live, foot);
    slot.replaceChildren(this.root);
    this.visible = this.dirty = false;
    watchOnScreen(this.root, (visible) => {
      this.visible = visible;
      if (visible && this.dirty) this.#render();
    });
  }

  /**
   * spec: { tiles: [{ title, values, rows, cols, offset?, keepRows? }], min, max, label, legendTitle,
   *         rowLabel(i), colLabel(j), note?(tileIndex, row, col), flagRowsFrom?,
   *         rowWords?, colWords? (the words of token-indexed rows and columns, shown on the axes) }
   * keepRows(painted): given the tile last painted on this tile's canvas (undefined before the
   * first paint), how many of this tile's first rows hold its values (paintMatrix's keepRows).
   */
  update(spec) {
    const shown = this.spec;
    this.spec = spec;
    if (this.waiting) {
      this.waiting.resolve();
      this.waiting = null;
      this.root.removeAttribute('aria-busy');
    }
    // The arrays this figure reads from now on, and those it no longer does (buffers: hold and release).
    if (this.buffers) {
      for (const values of tileValues(spec)) this.buffers.hold(values);
      for (const values of tileValues(shown)) this.buffers.release(values);
    }
    // Off-screen figures wait until they scroll into view: painting a dozen 512 × 512 maps
    // nobody is looking at would cost more than the maths of a keystroke.
    this.dirty = true;
    if (this.visible) this.#render();
  }

  /**
   * Says that the values shown are not the current view's (a view that brought none for this
   * figure, e.g. a folded lane's logit terms): the picture stays until the next update, the figure
   * is aria-busy meanwhile, and an export waits for that update.
   */
  stale() {
    if (this.waiting) return;
    let resolve;
    const promise = new Promise((settle) => { resolve = settle; });
    this.waiting = { promise, resolve };
    this.root.setAttribute('aria-busy', 'true');
  }

  // Settles once the figure shows the current view's values (at once unless it is stale).
  #current() {
    return this.waiting?.promise ?? Promise.resolve();
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
      // Keep very wide or tall matrices legible: cells may stretch, the picture stays in bounds;
      // rows named by words get room for a legible label each while that is at most 2:1.
      let ratio = Math.min(3, Math.max(0.5, data.cols / data.rows));
      if (spec.rowWords && !spec.colWords && tile.width) ratio = Math.max(0.5, Math.min(ratio, tile.width / (data.rows * ROW_ROOM_PX)));
      setStyle(tile.frame, 'aspectRatio', String(ratio));
      const height = tile.width / ratio;
      // Painted at most at the device pixels it is shown on (before the first layout: in full).
      const dpr = globalThis.devicePixelRatio || 1;
      paintMatrix(tile.canvas, data.values, data.rows, data.cols, {
        palette: this.palette, min: spec.min, max: spec.max, offset: data.offset ?? 0,
        width: tile.width ? Math.ceil(tile.width * dpr) : data.cols, height: tile.width ? Math.ceil(height * dpr) : data.rows,
        room: ROOM, keepRows: data.keepRows?.(tile.painted) ?? 0,
      });
      tile.painted = data;
      setAttr(tile.canvas, 'data-rows', String(data.rows));
      setAttr(tile.canvas, 'data-cols', String(data.cols));
      setClass(tile.grid, 'has-rows', Boolean(spec.rowWords));
      setClass(tile.grid, 'has-cols', Boolean(spec.colWords));
      if (spec.rowWords && tile.width) tile.rowAxis.update(spec.rowWords, data.rows, height);
      if (spec.colWords && tile.width) tile.colAxis.update(spec.colWords, data.cols, tile.width);
      // Rows from spec.flagRowsFrom on are hatched (e.g. positions a trained table would not have).
      const flagged = spec.flagRowsFrom !== undefined && spec.flagRowsFrom < data.rows;
      setHidden(tile.flag, !flagged);
      if (flagged) setStyle(tile.flag, 'top', `${(spec.flagRowsFrom / data.rows) * 100}%`);
      setAttr(tile.canvas, 'aria-label', `${spec.label}${data.title ? ` — ${data.title}` : ''}; ` +
        `${data.rows} × ${data.cols}; colour range ${formatScaleEnd(spec.min)} to ${formatScaleEnd(spec.max)}`);
    });
    setAttr(this.tileBox, 'data-count', String(spec.tiles.length));
    setText(this.legendMin, formatScaleEnd(spec.min));
    setText(this.legendMax, formatScaleEnd(spec.max));
    setText(this.legendTitle, this.#legendText());
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
        return element('p', { text: `${name}: ${data.rows} × ${data.cols}, larger than ${VALUE_TABLE_MAX} × ${VALUE_TABLE_MAX}; its values are in the CSV download.` });
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

  /**
   * The figure as an SVG Blob: each matrix as cells (or one embedded PNG when large), the words on
   * its axes, its titles and colour key as text.
   */
  toSvg() {
    const spec = this.spec ?? { tiles: [], min: 0, max: 1 };
    return svgBlob('heatmapSvg', {
      title: this.title,
      spec,
      legend: this.#legendText(),
      colour: (value) => colourOf(this.palette, value, spec.min, spec.max),
      raster: (index) => this.#cells(spec.tiles[index]).toDataURL('image/png'),
    });
  }

  #legendText() {
    return `${this.spec?.legendTitle ?? this.legendBefore ?? ''} · ${PALETTE_NAMES[this.palette]}`;
  }

  /** Tile `t` of the spec painted on a new canvas, one pixel per cell. */
  #cells(t) {
    const cells = document.createElement('canvas');
    paintMatrix(cells, t.values, t.rows, t.cols, { palette: this.palette, min: this.spec.min, max: this.spec.max, offset: t.offset ?? 0 });
    return cells;
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
    const tile = tileParts(this.title, index === this.stop);
    this.tileBox.append(tile.box);
    // A new width re-thins the labels and repaints at the new resolution (not on every keystroke).
    resized.set(tile.frame, (width) => {
      if (Math.abs(width - tile.width) < 0.5) return;
      tile.width = width;
      if (this.spec && this.visible) this.#render();
      else this.dirty = this.spec !== null;
    });
    sizes.observe(tile.frame);
    this.#listen(tile.canvas, index);
    return tile;
  }

  // The pointer and keyboard on one tile's canvas: the cursor follows, a click or Enter picks.
  #listen(canvas, index) {
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
    canvas.addEventListener('keydown', (event) => this.#onKey(event, index));
  }

  // Enter or Space picks the cursor's cell; the arrows move it, past a tile's left or right edge
  // into the neighbouring tile, same row.
  #onKey(event, index) {
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
    const next = col < 0 ? index - 1 : col >= data.cols ? index + 1 : index;
    const target = this.spec.tiles[next];
    if (next !== index && target) {
      this.#showCursor(next, Math.min(row, target.rows - 1), col < 0 ? target.cols - 1 : 0, true);
      this.#moveStop(next);
      this.tiles[next].canvas.focus();
      return;
    }
    this.#showCursor(index, row, Math.max(0, Math.min(data.cols - 1, col)), true);
  }

  #showCursor(tileIndex, row, col, announce) {
    const data = this.spec?.tiles[tileIndex];
    if (!data || row >= data.rows || col >= data.cols) { this.#hideCursor(); return; }
    this.cursor = { tile: tileIndex, row, col };
    for (const [t, tile] of this.tiles.entries()) {
      for (const part of [tile.cursor, tile.crossRow, tile.crossCol]) setHidden(part, t !== tileIndex);
      if (t !== tileIndex) { tile.rowAxis.highlight(null); tile.colAxis.highlight(null); }
    }
    const { cursor, crossRow, crossCol, rowAxis, colAxis } = this.tiles[tileIndex];
    setStyle(cursor, 'left', `${(col / data.cols) * 100}%`);
    setStyle(cursor, 'top', `${(row / data.rows) * 100}%`);
    setStyle(cursor, 'width', `${100 / data.cols}%`);
    setStyle(cursor, 'height', `${100 / data.rows}%`);
    setStyle(crossRow, 'top', `${(row / data.rows) * 100}%`);
    setStyle(crossRow, 'height', `${100 / data.rows}%`);
    setStyle(crossCol, 'left', `${(col / data.cols) * 100}%`);
    setStyle(crossCol, 'width', `${100 / data.cols}%`);
    if (this.spec.rowWords) rowAxis.highlight(row);
    if (this.spec.colWords) colAxis.highlight(col);
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
    for (const tile of this.tiles) {
      for (const part of [tile.cursor, tile.crossRow, tile.crossCol]) setHidden(part, true);
      tile.rowAxis.highlight(null);
      tile.colAxis.highlight(null);
    }
    setText(this.readout, 'Point at a cell for its value.');
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

  // The PNG: every matrix painted afresh at full resolution (the page may show fewer pixels),
  // enlarged by whole pixels as canvasToPng does, side by side, with their words on the axes.
  #png() {
    const spec = this.spec;
    if (!spec) return canvasToPng(document.createElement('canvas'), { title: this.title });
    const gap = 4;
    const minSize = spec.tiles.length === 1 ? 480 : 960;
    const width = spec.tiles.reduce((w, t) => w + t.cols + gap, -gap);
    const scale = Math.max(1, Math.ceil(minSize / Math.max(width, ...spec.tiles.map((t) => t.rows))));
    const g = document.createElement('canvas').getContext('2d');
    const rowWords = (t) => spec.rowWords?.slice(0, t.rows);
    const left = spec.tiles.map((t) => gutterFor(g, rowWords(t), scale));
    const top = Math.max(...spec.tiles.map((t) => gutterFor(g, spec.colWords?.slice(0, t.cols), scale)));
    const out = document.createElement('canvas');
    out.width = spec.tiles.reduce((w, t, i) => w + left[i] + t.cols * scale + gap, -gap);
    out.height = top + Math.max(...spec.tiles.map((t) => t.rows)) * scale;
    const context = out.getContext('2d');
    context.fillStyle = EXPORT_INK.paper;
    context.fillRect(0, 0, out.width, out.height);
    context.imageSmoothingEnabled = false;
    let x = 0;
    spec.tiles.forEach((t, i) => {
      const cells = this.#cells(t);
      const map = { x: x + left[i], y: top, rows: t.rows, cols: t.cols, cell: scale };
      context.drawImage(cells, map.x, map.y, t.cols * scale, t.rows * scale);
      drawTokenLabels(context, { rowWords: rowWords(t), colWords: spec.colWords, map, left: left[i], top });
      x += left[i] + t.cols * scale + gap;
    });
    return canvasToPng(out, { title: spec.label ?? this.title, minSize: 1 });
  }

}
