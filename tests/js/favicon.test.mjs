// The favicon (scripts/make-favicon.mjs): a PNG drawn from web/favicon.svg, cell by cell, which the
// built pages name, since Chromium decodes an SVG favicon as a whole document on the page's main
// thread. Needs a built dist/ for the last test (./scripts/build).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { CELL_PX, faviconPng, readGrid } from '../../scripts/make-favicon.mjs';
import { decodePng } from '../../scripts/png.mjs';

const root = new URL('../../', import.meta.url);
const SVG = readFileSync(new URL('web/favicon.svg', root), 'utf8');

/** The RGB hex of pixel (x, y) of a decoded PNG. */
function pixel({ width, lines }, x, y) {
  const at = y * (1 + 3 * width) + 1 + 3 * x;
  return [...lines.subarray(at, at + 3)].map((v) => v.toString(16).padStart(2, '0')).join('');
}

test('the PNG is the SVG\'s grid: every pixel of a cell the colour its last rect gives it', () => {
  const png = decodePng(faviconPng(SVG));
  const { units, rects } = readGrid(SVG);
  assert.equal(units, 4);
  assert.deepEqual([png.width, png.height], [units * CELL_PX, units * CELL_PX]);
  // Read from the file as written: the diagonal yellow, the two teal cells beside the corner, the
  // purple ground where no later rect falls.
  const expected = { '0,0': 'fde725', '3,3': 'fde725', '1,0': '26828e', '0,1': '26828e', '3,0': '440154', '0,3': '440154', '3,2': '31688e' };
  for (const [cell, colour] of Object.entries(expected)) {
    const [cx, cy] = cell.split(',').map(Number);
    for (const [dx, dy] of [[0, 0], [CELL_PX - 1, 0], [0, CELL_PX - 1], [CELL_PX - 1, CELL_PX - 1], [7, 9]]) {
      assert.equal(pixel(png, cx * CELL_PX + dx, cy * CELL_PX + dy), colour, `cell ${cell} + (${dx}, ${dy})`);
    }
  }
  assert.equal(rects.length, 11);
});

test('an SVG that is not a square grid of whole-unit, #rrggbb rects is refused, naming what is wrong', () => {
  assert.throws(() => readGrid('<svg viewBox="0 0 4 3"><rect width="4" height="3" fill="#000000"/></svg>'), /square viewBox/);
  assert.throws(() => readGrid('<svg viewBox="0 0 4 4"></svg>'), /no <rect>/);
  assert.throws(() => readGrid('<svg viewBox="0 0 4 4"><rect width="0.5" height="1" fill="#000000"/></svg>'), /whole-unit rect/);
  assert.throws(() => readGrid('<svg viewBox="0 0 4 4"><rect width="1" height="1" fill="red"/></svg>'), /#rrggbb fill/);
});

test('the built pages name the PNG favicon, which dist/ holds, and ship no SVG one', () => {
  const dist = new URL('dist/', root);
  assert.ok(existsSync(new URL('index.html', dist)), 'run ./scripts/build first');
  for (const page of ['index.html', 'embed.html']) {
    const html = readFileSync(new URL(page, dist), 'utf8');
    assert.match(html, /<link rel="icon" href="favicon\.png" type="image\/png">/, page);
  }
  assert.ok(decodePng(readFileSync(new URL('favicon.png', dist))).lines.equals(decodePng(faviconPng(SVG)).lines));
  assert.equal(existsSync(new URL('favicon.svg', dist)), false);
});
