// A line / bar / point chart on a canvas, with axes, a key, an accessible name, a readout of the
// values under the pointer (or the keyboard) and PNG / SVG / CSV / JSON export.
import { DOT_RADIUS, chartLayout, dashOf, formatTick, seriesShapes, xTicks, yTicks } from './chart-layout.js';
import { csvBlob, exportBar, jsonBlob, svgBlob } from './export.js';
import { EXPORT_INK } from './export-style.js';
import { formatValue, liveRegion } from './accessibility.js';
import { element } from './dom.js';
import { watchOnScreen } from './on-screen.js';

const EXPORT_WIDTH = 800; // CSS px of exported charts (the PNG at 2× that)

/**
 * A chart of one or more series over a shared x. update({ series: [{ name, colour, kind:
 * 'line' | 'bars' | 'points', dash?, x, y }], xLabel, yLabel, logX?, yMin?, yMax?, label }).
 */
// The ticks, grid lines and axis labels of spec `s` in layout L (chartLayout's), and the zero line
// when the y range spans 0; g's font, stroke and fill set by the caller.
function drawAxes(g, s, L, height, fg) {
  // Y ticks.
  for (const tick of yTicks(L)) {
    const y = L.py(tick);
    g.beginPath(); g.moveTo(L.pad.left, y); g.lineTo(L.pad.left + L.plotW, y); g.stroke();
    g.textAlign = 'right'; g.textBaseline = 'middle';
    g.fillText(formatTick(tick), L.pad.left - 4, y);
  }
  // X ticks.
  g.textAlign = 'center'; g.textBaseline = 'top';
  for (const tick of xTicks(s, L)) {
    const x = L.px(tick);
    g.beginPath(); g.moveTo(x, L.pad.top + L.plotH); g.lineTo(x, L.pad.top + L.plotH + 4); g.stroke();
    g.fillText(formatTick(tick), x, L.pad.top + L.plotH + 6);
  }
  g.fillText(s.xLabel, L.pad.left + L.plotW / 2, height - 14);
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
}

export class ChartFigure {
  constructor(slot, { title, height = 240 }) {
    this.title = title;
    this.height = height;
    this.spec = null;
    this.hoverX = null;
    this.root = element('div', { class: 'fig chart' });
    this.canvas = element('canvas', { class: 'chart-canvas' });
    this.canvas.setAttribute('role', 'img');
    this.canvas.setAttribute('aria-label', title); // until update() gives the full description
    this.canvas.tabIndex = 0;
    // Drawn `height` px tall: shown at that height too (lab.css's 240 px is only the default).
    this.canvas.style.height = `${height}px`;
    this.key = element('ul', { class: 'chart-key' });
    this.readout = element('p', { class: 'cell-readout', text: 'Point at the chart to read its values.' });
    this.live = liveRegion();
    this.root.append(this.canvas, this.key, this.readout, this.live, exportBar(title, {
      png: () => new Promise((resolve) => this.#paint(true, resolve)),
      svg: () => this.toSvg(),
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
    this.visible = this.dirty = false;
    watchOnScreen(this.root, (visible) => {
      this.visible = visible;
      if (visible && this.dirty) this.#paint();
    });
  }

  /** The chart as a PNG Blob, as its PNG button downloads it. */
  toPng() {
    return new Promise((resolve) => this.#paint(true, resolve));
  }

  /** The chart as an SVG Blob (paths, its words as text, a key), the size of its PNG. */
  toSvg() {
    return svgBlob('chartSvg', { title: this.title, spec: this.spec, width: EXPORT_WIDTH, height: this.height });
  }

  update(spec) {
    this.spec = spec;
    this.canvas.setAttribute('aria-label', spec.label);
    this.key.replaceChildren(...spec.series.map((s) => {
      const item = element('li', { class: 'chart-key-item' });
      const swatch = element('span', { class: `swatch swatch-${s.kind}${s.dash ? ' swatch-dashed' : ''}` });
      swatch.style.setProperty('--swatch', s.colour);
      item.append(swatch, document.createTextNode(s.name));
      return item;
    }));
    if (this.hoverIndex != null && this.hoverIndex >= (spec.series[0]?.x.length ?? 0)) this.hoverIndex = null;
    this.#paint();
    this.#read();
  }

  #paint(forExport = false, done = null) {
    const s = this.spec;
    const width = forExport ? EXPORT_WIDTH : this.width;
    // Off screen, the chart's own canvas waits (dirty) until it comes near the view.
    if (!s || width === 0 || (!forExport && (this.dirty = !this.visible))) { done?.(new Blob()); return; }
    const dpr = forExport ? 2 : (window.devicePixelRatio || 1);
    const canvas = forExport ? document.createElement('canvas') : this.canvas;
    canvas.width = Math.round(width * dpr);
    canvas.height = Math.round(this.height * dpr);
    const g = canvas.getContext('2d');
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    if (!this.colours) {
      // Resolved colours (styles/lab.css maps --fg and --border onto the canvas's color and
      // column-rule-color), so values such as light-dark() reach the canvas as plain rgb().
      const style = getComputedStyle(this.canvas);
      this.colours = { fg: style.color || '#000', grid: style.columnRuleColor || '#ccc' };
    }
    const fg = forExport ? EXPORT_INK.text : this.colours.fg;
    const grid = forExport ? EXPORT_INK.grid : this.colours.grid;
    if (forExport) { g.fillStyle = EXPORT_INK.paper; g.fillRect(0, 0, width, this.height); }
    const L = chartLayout(s, width, this.height);
    this.lastLayout = L;
    g.font = '11px system-ui, sans-serif';
    g.strokeStyle = grid;
    g.fillStyle = fg;
    g.lineWidth = 1;
    drawAxes(g, s, L, this.height, fg);
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
  g.strokeStyle = series.colour;
  g.fillStyle = series.colour;
  g.lineWidth = 2;
  g.setLineDash(dashOf(series));
  const shapes = seriesShapes(series, L);
  if (series.kind === 'bars') {
    for (const bar of shapes) g.fillRect(bar.x, bar.y, bar.width, bar.height);
  } else if (series.kind === 'points') {
    for (const dot of shapes) { g.beginPath(); g.arc(dot.x, dot.y, DOT_RADIUS, 0, 2 * Math.PI); g.fill(); }
  } else {
    g.beginPath();
    for (const run of shapes) run.forEach((p, k) => (k ? g.lineTo(p.x, p.y) : g.moveTo(p.x, p.y)));
    g.stroke();
  }
  g.setLineDash([]);
}
