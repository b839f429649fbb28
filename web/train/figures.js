// The Train section's figures and readouts, painted from the runs' numbers (web/train/runs.js
// holds the runs), one render function per figure: the status line, the loss chart, length generalisation, the loss by position (the
// results panel's chart, web/panels/position-chart.js), the learned attention with its per-token
// loss strip, the samples, and the run sentence's inputs.
import { ChartFigure } from '../figures/chart-figure.js';
import { HeatmapFigure } from '../figures/heatmap-figure.js';
import { formatValue } from '../figures/accessibility.js';
import { SCHEME_ROPE_SCALING } from '../options.mjs';
import { element } from '../figures/dom.js';
import { CURVE_STYLE, SCHEME_NAMES } from '../pipeline/schemes.js';
import { fitRange } from './axis.js';
import { BIN, EVAL_EVERY, LENGTHS_EVERY, MULTIPLES, POSITION_WINDOWS, isLanguageTask } from './config.js';
import { createPositionChart } from '../panels/position-chart.js';
import { binPositions } from '../results/positions.js';
// The rotary model's curves with each RoPE scaling, drawn in the style of the lane that scales ω
// the same way: type → [scheme, label].
const SCALING_LABELS = { pi: 'PI', ntk: 'NTK-aware', yarn: 'YaRN' };
const ROPE_CURVES = Object.fromEntries(Object.entries(SCHEME_ROPE_SCALING).map(([id, type]) => [type, [id, SCALING_LABELS[type]]]));

/** A trainable scheme's display name (the lanes' names; the trained table is "Learned table"). */
export const schemeName = (scheme) => (scheme === 'learned' ? 'Learned table' : SCHEME_NAMES[scheme]);

// f: the figures' state, made by createTrainFigures — { parts, positionsWhen, lossChart,
// lengthChart, positionChart, attentionFigure, stripFigure, mapFrames, stripFrames, lossRange,
// lengthRange (the charts' y ranges, kept between paints while the data stays inside: axis.js) }.
// Each render function below paints one figure from the runs (list) and the settings (state).

const lastHeldout = (run) => run.heldout.reduce((a, h) => (h.step >= (a?.step ?? -1) ? h : a), null);

// One run's status line: step, tokens, losses, speed and phase.
function statusText(run, state) {
  const held = lastHeldout(run);
  const train = meanOf(run.losses, Math.max(0, run.step - BIN), run.step);
  const parts = [`${run.name}: ${run.loaded ? 'loaded' : `step ${run.step}`}`];
  if (!run.loaded) parts.push(`tokens seen ${run.step * state.batch * state.length}`);
  if (Number.isFinite(train)) parts.push(`training loss ${formatValue(train)}`);
  if (held) parts.push(`held-out loss ${formatValue(held.loss)}${Number.isFinite(held.accuracy) ? `, accuracy ${formatValue(held.accuracy)}` : ''}`);
  if (Number.isFinite(run.stepsPerSecond) && !run.loaded) parts.push(`${run.stepsPerSecond.toFixed(1)} steps/s`);
  if (run.phase === 'starting') parts.push('starting…');
  if (run.phase === 'done') parts.push('budget reached');
  if (run.phase === 'diverged') {
    const { step, loss } = run.diverged;
    parts.push(`diverged at step ${step} (loss ${Number.isFinite(loss) ? formatValue(loss) : loss}${Number.isFinite(loss) ? ', a gradient not finite' : ''}): ` +
      `paused; that step was not applied, so the weights of step ${step - 1} are kept (Download saves them); press Reset to start again, with a lower learning rate`);
  }
  return parts.join(' · ');
}

function renderStatus(f, list, state) {
  const { status } = f.parts;
  if (!list.length) {
    status.textContent = 'Not trained yet: press Train (or Step).';
    return;
  }
  status.replaceChildren(...list.map((run) => element('span', { className: 'train-status-line', 'data-run': run.key, text: statusText(run, state) })));
}

// The trained runs' curves (means of BIN steps), longest first, then their held-out dots.
function trainedLossSeries(list, perStep) {
  const series = [];
  for (const run of list.filter((r) => !r.loaded)) {
    const bins = Math.floor(run.step / BIN);
    const x = Array.from({ length: bins }, (_, k) => (k + 1) * BIN * perStep);
    const y = x.map((_, k) => meanOf(run.losses, k * BIN, (k + 1) * BIN));
    series.push({ name: `${run.name} training`, colour: run.style.colour, dash: run.style.dash, kind: 'line', x, y });
  }
  series.sort((a, b) => b.x.length - a.x.length);
  for (const run of list.filter((r) => !r.loaded)) {
    const held = [...run.heldout].sort((a, b) => a.step - b.step);
    if (!held.length) continue;
    series.push({ name: `${run.name} held-out`, colour: run.style.colour, kind: 'points',
      x: held.map((h) => h.step * perStep), y: held.map((h) => h.loss) });
  }
  return series;
}

function renderLoss(f, list, state) {
  const perStep = f.parts.xAxis.value === 'tokens' ? state.batch * state.length : 1;
  const series = trainedLossSeries(list, perStep);
  // A loaded model has no curve: its held-out loss is a flat dotted line over the steps shown
  // (the trained runs' bins, so the readout and the CSV give it at every step; 0 … its own step
  // count when nothing trains).
  const loaded = list.filter((r) => r.loaded && lastHeldout(r));
  const span = series[0]?.x.length ? series[0].x : [0, Math.max(1, ...loaded.map((r) => lastHeldout(r).step)) * perStep];
  for (const run of loaded) {
    const { loss } = lastHeldout(run);
    series.push({ name: `${run.name} held-out`, colour: run.style.colour, dash: [2, 3], kind: 'line', x: span, y: span.map(() => loss) });
  }
  const xLabel = perStep === 1 ? 'step' : `tokens seen (${perStep} per step)`;
  f.lossRange = fitRange(series.flatMap((c) => c.y), f.lossRange, { floor: 0 }); // a loss is never negative
  const loadedText = loaded.length
    ? ` Loaded models have no training curve; their held-out loss is a flat dotted line: ${
      loaded.map((r) => `${r.name} ${formatValue(lastHeldout(r).loss)}`).join(', ')}.`
    : '';
  f.lossChart.update({
    series: series.length ? series : [{ name: '(not trained yet)', colour: CURVE_STYLE.nope.colour, kind: 'line', x: [0], y: [NaN] }],
    xLabel,
    yLabel: 'loss (nats per token)',
    yMin: f.lossRange?.min,
    yMax: f.lossRange?.max,
    label: `Loss during training against ${xLabel}: the training loss (lines, means of ${BIN} steps) and the held-out loss ` +
      `(dots, every ${EVAL_EVERY} steps) of ${list.filter((r) => !r.loaded).map((r) => r.name).join(', ') || 'no trained model yet'}` +
      `${axisText(f.lossRange)}.${loadedText} Focus the chart and use the left and right arrow keys to read the values at one step.`,
  });
}

// Each run's curve at the multiples of T (a loaded model dotted), and the rotary model's scalings.
function lengthSeries(list, metric) {
  const series = [];
  for (const run of list.filter((r) => r.curves)) {
    const add = (name, style, points) => {
      const y = points.map((p) => p[metric]);
      series.push({ name, colour: style.colour, dash: style.dash, kind: 'line', x: MULTIPLES, y });
    };
    // A loaded model is evaluated at multiples of its own context, drawn dotted like its loss line.
    add(run.name, run.loaded ? { ...run.style, dash: [2, 3] } : run.style, run.curves.none);
    for (const [type, [id, label]] of Object.entries(ROPE_CURVES)) {
      if (run.curves[type]) add(`${run.name} + ${label}`, CURVE_STYLE[id], run.curves[type]);
    }
  }
  return series;
}

function renderLengths(f, list, state) {
  const accuracy = !isLanguageTask(state.task);
  const series = lengthSeries(list, accuracy ? 'accuracy' : 'loss');
  // Both metrics fit their curves, like the loss chart (an accuracy within 0 … 1); before any
  // curve, an accuracy shows 0 … 1 and a loss the chart's default.
  f.lengthRange = fitRange(series.flatMap((c) => c.y), f.lengthRange, accuracy ? { floor: 0, ceiling: 1 } : { floor: 0 }) ??
    (accuracy ? { min: 0, max: 1 } : null);
  const span = f.lengthRange ? [f.lengthRange.min, f.lengthRange.max] : [0, 1];
  series.push({ name: `training length T = ${state.length}`, colour: CURVE_STYLE.bound.colour, dash: [1, 2], kind: 'line', x: [1, 1], y: span });
  const what = accuracy ? 'answer accuracy (fraction of answer tokens right)' : 'held-out loss (nats per token)';
  const loadedNames = list.filter((r) => r.loaded && r.curves).map((r) => r.name).join(', ');
  f.lengthChart.update({
    series,
    xLabel: 'evaluation length (× training length)',
    yLabel: accuracy ? 'answer accuracy' : 'held-out loss',
    yMin: span[0],
    yMax: span[1],
    label: `Length generalisation: ${what} at 1, 2, 3, 4, 6 and 8 times the training length T = ${state.length}, ` +
      `per model${list.some((r) => r.curves?.pi) ? ', the rotary model also with PI, NTK-aware and YaRN scaling' : ''}` +
      `${loadedNames ? `; loaded models (dotted) at multiples of their own context: ${loadedNames}` : ''}${axisText(f.lengthRange)}; ` +
      'the dotted vertical line marks the training length; a learned table has no values past it. Use the arrow keys to read each length.',
  });
}

// Each run's latest positions (run.positions: Float64Array(8T) from its worker, at run.positionsStep),
// those of loaded models dotted; only runs evaluated at this section's T share the x axis.
function renderPositions(f, list, state) {
  const T = state.length;
  const span = MULTIPLES.at(-1) * T;
  const shown = list.filter((r) => r.positions?.length === span);
  const lines = shown.map((r) => ({ scheme: r.scheme, name: r.name, dash: r.loaded ? [2, 3] : undefined, ...binPositions([r.positions]) }));
  const steps = [...new Set(shown.filter((r) => !r.loaded).map((r) => r.positionsStep))];
  // (Not the word "task": the section's controls are found by that label.)
  const note = !isLanguageTask(state.task) ? '; drawn only when the models learn a text (the book or your own)'
    : `${steps.length ? `, at step ${steps.join(', ')}` : ''}; ${POSITION_WINDOWS} windows of the held-out text, evaluated ${f.positionsWhen}`;
  f.positionChart.update(lines, { T, unit: 'character', over: `${POSITION_WINDOWS} held-out windows`, note });
}

// The runs' maps of layer l, head h, and their per-token loss strips, over the longest pieces.
function paintMaps(f, shown, l, h) {
  const pieces = shown.reduce((a, r) => (r.inspect.pieces.length > a.length ? r.inspect.pieces : a), []);
  const show = (i) => `${i} “${pieces[i] === '\n' ? '↵' : pieces[i]}”`;
  const words = pieces.map(String);
  f.attentionFigure.update({
    tiles: shown.filter((r) => l < r.inspect.layers && h < r.inspect.heads).map((r) => ({
      title: r.name, values: r.inspect.attention, rows: r.inspect.n, cols: r.inspect.n, offset: (l * r.inspect.heads + h) * r.inspect.n ** 2,
    })),
    min: 0,
    max: 1,
    label: `Learned attention of layer ${l + 1}, head ${h + 1} on “${f.parts.sentence.value.slice(0, 60)}”, rows are queries, columns keys`,
    legendTitle: 'attention weight',
    rowWords: words,
    colWords: words,
    rowLabel: (i) => `query ${show(i)}`,
    colLabel: (j) => `key ${show(j)}`,
  });
  let maxLoss = 0;
  for (const r of shown) for (const v of r.inspect.losses) maxLoss = Math.max(maxLoss, v);
  f.stripFigure.update({
    tiles: shown.map((r) => ({ title: r.name, values: r.inspect.losses, rows: 1, cols: r.inspect.n - 1 })),
    min: 0,
    max: maxLoss || 1,
    label: 'Per-token loss: the loss of predicting each token of the sentence from the ones before it',
    legendTitle: 'loss (nats)',
    colWords: words.slice(1),
    rowLabel: () => 'loss',
    colLabel: (j) => `predicting ${show(j + 1)}`,
  });
}

function renderAttention(f, list, state) {
  const { layer, head, inspectNote } = f.parts;
  const shown = list.filter((r) => r.inspect);
  fillSelect(layer, Math.max(1, ...shown.map((r) => r.inspect.layers)));
  fillSelect(head, Math.max(1, ...shown.map((r) => r.inspect.heads)));
  if (shown.length) {
    paintMaps(f, shown, Number(layer.value), Number(head.value));
    return;
  }
  inspectNote.textContent ||= 'The maps appear after 100 steps or on pause.';
  const names = list.length ? list.map((r) => r.name) : state.schemes.map(schemeName);
  f.mapFrames(names);
  f.stripFrames(names);
}

function renderSamples(f, list, state) {
  const { samples } = f.parts;
  samples.replaceChildren(...list.filter((r) => r.sample).map((r) =>
    element('p', { className: 'train-sample' }, [element('strong', { text: `${r.name}: ` }), element('span', { text: r.sample })])));
  if (!isLanguageTask(state.task)) samples.textContent = 'Samples are shown for the language-model tasks.';
  else if (!list.some((r) => r.sample)) samples.textContent = 'A sample from each model appears after 100 steps or on pause.';
}

// The sentence compares the models where all have numbers: up to the step the slowest reached,
// at the latest held-out evaluation after step 0 they all made (a pause evaluates each model at
// its own step), and at the latest length evaluation they all made.
const commonStep = (list) => Math.min(...list.map((r) => r.step));
const commonHeldStep = (list) => Math.max(-1, ...(list[0]?.heldout ?? []).map((h) => h.step)
  .filter((step) => step > 0 && list.every((r) => r.heldout.some((h) => h.step === step))));
const commonLengthStep = (list) => Math.max(-1, ...[...(list[0]?.curvesByStep.keys() ?? [])]
  .filter((step) => list.every((r) => r.curvesByStep.has(step))));

function summaryInput(run, state, upTo, heldStep, lengthStep) {
  const bins = Math.floor(upTo / BIN);
  const steps = Array.from({ length: bins }, (_, k) => (k + 1) * BIN);
  const metric = isLanguageTask(state.task) ? 'loss' : 'accuracy';
  const held = run.heldout.find((h) => h.step === heldStep);
  const curves = run.curvesByStep.get(lengthStep);
  return {
    scheme: run.scheme,
    name: run.name,
    steps,
    losses: steps.map((_, k) => meanOf(run.losses, k * BIN, (k + 1) * BIN)),
    heldout: held?.loss ?? NaN,
    lengths: curves ? MULTIPLES.map((multiple, i) => ({ multiple, value: curves.none[i][metric] })) : [],
  };
}

// The run sentence's inputs (web/train/summary.js) for the trained (not loaded) runs.
function summaryInputs(f, list, state) {
  return list.map((r) => summaryInput(r, state, commonStep(list), commonHeldStep(list), commonLengthStep(list)));
}

/**
 * parts: { status, samples, inspectNote, layer, head, sentence, xAxis, lossSlot, lengthSlot,
 * positionSlot, attentionSlot, stripSlot, positionsWhen? (when the positions are evaluated, for
 * the chart's note: the Train section's workers by default) }. → { status, loss, lengths,
 * positions, attention, samples, summaryInputs }, each taking (runs, state).
 */
export function createTrainFigures(parts) {
  const f = {
    parts,
    positionsWhen: parts.positionsWhen ?? `every ${LENGTHS_EVERY} steps and on pause`,
    lossChart: new ChartFigure(parts.lossSlot, { title: 'Loss during training', height: CHART_HEIGHT }),
    lengthChart: new ChartFigure(parts.lengthSlot, { title: 'Length generalisation', height: CHART_HEIGHT }),
    positionChart: createPositionChart(parts.positionSlot, { title: 'Held-out loss by position', height: CHART_HEIGHT }),
    attentionFigure: new HeatmapFigure(parts.attentionSlot, { title: 'Learned attention' }),
    stripFigure: new HeatmapFigure(parts.stripSlot, { title: 'Per-token loss' }),
    // Until the first maps arrive, one empty frame per model holds their place (train.css hides the
    // frames once the figure has tiles), so the section does not grow when they come.
    mapFrames: placeholders(parts.attentionSlot, 1, ['rows', 'cols']),
    stripFrames: placeholders(parts.stripSlot, STRIP_RATIO, ['cols']),
    lossRange: null,
    lengthRange: null,
  };
  const using = (render) => (list, state) => render(f, list, state);
  return {
    charts: { loss: f.lossChart, lengths: f.lengthChart, positions: f.positionChart.chart },
    status: using(renderStatus),
    loss: using(renderLoss),
    lengths: using(renderLengths),
    positions: using(renderPositions),
    attention: using(renderAttention),
    samples: using(renderSamples),
    summaryInputs: using(summaryInputs),
  };
}

const CHART_HEIGHT = 280;
// A loss strip's tiles are 1 × (n − 1) cells, drawn at HeatmapFigure's widest ratio (3) for n ≥ 4.
const STRIP_RATIO = 3;

const axisText = (range) => (range ? `; the y axis runs from ${formatValue(range.min)} to ${formatValue(range.max)}` : '');

/**
 * Empty frames the size of a heatmap's tiles, just before the tiles of the figure in `slot` (inside
 * the figure, so that it counts as in view, and paints, as soon as the frames are), hidden from
 * assistive technology (the note says what will come). Each is built like a tile (heatmap-figure.js):
 * a title line, then a map grid with the word gutters the tiles will have (rows and/or cols) around
 * a frame of width ∶ height = ratio; the box carries the tiles' data-count, which sets the gutters.
 * → show(names): one frame per name.
 */
function placeholders(slot, ratio, gutters) {
  const box = element('div', { class: 'fig-tiles train-placeholders', 'aria-hidden': 'true' });
  slot.querySelector('.fig-tiles').before(box);
  return (names) => {
    if (box.dataset.names === names.join()) return;
    box.dataset.names = names.join();
    box.dataset.count = String(names.length);
    box.replaceChildren(...names.map((name) => {
      const frame = element('div', { class: 'map-frame train-placeholder' });
      frame.style.aspectRatio = String(ratio);
      const grid = element('div', { class: `map-grid ${gutters.map((g) => `has-${g}`).join(' ')}` }, [frame]);
      return element('div', { class: 'fig-tile' }, [element('span', { class: 'tile-title', text: name }), grid]);
    }));
  };
}

function fillSelect(select, count) {
  if (select.options.length === count) return;
  const value = Math.min(Number(select.value) || 0, count - 1);
  select.replaceChildren(...Array.from({ length: count }, (_, i) => new Option(String(i + 1), String(i))));
  select.value = String(value);
}

function meanOf(values, from, to) {
  let sum = 0;
  let count = 0;
  for (let i = from; i < to; i++) {
    if (values[i] !== undefined) { sum += values[i]; count++; }
  }
  return count ? sum / count : NaN;
}
