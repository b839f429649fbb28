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

/** How many ids two id arrays share from the start. */
export function sharedIds(a, b) {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/** Whether two id arrays hold the same ids. */
export function sameIds(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * A sentence as a loaded model reads it (Model from lab.loadModel, with its file's vocabulary),
 * by the rule docs/MODELS.md states ("Showing a model"), which the PyTorch twin's show() follows:
 * a word-level model (its vocabulary holds <unk>, unknownId set) reads the lab's tokens, an unknown
 * one as <unk>; a model whose every token is one character (the book and text tasks) reads the
 * sentence character by character; any other (copy, reverse, sort: "<sep>", "3") reads
 * whitespace-separated token names. A piece outside a vocabulary without <unk> is a RangeError
 * naming it. → { ids: Int32Array(n), pieces: n strings (the vocabulary's), unknown: n booleans }.
 */
export function modelTokens(model, text) {
  if (typeof text !== 'string') throw new TypeError('sentence must be a string');
  const vocab = model.vocab;
  if (!vocab) throw new RangeError('the model file has no vocabulary (__metadata__.vocab), so it cannot read a sentence');
  let ids;
  if (model.unknownId !== null) {
    ids = model.tokenize(text);
  } else {
    const characters = vocab.every((token) => [...token].length === 1);
    const pieces = characters ? [...text] : text.split(/\s+/).filter(Boolean);
    const index = vocabularyIndex(vocab);
    ids = new Int32Array(pieces.length);
    pieces.forEach((piece, i) => {
      const id = index.get(piece);
      if (id === undefined) {
        throw new RangeError(`sentence has ${JSON.stringify(piece)} (${characters ? 'character' : 'token'} ${i + 1}), ` +
          `which is not in the model's vocabulary of ${vocab.length} ${characters ? 'characters' : 'tokens'}`);
      }
      ids[i] = id;
    });
  }
  if (ids.length === 0) throw new RangeError('sentence has no tokens for this model');
  return { ids, pieces: Array.from(ids, (id) => vocab[id]), unknown: Array.from(ids, (id) => id === model.unknownId) };
}
