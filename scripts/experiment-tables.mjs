// The tables of docs/EXPERIMENTS.md: what each trains and how it is evaluated. One home
// for both scripts/experiments.mjs (which runs them and writes data/experiments/<table>.json) and
// the generated Markdown; the page reads the records those runs wrote.
import { DEFAULTS, SIZES, dPosFor } from '../dist/train/config.js';
import { ROPE_SCALING, SCHEME_TABLE } from '../dist/scheme-table.mjs';
import { SHIPPED } from './train-models.mjs';
import { PLAIN, RESULT_MULTIPLES, RESULT_SCHEMES } from '../web/results/records.js';

export { PLAIN };
export const SCHEMES = RESULT_SCHEMES;
export const MULTIPLES = RESULT_MULTIPLES;
// The RoPE extensions' scaling types, the core's names after 'none' (plain RoPE).
export const ROPE_SCALINGS = SCHEME_TABLE.ropeScalings.filter((type) => type !== ROPE_SCALING.none);
export const SEEDS = [1, 2, 3, 4, 5];

const tiny = SIZES[DEFAULTS.size];

// Each table trains its `schemes` plainly and its `variants` (a scheme trained with a config
// change); the rotary scalings are evaluation variants of the plain rotary run and are written as
// records of their own by that run. `check` names the run `experiments.mjs check` reruns (a scheme's
// plain run, or a variant).
// t5max=128: T5's 512-token settings (32 buckets, max distance 128) that left buckets 22–31
// untrained at T = 32, reported once beside the derived default (model/config.hpp, t5_defaults).
const T5_OLD = { name: 't5max=128', scheme: 't5', config: { t5Buckets: 32, t5MaxDistance: 128 } };

// The add-versus-concatenate controls on the word task: whatever of "concatenation beats adding
// past T" is the position signal's energy, the word part's size or its PCA basis. ‖PE‖² is the
// sinusoid's pair count (sin² + cos² = 1 per pair): d/2 = 50 for additive, dPos/2 = 13 for
// concatenated at dPos 26, so scaling additive's table by √(dPos/d) gives it concatenation's energy.
const ENERGY_SCALE = Math.sqrt(SHIPPED.dPos / SHIPPED.d);
// The widened split keeps all d_t = 100 GloVe columns beside dPos: d = 100 + dPos with the shipped
// 5 heads needs d/5 even (rotary's pairs are not used, but the model's rule is one for all
// schemes), so dPos 20 (5 heads of 24), the nearest to 26 that fits.
const WIDE_DPOS = 20;
export const CONTROLS = [
  ...[8, 16, 50].map((dPos) => ({ name: `dPos=${dPos}`, scheme: 'concatenated', config: { dPos } })),
  { name: 'PE energy of dPos=26', scheme: 'additive', config: { positionScale: ENERGY_SCALE } },
  { name: 'uncentred PCA', scheme: 'concatenated', config: { wordPca: 'uncentred' } },
  { name: `widened d=${SHIPPED.d + WIDE_DPOS}`, scheme: 'concatenated', config: { d: SHIPPED.d + WIDE_DPOS, dPos: WIDE_DPOS } },
];

// The larger book run: do the gaps grow as the models learn more
// position-dependent structure? Twice the tiny run's T, four times its width, twice its depth,
// trained natively on both cores (the bits depend on the thread count, recorded in the config);
// lr 2e-3 descended fastest of 1e-3, 2e-3 and 4e-3 over a 300-step pilot of rotary.
const BOOK_LARGE = {
  task: 'book', engine: 'native', metric: 'loss', steps: 2000, threads: 2,
  model: { layers: 4, d: 128, heads: 4, context: 64 }, dPos: 32,
  train: { B: 16, lr: 2e-3 },
  windows: 64, schemes: SCHEMES, seeds: [1, 2, 3],
  variants: [],
  check: 'rotary',
};

// book-large retrained by the PyTorch twin (python/posenc_lab) on the same flags and batch
// stream, data-parallel over `ranks` gloo ranks of `threads` threads each (one per core here),
// and evaluated by the twin on the same held-out windows: records with engine "torch", compared
// with `twin`'s by seed and window. A checkpoint every `saveEvery` steps lets a killed run resume.
const BOOK_LARGE_TORCH = { ...BOOK_LARGE, engine: 'torch', threads: 1, ranks: 2, saveEvery: 100, twin: 'book-large' };

// The sliding-window protocol's stride for book-large (python3 -m posenc_lab.evaluate --protocol
// sliding): every row of kT tokens after a window's first scores only its last S targets, so each
// of those has at least kT − S tokens of context. S must divide 8T − kT for k = 1, 2, 4 (448, 384
// and 256 at T = 64): a divisor of 64. Under the windows protocol a target's context averages
// about kT/2 tokens; S = T/4 = 16 gives each target past a window's first row at least kT − 16
// (48 of 64 at 1×, kT − 8.5 on average) for 4.8 times the windows protocol's forward work over
// k = 1 … 8, where S = 8 costs 9 times and S = 1, every target its full kT − 1, 70 times.
export const SLIDING_STRIDE = 16;

export const TABLES = {
  // The page's default Train run (web/train/config.js) through the JS API, evaluated on windows of
  // 8T characters spread evenly over the whole held-out tenth of the book.
  book: {
    task: 'book', engine: 'wasm', metric: 'loss', steps: DEFAULTS.steps,
    model: { ...tiny, context: DEFAULTS.length }, dPos: dPosFor(DEFAULTS),
    train: { B: DEFAULTS.batch, lr: DEFAULTS.lr },
    windows: 64, schemes: SCHEMES,
    variants: [T5_OLD],
    check: 'rotary',
  },
  'book-large': BOOK_LARGE,
  'book-large-torch': BOOK_LARGE_TORCH,
  // The same trained models (`models`: the table whose scratch models it evaluates, training them
  // if missing) under the sliding-window protocol at stride SLIDING_STRIDE; `windows` names the
  // table of the same models under the windows protocol, for the paired comparison. Plain rotary
  // only (ropeScalings false): the protocol's 4.8-fold work would be 4 times that again.
  'book-large-torch-sliding': { ...BOOK_LARGE_TORCH, twin: undefined, models: 'book-large-torch',
    sliding: { stride: SLIDING_STRIDE, windows: 'book-large-torch', ropeScalings: false } },
  // The float-order control of book-large-torch's rotary runs: the same seeds at one rank of one
  // thread, the same model up to the order of float sums (the whole batch's gradient in one
  // process, not two halves summed across ranks), compared with the two-rank runs the way those
  // are compared with the native ones (`floatOrderOf`). One thread: two threads in one process ran
  // several times slower than two ranks on the shared, loaded cores here.
  'book-large-torch-1rank': { ...BOOK_LARGE_TORCH, twin: undefined, threads: 1, ranks: 1, schemes: ['rotary'],
    floatOrderOf: 'book-large-torch' },
  // The same control on the native side: book-large's rotary seeds trained by posenc-train on one
  // thread, not two (each thread sums half of the batch's gradient), compared with the two-thread
  // runs, and with the twin at one rank, whose whole batch is summed in one process too.
  'book-large-1thread': { ...BOOK_LARGE, threads: 1, schemes: ['rotary'], floatOrderOf: 'book-large',
    engineOf: 'book-large-torch-1rank' },
  // Copy at a size every scheme learns to ≥ 0.95 at T (see docs/EXPERIMENTS.md): items ⌊L/2⌋ at
  // length L, accuracy over fresh examples; each unit is one batch of its own seed. 3,000 steps at
  // the page's lr 3e-3 left NoPE's seed 1 at 0.93 and 5,000 ALiBi's seed 2 at 0.95; the small size
  // (width 64) was worse (0.91–0.93); lr 1e-3 for 6,000 steps took both to 0.96–1.00 on 5 seeds.
  copy: {
    task: 'copy', engine: 'wasm', metric: 'accuracy', steps: 6000,
    model: { ...tiny, context: 8 }, dPos: dPosFor(DEFAULTS),
    train: { B: DEFAULTS.batch, lr: 1e-3 },
    windows: 16, unitRows: 16, schemes: SCHEMES,
    variants: [],
    check: 'rotary',
  },
  // The word-level models on frozen GloVe rows (scripts/train-models.mjs, SHIPPED) trained by the
  // native trainer; windows of 8T tokens spread evenly over the whole held-out text (both corpora).
  words: {
    task: 'words', engine: 'native', metric: 'loss', steps: SHIPPED.steps,
    model: { layers: SHIPPED.layers, d: SHIPPED.d, heads: SHIPPED.heads, context: SHIPPED.context }, dPos: SHIPPED.dPos,
    train: { B: SHIPPED.batch, lr: SHIPPED.lr },
    windows: 64, schemes: SCHEMES,
    variants: [T5_OLD],
    check: 'rotary',
  },
  // The controls (CONTROLS) on the words table's settings and held-out windows; no plain runs:
  // each control is compared with its scheme's plain run in `reference`, paired by seed.
  controls: {
    task: 'words', engine: 'native', metric: 'loss', steps: SHIPPED.steps,
    model: { layers: SHIPPED.layers, d: SHIPPED.d, heads: SHIPPED.heads, context: SHIPPED.context }, dPos: SHIPPED.dPos,
    train: { B: SHIPPED.batch, lr: SHIPPED.lr },
    windows: 64, schemes: [],
    variants: CONTROLS,
    check: 'dPos=8',
    reference: 'words',
  },
};

/**
 * The native trainer's flags for one character-level book run of table t (book-large): the
 * wasm book table's text, split and vocabulary (posenc-train --task text), t.threads threads.
 */
export function bookTrainerArgs(t, run, seed, out) {
  const { layers, d, heads, context } = t.model;
  return ['--task', 'text', '--text', 'data/moby-dick.txt', '--scheme', run.scheme,
    '--d', d, '--layers', layers, '--heads', heads, '--context', context,
    ...(run.scheme === 'concatenated' ? ['--dpos', t.dPos] : []),
    '--batch', t.train.B, '--steps', t.steps, '--lr', t.train.lr, '--seed', seed, '--data-seed', seed,
    '--log-every', Math.max(1, Math.floor(t.steps / 5)), '--threads', t.threads, '--out', out].map(String);
}

/**
 * The twin's flags for one run of a torch table (book-large-torch): the native run's flags (the
 * twin takes posenc-train's), t.ranks local ranks, a checkpoint every saveEvery steps, and
 * --resume from it when `resume` (the checkpoint a killed run left).
 */
export function twinTrainerArgs(t, run, seed, out, checkpoint, { resume = false, saveEvery = t.saveEvery } = {}) {
  return [...bookTrainerArgs(t, run, seed, out), '--nproc', t.ranks, '--checkpoint', checkpoint, '--save-every', saveEvery,
    ...(resume ? ['--resume', checkpoint] : [])].map(String);
}

/** Every run name of a table: its schemes, then its variants' names. */
export const runNames = (table) => [...TABLES[table].schemes, ...TABLES[table].variants.map((v) => v.name)];

/** The runs of a table among `names`: { scheme, variant, config } for each plain scheme and trained variant. */
export function tableRuns(table, names = runNames(table)) {
  const t = TABLES[table];
  const plain = names.filter((s) => t.schemes.includes(s)).map((scheme) => ({ scheme, variant: PLAIN, config: {} }));
  const variants = t.variants.filter((v) => names.includes(v.name))
    .map((v) => ({ scheme: v.scheme, variant: v.name, config: v.config }));
  return [...plain, ...variants];
}
