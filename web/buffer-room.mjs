// Arrays that are remade on every keystroke, on buffers with room to spare. In a browser a fresh
// ArrayBuffer costs a page fault for each 4 KB page it first touches: in headless Chromium on this
// project's 2-core virtual machine (bench/fresh-buffers.mjs) a fresh 26 KB array took about 80 µs
// and a fresh 1 MB one 3 ms, where copying into a kept array took 0.3 and 40 µs, so a key that
// makes its few dozen KB (64 tokens) or MB (512) on fresh buffers spends milliseconds on them.
// One rule for every such array: a fresh buffer has HEADROOM over the array, in whole pages, so a
// text a few tokens longer still fits it; a buffer serves an array it holds if it is under
// SPARE_FIT× the array's size or no bigger than a fresh one for it.
//
// fits(buffer, bytes) → whether `buffer` serves an array of `bytes` bytes;
// roomyBuffer(bytes) → a fresh ArrayBuffer for an array of `bytes` bytes, with HEADROOM;
// copyInto(array, old) → `array`'s values (a typed array) in an array of its type and length: with
//   no `old`, a plain copy (array.slice()); else on `old`'s buffer (old: a typed array to be
//   overwritten) when it serves them — `old` itself at its length — or on a roomy fresh buffer.
// Readers use the array, never its .buffer's length.
export const PAGE_BYTES = 4096;
export const HEADROOM = 1.125;  // n² grows 6.3% from 64 to 66 tokens
export const SPARE_FIT = 1.5;

const roomyBytes = (bytes) => Math.ceil((bytes * HEADROOM) / PAGE_BYTES) * PAGE_BYTES;

export const fits = (buffer, bytes) =>
  buffer.byteLength >= bytes && (buffer.byteLength < bytes * SPARE_FIT || buffer.byteLength <= roomyBytes(bytes));

export const roomyBuffer = (bytes) => new ArrayBuffer(roomyBytes(bytes));

export function copyInto(array, old) {
  if (!old) return array.slice();
  const Type = array.constructor;
  let into;
  if (old instanceof Type && old.length === array.length) into = old;
  else if (old instanceof Type && old.byteOffset === 0 && fits(old.buffer, array.byteLength)) into = new Type(old.buffer, 0, array.length);
  else into = new Type(roomyBuffer(array.byteLength), 0, array.length);
  into.set(array);
  return into;
}
