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
import { crc32, deflateSync, inflateSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { load } from '../dist/posenc.mjs';
import { colourOf } from '../web/figures/heatmap.js';

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

function chunk(type, data) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function encodePng(lines) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(WIDTH, 0);
  header.writeUInt32BE(HEIGHT, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, deflate, adaptive filters, no interlace
  return Buffer.concat([SIGNATURE, chunk('IHDR', header), chunk('IDAT', deflateSync(lines, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}

/** { width, height, lines } of a PNG written by encodePng (one IDAT). */
export function decodePng(bytes) {
  if (!bytes.subarray(0, 8).equals(SIGNATURE)) throw new Error('not a PNG');
  let offset = 8;
  const idat = [];
  let width = 0;
  let height = 0;
  while (offset < bytes.length) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString('latin1', offset + 4, offset + 8);
    const data = bytes.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') [width, height] = [data.readUInt32BE(0), data.readUInt32BE(4)];
    if (type === 'IDAT') idat.push(data);
    offset += 12 + length;
  }
  return { width, height, lines: inflateSync(Buffer.concat(idat)) };
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
    const png = encodePng(lines);
    await writeFile(FALLBACK_PNG, png);
    console.log(`make-fallback: wrote data/posenc-fallback.png (${WIDTH}×${HEIGHT}, ${png.length} bytes)`);
  }
}
