// Palettes and heatmap painting.
//
// Sequential data (attention weights, 0…1) uses viridis: perceptually uniform, readable in
// greyscale and for the common colour-vision deficiencies. Signed data (encoded inputs, PE, logit
// terms) uses ColorBrewer's RdBu (blue < 0 < red), one of Brewer's colour-blind-safe diverging
// schemes, always on a symmetric range so its pale middle means exactly zero. Both come from
// d3-scale-chromatic as published: its viridis is a 256-colour table, which the 256-entry ramp
// reads entry for entry (interpolateViridis(i/255) is entry i); its RdBu is Brewer's 11 classes,
// through which d3 draws a uniform cubic B-spline, sampled here at 256 points (bSpline below, the
// same curve: tests/js/heatmap-ramps.test.mjs compares every entry with d3's interpolateRdBu).
// RdBu runs red → blue in d3, so t is reversed.
import { interpolateViridis, schemeRdBu } from 'd3-scale-chromatic';
import { setStyle } from './dom.js';

const rdBu = bSpline(schemeRdBu[11]);
const PALETTES = {
  viridis: (t) => hexRgb(interpolateViridis(t)),
  diverging: (t) => rdBu(1 - t),
};

/** '#rrggbb' → [r, g, b]. */
function hexRgb(hex) {
  return [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
}

/**
 * t ∈ [0, 1] → [r, g, b] on the uniform cubic B-spline whose control points are the colours
 * (k of them, k − 1 segments), each channel rounded and clamped to 0…255. Past either end the
 * missing control point is the reflection 2·v₁ − v₂, so the curve starts and ends exactly on the
 * end colours ((2·v₁ − v₂ + 4·v₁ + v₂)/6 = v₁).
 */
function bSpline(hexes) {
  const points = hexes.map(hexRgb);
  const segments = points.length - 1;
  return (t) => {
    const u = Math.min(1, Math.max(0, t));
    const i = u >= 1 ? segments - 1 : Math.floor(u * segments);
    const s = u * segments - i;  // position within segment i, 0…1
    const [s2, s3] = [s * s, s * s * s];
    // The four cubic B-spline basis functions at s (they sum to 6).
    const weights = [1 - 3 * s + 3 * s2 - s3, 4 - 6 * s2 + 3 * s3, 1 + 3 * s + 3 * s2 - 3 * s3, s3];
    return [0, 1, 2].map((c) => {
      const v1 = points[i][c];
      const v2 = points[i + 1][c];
      const v0 = i > 0 ? points[i - 1][c] : 2 * v1 - v2;
      const v3 = i < segments - 1 ? points[i + 2][c] : 2 * v2 - v1;
      const value = (weights[0] * v0 + weights[1] * v1 + weights[2] * v2 + weights[3] * v3) / 6;
      return Math.min(255, Math.max(0, Math.round(value)));
    });
  };
}

export const PALETTE_NAMES = {
  viridis: 'viridis (sequential)',
  diverging: 'RdBu (diverging: blue negative, white zero, red positive)',
};

const RAMP_SIZE = 256;
// Each palette is sampled the first time a figure uses it, not while the page's modules load.
const RAMPS = {};
const rampOf = (name) => (RAMPS[name] ??= sampleRamp(PALETTES[name], RAMP_SIZE));

/** size RGB triples (Uint8ClampedArray(size·3)) of palette(t) at t = 0, 1/(size−1), …, 1. */
function sampleRamp(palette, size) {
  const ramp = new Uint8ClampedArray(size * 3);
  for (let i = 0; i < size; i++) {
    ramp.set(palette(i / (size - 1)), i * 3);
  }
  return ramp;
}

/** The palette's RGB triple for value on [min, max] (NaN → low end), e.g. for tests and charts. */
export function colourOf(palette, value, min, max) {
  const ramp = rampOf(palette);
  const index = rampIndex(value, min, max) * 3;
  return [ramp[index], ramp[index + 1], ramp[index + 2]];
}

function rampIndex(value, min, max) {
  const t = max > min ? (value - min) / (max - min) : 0.5;
  // NaN lands on the low end rather than poisoning the image.
  if (!(t > 0)) return 0;
  if (t >= 1) return RAMP_SIZE - 1;
  return Math.round(t * (RAMP_SIZE - 1));
}

// The same ramps as 32-bit RGBA pixels in the platform's byte order, so painting writes one
// word per cell instead of four bytes.
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
const PIXEL_RAMPS = {};
const pixelRampOf = (name) => (PIXEL_RAMPS[name] ??= pixelsOf(rampOf(name)));
function pixelsOf(ramp) {
  const pixels = new Uint32Array(RAMP_SIZE);
  for (let i = 0; i < RAMP_SIZE; i++) {
    const [r, g, b] = ramp.subarray(i * 3, i * 3 + 3);
    pixels[i] = LITTLE_ENDIAN ? ((255 << 24) | (b << 16) | (g << 8) | r) >>> 0 : ((r << 24) | (g << 16) | (b << 8) | 255) >>> 0;
  }
  return pixels;
}

// Each canvas keeps its ImageData and pixel view while its size stays (a 512 × 512 map would
// otherwise allocate 1 MB per paint, at every keystroke).
const images = new WeakMap(); // canvas → { image, pixels }
const shows = new WeakMap(); // canvas → what its last paint showed: shape, pixel size, scale, palette

// Where CSS can show a canvas's top left corner alone (object-view-box: Chromium), a map's canvas
// keeps its size while the matrix grows within it: resizing a canvas drops its backing store, and
// three maps resized on each new token were most of that key's extra main-thread CPU, spent at the
// next commit (docs/BENCHMARKS.md, round 28). Elsewhere (Firefox) the canvas takes the matrix's
// size, as the export's canvases do.
const CROPS = globalThis.CSS?.supports('object-view-box', 'inset(0)');

/**
 * Paints a rows×cols row-major matrix one canvas pixel per cell; CSS scales it up (pixelated), so
 * a pointer position maps to a cell by its fraction of the canvas's box. A matrix larger than the
 * pixels it is shown on (`width` × `height`, device pixels, when given) is painted at that size
 * instead, each pixel the cell under its centre: what the browser's pixelated downscale would
 * show, without painting and scaling the cells nobody sees. `offset` lets one painter read a slice
 * of a bigger array (head 0 of heads×n×n) without copying. `room` (where CSS can crop): the canvas
 * is a multiple of `room` pixels each way, the matrix is painted in its top left corner and only
 * that corner is shown, so a matrix a cell larger seldom resizes the canvas (what lies beyond the
 * corner is left over and never shown). `keepRows`: the matrix's first keepRows rows hold the
 * values of the matrix this canvas shows now (a causal map whose later words changed); when that
 * was painted here with the same shape, pixel size, scale and palette, only the pixels of the rows
 * after them are painted again and put on the canvas. Otherwise the whole matrix is painted.
 */
export function paintMatrix(canvas, values, rows, cols, { palette = 'viridis', min = 0, max = 1, offset = 0, width = cols, height = rows, room = 0, keepRows = 0 } = {}) {
  const ramp = pixelRampOf(palette);
  const w = Math.max(1, Math.min(cols, Math.floor(width)));
  const h = Math.max(1, Math.min(rows, Math.floor(height)));
  // The canvas: stride × tall pixels, the painted w × h in its top left corner.
  const step = CROPS ? room || 1 : 1;
  const stride = Math.ceil(w / step) * step;
  const tall = Math.ceil(h / step) * step;
  // A new width or height clears the canvas: then nothing it showed is kept.
  const cleared = canvas.width !== stride || canvas.height !== tall;
  if (canvas.width !== stride) canvas.width = stride;
  if (canvas.height !== tall) canvas.height = tall;
  if (step > 1) setStyle(canvas, 'objectViewBox', `inset(0 ${stride - w}px ${tall - h}px 0)`);
  const context = canvas.getContext('2d');
  let cached = images.get(canvas);
  if (!cached || cached.image.width !== stride || cached.image.height !== tall) {
    const image = context.createImageData(stride, tall);
    images.set(canvas, cached = { image, pixels: new Uint32Array(image.data.buffer) });
  }
  const { image, pixels } = cached;
  // What the canvas shows after this paint; rows are kept from the last paint only if it was the same.
  const picture = `${rows} ${cols} ${w} ${h} ${offset} ${min} ${max} ${palette}`;
  // A canvas whose context is lost (the GPU process gone) comes back blank: its next paint is whole.
  if (!shows.has(canvas)) canvas.addEventListener?.('contextlost', () => shows.delete(canvas));
  const kept = !cleared && shows.get(canvas) === picture ? keepRows : 0;
  shows.set(canvas, picture);
  const last = RAMP_SIZE - 1;
  const span = max - min;
  const scale = span > 0 ? last / span : 0;
  const middle = span > 0 ? 0 : last >> 1;
  // Pixel row y shows matrix row rowOf(y) (rising with y); the rows from the first that shows a
  // row not kept are painted.
  const rowOf = (y) => Math.floor(((y + 0.5) * rows) / h);
  let from = 0;
  while (from < h && rowOf(from) < kept) from++;
  // Inlined rampIndex: these loops run for up to ~3 M cells per keystroke. NaN → low end.
  if (w === cols && h === rows) {
    for (let y = from, cell = offset + from * cols; y < h; y++) {
      for (let p = y * stride, end = p + w; p < end; p++) {
        const t = (values[cell++] - min) * scale + middle;
        pixels[p] = ramp[t > 0 ? (t >= last ? last : (t + 0.5) | 0) : 0];
      }
    }
  } else {
    const colOf = new Int32Array(w);
    for (let x = 0; x < w; x++) colOf[x] = Math.floor(((x + 0.5) * cols) / w);
    for (let y = from; y < h; y++) {
      const row = offset + rowOf(y) * cols;
      for (let x = 0; x < w; x++) {
        const t = (values[row + colOf[x]] - min) * scale + middle;
        pixels[y * stride + x] = ramp[t > 0 ? (t >= last ? last : (t + 0.5) | 0) : 0];
      }
    }
  }
  if (from < h) context.putImageData(image, 0, 0, 0, from, w, h - from);
}

// The legend's strip as a CSS gradient through LEGEND_STOPS + 1 evenly spaced ramp entries: the
// ramps are smooth, so straight segments between them match the 256 entries to within a shade,
// and a figure needs no canvas (nor a 2D context, the costly part of making one) for it.
const LEGEND_STOPS = 32;

/** The whole palette as a CSS linear-gradient, low values on the left. */
export function legendGradient(palette = 'viridis') {
  const ramp = rampOf(palette);
  const stops = [];
  for (let s = 0; s <= LEGEND_STOPS; s++) {
    const i = 3 * Math.round((s * (RAMP_SIZE - 1)) / LEGEND_STOPS);
    stops.push(`rgb(${ramp.subarray(i, i + 3)}) ${(100 * s) / LEGEND_STOPS}%`);
  }
  return `linear-gradient(to right,${stops})`;
}
