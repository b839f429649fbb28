// The Train section's settings: defaults, limits, size presets and their round trip through the
// URL hash (keys prefixed "t.", so the lanes' own keys are left alone). One home for each; the
// schemes and lr's range are the core's (scheme-table.mjs, generated from its table and limits).
import { SCHEME_TABLE } from '../scheme-table.mjs';

/** Schemes a model can be trained with (the core's table's trainable ones), in its order. */
export const TRAIN_SCHEMES = SCHEME_TABLE.trainable;
export const MAX_TRAIN_SCHEMES = 4;

export const TASKS = {
  book: 'Language model on Moby-Dick (characters)',
  text: 'Language model on your own text (characters)',
  copy: 'Copy a list of symbols',
  reverse: 'Reverse a list of symbols',
  sort: 'Sort a list of symbols',
};
export const isLanguageTask = (task) => task === 'book' || task === 'text';

/** Model sizes; dPos (concatenated) defaults to a quarter of the width. */
export const SIZES = {
  tiny: { layers: 2, d: 32, heads: 2 },
  small: { layers: 2, d: 64, heads: 4 },
};
export const sizeText = (size) => `${SIZES[size].layers} layers, width ${SIZES[size].d}, ${SIZES[size].heads} heads`;

export const DEFAULTS = Object.freeze({
  task: 'book',
  // ALiBi beside the three the lanes show: the first length chart holds a scheme that stays flat past T.
  schemes: ['additive', 'concatenated', 'rotary', 'alibi'],
  size: 'tiny',
  dPos: 0, // 0: a quarter of the width
  length: 32,
  batch: 16,
  lr: 0.003,
  seed: 1,
  steps: 600,
  text: '',
});

export const LIMITS = {
  length: [8, 256],
  batch: [1, 64],
  lr: [SCHEME_TABLE.limits.minLr, SCHEME_TABLE.limits.maxLr], // AdamW's (model/adamw.hpp)
  seed: [0, SCHEME_TABLE.limits.maxSeed],
  steps: [1, 20000],
  textChars: 4000, // longer pasted texts train, but stay out of the link
};

/** The schedule of a run's numbers: the page's workers and scripts/train-runs.mjs share it. */
export const BIN = 10;            // training losses are drawn as means of BIN steps
export const EVAL_EVERY = 50;     // held-out loss every EVAL_EVERY steps (a multiple of BIN)
export const LENGTHS_EVERY = 100; // length generalisation, attention and sample every LENGTHS_EVERY steps
export const MULTIPLES = [1, 2, 3, 4, 6, 8];
export const EVAL_BATCHES = Object.freeze({ B: 8, batches: 2 }); // each held-out evaluation: 2 batches of 8 rows
// Loss by position (language tasks): windows of the largest multiple of T, spread over the held-out text.
export const POSITION_WINDOWS = 8;

/**
 * The fraction of its time each of `workers` training workers spends training (the rest asleep),
 * so that together they keep one of the machine's `cores` free for the page's main thread: 1 when
 * cores − 1 ≥ workers. On two cores three workers share one core (1/3 each): left to run flat
 * out they take the main thread's turns and frames slip (bench/train-frames.mjs).
 */
export const trainingShare = (cores, workers) => Math.min(1, Math.max(1, (cores || 2) - 1) / Math.max(1, workers));

export const MIN_SHARE = 0.05;
/**
 * The share for the next second from this second's frames (web/train/panel.js measures them while
 * training): a machine busy with other work can starve the page even with a core nominally free,
 * so the workers back off by 30% when more than 2% of the frames missed their vsync slot and win
 * back 5 points a second while none did (additive increase, multiplicative decrease).
 */
export function nextShare(share, missedFraction) {
  if (missedFraction > 0.02) return Math.max(MIN_SHARE, share * 0.7);
  if (missedFraction === 0) return Math.min(1, share + 0.05);
  return share;
}

export const dPosFor = (state) => state.dPos || SIZES[state.size].d / 4;

const int = (min, max) => (text) => {
  const v = Number(text);
  return Number.isInteger(v) && v >= min && v <= max ? v : undefined;
};

// name → [hash key, parse(text) → value | undefined]
const FIELDS = {
  task: ['t.task', (t) => (t in TASKS ? t : undefined)],
  schemes: ['t.schemes', (t) => {
    const list = t.split(',');
    const ok = list.length >= 1 && list.length <= MAX_TRAIN_SCHEMES && new Set(list).size === list.length &&
      list.every((s) => TRAIN_SCHEMES.includes(s));
    return ok ? list : undefined;
  }],
  size: ['t.size', (t) => (t in SIZES ? t : undefined)],
  dPos: ['t.dpos', (t) => { const v = int(0, 256)(t); return v === undefined || v % 2 ? undefined : v; }],
  length: ['t.len', int(...LIMITS.length)],
  batch: ['t.batch', int(...LIMITS.batch)],
  lr: ['t.lr', (t) => { const v = Number(t); return v >= LIMITS.lr[0] && v <= LIMITS.lr[1] ? v : undefined; }],
  seed: ['t.seed', int(...LIMITS.seed)],
  steps: ['t.steps', int(...LIMITS.steps)],
  text: ['t.text', (t) => (t.length <= LIMITS.textChars ? t : undefined)],
};

/** The Train state in a hash: its values where valid, defaults elsewhere. */
export function readTrainHash(hash) {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const state = { ...DEFAULTS, schemes: [...DEFAULTS.schemes] };
  for (const [name, [key, parse]] of Object.entries(FIELDS)) {
    if (!params.has(key)) continue;
    const value = parse(params.get(key));
    if (value !== undefined) state[name] = value;
  }
  if (state.dPos >= SIZES[state.size].d) state.dPos = 0;
  return state;
}

/** `hash` with its "t." keys replaced by the state's (only the values that differ from the defaults). */
export function writeTrainHash(state, hash) {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  for (const [key] of Object.values(FIELDS)) params.delete(key);
  for (const [name, [key]] of Object.entries(FIELDS)) {
    const value = state[name];
    if (String(value) === String(DEFAULTS[name])) continue;
    if (name === 'text' && (state.task !== 'text' || value.length > LIMITS.textChars)) continue;
    params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `#${text}` : '';
}
