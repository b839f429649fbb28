// One trained model per worker (web/train/panel.js starts one per scheme, and one per loaded
// weights file): builds its task in the core, trains in chunks of about CHUNK_MS between which
// messages (pause, learning rate) get through, and answers the page's questions about the model.
//
// page → worker: init { id, task: { kind, text?, symbols? }, config | weights, train: { B, T, seed, lr },
//                budget, evalEvery, lengthsEvery, multiples, inspectText, samplePrompt }
//                run { share } | share { share } | pause | step | set { lr } | inspect { text } | save
// worker → page: ready { parameterCount, config } | progress { step, from, losses, stepsPerSecond }
//                heldout { step, loss, accuracy } | lengths { step, curves, positions, ms } | inspect { … }
//                sample { text } | saved { bytes } | paused { step } | done { step } | error { message, fatal }
//                diverged { step, loss } (that step not applied; the model stays at step − 1)
import { loadModels } from '../posenc.mjs';
import { heldOutIds, heldoutAt, lengthCurves, positionLosses } from './evaluate.js';

const CHUNK_MS = 60;
const SAMPLE_LENGTH = 160;
const SAMPLE_TEMPERATURE = 0.8;

let lab, task, model, settings; // lab: the model core (loadModels)
let text = null; // a text task's text, until its held-out ids are made (heldIds)
let heldIds = null;
let running = false;
let loops = 0; // run() calls so far
let share = 1;
let perStepMs = 20; // smoothed training time per step (evaluations excluded)

const post = (message, transfer) => postMessage(message, transfer);

async function bookBytes() {
  const response = await fetch(new URL('../moby-dick.txt', import.meta.url));
  if (!response.ok) throw new Error(`the book could not be loaded (HTTP ${response.status})`);
  return new Uint8Array(await response.arrayBuffer());
}

async function init(message) {
  settings = message;
  lab = await loadModels(); // the model core only: a worker needs none of the page's core
  const spec = message.task.kind === 'book'
    ? { kind: 'text', text: await bookBytes() }
    : message.task.kind === 'text' ? { kind: 'text', text: message.task.text } : { kind: message.task.kind, symbols: message.task.symbols };
  task = lab.createTask(spec);
  if (spec.kind === 'text') text = typeof spec.text === 'string' ? spec.text : new TextDecoder().decode(spec.text);
  if (message.weights) {
    model = lab.loadModel(message.weights);
    if (model.config.vocab !== task.vocabSize) {
      const found = model.config.vocab;
      model.dispose();
      throw new RangeError(`this model has a vocabulary of ${found} tokens, the task ${task.vocabSize}: load it with the task it was trained on`);
    }
  } else {
    model = lab.createModel({ ...message.config, vocab: task.vocabSize });
  }
  post({ type: 'ready', parameterCount: model.parameterCount, config: model.config, simd: lab.simd });
  heldout();
  if (message.weights) { lengths(); inspect(message.inspectText); }
}

function heldout() {
  const result = heldoutAt(model, task, evalLength());
  post({ type: 'heldout', step: model.steps, loss: result.loss, accuracy: result.accuracy });
}

// A loaded model evaluates at its own context; a trained one at the section's training length.
const evalLength = () => (settings.weights ? model.config.context : settings.train.T);

// positions: held-out loss by position inside windows of the largest multiple (text tasks; null
// otherwise or where they do not fit); ms: the time of the position evaluation alone.
function lengths() {
  const T = evalLength();
  const curves = lengthCurves(model, task, T, settings.multiples);
  if (text !== null) {
    heldIds = heldOutIds(task, text, lab.modelLimits.defaultHeldOutPercent);
    text = null;
  }
  const t0 = performance.now();
  const positions = heldIds ? positionLosses(model, heldIds, Math.max(...settings.multiples) * T) : null;
  const ms = performance.now() - t0;
  post({ type: 'lengths', step: model.steps, curves, positions, ms }, positions ? [positions.buffer] : []);
}

function inspect(text) {
  let tokens;
  try {
    tokens = task.encode(text);
  } catch (error) {
    post({ type: 'inspect', error: error.message });
    return;
  }
  const n = Math.min(tokens.length, model.config.scheme === 'learned' ? model.config.context : 256);
  if (n < 2) { post({ type: 'inspect', error: 'the sentence needs at least two tokens' }); return; }
  const ids = tokens.subarray(0, n);
  const attention = model.attention(ids, n);
  const losses = model.tokenLosses(ids, n);
  post({ type: 'inspect', n, pieces: Array.from(ids, (id) => task.vocab[id]), attention, losses,
    layers: model.config.layers, heads: model.config.heads }, [attention.buffer, losses.buffer]);
  if (task.kind === 'text') {
    const prompt = task.encode(settings.samplePrompt);
    const sample = model.generate(prompt, SAMPLE_LENGTH, { temperature: SAMPLE_TEMPERATURE, seed: 1 });
    post({ type: 'sample', text: settings.samplePrompt + task.decode(sample) });
  }
}

// → false when a step diverged: the steps before it are posted, then `diverged`; the model keeps
// the weights of the last good step (web/model.mjs, TrainingDivergedError), and training stops.
function trainSteps(count) {
  const from = model.steps;
  const t0 = performance.now();
  const { B, T, seed, lr } = settings.train;
  let losses;
  try {
    losses = model.train(task, { steps: count, B, T, seed, lr });
  } catch (error) {
    if (error.name !== 'TrainingDivergedError') throw error;
    running = false;
    if (error.losses.length) post({ type: 'progress', from, step: model.steps, losses: error.losses, stepsPerSecond: 1000 / perStepMs });
    post({ type: 'diverged', step: error.step, loss: error.loss });
    return false;
  }
  const ms = performance.now() - t0;
  perStepMs = 0.7 * perStepMs + 0.3 * (ms / count);
  post({ type: 'progress', from, step: model.steps, losses, stepsPerSecond: 1000 / Math.max(perStepMs, 0.01) }, [losses.buffer]);
  const step = model.steps;
  if (step % settings.evalEvery === 0 || step === settings.budget) heldout();
  if (step % settings.lengthsEvery === 0 || step === settings.budget) { lengths(); inspect(settings.inspectText); }
  return true;
}

// share: the fraction of the time to spend training (web/train/config.js: trainingShare, then
// nextShare each second); the worker sleeps the rest, in proportion to each chunk's length.
async function run() {
  running = true;
  // A pause and a new run inside one sleep must not leave two loops training.
  const mine = ++loops;
  while (running && loops === mine && model.steps < settings.budget) {
    const toEval = settings.evalEvery - (model.steps % settings.evalEvery);
    const count = Math.max(1, Math.min(Math.round(CHUNK_MS / perStepMs), toEval, settings.budget - model.steps));
    const start = performance.now();
    if (!trainSteps(count)) return;
    const rest = share < 1 ? (performance.now() - start) * (1 / share - 1) : 0;
    // Let pause and learning-rate messages in between chunks.
    await new Promise((resolve) => setTimeout(resolve, rest));
  }
  if (!running || loops !== mine) return;
  running = false;
  post({ type: 'done', step: model.steps });
}

const handlers = {
  run: (message) => {
    share = message.share ?? 1;
    if (running) return;
    if (model.steps < settings.budget) run();
    else post({ type: 'done', step: model.steps });
  },
  pause: () => {
    if (!running) return;
    running = false;
    heldout();
    lengths();
    inspect(settings.inspectText);
    post({ type: 'paused', step: model.steps });
  },
  step: () => { if (!running && model.steps < settings.budget) trainSteps(1); },
  share: (message) => { share = message.share; },
  set: ({ lr, budget }) => {
    settings.train.lr = lr;
    settings.budget = budget;
  },
  inspect: ({ text }) => { settings.inspectText = text; inspect(text); },
  save: () => {
    const bytes = model.save();
    post({ type: 'saved', bytes }, [bytes.buffer]);
  },
};

// Messages that arrive while init is still loading the core wait for it.
let initialised = null;
onmessage = async ({ data }) => {
  try {
    if (data.type === 'init') {
      initialised = init(data);
      await initialised;
    } else {
      await initialised;
      if (model) await handlers[data.type](data);
    }
  } catch (error) {
    running = false;
    post({ type: 'error', message: error.message, fatal: !model });
  }
};
