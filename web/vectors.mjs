// Word vectors in wasm memory: a loaded vector file (WordVectorSet, lab.loadVectors) and a
// vocabulary of given rows (lab.vocabulary), both decoded by cosine in the core; the scratch
// arrays of their calls live in the lab's Heap (heap.mjs).
import { checkBoolean, checkEnum, checkInt, checkOptions } from './checks.mjs';
import {
  LAYOUTS, LIMITS, checkBase, checkElements, checkFloat32, checkMatrix, checkText, checkTokens, wellFormed,
} from './options.mjs';

// The core's WordVectors behind a set, for lab.analysis (throws once disposed); not public API.
export const VECTOR_HANDLE = Symbol('vectorHandle');

// A word-vector set living in wasm memory; see Lab.loadVectors.
const FOUND_CACHE = 1 << 14; // words whose row WordVectorSet.embed remembers
// Rows projected per core call of reducing(): GloVe's 20,000 in eight calls of a few milliseconds
// each, where one call over them all is one long task (its first run in V8's baseline tier).
const REDUCE_ROWS = 2500;

export class WordVectorSet {
  #vectors;
  #core;
  #heap;
  #lab;
  #reduced = new Map();  // k → decoding vocabulary of PCA-reduced rows
  #reducing = new Map(); // k → { rows (size×k), done (rows projected) } of a reducing(k) not finished
  #found = new Map();    // word → row or −1, for embed: a find() is an embind call with a string copy

  /** Not for direct use: lab.loadVectors(). lab: for embed's unknown words and reducedVocabulary. */
  constructor(name, vectors, core, heap, lab) {
    this.#vectors = vectors;
    this.#core = core;
    this.#heap = heap;
    this.#lab = lab;
    this.name = name;
    this.dim = vectors.dim();
    this.size = vectors.size();
    this.componentRms = vectors.componentRms();
    Object.freeze(this);
  }

  /** Like lab.tokenize, but a hyphenated word this vocabulary lacks is split at its hyphens. */
  tokenize(text) {
    checkText(text);
    return this.#live().tokenize(wellFormed(text));
  }

  has(word) {
    return this.indexOf(word) >= 0;
  }

  /** The word's vector (a copy). Throws RangeError when the word is not in the set. */
  vector(word) {
    return this.#row(this.#rowOf(word));
  }

  /** Words by index (0 = most frequent for GloVe). */
  word(index) {
    checkInt('index', index, 0, this.size - 1);
    return this.#live().word(index);
  }

  /** The k nearest words by cosine, best first; a query word is itself excluded. */
  neighbors(wordOrVector, k = 10) {
    checkInt('k', k, 1, Math.min(1000, this.size));
    const vectors = this.#live();
    let query;
    let exclude = -1;
    if (typeof wordOrVector === 'string') {
      exclude = this.#rowOf(wordOrVector);
      query = this.#row(exclude);
    } else {
      checkMatrix('vector', wordOrVector, this.dim);
      query = wordOrVector;
    }
    return topK(this.#core, this.#heap, vectors, this.dim, query, k, exclude).map(({ row, cosine }) => ({ word: vectors.word(row), cosine }));
  }

  /**
   * Decodes n vectors against the whole vocabulary by cosine: { best, cosine } per query, and with
   * options.truth (row indices, e.g. from indexOf) the 1-based rank of the true word.
   */
  nearest(queries, n, options = {}) {
    const vectors = this.#live();
    return decode(this.#core, this.#heap, vectors, this.size, this.dim, queries, n, options);
  }

  /**
   * Identity retrieval of n tokens: decodes x_p = α·vectors_p + PE(p) (additive, PE with base and
   * layout) or x_p = α·vectors_p (additive: false, rotary's input) against the whole vocabulary by
   * cosine — the same answer as nearest() on those x_p, but cached (a word's scores against the
   * vocabulary and each position's are kept between calls; an unchanged token is not decoded
   * again), so a keystroke costs about one new word's decode. vectors: Float32Array(n·dim) of
   * unscaled word vectors (e.g. embed(tokens).vectors). → { best: Uint32Array, cosine:
   * Float32Array, rank: Uint32Array } with rank the 1-based rank of the token's own word, 0 for a
   * token outside the vocabulary.
   */
  identity(tokens, vectors, options = {}) {
    checkTokens(tokens);
    checkOptions('options', options, ['alpha', 'additive', 'base', 'layout']);
    const n = tokens.length;
    const d = this.dim;
    checkElements(n * d);
    checkMatrix('vectors', vectors, n * d);
    const alpha = checkFloat32('alpha', options.alpha ?? 1);
    const additive = checkBoolean('additive', options.additive ?? true);
    const base = checkBase(options.base ?? 10000);
    const layout = checkEnum('layout', options.layout ?? LAYOUTS[0], LAYOUTS);
    if (additive && d % 2 !== 0) throw new RangeError(`additive identity needs an even dimension (dimensions form pairs), got ${d}`);
    const live = this.#live();
    const rows = new Uint32Array(n);
    for (let p = 0; p < n; p++) {
      const row = live.find(tokens[p]);
      rows[p] = row >= 0 ? row : 0xffffffff;
    }
    const [address] = this.#heap.reserve(n * d + 4 * n);
    const at = (i) => address + 4 * (n * d + i * n);
    this.#core.HEAPF32.set(vectors, address / 4);
    this.#core.HEAPU32.set(rows, at(0) / 4);
    this.#heap.call(live.identity(at(0), address, n, alpha, additive, base, layout, at(1), at(2), at(3)));
    // Views re-read after the call: it may have grown the heap.
    return {
      best: this.#core.HEAPU32.slice(at(1) / 4, at(1) / 4 + n),
      cosine: this.#core.HEAPF32.slice(at(2) / 4, at(2) / 4 + n),
      rank: this.#core.HEAPU32.slice(at(3) / 4, at(3) / 4 + n),
    };
  }

  /** Every vector, row i for word(i): a Float32Array(size*dim) copy. */
  rows() {
    return this.#live().rows().slice();
  }

  /** Population standard deviation of each column of rows(): Float32Array(dim), as lab.columnSpread(rows(), size, dim). */
  columnSpread() {
    return this.#overRows(this.dim, (rows, out) => this.#core.columnSpread(rows, this.size, this.dim, out));
  }

  /** Row index of a word, or −1. */
  indexOf(word) {
    if (typeof word !== 'string') throw new TypeError('word must be a string');
    return this.#live().find(word);
  }

  /** Fraction of the vocabulary's variance kept by its first k principal axes. */
  retained(k) {
    checkInt('k', k, 1, this.dim);
    return this.#live().pcaRetained(k);
  }

  /**
   * PCA coordinates (first k axes, by decreasing variance) of n vectors: Float32Array(n*k).
   * The axes are computed from the vocabulary on first use.
   */
  reduce(x, n, k) {
    checkInt('n', n, 1, Math.floor(LIMITS.maxElements / this.dim));
    checkInt('k', k, 1, this.dim);
    checkMatrix('x', x, n * this.dim);
    const vectors = this.#live();
    const [address] = this.#heap.reserve(n * this.dim + n * k);
    this.#core.HEAPF32.set(x, address / 4);
    const out = address + 4 * n * this.dim;
    this.#heap.call(vectors.reduce(address, n, k, out));
    return this.#core.HEAPF32.slice(out / 4, out / 4 + n * k);
  }

  /**
   * The vocabulary reduced to k PCA coordinates, as a decoding vocabulary
   * ({ size, dim, nearest, dispose }, see lab.vocabulary): what the concatenated scheme's word
   * part is decoded against. Cached per k; disposed with this set.
   */
  reducedVocabulary(k) {
    const steps = this.reducing(k);
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
    }
  }

  /**
   * reducedVocabulary(k) a slice at a time, for a thread that must stay responsive: a generator
   * that yields after each of its core calls (REDUCE_ROWS rows projected, then the vocabulary
   * made of them) and returns the same vocabulary, cached alike. One left unfinished is taken up
   * where it stopped by the next call.
   */
  * reducing(k) {
    checkInt('k', k, 1, this.dim);
    const dim = this.dim;
    while (!this.#reduced.has(k)) {
      const part = this.#reducing.get(k) ?? { rows: new Float32Array(this.size * k), done: 0 };
      this.#reducing.set(k, part);
      const from = part.done;
      const count = Math.min(REDUCE_ROWS, this.size - from);
      if (count > 0) {
        this.#overRows(count * k, (rows, out) => this.#live().reduce(rows + 4 * from * dim, count, k, out),
          part.rows.subarray(from * k, (from + count) * k));
        part.done = from + count;
      } else {
        this.#reduced.set(k, this.#lab.vocabulary(part.rows, this.size, k));
        this.#reducing.delete(k);
      }
      yield;
    }
    return this.#reduced.get(k);
  }

  /**
   * Vectors for a token list: known words get their row; unknown ones a deterministic hashed
   * N(0,1) vector scaled by componentRms, so they look like GloVe's in size. → { vectors, unknown }
   */
  embed(tokens) {
    checkTokens(tokens);
    const vectors = this.#live();
    const dim = this.dim;
    const out = new Float32Array(tokens.length * dim);
    const rows = tokens.map((token) => {
      let row = this.#found.get(token);
      if (row === undefined) {
        // Bounded: typing passes through many partial words.
        if (this.#found.size >= FOUND_CACHE) this.#found.clear();
        row = vectors.find(token);
        this.#found.set(token, row);
      }
      return row;
    });
    // Known words first, through one view of the table (each rows() is an embind call); the
    // unknown words' lab.embed may grow the heap, which detaches that view.
    const table = vectors.rows();
    rows.forEach((row, p) => {
      if (row >= 0) out.set(table.subarray(row * dim, (row + 1) * dim), p * dim);
    });
    const unknown = rows.map((row, p) => {
      if (row >= 0) return false;
      const hashed = this.#lab.embed([tokens[p]], dim);
      for (let j = 0; j < dim; j++) out[p * dim + j] = hashed[j] * this.componentRms;
      return true;
    });
    return { vectors: out, unknown };
  }

  // The core's WordVectors, for lab.analysis (throws once disposed); not public API.
  [VECTOR_HANDLE]() {
    return this.#live();
  }

  dispose() {
    for (const vocabulary of this.#reduced.values()) vocabulary.dispose();
    this.#reduced.clear();
    this.#reducing.clear();
    this.#found.clear();
    this.#vectors?.delete();
    this.#vectors = null;
  }

  #live() {
    if (!this.#vectors) throw new RangeError('vectors: already disposed');
    return this.#vectors;
  }

  // A core kernel run straight over the set's rows where they lie in its heap (no copy out and
  // in): call(rows address, out address) → its status; → its `floats` floats of output, copied
  // into `into` (a Float32Array of that length) when given, else into a new array.
  #overRows(floats, call, into = null) {
    const [out] = this.#heap.reserve(floats);
    this.#heap.call(call(this.#live().rows().byteOffset, out));
    if (!into) return this.#heap.read(out, floats);
    into.set(this.#heap.view(out, floats));
    return into;
  }

  #rowOf(word) {
    const row = this.indexOf(word);
    if (row < 0) throw new RangeError(`word '${word}' is not in the ${this.name} vocabulary`);
    return row;
  }

  #row(row) {
    return this.#live().rows().slice(row * this.dim, (row + 1) * this.dim);
  }
}

/** A WordVectorSet from a vector file's bytes (the core checks the format and names what is wrong). */
export function parseVectors(core, heap, lab, name, bytes) {
  const address = core._malloc(Math.max(1, bytes.length));
  if (!address) throw new RangeError(`not enough wasm memory for a ${bytes.length}-byte vector file`);
  const vectors = new core.WordVectors();
  try {
    core.HEAPU8.set(bytes, address);
    const error = vectors.load(address, bytes.length);
    if (error) throw new RangeError(error);
  } catch (error) {
    vectors.delete();
    throw error;
  } finally {
    core._free(address);
  }
  return new WordVectorSet(name, vectors, core, heap, lab);
}

/**
 * A vocabulary of v word vectors (v×d) held in wasm memory for nearest-neighbour decoding
 * (lab.vocabulary documents it).
 */
export function vocabulary(core, heap, rows, v, d) {
  checkInt('v', v, 1, LIMITS.maxElements);
  checkInt('d', d, 1, LIMITS.maxDim);
  checkElements(v * d);
  checkMatrix('rows', rows, v * d);
  const [input] = heap.reserve(v * d);
  heap.write(input, rows);
  let handle = new core.Vocabulary(input, v, d);
  return {
    size: v,
    dim: d,
    nearest(queries, n, options = {}) {
      if (!handle) throw new RangeError('vocabulary: already disposed');
      return decode(core, heap, handle, v, d, queries, n, options);
    },
    /** The k rows most similar to one query by cosine, best first: [{ row, cosine }]. */
    neighbors(query, k = 10) {
      if (!handle) throw new RangeError('vocabulary: already disposed');
      checkInt('k', k, 1, Math.min(1000, v));
      checkMatrix('query', query, d);
      return topK(core, heap, handle, d, query, k, -1).map(({ row, cosine }) => ({ row, cosine }));
    },
    dispose() {
      handle?.delete();
      handle = null;
    },
  };
}

// The k best rows of a handle with neighbors(query, k, exclude, rows, cosines) → count (a
// Vocabulary or WordVectors): [{ row, cosine }], best first.
function topK(core, heap, handle, d, query, k, exclude) {
  const [q, rows, cosines] = heap.reserve(d, k, k);
  heap.write(q, query);
  const found = handle.neighbors(q, k, exclude, rows, cosines);
  const result = [];
  for (let i = 0; i < found; i++) {
    result.push({ row: core.HEAPU32[rows / 4 + i], cosine: core.HEAPF32[cosines / 4 + i] });
  }
  return result;
}

// Decodes queries against a handle with nearest(q, n, d, truth, best, cosine, rank) (a
// Vocabulary or WordVectors); shared by lab.vocabulary() and WordVectorSet.nearest().
function decode(core, heap, handle, v, d, queries, n, options) {
  checkOptions('options', options, ['truth']);
  checkInt('n', n, 1, LIMITS.maxRows);
  checkElements(n * d);
  checkMatrix('queries', queries, n * d);
  const truth = options.truth;
  if (truth !== undefined) {
    if (!Array.isArray(truth) && !ArrayBuffer.isView(truth)) throw new TypeError('truth must be an array of row indices');
    if (truth.length !== n) throw new RangeError(`truth must have ${n} entries (one per query), got ${truth.length}`);
    for (let i = 0; i < n; i++) checkInt(`truth[${i}]`, truth[i], 0, v - 1);
  }
  const [q, t, best, cosine, rank] = heap.reserve(n * d, n, n, n, n);
  heap.write(q, queries);
  if (truth !== undefined) core.HEAPU32.set(truth, t / 4);
  heap.call(handle.nearest(q, n, d, truth === undefined ? 0 : t, best, cosine, rank));
  const u32 = (address) => core.HEAPU32.slice(address / 4, address / 4 + n);
  return {
    best: u32(best),
    cosine: heap.read(cosine, n),
    ...(truth === undefined ? {} : { rank: u32(rank) }),
  };
}
