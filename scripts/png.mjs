// The build's PNG files (scripts/make-fallback.mjs, scripts/make-favicon.mjs): 8-bit RGB, no
// interlace, every scanline with filter byte 0, one IDAT deflated at zlib level 9 (the same bytes
// from the same zlib), and the reading of such a file back to its scanlines.
import { crc32, deflateSync, inflateSync } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type, data) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** lines: height scanlines of (1 + 3·width) bytes, each a 0 (filter) then RGB → the PNG's bytes. */
export function encodePng(width, height, lines) {
  if (lines.length !== height * (1 + 3 * width)) throw new RangeError(`encodePng: ${lines.length} bytes of scanlines for ${width} × ${height}`);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, deflate, adaptive filters, no interlace
  return Buffer.concat([SIGNATURE, chunk('IHDR', header), chunk('IDAT', deflateSync(lines, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}

/** { width, height, lines } of a PNG written by encodePng (its IDATs joined and inflated). */
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
