// A line / bar / point chart on a canvas, with axes, a key, an accessible name, a readout of the
// values under the pointer (or the keyboard) and PNG / CSV / JSON export.
import { ticks as niceTicks } from 'd3-array';
import { csvBlob, exportBar, jsonBlob } from './export.js';
import { formatValue, liveRegion } from './accessibility.js';
import { element } from './dom.js';

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
      // Resolved colours (styles/lab.css maps --fg and --border onto the canvas's color and
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
