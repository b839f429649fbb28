#!/usr/bin/env node
// The results store: trains the runs of docs/EXPERIMENTS.md's tables
// (scripts/experiment-tables.mjs) and writes one record per run and evaluation variant to
// data/experiments/<table>.json:
//   { task, scheme, variant, seed, config, steps, heldOut: { "1": …, "2": …, "4": …, "8": … },
//     byPosition: { "8": [mean loss at positions 0 … 8T − 1] }, byWindow: { "1": [per unit] … },
//     trainLoss, build, timing: { wallSeconds, reusedShipped } }
// heldOut is the mean over the same held-out targets at every length: `windows` windows of 8T
// targets spread evenly over the whole held-out part, cut into 8/k windows of kT for length kT,
// so the lengths differ in context only (copy: `windows` batches of fresh examples, one seed
// each). byWindow keeps each unit's mean, for comparisons paired by seed and unit
// (web/results/intervals.js). Everything but timing is a pure function of the build.
//
//   node scripts/experiments.mjs run TABLE [--schemes a,b] [--seeds 1,2,3] [--force] [--steps N]
//     (--schemes takes schemes and variant names, e.g. run controls --schemes 'dPos=8,uncentred PCA';
//      --steps N: a smoke run of N steps, its records written to build-data/, not to the store;
//      with --windows W it is also evaluated on W held-out units instead of the table's)
//   node scripts/experiments.mjs check [TABLE …]   rerun seed 1 of each table's check run and
//                                                  compare with its records bit for bit
//   node scripts/experiments.mjs docs              rewrite the generated parts of docs/EXPERIMENTS.md
// Runs already recorded are skipped (an interrupted run resumes). Needs dist/ (./scripts/build);
// words also build-native/posenc-train and build-data/words-train.txt (./scripts/train-models);
// a torch table (book-large-torch) a python3 with torch (scripts/experiments-twin.mjs).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { MULTIPLES, PLAIN, ROPE_SCALINGS, SCHEMES, SEEDS, TABLES, bookTrainerArgs, runNames, tableRuns } from './experiment-tables.mjs';
import { SHIPPED, train as trainNative, trainerArgs } from './train-models.mjs';
import { twinRecords } from './experiments-twin.mjs';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const argv = process.argv.slice(2);
const value = (name, fallback) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : fallback);
// A smoke run (--steps N) trains fewer steps than the table's (and evaluates fewer units, with
// --windows W) and keeps its records out of the store.
const SMOKE_STEPS = value('--steps') ? Number(value('--steps')) : null;
const SMOKE_WINDOWS = value('--windows') ? Number(value('--windows')) : null;
if (SMOKE_WINDOWS !== null && !(SMOKE_STEPS && Number.isInteger(SMOKE_WINDOWS) && SMOKE_WINDOWS >= 1)) {
  throw new RangeError('--windows must be a whole number ≥ 1, beside --steps (a smoke run)');
}
const STORE = path.join(ROOT, SMOKE_STEPS ? 'build-data/experiments-smoke' : 'data/experiments');
const tableOf = (table) => (SMOKE_STEPS ? { ...TABLES[table], steps: SMOKE_STEPS, ...(SMOKE_WINDOWS ? { windows: SMOKE_WINDOWS } : {}) } : TABLES[table]);
const storeFile = (table) => path.join(STORE, `${table}.json`);

const { load } = await import(path.join(ROOT, 'dist/posenc.mjs'));
const lab = await load({ simd: true });
await lab.loadModels(); // the model core, fetched on demand
// The shipped word models leave their frozen GloVe rows out: loadModel rebuilds them from these.
const GLOVE = fs.readFileSync(path.join(ROOT, 'data/glove-6b-100d-20k.i8'));
const BUILD = { core: 'wasm SIMD', node: process.version };

// ---- evaluation -----------------------------------------------------------------------------

// Start of each of `count` windows of `span` + 1 ids spread evenly over ids[from, to): one rule
// with the Train section's live loss by position (web/train/evaluate.js).
const { windowStarts: spread } = await import(path.join(ROOT, 'dist/train/evaluate.js'));
function windowStarts(from, to, span, count) {
  const starts = spread(from, to, span, count);
  if (!starts) throw new RangeError(`the held-out part (${to - from} ids) is shorter than one window of ${span}`);
  return starts;
}

// Held-out loss at every multiple over the same targets: { heldOut, byWindow, byPosition }.
function textEvaluation(model, ids, starts, T, rope) {
  const span = 8 * T;
  const heldOut = {}; const byWindow = {}; let byPosition = null;
  for (const k of MULTIPLES) {
    const L = k * T;
    if (model.config.scheme === 'learned' && L > T) continue;
    // s = k, the multiple scored: tokenLosses below runs 8T + 1 ids (the last one only a target),
    // which the core's s = max(1, n / T) would read as a factor a little over 8.
    const options = rope && L > T ? { ropeScaling: { type: rope, factor: k } } : {};
    const position = new Float64Array(L);
    const rows = span / L;
    const perWindow = starts.map((start) => {
      if (k < 8) {
        // The window's 8T targets as 8/k rows of kT (a batch: row b feeds [0, L), predicts [1, L]).
        const tokens = new Int32Array(rows * (L + 1));
        for (let b = 0; b < rows; b++) tokens.set(ids.subarray(start + b * L, start + b * L + L + 1), b * (L + 1));
        return model.loss(tokens, rows, L, options);
      }
      // One row of 8T: each position's loss, for byPosition (the extra last token is causal: unused).
      const losses = model.tokenLosses(ids.subarray(start, start + L + 1), L + 1, options);
      let sum = 0;
      for (let p = 0; p < L; p++) { sum += losses[p]; position[p] += losses[p]; }
      return sum / L;
    });
    byWindow[k] = perWindow;
    heldOut[k] = perWindow.reduce((a, b) => a + b, 0) / perWindow.length;
    if (k === 8) byPosition = { 8: Array.from(position, (v) => v / starts.length) };
  }
  return { heldOut, byWindow, byPosition };
}

// Copy: answer accuracy at every multiple, unit w = one batch of unitRows fresh examples, seed w + 1.
function syntheticEvaluation(model, task, t, rope) {
  const T = t.model.context;
  const heldOut = {}; const byWindow = {};
  for (const k of MULTIPLES) {
    const options = rope && k > 1 ? { ropeScaling: { type: rope } } : {};
    if (model.config.scheme === 'learned' && k > 1) continue;
    byWindow[k] = Array.from({ length: t.windows }, (_, w) =>
      model.evaluate(task, { lengths: [k * T], B: t.unitRows, batches: 1, seed: w + 1, ...options })[0].accuracy);
    heldOut[k] = byWindow[k].reduce((a, b) => a + b, 0) / t.windows;
  }
  return { heldOut, byWindow, byPosition: null };
}

// ---- training -------------------------------------------------------------------------------

let bookTask = null;
function taskFor(t) {
  if (t.task === 'book') {
    bookTask ??= lab.createTask({ kind: 'text', text: new Uint8Array(fs.readFileSync(path.join(ROOT, 'data/moby-dick.txt'))) });
    return bookTask;
  }
  return lab.createTask({ kind: t.task, symbols: 10 });
}

function modelConfig(t, run, vocab, seed) {
  return { scheme: run.scheme, vocab, ...t.model, seed, ...(run.scheme === 'concatenated' ? { dPos: t.dPos } : {}), ...run.config };
}

// One run in wasm (book, copy): the trained model and its last-10-steps training loss.
function trainWasm(t, run, seed) {
  const task = taskFor(t);
  const model = lab.createModel(modelConfig(t, run, task.vocabSize, seed));
  const losses = model.train(task, { steps: t.steps, T: t.model.context, seed, ...t.train });
  return { model, task, trainLoss: losses.slice(-10).reduce((a, b) => a + b, 0) / 10 };
}

// The shipped model of a plain run at seed 1 (scripts/train-models: the same flags, and its
// --check reproduced every file byte for byte), when its bytes are still the manifest's: the
// run's output without the CPU time. `check` always retrains.
function shippedRun(t, run, seed) {
  const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'data/models/manifest.json'), 'utf8'));
  const entry = manifest.models.find((m) => m.scheme === run.scheme);
  const file = path.join(ROOT, 'data/models', `${run.scheme}.safetensors`);
  const same = entry && seed === SHIPPED.seed && run.variant === PLAIN && t.steps === manifest.training.steps && fs.existsSync(file)
    && crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex') === entry.sha256;
  return same ? file : null;
}

// The mean training loss of the native trainer's last logging interval (the last fifth of the steps).
const lastLoggedLoss = (log) => Number(/step\s+\d+\s+loss (\S+)/.exec(log.trim().split('\n').filter((l) => /step\s+\d+\s+loss/.test(l)).at(-1) ?? '')?.[1]);

// One word-level run with the native trainer (seed = initialisation and batch order, as shipped).
async function trainWords(t, run, seed, { retrain }) {
  const shipped = retrain ? null : shippedRun(t, run, seed);
  if (shipped) return { model: lab.loadModel(fs.readFileSync(shipped), { vectors: GLOVE }), trainLoss: null, reused: shipped };
  const scratch = path.join(ROOT, 'build-data/experiments');
  fs.mkdirSync(scratch, { recursive: true });
  const file = path.join(scratch, `words-${run.scheme}-${run.variant}-seed${seed}.safetensors`);
  const result = await trainNative(trainerArgs(run.scheme, path.join(ROOT, 'build-data/words-train.txt'), file, t.steps, { seed, config: run.config }));
  return { model: lab.loadModel(fs.readFileSync(file)), trainLoss: null, loggedLoss: lastLoggedLoss(result.log) };
}

// One character-level run with the native trainer on the book (the book-large table): the same
// text, split and vocabulary as the wasm runs (model/tasks.hpp), `threads` threads per model (the
// thread count is in the scratch name: the bits depend on it).
async function trainBookNative(t, run, seed) {
  const scratch = path.join(ROOT, 'build-data/experiments');
  fs.mkdirSync(scratch, { recursive: true });
  const file = path.join(scratch, `book-${run.scheme}-${run.variant}-seed${seed}-${t.steps}-${t.threads}t.safetensors`);
  const result = await trainNative(bookTrainerArgs(t, run, seed, file));
  return { model: lab.loadModel(fs.readFileSync(file)), task: taskFor(t), trainLoss: null, loggedLoss: lastLoggedLoss(result.log) };
}

let wordIds = null;
async function runOne(table, run, seed, { retrain = false } = {}) {
  const t = tableOf(table);
  if (t.engine === 'torch') return twinRecords(table, t, run, seed, { retrain });
  const started = performance.now();
  const trained = t.engine === 'wasm' ? trainWasm(t, run, seed)
    : t.task === 'book' ? await trainBookNative(t, run, seed) : await trainWords(t, run, seed, { retrain });
  const { model } = trained;
  const T = t.model.context;
  const variants = run.scheme === 'rotary' && run.variant === PLAIN ? [null, ...ROPE_SCALINGS] : [null];
  let ids; let starts;
  if (t.task === 'book') {
    ids = trained.task.encode(fs.readFileSync(path.join(ROOT, 'data/moby-dick.txt'), 'utf8'));
    const trainEnd = ids.length - Math.floor((ids.length * 10) / 100);  // the core's split (model/tasks.hpp)
    starts = windowStarts(trainEnd, ids.length, 8 * T, t.windows);
  } else if (t.task === 'words') {
    wordIds ??= model.tokenize(fs.readFileSync(path.join(ROOT, 'data/words-heldout.txt'), 'utf8'));
    ids = wordIds;
    starts = windowStarts(0, ids.length, 8 * T, t.windows);
  }
  const records = variants.map((rope) => {
    const evaluation = t.task === 'copy' ? syntheticEvaluation(model, trained.task, t, rope) : textEvaluation(model, ids, starts, T, rope);
    return {
      task: t.task, scheme: run.scheme, variant: rope ?? run.variant, seed,
      config: { ...model.config, ...t.train, steps: t.steps, windows: t.windows, ...(t.unitRows ? { unitRows: t.unitRows } : {}),
        ...(t.threads ? { threads: t.threads } : {}) },
      steps: t.steps, metric: t.metric, ...evaluation, trainLoss: trained.trainLoss, build: BUILD,
    };
  });
  model.dispose();
  // Not part of the result (check ignores it): the wall time of training plus evaluation, and
  // whether the training was reused from the shipped model (then the time is evaluation only).
  const timing = { wallSeconds: Math.round((performance.now() - started) / 100) / 10, reusedShipped: Boolean(trained.reused) };
  return records.map((r) => ({ ...r, timing }));
}

// ---- the store ------------------------------------------------------------------------------

const key = (r) => `${r.scheme}|${r.variant}|${r.seed}`;
const order = (r) => [SCHEMES.indexOf(r.scheme), r.variant === PLAIN ? '' : r.variant, r.seed];
function sortRecords(records) {
  return records.sort((a, b) => {
    const [x, y] = [order(a), order(b)];
    return x[0] - y[0] || (x[1] < y[1] ? -1 : x[1] > y[1] ? 1 : 0) || x[2] - y[2];
  });
}

export function readStore(table) {
  const file = storeFile(table);
  return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : { table, about: '', records: [] };
}

// One record per line: readable diffs, a stable order.
function writeStore(table, records) {
  fs.mkdirSync(STORE, { recursive: true });
  const t = tableOf(table);
  const about = `scripts/experiments.mjs run ${table}: ${t.task}, ${t.steps} steps; heldOut = mean ${t.metric} over ${t.windows} ` +
    `${t.task === 'copy' ? `batches of ${t.unitRows} fresh examples` : 'windows of 8T held-out targets'} at each multiple of T`;
  const lines = sortRecords(records).map((r) => JSON.stringify(r));
  fs.writeFileSync(storeFile(table), `{"table":${JSON.stringify(table)},"about":${JSON.stringify(about)},"records":[\n${lines.join(',\n')}\n]}\n`);
}

function addRecords(table, fresh) {
  const kept = readStore(table).records.filter((r) => !fresh.some((f) => key(f) === key(r)));
  writeStore(table, [...kept, ...fresh]);
}

// ---- commands -------------------------------------------------------------------------------

const [command, ...rest] = argv;
const names = rest.filter((a, i) => !a.startsWith('--') && !rest[i - 1]?.startsWith('--'));

if (command === 'run') {
  const table = names[0];
  if (!TABLES[table]) throw new RangeError(`table must be one of ${Object.keys(TABLES).join(', ')}`);
  const seeds = value('--seeds', (TABLES[table].seeds ?? SEEDS).join(',')).split(',').map(Number);
  const runs = tableRuns(table, value('--schemes', runNames(table).join(',')).split(','));
  const done = new Set(readStore(table).records.map(key));
  for (const seed of seeds) {
    for (const run of runs) {
      if (!argv.includes('--force') && done.has(key({ ...run, seed }))) continue;
      const records = await runOne(table, run, seed);
      addRecords(table, records);
      const r = records[0];
      console.log(`${table} ${run.scheme}${run.variant === PLAIN ? '' : ` (${run.variant})`} seed ${seed}: ` +
        `${MULTIPLES.map((k) => `${k}× ${r.heldOut[k]?.toFixed(4) ?? '—'}`).join(', ')}; ${r.timing.wallSeconds} s${r.timing.reusedShipped ? ' (shipped model, evaluation only)' : ''}`);
    }
  }
} else if (command === 'check') {
  let failed = 0;
  for (const table of names.length ? names : Object.keys(TABLES)) {
    const [run] = tableRuns(table, [TABLES[table].check]);
    const stored = readStore(table).records.filter((r) => r.scheme === run.scheme && r.seed === 1);
    if (!stored.some((r) => key(r) === key({ ...run, seed: 1 }))) { console.log(`check ${table}: no record of ${TABLES[table].check} seed 1 yet, skipped`); continue; }
    const fresh = await runOne(table, run, 1, { retrain: true });
    for (const f of fresh) {
      const s = stored.find((r) => key(r) === key(f));
      const strip = ({ timing, ...r }) => JSON.stringify(r);
      const same = s && strip(s) === strip(f);
      if (!same) failed++;
      console.log(`check ${table} ${f.scheme} ${f.variant} seed 1: ${same ? 'reproduced bit for bit' : 'DIFFERS from the record'} (${f.timing.wallSeconds} s)`);
    }
  }
  process.exitCode = failed ? 1 : 0;
} else if (command === 'docs') {
  const { writeDocs } = await import('./experiments-docs.mjs');
  writeDocs(Object.fromEntries(Object.keys(TABLES).map((t) => [t, readStore(t)])));
} else {
  console.error('usage: experiments.mjs run TABLE [--schemes a,b] [--seeds 1,2] [--force] | check [TABLE …] | docs');
  process.exitCode = 2;
}
