// Makes data/posenc-fallback.png, the static picture a page shows inside <posenc-lab> for readers
// without JavaScript, feed readers and print (docs/EMBEDDING.md, "A fallback image"): the sinusoidal
// positional-encoding table, 32 positions × 64 dimensions (interleaved layout, base 10000),
// computed by the scalar wasm core (dist/posenc.mjs; the scalar one so every machine gets the same
// numbers) and painted with the page's RdBu palette (web/figures/heatmap.js), each cell 8×8 pixels.
//   node scripts/make-fallback.mjs           write data/posenc-fallback.png
//   node scripts/make-fallback.mjs --check   recompute and compare pixels with the committed file
// Needs a built dist/ (./scripts/build). --check compares decoded pixels, not file bytes, so a
// different zlib (another Node) does not fail it.
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { load } from '../dist/posenc.mjs';
import { colourOf } from '../web/figures/heatmap.js';
import { decodePng, encodePng } from './png.mjs';

export const FALLBACK_PNG = fileURLToPath(new URL('../data/posenc-fallback.png', import.meta.url));
const POSITIONS = 32;
const DIMS = 64;
const CELL = 8;
const WIDTH = DIMS * CELL;
const HEIGHT = POSITIONS * CELL;

/** PNG scanlines (filter byte 0, then RGB) of the table: Buffer(HEIGHT · (1 + 3·WIDTH)). */
export async function fallbackScanlines() {
  const lab = await load({ simd: false });
  const pe = lab.sinusoidal(POSITIONS, DIMS);
  const stride = 1 + 3 * WIDTH;
  const lines = Buffer.alloc(HEIGHT * stride);
  for (let y = 0; y < HEIGHT; y++) {
    const row = Math.floor(y / CELL);
    for (let x = 0; x < WIDTH; x++) {
      lines.set(colourOf('diverging', pe[row * DIMS + Math.floor(x / CELL)], -1, 1), y * stride + 1 + 3 * x);
    }
  }
  return lines;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const mode = process.argv[2] ?? 'write';
  if (!['write', '--check'].includes(mode)) {
    console.error('usage: node scripts/make-fallback.mjs [--check]');
    process.exit(2);
  }
  const lines = await fallbackScanlines();
  if (mode === '--check') {
    const committed = decodePng(await readFile(FALLBACK_PNG));
    if (committed.width !== WIDTH || committed.height !== HEIGHT || !committed.lines.equals(lines)) {
      console.error('make-fallback: data/posenc-fallback.png differs from what the core computes; run node scripts/make-fallback.mjs');
      process.exit(1);
    }
    console.log('make-fallback: data/posenc-fallback.png matches');
  } else {
    const png = encodePng(WIDTH, HEIGHT, lines);
    await writeFile(FALLBACK_PNG, png);
    console.log(`make-fallback: wrote data/posenc-fallback.png (${WIDTH}×${HEIGHT}, ${png.length} bytes)`);
  }
}
