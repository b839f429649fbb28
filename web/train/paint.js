// Painting the Train section from its session (web/train/session.js): each figure's render
// function is web/train/figures.js'; here is when they run (at most every PAINT_MS, only what
// changed), the weights' download buttons and the sentence comparing the runs.
import { element } from '../figures/dom.js';
import { seedComparison } from '../results/intervals.js';
import { SIZES, dPosFor, isLanguageTask } from './config.js';
import { describeRun } from './summary.js';

const SUMMARY_WAITING = 'A sentence comparing the models appears here once there is enough to compare.';
const PAINT_MS = 250;
const PAINT_MS_REDUCED = 1000;
export const reducedMotion = matchMedia('(prefers-reduced-motion: reduce)');

/** A paint soon (one per PAINT_MS, longer with reduced motion), in an animation frame. */
export function scheduleRender(session) {
  if (session.paintTimer) return;
  session.paintTimer = setTimeout(() => {
    session.paintTimer = 0;
    requestAnimationFrame(() => render(session));
  }, reducedMotion.matches ? PAINT_MS_REDUCED : PAINT_MS);
}

/** Every figure repainted now, whether its data changed or not. */
export function repaintAll(session) {
  session.dirty.lengths = true;
  session.dirty.inspect = true;
  render(session);
}

// Each paint is a `train-paint` user-timing measure (the latest one kept), which
// bench/train-frames.mjs observes and DevTools shows.
export function render(session) {
  const start = performance.now();
  paint(session);
  performance.clearMeasures('train-paint');
  performance.measure('train-paint', { start });
}

function paint(session) {
  const { root, figures, state, dirty } = session;
  root.dataset.motion = reducedMotion.matches ? 'reduced' : 'full';
  const list = [...session.runs.values()];
  // The status keeps a line per model from the start (train.css), so nothing below it moves when training starts.
  const lines = String(Math.max(state.schemes.length, list.length));
  if (root.style.getPropertyValue('--train-runs') !== lines) root.style.setProperty('--train-runs', lines);
  figures.status(list, state);
  figures.loss(list, state);
  if (dirty.lengths) {
    figures.lengths(list, state);
    figures.positions(list, state);
  }
  if (dirty.inspect) {
    figures.attention(list, state);
    figures.samples(list, state);
  }
  dirty.lengths = false;
  dirty.inspect = false;
  paintDownloads(session.controls.downloads, list);
  paintSummary(session, list);
}

// Until there is something to say the sentence's place says what will come (and holds its room).
function paintSummary({ figures, state, controls: { summary } }, list) {
  const trained = list.filter((r) => !r.loaded);
  const text = describeRun(figures.summaryInputs(trained, state), {
    metric: isLanguageTask(state.task) ? 'loss' : 'accuracy', dPos: dPosFor(state), d: SIZES[state.size].d,
    compare: seedComparison,
  });
  if (text) summary.textContent = text;
  else if (list.length || !summary.textContent) summary.textContent = SUMMARY_WAITING;
}

// One download button per trained run that has started, rebuilt only when that list changes.
function paintDownloads(downloads, list) {
  const trained = list.filter((r) => !r.loaded && r.phase !== 'starting');
  if (downloads.dataset.keys === trained.map((r) => r.key).join() && downloads.childElementCount) return;
  downloads.dataset.keys = trained.map((r) => r.key).join();
  if (!trained.length) {
    downloads.replaceChildren(element('p', { className: 'train-note', text: 'Each model\'s weights can be downloaded once it has started.' }));
    return;
  }
  downloads.replaceChildren(...trained.map((run) => {
    const button = element('button', { type: 'button', text: `Download ${run.name} weights` });
    button.addEventListener('click', () => run.worker.postMessage({ type: 'save' }));
    return button;
  }));
}
