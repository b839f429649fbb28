// Which of a view's arrays the page's figures still show, so that the others go back to the lab
// worker with the next compute (lab-client.js: recycle; buffer-pool.js says why it pays).
//
// createViewBuffers() → {
//   lend(arrays): these arrays (typed arrays of a view just painted) may go back once no holder
//     shows them, those on buffers of MIN_RECYCLED_BYTES or more (buffer-pool.js); arrays never
//     lent are never given back, whoever holds them,
//   hold(array), release(array): a figure shows, or stopped showing, this array (HeatmapFigure's
//     and the lane tabs' `buffers` option); counted, as two figures may show one array,
//   take() → the buffers of lent arrays no holder shows any more, each once; they are detached
//     once sent, so nothing may read them after }.
// An array lent but never held (a figure never given it) stays with the page and is collected.
import { MIN_RECYCLED_BYTES } from '../pipeline/buffer-pool.js';

export function createViewBuffers() {
  const holders = new WeakMap(); // ArrayBuffer of a lent array → how many holders show it
  let free = [];

  return {
    lend(arrays) {
      for (const array of arrays) {
        if (array?.buffer?.byteLength >= MIN_RECYCLED_BYTES && !holders.has(array.buffer)) holders.set(array.buffer, 0);
      }
    },
    hold(array) {
      const count = holders.get(array?.buffer);
      if (count !== undefined) holders.set(array.buffer, count + 1);
    },
    release(array) {
      const count = holders.get(array?.buffer);
      if (count === undefined || count === 0) return;
      if (count > 1) { holders.set(array.buffer, count - 1); return; }
      holders.delete(array.buffer);
      free.push(array.buffer);
    },
    take() {
      const out = free;
      free = [];
      return out;
    },
  };
}
