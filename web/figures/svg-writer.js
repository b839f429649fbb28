// The figures as standalone SVG files, for papers and slides: heatmaps as cells (or, past
// CELL_LIMIT cells, one embedded PNG) with their words and axes as text, charts as paths with text
// labels and a key, tables as text. Pure: a scene in, the file's text out (no DOM), so it runs and
// is tested in Node; export.js loads it the first time a reader asks for an SVG.
// Every string from a scene is written through text() or attr(): user words never become markup.
// Lengths are CSS px; coordinates are rounded to 0.01 px.
import { DOT_RADIUS, chartLayout, dashOf, formatTick, seriesShapes, xTicks, yTicks } from './chart-layout.js';
import { EXPORT_FONT, EXPORT_INK } from './export-style.js';
import { formatScaleEnd } from './accessibility.js';
import { labelFont, labelStep, wordText } from './token-axes.js';

// Up to this many cells a map is written as <rect>s (runs of equal colour merged), beyond it as
// one PNG. Measured here on n × n attention-like maps (softmax rows of seeded random logits, a
// strong diagonal; viridis): n = 64 wrote 3,236 rects, 194 KB (as a PNG: 8 KB), drawn by Chromium
// in 13 ms; n = 128, 720 KB (PNG 28 KB), 45 ms; n = 256, 2.5 MB (PNG 98 KB), 87 ms. So every cell
// stays a shape an editor can recolour up to 64 tokens, and files stay under ~200 KB.
export const CELL_LIMIT = 4096;

const MARGIN = 8;
const TITLE_PX = 14;
const CAPTION_PX = 12;
const LINE = 1.35; // line height, in font sizes
const CHAR_EM = 0.58; // a sans-serif character's mean width, in font sizes (no fonts to measure here)

// Characters XML 1.0 cannot carry at all (C0 controls but tab and newlines, lone surrogates,
// U+FFFE/U+FFFF): dropped, so any word yields a well-formed file.
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** `value` as XML character data or an attribute value: invalid characters dropped, & < > " ' escaped. */
export function escapeXml(value) {
  return String(value).replace(NOT_XML, '').replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

const r = (v) => Math.round(v * 100) / 100;

/** Attributes from an object: undefined/null/false left out, numbers rounded, every value escaped. */
function attrs(map) {
  let out = '';
  for (const [name, value] of Object.entries(map)) {
    if (value === undefined || value === null || value === false) continue;
    out += ` ${name}="${escapeXml(typeof value === 'number' ? r(value) : value)}"`;
  }
  return out;
}

/** A <text> element: `content` escaped, `a` its attributes. */
function text(content, a) {
  return `<text${attrs(a)}>${escapeXml(content)}</text>`;
}

const textWidth = (content, size) => String(content).length * size * CHAR_EM;

/** `content` broken at spaces into lines of at most `width` px at `size` px. */
function wrap(content, width, size) {
  const most = Math.max(8, Math.floor(width / (size * CHAR_EM)));
  const lines = [];
  let line = '';
  for (const word of String(content).split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > most) { lines.push(line); line = word; } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * The heading of every file: the figure's title (bold) and its description under it, wrapped to
 * `width`. → { svg, height }.
 */
function heading(title, description, width) {
  let y = MARGIN;
  const parts = [];
  const blocks = [[title, TITLE_PX, 'bold']];
  if (description && description !== title) blocks.push([description, CAPTION_PX, undefined]);
  for (const [content, size, weight] of blocks) {
    for (const line of wrap(content, width - 2 * MARGIN, size)) {
      y += size * LINE;
      parts.push(text(line, { x: MARGIN, y: y - size * 0.3, 'font-size': size, 'font-weight': weight }));
    }
  }
  return { svg: parts.join(''), height: y + MARGIN };
}

/** The standalone file: its size, accessible name (<title>) and description (<desc>), then `body`. */
function svgFile({ width, height, title, description, body }) {
  const w = Math.ceil(width);
  const h = Math.ceil(height);
  return '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<svg xmlns="http://www.w3.org/2000/svg"${attrs({ width: w, height: h, viewBox: `0 0 ${w} ${h}`, role: 'img', 'font-family': EXPORT_FONT, 'font-size': 11, fill: EXPORT_INK.text })}>\n` +
    `<title>${escapeXml(title)}</title>\n<desc>${escapeXml(description || title)}</desc>\n` +
    `<rect${attrs({ width: w, height: h, fill: EXPORT_INK.paper })}/>\n${body}\n</svg>\n`;
}

const hex = ([red, green, blue]) => `#${((1 << 24) | (red << 16) | (green << 8) | blue).toString(16).slice(1)}`;

/**
 * One matrix as <rect>s in a group scaled to `cell` px per cell: each row's runs of one colour
 * merged into one rect (attention maps are mostly runs of near-zero weights).
 */
function cellRects(tile, colour, x, y, cell) {
  const offset = tile.offset ?? 0;
  const rects = [];
  for (let i = 0; i < tile.rows; i++) {
    let j = 0;
    while (j < tile.cols) {
      const fill = hex(colour(tile.values[offset + i * tile.cols + j]));
      let end = j + 1;
      while (end < tile.cols && hex(colour(tile.values[offset + i * tile.cols + end])) === fill) end++;
      rects.push(`<rect x="${j}" y="${i}" width="${end - j}" height="1" fill="${fill}"/>`);
      j = end;
    }
  }
  return `<g${attrs({ transform: `translate(${r(x)} ${r(y)}) scale(${cell})`, 'shape-rendering': 'crispEdges' })}>${rects.join('')}</g>`;
}

/** A token axis's words as text, thinned as on the page and in the PNG (token-axes.js). */
function tokenLabels(words, count, { x, y, cell, gutter, rows }) {
  const step = labelStep(cell);
  const size = labelFont(cell * step);
  const room = gutter - 6;
  const out = [];
  for (let k = 0; k < count; k += step) {
    const word = wordText(words[k] ?? '');
    const squeeze = textWidth(word, size) > room ? { textLength: room, lengthAdjust: 'spacingAndGlyphs' } : {};
    const at = (k + 0.5) * cell;
    out.push(rows
      ? text(word, { x: x - 4, y: y + at + size * 0.35, 'font-size': size, 'text-anchor': 'end', ...squeeze })
      : text(word, { transform: `translate(${r(x + at + size * 0.35)} ${r(y - 4)}) rotate(-90)`, 'font-size': size, ...squeeze }));
  }
  return out.join('');
}

/** A token gutter's width: the longest shown word, within [24, 120] px (as the PNG's gutterFor). */
function gutterFor(words, count, cell) {
  if (!words) return 0;
  const size = labelFont(cell * labelStep(cell));
  let widest = 0;
  for (let k = 0; k < count; k++) widest = Math.max(widest, textWidth(wordText(words[k] ?? ''), size));
  return Math.ceil(Math.min(120, Math.max(24, widest + 10)));
}

const EDGE_PX = 10; // the font of the first and last labels on a numbered axis

/**
 * A heatmap figure (heatmap-figure.js) as SVG. scene: { title, spec (the figure's update() spec),
 * legend (the key's words), colour(value) → [r, g, b] (the figure's palette on spec's range),
 * raster(tileIndex) → a PNG data URL of that tile, one pixel per cell (used past CELL_LIMIT) }.
 * Axes of words show the words (spec.rowWords / colWords); numbered axes name their first and
 * last row and column (spec.rowLabel / colLabel).
 */
export function heatmapSvg({ title, spec, legend, colour, raster }) {
  const tiles = spec.tiles;
  const gap = 12;
  const widest = tiles.reduce((w, t) => w + t.cols, 0);
  const tallest = Math.max(1, ...tiles.map((t) => t.rows));
  const cell = Math.max(1, Math.ceil((tiles.length === 1 ? 480 : 960) / Math.max(widest, tallest)));
  const edge = (label, count) => (count > 1 ? [label(0), label(count - 1)] : [label(0)]);
  const left = tiles.map((t) => (spec.rowWords
    ? gutterFor(spec.rowWords, t.rows, cell)
    : Math.ceil(Math.max(...edge(spec.rowLabel, t.rows).map((l) => textWidth(l, EDGE_PX))) + 8)));
  const top = spec.colWords
    ? Math.max(0, ...tiles.map((t) => gutterFor(spec.colWords, t.cols, cell)))
    : EDGE_PX * LINE + 4;
  const titled = tiles.some((t) => t.title) ? CAPTION_PX * LINE + 4 : 0;
  const mapsWidth = tiles.reduce((w, t, i) => w + left[i] + t.cols * cell + gap, -gap);
  const width = Math.max(360, mapsWidth + 2 * MARGIN);
  const head = heading(title, spec.label, width);
  const y0 = head.height + titled + top;
  const body = [head.svg];
  let x = MARGIN;
  tiles.forEach((t, i) => {
    const mapX = x + left[i];
    if (t.title) body.push(text(t.title, { x: mapX, y: y0 - top - 6, 'font-size': CAPTION_PX, 'font-weight': 'bold' }));
    body.push(t.rows * t.cols <= CELL_LIMIT
      ? cellRects(t, colour, mapX, y0, cell)
      : `<image${attrs({ x: mapX, y: y0, width: t.cols * cell, height: t.rows * cell, preserveAspectRatio: 'none', style: 'image-rendering:pixelated', href: raster(i) })}/>`);
    if (spec.rowWords) body.push(tokenLabels(spec.rowWords, t.rows, { x: mapX, y: y0, cell, gutter: left[i], rows: true }));
    else {
      const [first, last] = edge(spec.rowLabel, t.rows);
      body.push(text(first, { x: mapX - 4, y: y0 + EDGE_PX, 'font-size': EDGE_PX, 'text-anchor': 'end' }));
      if (last !== undefined) body.push(text(last, { x: mapX - 4, y: y0 + t.rows * cell, 'font-size': EDGE_PX, 'text-anchor': 'end' }));
    }
    if (spec.colWords) body.push(tokenLabels(spec.colWords, t.cols, { x: mapX, y: y0, cell, gutter: top, rows: false }));
    else {
      const [first, last] = edge(spec.colLabel, t.cols);
      body.push(text(first, { x: mapX, y: y0 - 4, 'font-size': EDGE_PX }));
      if (last !== undefined) body.push(text(last, { x: mapX + t.cols * cell, y: y0 - 4, 'font-size': EDGE_PX, 'text-anchor': 'end' }));
    }
    x = mapX + t.cols * cell + gap;
  });
  const legendY = y0 + tallest * cell + 12;
  body.push(colourKey({ x: MARGIN, y: legendY, width: Math.min(240, width - 2 * MARGIN), min: spec.min, max: spec.max, legend, colour }));
  return svgFile({ width, height: legendY + 10 + CAPTION_PX * LINE * 2 + MARGIN, title, description: spec.label, body: body.join('\n') });
}

/** The colour scale: a gradient bar from `min` to `max`, both ends' values under it, then `legend`. */
function colourKey({ x, y, width, min, max, legend, colour }) {
  const stops = [];
  const STOPS = 16;
  for (let k = 0; k <= STOPS; k++) {
    stops.push(`<stop${attrs({ offset: k / STOPS, 'stop-color': hex(colour(min + (k / STOPS) * (max - min))) })}/>`);
  }
  const below = y + 10 + CAPTION_PX;
  return `<defs><linearGradient id="colour-scale">${stops.join('')}</linearGradient></defs>` +
    `<rect${attrs({ x, y, width, height: 10, fill: 'url(#colour-scale)' })}/>` +
    text(formatScaleEnd(min), { x, y: below }) +
    text(formatScaleEnd(max), { x: x + width, y: below, 'text-anchor': 'end' }) +
    text(legend, { x, y: below + CAPTION_PX * LINE });
}

/** A series as one path: a line (broken at missing values), bars, or dots (chart-layout.js). */
function seriesPath(series, L) {
  const shapes = seriesShapes(series, L);
  if (series.kind === 'bars') {
    const d = shapes.map((b) => `M${r(b.x)} ${r(b.y)}h${r(b.width)}v${r(b.height)}h${r(-b.width)}z`);
    return `<path${attrs({ d: d.join(''), fill: series.colour })}/>`;
  }
  if (series.kind === 'points') {
    const R = DOT_RADIUS;
    const d = shapes.map((p) => `M${r(p.x - R)} ${r(p.y)}a${R} ${R} 0 1 0 ${2 * R} 0a${R} ${R} 0 1 0 ${-2 * R} 0z`);
    return `<path${attrs({ d: d.join(''), fill: series.colour })}/>`;
  }
  const d = shapes.flatMap((run) => run.map((p, k) => `${k ? 'L' : 'M'}${r(p.x)} ${r(p.y)}`));
  return `<path${attrs({ d: d.join(''), fill: 'none', ...pen(series), 'stroke-linejoin': 'round' })}/>`;
}

/** A line series' stroke: its colour, 2 px, its dashes. */
function pen(series) {
  const dash = dashOf(series);
  return { stroke: series.colour, 'stroke-width': 2, 'stroke-dasharray': dash.length ? dash.join(' ') : undefined };
}

/** A key entry's swatch at (x, y middle): the series' line, bar or dot. */
function swatch(series, x, y) {
  if (series.kind === 'bars') return `<rect${attrs({ x, y: y - 5, width: 20, height: 10, fill: series.colour })}/>`;
  if (series.kind === 'points') return `<circle${attrs({ cx: x + 10, cy: y, r: DOT_RADIUS, fill: series.colour })}/>`;
  return `<path${attrs({ d: `M${r(x)} ${r(y)}h20`, ...pen(series) })}/>`;
}

const KEY_ROW = 18;

/**
 * A chart figure (chart-figure.js) as SVG, laid out as its PNG (chart-layout.js), `width` ×
 * `height` px for the plot, under its heading and over its key. scene: { title, spec, width, height }
 * (spec: chart-figure.js's update() spec, or null before the first).
 */
export function chartSvg({ title, spec, width, height }) {
  const head = heading(title, spec?.label, width);
  // A chart not drawn yet (no spec, no series): its heading alone, still a valid file.
  if (!spec?.series.length) return svgFile({ width, height: head.height, title, description: title, body: head.svg });
  const L = chartLayout(spec, width, height);
  const plot = [];
  const baseline = (size, at) => at + size * 0.35; // the y that centres text of `size` px on `at`
  for (const tick of yTicks(L)) {
    const y = L.py(tick);
    plot.push(`<path${attrs({ d: `M${r(L.pad.left)} ${r(y)}H${r(L.pad.left + L.plotW)}`, stroke: EXPORT_INK.grid })}/>`);
    plot.push(text(formatTick(tick), { x: L.pad.left - 4, y: baseline(11, y), 'text-anchor': 'end' }));
  }
  const axisY = L.pad.top + L.plotH;
  for (const tick of xTicks(spec, L)) {
    const x = L.px(tick);
    plot.push(`<path${attrs({ d: `M${r(x)} ${r(axisY)}v4`, stroke: EXPORT_INK.grid })}/>`);
    plot.push(text(formatTick(tick), { x, y: axisY + 6 + 11 * 0.8, 'text-anchor': 'middle' }));
  }
  plot.push(text(spec.xLabel, { x: L.pad.left + L.plotW / 2, y: height - 14 + 11 * 0.8, 'text-anchor': 'middle' }));
  plot.push(text(spec.yLabel, { transform: `translate(11 ${r(L.pad.top + L.plotH / 2)}) rotate(-90)`, y: baseline(11, 0), 'text-anchor': 'middle' }));
  if (L.yMin < 0 && L.yMax > 0) plot.push(`<path${attrs({ d: `M${r(L.pad.left)} ${r(L.py(0))}H${r(L.pad.left + L.plotW)}`, stroke: EXPORT_INK.text, 'stroke-opacity': 0.5 })}/>`);
  plot.push(`<clipPath id="plot"><rect${attrs({ x: L.pad.left, y: L.pad.top - 2, width: L.plotW, height: L.plotH + 4 })}/></clipPath>`);
  plot.push(`<g clip-path="url(#plot)">${spec.series.map((series) => seriesPath(series, L)).join('')}</g>`);
  const key = spec.series.map((series, k) => {
    const y = height + (k + 0.5) * KEY_ROW;
    return swatch(series, L.pad.left, y) + text(series.name, { x: L.pad.left + 28, y: baseline(11, y) });
  });
  const body = [head.svg, `<g transform="translate(0 ${r(head.height)})">`, ...plot, ...key, '</g>'];
  return svgFile({ width, height: head.height + height + spec.series.length * KEY_ROW + MARGIN, title, description: spec.label, body: body.join('\n') });
}

const CELL_PX = 13;
const ROW_PX = 22;

/**
 * A table figure (table-figure.js) as SVG text: scene { title, label, columns, rows (cells as
 * the page shows them, strings), note? }; columns as wide as their longest cell.
 */
export function tableSvg({ title, label, columns, rows, note }) {
  const lines = [columns, ...rows];
  const widths = columns.map((_, c) => Math.ceil(Math.max(48, ...lines.map((line) => textWidth(line[c] ?? '', CELL_PX))) + 16));
  const tableWidth = widths.reduce((a, b) => a + b, 0);
  const width = Math.max(360, tableWidth + 2 * MARGIN);
  const head = heading(title, label, width);
  const body = [head.svg];
  lines.forEach((line, row) => {
    const y = head.height + (row + 1) * ROW_PX - 7;
    let x = MARGIN;
    line.forEach((cell, c) => {
      body.push(text(cell, { x, y, 'font-size': CELL_PX, 'font-weight': row === 0 || c === 0 ? 'bold' : undefined }));
      x += widths[c];
    });
    if (row === 0) body.push(`<path${attrs({ d: `M${MARGIN} ${r(y + 6)}h${tableWidth}`, stroke: EXPORT_INK.grid })}/>`);
  });
  let height = head.height + lines.length * ROW_PX + MARGIN;
  for (const line of note ? wrap(note, width - 2 * MARGIN, CAPTION_PX) : []) {
    height += CAPTION_PX * LINE;
    body.push(text(line, { x: MARGIN, y: height - 4, 'font-size': CAPTION_PX }));
  }
  return svgFile({ width, height: height + MARGIN, title, description: label, body: body.join('\n') });
}
