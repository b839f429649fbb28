// PosEnc Lab JS API: the one module pages, tutorials and tests import.
//
// It validates every argument (TypeError for a wrong type, RangeError for a wrong value, each
// naming the argument), copies arrays into a reusable wasm heap buffer, calls the core through
// embind and returns fresh Float32Arrays. Shapes are row-major: an n×d matrix is a
// Float32Array(n*d) whose row p starts at p*d.
//
// This module is the entry: loading, and the lab's small calls (tables, rotations, attention).
// Its parts, each one home: options.mjs (names, limits and argument
// checks), heap.mjs (the scratch buffer), assets.mjs (data files), vectors.mjs (word vectors and
// vocabularies), comparison.mjs (compare, analysis, distanceCurves and the analyses' kernels),
// model.mjs (trained models).

import { checkBoolean, checkEnum, checkInt, checkNumber, checkOptions } from './checks.mjs';
import { coreBeside, gloveBeside, modelFilesBeside, modelsBeside, modelCode, modelFileCode, packedCode } from './cores.mjs';
import { GLOVE_FILE, MODELS_DIR, assetsFolder, readAsset, readManifest, throwIfAborted } from './assets.mjs';
import { analysis, columnSpread, compareWith, cosineSpread, distanceCurves, offsetCurves, shiftChange } from './comparison.mjs';
import { Heap } from './heap.mjs';
import {
  LAYOUTS, LIMITS, PARAM_DEFAULTS, RULE_NOTES, ROPE_DEFAULTS, ROPE_SCALINGS, SCHEMES, XPOS_ROLES, align8, checkBase, checkElements,
  checkEvenDim, checkFloat32, checkMatrix, checkRotationInput, checkTokens, deriveTable, preparedText, schemeOptionValues,
} from './options.mjs';
import { parseVectors, vocabulary } from './vectors.mjs';

// A diverged training step (web/model.mjs): not applied, reported by name.
export { TrainingDivergedError } from './model.mjs';

// LIMITS, SCHEMES, SCHEME_LABELS, SCHEME_ROPE_SCALING and ROPE_SCALINGS are known before load()
// (pages parse links and build their skeletons with them first): options.mjs derives them from
// scheme-table.mjs, which the build writes from the core's own table; load() checks that the core
// it loads has the same table and refuses one that differs.
export { LIMITS, ROPE_SCALINGS, SCHEMES, SCHEME_LABELS, SCHEME_ROPE_SCALING } from './options.mjs';

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

const loaded = new Map();

// load's and loadModels' simd: a boolean, true only where the engine runs wasm SIMD.
function checkSimd(simd) {
  checkBoolean('simd', simd);
  if (simd && !wasmSimdSupported()) throw new RangeError('simd: this engine does not support wasm SIMD');
}

/**
 * Resolves to the lab once the wasm core is ready; one instance per flavour and assets folder, cached.
 * @param {{ simd?: boolean, assetsUrl?: string | URL, prefetch?: boolean }} [options] simd: false
 *   forces the scalar build; true requires SIMD. assetsUrl: the folder holding the data files
 *   (glove-6b-100d-20k.i8), for hosts that copy only the script; default: beside this module.
 *   Another origin must send Access-Control-Allow-Origin
 *   (docs/EMBEDDING.md, "Assets from another host: CORS and CSP").
 *   prefetch: start fetching GloVe's file now, beside the core, rather than at the first
 *   lab.loadVectors('glove') or lab.loadPretrained (default false), which then use those bytes.
 */
export function load(options = {}) {
  checkOptions('load options', options, ['simd', 'assetsUrl', 'prefetch']);
  const { simd = wasmSimdSupported(), prefetch = false } = options;
  checkSimd(simd);
  checkBoolean('prefetch', prefetch);
  const assets = assetsFolder(options.assetsUrl);
  const flavour = simd ? 'simd' : 'scalar';
  const key = `${flavour} ${assets?.href}`;
  if (!loaded.has(key)) {
    // Without assetsUrl, GloVe is named statically beside this module (gloveBeside), so bundlers copy it.
    const beside = options.assetsUrl === undefined;
    const glove = beside ? gloveBeside() : assets && new URL(GLOVE_FILE, assets);
    const files = (beside && readsManifest ? modelFilesBeside() : null) ?? {};
    // The manifest is read while the core compiles, not after: both stand before the first view.
    const pending = Promise.all([instantiate(flavour), readsManifest ? readManifest(assets, files.manifest) : Object.freeze([])])
      .then(([core, pretrained]) => new Lab(core, assets, glove, files, pretrained));
    pending.catch(() => loaded.delete(key));
    loaded.set(key, pending);
    gloveUrls.set(key, glove);
  }
  // Asked for after the core's files, so that on a slow link they arrive first.
  if (prefetch && gloveUrls.get(key)) gloveBytes(gloveUrls.get(key)).catch(() => {}); // reported where used
  return loaded.get(key);
}

// GloVe's bytes by URL, fetched once for every lab (loadVectors('glove'), loadPretrained's wte
// rows, load's prefetch); a failed fetch is forgotten, so a later ask tries again.
const gloveUrls = new Map(); // load()'s cache key → GloVe's URL there (null: no folder known)
const gloveFetches = new Map(); // URL → Promise of the bytes
function gloveBytes(url) {
  if (!gloveFetches.has(url.href)) {
    const fetching = readAsset(url);
    fetching.catch(() => gloveFetches.delete(url.href));
    gloveFetches.set(url.href, fetching);
  }
  return gloveFetches.get(url.href);
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
  checkSimd(simd);
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

class Lab {
  #core;
  #heap;     // the scratch buffer every call's arrays pass through (heap.mjs)
  #comparison;
  #glove;
  #assets;   // the folder URL of the data files (load's assetsUrl), or null: none known
  #modelFiles; // { manifest, <model name>: URL } named statically beside this module (web/cores.mjs), or {}
  #gloveUrl; // GLOVE_FILE's URL: in #assets, or beside this module (web/cores.mjs), or null
  #models;   // loadModels()'s promise once asked for, and its result once resolved:
  #modelCore;

  #table;    // the core's scheme table, derived once (schemeTable below)
  #settled;  // the last settleSchemeOptions call: { key, result }

  constructor(core, assets, gloveUrl, modelFiles, pretrained) {
    this.#core = core;
    this.#heap = new Heap(core);
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
     * bytes, sha256 } (bytes and sha256: the packed file's, what travels; heldOutLoss: the trainer's
     * F16 model's); [] when the manifest is missing (and in the <posenc-lab> element).
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
   * settled, notes: [one sentence per value changed], scaleFactor: the RoPE extensions'
   * s = max(1, evalLength/trainedLength) }. Missing options take their defaults;
   * each given one must be within its own limits (RangeError otherwise).
   */
  settleSchemeOptions(options = {}, { causal = false } = {}) {
    const values = schemeOptionValues(this.#table, options, []);
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
    const result = Object.freeze({ options: Object.freeze(out), notes: Object.freeze(notes), scaleFactor: settled.scaleFactor });
    this.#settled = { key, result };
    return result;
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
    const layout = checkEnum('layout', options.layout ?? LAYOUTS[0], LAYOUTS);
    const [out] = this.#heap.reserve(n * d);
    this.#heap.call(this.#core.sinusoidal(out, n, d, base, layout));
    return this.#heap.read(out, n * d);
  }

  /** Rotary rotation: new Float32Array(n*d), row p rotated for position p + offset. */
  rotate(x, n, d, options = {}) {
    checkOptions('options', options, ['base', 'offset', 'pairing']);
    const { offset, pairing } = checkRotationInput(x, n, d, options);
    const base = checkBase(options.base ?? 10000);
    const [input, out] = this.#heap.reserve(n * d, n * d);
    this.#heap.write(input, x);
    this.#heap.call(this.#core.rotate(input, out, n, d, base, offset, pairing));
    return this.#heap.read(out, n * d);
  }

  /** softmax(q·kᵀ·scale [+ causal mask])·v → { weights: n×n, output: n×d }. */
  attention(q, k, v, n, d, options = {}) {
    checkOptions('options', options, ['causal', 'scale']);
    checkInt('n', n, 1, LIMITS.maxAttentionRows);
    checkInt('d', d, 1, LIMITS.maxDim);
    checkElements(n * d);
    for (const [name, m] of [['q', q], ['k', k], ['v', v]]) checkMatrix(name, m, n * d);
    const causal = checkBoolean('causal', options.causal ?? false);
    const scale = checkFloat32('scale', options.scale ?? 1 / Math.sqrt(d));
    const [qa, ka, va, weights, output] = this.#heap.reserve(n * d, n * d, n * d, n * n, n * d);
    this.#heap.write(qa, q);
    this.#heap.write(ka, k);
    this.#heap.write(va, v);
    this.#heap.call(this.#core.attention(qa, ka, va, n, d, scale, causal, weights, output));
    return { weights: this.#heap.read(weights, n * n), output: this.#heap.read(output, n * d) };
  }

  /** ALiBi slopes for `heads` heads (Press et al.): Float64Array(heads), head k's slope first. */
  alibiSlopes(heads) {
    checkInt('heads', heads, 1, LIMITS.maxHeads);
    const [raw] = this.#heap.reserve(2 * heads + 1);
    const out = align8(raw);
    this.#heap.call(this.#core.alibiSlopes(heads, out));
    return this.#core.HEAPF64.slice(out / 8, out / 8 + heads);
  }

  /**
   * ALiBi bias of one head: Float32Array(n*n), row i (query) = −slope·(i − j); above the diagonal
   * −Infinity when causal (default), −slope·(j − i) when not. Add it to the attention logits.
   */
  alibiBias(n, options = {}) {
    checkOptions('options', options, ['heads', 'head', 'causal']);
    checkInt('n', n, 1, LIMITS.maxAttentionRows);
    const heads = checkInt('heads', options.heads ?? PARAM_DEFAULTS.alibiHeads, 1, LIMITS.maxHeads);
    const head = checkInt('head', options.head ?? 0, 0, heads - 1);
    const causal = checkBoolean('causal', options.causal ?? true);
    const slope = this.alibiSlopes(heads)[head];
    const [out] = this.#heap.reserve(n * n);
    this.#heap.call(this.#core.alibiBias(slope, n, causal, out));
    return this.#heap.read(out, n * n);
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
    // Whole here (the binding takes an int), within the table's t5Buckets range; even, in the core.
    const { min, max } = this.#table.params[this.#table.paramNames.indexOf('t5Buckets')];
    const numBuckets = checkInt('numBuckets', options.numBuckets ?? PARAM_DEFAULTS.t5Buckets, min, max);
    // Beyond the exact buckets: the core's rule (t5_min_max_distance), checked there.
    const maxDistance = checkInt('maxDistance', options.maxDistance ?? PARAM_DEFAULTS.t5MaxDistance, 1, LIMITS.maxT5Distance);
    const seed = checkInt('seed', options.seed ?? 1, 0, LIMITS.maxSeed);
    const [out, buckets, values] = this.#heap.reserve(n * n, n * n, numBuckets);
    this.#heap.call(this.#core.t5Bias(n, bidirectional, numBuckets, maxDistance, seed, out, buckets, values));
    return {
      bias: this.#heap.read(out, n * n),
      buckets: this.#core.HEAP32.slice(buckets / 4, buckets / 4 + n * n),
      values: this.#heap.read(values, numBuckets),
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
    // Types here; ranges, and beta > alpha, in the core (its messages name the option).
    const trainedLength = checkNumber('trainedLength', options.trainedLength ?? ROPE_DEFAULTS.trainedLength);
    const evalLength = checkNumber('evalLength', options.evalLength ?? trainedLength);
    const alpha = checkNumber('alpha', options.alpha ?? ROPE_DEFAULTS.alpha);
    const beta = checkNumber('beta', options.beta ?? ROPE_DEFAULTS.beta);
    const count = d / 2 + 2;
    const [raw] = this.#heap.reserve(2 * count + 1);
    const out = align8(raw);
    this.#heap.call(this.#core.ropeFrequencies(d, base, scaling, trainedLength, evalLength, alpha, beta, out));
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
    const [input, out, raw] = this.#heap.reserve(n * d, n * d, d + 1);
    const omega = align8(raw);
    this.#heap.write(input, x);
    this.#core.HEAPF64.set(frequencies, omega / 8);
    this.#heap.call(this.#core.rotateWith(input, out, n, d, omega, offset, pairing));
    return this.#heap.read(out, n * d);
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
    // The defaults are compare()'s xposGamma and xposScaleBase; the core checks the ranges.
    const gamma = checkNumber('gamma', options.gamma ?? PARAM_DEFAULTS.xposGamma);
    const scaleBase = checkNumber('scaleBase', options.scaleBase ?? PARAM_DEFAULTS.xposScaleBase);
    const [input, out] = this.#heap.reserve(n * d, n * d);
    this.#heap.write(input, x);
    this.#heap.call(this.#core.xposRotate(input, out, n, d, base, offset, pairing, gamma, scaleBase, role === 1));
    return this.#heap.read(out, n * d);
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
    const seed = checkInt('seed', options.seed ?? 1, 0, LIMITS.maxSeed);
    const [out] = this.#heap.reserve(n * d);
    this.#heap.call(this.#core.learnedTable(out, n, d, seed));
    return this.#heap.read(out, n * d);
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
    const [row] = this.#heap.reserve(d);
    const out = new Float32Array(tokens.length * d);
    for (let p = 0; p < tokens.length; p++) {
      this.#heap.call(this.#core.syntheticEmbedding(tokens[p], row, d));
      out.set(this.#heap.view(row, d), p * d);
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
   * Each lane also reports xMaxAbs = max|x| and termMaxAbs[t] = max|term t| (colour ranges; no
   * termMaxAbs for the lanes that bring no terms: options.inputOnly and options.skipTerms).
   * The lab remembers its last call: rows unchanged since then keep their products (docs/API.md).
   */
  compare(embeddings, n, d, options = {}) {
    this.#comparison ??= new this.#core.Comparison();
    return compareWith(this.#heap, this.#table, this.#comparison, embeddings, n, d, options);
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
    return analysis(this.#core, this.#heap, this.#table, vectors);
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
    return distanceCurves(this.#core, this.#heap, this.#table, options);
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
   * Options: onProgress({ loaded, total }), signal (an AbortSignal: rejects with an AbortError),
   * onHeads(model): called at most once, before the output layer has arrived, with a Model whose
   * attention (attention(), inspect's attention) is the complete model's but whose lm_head is
   * zero (its logits and surprise mean nothing); the caller disposes it; a promise it returns is
   * awaited before the rest is decoded. Not called when the whole file arrives at once (Node's file: URLs).
   * The file must match its manifest sha256 (its first bytes, the manifest's heads.sha256). It
   * travels packed (web/packed-weights.mjs: int8 matrices, frozen word rows rebuilt from GloVe,
   * the output layer last) and is expanded to a complete F16 safetensors file before
   * lab.loadModel, so m.save() gives the model the page runs.
   */
  async loadPretrained(name, options = {}) {
    checkOptions('options', options, ['onProgress', 'signal', 'onHeads']);
    const { onProgress, signal, onHeads } = options;
    if (onProgress !== undefined && typeof onProgress !== 'function') throw new TypeError('onProgress must be a function');
    if (onHeads !== undefined && typeof onHeads !== 'function') throw new TypeError('onHeads must be a function');
    if (signal !== undefined && !(signal instanceof AbortSignal)) throw new TypeError('signal must be an AbortSignal');
    const entry = this.pretrained.find((model) => model.name === name);
    if (!entry) {
      const names = this.pretrained.map((model) => `'${model.name}'`).join(', ') || 'none: no manifest was found';
      throw new RangeError(`name must be one of the pretrained models (${names}), got ${JSON.stringify(name)}`);
    }
    throwIfAborted(signal);
    const core = this.loadModels();
    // The shipped files leave their frozen wte rows out: additive's and rotary's the model core
    // rebuilds from GloVe, concatenated's PCA rows expandWeights does, both bit for bit
    // (scripts/train-models, scripts/pack-models.mjs), so the page does not download those rows twice.
    const vectors = this.#gloveFile();
    const packing = packedCode();  // the format's module, fetched beside the file (one trip, not two)
    const reading = modelFileCode();
    for (const code of [packing, reading]) code.catch(() => {}); // reported where awaited, not also as unhandled
    const file = Object.hasOwn(this.#modelFiles, entry.name) ? this.#modelFiles[entry.name]
      : new URL(`${MODELS_DIR}${(await packing).packedFile(entry.name)}`, this.#assets);
    // Decoded with what the file needs besides its bytes; headsOnly: from its first bytes only.
    const decode = async (bytes, headsOnly) => {
      const [glove, { expandWeights }] = await Promise.all([vectors, packing, core]);
      throwIfAborted(signal);
      return this.loadModel(expandWeights(bytes, { vectors: glove, headsOnly }), { vectors: glove });
    };
    const { readPretrained } = await reading;
    const packed = await readPretrained(file, entry, { onProgress, signal, onHeads: onHeads && (async (prefix) => onHeads(await decode(prefix, true))) });
    return decode(packed, false);
  }

  // GloVe's bytes, fetched once for both loadVectors('glove') and loadPretrained's wte rows.
  #gloveFile() {
    return this.#gloveUrl ? gloveBytes(this.#gloveUrl) : Promise.reject(new Error(`${GLOVE_FILE}: no folder known; pass load({ assetsUrl })`));
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
    return parseVectors(this.#core, this.#heap, this, name, bytes);
  }

  /** Population standard deviation of each column of an n×d matrix: Float32Array(d). */
  columnSpread(m, n, d) {
    return columnSpread(this.#core, this.#heap, m, n, d);
  }

  /**
   * Largest change of attention among the original n tokens after k were prepended: `shifted`
   * ((n+k)×(n+k)) is restricted to the original block and renormalised, then compared with `base`.
   */
  shiftChange(base, shifted, n, k) {
    return shiftChange(this.#core, this.#heap, base, shifted, n, k);
  }

  /** score[k] = PE(p)·PE(p+k) and bound[k] = RoFormer's decay bound, k = 0 … maxOffset. */
  offsetCurves(maxOffset, d, options = {}) {
    return offsetCurves(this.#core, this.#heap, maxOffset, d, options);
  }

  /** Mean and std of the cosine between random N(0, I_d) pairs (≈ 0 and ≈ 1/√d). */
  cosineSpread(d, options = {}) {
    return cosineSpread(this.#core, d, options);
  }

  /**
   * A vocabulary of v word vectors (v×d) held in wasm memory for nearest-neighbour decoding.
   * nearest(queries, n, { truth }) → { best, cosine, rank }: the nearest row per query by cosine,
   * and with truth (row indices) the 1-based rank of the true row. Call dispose() when done.
   */
  vocabulary(rows, v, d) {
    return vocabulary(this.#core, this.#heap, rows, v, d);
  }
}
