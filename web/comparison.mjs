// compare(), the one-call analysis and distanceCurves: the scheme lanes' options checked into the
// core's arguments, run in the core, and its heap views copied out as the documented results
// (docs/API.md); and the analyses' kernels beside them. The lab (posenc.mjs) holds the core
// objects and delegates here.
import { checkBoolean, checkEnum, checkInt, checkOptions } from './checks.mjs';
import {
  CLASSIC_SCHEMES, COMPARE_OPTIONS, CONCAT_MODES, FLOAT32_MIN_NORMAL, LAYOUTS, LIMITS, SCHEMES, checkBase, checkDPos,
  checkElements, checkEvenDim, checkFloat32, checkLaneNames, checkMatrix, checkSchemes, checkText, schemeMask, schemeOptionValues, wellFormed,
} from './options.mjs';
import { copyInto } from './buffer-room.mjs';
import { FAMILY } from './scheme-table.mjs';
import { VECTOR_HANDLE, WordVectorSet } from './vectors.mjs';

// compare() on a core Comparison c (the lab keeps one, so its products are reused between calls).
export function compareWith(heap, table, c, embeddings, n, d, options) {
  const args = compareArgs(table, options, d);
  checkInt('n', n, 1, LIMITS.maxCompareTokens);
  checkMatrix('embeddings', embeddings, n * d);
  const concatWords = options.concatWords;
  if (concatWords !== undefined) checkMatrix('concatWords', concatWords, n * d);
  const [input, reduced] = heap.reserve(n * d, concatWords === undefined ? 0 : n * d);
  heap.write(input, embeddings);
  if (concatWords !== undefined) heap.write(reduced, concatWords);
  heap.call(c.configure(args.mask, schemeMask(args.inputOnly), schemeMask(args.skipTerms), args.params));
  heap.call(c.run(input, n, d, args.alpha, args.base, args.layout, args.pairing, args.dPos, args.concat, args.causal,
    args.heads, args.seed, args.scale, concatWords === undefined ? 0 : reduced));
  return lanes(table, c.lanes(), args, n, d, options.reuse);
}

// compare()'s options but the arrays, checked for width d (n is not needed): the core's
// arguments. extra: further option names the caller accepts.
function compareArgs(table, options, d, extra = []) {
  const params = schemeOptionValues(table, options, [...COMPARE_OPTIONS, ...extra]);
  checkEvenDim('d', d);
  const schemes = checkSchemes(options.schemes ?? CLASSIC_SCHEMES);
  const inputOnly = checkLaneNames('inputOnly', options.inputOnly);
  const skipTerms = checkLaneNames('skipTerms', options.skipTerms);
  for (const name of skipTerms) if (!schemes.includes(name)) throw new RangeError(`skipTerms must name only schemes that are computed (got '${name}')`);
  const alpha = checkFloat32('alpha', options.alpha ?? 1);
  const base = checkBase(options.base ?? 10000);
  const layout = checkEnum('layout', options.layout ?? LAYOUTS[0], LAYOUTS);
  const pairing = checkEnum('pairing', options.pairing ?? LAYOUTS[0], LAYOUTS);
  const concat = checkEnum('concat', options.concat ?? CONCAT_MODES[0], CONCAT_MODES);
  const dPos = checkDPos(options.dPos, d, concat, schemes.includes('concatenated'));
  const causal = checkBoolean('causal', options.causal ?? false);
  const heads = checkInt('heads', options.heads ?? 0, 0, LIMITS.maxHeads);
  const seed = checkInt('seed', options.seed ?? 1, 0, LIMITS.maxSeed);
  // 0 tells the core "1/√d_head"; a given scale must stay positive once rounded to float32.
  const scale = options.scale === undefined ? 0 : checkFloat32('scale', options.scale);
  if (options.scale !== undefined && !(scale >= FLOAT32_MIN_NORMAL)) {
    throw new RangeError(`scale must be at least ${FLOAT32_MIN_NORMAL} (got ${scale})`);
  }
  const reuse = options.reuse;
  if (reuse !== undefined && (reuse === null || typeof reuse !== 'object')) {
    throw new TypeError('reuse must be a previous result of compare()');
  }
  return { schemes, mask: schemeMask(schemes), inputOnly, skipTerms, params, alpha, base, layout, pairing, concat, dPos, causal, heads, seed, scale };
}

// compare()'s result from the core's heap views of its lanes (lanes_view in
// src/bindings/analysis.cpp), copied out — into reuse's array of the same place, or its buffer
// when it has room (buffer-room.mjs: overwriting spares allocating and zeroing up to ~12 MB per
// call at n = 512, and a fresh buffer's page faults at any n). skipTerms'
// lanes come from the core without terms (nor their maxima): the core sums them into the weights
// without forming them (4·n² floats a lane, 12 MB for three at n = 512).
function lanes(table, raw, args, n, d, reuse) {
  const { schemes, params, dPos, heads } = args;
  const result = { n, d, dPos, heads: Math.max(heads, 1), schemes: [...schemes] };
  if (schemes.includes('additive')) result.pe = copyInto(raw.pe, reuse?.pe);
  if (schemes.includes('concatenated')) result.peConcat = copyInto(raw.peConcat, reuse?.peConcat);
  for (const name of schemes) {
    const core = raw.lanes[SCHEMES.indexOf(name)];
    const old = reuse?.[name];
    const lane = {
      width: core.width,
      x: copyInto(core.x, old?.x),
      weights: copyInto(core.weights, old?.weights),
      terms: copyInto(core.terms, old?.terms),
      termNames: [...table.byName[name].terms],
      xMaxAbs: core.magnitudes[0],
      termMaxAbs: Array.from(core.magnitudes.subarray(1)),
    };
    if (args.inputOnly.includes(name)) lane.inputOnly = true;
    if (name === 'alibi') lane.slopes = core.parameters.slice();
    if (name === 't5') lane.buckets = raw.buckets.slice();
    if (name === 'learned') lane.trainedLength = params[table.paramNames.indexOf('trainedLength')];
    if (name === 'nope') {
      lane.masked = copyInto(core.masked, old?.masked);
      lane.unmasked = copyInto(core.unmasked, old?.unmasked);
    }
    if (table.byName[name].family === FAMILY.rotation) {
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
 * part of a set's vectors is made inside) plus maxTokens (default LIMITS.maxCompareTokens),
 * peTables (default false) and reuseVectors (a previous update's vectors, overwritten as reuse's
 * arrays are). → { tokens, total (tokens before the cut to maxTokens), unknown:
 * boolean[], vectors: Float32Array(n·d) unscaled word vectors, result: compare()'s result,
 * pe, peConcat: with peTables the sinusoidal tables n×d and n×dPos (sinusoidal()'s, the
 * lanes' own when additive or concatenated is chosen), else null }; result, pe and peConcat
 * are null when there are no tokens. The same bits as tokenize, embed, reduce, compare and
 * sinusoidal called one by one; rows of the tokens a call shares (from the start) with the last
 * one are not computed again. skipRepeat (default false): when the options are the last
 * successful update's (reuse and reuseVectors aside) and the text gives its tokens and total
 * again, with tokens, nothing is computed or copied, and the update → { repeated: true } alone:
 * the last update's arrays stand (a space typed after a word, say).
 */
export function analysis(core, heap, table, vectors) {
  const set = vectors instanceof WordVectorSet ? vectors : null;
  if (!set) {
    if (vectors === null || typeof vectors !== 'object') throw new TypeError('vectors must be a WordVectorSet or { synthetic: d }');
    checkOptions('vectors', vectors, ['synthetic']);
  }
  const d = set ? set.dim : checkEvenDim('synthetic', vectors.synthetic);
  let handle = new core.Analysis();
  if (set) handle.attach(set[VECTOR_HANDLE]());
  let lastSettings = null; // the last successful update's options as the core took them (JSON)
  return {
    update(text, options = {}) {
      if (!handle) throw new RangeError('analysis: already disposed');
      checkText(text);
      if (options.concatWords !== undefined) throw new TypeError('options.concatWords is not an analysis option: the analysis makes the word part itself');
      const args = compareArgs(table, options, d, ['maxTokens', 'peTables', 'reuseVectors', 'skipRepeat']);
      const { reuseVectors } = options;
      if (reuseVectors !== undefined && !(reuseVectors instanceof Float32Array)) {
        throw new TypeError('reuseVectors must be a previous update\'s vectors (a Float32Array)');
      }
      const maxTokens = checkInt('maxTokens', options.maxTokens ?? LIMITS.maxCompareTokens, 1, LIMITS.maxCompareTokens);
      const peTables = checkBoolean('peTables', options.peTables ?? false);
      const skipRepeat = checkBoolean('skipRepeat', options.skipRepeat ?? false);
      set?.[VECTOR_HANDLE]();  // throws once the set is disposed
      const settings = { ...args, schemes: args.mask, inputOnly: schemeMask(args.inputOnly), skipTerms: schemeMask(args.skipTerms), d, maxTokens, peTables };
      const key = JSON.stringify(settings);
      const same = key === lastSettings;
      lastSettings = null; // until this update has succeeded
      const raw = handle.update(wellFormed(text), { ...settings, skipRepeat: skipRepeat && same });
      if (raw.error) throw new RangeError(raw.error);
      lastSettings = key;
      if (raw.repeated) return { repeated: true };
      const n = raw.tokens.length;
      const result = n ? lanes(table, raw, args, n, d, options.reuse) : null;
      const peTable = (lane, view) => (n && peTables ? lane ?? view.slice() : null);
      return {
        tokens: raw.tokens,
        total: raw.total,
        unknown: Array.from(raw.unknown, Boolean),
        vectors: copyInto(raw.embeddings, reuseVectors),
        result,
        pe: peTable(result?.pe, raw.pe),
        peConcat: peTable(result?.peConcat, raw.peConcat),
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
export function distanceCurves(core, heap, table, options) {
  const schemeOptions = schemeOptionValues(table, options, [
    'd', 'base', 'maxDistance', 'schemes', 'dPos', 'concat', 'causal',
  ]);
  const d = checkEvenDim('d', options.d);
  const maxDistance = checkInt('maxDistance', options.maxDistance, 1, LIMITS.maxDistance);
  if ((maxDistance + 1) * d > LIMITS.maxElements) {
    throw new RangeError(`(maxDistance + 1)·d must be at most ${LIMITS.maxElements} (got ${(maxDistance + 1) * d})`);
  }
  const base = checkBase(options.base ?? 10000);
  const schemes = checkSchemes(options.schemes ?? CLASSIC_SCHEMES);
  const concat = checkEnum('concat', options.concat ?? CONCAT_MODES[0], CONCAT_MODES);
  const dPos = checkDPos(options.dPos, d, concat, schemes.includes('concatenated'));
  const causal = checkBoolean('causal', options.causal ?? false);
  const row = maxDistance + 1;
  const [out] = heap.reserve(schemes.length * row);
  heap.call(core.distanceCurves(d, maxDistance, base, dPos, concat, causal, schemeMask(schemes),
    schemeOptions, out));
  // The core writes one row per requested scheme, in SCHEMES order; curves follow `schemes`.
  const rowsInCoreOrder = SCHEMES.filter((name) => schemes.includes(name));
  const curves = {};
  for (const name of schemes) curves[name] = heap.read(out + 4 * rowsInCoreOrder.indexOf(name) * row, row);
  return { maxDistance, curves };
}

// The analyses' kernels, one core call each (the lab's columnSpread, shiftChange, offsetCurves and
// cosineSpread; their contracts are documented there).
export function columnSpread(core, heap, m, n, d) {
  checkInt('d', d, 1, LIMITS.maxDim);
  checkInt('n', n, 1, Math.floor(LIMITS.maxElements / d));
  checkElements(n * d);
  checkMatrix('m', m, n * d);
  const [input, out] = heap.reserve(n * d, d);
  heap.write(input, m);
  heap.call(core.columnSpread(input, n, d, out));
  return heap.read(out, d);
}

export function shiftChange(core, heap, base, shifted, n, k) {
  checkInt('n', n, 1, LIMITS.maxAttentionRows);
  checkInt('k', k, 0, LIMITS.maxAttentionRows - n);
  checkMatrix('base', base, n * n);
  checkMatrix('shifted', shifted, (n + k) * (n + k));
  const [b, s, out] = heap.reserve(n * n, (n + k) * (n + k), 1);
  heap.write(b, base);
  heap.write(s, shifted);
  heap.call(core.maxShiftChange(b, s, n, k, out));
  return heap.view(out, 1)[0];
}

export function offsetCurves(core, heap, maxOffset, d, options) {
  checkOptions('options', options, ['base']);
  checkInt('maxOffset', maxOffset, 0, LIMITS.maxRows - 1);
  checkEvenDim('d', d);
  checkElements((maxOffset + 1) * d);
  const base = checkBase(options.base ?? 10000);
  const [score, bound] = heap.reserve(maxOffset + 1, maxOffset + 1);
  heap.call(core.offsetCurves(maxOffset, d, base, score, bound));
  return { score: heap.read(score, maxOffset + 1), bound: heap.read(bound, maxOffset + 1) };
}

export function cosineSpread(core, d, options) {
  checkOptions('options', options, ['pairs', 'seed']);
  checkInt('d', d, 1, LIMITS.maxDim);
  const pairs = checkInt('pairs', options.pairs ?? 2000, 2, 100000);
  const seed = checkInt('seed', options.seed ?? 1, 0, LIMITS.maxSeed);
  return core.cosineSpread(d, pairs, seed);
}
