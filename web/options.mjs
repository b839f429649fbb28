// The JS API's argument rules: the scheme names, labels and limits known before load() (from the
// generated scheme-table.mjs), the option names and enums of the lab's calls, and the checks that
// throw TypeError for a wrong type and RangeError for a wrong value, each naming the argument.
// web/posenc.mjs re-exports the public constants; its modules (comparison.mjs, vectors.mjs) share the rest.
import { checkEnum, checkFinite, checkInt, checkOptions } from './checks.mjs';
import { SCHEME_TABLE } from './scheme-table.mjs';

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
export const ROPE_DEFAULTS = SCHEME_TABLE.ropeDefaults;
/** Each scheme parameter's default by its option name (xposGamma: 0.4, …). */
export const PARAM_DEFAULTS = Object.freeze(Object.fromEntries(SCHEME_TABLE.params.map((p) => [p.name, p.default])));
/** compare()'s and distanceCurves' default schemes: the core's (kClassicSchemes). */
export const CLASSIC_SCHEMES = SCHEME_TABLE.classic;

export const FLOAT32_MAX = 3.4028234663852886e38;
export const FLOAT32_MIN_NORMAL = 1.1754943508222875e-38;
// The core's names of its Layout and ConcatMode enums, in enum order (a name's index is what
// crosses); the first is each one's default.
export const LAYOUTS = SCHEME_TABLE.layouts;
export const CONCAT_MODES = SCHEME_TABLE.concatModes;
export const COMPARE_OPTIONS = ['alpha', 'base', 'layout', 'pairing', 'dPos', 'concat', 'causal', 'heads', 'seed', 'scale', 'concatWords', 'inputOnly',
  'skipTerms', 'reuse', 'schemes'];
export const XPOS_ROLES = ['query', 'key'];

export function checkSchemes(schemes) {
  if (!Array.isArray(schemes)) throw new TypeError(`schemes must be an array of scheme names (${SCHEMES.join(', ')})`);
  if (schemes.length === 0) throw new RangeError('schemes must name at least one scheme');
  for (let i = 0; i < schemes.length; i++) {
    checkEnum(`schemes[${i}]`, schemes[i], SCHEMES);
    if (schemes.indexOf(schemes[i]) !== i) throw new RangeError(`schemes: '${schemes[i]}' appears twice`);
  }
  return schemes.slice();
}

// A list of lanes by scheme name, named key in messages (compare's inputOnly, whose lanes bring x
// alone, and skipTerms, whose terms are not copied out); undefined is none. Whether each is among
// the computed schemes is checked where those are known (the core for inputOnly, compare for
// skipTerms).
export function checkLaneNames(key, names) {
  if (names === undefined) return [];
  if (!Array.isArray(names)) throw new TypeError(`${key} must be an array of scheme names (${SCHEMES.join(', ')})`);
  names.forEach((name, i) => checkEnum(`${key}[${i}]`, name, SCHEMES));
  return names.slice();
}

// Bit i of the core's scheme set is SCHEMES[i].
export function schemeMask(schemes) {
  return schemes.reduce((mask, name) => mask | (1 << SCHEMES.indexOf(name)), 0) >>> 0;
}

// dPos (default d/4 rounded to even, at least 2); its relation to d matters only when the
// concatenated scheme is computed.
export function checkDPos(value, d, concat, needed) {
  const dPos = checkInt('dPos', value ?? Math.max(2, 2 * Math.round(d / 8)), 2, LIMITS.maxDim);
  if (dPos % 2 !== 0) throw new RangeError('dPos must be even');
  if (needed && concat === 0 && dPos >= d) {
    throw new RangeError(`dPos (${dPos}) must be smaller than d (${d}) for same-width concatenation, so d must be at least 4`);
  }
  return dPos;
}

// The note for each rule between scheme options (src/encodings/scheme_table.hpp, Rule, in its order): what
// was given, what is used instead. The page shows it; the element shows it and says it once.
export const RULE_NOTES = [
  (given, used) => `ALiBi head k = ${given.alibiHead} is more than H = ${given.alibiHeads} heads; using head ${used.alibiHead}.`,
  (given, used, exact) => `T5 max distance ${given.t5MaxDistance} does not exceed the ${exact} exact buckets; using ${used.t5MaxDistance}.`,
  (given, used) => `YaRN needs α < β (got α = ${given.yarnAlpha}, β = ${given.yarnBeta}); using α = ${used.yarnAlpha}, β = ${used.yarnBeta}.`,
];

// The core's table made ready for use: frozen copies, lookups by name. A core whose table differs
// from scheme-table.mjs (which pages use before load: a dist/ built from another core) is refused.
export function deriveTable(table) {
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
export function checkSameTable(path, known, core) {
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
export function checkRotationInput(x, n, d, options) {
  checkInt('n', n, 1, LIMITS.maxRows);
  checkEvenDim('d', d);
  checkElements(n * d);
  checkMatrix('x', x, n * d);
  return {
    offset: checkInt('offset', options.offset ?? 0, -LIMITS.maxOffset, LIMITS.maxOffset),
    pairing: checkEnum('pairing', options.pairing ?? LAYOUTS[0], LAYOUTS),
  };
}

export function checkEvenDim(name, value) {
  checkInt(name, value, 2, LIMITS.maxDim);
  if (value % 2 !== 0) throw new RangeError(`${name} must be even (dimensions form pairs), got ${value}`);
  return value;
}

export function checkElements(count) {
  if (count > LIMITS.maxElements) throw new RangeError(`n·d must be at most ${LIMITS.maxElements} (got ${count})`);
}

export function checkFloat32(name, value) {
  checkFinite(name, value);
  if (Math.abs(value) > FLOAT32_MAX) throw new RangeError(`${name} must be within float32 range (got ${value})`);
  return value;
}

export function checkBase(value) {
  checkFinite('base', value);
  if (!(value > 1 && value <= LIMITS.maxBase)) {
    throw new RangeError(`base must be greater than 1 and at most ${LIMITS.maxBase} (got ${value})`);
  }
  return value;
}

// Float64 arrays in the float scratch buffer: reserve 2k + 1 floats and round the address up.
export function align8(address) {
  return (address + 7) & ~7;
}

export function checkMatrix(name, values, length) {
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
export function wellFormed(text) {
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
export function preparedText(text) {
  checkText(text);
  return wellFormed(text);
}

export function checkText(text) {
  if (typeof text !== 'string') throw new TypeError('text must be a string');
  if (text.length > LIMITS.maxTextLength) {
    throw new RangeError(`text must be at most ${LIMITS.maxTextLength} characters (got ${text.length}); tokenize a shorter piece`);
  }
}

export function checkTokens(tokens) {
  if (!Array.isArray(tokens)) throw new TypeError('tokens must be an array of strings');
  if (tokens.length < 1 || tokens.length > LIMITS.maxRows) {
    throw new RangeError(`tokens must hold 1 to ${LIMITS.maxRows} strings (got ${tokens.length})`);
  }
  // An index loop, not forEach: forEach would skip the holes of a sparse array.
  for (let i = 0; i < tokens.length; i++) {
    if (typeof tokens[i] !== 'string') throw new TypeError(`tokens[${i}] must be a string`);
  }
}

// The scheme options' values in the table's order (deriveTable's), defaults for the missing ones;
// types are checked here, limits and rules by the core (its messages name the option).
export function schemeOptionValues(table, options, allowed) {
  checkOptions('options', options, [...allowed, ...table.paramNames]);
  return table.params.map((p) => {
    const value = options[p.name] ?? p.default;
    if (typeof value !== 'number') throw new TypeError(`${p.name} must be a number`);
    return value;
  });
}
