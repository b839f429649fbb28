// Where a chart's parts go (chart-figure.js paints them on a canvas, svg-writer.js writes them as
// SVG): the plot box, the value → pixel maps, the ticks and their labels, each series' dashes.
import { ticks as niceTicks } from 'd3-array';

/**
 * The layout of chart `spec` (chart-figure.js's update()) drawn `width` × `height` CSS px:
 * { pad, plotW, plotH, xMin, xMax, yMin, yMax, px(x), py(y), fromPx(p) }, x in log10 units when
 * spec.logX; bars get half a slot at each end, points 3% so their dots stay inside.
 */
export function chartLayout(spec, width, height) {
  const xs = spec.series.flatMap((series) => Array.from(series.x));
  const ys = spec.series.flatMap((series) => Array.from(series.y).filter(Number.isFinite));
  const fx = spec.logX ? Math.log10 : (v) => v;
  let xMin = Math.min(...xs.map(fx));
  let xMax = Math.max(...xs.map(fx));
  if (spec.series.some((series) => series.kind === 'bars')) { xMin -= 0.5; xMax += 0.5; }
  if (xMax === xMin) xMax = xMin + 1;
  if (spec.series.some((series) => series.kind === 'points')) {
    const margin = (xMax - xMin) * 0.03;
    xMin -= margin;
    xMax += margin;
  }
  const yMin = spec.yMin ?? Math.min(0, ...ys);
  let yMax = spec.yMax ?? Math.max(...ys) * 1.05;
  if (!(yMax > yMin)) yMax = yMin + 1;
  const pad = { left: 52, right: 12, top: 10, bottom: 40 };
  const plotW = Math.max(10, width - pad.left - pad.right);
  const plotH = height - pad.top - pad.bottom;
  return {
    pad, plotW, plotH, xMin, xMax, yMin, yMax,
    px: (x) => pad.left + ((fx(x) - xMin) / (xMax - xMin)) * plotW,
    py: (y) => pad.top + (1 - (y - yMin) / (yMax - yMin)) * plotH,
    fromPx: (p) => xMin + ((p - pad.left) / plotW) * (xMax - xMin),
  };
}

/** The y ticks of layout L: about five round values. */
export const yTicks = (L) => niceTicks(L.yMin, L.yMax, 5);

/** The x ticks of layout L for `spec`: 1-2-5 per decade on a log axis, else whole numbers ~70 px apart. */
export function xTicks(spec, L) {
  return spec.logX
    ? decadeTicks(10 ** L.xMin, 10 ** L.xMax)
    : niceTicks(L.xMin, L.xMax, Math.max(3, Math.floor(L.plotW / 70))).filter((t) => Number.isInteger(t));
}

export const DOT_RADIUS = 4; // px, of a 'points' series' dots

/**
 * `series` in layout L as pixel shapes, missing values (non-finite y) left out: 'bars' → rects
 * [{ x, y, width, height }] from zero (or the axis' bottom), 80% of one x unit wide (≥ 1 px);
 * 'points' → dot centres [{ x, y }]; 'line' → polylines [[{ x, y }, …], …], broken at each gap.
 */
export function seriesShapes(series, L) {
  const { x, y } = series;
  const width = Math.max(1, (L.plotW / (L.xMax - L.xMin)) * 0.8);
  const zero = L.py(Math.max(L.yMin, 0));
  const shapes = [];
  let run = null;
  for (let i = 0; i < x.length; i++) {
    if (!Number.isFinite(y[i])) { run = null; continue; }
    const at = { x: L.px(x[i]), y: L.py(y[i]) };
    if (series.kind === 'bars') shapes.push({ x: at.x - width / 2, y: Math.min(at.y, zero), width, height: Math.abs(zero - at.y) });
    else if (series.kind === 'points') shapes.push(at);
    else {
      if (!run) shapes.push(run = []);
      run.push(at);
    }
  }
  return shapes;
}

/** A series' dash pattern (px): its own list, [6, 4] for `dash: true`, [] (solid) otherwise. */
export function dashOf(series) {
  if (Array.isArray(series.dash)) return series.dash;
  return series.dash ? [6, 4] : [];
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

/** A tick's label: three significant digits, powers of ten as 1e+4 / 1e-4 beyond [1e-3, 1e4). */
export function formatTick(value) {
  if (value === 0) return '0';
  const abs = Math.abs(value);
  if (abs >= 1e4 || abs < 1e-3) return value.toExponential(0);
  return String(Number(value.toPrecision(3)));
}
