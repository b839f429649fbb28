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
//   array(Type, length, transfer) → a typed array of that type and length, to be written, on the
//     first kept buffer that serves it, else on a fresh one with room for a few more tokens (both
//     by web/buffer-room.mjs's rule); one under MIN_RECYCLED_BYTES on a fresh buffer of its own
//     size; its buffer is pushed onto `transfer`,
//   copy(array, transfer) → a copy of the typed array `array` on the pool's array(…) for it,
//   putBack(buffers): buffers array(…) gave that were not written on, kept again where array(…)
//     looks first (those under MIN_RECYCLED_BYTES skipped), so that taking them and not using
//     them leaves the next taker the buffer it would have had,
//   spare: the buffers kept, oldest first }.
// A copy may sit on a buffer longer than itself: readers use the array, never its .buffer's length.

import { PAGE_BYTES, fits, roomyBuffer } from '../buffer-room.mjs';

// Arrays under one page are neither given back nor kept: a fresh buffer that small costs about
// what its trip back from the page does, a few µs; from one page up a fresh one costs ten times
// the trip and more (bench/fresh-buffers.mjs, headless Chromium: 30 µs fresh against 3 µs for a
// 4 KB buffer).
export const MIN_RECYCLED_BYTES = PAGE_BYTES;

/** A copy of the typed array `array` on a fresh buffer of its own size, pushed onto `transfer`. */
export function freshCopy(array, transfer) {
  const copy = array.slice();
  transfer.push(copy.buffer);
  return copy;
}

export function createBufferPool({ maxBytes = 64 << 20 } = {}) {
  const spare = []; // ArrayBuffers, oldest first
  const array = (Type, length, transfer) => {
    const size = length * Type.BYTES_PER_ELEMENT;
    if (size < MIN_RECYCLED_BYTES) {
      const fresh = new Type(length);
      transfer.push(fresh.buffer);
      return fresh;
    }
    const i = spare.findIndex((buffer) => fits(buffer, size));
    const buffer = i < 0 ? roomyBuffer(size) : spare.splice(i, 1)[0];
    transfer.push(buffer);
    return new Type(buffer, 0, length);
  };
  return {
    spare,
    give(buffers = []) {
      for (const buffer of buffers) if (buffer instanceof ArrayBuffer && buffer.byteLength >= MIN_RECYCLED_BYTES) spare.push(buffer);
      let bytes = spare.reduce((sum, buffer) => sum + buffer.byteLength, 0);
      while (bytes > maxBytes) bytes -= spare.shift().byteLength;
    },
    array,
    putBack(buffers) {
      spare.unshift(...buffers.filter((buffer) => buffer.byteLength >= MIN_RECYCLED_BYTES));
    },
    copy(values, transfer) {
      if (values.byteLength < MIN_RECYCLED_BYTES) return freshCopy(values, transfer);
      const copy = array(values.constructor, values.length, transfer);
      copy.set(values);
      return copy;
    },
  };
}
