#!/usr/bin/env node
// The page's favicon as a PNG, drawn from web/favicon.svg (its one source): a grid of unit
// squares, each <rect> filling x … x + width, y … y + height of the viewBox in one colour, later
// rects over earlier ones. Chromium decodes a page's favicon on the page's own main thread, and an
// SVG one as a whole isolated SVG document, 5–8 ms of CPU each time on a 2 GHz core, twice at load
// (the link's first write re-reads it); a PNG of the same picture decodes in microseconds.
//   node scripts/make-favicon.mjs DIR   reads DIR/favicon.svg, writes DIR/favicon.png
import fs from 'node:fs';
import path from 'node:path';
import { encodePng } from './png.mjs';

// Each viewBox unit becomes CELL_PX pixels: 64 px for the 4-unit icon, so that the 16, 32 and 64 px
// a browser shows are whole multiples of a cell (each colour square stays square and sharp).
export const CELL_PX = 16;

/** The squares of the favicon's SVG → { units, rects: [{ x, y, width, height, rgb: [r, g, b] }] }. */
export function readGrid(svg) {
  const viewBox = /viewBox="0 0 (\d+) (\d+)"/.exec(svg);
  if (!viewBox || viewBox[1] !== viewBox[2]) throw new Error('favicon.svg: expected a square viewBox="0 0 N N"');
  const units = Number(viewBox[1]);
  const rects = [];
  for (const [tag] of svg.matchAll(/<rect\b[^>]*\/>/g)) {
    const attribute = (name, fallback) => {
      const match = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
      return match ? match[1] : fallback;
    };
    const [x, y, width, height] = ['x', 'y', 'width', 'height'].map((name) => Number(attribute(name, name === 'x' || name === 'y' ? '0' : undefined)));
    const fill = /^#([0-9a-f]{6})$/i.exec(attribute('fill', ''));
    if (![x, y, width, height].every(Number.isInteger) || !fill) throw new Error(`favicon.svg: ${tag} is not a whole-unit rect with a #rrggbb fill`);
    rects.push({ x, y, width, height, rgb: [0, 2, 4].map((i) => parseInt(fill[1].slice(i, i + 2), 16)) });
  }
  if (!rects.length) throw new Error('favicon.svg: no <rect>');
  return { units, rects };
}

/** The grid at `cell` pixels per unit → { size, lines: PNG scanlines (filter byte 0, then RGB) }. */
export function rasterize({ units, rects }, cell = CELL_PX) {
  const size = units * cell;
  const stride = 1 + 3 * size;
  const lines = Buffer.alloc(size * stride);
  for (const { x, y, width, height, rgb } of rects) {
    for (let row = y * cell; row < Math.min(size, (y + height) * cell); row++) {
      for (let col = x * cell; col < Math.min(size, (x + width) * cell); col++) lines.set(rgb, row * stride + 1 + 3 * col);
    }
  }
  return { size, lines };
}

/** The favicon's PNG bytes from its SVG text. */
export function faviconPng(svg) {
  const { size, lines } = rasterize(readGrid(svg));
  return encodePng(size, size, lines);
}

if (process.argv[1] && path.resolve(process.argv[1]) === new URL(import.meta.url).pathname) {
  const dir = process.argv[2];
  if (!dir) {
    console.error('usage: node scripts/make-favicon.mjs DIR');
    process.exit(2);
  }
  fs.writeFileSync(path.join(dir, 'favicon.png'), faviconPng(fs.readFileSync(path.join(dir, 'favicon.svg'), 'utf8')));
}
