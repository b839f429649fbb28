// The Train section's runs: one worker (web/train/worker.js) per trained scheme and per loaded
// weights file, started, told what to do, and heard from. A run is
// { key, scheme, name, worker, loaded, fileName, style, step, losses, heldout, curves, curvesByStep,
//   positions, stepsPerSecond, phase: 'starting' | 'ready' | 'training' | 'paused' | 'done' | 'diverged',
//   inspect, sample, parameterCount, config, diverged }.
import { download } from '../figures/export.js';
import { CURVE_STYLE } from '../pipeline/schemes.js';
import { EVAL_EVERY, LENGTHS_EVERY, MULTIPLES, SIZES, dPosFor, isLanguageTask } from './config.js';
import { schemeName } from './figures.js';
import { repaintAll, scheduleRender } from './paint.js';
import { BOOK_PROMPT } from './session.js';

const SYMBOLS = 10;

/** Sends `message` to every run that trains (not to loaded weights files). */
export function toTrained(session, message) {
  for (const run of session.runs.values()) if (!run.loaded) run.worker.postMessage(message);
}

// The worker's first message: the task, the model, the run's settings and what to inspect.
function initMessage({ state, controls }, { config, weights, loaded }) {
  const task = state.task === 'book' ? { kind: 'book' } : state.task === 'text' ? { kind: 'text', text: state.text } : { kind: state.task, symbols: SYMBOLS };
  return {
    type: 'init',
    task,
    config,
    weights,
    train: { B: state.batch, T: state.length, seed: state.seed, lr: state.lr },
    budget: loaded ? 0 : state.steps,
    evalEvery: EVAL_EVERY,
    lengthsEvery: LENGTHS_EVERY,
    multiples: MULTIPLES,
    inspectText: controls.sentence.value,
    samplePrompt: isLanguageTask(state.task) ? (state.task === 'book' ? BOOK_PROMPT : state.text.slice(0, 8)) : '',
  };
}

/** A run under `key`: its worker started and told to build the model (or read `weights`). */
export function startRun(session, key, { scheme, name, config, weights, loaded = false, fileName = '' }) {
  const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
  const run = {
    key, scheme, name, worker, loaded, fileName, style: CURVE_STYLE[scheme] ?? CURVE_STYLE.nope,
    step: 0, losses: [], heldout: [], curves: null, positions: null, stepsPerSecond: NaN, phase: 'starting', inspect: null, sample: '',
    curvesByStep: new Map(),
  };
  session.runs.set(key, run);
  worker.onmessage = ({ data }) => receive(session, run, data);
  worker.onerror = (event) => { event.preventDefault(); fail(session, run, event.message || 'the worker stopped'); };
  worker.postMessage(initMessage(session, { config, weights, loaded }), weights ? [weights.buffer] : []);
  return run;
}

/** One run per chosen scheme, unless runs are already under way. */
export function ensureRuns(session) {
  const { state, runs } = session;
  if ([...runs.values()].some((r) => !r.loaded)) return;
  const { layers, d, heads } = SIZES[state.size];
  for (const scheme of state.schemes) {
    startRun(session, scheme, {
      scheme,
      name: schemeName(scheme),
      config: { scheme, d, layers, heads, context: state.length, seed: state.seed, ...(scheme === 'concatenated' ? { dPos: dPosFor(state) } : {}) },
    });
  }
}

// The numbers a worker reports, into its run (the figures repaint from them).
function record(session, run, data) {
  switch (data.type) {
    case 'ready': run.phase = 'ready'; run.parameterCount = data.parameterCount; run.config = data.config; break;
    case 'progress':
      for (let i = 0; i < data.losses.length; i++) run.losses[data.from + i] = data.losses[i];
      run.step = data.step;
      run.stepsPerSecond = data.stepsPerSecond;
      if (session.playing) run.phase = 'training';
      break;
    case 'heldout':
      run.heldout = run.heldout.filter((h) => h.step !== data.step).concat([{ step: data.step, loss: data.loss, accuracy: data.accuracy }]);
      break;
    case 'lengths':
      run.curves = data.curves;
      run.curvesByStep.set(data.step, data.curves);
      if (data.positions) Object.assign(run, { positions: data.positions, positionsStep: data.step, positionsMs: data.ms });
      session.dirty.lengths = true;
      break;
    default: return false;
  }
  return true;
}

function receive(session, run, data) {
  const { controls: c } = session;
  if (record(session, run, data)) { scheduleRender(session); return; }
  switch (data.type) {
    case 'inspect':
      if (data.error) c.inspectNote.textContent = `${run.name}: ${data.error}`;
      else { run.inspect = data; c.inspectNote.textContent = ''; }
      session.dirty.inspect = true;
      break;
    case 'sample': run.sample = data.text; session.dirty.inspect = true; break;
    case 'saved':
      download(new Blob([data.bytes], { type: 'application/octet-stream' }), `posenc-train-${run.scheme}-step${run.step}.safetensors`);
      break;
    case 'paused': run.phase = 'paused'; break;
    case 'done': run.phase = 'done'; stopWhenSettled(session); break;
    case 'diverged': run.phase = 'diverged'; run.diverged = data; stopWhenSettled(session); break;
    case 'error':
      if (data.fatal) fail(session, run, data.message);
      else c.summary.textContent = `${run.name}: ${data.message}`;
      break;
    default: break;
  }
  scheduleRender(session);
}

// Train turns back into Train when no trained run is still going (budget reached or diverged).
function stopWhenSettled(session) {
  if (![...session.runs.values()].some((r) => !r.loaded && r.phase !== 'done' && r.phase !== 'diverged')) setPlaying(session, false);
}

function fail(session, run, message) {
  run.worker.terminate();
  session.runs.delete(run.key);
  if (run.loaded) session.controls.weightsNote.textContent = `“${run.fileName}” was refused: ${message}. The other models are untouched.`;
  else session.controls.summary.textContent = `${run.name} could not start: ${message}`;
  repaintAll(session);
}

/** Every run stopped and forgotten. */
export function reset(session) {
  for (const run of session.runs.values()) run.worker.terminate();
  session.runs.clear();
  setPlaying(session, false);
  repaintAll(session);
}

export function setPlaying(session, on) {
  session.playing = on;
  session.controls.trainButton.textContent = on ? 'Pause' : 'Train';
  session.controls.stepButton.disabled = on;
}
