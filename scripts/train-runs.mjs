#!/usr/bin/env node
// The Train section's default runs outside the browser, through the same JS API and the same
// settings the page's workers use (web/train/config.js, web/train/worker.js), for several seeds:
// training and held-out loss, steps/s, and the length-generalisation losses at 1×…8× T (rotary
// also with PI, NTK-aware and YaRN). Prints a Markdown table per run and the mean ± spread.
//
//   node scripts/train-runs.mjs [--seeds 1,2,3] [--schemes additive,concatenated,rotary] [--steps 600]
//                               [--task book|copy|reverse|sort] [--scalar]
// Needs dist/ (./scripts/build).
import { readFile } from 'node:fs/promises';
import { ROPE_SCALINGS, load } from '../dist/posenc.mjs';
import { ROPE_SCALING } from '../dist/scheme-table.mjs';
import { DEFAULTS, EVAL_BATCHES as EVAL, MULTIPLES, SIZES, dPosFor } from '../dist/train/config.js';

const args = Object.fromEntries(process.argv.slice(2).reduce((pairs, arg, i, all) => {
  if (arg.startsWith('--')) pairs.push([arg.slice(2), all[i + 1]?.startsWith('--') || all[i + 1] === undefined ? 'true' : all[i + 1]]);
  return pairs;
}, []));
const seeds = (args.seeds ?? '1,2,3').split(',').map(Number);
const schemes = (args.schemes ?? DEFAULTS.schemes.join(',')).split(',');
const state = { ...DEFAULTS, task: args.task ?? DEFAULTS.task, steps: Number(args.steps ?? DEFAULTS.steps) };

const lab = await load({ simd: args.scalar !== 'true' });
await lab.loadModels();
const task = state.task === 'book'
  ? lab.createTask({ kind: 'text', text: new Uint8Array(await readFile(new URL('../data/moby-dick.txt', import.meta.url))) })
  : lab.createTask({ kind: state.task, symbols: 10 });
const metric = task.kind === 'text' ? 'loss' : 'accuracy';
const T = state.length;
const { layers, d, heads } = SIZES[state.size];

const results = {};
for (const scheme of schemes) {
  for (const seed of seeds) {
    const model = lab.createModel({ scheme, vocab: task.vocabSize, d, layers, heads, context: T, seed,
      ...(scheme === 'concatenated' ? { dPos: dPosFor(state) } : {}) });
    const t0 = performance.now();
    const losses = model.train(task, { steps: state.steps, B: state.batch, T, seed, lr: state.lr });
    const seconds = (performance.now() - t0) / 1000;
    const lengths = MULTIPLES.map((k) => k * T);
    const row = {
      train: losses.slice(-10).reduce((a, b) => a + b, 0) / 10,
      heldout: model.evaluate(task, { lengths: [T], ...EVAL })[0][metric],
      stepsPerSecond: state.steps / seconds,
      curves: { [ROPE_SCALING.none]: model.evaluate(task, { lengths, ...EVAL }).map((r) => r[metric]) },
    };
    if (scheme === 'rotary') {
      for (const type of ROPE_SCALINGS.filter((t) => t !== ROPE_SCALING.none)) {
        row.curves[type] = lengths.map((L) => model.evaluate(task, { lengths: [L], ...EVAL, ropeScaling: { type } })[0][metric]);
      }
    }
    (results[scheme] ??= []).push(row);
    console.error(`${scheme} seed ${seed}: train ${row.train.toFixed(4)}, held-out ${row.heldout.toFixed(4)}, ${row.stepsPerSecond.toFixed(1)} steps/s`);
    model.dispose();
  }
}

const stats = (values) => {
  const finite = values.filter(Number.isFinite);
  if (!finite.length) return '—';
  const mean = finite.reduce((a, b) => a + b, 0) / finite.length;
  const spread = Math.sqrt(finite.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, finite.length - 1));
  return `${mean.toFixed(3)} ± ${spread.toFixed(3)}`;
};
console.log(`Task ${state.task}, ${layers} layers, d = ${d}, ${heads} heads, T = ${T}, B = ${state.batch}, lr = ${state.lr}, ` +
  `${state.steps} steps, seeds ${seeds.join(', ')} (mean ± sample standard deviation); ${lab.simd ? 'SIMD' : 'scalar'} build, Node ${process.version}\n`);
console.log(`| scheme | training loss (last 10 steps) | held-out ${metric} at T | steps/s |`);
console.log('|---|---|---|---|');
for (const [scheme, rows] of Object.entries(results)) {
  console.log(`| ${scheme} | ${stats(rows.map((r) => r.train))} | ${stats(rows.map((r) => r.heldout))} | ${stats(rows.map((r) => r.stepsPerSecond))} |`);
}
console.log(`\n| held-out ${metric} at | ${MULTIPLES.map((k) => `${k}× (${k * T})`).join(' | ')} |`);
console.log(`|---|${MULTIPLES.map(() => '---').join('|')}|`);
for (const [scheme, rows] of Object.entries(results)) {
  for (const variant of Object.keys(rows[0].curves)) {
    const name = variant === ROPE_SCALING.none ? scheme : `${scheme} + ${variant.toUpperCase()}`;
    console.log(`| ${name} | ${MULTIPLES.map((_, i) => stats(rows.map((r) => r.curves[variant][i]))).join(' | ')} |`);
  }
}
