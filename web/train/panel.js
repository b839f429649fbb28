// The Train section: tiny Transformers identical but for their positional scheme, trained live in
// one worker each (web/train/worker.js), with the loss chart, the length-generalisation chart, the
// learned attention with its per-token loss, samples, weights download/load and a sentence
// computed from the run. Settings live in the URL hash (web/train/config.js).
import { SYNTHETIC_KIND } from '../scheme-table.mjs';
import { download } from '../figures/export.js';
import { CURVE_STYLE } from '../pipeline/schemes.js';
import {
  BIN, EVAL_EVERY, LENGTHS_EVERY, LIMITS, MAX_TRAIN_SCHEMES, MULTIPLES, POSITION_WINDOWS, SIZES, TASKS, TRAIN_SCHEMES, dPosFor, isLanguageTask,
  nextShare, readTrainHash, sizeText, trainingShare, writeTrainHash,
} from './config.js';
import { createTrainFigures, schemeName } from './figures.js';
import { POSITION_BIN } from '../pipeline/positions.js';
import { element } from '../figures/dom.js';
import { describeRun } from './summary.js';
import { seedComparison } from '../pipeline/intervals.js';

const SYMBOLS = 10;
const BOOK_SENTENCE = 'Call me Ishmael. Some years ago—never mind how long precisely—having little money';
const BOOK_PROMPT = 'Call me ';
const SUMMARY_WAITING = 'A sentence comparing the models appears here once there is enough to compare.';
const PAINT_MS = 250;
const PAINT_MS_REDUCED = 1000;
const VSYNC_MS = 1000 / 60;
const reducedMotion = matchMedia('(prefers-reduced-motion: reduce)');

function labelled(text, control, hint) {
  return element('label', { className: 'train-field' }, [element('span', { text }), control, ...(hint ? [hint] : [])]);
}

// x_1 … x_n SEP y_1 … y_n for n = ⌊T/2⌋ items taken from π's digits: the attention view's
// sentence for copy, reverse and sort.
function syntheticSentence(task, T) {
  const digits = '31415926535897932384626433832795028841971693993751058209749445923078164062862089986280348253421170679';
  const items = Array.from(digits.slice(0, Math.floor(T / 2)));
  const answer = task === SYNTHETIC_KIND.copy ? items : task === SYNTHETIC_KIND.reverse ? [...items].reverse() : [...items].sort((a, b) => a - b);
  return [...items, '<sep>', ...answer].join(' ');
}

export function mountTrain(root) {
  let state = readTrainHash(location.hash);
  const runs = new Map(); // key → run (one per worker)
  let playing = false;
  let loadedCount = 0;
  let paintTimer = 0;
  // Figures repaint only when their data changed since the last paint (the loss chart and status
  // change with every chunk; lengths, attention and samples every LENGTHS_EVERY steps).
  const dirty = { lengths: true, inspect: true };

  // ---- Controls ----
  const task = element('select', { id: 'train-task' }, Object.entries(TASKS).map(([value, text]) => new Option(text, value)));
  const text = element('textarea', { id: 'train-text', rows: 4, placeholder: 'Paste a text (at least a few hundred characters).' });
  const textField = labelled('Your text', text);
  const schemeBoxes = TRAIN_SCHEMES.map((scheme) => {
    const box = element('input', { type: 'checkbox', value: scheme });
    return element('label', { className: 'train-check' }, [box, ` ${schemeName(scheme)}`]);
  });
  const schemes = element('fieldset', { className: 'train-schemes' }, [element('legend', { text: `Schemes (up to ${MAX_TRAIN_SCHEMES})` }), ...schemeBoxes]);
  const size = element('select', { id: 'train-size' }, Object.keys(SIZES).map((s) => new Option(`${s} (${sizeText(s)})`, s)));
  const number = (id, min, max, step) => element('input', { id, type: 'number', min, max, step, inputMode: 'decimal' });
  const dPos = number('train-dpos', 2, 254, 2);
  const length = number('train-length', ...LIMITS.length, 1);
  const batch = number('train-batch', ...LIMITS.batch, 1);
  const lr = number('train-lr', ...LIMITS.lr, 'any');
  const seed = number('train-seed', ...LIMITS.seed, 1);
  const steps = number('train-steps', ...LIMITS.steps, 1);
  const trainButton = element('button', { type: 'button', className: 'train-go', text: 'Train' });
  const stepButton = element('button', { type: 'button', text: 'Step' });
  const resetButton = element('button', { type: 'button', text: 'Reset' });
  const status = element('div', { role: 'status', className: 'train-status', 'aria-live': 'polite' });
  const xAxis = element('select', { id: 'train-x' }, [new Option('step', 'step'), new Option('tokens seen', 'tokens')]);

  const lossSlot = element('div');
  const lengthSlot = element('div');
  const positionSlot = element('div');
  const attentionSlot = element('div');
  const stripSlot = element('div');
  const sentence = element('input', { id: 'train-sentence', type: 'text', spellcheck: false });
  const layer = element('select', { id: 'train-layer' });
  const head = element('select', { id: 'train-head' });
  const inspectNote = element('p', { className: 'train-note' });
  const samples = element('div', { className: 'train-samples' });
  const downloads = element('div', { className: 'train-downloads' });
  const picker = element('input', { type: 'file', id: 'train-load', accept: '.safetensors,application/octet-stream', 'aria-label': 'Choose a .safetensors weights file' });
  const drop = element('div', { className: 'train-drop', text: 'Drop a .safetensors weights file here, or choose one: ' }, [picker]);
  const weightsNote = element('p', { className: 'train-note', role: 'alert' });
  const summary = element('p', { className: 'train-summary' });

  // From 1200 px the section spans the page (train.css): the settings in one bar, the buttons with
  // each model's status, the two charts side by side, one attention map per model side by side,
  // then samples and weights.
  const group = (className, children) => element('div', { className: `train-group ${className}` }, children);
  const chartHead = (title, control) => element('div', { className: 'train-chart-head' }, [element('h3', { text: title }), ...(control ? [control] : [])]);
  root.replaceChildren(
    element('p', { className: 'caption train-intro', text: 'The same tiny decoder-only Transformer, trained from the same seed on the same batches, once per ' +
      'positional scheme, each in its own worker. Press Train, watch the losses separate, then see how each model does on ' +
      'sequences longer than it was trained on. Change the learning rate while it runs; every setting is in the link.' }),
    element('div', { className: 'train-bar', role: 'group', 'aria-label': 'Training settings' }, [
      group('train-group-task', [labelled('Task', task)]),
      schemes,
      group('train-group-model', [labelled('Model size', size), labelled('dPos (concatenated)', dPos, element('small', { className: 'train-hint' }))]),
      group('train-group-run', [labelled('Training length T', length), labelled('Batch', batch), labelled('Learning rate', lr),
        labelled('Seed', seed), labelled('Step budget', steps)]),
      textField,
    ]),
    element('div', { className: 'train-run' }, [element('div', { className: 'train-buttons' }, [trainButton, stepButton, resetButton]), status]),
    element('div', { className: 'train-charts' }, [
      element('div', { className: 'train-chart' }, [
        chartHead('Loss', labelled('x axis', xAxis)),
        element('p', { className: 'caption', text: `Each model's training loss (lines, means of ${BIN} steps) and held-out loss (dots, every ` +
          `${EVAL_EVERY} steps) in nats per token: lower is better. The y axis fits the curves.` }),
        lossSlot,
      ]),
      element('div', { className: 'train-chart' }, [
        chartHead('Past the training length'),
        element('p', { className: 'caption', text: 'Each model evaluated at 1× to 8× its training length T (held-out text for the language model, ' +
          'fresh examples for copy, reverse and sort); the rotary model also with position interpolation, NTK-aware and YaRN scaling ' +
          `(factor = length / T). Updated every ${LENGTHS_EVERY} steps and on pause.` }),
        lengthSlot,
      ]),
      // Folded, so the page's default height holds (at most 6 screens at 1280 × 800);
      // its chart paints when opened.
      element('details', { className: 'train-positions' }, [
        element('summary', {}, [element('h3', { text: 'Loss by position' })]),
        element('p', { className: 'caption', text: `Each model's held-out loss at each position of a window ${MULTIPLES.at(-1)} times ` +
          `its training length T, averaged over ${POSITION_WINDOWS} windows of the held-out text and ${POSITION_BIN} neighbouring ` +
          'positions: left of T the positions it trained on, right of it the ones it never saw. Language-model tasks; ' +
          `updated every ${LENGTHS_EVERY} steps and on pause.` }),
        positionSlot,
      ]),
    ]),
    summary,
    element('div', { className: 'train-inspect' }, [
      element('h3', { text: 'Learned attention' }),
      element('p', { className: 'caption', text: 'Where each model looks in the chosen layer and head: row i is token i of the sentence, ' +
        'spreading its attention (brighter = more) over itself and the tokens before it.' }),
      element('div', { className: 'train-row' }, [labelled('Sentence to inspect', sentence), labelled('Layer', layer), labelled('Head', head)]),
      inspectNote,
      attentionSlot,
      element('p', { className: 'caption train-strip-caption', text: 'Per-token loss: each model\'s loss predicting each token of the ' +
        'sentence from the ones before it (brighter = more surprised).' }),
      stripSlot,
    ]),
    element('div', { className: 'train-outputs' }, [
      element('div', { className: 'train-output' }, [element('h3', { text: 'Samples' }), samples]),
      element('div', { className: 'train-output' }, [element('h3', { text: 'Weights' }), downloads, drop, weightsNote]),
    ]),
  );
  const dPosHint = dPos.parentElement.querySelector('.train-hint');
  const figures = createTrainFigures({
    status, samples, inspectNote, layer, head, sentence, xAxis, lossSlot, lengthSlot, positionSlot, attentionSlot, stripSlot,
  });

  // ---- State ⇄ controls ⇄ URL ----
  function writeControls() {
    task.value = state.task;
    text.value = state.text;
    textField.hidden = state.task !== 'text';
    for (const label of schemeBoxes) label.firstChild.checked = state.schemes.includes(label.firstChild.value);
    size.value = state.size;
    dPos.value = dPosFor(state);
    dPosHint.textContent = ` word columns ${SIZES[state.size].d - dPosFor(state)} + position ${dPosFor(state)} = width ${SIZES[state.size].d}`;
    length.value = state.length;
    batch.value = state.batch;
    lr.value = state.lr;
    seed.value = state.seed;
    steps.value = state.steps;
    if (!sentence.value || sentence.dataset.auto === '1') {
      sentence.value = defaultSentence();
      sentence.dataset.auto = '1';
    }
  }
  const defaultSentence = () => (state.task === 'book' ? BOOK_SENTENCE : state.task === 'text' ? state.text.slice(0, 64)
    : syntheticSentence(state.task, state.length));

  function writeUrl() {
    history.replaceState(null, '', writeTrainHash(state, location.hash) || location.pathname + location.search);
  }

  // A change to anything but the learning rate or the budget starts the models afresh.
  function change(update, { restart = true } = {}) {
    state = { ...state, ...update };
    if (restart) { sentence.dataset.auto = '1'; reset(); }
    writeControls();
    writeUrl();
    for (const run of runs.values()) run.worker.postMessage({ type: 'set', lr: state.lr, budget: state.steps });
    repaintAll();
  }
  const valid = (input, [min, max], integer = true) => {
    const v = Number(input.value);
    const ok = input.value !== '' && v >= min && v <= max && (!integer || Number.isInteger(v));
    input.setAttribute('aria-invalid', String(!ok));
    return ok ? v : undefined;
  };
  task.addEventListener('change', () => change({ task: task.value }));
  let textTimer = 0;
  text.addEventListener('input', () => {
    clearTimeout(textTimer);
    textTimer = setTimeout(() => change({ text: text.value }), 600);
  });
  for (const label of schemeBoxes) {
    label.firstChild.addEventListener('change', () => {
      const chosen = TRAIN_SCHEMES.filter((s) => schemeBoxes.find((l) => l.firstChild.value === s).firstChild.checked);
      if (chosen.length === 0 || chosen.length > MAX_TRAIN_SCHEMES) {
        label.firstChild.checked = !label.firstChild.checked;
        summary.textContent = chosen.length ? `At most ${MAX_TRAIN_SCHEMES} schemes train at once.` : 'Choose at least one scheme.';
        return;
      }
      change({ schemes: chosen });
    });
  }
  size.addEventListener('change', () => change({ size: size.value, dPos: 0 }));
  dPos.addEventListener('change', () => {
    const v = valid(dPos, [2, SIZES[state.size].d - 2]);
    if (v !== undefined && v % 2 === 0) change({ dPos: v === SIZES[state.size].d / 4 ? 0 : v });
  });
  const numeric = (input, key, limits, options) => input.addEventListener('change', () => {
    const v = valid(input, limits, key !== 'lr');
    if (v !== undefined) change({ [key]: v }, options);
  });
  numeric(length, 'length', LIMITS.length);
  numeric(batch, 'batch', LIMITS.batch);
  numeric(lr, 'lr', LIMITS.lr, { restart: false });
  numeric(seed, 'seed', LIMITS.seed);
  numeric(steps, 'steps', LIMITS.steps, { restart: false });
  xAxis.addEventListener('change', render);
  addEventListener('hashchange', () => {
    const next = readTrainHash(location.hash);
    if (writeTrainHash(next, '') !== writeTrainHash(state, '')) {
      state = next;
      sentence.dataset.auto = '1';
      reset();
      writeControls();
    }
  });

  // ---- Workers ----
  function startRun(key, { scheme, name, config, weights, loaded = false, fileName = '' }) {
    const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
    const run = {
      key, scheme, name, worker, loaded, fileName, style: CURVE_STYLE[scheme] ?? CURVE_STYLE.nope,
      step: 0, losses: [], heldout: [], curves: null, positions: null, stepsPerSecond: NaN, phase: 'starting', inspect: null, sample: '',
      curvesByStep: new Map(),
    };
    runs.set(key, run);
    worker.onmessage = ({ data }) => receive(run, data);
    worker.onerror = (event) => { event.preventDefault(); fail(run, event.message || 'the worker stopped'); };
    const language = isLanguageTask(state.task);
    worker.postMessage({
      type: 'init',
      task: state.task === 'book' ? { kind: 'book' } : state.task === 'text' ? { kind: 'text', text: state.text } : { kind: state.task, symbols: SYMBOLS },
      config,
      weights,
      train: { B: state.batch, T: state.length, seed: state.seed, lr: state.lr },
      budget: loaded ? 0 : state.steps,
      evalEvery: EVAL_EVERY,
      lengthsEvery: LENGTHS_EVERY,
      multiples: MULTIPLES,
      inspectText: sentence.value,
      samplePrompt: language ? (state.task === 'book' ? BOOK_PROMPT : state.text.slice(0, 8)) : '',
    }, weights ? [weights.buffer] : []);
    return run;
  }

  function ensureRuns() {
    if ([...runs.values()].some((r) => !r.loaded)) return;
    const { layers, d, heads } = SIZES[state.size];
    for (const scheme of state.schemes) {
      startRun(scheme, {
        scheme,
        name: schemeName(scheme),
        config: { scheme, d, layers, heads, context: state.length, seed: state.seed, ...(scheme === 'concatenated' ? { dPos: dPosFor(state) } : {}) },
      });
    }
  }

  function receive(run, data) {
    switch (data.type) {
      case 'ready': run.phase = 'ready'; run.parameterCount = data.parameterCount; run.config = data.config; break;
      case 'progress':
        for (let i = 0; i < data.losses.length; i++) run.losses[data.from + i] = data.losses[i];
        run.step = data.step;
        run.stepsPerSecond = data.stepsPerSecond;
        if (playing) run.phase = 'training';
        break;
      case 'heldout':
        run.heldout = run.heldout.filter((h) => h.step !== data.step).concat([{ step: data.step, loss: data.loss, accuracy: data.accuracy }]);
        break;
      case 'lengths':
        run.curves = data.curves;
        run.curvesByStep.set(data.step, data.curves);
        if (data.positions) Object.assign(run, { positions: data.positions, positionsStep: data.step, positionsMs: data.ms });
        dirty.lengths = true;
        break;
      case 'inspect':
        if (data.error) inspectNote.textContent = `${run.name}: ${data.error}`;
        else { run.inspect = data; inspectNote.textContent = ''; }
        dirty.inspect = true;
        break;
      case 'sample': run.sample = data.text; dirty.inspect = true; break;
      case 'saved':
        download(new Blob([data.bytes], { type: 'application/octet-stream' }), `posenc-train-${run.scheme}-step${run.step}.safetensors`);
        break;
      case 'paused': run.phase = 'paused'; break;
      case 'done': run.phase = 'done'; stopWhenSettled(); break;
      case 'diverged': run.phase = 'diverged'; run.diverged = data; stopWhenSettled(); break;
      case 'error':
        if (data.fatal) fail(run, data.message);
        else summary.textContent = `${run.name}: ${data.message}`;
        break;
      default: break;
    }
    scheduleRender();
  }

  // Train turns back into Train when no trained run is still going (budget reached or diverged).
  function stopWhenSettled() {
    if (![...runs.values()].some((r) => !r.loaded && r.phase !== 'done' && r.phase !== 'diverged')) setPlaying(false);
  }

  function fail(run, message) {
    run.worker.terminate();
    runs.delete(run.key);
    if (run.loaded) weightsNote.textContent = `“${run.fileName}” was refused: ${message}. The other models are untouched.`;
    else summary.textContent = `${run.name} could not start: ${message}`;
    repaintAll();
  }

  function reset() {
    for (const run of runs.values()) run.worker.terminate();
    runs.clear();
    setPlaying(false);
    repaintAll();
  }

  function setPlaying(on) {
    playing = on;
    trainButton.textContent = on ? 'Pause' : 'Train';
    stepButton.disabled = on;
  }

  trainButton.addEventListener('click', () => {
    if (playing) {
      setPlaying(false);
      for (const run of runs.values()) if (!run.loaded) run.worker.postMessage({ type: 'pause' });
      return;
    }
    ensureRuns();
    setPlaying(true);
    const trained = [...runs.values()].filter((run) => !run.loaded);
    share = trainingShare(navigator.hardwareConcurrency, trained.length);
    for (const run of trained) run.worker.postMessage({ type: 'run', share });
    watchFrames();
  });
  stepButton.addEventListener('click', () => {
    ensureRuns();
    for (const run of runs.values()) if (!run.loaded) run.worker.postMessage({ type: 'step' });
  });
  resetButton.addEventListener('click', reset);

  // While training, the frames of each second set the workers' share of the CPU for the next
  // (config.js: nextShare): the page keeps its 60 fps, the workers take what is left.
  let share = 1;
  let watching = false;
  function watchFrames() {
    if (watching) return;
    watching = true;
    let last = 0, frames = 0, missed = 0, since = performance.now();
    const tick = (now) => {
      if (!playing) { watching = false; return; }
      if (last && !document.hidden) {
        frames++;
        if (now - last > 1.5 * VSYNC_MS) missed++;
      }
      last = now;
      if (now - since >= 1000 && frames) {
        const next = nextShare(share, missed / frames);
        if (next !== share) {
          share = next;
          for (const run of runs.values()) if (!run.loaded) run.worker.postMessage({ type: 'share', share });
        }
        frames = missed = 0;
        since = now;
      }
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  }

  // ---- Inspection, weights ----
  const refreshInspection = () => {
    sentence.dataset.auto = sentence.value === defaultSentence() ? '1' : '0';
    for (const run of runs.values()) run.worker.postMessage({ type: 'inspect', text: sentence.value });
  };
  sentence.addEventListener('change', refreshInspection);
  const repaintAll = () => { dirty.lengths = true; dirty.inspect = true; render(); };
  layer.addEventListener('change', repaintAll);
  head.addEventListener('change', repaintAll);

  async function loadFile(file) {
    if (!file) return;
    weightsNote.textContent = '';
    const bytes = new Uint8Array(await file.arrayBuffer());
    loadedCount += 1;
    const scheme = schemeInFile(bytes);
    startRun(`loaded-${loadedCount}`, { scheme, name: `${schemeName(scheme) ?? 'Model'} (loaded ${file.name})`, weights: bytes, loaded: true, fileName: file.name });
    repaintAll();
  }
  picker.addEventListener('change', () => { loadFile(picker.files[0]); picker.value = ''; });
  drop.addEventListener('dragover', (event) => { event.preventDefault(); drop.classList.add('is-over'); });
  drop.addEventListener('dragleave', () => drop.classList.remove('is-over'));
  drop.addEventListener('drop', (event) => {
    event.preventDefault();
    drop.classList.remove('is-over');
    loadFile(event.dataTransfer.files[0]);
  });

  // ---- Painting ----
  function scheduleRender() {
    if (paintTimer) return;
    paintTimer = setTimeout(() => {
      paintTimer = 0;
      requestAnimationFrame(render);
    }, reducedMotion.matches ? PAINT_MS_REDUCED : PAINT_MS);
  }

  // Each paint is a `train-paint` user-timing measure (the latest one kept), which
  // bench/train-frames.mjs observes and DevTools shows.
  function render() {
    const start = performance.now();
    paint();
    performance.clearMeasures('train-paint');
    performance.measure('train-paint', { start });
  }

  function paint() {
    root.dataset.motion = reducedMotion.matches ? 'reduced' : 'full';
    const list = [...runs.values()];
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
    renderDownloads(list);
    const trained = list.filter((r) => !r.loaded);
    const text = describeRun(figures.summaryInputs(trained, state), {
      metric: isLanguageTask(state.task) ? 'loss' : 'accuracy', dPos: dPosFor(state), d: SIZES[state.size].d,
      compare: seedComparison,
    });
    // Until there is something to say the sentence's place says what will come (and holds its room).
    if (text) summary.textContent = text;
    else if (list.length || !summary.textContent) summary.textContent = SUMMARY_WAITING;
  }

  function renderDownloads(list) {
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

  // The first screen's link scrolls here without touching the hash (the lanes read it).
  for (const link of document.querySelectorAll('a[href="#train"]')) {
    link.addEventListener('click', (event) => {
      event.preventDefault();
      const heading = document.getElementById('train-heading');
      heading.setAttribute('tabindex', '-1');
      heading.scrollIntoView({ behavior: reducedMotion.matches ? 'auto' : 'smooth' });
      heading.focus({ preventScroll: true });
    });
  }
  reducedMotion.addEventListener('change', repaintAll);
  writeControls();
  repaintAll();
}

/** The scheme named in a weights file's config (for its colour and name), or 'nope' when unreadable. */
function schemeInFile(bytes) {
  const match = /\\?"scheme\\?"\s*:\s*\\?"([a-z0-9]+)/.exec(new TextDecoder().decode(bytes.subarray(0, Math.min(bytes.length, 65536))));
  return match && TRAIN_SCHEMES.includes(match[1]) ? match[1] : 'nope';
}

const root = document.getElementById('train-root');
if (root) mountTrain(root);
