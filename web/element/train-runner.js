// <posenc-lab panel="train">'s live trainer, a file of its own beside the element's script
// (posenc-train-live.mjs, scripts/bundle-element.mjs), fetched when the reader first presses
// Train live, as the model core and the book are: the element's first load leaves it out.
//
// Training runs on the main thread in slices of about SLICE_MS, one model after another, with a
// frame between slices: the element is one file and cannot count on a worker script beside it.
// Pause keeps the models; Train again resumes them. What the element's bundle already holds (the
// charts, the run's sentence, the curve styles) comes in `page`, so this file carries no second
// copy of them; the JS API's loadModels is here (the element's main bundle no longer needs the API).
import { loadModels } from '../posenc.mjs';
import { BIN, EVAL_EVERY, MULTIPLES } from '../train/config.js';
import { heldOutIds, heldoutAt, lengthCurves, positionLosses } from '../train/evaluate.js';

const SLICE_MS = 30;

/**
 * page: { replay (createTrainReplay's), button, status, fetchBook, schemeName,
 * curveStyle, describeRun }. → { play(), pause(), playing }.
 */
export function createTrainRunner(page) {
  const { replay, button, status } = page;
  const { state } = replay;
  let live = null;       // { task, heldIds, runs: [{ model, run }] } once started
  let playing = false;
  let loop = 0;
  const show = () => draw(live, page, playing);

  async function play() {
    playing = true;
    button.textContent = 'Pause';
    const mine = ++loop;
    try {
      live ??= await startLive(page);
    } catch (error) {
      playing = false;
      button.textContent = 'Train live';
      status.textContent = `Live training could not start: ${error.message}`;
      return;
    }
    while (playing && loop === mine && live.runs.some(({ run }) => run.step < state.steps)) {
      for (const entry of live.runs) trainSlice(live, entry, state);
      show();
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    if (loop !== mine || !playing) return;
    playing = false;
    for (const entry of live.runs) finish(live, entry, state);
    button.textContent = 'Train live';
    button.disabled = true;
    show();
  }

  function pause() {
    playing = false;
    button.textContent = 'Train live';
    if (!live) return;
    for (const entry of live.runs) evaluatePositions(live, entry, state);
    show();
  }

  return {
    play,
    pause,
    get playing() { return playing; },
  };
}

/** Loads the model core and the book → live: { task, heldIds, runs: one { model, run } per scheme }. */
async function startLive(page) {
  const { replay, status } = page;
  const { state } = replay;
  status.textContent = 'Loading the model core and the book…';
  const [models, book] = await Promise.all([loadModels(), page.fetchBook()]);
  const task = models.createTask({ kind: 'text', text: book });
  // Loss by position reads the held-out part of the book: the task's own split, as the page's workers.
  const heldIds = heldOutIds(task, new TextDecoder().decode(book), models.modelLimits.defaultHeldOutPercent);
  const runs = state.schemes.map((scheme) => {
    const model = models.createModel({
      scheme, vocab: task.vocabSize, d: state.d, layers: state.layers, heads: state.heads, context: state.length,
      seed: state.seed, ...(scheme === 'concatenated' ? { dPos: state.dPos } : {}),
    });
    const run = {
      key: scheme, scheme, name: page.schemeName(scheme), style: page.curveStyle[scheme], loaded: false, step: 0, phase: 'training',
      losses: [], heldout: [], curves: null, curvesByStep: new Map(), perStepMs: 20,
    };
    return { model, run };
  });
  replay.note.textContent = `Live: ${state.layers}-layer, width-${state.d}, ${state.heads}-head character models on ` +
    `Moby-Dick, one per scheme, trained in this page (${state.steps} steps of ${state.batch} × ${state.length} ` +
    `characters, seed ${state.seed}, learning rate ${state.lr}).`;
  return { task, heldIds, runs };
}

// A few steps of one model, up to the next held-out evaluation; about SLICE_MS of work.
function trainSlice(live, { model, run }, state) {
  if (run.step >= state.steps) return;
  const toEval = EVAL_EVERY - (run.step % EVAL_EVERY);
  const count = Math.max(1, Math.min(Math.round(SLICE_MS / run.perStepMs), toEval, state.steps - run.step));
  const t0 = performance.now();
  const losses = model.train(live.task, { steps: count, B: state.batch, T: state.length, seed: state.seed, lr: state.lr });
  run.perStepMs = 0.7 * run.perStepMs + 0.3 * ((performance.now() - t0) / count);
  for (let i = 0; i < losses.length; i++) run.losses[run.step + i] = losses[i];
  run.step = model.steps;
  if (run.step % EVAL_EVERY === 0) {
    const { loss, accuracy } = heldoutAt(model, live.task, state.length);
    run.heldout.push({ step: run.step, loss, accuracy });
  }
}

function finish(live, entry, state) {
  const { model, run } = entry;
  run.phase = 'done';
  run.curves = lengthCurves(model, live.task, state.length, MULTIPLES);
  run.curvesByStep.set(run.step, run.curves);
  evaluatePositions(live, entry, state);
}

// Held-out loss at each position of windows of the longest length (web/train/evaluate.js).
function evaluatePositions(live, { model, run }, state) {
  if (run.step === 0 || run.positionsStep === run.step) return;
  run.positions = positionLosses(model, live.heldIds, MULTIPLES.at(-1) * state.length);
  run.positionsStep = run.step;
}

function draw(live, page, playing) {
  const { replay, status } = page;
  const { figures, state } = replay;
  const runs = live.runs.map(({ run }) => run);
  figures.loss(runs, state);
  if (runs.every((run) => run.curves)) {
    figures.lengths(runs, state);
    replay.summary.textContent = page.describeRun(figures.summaryInputs(runs, state), { metric: 'loss', dPos: state.dPos, d: state.d });
  }
  if (runs.some((run) => run.positions)) {
    figures.positions(runs, state);
    replay.positionSlot.hidden = false;
  }
  const done = runs.every((run) => run.phase === 'done');
  status.textContent = runs.map((run) => {
    const recent = run.losses.slice(Math.max(0, run.step - BIN), run.step);
    const loss = recent.length ? ` · training loss ${(recent.reduce((a, b) => a + b, 0) / recent.length).toFixed(3)}` : '';
    return `${run.name}: step ${run.step}${loss}`;
  }).join('; ') + (done ? '. Done.' : playing ? '' : '. Paused.');
}
