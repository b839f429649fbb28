// paintMatrix's room, on a canvas that keeps the browser's rules (a new width or height clears it;
// putImageData copies the dirty rectangle only): a map whose canvas grows `room` pixels at a time
// must show, in the corner that object-view-box leaves visible, exactly the pixels of a canvas
// painted at the matrix's own size, however the canvas got its size and whatever lies beyond.
import { test } from 'node:test';
import assert from 'node:assert/strict';

// As in Chromium: CSS can crop a canvas to its corner (Node has no CSS; heatmap.js asks at load).
globalThis.CSS = { supports: (property) => property === 'object-view-box' };
const { paintMatrix } = await import('../../web/figures/heatmap.js');

class Canvas {
  #width = 300;
  #height = 150;
  resizes = 0;
  style = {};
  puts = []; // each putImageData's rows: { sy, sh }

  constructor() {
    this.pixels = new Uint8ClampedArray(this.#width * this.#height * 4);
  }

  get width() { return this.#width; }
  set width(value) { this.#width = value; this.#clear(); }
  get height() { return this.#height; }
  set height(value) { this.#height = value; this.#clear(); }

  #clear() {
    this.resizes++;
    this.pixels = new Uint8ClampedArray(this.#width * this.#height * 4);
  }

  getContext() {
    return {
      createImageData: (width, height) => ({ width, height, data: new Uint8ClampedArray(width * height * 4) }),
      putImageData: (image, dx, dy, sx = 0, sy = 0, sw = image.width, sh = image.height) => {
        assert.equal(dx, 0);
        assert.equal(dy, 0);
        this.puts.push({ sy, sh });
        for (let y = sy; y < sy + sh; y++) {
          const from = (y * image.width + sx) * 4;
          this.pixels.set(image.data.subarray(from, from + sw * 4), (y * this.#width + sx) * 4);
        }
      },
    };
  }

  /** The top left w × h pixels, row by row. */
  corner(w, h) {
    const out = [];
    for (let y = 0; y < h; y++) out.push(...this.pixels.subarray(y * this.#width * 4, (y * this.#width + w) * 4));
    return out;
  }
}

// Fixed-seed values in [0, 1) (a 32-bit LCG), with a NaN and values past both ends of the scale.
function matrix(rows, cols, seed) {
  const values = new Float32Array(rows * cols);
  let s = seed;
  for (let i = 0; i < values.length; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    values[i] = s / 2 ** 32;
  }
  values[0] = NaN;
  values[values.length - 1] = 1.5;
  if (values.length > 2) values[1] = -0.5;
  return values;
}

/** The reference: a canvas of the matrix's own size (no room), painted once. */
function reference(values, rows, cols, options = {}) {
  const canvas = new Canvas();
  paintMatrix(canvas, values, rows, cols, options);
  return { pixels: canvas.corner(canvas.width, canvas.height), width: canvas.width, height: canvas.height };
}

const ROOM = 32;
const roomFor = (n) => Math.ceil(n / ROOM) * ROOM;

test('a map with room shows in its corner what a canvas of the matrix\'s size shows, cropped by object-view-box', () => {
  // Sizes below, at and past a step of 32, and one that fills it: every tail of the rows' stride.
  for (const [rows, cols] of [[1, 1], [5, 7], [1, 17], [31, 33], [32, 32], [40, 64], [65, 66]]) {
    for (const palette of ['viridis', 'diverging']) {
      const values = matrix(rows, cols, rows * 1000 + cols);
      const want = reference(values, rows, cols, { palette, min: 0, max: 1 });
      const canvas = new Canvas();
      paintMatrix(canvas, values, rows, cols, { palette, min: 0, max: 1, room: ROOM });
      assert.deepEqual([canvas.width, canvas.height], [roomFor(cols), roomFor(rows)], `${rows} × ${cols}: the canvas is whole steps of 32`);
      assert.deepEqual([want.width, want.height], [cols, rows]);
      assert.equal(canvas.style.objectViewBox, `inset(0 ${roomFor(cols) - cols}px ${roomFor(rows) - rows}px 0)`);
      assert.deepEqual(canvas.corner(cols, rows), want.pixels, `${rows} × ${cols} (${palette})`);
    }
  }
});

test('a matrix that grows a cell at a time resizes its canvas only when it outgrows a step, and shows each size right', () => {
  const canvas = new Canvas();
  const resizes = [];
  for (let n = 1; n <= 70; n++) {
    const before = canvas.resizes;
    const values = matrix(n, n, n);
    paintMatrix(canvas, values, n, n, { room: ROOM });
    if (canvas.resizes !== before) resizes.push(n);
    assert.deepEqual(canvas.corner(n, n), reference(values, n, n).pixels, `${n} × ${n}`);
  }
  // The first paint sizes it (300 × 150 → 32 × 32); then each step of 32 crossed, both ways at once.
  assert.deepEqual(resizes, [1, 33, 65]);
  assert.equal(canvas.resizes, 6, 'width and height, three times');
});

test('a matrix that shrinks shows its own cells, not those left beyond its corner by a larger one', () => {
  const canvas = new Canvas();
  paintMatrix(canvas, matrix(30, 30, 1), 30, 30, { room: ROOM });
  const values = matrix(20, 12, 2);
  paintMatrix(canvas, values, 20, 12, { room: ROOM });
  assert.equal(canvas.resizes, 2, 'the canvas kept its 32 × 32');
  assert.equal(canvas.style.objectViewBox, 'inset(0 20px 12px 0)');
  assert.deepEqual(canvas.corner(12, 20), reference(values, 20, 12).pixels);
  paintMatrix(canvas, matrix(40, 40, 3), 40, 40, { room: ROOM });
  paintMatrix(canvas, values, 20, 12, { room: ROOM });
  assert.deepEqual([canvas.width, canvas.height], [32, 32], 'back to one step');
  assert.deepEqual(canvas.corner(12, 20), reference(values, 20, 12).pixels);
});

test('a matrix larger than the pixels it is shown on is painted at their size in the corner, as without room', () => {
  const [rows, cols] = [100, 90];
  const values = matrix(rows, cols, 7);
  for (const [width, height] of [[50, 40], [33.7, 64], [89, 99]]) {
    const want = reference(values, rows, cols, { width, height });
    const canvas = new Canvas();
    paintMatrix(canvas, values, rows, cols, { width, height, room: ROOM });
    assert.deepEqual([want.width, want.height], [Math.floor(width), Math.floor(height)]);
    assert.deepEqual([canvas.width, canvas.height], [roomFor(want.width), roomFor(want.height)]);
    assert.deepEqual(canvas.corner(want.width, want.height), want.pixels, `shown on ${width} × ${height}`);
  }
});

test('a head read at an offset of a larger array paints that head alone, with room', () => {
  const [heads, n] = [3, 9];
  const values = matrix(heads * n, n, 11);
  for (let head = 0; head < heads; head++) {
    const canvas = new Canvas();
    paintMatrix(canvas, values, n, n, { offset: head * n * n, room: ROOM });
    assert.deepEqual(canvas.corner(n, n), reference(values.slice(head * n * n, (head + 1) * n * n), n, n).pixels, `head ${head}`);
  }
});

// b: a's first `kept` rows, then rows of its own (a causal map whose word `kept` changed).
function sharingRows(a, rows, cols, kept, seed) {
  const b = matrix(rows, cols, seed);
  b.set(a.subarray(0, kept * cols));
  return b;
}

test('keepRows paints and puts only the rows after the kept ones, and the canvas shows the new matrix', () => {
  // At the matrix's size, and shown on fewer pixels than cells (each pixel row the matrix row under its centre).
  for (const [rows, cols, size] of [[9, 9, {}], [40, 40, {}], [70, 70, {}], [100, 100, { width: 37, height: 37 }], [64, 64, { width: 50, height: 23 }]]) {
    for (const kept of [0, 1, rows >> 1, rows - 1, rows]) {
      const a = matrix(rows, cols, rows);
      const b = sharingRows(a, rows, cols, kept, rows + 1);
      const canvas = new Canvas();
      paintMatrix(canvas, a, rows, cols, { ...size, room: ROOM });
      canvas.puts = [];
      paintMatrix(canvas, b, rows, cols, { ...size, room: ROOM, keepRows: kept });
      const want = reference(b, rows, cols, size);
      assert.deepEqual(canvas.corner(want.width, want.height), want.pixels, `${rows} × ${cols} on ${want.width} × ${want.height}, ${kept} rows kept`);
      // The rows put: from the first pixel row whose matrix row is past the kept ones.
      const firstPainted = Array.from({ length: want.height }, (_, y) => Math.floor(((y + 0.5) * rows) / want.height)).findIndex((row) => row >= kept);
      const from = firstPainted < 0 ? want.height : firstPainted;
      assert.deepEqual(canvas.puts, from < want.height ? [{ sy: from, sh: want.height - from }] : [], `${rows} × ${cols}, ${kept} kept: rows put`);
    }
  }
});

test('keepRows keeps nothing unless the canvas shows the same shape, pixel size, scale, palette and head', () => {
  const [rows, cols] = [20, 20];
  const a = matrix(rows, cols, 1);
  const b = sharingRows(a, rows, cols, 15, 2);
  const changes = {
    palette: { palette: 'diverging' }, min: { min: -1 }, max: { max: 2 }, width: { width: 10 }, height: { height: 10 },
  };
  for (const [what, option] of Object.entries(changes)) {
    const canvas = new Canvas();
    paintMatrix(canvas, a, rows, cols, { room: ROOM });
    canvas.puts = [];
    paintMatrix(canvas, b, rows, cols, { room: ROOM, keepRows: 15, ...option });
    const want = reference(b, rows, cols, option);
    assert.deepEqual(canvas.corner(want.width, want.height), want.pixels, `another ${what}`);
    assert.deepEqual(canvas.puts, [{ sy: 0, sh: want.height }], `another ${what}: painted whole`);
  }
  // Another shape: 21 rows of which the first 20 are a's (a token added) is painted whole.
  const canvas = new Canvas();
  paintMatrix(canvas, a, rows, cols, { room: ROOM });
  const taller = matrix(rows + 1, cols, 3);
  taller.set(a);
  canvas.puts = [];
  paintMatrix(canvas, taller, rows + 1, cols, { room: ROOM, keepRows: rows });
  assert.deepEqual(canvas.puts, [{ sy: 0, sh: rows + 1 }]);
  assert.deepEqual(canvas.corner(cols, rows + 1), reference(taller, rows + 1, cols).pixels);
  // Another head of the same array (offset) is another picture.
  const heads = matrix(2 * rows, cols, 4);
  const other = new Canvas();
  paintMatrix(other, heads, rows, cols, { room: ROOM });
  other.puts = [];
  paintMatrix(other, heads, rows, cols, { room: ROOM, offset: rows * cols, keepRows: rows });
  assert.deepEqual(other.puts, [{ sy: 0, sh: rows }]);
  // A canvas resized by anyone else (cleared) is painted whole.
  const resized = new Canvas();
  paintMatrix(resized, a, rows, cols);
  resized.width = 5;
  resized.puts = [];
  paintMatrix(resized, b, rows, cols, { keepRows: 15 });
  assert.deepEqual(resized.puts, [{ sy: 0, sh: rows }]);
  assert.deepEqual(resized.corner(cols, rows), reference(b, rows, cols).pixels);
});
