// A read-only replay of the Train section's default run for <posenc-lab panel="train">: the loss
// chart, the length-generalisation chart and the run sentence, drawn by the Train section's own
// figure code (web/train/figures.js, web/train/summary.js) from data/train-replay.json
// (scripts/train-replay.mjs). No model and no worker: the element's cores leave the training code out.
import replay from '../../data/train-replay.json';
import { BIN, isLanguageTask } from './config.js';
import { CURVE_STYLE } from '../pipeline/schemes.js';
import { createTrainFigures, schemeName } from './figures.js';
import { element } from '../figures/dom.js';
import { describeRun } from './summary.js';

/** A recorded run as panel.js's run objects (training losses per step: each bin's mean repeated). */
function asRun({ scheme, losses, heldout, curves }, steps) {
  const metricOf = (values) => values.map((loss) => ({ loss }));
  const recorded = Object.fromEntries(Object.entries(curves).map(([type, values]) => [type, metricOf(values)]));
  return {
    key: scheme, scheme, name: schemeName(scheme), style: CURVE_STYLE[scheme], loaded: false, step: steps, phase: 'done',
    losses: losses.flatMap((mean) => Array(BIN).fill(mean)),
    heldout: heldout.map(([step, loss]) => ({ step, loss })),
    curves: recorded,
    curvesByStep: new Map([[steps, recorded]]),
  };
}

/**
 * slot → { update(), figure, figures, state, note, summary, positionSlot } (static: the replay
 * does not follow the element's sentence or settings). figures, state, note, summary and
 * positionSlot let a live run (web/element/train-live.js) redraw the same charts over the replay.
 */
export function createTrainReplay(slot) {
  const { settings } = replay;
  const state = { ...settings, schemes: replay.runs.map((r) => r.scheme) };
  const runs = replay.runs.map((r) => asRun(r, settings.steps));
  const lossSlot = element('div');
  const lengthSlot = element('div');
  // Loss by position: the replay records none, so the chart waits, hidden, for a live run's.
  const positionSlot = element('div');
  positionSlot.hidden = true;
  const summary = element('p', { className: 'pl-note train-summary' });
  const note = element('p', { className: 'pl-note', text: `A replay of the lab page's Train section, default run: ${settings.layers}-layer, ` +
      `width-${settings.d}, ${settings.heads}-head character models on Moby-Dick, one per scheme, ${settings.steps} steps of ` +
      `${settings.batch} × ${settings.length} characters (seed ${settings.seed}, learning rate ${settings.lr}). ` +
      'Train your own on the page.' });
  slot.replaceChildren(note, summary, lossSlot, lengthSlot, positionSlot);
  const xAxis = element('select', {}, [new Option('step', 'step')]);
  const spare = () => element('div');
  const figures = createTrainFigures({
    status: spare(), samples: spare(), inspectNote: spare(), layer: element('select'), head: element('select'), sentence: element('input'),
    xAxis, lossSlot, lengthSlot, positionSlot, attentionSlot: spare(), stripSlot: spare(), positionsWhen: 'when training ends and on pause',
  });
  figures.loss(runs, state);
  figures.lengths(runs, state);
  summary.textContent = describeRun(figures.summaryInputs(runs, state), {
    metric: isLanguageTask(state.task) ? 'loss' : 'accuracy', dPos: settings.dPos, d: settings.d,
  });
  return { update() {}, figure: figures.charts.loss, figures, state, note, summary, positionSlot };
}
