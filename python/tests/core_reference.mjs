// The core's numbers for the twin's parity tests, through the JS API of the built wasm core
// (dist/posenc.mjs, the SIMD build). Usage: node core_reference.mjs DIST_DIR JOB.json OUT_DIR
//
// JOB.json: { cases: [{ name, weights (a file path), B, T, tokens [B·(T+1)], mask [B·T] | null,
//             sequence [n] (logits, attention), long: { B, T2, tokens [B·(T2+1)], sequence [T2] }
//             | null, ropes [{ type, factor? }] (rotary), steps [{ tokens, mask }], adamw {…} }],
//             saves: [{ config, out }], loads: [{ weights }] }
// OUT_DIR/<name>.json: { loss, grads {name: []}, logits [], attention [], long: {…}, stepLosses [] }
// and OUT_DIR/<name>.after.safetensors, the model after the AdamW steps, saved by the core.
// saves: the core's freshly initialised model of each config, saved to `out` (round trips).
// loads: each file loaded by the core (with its word vectors when given) and saved again to `out`
// (default <weights>.core.safetensors).
// refusals: files the core must refuse; OUT_DIR/refusals.json holds its message for each (or null).
// streams, heldout, tokenize: see below.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [dist, jobPath, outDir] = process.argv.slice(2);
const { loadModels } = await import(pathToFileURL(path.join(dist, 'posenc.mjs')).href);
const models = await loadModels({ simd: true });
const job = JSON.parse(fs.readFileSync(jobPath, 'utf8'));

const list = (typed) => Array.from(typed);
const ints = (values) => Int32Array.from(values);
const bytes = (values) => (values ? Uint8Array.from(values) : undefined);

function evaluateAt(model, c, rope) {
  const options = rope ? { ropeScaling: rope } : {};
  const { B, T2, tokens, sequence } = c.long;
  return {
    rope: rope ?? null,
    loss: model.loss(ints(tokens), B, T2, options),
    logits: list(model.logits(ints(sequence), sequence.length, options)),
    attention: list(model.attention(ints(sequence), sequence.length, options)),
  };
}

for (const c of job.cases) {
  const model = models.loadModel(fs.readFileSync(c.weights));
  const mask = bytes(c.mask);
  const result = {
    loss: model.loss(ints(c.tokens), c.B, c.T, mask ? { mask } : {}),
    logits: list(model.logits(ints(c.sequence), c.sequence.length)),
    attention: list(model.attention(ints(c.sequence), c.sequence.length)),
  };
  const { loss, grads } = model.gradients(ints(c.tokens), c.B, c.T, mask ? { mask } : {});
  result.gradientsLoss = loss;
  result.grads = Object.fromEntries(Object.entries(grads).map(([name, g]) => [name, list(g)]));
  result.long = c.long ? [null, ...c.ropes].map((rope) => evaluateAt(model, c, rope)) : [];
  result.stepLosses = c.steps.map((step) => {
    const stepMask = bytes(step.mask);
    return model.trainStep(ints(step.tokens), c.B, c.T, { ...(stepMask ? { mask: stepMask } : {}), ...c.adamw });
  });
  fs.writeFileSync(path.join(outDir, `${c.name}.after.safetensors`), model.save());
  fs.writeFileSync(path.join(outDir, `${c.name}.json`), JSON.stringify(result));
  model.dispose();
}

for (const { config, out } of job.saves ?? []) {
  const model = models.createModel(config);
  fs.writeFileSync(out, model.save());
  model.dispose();
}

for (const { weights, vectors, out } of job.loads ?? []) {
  const model = models.loadModel(fs.readFileSync(weights), vectors ? { vectors: fs.readFileSync(vectors) } : {});
  fs.writeFileSync(out ?? `${weights}.core.safetensors`, model.save());
  model.dispose();
}

// refusals: each file given to the core's loader; OUT_DIR/refusals.json lists its message or null.
const refusals = (job.refusals ?? []).map(({ weights }) => {
  try {
    models.loadModel(fs.readFileSync(weights)).dispose();
    return null;
  } catch (error) {
    return String(error.message);
  }
});
fs.writeFileSync(path.join(outDir, 'refusals.json'), JSON.stringify(refusals));

// streams: the core trains a file's model on its own task's batches 0 … steps − 1 (model.train:
// the seeded batch stream) and saves it to `out`, its losses to out.json with the held-out
// evaluation at `lengths` (model.evaluate). task: { kind: 'text', textFile } or { kind, symbols }.
for (const s of job.streams ?? []) {
  const model = models.loadModel(fs.readFileSync(s.weights));
  const spec = s.task.kind === 'text' ? { kind: 'text', text: fs.readFileSync(s.task.textFile, 'utf8') } : s.task;
  const task = models.createTask(spec);
  const losses = Array.from(model.train(task, { steps: s.steps, B: s.B, T: s.T, seed: s.seed, ...s.adamw }));
  const evaluation = model.evaluate(task, { lengths: s.lengths, B: s.B, batches: s.batches, seed: s.evalSeed });
  fs.writeFileSync(s.out, model.save());
  fs.writeFileSync(`${s.out}.json`, JSON.stringify({ losses, evaluation }));
  task.dispose();
  model.dispose();
}

// heldout: the results store's text protocol (scripts/experiments.mjs, textEvaluation) on a file's
// model: windows of 8T targets at windowStarts over the held-out tenth, cut into 8/k rows of kT
// (model.loss) or, at 8T, one row (model.tokenLosses, also byPosition); with rope (a scaling's
// name) the scaling at factor k past 1×, as the store's rotary records have it.
// Writes OUT_DIR/heldout-<i>.json: { starts, heldOut, byWindow, byPosition }.
const { windowStarts } = await import(pathToFileURL(path.join(dist, 'train', 'evaluate.js')).href);
(job.heldout ?? []).forEach((h, i) => {
  const model = models.loadModel(fs.readFileSync(h.weights));
  const text = fs.readFileSync(h.textFile, 'utf8');
  const task = models.createTask({ kind: 'text', text });
  const ids = task.encode(text);
  const T = model.config.context;
  const trainEnd = ids.length - Math.floor((ids.length * 10) / 100);
  const starts = windowStarts(trainEnd, ids.length, 8 * T, h.windows);
  const heldOut = {}; const byWindow = {}; let byPosition = null;
  for (const k of [1, 2, 4, 8]) {
    const L = k * T;
    const options = h.rope && k > 1 ? { ropeScaling: { type: h.rope, factor: k } } : {};
    const position = new Float64Array(L);
    byWindow[k] = starts.map((start) => {
      if (k < 8) {
        const rows = (8 * T) / L;
        const tokens = new Int32Array(rows * (L + 1));
        for (let b = 0; b < rows; b++) tokens.set(ids.subarray(start + b * L, start + b * L + L + 1), b * (L + 1));
        return model.loss(tokens, rows, L, options);
      }
      const losses = model.tokenLosses(ids.subarray(start, start + L + 1), L + 1, options);
      let sum = 0;
      for (let p = 0; p < L; p++) { sum += losses[p]; position[p] += losses[p]; }
      return sum / L;
    });
    heldOut[k] = byWindow[k].reduce((a, b) => a + b, 0) / starts.length;
    if (k === 8) byPosition = { 8: Array.from(position, (v) => v / starts.length) };
  }
  fs.writeFileSync(path.join(outDir, `heldout-${i}.json`), JSON.stringify({ starts, heldOut, byWindow, byPosition }));
  task.dispose();
  model.dispose();
});

// tokenize: lab.tokenize (the page's word tokenizer) on each text file; OUT_DIR/tokens-<i>.json.
if (job.tokenize?.length) {
  const { load } = await import(pathToFileURL(path.join(dist, 'posenc.mjs')).href);
  const lab = await load({ simd: true });
  job.tokenize.forEach(({ textFile }, i) =>
    fs.writeFileSync(path.join(outDir, `tokens-${i}.json`), JSON.stringify(lab.tokenize(fs.readFileSync(textFile, 'utf8')))));
}

// limits: OUT_DIR/limits.json, the model core's limits and AdamW defaults (models.modelLimits).
fs.writeFileSync(path.join(outDir, 'limits.json'), JSON.stringify(models.modelLimits));
