// A shipped model's view of the page's tokens, for the page's trained lanes and the lab worker
// alike (the worker runs each keystroke's passes, the page decides which it still needs): the
// tokens as the model's ids, and the head a 1-based choice names.
//
// Shapes: tokens n strings; ids Int32Array(n).

/** Token string → id for one vocabulary (the strings in id order, as in the weights file). */
export function vocabularyIndex(vocabulary) {
  const index = new Map();
  vocabulary.forEach((token, id) => { if (!index.has(token)) index.set(token, id); });
  return index;
}

/**
 * The page's tokens as model ids, written into `out` (reused across keystrokes when long enough):
 * the same lookup m.tokenize(text) does in the core, but on the tokens the lanes already show, so
 * a lane's rows are the page's tokens even where the page's vectors split a word differently.
 * out: an Int32Array to reuse, or null.
 * → { ids: Int32Array(n) (a view of out), unknown: how many tokens fell back to unknownId }.
 */
export function idsFor(tokens, index, unknownId, out = null) {
  const n = tokens.length;
  const ids = out && out.length >= n ? out.subarray(0, n) : new Int32Array(n);
  let unknown = 0;
  for (let i = 0; i < n; i++) {
    const id = index.get(tokens[i]);
    if (id === undefined) unknown++;
    ids[i] = id ?? unknownId;
  }
  return { ids, unknown };
}

/** The layer and head to show (0-based), the URL's 1-based choice clamped to the model's shape. */
export function clampHead({ layer, head }, { layers, heads }) {
  return { layer: Math.min(layers, Math.max(1, layer)) - 1, head: Math.min(heads, Math.max(1, head)) - 1 };
}

/** Whether two id arrays hold the same ids. */
export function sameIds(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
