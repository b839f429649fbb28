// PosEnc Lab JS API: the one module pages, tutorials and tests import.
//
// It validates every argument (TypeError for a wrong type, RangeError for a wrong value, each
// naming the argument), copies arrays into a reusable wasm heap buffer, calls the core through
// embind and returns fresh Float32Arrays. Shapes are row-major: an n×d matrix is a
// Float32Array(n*d) whose row p starts at p*d.

import { checkBoolean, checkEnum, checkFinite, checkInt, checkOptions } from './checks.mjs';
import { coreBeside, gloveBeside, modelFilesBeside, modelsBeside, modelCode, readFileUrl } from './cores.mjs';
import { SCHEME_TABLE } from './scheme-table.mjs';

// A diverged training step (web/model.mjs): not applied, reported by name.
export { TrainingDivergedError } from './model.mjs';

// LIMITS, SCHEMES, SCHEME_LABELS and SCHEME_ROPE_SCALING are known before load() (pages parse links
// and build their skeletons with them first). They come from scheme-table.mjs, which the build
// writes from the core's own table (scripts/scheme-module.mjs; limits.hpp, scheme_table.hpp);
// load() checks that the core it loads has the same table and refuses one that differs.
// Everything else about the schemes — families, terms, papers, the rules between the scheme
// parameters — comes from the loaded core's table (lab.schemeTable).
export const LIMITS = Object.freeze({
  ...SCHEME_TABLE.limits, // maxRows, maxAttentionRows, maxDim, maxElements (n·d, and heads·n² for compare), …
  maxTextLength: 1 << 20, // characters (UTF-16 code units) per tokenize() call
  maxCompareBuckets: SCHEME_TABLE.limits.maxBuckets, // the same limit as maxBuckets, by its older name
});

/** Every scheme compare() can compute, in display order (the core's table order), with its label. */
export const SCHEME_LABELS = Object.freeze(Object.fromEntries(SCHEME_TABLE.schemes.map((s) => [s.name, s.label])));
export const SCHEMES = Object.freeze(Object.keys(SCHEME_LABELS));
/** The RoPE extensions: scheme → the ropeScaling type ('pi' | 'ntk' | 'yarn') a rotary model takes for it. */
export const SCHEME_ROPE_SCALING = Object.freeze(Object.fromEntries(SCHEME_TABLE.schemes
  .filter((s) => s.ropeScaling && s.ropeScaling !== 'none').map((s) => [s.name, s.ropeScaling])));
/** The RoPE scaling types ('none' first: plain RoPE), the core's names for ropeFrequencies and ropeScaling.type. */
export const ROPE_SCALINGS = SCHEME_TABLE.ropeScalings;
const ROPE_DEFAULTS = SCHEME_TABLE.ropeDefaults;
const CLASSIC_SCHEMES = SCHEMES.slice(0, 3);

const FLOAT32_MAX = 3.4028234663852886e38;
const FLOAT32_MIN_NORMAL = 1.1754943508222875e-38;
const LAYOUTS = ['interleaved', 'half'];
const CONCAT_MODES = ['same-width', 'widened'];
const COMPARE_OPTIONS = ['alpha', 'base', 'layout', 'pairing', 'dPos', 'concat', 'causal', 'heads', 'seed', 'scale', 'concatWords',
  'reuse', 'schemes'];
const XPOS_ROLES = ['query', 'key'];

// The smallest module that uses a SIMD128 instruction (a function returning v128.const 0):
// WebAssembly.validate accepts it exactly where wasm SIMD is supported.
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 22, 1, 20, 0, 253, 12,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 11,
]);

export function wasmSimdSupported() {
  try {
    return typeof WebAssembly === 'object' && WebAssembly.validate(SIMD_PROBE);
  } catch {
    return false;
  }
}

const GLOVE_FILE = 'glove-6b-100d-20k.i8';
const WITH_SCRATCH = Symbol('withScratch');
const DECODE = Symbol('decode');
const TOP_K = Symbol('topK');
const COMPARE_WITH = Symbol('compareWith');
const COMPARE_ARGS = Symbol('compareArgs');
const LANES = Symbol('lanes');
const VECTOR_HANDLE = Symbol('vectorHandle');
const loaded = new Map();

/**
 * Resolves to the lab once the wasm core is ready; one instance per flavour and assets folder, cached.
 * @param {{ simd?: boolean, assetsUrl?: string | URL }} [options] simd: false forces the scalar
 *   build; true requires SIMD. assetsUrl: the folder holding the data files (glove-6b-100d-20k.i8),
 *   for hosts that copy only the script; default: beside this module. Another origin must send
 *   Access-Control-Allow-Origin (docs/EMBEDDING.md, "Assets from another host").
 */
export function load(options = {}) {
  checkOptions('load options', options, ['simd', 'assetsUrl']);
  const { simd = wasmSimdSupported() } = options;
  if (typeof simd !== 'boolean') throw new TypeError('simd must be a boolean');
  if (simd && !wasmSimdSupported()) throw new RangeError('simd: this engine does not support wasm SIMD');
  const assets = assetsFolder(options.assetsUrl);
  const flavour = simd ? 'simd' : 'scalar';
  const key = `${flavour} ${assets?.href}`;
  if (!loaded.has(key)) {
    // Without assetsUrl, GloVe is named statically beside this module (gloveBeside), so bundlers copy it.
    const beside = options.assetsUrl === undefined;
    const glove = beside ? gloveBeside() : assets && new URL(GLOVE_FILE, assets);
    const files = (beside && readsManifest ? modelFilesBeside() : null) ?? {};
    const pending = instantiate(flavour).then(async (core) =>
      new Lab(core, assets, glove, files, readsManifest ? await readManifest(assets, files.manifest) : Object.freeze([])));
    pending.catch(() => loaded.delete(key));
    loaded.set(key, pending);
  }
  return loaded.get(key);
}

// assetsUrl as a folder URL: relative ones resolve against the page (or, in Node, this module).
// null when unset and this module has no folder: loaded from a blob: or data: URL, as anywidget
// loads a notebook widget's module.
function assetsFolder(assetsUrl) {
  if (assetsUrl === undefined) {
    try {
      return new URL('./', import.meta.url);
    } catch {
      return null; // URL.canParse would say so, but is missing before 2023's browsers
    }
  }
  if (typeof assetsUrl !== 'string' && !(assetsUrl instanceof URL)) throw new TypeError('assetsUrl must be a string or a URL');
  const base = typeof document === 'object' ? document.baseURI : import.meta.url;
  let url;
  try {
    url = new URL(assetsUrl, base);
  } catch {
    throw new RangeError(`assetsUrl must be a URL (got '${assetsUrl}')`);
  }
  // A folder: "…/assets" and "…/assets/" both mean the files inside it.
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url;
}

// How a core flavour becomes a running Emscripten module: by default the posenc-core-<flavour>
// .mjs/.wasm pair beside this module, and the model core's posenc-models-<flavour> pair
// (web/cores.mjs). A bundle that carries the wasm inside itself (the <posenc-lab> element,
// web/element/element.js → dist/posenc-lab.js) installs its own before any load().
let instantiate = coreBeside;
let instantiateModels = modelsBeside;
let readsManifest = true;  // lab.pretrained from the data folder's models/manifest.json

/**
 * For bundles, not pages: loader(flavour: 'simd' | 'scalar') → Promise of the core's Emscripten
 * module. options.models: the same for the model core (default: beside this module);
 * options.pretrained: whether load() reads the shipped models' manifest (default false).
 */
export function setCoreLoader(loader, options = {}) {
  if (typeof loader !== 'function') throw new TypeError('loader must be a function');
  checkOptions('options', options, ['models', 'pretrained']);
  if (options.models !== undefined && typeof options.models !== 'function') throw new TypeError('models must be a function');
  instantiate = loader;
  instantiateModels = options.models ?? instantiateModels;
  readsManifest = checkBoolean('pretrained', options.pretrained ?? false);
}

const models = new Map();

/**
 * Resolves to the model core (web/model.mjs, Models: createModel, createTask, loadModel,
 * modelLimits, simd), fetched on first use: posenc-models-<flavour>, its own wasm module and heap,
 * so pages that show no model never download it. Cached per flavour.
 * @param {{ simd?: boolean }} [options] as load's.
 */
export function loadModels(options = {}) {
  checkOptions('loadModels options', options, ['simd']);
  const { simd = wasmSimdSupported() } = options;
  if (typeof simd !== 'boolean') throw new TypeError('simd must be a boolean');
  if (simd && !wasmSimdSupported()) throw new RangeError('simd: this engine does not support wasm SIMD');
  const flavour = simd ? 'simd' : 'scalar';
  if (!models.has(flavour)) {
    // The model code (web/model.mjs) comes with the model core, not with the page's first load.
    const pending = Promise.all([instantiateModels(flavour), modelCode()])
      .then(([core, { Models }]) => new Models(core, simd, preparedText));
    pending.catch(() => models.delete(flavour));
    models.set(flavour, pending);
  }
  return models.get(flavour);
}

// Bytes of a data file: read from disk for file: URLs in Node, fetched otherwise. A fetch refused
// by CORS only says "Failed to fetch", so the message names the likely cause. onProgress({ loaded,
// total }) after each piece (total: the expected size, if known); signal aborts with an AbortError.
async function readAsset(url, { onProgress, signal, total } = {}) {
  if (readFileUrl && url.protocol === 'file:') {
    let bytes;
    try {
      bytes = await readFileUrl(url, signal);
    } catch (error) {
      if (error.name === 'AbortError') throw error;
      throw new Error(`could not load ${url.href}: ${error.code ?? error.message}`);
    }
    onProgress?.({ loaded: bytes.length, total: bytes.length });
    return bytes;
  }
  let response;
  try {
    response = await fetch(url, { signal });
  } catch (error) {
    if (error.name === 'AbortError') throw error;
    throw new Error(`could not fetch ${url.href} (${error.message}; a file on another origin must be served with Access-Control-Allow-Origin)`);
  }
  if (!response.ok) throw new Error(`could not load ${url.href}: HTTP ${response.status}`);
  if (!onProgress || !response.body) return new Uint8Array(await response.arrayBuffer());
  const size = total ?? (Number(response.headers.get('content-length')) || undefined);
  const pieces = [];
  let loaded = 0;
  for (const reader = response.body.getReader(); ;) {
    const { done, value } = await reader.read();
    if (done) break;
    pieces.push(value);
    loaded += value.length;
    onProgress({ loaded, total: size ?? loaded });
  }
  const bytes = new Uint8Array(loaded);
  pieces.reduce((at, piece) => (bytes.set(piece, at), at + piece.length), 0);
  return bytes;
}

// The pretrained word-level models (data/models/, scripts/train-models), shipped in the data
// folder as models/: their manifest, or none when it is missing or unreadable (or no folder is known).
const MODELS_DIR = 'models/';
const PRETRAINED_KEYS = ['name', 'scheme', 'config', 'vocabSize', 'heldOutLoss', 'heldOutPerplexity', 'heldOutTokens', 'bytes', 'sha256'];

async function readManifest(assets, url = assets && new URL(`${MODELS_DIR}manifest.json`, assets)) {
  if (!assets) return Object.freeze([]);
  try {
    const manifest = JSON.parse(new TextDecoder().decode(await readAsset(url)));
    return Object.freeze(manifest.models.map((entry) => {
      const picked = Object.fromEntries(PRETRAINED_KEYS.map((key) => [key, entry[key]]));
      return Object.freeze({ ...picked, label: SCHEME_LABELS[entry.scheme], config: Object.freeze({ ...entry.config }) });
    }));
  } catch {
    return Object.freeze([]);
  }
}

async function sha256Hex(bytes) {
  if (!globalThis.crypto?.subtle) throw new Error('loadPretrained checks each file\'s sha256 with crypto.subtle, which only a secure context (https or localhost) has');
  const digest = new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

function throwIfAborted(signal) {
  if (signal?.aborted) throw signal.reason ?? new DOMException('loadPretrained was aborted', 'AbortError');
}

// A word-vector set living in wasm memory; see Lab.loadVectors.
const FOUND_CACHE = 1 << 14; // words whose row WordVectorSet.embed remembers

class WordVectorSet {
  #vectors;
  #core;
  #lab;
  #reduced = new Map();  // k → decoding vocabulary of PCA-reduced rows
  #found = new Map();    // word → row or −1, for embed: a find() is an embind call with a string copy

  constructor(name, vectors, core, lab) {
    this.#vectors = vectors;
    this.#core = core;
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
    if (typeof word !== 'string') throw new TypeError('word must be a string');
    return this.#live().find(word) >= 0;
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
    return this.#lab[TOP_K](vectors, this.dim, query, k, exclude).map(({ row, cosine }) => ({ word: vectors.word(row), cosine }));
  }

  /**
   * Decodes n vectors against the whole vocabulary by cosine: { best, cosine } per query, and with
   * options.truth (row indices, e.g. from indexOf) the 1-based rank of the true word.
   */
  nearest(queries, n, options = {}) {
    const vectors = this.#live();
    return this.#lab[DECODE](vectors, this.size, this.dim, queries, n, options);
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
    const additive = options.additive ?? true;
    if (typeof additive !== 'boolean') throw new TypeError('additive must be a boolean');
    const base = checkBase(options.base ?? 10000);
    const layout = checkEnum('layout', options.layout ?? 'interleaved', LAYOUTS);
    if (additive && d % 2 !== 0) throw new RangeError(`additive identity needs an even dimension (dimensions form pairs), got ${d}`);
    const live = this.#live();
    const rows = new Uint32Array(n);
    for (let p = 0; p < n; p++) {
      const row = live.find(tokens[p]);
      rows[p] = row >= 0 ? row : 0xffffffff;
    }
    return this.#lab[WITH_SCRATCH](n * d + 4 * n, (address) => {
      const at = (i) => address + 4 * (n * d + i * n);
      this.#core.HEAPF32.set(vectors, address / 4);
      this.#core.HEAPU32.set(rows, at(0) / 4);
      const error = live.identity(at(0), address, n, alpha, additive, base, layout, at(1), at(2), at(3));
      if (error) throw new RangeError(error);
      // Views re-read after the call: it may have grown the heap.
      return {
        best: this.#core.HEAPU32.slice(at(1) / 4, at(1) / 4 + n),
        cosine: this.#core.HEAPF32.slice(at(2) / 4, at(2) / 4 + n),
        rank: this.#core.HEAPU32.slice(at(3) / 4, at(3) / 4 + n),
      };
    });
  }

  /** Every vector, row i for word(i): a Float32Array(size*dim) copy. */
  rows() {
    return this.#live().rows().slice();
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
    return this.#lab[WITH_SCRATCH](n * this.dim + n * k, (address) => {
      this.#core.HEAPF32.set(x, address / 4);
      const out = address + 4 * n * this.dim;
      const error = vectors.reduce(address, n, k, out);
      if (error) throw new RangeError(error);
      return this.#core.HEAPF32.slice(out / 4, out / 4 + n * k);
    });
  }

  /**
   * The vocabulary reduced to k PCA coordinates, as a decoding vocabulary
   * ({ size, dim, nearest, dispose }, see lab.vocabulary): what the concatenated scheme's word
   * part is decoded against. Cached per k; disposed with this set.
   */
  reducedVocabulary(k) {
    checkInt('k', k, 1, this.dim);
    if (!this.#reduced.has(k)) {
      const all = this.#live().rows().slice();
      this.#reduced.set(k, this.#lab.vocabulary(this.reduce(all, this.size, k), this.size, k));
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
    this.#found.clear();
    this.#vectors?.delete();
    this.#vectors = null;
  }

  #live() {
    if (!this.#vectors) throw new RangeError('vectors: already disposed');
    return this.#vectors;
  }

  #rowOf(word) {
    if (typeof word !== 'string') throw new TypeError('word must be a string');
    const row = this.#live().find(word);
    if (row < 0) throw new RangeError(`word '${word}' is not in the ${this.name} vocabulary`);
    return row;
  }

  #row(row) {
    return this.#live().rows().slice(row * this.dim, (row + 1) * this.dim);
  }
}

class Lab {
  #core;
  #buffer = 0;      // heap address of the scratch buffer (bytes below)
  #capacity = 0;    // in floats
  #comparison;
  #glove;
  #assets;   // the folder URL of the data files (load's assetsUrl), or null: none known
  #gloveBytes; // a promise of its bytes, once asked for
  #modelFiles; // { manifest, <model name>: URL } named statically beside this module (web/cores.mjs), or {}
  #gloveUrl; // GLOVE_FILE's URL: in #assets, or beside this module (web/cores.mjs), or null
  #models;   // loadModels()'s promise once asked for, and its result once resolved:
  #modelCore;

  #table;    // the core's scheme table, derived once (schemeTable below)
  #settled;  // the last settleSchemeOptions call: { key, result }

  constructor(core, assets, gloveUrl, modelFiles, pretrained) {
    this.#core = core;
    this.#assets = assets;
    this.#gloveUrl = gloveUrl;
    this.#modelFiles = modelFiles;
    this.#table = deriveTable(core.schemeTable());
    this.version = core.version();
    this.simd = core.simdBuild();
    this.limits = LIMITS;
    this.SCHEMES = SCHEMES;
    /**
     * The shipped word-level models (data/models/manifest.json), one per scheme: frozen
     * { name, scheme, label, config, vocabSize, heldOutLoss, heldOutPerplexity, heldOutTokens,
     * bytes, sha256 }; [] when the manifest is missing (and in the <posenc-lab> element).
     */
    this.pretrained = pretrained;
    Object.freeze(this);
  }

  /**
   * The core's scheme table (src/encodings/scheme_table.hpp): { schemes, params, trainable }, frozen.
   * schemes: [{ name, label, family ('absolute' | 'concatenated' | 'rotation' | 'logit bias' |
   * 'none'), trainable, seeded, terms, paper }] in SCHEMES order; params: [{ name, label, default,
   * min, max, minOpen, integer, even, pageMin, pageMax, schemes }] — compare's and
   * distanceCurves' scheme options; trainable: the schemes a model can be trained with.
   */
  get schemeTable() {
    return this.#table.public;
  }

  /**
   * The rules between scheme options (ALiBi head ≤ heads, T5 max distance beyond the exact
   * buckets, YaRN α < β) applied as the core applies them: → { options: every scheme option,
   * settled, notes: [one sentence per value changed] }. Missing options take their defaults;
   * each given one must be within its own limits (RangeError otherwise).
   */
  settleSchemeOptions(options = {}, { causal = false } = {}) {
    const values = this.#schemeOptionValues(options, []);
    checkBoolean('causal', causal);
    // Pages ask on every keystroke with the same values: the last answer is kept (frozen), so a
    // keystroke does not cross into wasm for it.
    const key = `${values.join()}/${causal}`;
    if (this.#settled?.key === key) return this.#settled.result;
    const settled = this.#core.settleSchemeOptions(values, causal);
    if (settled.error) throw new RangeError(settled.error);
    const given = {};
    const out = {};
    this.#table.params.forEach((p, i) => {
      given[p.name] = values[i];
      out[p.name] = settled.values[i];
    });
    const notes = settled.rules.map((rule) => RULE_NOTES[rule](given, out, settled.t5Exact));
    const result = Object.freeze({ options: Object.freeze(out), notes: Object.freeze(notes) });
    this.#settled = { key, result };
    return result;
  }

  // The scheme options' values in the table's order, defaults for the missing ones; types are
  // checked here, limits and rules by the core (its messages name the option).
  #schemeOptionValues(options, allowed) {
    checkOptions('options', options, [...allowed, ...this.#table.paramNames]);
    return this.#table.params.map((p) => {
      const value = options[p.name] ?? p.default;
      if (typeof value !== 'number') throw new TypeError(`${p.name} must be a number`);
      return value;
    });
  }

  /** Current wasm memory size in bytes (it grows and never shrinks); read-only, for leak tests. */
  get heapBytes() {
    return this.#core.HEAPU8.length;
  }

  /** Sinusoidal table PE: Float32Array(n*d), row p = PE(p). */
  sinusoidal(n, d, options = {}) {
    checkOptions('options', options, ['base', 'layout']);
    checkInt('n', n, 1, LIMITS.maxRows);
    checkEvenDim('d', d);
    checkElements(n * d);
    const base = checkBase(options.base ?? 10000);
    const layout = checkEnum('layout', options.layout ?? 'interleaved', LAYOUTS);
    const [out] = this.#reserve(n * d);
    this.#call(this.#core.sinusoidal(out, n, d, base, layout));
    return this.#read(out, n * d);
  }

  /** Rotary rotation: new Float32Array(n*d), row p rotated for position p + offset. */
  rotate(x, n, d, options = {}) {
    checkOptions('options', options, ['base', 'offset', 'pairing']);
    const { offset, pairing } = checkRotationInput(x, n, d, options);
    const base = checkBase(options.base ?? 10000);
    const [input, out] = this.#reserve(n * d, n * d);
    this.#write(input, x);
    this.#call(this.#core.rotate(input, out, n, d, base, offset, pairing));
    return this.#read(out, n * d);
  }

  /** softmax(q·kᵀ·scale [+ causal mask])·v → { weights: n×n, output: n×d }. */
  attention(q, k, v, n, d, options = {}) {
    checkOptions('options', options, ['causal', 'scale']);
    checkInt('n', n, 1, LIMITS.maxAttentionRows);
    checkInt('d', d, 1, LIMITS.maxDim);
    checkElements(n * d);
    for (const [name, m] of [['q', q], ['k', k], ['v', v]]) checkMatrix(name, m, n * d);
    const causal = options.causal ?? false;
    if (typeof causal !== 'boolean') throw new TypeError('causal must be a boolean');
    const scale = checkFloat32('scale', options.scale ?? 1 / Math.sqrt(d));
    const [qa, ka, va, weights, output] = this.#reserve(n * d, n * d, n * d, n * n, n * d);
    this.#write(qa, q);
    this.#write(ka, k);
    this.#write(va, v);
    this.#call(this.#core.attention(qa, ka, va, n, d, scale, causal, weights, output));
    return { weights: this.#read(weights, n * n), output: this.#read(output, n * d) };
  }

  /** ALiBi slopes for `heads` heads (Press et al.): Float64Array(heads), head k's slope first. */
  alibiSlopes(heads) {
    checkInt('heads', heads, 1, LIMITS.maxHeads);
    const [raw] = this.#reserve(2 * heads + 1);
    const out = align8(raw);
    this.#call(this.#core.alibiSlopes(heads, out));
    return this.#core.HEAPF64.slice(out / 8, out / 8 + heads);
  }

  /**
   * ALiBi bias of one head: Float32Array(n*n), row i (query) = −slope·(i − j); above the diagonal
   * −Infinity when causal (default), −slope·(j − i) when not. Add it to the attention logits.
   */
  alibiBias(n, options = {}) {
    checkOptions('options', options, ['heads', 'head', 'causal']);
    checkInt('n', n, 1, LIMITS.maxAttentionRows);
    const heads = checkInt('heads', options.heads ?? 8, 1, LIMITS.maxHeads);
    const head = checkInt('head', options.head ?? 0, 0, heads - 1);
    const causal = checkBoolean('causal', options.causal ?? true);
    const slope = this.alibiSlopes(heads)[head];
    const [out] = this.#reserve(n * n);
    this.#call(this.#core.alibiBias(slope, n, causal, out));
    return this.#read(out, n * n);
  }

  /**
   * T5 relative-position bias (Raffel et al.): { bias: Float32Array(n*n), buckets: Int32Array(n*n),
   * values: Float32Array(numBuckets) }. bias[i][j] = values[buckets[i][j]], bucket of j − i.
   * values are SEEDED N(0, 1) stand-ins, not trained weights. The causal mask is attention's job.
   */
  t5Bias(n, options = {}) {
    checkOptions('options', options, ['bidirectional', 'numBuckets', 'maxDistance', 'seed']);
    checkInt('n', n, 1, LIMITS.maxAttentionRows);
    const bidirectional = checkBoolean('bidirectional', options.bidirectional ?? true);
    const numBuckets = checkInt('numBuckets', options.numBuckets ?? 32, 4, LIMITS.maxBuckets);
    if (numBuckets % 2 !== 0) throw new RangeError(`numBuckets must be even (got ${numBuckets})`);
    const maxExact = (bidirectional ? numBuckets / 2 : numBuckets) / 2;
    const maxDistance = checkInt('maxDistance', options.maxDistance ?? 128, maxExact + 1, LIMITS.maxT5Distance);
    const seed = checkInt('seed', options.seed ?? 1, 0, 2 ** 32 - 1);
    const [out, buckets, values] = this.#reserve(n * n, n * n, numBuckets);
    this.#call(this.#core.t5Bias(n, bidirectional, numBuckets, maxDistance, seed, out, buckets, values));
    return {
      bias: this.#read(out, n * n),
      buckets: this.#core.HEAP32.slice(buckets / 4, buckets / 4 + n * n),
      values: this.#read(values, numBuckets),
    };
  }

  /**
   * Per-pair RoPE frequencies ω_i (i = 0 … d/2 − 1) for context extension from trainedLength L to
   * evalLength L' (s = max(1, L'/L)): scaling 'none' (base^(−2i/d)), 'pi' (Chen et al.: ω/s),
   * 'ntk' (base·s^(d/(d−2))), 'yarn' (Peng et al.: NTK-by-parts ramp; alpha, beta and trainedLength default to the core's SCHEME_TABLE.ropeDefaults).
   * → { frequencies: Float64Array(d/2), scale: s, qkFactor } — qkFactor = 0.1·ln s + 1 for YaRN
   * (multiply q and k by it, i.e. logits by its square), else 1. Use with rotateWith().
   */
  ropeFrequencies(d, options = {}) {
    checkOptions('options', options, ['base', 'scaling', 'trainedLength', 'evalLength', 'alpha', 'beta']);
    checkEvenDim('d', d);
    const base = checkBase(options.base ?? 10000);
    const scaling = options.scaling ?? ROPE_SCALINGS[0];
    if (typeof scaling !== 'string') throw new TypeError('scaling must be a string');  // its value: the core's
    const trainedLength = checkRange('trainedLength', options.trainedLength ?? ROPE_DEFAULTS.trainedLength, 1, LIMITS.maxLength);
    const evalLength = checkRange('evalLength', options.evalLength ?? trainedLength, 1, LIMITS.maxLength);
    const alpha = checkRange('alpha', options.alpha ?? ROPE_DEFAULTS.alpha, 0, LIMITS.maxLength);
    const beta = checkRange('beta', options.beta ?? ROPE_DEFAULTS.beta, 0, LIMITS.maxLength);
    if (!(beta > alpha)) throw new RangeError(`beta must be greater than alpha (got alpha ${alpha}, beta ${beta})`);
    const count = d / 2 + 2;
    const [raw] = this.#reserve(2 * count + 1);
    const out = align8(raw);
    this.#call(this.#core.ropeFrequencies(d, base, scaling, trainedLength, evalLength, alpha, beta, out));
    const values = this.#core.HEAPF64.slice(out / 8, out / 8 + count);
    return { frequencies: values.slice(0, d / 2), scale: values[d / 2], qkFactor: values[d / 2 + 1] };
  }

  /**
   * Rotary rotation with explicit per-pair frequencies (d/2 numbers from 0 to 1, e.g. from
   * ropeFrequencies): new Float32Array(n*d). With base^(−2i/d) it equals rotate() bit for bit.
   */
  rotateWith(x, n, d, frequencies, options = {}) {
    checkOptions('options', options, ['offset', 'pairing']);
    const { offset, pairing } = checkRotationInput(x, n, d, options);
    checkMatrix('frequencies', frequencies, d / 2);
    for (let i = 0; i < frequencies.length; i++) {
      if (!(frequencies[i] >= 0 && frequencies[i] <= 1)) {
        throw new RangeError(`frequencies[${i}] must be from 0 to 1 (got ${frequencies[i]})`);
      }
    }
    const [input, out, raw] = this.#reserve(n * d, n * d, d + 1);
    const omega = align8(raw);
    this.#write(input, x);
    this.#core.HEAPF64.set(frequencies, omega / 8);
    this.#call(this.#core.rotateWith(input, out, n, d, omega, offset, pairing));
    return this.#read(out, n * d);
  }

  /**
   * xPos (Sun et al.): RoPE rotation for position p + offset, then pair i scaled by ζ_i^(P/scaleBase)
   * (role 'query') or ζ_i^(−P/scaleBase) (role 'key'), ζ_i = (2i/d + gamma)/(1 + gamma).
   * new Float32Array(n*d). Large |P|/scaleBase overflows float32 (RangeError): keep positions small.
   */
  xpos(x, n, d, options = {}) {
    checkOptions('options', options, ['base', 'offset', 'pairing', 'role', 'gamma', 'scaleBase']);
    const { offset, pairing } = checkRotationInput(x, n, d, options);
    const base = checkBase(options.base ?? 10000);
    const role = checkEnum('role', options.role ?? 'query', XPOS_ROLES);
    const gamma = checkRange('gamma', options.gamma ?? 0.4, Number.MIN_VALUE, 1e6);
    const scaleBase = checkRange('scaleBase', options.scaleBase ?? 512, 1, 1e9);
    const [input, out] = this.#reserve(n * d, n * d);
    this.#write(input, x);
    this.#call(this.#core.xposRotate(input, out, n, d, base, offset, pairing, gamma, scaleBase, role === 1));
    return this.#read(out, n * d);
  }

  /**
   * A learned-STYLE absolute table: seeded N(0, 1/2) values (n×d), NOT trained weights; σ = 1/√2
   * matches the sinusoidal table's RMS. Row p does not depend on n (for a given seed and d).
   */
  learnedTable(n, d, options = {}) {
    checkOptions('options', options, ['seed']);
    checkInt('n', n, 1, LIMITS.maxRows);
    checkEvenDim('d', d);
    checkElements(n * d);
    const seed = checkInt('seed', options.seed ?? 1, 0, 2 ** 32 - 1);
    const [out] = this.#reserve(n * d);
    this.#call(this.#core.learnedTable(out, n, d, seed));
    return this.#read(out, n * d);
  }

  /** Lowercased word and punctuation tokens (rules: docs/API.md, "Tokenizer"). */
  tokenize(text) {
    return this.#core.tokenize(preparedText(text));
  }

  /** Synthetic word vectors: Float32Array(tokens.length*d), N(0,1) seeded by each token's hash. */
  embed(tokens, d) {
    checkTokens(tokens);
    checkEvenDim('d', d);
    checkElements(tokens.length * d);
    const [row] = this.#reserve(d);
    const out = new Float32Array(tokens.length * d);
    for (let p = 0; p < tokens.length; p++) {
      this.#call(this.#core.syntheticEmbedding(tokens[p], row, d));
      out.set(this.#view(row, d), p * d);
    }
    return out;
  }

  /**
   * Runs one sentence through the requested schemes (options.schemes, a non-empty subset of
   * SCHEMES; default ['additive', 'concatenated', 'rotary']); only those are computed.
   * embeddings: Float32Array(n*d) word vectors (e.g. from embed()); see docs/API.md for the options
   * and the result ({ n, d, dPos, heads, schemes, pe?, peConcat?, [scheme]: lane }).
   * options.concatWords: the same words in the basis whose leading coordinates the concatenated
   * scheme keeps (vectors.reduce(E, n, d) for PCA); by default it keeps E's leading coordinates.
   * options.reuse: a previous result of compare() whose arrays may be overwritten with this
   * call's (those of the same place and length are; it must not be read as the old result after).
   * Each lane also reports xMaxAbs = max|x| and termMaxAbs[t] = max|term t| (colour ranges).
   * The lab remembers its last call: rows unchanged since then keep their products (docs/API.md).
   */
  compare(embeddings, n, d, options = {}) {
    this.#comparison ??= new this.#core.Comparison();
    return this[COMPARE_WITH](this.#comparison, embeddings, n, d, options);
  }

  [COMPARE_WITH](c, embeddings, n, d, options) {
    const args = this[COMPARE_ARGS](options, d);
    checkInt('n', n, 1, LIMITS.maxCompareTokens);
    checkMatrix('embeddings', embeddings, n * d);
    const concatWords = options.concatWords;
    if (concatWords !== undefined) checkMatrix('concatWords', concatWords, n * d);
    const [input, reduced] = this.#reserve(n * d, concatWords === undefined ? 0 : n * d);
    this.#write(input, embeddings);
    if (concatWords !== undefined) this.#write(reduced, concatWords);
    this.#call(c.configure(args.mask, args.params));
    this.#call(c.run(input, n, d, args.alpha, args.base, args.layout, args.pairing, args.dPos, args.concat, args.causal,
      args.heads, args.seed, args.scale, concatWords === undefined ? 0 : reduced));
    return this[LANES](c.lanes(), args, n, d, options.reuse);
  }

  // compare()'s options but the arrays, checked for width d (n is not needed): the core's
  // arguments. extra: further option names the caller accepts.
  [COMPARE_ARGS](options, d, extra = []) {
    const params = this.#schemeOptionValues(options, [...COMPARE_OPTIONS, ...extra]);
    checkEvenDim('d', d);
    const schemes = checkSchemes(options.schemes ?? CLASSIC_SCHEMES);
    const alpha = checkFloat32('alpha', options.alpha ?? 1);
    const base = checkBase(options.base ?? 10000);
    const layout = checkEnum('layout', options.layout ?? 'interleaved', LAYOUTS);
    const pairing = checkEnum('pairing', options.pairing ?? 'interleaved', LAYOUTS);
    const concat = checkEnum('concat', options.concat ?? 'same-width', CONCAT_MODES);
    const dPos = checkDPos(options.dPos, d, concat, schemes.includes('concatenated'));
    const causal = options.causal ?? false;
    if (typeof causal !== 'boolean') throw new TypeError('causal must be a boolean');
    const heads = checkInt('heads', options.heads ?? 0, 0, LIMITS.maxHeads);
    const seed = checkInt('seed', options.seed ?? 1, 0, 2 ** 32 - 1);
    // 0 tells the core "1/√d_head"; a given scale must stay positive once rounded to float32.
    const scale = options.scale === undefined ? 0 : checkFloat32('scale', options.scale);
    if (options.scale !== undefined && !(scale >= FLOAT32_MIN_NORMAL)) {
      throw new RangeError(`scale must be at least ${FLOAT32_MIN_NORMAL} (got ${scale})`);
    }
    const reuse = options.reuse;
    if (reuse !== undefined && (reuse === null || typeof reuse !== 'object')) {
      throw new TypeError('reuse must be a previous result of compare()');
    }
    return { schemes, mask: schemeMask(schemes), params, alpha, base, layout, pairing, concat, dPos, causal, heads, seed, scale };
  }

  // compare()'s result from the core's heap views of its lanes (lanes_view in
  // src/bindings/analysis.cpp), copied out — into reuse's array of the same place and size if any
  // (overwriting it spares allocating and zeroing up to ~12 MB per call at n = 512).
  [LANES](raw, args, n, d, reuse) {
    const { schemes, params, dPos, heads } = args;
    const result = { n, d, dPos, heads: Math.max(heads, 1), schemes: [...schemes] };
    const copy = (view, old) => (old instanceof Float32Array && old.length === view.length ? (old.set(view), old) : view.slice());
    if (schemes.includes('additive')) result.pe = copy(raw.pe, reuse?.pe);
    if (schemes.includes('concatenated')) result.peConcat = copy(raw.peConcat, reuse?.peConcat);
    for (const name of schemes) {
      const core = raw.lanes[SCHEMES.indexOf(name)];
      const old = reuse?.[name];
      const lane = {
        width: core.width,
        x: copy(core.x, old?.x),
        weights: copy(core.weights, old?.weights),
        terms: copy(core.terms, old?.terms),
        termNames: [...this.#table.byName[name].terms],
        xMaxAbs: core.magnitudes[0],
        termMaxAbs: Array.from(core.magnitudes.subarray(1)),
      };
      if (name === 'alibi') lane.slopes = core.parameters.slice();
      if (name === 't5') lane.buckets = raw.buckets.slice();
      if (name === 'learned') lane.trainedLength = params[this.#table.paramNames.indexOf('trainedLength')];
      if (name === 'nope') {
        lane.masked = copy(core.masked, old?.masked);
        lane.unmasked = copy(core.unmasked, old?.unmasked);
      }
      if (this.#table.byName[name].family === 'rotation') {
        lane.frequencies = core.parameters.slice();
        lane.scaleFactor = core.scaleFactor;
        if (name === 'yarn') lane.qkFactor = core.qkFactor;
      }
      result[name] = lane;
    }
    return result;
  }

  /**
   * One keystroke in one wasm call: text and settings in; tokens, word vectors and the chosen
   * lanes out. vectors: a WordVectorSet (from loadVectors; keep it undisposed while this lives)
   * or { synthetic: d } for synthetic vectors of even width d. → { update(text, options), dispose() }.
   * update(text, options): options are compare()'s (reuse included; no concatWords: the PCA word
   * part of a set's vectors is made inside) plus maxTokens (default LIMITS.maxCompareTokens) and
   * peTables (default false). → { tokens, total (tokens before the cut to maxTokens), unknown:
   * boolean[], vectors: Float32Array(n·d) unscaled word vectors, result: compare()'s result,
   * pe, peConcat: with peTables the sinusoidal tables n×d and n×dPos (sinusoidal()'s, the
   * lanes' own when additive or concatenated is chosen), else null }; result, pe and peConcat
   * are null when there are no tokens. The same bits as tokenize, embed, reduce, compare and
   * sinusoidal called one by one; rows of the tokens a call shares (from the start) with the last
   * one are not computed again.
   */
  analysis(vectors) {
    const set = vectors instanceof WordVectorSet ? vectors : null;
    if (!set) {
      if (vectors === null || typeof vectors !== 'object') throw new TypeError('vectors must be a WordVectorSet or { synthetic: d }');
      checkOptions('vectors', vectors, ['synthetic']);
    }
    const d = set ? set.dim : checkEvenDim('synthetic', vectors.synthetic);
    let handle = new this.#core.Analysis();
    if (set) handle.attach(set[VECTOR_HANDLE]());
    const lab = this;
    return {
      update(text, options = {}) {
        if (!handle) throw new RangeError('analysis: already disposed');
        checkText(text);
        if (options.concatWords !== undefined) throw new TypeError('options.concatWords is not an analysis option: the analysis makes the word part itself');
        const args = lab[COMPARE_ARGS](options, d, ['maxTokens', 'peTables']);
        const maxTokens = checkInt('maxTokens', options.maxTokens ?? LIMITS.maxCompareTokens, 1, LIMITS.maxCompareTokens);
        const peTables = checkBoolean('peTables', options.peTables ?? false);
        set?.[VECTOR_HANDLE]();  // throws once the set is disposed
        const raw = handle.update(wellFormed(text), { ...args, schemes: args.mask, d, maxTokens, peTables });
        if (raw.error) throw new RangeError(raw.error);
        const n = raw.tokens.length;
        const result = n ? lab[LANES](raw, args, n, d, options.reuse) : null;
        const table = (lanes, view) => (n && peTables ? lanes ?? view.slice() : null);
        return {
          tokens: raw.tokens,
          total: raw.total,
          unknown: Array.from(raw.unknown, Boolean),
          vectors: raw.embeddings.slice(),
          result,
          pe: table(result?.pe, raw.pe),
          peConcat: table(result?.peConcat, raw.peConcat),
        };
      },
      dispose() {
        handle?.delete();
        handle = null;
      },
    };
  }

  /**
   * Score against distance, per scheme: the position-dependent part of the logit between two
   * identical content vectors k tokens apart (query at position k, key at 0), in logit units
   * (÷√width like the lanes), k = 0 … maxDistance:
   *   additive      PE(k)·PE(0)/√d = Σ_i cos(k·ω_i)/√d
   *   concatenated  PE_dPos(k)·PE_dPos(0)/√w (ω of dPos dims; w = d, or d + dPos when widened)
   *   learned       L(k)·L(0)/√d (the seeded learned-style table of compare())
   *   rotary family u·R(k·ω)·u/√d for the all-ones u = (2/√d)·Σ_i cos(k·ω_i) with the scheme's ω;
   *                 xpos: ζ_i^(k/xposScaleBase) inside the sum; yarn: times qkFactor²
   *   alibi         −m·k, m the slope of head alibiHead of an alibiHeads-head model
   *   t5            the seeded value of bucket(−k) (a key k tokens before the query; causal
   *                 buckets when causal, else bidirectional)
   *   nope          0
   * → { maxDistance, curves: { [scheme]: Float32Array(maxDistance + 1) } }.
   */
  distanceCurves(options) {
    const schemeOptions = this.#schemeOptionValues(options, [
      'd', 'base', 'maxDistance', 'schemes', 'dPos', 'concat', 'causal',
    ]);
    const d = checkEvenDim('d', options.d);
    const maxDistance = checkInt('maxDistance', options.maxDistance, 1, LIMITS.maxDistance);
    if ((maxDistance + 1) * d > LIMITS.maxElements) {
      throw new RangeError(`(maxDistance + 1)·d must be at most ${LIMITS.maxElements} (got ${(maxDistance + 1) * d})`);
    }
    const base = checkBase(options.base ?? 10000);
    const schemes = checkSchemes(options.schemes ?? CLASSIC_SCHEMES);
    const concat = checkEnum('concat', options.concat ?? 'same-width', CONCAT_MODES);
    const dPos = checkDPos(options.dPos, d, concat, schemes.includes('concatenated'));
    const causal = checkBoolean('causal', options.causal ?? false);
    const row = maxDistance + 1;
    const [out] = this.#reserve(schemes.length * row);
    this.#call(this.#core.distanceCurves(d, maxDistance, base, dPos, concat, causal, schemeMask(schemes),
      schemeOptions, out));
    // The core writes one row per requested scheme, in SCHEMES order; curves follow `schemes`.
    const rowsInCoreOrder = SCHEMES.filter((name) => schemes.includes(name));
    const curves = {};
    for (const name of schemes) curves[name] = this.#read(out + 4 * rowsInCoreOrder.indexOf(name) * row, row);
    return { maxDistance, curves };
  }

  /**
   * Word vectors: 'glove' (GloVe 6B 100-d, the 20,000 most frequent words, shipped beside this
   * module, or in load's assetsUrl, as glove-6b-100d-20k.i8 and read only when asked for), a URL
   * of a file in the same format (fetched each call), or such a file's bytes. Resolves to { name, dim, size, componentRms, has, vector, neighbors, embed, dispose }.
   */
  /**
   * Resolves to the model core (loadModels() with this lab's flavour) once it is loaded: fetched
   * the first time a model is needed. Afterwards createModel, createTask and loadModel work and
   * modelLimits is set; loadPretrained calls it itself.
   */
  loadModels() {
    this.#models ??= loadModels({ simd: this.simd }).then((core) => (this.#modelCore = core));
    this.#models.catch(() => { this.#models = undefined; });
    return this.#models;
  }

  /** The core's model limits once the model core is loaded (lab.loadModels()), else null. */
  get modelLimits() {
    return this.#modelCore?.modelLimits ?? null;
  }

  /** A trainable model of docs/ARCHITECTURE.md ("The trained model"), seeded from config.seed (web/model.mjs). */
  createModel(config) {
    return this.#needModels().createModel(config);
  }

  /** A training task in the core for model.train / evaluate (web/model.mjs, Task). */
  createTask(spec) {
    return this.#needModels().createTask(spec);
  }

  /**
   * A model from its safetensors weights file; a bad file is refused and nothing else changes.
   * options.vectors: the word-vector file's bytes, for a file that leaves its frozen wte out.
   */
  loadModel(bytes, options) {
    return this.#needModels().loadModel(bytes, options);
  }

  /**
   * A shipped word-level model (lab.pretrained, by name), fetched on demand beside this module
   * (with the model core, the first time): a Model with tokenize(text), vocab and unknownId.
   * Options: onProgress({ loaded, total }), signal (an AbortSignal: rejects with an AbortError).
   * The file must match its manifest sha256.
   */
  async loadPretrained(name, options = {}) {
    checkOptions('options', options, ['onProgress', 'signal']);
    const { onProgress, signal } = options;
    if (onProgress !== undefined && typeof onProgress !== 'function') throw new TypeError('onProgress must be a function');
    if (signal !== undefined && !(signal instanceof AbortSignal)) throw new TypeError('signal must be an AbortSignal');
    const entry = this.pretrained.find((model) => model.name === name);
    if (!entry) {
      const names = this.pretrained.map((model) => `'${model.name}'`).join(', ') || 'none: no manifest was found';
      throw new RangeError(`name must be one of the pretrained models (${names}), got ${JSON.stringify(name)}`);
    }
    throwIfAborted(signal);
    const core = this.loadModels();
    // The shipped files leave their frozen wte rows out: the model core rebuilds them from GloVe,
    // bit for bit (scripts/train-models), so the page does not download those rows twice.
    const vectors = this.#gloveFile();
    const file = Object.hasOwn(this.#modelFiles, entry.name) ? this.#modelFiles[entry.name] : new URL(`${MODELS_DIR}${entry.name}.safetensors`, this.#assets);
    const bytes = await readAsset(file, { onProgress, signal, total: entry.bytes }).catch((error) => {
      if (!/HTTP 404|ENOENT/.test(error.message)) throw error;
      throw new Error(`${error.message}: the npm package ships the additive, concatenated and rotary models only; ` +
        'for the others serve a built dist/ (its models/ folder) and pass load({ assetsUrl }) naming that folder');
    });
    const sha256 = await sha256Hex(bytes);
    throwIfAborted(signal);
    if (sha256 !== entry.sha256) throw new Error(`${file} has sha256 ${sha256}, but the manifest says ${entry.sha256}`);
    const [glove] = await Promise.all([vectors, core]);
    throwIfAborted(signal);
    return this.loadModel(bytes, { vectors: glove });
  }

  // GloVe's bytes, fetched once for both loadVectors('glove') and loadPretrained's wte rows.
  #gloveFile() {
    this.#gloveBytes ??= this.#gloveUrl ? readAsset(this.#gloveUrl) : Promise.reject(new Error(`${GLOVE_FILE}: no folder known; pass load({ assetsUrl })`));
    this.#gloveBytes.catch(() => { this.#gloveBytes = undefined; });
    return this.#gloveBytes;
  }

  #needModels() {
    if (!this.#modelCore) {
      throw new RangeError('the model core is not loaded yet: await lab.loadModels() first (lab.loadPretrained loads it itself)');
    }
    return this.#modelCore;
  }

  loadVectors(source = 'glove') {
    if (source === 'glove') {
      if (!this.#gloveUrl) {
        return Promise.reject(new Error(`${GLOVE_FILE}: this module was loaded from a URL with no folder (${import.meta.url.slice(0, 5)}…); pass load({ assetsUrl })`));
      }
      this.#glove ??= this.#gloveFile().then((bytes) => this.#parseVectors('glove', bytes));
      this.#glove.catch(() => { this.#glove = undefined; });
      return this.#glove;
    }
    if (source instanceof URL) return readAsset(source).then((bytes) => this.#parseVectors('custom', bytes));
    if (source instanceof ArrayBuffer || source instanceof Uint8Array) {
      return Promise.resolve().then(() => this.#parseVectors('custom', new Uint8Array(source)));
    }
    return Promise.reject(new TypeError("source must be 'glove', a URL, an ArrayBuffer or a Uint8Array"));
  }

  #parseVectors(name, bytes) {
    const address = this.#core._malloc(Math.max(1, bytes.length));
    if (!address) throw new RangeError(`not enough wasm memory for a ${bytes.length}-byte vector file`);
    const vectors = new this.#core.WordVectors();
    try {
      this.#core.HEAPU8.set(bytes, address);
      const error = vectors.load(address, bytes.length);
      if (error) throw new RangeError(error);
    } catch (error) {
      vectors.delete();
      throw error;
    } finally {
      this.#core._free(address);
    }
    return new WordVectorSet(name, vectors, this.#core, this);
  }

  /** Population standard deviation of each column of an n×d matrix: Float32Array(d). */
  columnSpread(m, n, d) {
    checkInt('d', d, 1, LIMITS.maxDim);
    checkInt('n', n, 1, Math.floor(LIMITS.maxElements / d));
    checkElements(n * d);
    checkMatrix('m', m, n * d);
    const [input, out] = this.#reserve(n * d, d);
    this.#write(input, m);
    this.#call(this.#core.columnSpread(input, n, d, out));
    return this.#read(out, d);
  }

  /**
   * Largest change of attention among the original n tokens after k were prepended: `shifted`
   * ((n+k)×(n+k)) is restricted to the original block and renormalised, then compared with `base`.
   */
  shiftChange(base, shifted, n, k) {
    checkInt('n', n, 1, LIMITS.maxAttentionRows);
    checkInt('k', k, 0, LIMITS.maxAttentionRows - n);
    checkMatrix('base', base, n * n);
    checkMatrix('shifted', shifted, (n + k) * (n + k));
    const [b, s, out] = this.#reserve(n * n, (n + k) * (n + k), 1);
    this.#write(b, base);
    this.#write(s, shifted);
    this.#call(this.#core.maxShiftChange(b, s, n, k, out));
    return this.#view(out, 1)[0];
  }

  /** score[k] = PE(p)·PE(p+k) and bound[k] = RoFormer's decay bound, k = 0 … maxOffset. */
  offsetCurves(maxOffset, d, options = {}) {
    checkOptions('options', options, ['base']);
    checkInt('maxOffset', maxOffset, 0, LIMITS.maxRows - 1);
    checkEvenDim('d', d);
    checkElements((maxOffset + 1) * d);
    const base = checkBase(options.base ?? 10000);
    const [score, bound] = this.#reserve(maxOffset + 1, maxOffset + 1);
    this.#call(this.#core.offsetCurves(maxOffset, d, base, score, bound));
    return { score: this.#read(score, maxOffset + 1), bound: this.#read(bound, maxOffset + 1) };
  }

  /** Mean and std of the cosine between random N(0, I_d) pairs (≈ 0 and ≈ 1/√d). */
  cosineSpread(d, options = {}) {
    checkOptions('options', options, ['pairs', 'seed']);
    checkInt('d', d, 1, LIMITS.maxDim);
    const pairs = checkInt('pairs', options.pairs ?? 2000, 2, 100000);
    const seed = checkInt('seed', options.seed ?? 1, 0, 2 ** 32 - 1);
    return this.#core.cosineSpread(d, pairs, seed);
  }

  /**
   * A vocabulary of v word vectors (v×d) held in wasm memory for nearest-neighbour decoding.
   * nearest(queries, n, { truth }) → { best, cosine, rank }: the nearest row per query by cosine,
   * and with truth (row indices) the 1-based rank of the true row. Call dispose() when done.
   */
  vocabulary(rows, v, d) {
    checkInt('v', v, 1, LIMITS.maxElements);
    checkInt('d', d, 1, LIMITS.maxDim);
    checkElements(v * d);
    checkMatrix('rows', rows, v * d);
    const [input] = this.#reserve(v * d);
    this.#write(input, rows);
    let handle = new this.#core.Vocabulary(input, v, d);
    const lab = this;
    return {
      size: v,
      dim: d,
      nearest(queries, n, options = {}) {
        if (!handle) throw new RangeError('vocabulary: already disposed');
        return lab[DECODE](handle, v, d, queries, n, options);
      },
      /** The k rows most similar to one query by cosine, best first: [{ row, cosine }]. */
      neighbors(query, k = 10) {
        if (!handle) throw new RangeError('vocabulary: already disposed');
        checkInt('k', k, 1, Math.min(1000, v));
        checkMatrix('query', query, d);
        return lab[TOP_K](handle, d, query, k, -1).map(({ row, cosine }) => ({ row, cosine }));
      },
      dispose() {
        handle?.delete();
        handle = null;
      },
    };
  }

  // The k best rows of a handle with neighbors(query, k, exclude, rows, cosines) → count (a
  // Vocabulary or WordVectors): [{ row, cosine }], best first.
  [TOP_K](handle, d, query, k, exclude) {
    const [q, rows, cosines] = this.#reserve(d, k, k);
    this.#write(q, query);
    const found = handle.neighbors(q, k, exclude, rows, cosines);
    const result = [];
    for (let i = 0; i < found; i++) {
      result.push({ row: this.#core.HEAPU32[rows / 4 + i], cosine: this.#core.HEAPF32[cosines / 4 + i] });
    }
    return result;
  }

  // Decodes queries against a handle with nearest(q, n, d, truth, best, cosine, rank) (a
  // Vocabulary or WordVectors); shared by lab.vocabulary() and WordVectorSet.nearest().
  [DECODE](handle, v, d, queries, n, options) {
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
    const [q, t, best, cosine, rank] = this.#reserve(n * d, n, n, n, n);
    this.#write(q, queries);
    if (truth !== undefined) this.#core.HEAPU32.set(truth, t / 4);
    this.#call(handle.nearest(q, n, d, truth === undefined ? 0 : t, best, cosine, rank));
    const u32 = (address) => this.#core.HEAPU32.slice(address / 4, address / 4 + n);
    return {
      best: u32(best),
      cosine: this.#read(cosine, n),
      ...(truth === undefined ? {} : { rank: u32(rank) }),
    };
  }

  // Runs fn(address) with `floats` floats of scratch heap (for WordVectorSet; not public API).
  [WITH_SCRATCH](floats, fn) {
    const [address] = this.#reserve(floats);
    return fn(address);
  }

  // Heap addresses for consecutive float arrays of the given lengths, in one reused allocation.
  #reserve(...lengths) {
    const total = lengths.reduce((a, b) => a + b, 0);
    if (total > this.#capacity) {
      if (this.#buffer) this.#core._free(this.#buffer);
      this.#buffer = 0;
      this.#capacity = 0;
      const address = this.#core._malloc(total * 4);
      if (!address) throw new RangeError(`not enough wasm memory for ${total} floats; use smaller n or d`);
      this.#buffer = address;
      this.#capacity = total;
    }
    const addresses = [];
    let next = this.#buffer;
    for (const length of lengths) {
      addresses.push(next);
      next += length * 4;
    }
    return addresses;
  }

  // Views are re-made on every use: memory growth replaces HEAPF32's buffer.
  #view(address, length) {
    return this.#core.HEAPF32.subarray(address / 4, address / 4 + length);
  }

  #write(address, values) {
    this.#view(address, values.length).set(values);
  }

  #read(address, length) {
    return this.#view(address, length).slice();
  }

  #call(error) {
    if (error) throw new RangeError(error);
  }
}

function checkSchemes(schemes) {
  if (!Array.isArray(schemes)) throw new TypeError(`schemes must be an array of scheme names (${SCHEMES.join(', ')})`);
  if (schemes.length === 0) throw new RangeError('schemes must name at least one scheme');
  for (let i = 0; i < schemes.length; i++) {
    checkEnum(`schemes[${i}]`, schemes[i], SCHEMES);
    if (schemes.indexOf(schemes[i]) !== i) throw new RangeError(`schemes: '${schemes[i]}' appears twice`);
  }
  return schemes.slice();
}

// Bit i of the core's scheme set is SCHEMES[i].
function schemeMask(schemes) {
  return schemes.reduce((mask, name) => mask | (1 << SCHEMES.indexOf(name)), 0) >>> 0;
}

// dPos (default d/4 rounded to even, at least 2); its relation to d matters only when the
// concatenated scheme is computed.
function checkDPos(value, d, concat, needed) {
  const dPos = checkInt('dPos', value ?? Math.max(2, 2 * Math.round(d / 8)), 2, LIMITS.maxDim);
  if (dPos % 2 !== 0) throw new RangeError('dPos must be even');
  if (needed && concat === 0 && dPos >= d) {
    throw new RangeError(`dPos (${dPos}) must be smaller than d (${d}) for same-width concatenation, so d must be at least 4`);
  }
  return dPos;
}

// The note for each rule between scheme options (src/encodings/scheme_table.hpp, Rule, in its order): what
// was given, what is used instead. The page shows it; the element shows it and says it once.
const RULE_NOTES = [
  (given, used) => `ALiBi head k = ${given.alibiHead} is more than H = ${given.alibiHeads} heads; using head ${used.alibiHead}.`,
  (given, used, exact) => `T5 max distance ${given.t5MaxDistance} does not exceed the ${exact} exact buckets; using ${used.t5MaxDistance}.`,
  (given, used) => `YaRN needs α < β (got α = ${given.yarnAlpha}, β = ${given.yarnBeta}); using α = ${used.yarnAlpha}, β = ${used.yarnBeta}.`,
];

// The core's table made ready for use: frozen copies, lookups by name. A core whose table differs
// from scheme-table.mjs (which pages use before load: a dist/ built from another core) is refused.
function deriveTable(table) {
  const freeze = (value) => {
    if (value && typeof value === 'object') Object.values(value).forEach(freeze);
    return Object.freeze(value);
  };
  checkSameTable('schemeTable', SCHEME_TABLE, table);
  const schemes = freeze(table.schemes);
  const params = freeze(table.params);
  return {
    public: Object.freeze({ schemes, params, trainable: freeze(table.trainable) }),
    params,
    paramNames: params.map((p) => p.name),
    byName: Object.fromEntries(schemes.map((s) => [s.name, s])),
  };
}

// Every value scheme-table.mjs holds is the core's, at the same place (arrays of the same length).
function checkSameTable(path, known, core) {
  if (known === null || typeof known !== 'object') {
    if (!Object.is(known, core)) throw new Error(`the wasm core's ${path} is ${core}; this module's scheme-table.mjs says ${known}`);
    return;
  }
  if (Array.isArray(known) && known.length !== core?.length) {
    throw new Error(`the wasm core's ${path} has ${core?.length} entries; this module's scheme-table.mjs has ${known.length}`);
  }
  for (const [key, value] of Object.entries(known)) checkSameTable(`${path}.${key}`, value, core?.[key]);
}

// The rows and position options that rotate, rotateWith and xpos share.
function checkRotationInput(x, n, d, options) {
  checkInt('n', n, 1, LIMITS.maxRows);
  checkEvenDim('d', d);
  checkElements(n * d);
  checkMatrix('x', x, n * d);
  return {
    offset: checkInt('offset', options.offset ?? 0, -LIMITS.maxOffset, LIMITS.maxOffset),
    pairing: checkEnum('pairing', options.pairing ?? 'interleaved', LAYOUTS),
  };
}

function checkEvenDim(name, value) {
  checkInt(name, value, 2, LIMITS.maxDim);
  if (value % 2 !== 0) throw new RangeError(`${name} must be even (dimensions form pairs), got ${value}`);
  return value;
}

function checkElements(count) {
  if (count > LIMITS.maxElements) throw new RangeError(`n·d must be at most ${LIMITS.maxElements} (got ${count})`);
}

function checkFloat32(name, value) {
  checkFinite(name, value);
  if (Math.abs(value) > FLOAT32_MAX) throw new RangeError(`${name} must be within float32 range (got ${value})`);
  return value;
}

function checkBase(value) {
  checkFinite('base', value);
  if (!(value > 1 && value <= LIMITS.maxBase)) {
    throw new RangeError(`base must be greater than 1 and at most ${LIMITS.maxBase} (got ${value})`);
  }
  return value;
}

// Float64 arrays in the float scratch buffer: reserve 2k + 1 floats and round the address up.
function align8(address) {
  return (address + 7) & ~7;
}

function checkRange(name, value, min, max) {
  checkFinite(name, value);
  if (!(value >= min && value <= max)) throw new RangeError(`${name} must be from ${min} to ${max} (got ${value})`);
  return value;
}

function checkMatrix(name, values, length) {
  const isArrayLike = Array.isArray(values) || (ArrayBuffer.isView(values) && !(values instanceof DataView));
  if (!isArrayLike) throw new TypeError(`${name} must be a Float32Array or an array of numbers`);
  if (typeof values[0] === 'bigint') throw new TypeError(`${name} must hold numbers, not BigInts`);
  if (values.length !== length) {
    throw new RangeError(`${name} must have ${length} elements (n·d), got ${values.length}`);
  }
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (typeof v !== 'number') throw new TypeError(`${name}[${i}] must be a number`);
    if (!(Math.abs(v) <= FLOAT32_MAX)) throw new RangeError(`${name}[${i}] must be a finite float32 value (got ${v})`);
  }
}

// Lone surrogates become U+FFFD (String.prototype.toWellFormed where the engine has it; the loop
// serves the older engines that the scalar build exists for).
function wellFormed(text) {
  if (typeof text.toWellFormed === 'function') return text.toWellFormed();
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    if (c >= 0xd800 && c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      out += text[i] + text[i + 1];
      i++;
    } else {
      out += c >= 0xd800 && c <= 0xdfff ? '\uFFFD' : text[i];
    }
  }
  return out;
}

// Bounded so that a pasted book cannot exhaust wasm memory (tokens take several times the
// text's size); callers tokenize a prefix and say so.
// A checked text as the core may take it: lone surrogates would corrupt Emscripten's UTF-8
// conversion, so they become U+FFFD first.
function preparedText(text) {
  checkText(text);
  return wellFormed(text);
}

function checkText(text) {
  if (typeof text !== 'string') throw new TypeError('text must be a string');
  if (text.length > LIMITS.maxTextLength) {
    throw new RangeError(`text must be at most ${LIMITS.maxTextLength} characters (got ${text.length}); tokenize a shorter piece`);
  }
}

function checkTokens(tokens) {
  if (!Array.isArray(tokens)) throw new TypeError('tokens must be an array of strings');
  if (tokens.length < 1 || tokens.length > LIMITS.maxRows) {
    throw new RangeError(`tokens must hold 1 to ${LIMITS.maxRows} strings (got ${tokens.length})`);
  }
  // An index loop, not forEach: forEach would skip the holes of a sparse array.
  for (let i = 0; i < tokens.length; i++) {
    if (typeof tokens[i] !== 'string') throw new TypeError(`tokens[${i}] must be a string`);
  }
}
