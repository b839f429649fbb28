// The page's state: defaults, validation, and its round trip through the URL hash.
//
// Every control has one parser used for both the URL and the form, so a link can never hold a
// value the form would refuse. A malformed value falls back to its default and is reported.

export const MAX_TOKENS = 512;
export const DEFAULT_SENTENCE = 'The king sat on the throne, and the queen smiled at the king.';
export const GLOVE_DIM = 100;

export const DEFAULTS = Object.freeze({
  sentence: DEFAULT_SENTENCE,
  vectors: 'glove',        // 'glove' | 'synthetic' ('custom' is never put in a link)
  d: 64,                   // synthetic vectors only; GloVe fixes d = 100
  dPos: 0,                 // 0 = automatic: d/4 rounded to even
  concat: 'same-width',
  base: 10000,
  alpha: 'auto',           // GloVe: 1/componentRms; synthetic: 1
  layout: 'interleaved',
  pairing: 'interleaved',
  causal: false,
  heads: 0,                // 0 = W = I
  shiftK: 3,
  spreadLength: 0,         // 0 = the sentence's length
  maxDistance: 128,
});

const isEven = (v) => Number.isInteger(v) && v % 2 === 0;
const num = (text) => (typeof text === 'string' && text.trim() !== '' ? Number(text) : NaN);

// name → [hash key, parse(text) → value | undefined, human description of the allowed values]
export const FIELDS = {
  sentence: ['s', (t) => (t.length <= 200000 ? t : undefined), 'at most 200,000 characters'],
  vectors: ['v', (t) => (['glove', 'synthetic'].includes(t) ? t : undefined), "'glove' or 'synthetic'"],
  d: ['d', (t) => { const v = num(t); return isEven(v) && v >= 4 && v <= 1024 ? v : undefined; }, 'an even number from 4 to 1024'],
  dPos: ['dp', (t) => { const v = num(t); return v === 0 || (isEven(v) && v >= 2 && v <= 1024) ? v : undefined; }, 'an even number from 2 to 1024'],
  concat: ['cm', (t) => (['same-width', 'widened'].includes(t) ? t : undefined), "'same-width' or 'widened'"],
  base: ['b', (t) => { const v = num(t); return v > 1 && v <= 1e12 ? v : undefined; }, 'a number above 1 and at most 10¹²'],
  alpha: ['a', (t) => { if (t === 'auto') return t; const v = num(t); return v > 0 && v <= 1e6 ? v : undefined; }, "'auto' or a number above 0 and at most 10⁶"],
  layout: ['lay', (t) => (['interleaved', 'half'].includes(t) ? t : undefined), "'interleaved' or 'half'"],
  pairing: ['pair', (t) => (['interleaved', 'half'].includes(t) ? t : undefined), "'interleaved' or 'half'"],
  causal: ['c', (t) => (t === '1' ? true : t === '0' ? false : undefined), '0 or 1'],
  heads: ['h', (t) => { const v = num(t); return Number.isInteger(v) && v >= 0 && v <= 64 ? v : undefined; }, 'a whole number from 0 to 64'],
  shiftK: ['k', (t) => { const v = num(t); return Number.isInteger(v) && v >= 1 && v <= 64 ? v : undefined; }, 'a whole number from 1 to 64'],
  spreadLength: ['L', (t) => { const v = num(t); return Number.isInteger(v) && v >= 0 && v <= MAX_TOKENS ? v : undefined; }, `a whole number from 0 to ${MAX_TOKENS}`],
  maxDistance: ['K', (t) => { const v = num(t); return Number.isInteger(v) && v >= 8 && v <= 4096 ? v : undefined; }, 'a whole number from 8 to 4096'],
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
      notes.push(`“${key}=${shown}” is not valid (${allowed}); using the default ${JSON.stringify(DEFAULTS[name])}.`);
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
    if (value === DEFAULTS[name] && name !== 'sentence') continue;
    if (typeof value === 'boolean') value = value ? '1' : '0';
    params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `#${text}` : '';
}
