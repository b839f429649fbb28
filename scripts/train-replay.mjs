#!/usr/bin/env node
// data/train-replay.json: the Train section's default run (web/train/config.js's DEFAULTS: the
// book, its default schemes, tiny, seed 1, 600 steps), recorded on the schedule the
// page's workers keep (web/train/worker.js): training losses as means of BIN steps, the held-out
// loss every EVAL_EVERY steps, length generalisation at the end (rotary also with PI, NTK-aware,
// YaRN). <posenc-lab panel="train"> replays it (web/train/replay.js), with no model inside.
//   node scripts/train-replay.mjs            writes data/train-replay.json
//   node scripts/train-replay.mjs --check    exits 1 if the file is not what this run gives
// A pure function of the SIMD core in dist/ (./scripts/build): the same wasm gives the same bits.
import { readFile, writeFile } from 'node:fs/promises';
import { ROPE_SCALINGS as SCALINGS, load } from '../dist/posenc.mjs';
import { ROPE_SCALING } from '../dist/scheme-table.mjs';
import { BIN, DEFAULTS, EVAL_BATCHES, EVAL_EVERY, MULTIPLES, SIZES, dPosFor } from '../dist/train/config.js';

const FILE = new URL('../data/train-replay.json', import.meta.url);
const ROPE_SCALINGS = SCALINGS.filter((type) => type !== ROPE_SCALING.none);
// Four significant digits: a thousandth of a nat at these losses (2.0 to 4.1), finer than a pixel
// of the 280-px charts (5 to 9 thousandths). The run sentence states three, and two for its
// smallest difference (ALiBi's growth: +0.019, where six digits gave +0.0188); differences between
// schemes are tenths of a nat. The file travels inside the element's one-file bundles, which count
// every byte: each digit more costs them about 0.2 KB gzipped.
const round = (v) => Number(v.toPrecision(4));

const lab = await load({ simd: true });
await lab.loadModels();
const task = lab.createTask({ kind: 'text', text: new Uint8Array(await readFile(new URL('../data/moby-dick.txt', import.meta.url))) });
const state = { ...DEFAULTS };
const { layers, d, heads } = SIZES[state.size];
const T = state.length;
const heldout = (model) => model.evaluate(task, { lengths: [T], ...EVAL_BATCHES })[0].loss;

const runs = [];
for (const scheme of state.schemes) {
  const model = lab.createModel({ scheme, vocab: task.vocabSize, d, layers, heads, context: T, seed: state.seed,
    ...(scheme === 'concatenated' ? { dPos: dPosFor(state) } : {}) });
  const losses = [];
  const held = [[0, round(heldout(model))]];
  while (model.steps < state.steps) {
    const chunk = model.train(task, { steps: EVAL_EVERY, B: state.batch, T, seed: state.seed, lr: state.lr });
    for (let k = 0; k < chunk.length; k += BIN) losses.push(round(chunk.slice(k, k + BIN).reduce((a, b) => a + b, 0) / BIN));
    held.push([model.steps, round(heldout(model))]);
  }
  const lengths = MULTIPLES.map((k) => k * T);
  const curves = { none: model.evaluate(task, { lengths, ...EVAL_BATCHES }).map((r) => round(r.loss)) };
  if (scheme === 'rotary') {
    for (const type of ROPE_SCALINGS) {
      curves[type] = lengths.map((L) => round(model.evaluate(task, { lengths: [L], ...EVAL_BATCHES, ropeScaling: { type } })[0].loss));
    }
  }
  runs.push({ scheme, losses, heldout: held, curves });
  model.dispose();
}

const replay = {
  about: 'The Train section\'s default run, recorded by scripts/train-replay.mjs; replayed by <posenc-lab panel="train">.',
  settings: { task: state.task, size: state.size, layers, d, heads, dPos: dPosFor(state), length: T, batch: state.batch,
    lr: state.lr, seed: state.seed, steps: state.steps },
  bin: BIN,
  multiples: MULTIPLES,
  runs,
};
const text = `${JSON.stringify(replay)}\n`;
if (process.argv.includes('--check')) {
  const shipped = await readFile(FILE, 'utf8').catch(() => '');
  if (shipped !== text) {
    console.error('data/train-replay.json differs from this run: regenerate it with node scripts/train-replay.mjs');
    process.exit(1);
  }
  console.error('data/train-replay.json: up to date');
} else {
  await writeFile(FILE, text);
  console.error(`data/train-replay.json: ${text.length} bytes`);
}
