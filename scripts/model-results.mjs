#!/usr/bin/env node
// The add-versus-concatenate answer, measured on the word-level models: for each scheme
// and seed, a model trained exactly as the shipped ones (scripts/train-models.mjs, SHIPPED; seed
// 1 is the shipped run itself), its held-out perplexity at T, 2T, 4T, 8T (learned: T only; rotary
// also with PI, NTK-aware and YaRN at factor = the multiple), mean and spread over the seeds; and
// the word-vector "pollution" inside the trained additive model. Writes data/models/results.json
// and prints the Markdown table of docs/EXPERIMENTS.md.
//
//   node scripts/model-results.mjs [--seeds 1,2,3] [--jobs 2]     (after ./scripts/train-models)
//   node scripts/model-results.mjs --no-train                     summarise the runs made so far
//
// Runs already recorded in build-data/model-runs/ (same scheme, seed and steps; their files in
// build-data/model-results/, seed 1's in data/models/) are reused, so an interrupted run resumes.
// Needs build-native/posenc-train, build-data/words-train.txt (both made by ./scripts/train-models)
// and dist/ (./scripts/build): the lengths and the pollution are measured with the wasm core.
import fs from 'node:fs';
import path from 'node:path';
import { RUNS, SCHEMES, SHIPPED, pool, saveRun, train, trainerArgs } from './train-models.mjs';
import { PLAIN, RESULT_MULTIPLES as MULTIPLES } from '../web/results/records.js';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const TEXT = path.join(ROOT, 'build-data/words-train.txt');

const argv = process.argv.slice(2);
const value = (name, fallback) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : fallback);
const seeds = value('--seeds', '1,2,3').split(',').map(Number);
const jobs = Number(value('--jobs', 2));
const steps = SHIPPED.steps;
const T = SHIPPED.context;
const lengths = MULTIPLES.map((k) => k * T);

const runFile = (scheme, seed) => path.join(ROOT, RUNS, `${scheme}-seed${seed}-steps${steps}.json`);
const scratch = path.join(ROOT, 'build-data/model-results');
fs.mkdirSync(scratch, { recursive: true });

const pending = argv.includes('--no-train') ? [] : SCHEMES.flatMap((scheme) => seeds.map((seed) => ({ scheme, seed })))
  .filter(({ scheme, seed }) => !fs.existsSync(runFile(scheme, seed)));
console.log(`model-results: ${pending.length} runs to train (${steps} steps each, ${jobs} at a time)`);
await pool(pending.map(({ scheme, seed }) => async () => {
  const run = await train(trainerArgs(scheme, TEXT, path.join(scratch, `${scheme}-seed${seed}.safetensors`), steps, { seed }));
  saveRun(scheme, seed, steps, run);
  console.log(`${scheme} seed ${seed}: held-out loss ${run.loss.toFixed(4)}, ${run.seconds.toFixed(0)} s`);
}), jobs);

// Held-out loss at every length over the same held-out targets (the first 8,192: 256 windows of
// T, 128 of 2T, … 32 of 8T, 16 rows per batch, batch means averaged), so the lengths differ in
// context only, not in text; computed with the SIMD wasm core, which gives the native trainer's
// bits at T (tests/js/pretrained.test.mjs).
const { ROPE_SCALINGS, load } = await import(path.join(ROOT, 'dist/posenc.mjs'));
const { ROPE_SCALING } = await import(path.join(ROOT, 'dist/scheme-table.mjs'));
const SCALINGS = ROPE_SCALINGS.filter((type) => type !== ROPE_SCALING.none);
const lab = await load({ simd: true });
await lab.loadModels();
// The shipped files leave their frozen wte rows out: the model core rebuilds them from GloVe.
const GLOVE = fs.readFileSync(path.join(ROOT, 'data/glove-6b-100d-20k.i8'));
const heldOut = fs.readFileSync(path.join(ROOT, 'data/words-heldout.txt'), 'utf8');
const TARGETS = SHIPPED.evalBatches * SHIPPED.batch * T;

function lengthLosses(file) {
  const model = lab.loadModel(fs.readFileSync(file), { vectors: GLOVE });
  const ids = model.tokenize(heldOut);
  const B = SHIPPED.batch;
  const evals = [];
  for (const length of lengths) {
    if (model.config.scheme === 'learned' && length > T) continue;
    const variants = [ROPE_SCALING.none, ...(model.config.scheme === 'rotary' && length > T ? SCALINGS : [])];
    for (const rope of variants) {
      const options = rope === ROPE_SCALING.none ? {} : { ropeScaling: { type: rope } };
      const batches = TARGETS / (B * length);
      let sum = 0;
      for (let k = 0; k < batches; k++) {
        const tokens = new Int32Array(B * (length + 1));
        for (let b = 0; b < B; b++) {
          const start = (k * B + b) * length;
          tokens.set(ids.subarray(start, start + length + 1), b * (length + 1));
        }
        sum += model.loss(tokens, B, length, options);
      }
      evals.push({ length, rope, loss: sum / batches });
    }
  }
  model.dispose();
  return evals;
}

const modelFile = (scheme, seed) => (seed === SHIPPED.seed ? path.join(ROOT, 'data/models', `${scheme}.safetensors`)
  : path.join(scratch, `${scheme}-seed${seed}.safetensors`));
const runs = SCHEMES.flatMap((scheme) => seeds.map((seed) => ({ scheme, seed })))
  .filter(({ scheme, seed }) => fs.existsSync(runFile(scheme, seed)) && fs.existsSync(modelFile(scheme, seed)))
  .map(({ scheme, seed }) => ({ scheme, seed, evals: lengthLosses(modelFile(scheme, seed)) }));

// Mean and sample standard deviation (n − 1) of the perplexities; spread null for one seed.
function summary(values) {
  if (!values.length) return null;
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const spread = values.length > 1 ? Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / (values.length - 1)) : null;
  return { mean, spread, seeds: values.length };
}

function perplexities(scheme, variant) {
  return lengths.map((length) => {
    const found = runs.filter((r) => r.scheme === scheme).map((r) => r.evals.find((e) => e.length === length &&
      e.rope === (length === T ? ROPE_SCALING.none : variant)));
    return summary(found.filter(Boolean).map((e) => Math.exp(e.loss)));
  });
}

const rows = SCHEMES.flatMap((scheme) => [
  { scheme, variant: PLAIN, perplexity: perplexities(scheme, ROPE_SCALING.none) },
  ...(scheme === 'rotary' ? SCALINGS.map((variant) => ({ scheme, variant, perplexity: perplexities(scheme, variant) })) : []),
]);

const results = {
  about: 'Held-out perplexity of the word-level models (scripts/model-results.mjs) over the same 8,192 held-out targets at every length: mean and sample standard deviation over seeds; null where a length cannot be evaluated (learned beyond T).',
  lengths,
  rows,
  pollution: await pollution(),
  seeds: [...new Set(runs.map((r) => r.seed))].sort(),
  steps,
  config: { ...SHIPPED },
};
fs.writeFileSync(path.join(ROOT, 'data/models/results.json'), `${JSON.stringify(results, null, 2)}\n`);
console.log(markdown(results));

// Per dimension j of the trained additive model's layer-0 attention input u = LN(x; ln_1), over the
// held-out tokens of the first 64 windows (p = the token's position in its window), with
// Δu = u(α·wte[t] + PE(p)) − u(α·wte[t]):
//   trainedRatio    std(Δu_j) / std(u_j(α·wte[t])): how much position shakes dimension j against
//                   the words' own spread there — the page's measure taken after ln_1. ln_1's gain
//                   and bias scale both alike, so this part is LayerNorm's doing, not training's.
//   trainedDrift    mean |Δu_j|, in the trained model's units (ln_1's learned gain included)
//   lnGain          |ln_1.weight[j]|: whether training turned the shaken dimensions down
//   pageDisturbance the page's untrained std(PE[:, j]) / std(αE[:, j]) over the same tokens
async function pollution() {
  const model = lab.loadModel(fs.readFileSync(path.join(ROOT, 'data/models/additive.safetensors')), { vectors: GLOVE });
  const { d, alpha } = model.config;
  const params = model.parameters();
  const wte = params['wte.weight'];
  const gain = params['h.0.ln_1.weight'];
  const bias = params['h.0.ln_1.bias'];
  const pe = lab.sinusoidal(T, d);
  const ids = model.tokenize(fs.readFileSync(path.join(ROOT, 'data/words-heldout.txt'), 'utf8')).subarray(0, 64 * T);
  const n = ids.length;
  const layerNorm = (x) => {
    const mean = x.reduce((a, b) => a + b, 0) / d;
    const variance = x.reduce((a, v) => a + (v - mean) ** 2, 0) / d;
    return x.map((v, j) => ((v - mean) / Math.sqrt(variance + 1e-5)) * gain[j] + bias[j]);
  };
  const [plain, moved, words, positions] = [0, 0, 0, 0].map(() => new Float32Array(n * d));
  const drift = new Float64Array(d);
  ids.forEach((id, i) => {
    const p = i % T;
    const word = Array.from(wte.subarray(id * d, id * d + d), (v) => alpha * v);
    const u0 = layerNorm(word);
    const u1 = layerNorm(word.map((v, j) => v + pe[p * d + j]));
    plain.set(u0, i * d);
    moved.set(u1.map((v, j) => v - u0[j]), i * d);
    for (let j = 0; j < d; j++) drift[j] += Math.abs(u1[j] - u0[j]) / n;
    words.set(word, i * d);
    positions.set(pe.subarray(p * d, p * d + d), i * d);
  });
  const [plainSpread, movedSpread, wordSpread, peSpread] = [plain, moved, words, positions].map((m) => lab.columnSpread(m, n, d));
  model.dispose();
  const round = (v) => Number(v.toPrecision(4));
  const perDim = (f) => Array.from({ length: d }, (_, j) => round(f(j)));
  const measures = {
    trainedRatio: perDim((j) => movedSpread[j] / plainSpread[j]),
    trainedDrift: perDim((j) => drift[j]),
    lnGain: perDim((j) => Math.abs(gain[j])),
    pageDisturbance: perDim((j) => peSpread[j] / wordSpread[j]),
  };
  const band = (from, to) => Object.fromEntries(Object.entries(measures).map(([key, values]) =>
    [key, round(values.slice(from, to).reduce((a, b) => a + b, 0) / (to - from))]));
  return {
    about: 'additive model, layer 0 after ln_1, per dimension over the held-out tokens of 64 windows of T: trainedRatio = std(Δu)/std(u(αE)) with Δu = LN(αE+PE) − LN(αE) (ln_1\'s gain cancels: LayerNorm\'s effect); trainedDrift = mean |Δu| (gain included); lnGain = |ln_1.weight|; pageDisturbance = the page\'s untrained std(PE)/std(αE)',
    tokens: n,
    ...measures,
    firstTen: band(0, 10),
    lastTen: band(d - 10, d),
  };
}

function markdown({ lengths: L, rows: R, seeds: S }) {
  const cell = (s) => (s ? `${s.mean.toFixed(1)}${s.spread === null ? '' : ` ± ${s.spread.toFixed(1)}`}` : '—');
  const head = `| scheme | ${L.map((l) => `${l} (${l / T}T)`).join(' | ')} |\n|---|${L.map(() => '---:').join('|')}|`;
  const body = R.map((r) => `| ${r.scheme}${r.variant === PLAIN ? '' : ` + ${r.variant}`} | ${r.perplexity.map(cell).join(' | ')} |`);
  return `Held-out perplexity, mean ± sample std over seeds ${S.join(', ')}:\n\n${head}\n${body.join('\n')}`;
}
