// The lab worker's spare buffers for the arrays it sends the page (lab-session.js's views): the
// buffers the page gave back once no figure showed them (lab-client.js, compute's `recycle`).
// A view's arrays are transferred, so each keystroke would otherwise allocate them afresh: at
// n = 512 about 3.6 MB, whose first touch costs a page fault per 4 KB page, and on a virtual
// machine that is milliseconds (bench/keystroke.mjs --cpu counts the worker's time). A buffer
// that was written before costs no fault.
//
// createBufferPool({ maxBytes }) → {
//   give(buffers): keep these (those under MIN_RECYCLED_BYTES, detached ones among them, are
//     skipped; the oldest go beyond maxBytes),
//   copy(array, transfer) → a copy of the typed array `array` (same type and length) on the first
//     kept buffer big enough for it and less than SPARE_FIT× its size, else on a fresh one with
//     HEADROOM for a few more tokens (whole 4 KB pages); one under MIN_RECYCLED_BYTES on a fresh
//     buffer of its own size; its buffer is pushed onto `transfer`,
//   spare: the buffers kept, oldest first }.
// A copy may sit on a buffer longer than itself: readers use the array, never its .buffer's length.

// Arrays under this many bytes are neither given back nor kept: their few pages cost less than
// sending their buffers back and forth.
export const MIN_RECYCLED_BYTES = 64 * 1024;
export const HEADROOM = 1.125;  // a fresh buffer's room over the array: n² grows 6.3% from 64 to 66 tokens
export const SPARE_FIT = 1.5;   // a kept buffer serves arrays from 1/1.5 of its size up

/** A copy of the typed array `array` on a fresh buffer of its own size, pushed onto `transfer`. */
export function freshCopy(array, transfer) {
  const copy = array.slice();
  transfer.push(copy.buffer);
  return copy;
}

export function createBufferPool({ maxBytes = 64 << 20 } = {}) {
  const spare = []; // ArrayBuffers, oldest first
  return {
    spare,
    give(buffers = []) {
      for (const buffer of buffers) if (buffer instanceof ArrayBuffer && buffer.byteLength >= MIN_RECYCLED_BYTES) spare.push(buffer);
      let bytes = spare.reduce((sum, buffer) => sum + buffer.byteLength, 0);
      while (bytes > maxBytes) bytes -= spare.shift().byteLength;
    },
    copy(array, transfer) {
      const size = array.byteLength;
      if (size < MIN_RECYCLED_BYTES) return freshCopy(array, transfer);
      const i = spare.findIndex((buffer) => buffer.byteLength >= size && buffer.byteLength < size * SPARE_FIT);
      const buffer = i < 0 ? new ArrayBuffer(Math.ceil((size * HEADROOM) / 4096) * 4096) : spare.splice(i, 1)[0];
      const copy = new array.constructor(buffer, 0, array.length);
      copy.set(array);
      transfer.push(buffer);
      return copy;
    },
  };
}
