// The tables of docs/EXPERIMENTS.md (issue 24): what each trains and how it is evaluated. One home
// for both scripts/experiments.mjs (which runs them and writes data/experiments/<table>.json) and
// the generated Markdown; the page reads the records those runs wrote.
import { DEFAULTS, SIZES, dPosFor } from '../dist/train/config.js';
import { SHIPPED } from './train-models.mjs';

export const SCHEMES = ['nope', 'additive', 'learned', 'concatenated', 'rotary', 'alibi', 't5'];
// Every record holds these multiples of T (the heldOut keys); byPosition the largest.
export const MULTIPLES = [1, 2, 4, 8];
export const ROPE_SCALINGS = ['pi', 'ntk', 'yarn'];
export const SEEDS = [1, 2, 3, 4, 5];

const tiny = SIZES[DEFAULTS.size];

// Variants of a scheme trained differently (a config change); the rotary scalings are evaluation
// variants of the plain rotary run and are written as records of their own by that run.
// t5max=128: T5's 512-token settings (32 buckets, max distance 128) that left buckets 22–31
// untrained at T = 32, reported once beside the derived default (model/config.hpp, t5_defaults).
const T5_OLD = { name: 't5max=128', scheme: 't5', config: { t5Buckets: 32, t5MaxDistance: 128 } };

export const TABLES = {
  // The page's default Train run (web/train/config.js) through the JS API, evaluated on windows of
  // 8T characters spread evenly over the whole held-out tenth of the book.
  book: {
    task: 'book', engine: 'wasm', metric: 'loss', steps: DEFAULTS.steps,
    model: { ...tiny, context: DEFAULTS.length }, dPos: dPosFor(DEFAULTS),
    train: { B: DEFAULTS.batch, lr: DEFAULTS.lr },
    windows: 64,
    variants: [T5_OLD],
    check: 'rotary',
  },
  // Copy at a size every scheme learns to ≥ 0.95 at T (see docs/EXPERIMENTS.md): items ⌊L/2⌋ at
  // length L, accuracy over fresh examples; each unit is one batch of its own seed.
  copy: {
    task: 'copy', engine: 'wasm', metric: 'accuracy', steps: 3000,
    model: { ...tiny, context: 8 }, dPos: dPosFor(DEFAULTS),
    train: { B: DEFAULTS.batch, lr: DEFAULTS.lr },
    windows: 16, unitRows: 16,
    variants: [],
    check: 'rotary',
  },
  // The word-level models on frozen GloVe rows (scripts/train-models.mjs, SHIPPED) trained by the
  // native trainer; windows of 8T tokens spread evenly over the whole held-out text (both corpora).
  words: {
    task: 'words', engine: 'native', metric: 'loss', steps: SHIPPED.steps,
    model: { layers: SHIPPED.layers, d: SHIPPED.d, heads: SHIPPED.heads, context: SHIPPED.context }, dPos: SHIPPED.dPos,
    train: { B: SHIPPED.batch, lr: SHIPPED.lr },
    windows: 64,
    variants: [T5_OLD],
    check: 'rotary',
  },
};

/** The runs of a table: { scheme, variant, config } for every scheme and trained variant. */
export function tableRuns(table, schemes = SCHEMES) {
  const t = TABLES[table];
  const plain = schemes.filter((s) => SCHEMES.includes(s)).map((scheme) => ({ scheme, variant: 'none', config: {} }));
  const variants = t.variants.filter((v) => schemes.includes(v.name))
    .map((v) => ({ scheme: v.scheme, variant: v.name, config: v.config }));
  return [...plain, ...variants];
}
