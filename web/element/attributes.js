// <posenc-lab>'s attributes: the panels it can show, every option's default, and how attribute
// text is parsed, each option's parser taken from the page's own fields (web/pipeline/state.js)
// where it has one. A bad value falls back to its default with one console warning.
import { DEFAULTS as PAGE_DEFAULTS, DEFAULT_SENTENCE, FIELDS } from '../pipeline/state.js';
import { SCHEMES } from '../pipeline/schemes.js';

export const TAG = 'posenc-lab';

/**
 * Panels by attribute name: lane panels show one figure per scheme. `train` replays the page's
 * default Train run from data/train-replay.json, then trains it live when the reader presses
 * Train (web/element/train-live.js: the model core is fetched beside this script then).
 * `sentence: false`: the panel never reads the sentence, so alone it shows no sentence box.
 */
export const PANELS = {
  attention: { lane: true, title: 'Attention (query × key)' },
  input: { lane: true, title: 'Encoded input (tokens × dimensions)' },
  terms: { lane: true, title: 'Logit decomposition' },
  pe: { title: 'Positional encoding' },
  disturbance: { title: 'Per-dimension disturbance' },
  retrieval: { title: 'Identity and position retrieval' },
  shift: { title: 'Shift invariance' },
  distance: { title: 'Score versus distance', sentence: false },
  orthogonality: { title: 'Near-orthogonality versus d' },
  angles: { title: 'Rotation angles per frequency (RoPE variants)', sentence: false },
  train: { title: 'Trained models: loss and length generalisation', sentence: false },
};
export const PANEL_ALIASES = { decomposition: 'terms', logits: 'terms', encoding: 'pe', spread: 'disturbance', orth: 'orthogonality' };
export const CONTROLS = ['vectors', 'd', 'base', 'scale', 'layout', 'pairing', 'causal', 'export'];

export const DEFAULTS = Object.freeze({
  sentence: DEFAULT_SENTENCE,
  schemes: PAGE_DEFAULTS.schemes, // additive, concatenated, rotary; any of the eleven may be asked for
  panel: ['attention'],
  d: 64,
  base: 10000,
  scale: 'auto',
  layout: PAGE_DEFAULTS.layout,
  pairing: PAGE_DEFAULTS.pairing,
  causal: false,
  trainedLength: PAGE_DEFAULTS.trainedLength, // L and L′: the learned table's rows, the RoPE
  evalLength: PAGE_DEFAULTS.evalLength,       // extensions' scale s = max(1, L′/L), the angle panel
  alibiHeads: PAGE_DEFAULTS.alibiHeads,
  alibiHead: PAGE_DEFAULTS.alibiHead,
  vectors: 'glove',
  vectorsSrc: '', // '' = GLOVE_FILE beside this script
  controls: [],
  editable: true,
  modelSrc: '', // '' = no model: the attention panel shows the schemes' lanes
});
// Options are camelCase (also the properties); their attributes are kebab-case: evalLength ↔ eval-length.
export const ATTRIBUTES = Object.keys(DEFAULTS);
export const attributeOf = (name) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
export const OPTION_OF = Object.fromEntries(ATTRIBUTES.map((name) => [attributeOf(name), name]));

const words = (text) => text.toLowerCase().split(/[\s,]+/).filter(Boolean);
function list(allowed, aliases = {}, { none = false } = {}) {
  return (text) => {
    const items = words(text).map((w) => aliases[w] ?? w);
    if (none && items.length === 1 && items[0] === 'none') return [];
    if (none && items.length === 1 && items[0] === 'all') return [...allowed];
    if (items.length === 0 || items.some((w) => !allowed.includes(w))) return undefined;
    return [...new Set(items)];
  };
}
const flag = (text) => (['', 'true', '1', 'yes'].includes(text.trim().toLowerCase()) ? true
  : ['false', '0', 'no'].includes(text.trim().toLowerCase()) ? false : undefined);

// name → [parse(text) → value | undefined, what is allowed]
export const PARSERS = {
  sentence: [(t) => (t.length <= 200000 ? t : undefined), 'at most 200,000 characters'],
  schemes: [list(SCHEMES), `a list of ${SCHEMES.join(', ')}`],
  panel: [list(Object.keys(PANELS), PANEL_ALIASES), `one or more of ${Object.keys(PANELS).join(', ')}`],
  d: [(t) => FIELDS.d[1](t), FIELDS.d[2]],
  base: [(t) => FIELDS.base[1](t), FIELDS.base[2]],
  scale: [(t) => FIELDS.alpha[1](t.trim()), FIELDS.alpha[2]],
  layout: [(t) => FIELDS.layout[1](t.trim()), FIELDS.layout[2]],
  pairing: [(t) => FIELDS.pairing[1](t.trim()), FIELDS.pairing[2]],
  causal: [flag, 'true or false (or the bare attribute)'],
  trainedLength: [(t) => FIELDS.trainedLength[1](t.trim()), FIELDS.trainedLength[2]],
  evalLength: [(t) => FIELDS.evalLength[1](t.trim()), FIELDS.evalLength[2]],
  alibiHeads: [(t) => FIELDS.alibiHeads[1](t.trim()), FIELDS.alibiHeads[2]],
  alibiHead: [(t) => FIELDS.alibiHead[1](t.trim()), FIELDS.alibiHead[2]],
  vectors: [(t) => FIELDS.vectors[1](t.trim()), FIELDS.vectors[2]],
  vectorsSrc: [(t) => t.trim(), 'a URL'],
  controls: [list(CONTROLS, {}, { none: true }), `none, all, or a list of ${CONTROLS.join(', ')}`],
  editable: [flag, 'true or false'],
  modelSrc: [(t) => t.trim(), 'a URL'],
};

const warned = new Set();
export function warnOnce(message) {
  if (warned.has(message)) return;
  warned.add(message);
  console.warn(`<${TAG}>: ${message}`);
}

export function parseAttribute(name, raw) {
  if (raw === null) return DEFAULTS[name];
  const value = PARSERS[name][0](String(raw));
  if (value !== undefined) return value;
  const shown = raw.length > 40 ? `${raw.slice(0, 40)}…` : raw;
  const fallback = Array.isArray(DEFAULTS[name]) ? DEFAULTS[name].join(',') || 'none' : String(DEFAULTS[name]);
  warnOnce(`${attributeOf(name)}="${shown}" is not valid (${PARSERS[name][1]}); using the default "${fallback}".`);
  return DEFAULTS[name];
}
