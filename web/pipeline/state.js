// The page's state: defaults, validation, and its round trip through the URL hash.
//
// Every control has one parser used for both the URL and the form, so a link can never hold a
// value the form would refuse. A malformed value falls back to its default and is reported.

import { SCHEMES } from '../options.mjs';
import { SCHEME_TABLE } from '../scheme-table.mjs';
import { grouped } from '../formats/numbers.js';

// The core's limits (base/limits.hpp), not restated.
const { maxHeads: MAX_HEADS, maxBase: MAX_BASE, maxAlpha: MAX_ALPHA } = SCHEME_TABLE.limits;
const exponent = (v) => v.toExponential().replace('+', ''); // 1e12, as the core's messages write it
// The core's names (its Layout and ConcatMode enums; the first is the default): a field of one of
// them parses to itself, and its description lists them.
const { layouts: LAYOUTS, concatModes: CONCAT_MODES } = SCHEME_TABLE;
const oneOf = (key, names) => [key, (t) => (names.includes(t) ? t : undefined), names.map((n) => `'${n}'`).join(' or ')];

export const MAX_TOKENS = 512;
export const MAX_SENTENCE = 200000;  // characters in a link's or an attribute's sentence
export const DEFAULT_SENTENCE = 'The king sat on the throne, and the queen smiled at the king.';
export const GLOVE_DIM = 100;

// Every scheme lab.compare() knows, in display order.
export const SCHEME_IDS = SCHEMES;
// Lanes side by side: three, or five on screens at least WIDE_SCREEN_PX wide. A link may hold up to
// MAX_LANES whatever the screen; narrower screens then wrap them into rows.
export const LANES_NARROW = 3;
export const MAX_LANES = 5;
export const WIDE_SCREEN_PX = 1600;
// The Heads control's value for the shipped trained models (web/panels/trained-heads.js); every
// other value is a number of heads (0 = W = I).
export const TRAINED_HEADS = 'trained';
// The Measurements section's panels, one tab each, in order: index.html's #panel-<name>.
export const MEASUREMENTS = Object.freeze(['pe', 'spread', 'retrieval', 'shift', 'distance', 'angles', 'orth', 'trained-results']);

export const DEFAULTS = Object.freeze({
  sentence: DEFAULT_SENTENCE,
  vectors: 'glove',        // 'glove' | 'synthetic' ('custom' is never put in a link)
  d: 64,                   // synthetic vectors only; GloVe fixes d = 100
  dPos: 0,                 // 0 = automatic: d/4 rounded to even
  concat: CONCAT_MODES[0],
  base: 10000,
  alpha: 'auto',           // GloVe: 1/componentRms; synthetic: 1
  layout: LAYOUTS[0],
  pairing: LAYOUTS[0],
  causal: false,
  heads: TRAINED_HEADS,     // the shipped models' heads (W = I where a lane has none), or 0 = W = I
  headLayer: 1,            // trained heads: the layer and head the lanes show (1-based)
  headIndex: 1,
  shiftK: 3,
  spreadLength: 0,         // 0 = the sentence's length
  maxDistance: 128,
  schemes: SCHEME_TABLE.classic, // the lanes, in display order: compare()'s default (frozen)
  // What is unfolded (web/page/disclosures.js): the settings, and the lanes whose encoded input and
  // logit decomposition are open; and the Measurements tab shown.
  settingsOpen: false,
  moreOpen: Object.freeze([]),
  measurement: MEASUREMENTS[0],
  // The scheme parameters (trainedLength L, evalLength L′, alibiHeads H, …): the core's defaults.
  ...Object.fromEntries(SCHEME_TABLE.params.map((p) => [p.name, p.default])),
});

const isEven = (v) => Number.isInteger(v) && v % 2 === 0;
const inRange = (lo, hi, integer = false) => (t) => {
  const v = num(t);
  return v >= lo && v <= hi && (!integer || Number.isInteger(v)) ? v : undefined;
};
/** A comma-separated list of scheme ids: known, no repeats, 1 to MAX_LANES; kept in display order. */
function parseSchemes(text) {
  const items = text.split(',').map((w) => w.trim()).filter(Boolean);
  if (items.length === 0 || items.length > MAX_LANES || new Set(items).size !== items.length) return undefined;
  if (!items.every((w) => SCHEME_IDS.includes(w))) return undefined;
  return SCHEME_IDS.filter((id) => items.includes(id));
}
/** A comma-separated list of scheme ids, possibly empty: known, no repeats; kept in display order. */
function parseOpenLanes(text) {
  const items = text.split(',').map((w) => w.trim()).filter(Boolean);
  if (new Set(items).size !== items.length || !items.every((w) => SCHEME_IDS.includes(w))) return undefined;
  return SCHEME_IDS.filter((id) => items.includes(id));
}
function parseHeads(text) {
  if (text === TRAINED_HEADS) return text;
  const v = num(text);
  return Number.isInteger(v) && v >= 0 && v <= MAX_HEADS ? v : undefined;
}
// Each scheme parameter's link key, and what its page range leaves unsaid (the rules between
// parameters, which the core applies and the page notes). Ranges and defaults are the core's.
const SCHEME_PARAM_LINKS = {
  trainedLength: ['tl'], evalLength: ['el'], alibiHeads: ['ahs'], alibiHead: ['ah', ' (at most H)'], t5Buckets: ['tb'],
  t5MaxDistance: ['tmd', ', above the exact buckets'], xposGamma: ['xg'], xposScaleBase: ['xsb'],
  yarnAlpha: ['ya', ', below β'], yarnBeta: ['yb', ', above α'],
};
/** A scheme parameter's FIELDS entry from its table row: its page range, whole or even as the core asks. */
function schemeParamField(p) {
  const [key, rule = ''] = SCHEME_PARAM_LINKS[p.name];
  const parse = (t) => {
    const v = num(t);
    const kindOk = p.even ? isEven(v) : !p.integer || Number.isInteger(v);
    return kindOk && v >= p.pageMin && v <= p.pageMax ? v : undefined;
  };
  const kind = p.even ? 'an even number' : p.integer ? 'a whole number' : 'a number';
  return [key, parse, `${kind} from ${grouped(p.pageMin)} to ${grouped(p.pageMax)}${rule}`];
}

const num = (text) => (typeof text === 'string' && text.trim() !== '' ? Number(text) : NaN);

/**
 * The number inputs whose range is one interval, as their <input> takes it (app.js sets min, max
 * and step from here; step 'any': not whole): the panels' k and K, and the scheme parameters'
 * page ranges from the core's table.
 */
const SYNTHETIC_D = Object.freeze({ min: 4, max: 1024, step: 2 });  // synthetic vectors' width
export const INPUT_RANGES = Object.freeze({
  d: SYNTHETIC_D,
  dPos: Object.freeze({ min: 2, max: SYNTHETIC_D.max, step: 2 }),  // concatenated's d_p (0 in the state: automatic)
  shiftK: Object.freeze({ min: 1, max: 64, step: 1 }),
  maxDistance: Object.freeze({ min: 8, max: 4096, step: 1 }),
  ...Object.fromEntries(SCHEME_TABLE.params.map((p) => [p.name, Object.freeze({ min: p.pageMin, max: p.pageMax, step: p.even ? 2 : p.integer ? 1 : 'any' })])),
});
const D = INPUT_RANGES.d;
const DPOS = INPUT_RANGES.dPos;
/** A whole-number FIELDS entry for an INPUT_RANGES name. */
function wholeField(key, name) {
  const { min, max } = INPUT_RANGES[name];
  return [key, inRange(min, max, true), `a whole number from ${min} to ${max}`];
}

// name → [hash key, parse(text) → value | undefined, human description of the allowed values]
export const FIELDS = {
  sentence: ['s', (t) => (t.length <= MAX_SENTENCE ? t : undefined), `at most ${grouped(MAX_SENTENCE)} characters`],
  vectors: ['v', (t) => (['glove', 'synthetic'].includes(t) ? t : undefined), "'glove' or 'synthetic'"],
  d: ['d', (t) => { const v = num(t); return isEven(v) && v >= D.min && v <= D.max ? v : undefined; }, `an even number from ${D.min} to ${D.max}`],
  dPos: ['dp', (t) => { const v = num(t); return v === 0 || (isEven(v) && v >= DPOS.min && v <= DPOS.max) ? v : undefined; }, `an even number from ${DPOS.min} to ${DPOS.max}`],
  concat: oneOf('cm', CONCAT_MODES),
  base: ['b', (t) => { const v = num(t); return v > 1 && v <= MAX_BASE ? v : undefined; }, `a number above 1 and at most ${exponent(MAX_BASE)}`],
  alpha: ['a', (t) => { if (t === 'auto') return t; const v = num(t); return v > 0 && v <= MAX_ALPHA ? v : undefined; }, `'auto' or a number above 0 and at most ${exponent(MAX_ALPHA)}`],
  layout: oneOf('lay', LAYOUTS),
  pairing: oneOf('pair', LAYOUTS),
  causal: ['c', (t) => (t === '1' ? true : t === '0' ? false : undefined), '0 or 1'],
  heads: ['h', parseHeads, `a whole number from 0 to ${MAX_HEADS}, or '${TRAINED_HEADS}'`],
  // Bounded by the shipped models' own layer and head counts when the lanes show them.
  headLayer: ['hl', inRange(1, MAX_HEADS, true), `a whole number from 1 to ${MAX_HEADS}`],
  headIndex: ['hh', inRange(1, MAX_HEADS, true), `a whole number from 1 to ${MAX_HEADS}`],
  shiftK: wholeField('k', 'shiftK'),
  spreadLength: ['L', (t) => { const v = num(t); return Number.isInteger(v) && v >= 0 && v <= MAX_TOKENS ? v : undefined; }, `a whole number from 0 to ${MAX_TOKENS}`],
  maxDistance: wholeField('K', 'maxDistance'),
  schemes: ['sch', parseSchemes, `1 to ${MAX_LANES} different names among ${SCHEME_IDS.join(', ')}, separated by commas`],
  settingsOpen: ['set', (t) => (t === '1' ? true : t === '0' ? false : undefined), '0 or 1'],
  moreOpen: ['more', parseOpenLanes, `names among ${SCHEME_IDS.join(', ')}, separated by commas`],
  measurement: ['m', (t) => (MEASUREMENTS.includes(t) ? t : undefined), `one of ${MEASUREMENTS.join(', ')}`],
  ...Object.fromEntries(SCHEME_TABLE.params.map((p) => [p.name, schemeParamField(p)])),
};

export const parseField = (name, text) => FIELDS[name][1](String(text));

/** Default d_p for width d: a quarter, even, at least 2 and leaving at least 2 word dims. */
export function autoDPos(d) {
  return Math.max(2, Math.min(d - 2, 2 * Math.round(d / 8)));
}

/** Head counts that divide every scheme's width into even head widths. */
export function validHeads(widths) {
  const out = [0];
  for (let h = 1; h <= 16; h++) {
    if (widths.every((w) => w % h === 0 && (w / h) % 2 === 0)) out.push(h);
  }
  return out;
}

/** { state, notes }: the hash's values where valid, defaults elsewhere, and what was refused. */
export function readHash(hash) {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const state = { ...DEFAULTS };
  const notes = [];
  for (const [name, [key, parse, allowed]] of Object.entries(FIELDS)) {
    if (!params.has(key)) continue;
    const raw = params.get(key);
    const value = parse(raw);
    if (value === undefined) {
      const shown = raw.length > 40 ? `${raw.slice(0, 40)}…` : raw;
      const fallback = Array.isArray(DEFAULTS[name]) ? DEFAULTS[name].join(',') : JSON.stringify(DEFAULTS[name]);
      notes.push(`“${key}=${shown}” is not valid (${allowed}); using the default ${fallback}.`);
    } else {
      state[name] = value;
    }
  }
  return { state, notes };
}

/** The hash for a state: only the values that differ from the defaults, so links stay short. */
export function writeHash(state) {
  const params = new URLSearchParams();
  for (const [name, [key]] of Object.entries(FIELDS)) {
    let value = state[name];
    if (name === 'vectors' && value === 'custom') continue;
    // The sentence is always written, so a link says what it shows even if defaults change.
    // String() compares lists (schemes) by content; numbers, booleans and words as before.
    if (String(value) === String(DEFAULTS[name]) && name !== 'sentence') continue;
    if (typeof value === 'boolean') value = value ? '1' : '0';
    params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `#${text}` : '';
}
