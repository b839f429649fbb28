// The Train section's controls and the tree they sit in. createControls makes the elements (no
// listeners: web/train/wiring.js adds those), layoutTrain puts them into the section's root.
// From 1200 px the section spans the page (train.css): the settings in one bar, the buttons with
// each model's status, the two charts side by side, one attention map per model side by side,
// then samples and weights.
import { element } from '../figures/dom.js';
import { BIN, EVAL_EVERY, LENGTHS_EVERY, LIMITS, MAX_TRAIN_SCHEMES, MULTIPLES, POSITION_WINDOWS, SIZES, TASKS, TRAIN_SCHEMES, sizeText } from './config.js';
import { schemeName } from './figures.js';
import { POSITION_BIN } from '../results/positions.js';

function labelled(text, control, hint) {
  return element('label', { className: 'train-field' }, [element('span', { text }), control, ...(hint ? [hint] : [])]);
}

const number = (id, min, max, step) => element('input', { id, type: 'number', min, max, step, inputMode: 'decimal' });

// The settings: task, its text, schemes, size and the run's numbers (each a LIMITS range).
function settingControls() {
  const text = element('textarea', { id: 'train-text', rows: 4, placeholder: 'Paste a text (at least a few hundred characters).' });
  const schemeBoxes = TRAIN_SCHEMES.map((scheme) => {
    const box = element('input', { type: 'checkbox', value: scheme });
    return element('label', { className: 'train-check' }, [box, ` ${schemeName(scheme)}`]);
  });
  return {
    task: element('select', { id: 'train-task' }, Object.entries(TASKS).map(([value, label]) => new Option(label, value))),
    text,
    textField: labelled('Your text', text),
    schemeBoxes,
    schemes: element('fieldset', { className: 'train-schemes' }, [element('legend', { text: `Schemes (up to ${MAX_TRAIN_SCHEMES})` }), ...schemeBoxes]),
    size: element('select', { id: 'train-size' }, Object.keys(SIZES).map((s) => new Option(`${s} (${sizeText(s)})`, s))),
    dPos: number('train-dpos', 2, 254, 2),
    dPosHint: element('small', { className: 'train-hint' }),
    length: number('train-length', ...LIMITS.length, 1),
    batch: number('train-batch', ...LIMITS.batch, 1),
    lr: number('train-lr', ...LIMITS.lr, 'any'),
    seed: number('train-seed', ...LIMITS.seed, 1),
    steps: number('train-steps', ...LIMITS.steps, 1),
  };
}

// The buttons, the readouts and the figures' slots.
function outputControls() {
  const picker = element('input', { type: 'file', id: 'train-load', accept: '.safetensors,application/octet-stream', 'aria-label': 'Choose a .safetensors weights file' });
  return {
    trainButton: element('button', { type: 'button', className: 'train-go', text: 'Train' }),
    stepButton: element('button', { type: 'button', text: 'Step' }),
    resetButton: element('button', { type: 'button', text: 'Reset' }),
    status: element('div', { role: 'status', className: 'train-status', 'aria-live': 'polite' }),
    xAxis: element('select', { id: 'train-x' }, [new Option('step', 'step'), new Option('tokens seen', 'tokens')]),
    lossSlot: element('div'),
    lengthSlot: element('div'),
    positionSlot: element('div'),
    attentionSlot: element('div'),
    stripSlot: element('div'),
    sentence: element('input', { id: 'train-sentence', type: 'text', spellcheck: false }),
    layer: element('select', { id: 'train-layer' }),
    head: element('select', { id: 'train-head' }),
    inspectNote: element('p', { className: 'train-note' }),
    samples: element('div', { className: 'train-samples' }),
    downloads: element('div', { className: 'train-downloads' }),
    picker,
    drop: element('div', { className: 'train-drop', text: 'Drop a .safetensors weights file here, or choose one: ' }, [picker]),
    weightsNote: element('p', { className: 'train-note', role: 'alert' }),
    summary: element('p', { className: 'train-summary' }),
  };
}

/** The section's elements, by name (settings, buttons, readouts, figure slots). */
export function createControls() {
  return { ...settingControls(), ...outputControls() };
}

const group = (className, children) => element('div', { className: `train-group ${className}` }, children);
const chartHead = (title, control) => element('div', { className: 'train-chart-head' }, [element('h3', { text: title }), ...(control ? [control] : [])]);
const caption = (text) => element('p', { className: 'caption', text });

function settingsBar(c) {
  return element('div', { className: 'train-bar', role: 'group', 'aria-label': 'Training settings' }, [
    group('train-group-task', [labelled('Task', c.task)]),
    c.schemes,
    group('train-group-model', [labelled('Model size', c.size), labelled('dPos (concatenated)', c.dPos, c.dPosHint)]),
    group('train-group-run', [labelled('Training length T', c.length), labelled('Batch', c.batch), labelled('Learning rate', c.lr),
      labelled('Seed', c.seed), labelled('Step budget', c.steps)]),
    c.textField,
  ]);
}

function charts(c) {
  return element('div', { className: 'train-charts' }, [
    element('div', { className: 'train-chart' }, [
      chartHead('Loss', labelled('x axis', c.xAxis)),
      caption(`Each model's training loss (lines, means of ${BIN} steps) and held-out loss (dots, every ` +
        `${EVAL_EVERY} steps) in nats per token: lower is better. The y axis fits the curves.`),
      c.lossSlot,
    ]),
    element('div', { className: 'train-chart' }, [
      chartHead('Past the training length'),
      caption('Each model evaluated at 1× to 8× its training length T (held-out text for the language model, ' +
        'fresh examples for copy, reverse and sort); the rotary model also with position interpolation, NTK-aware and YaRN scaling ' +
        `(factor = length / T). Updated every ${LENGTHS_EVERY} steps and on pause.`),
      c.lengthSlot,
    ]),
    // Folded, so the page's default height holds (at most 6 screens at 1280 × 800); its chart
    // paints when opened.
    element('details', { className: 'train-positions' }, [
      element('summary', {}, [element('h3', { text: 'Loss by position' })]),
      caption(`Each model's held-out loss at each position of a window ${MULTIPLES.at(-1)} times ` +
        `its training length T, averaged over ${POSITION_WINDOWS} windows of the held-out text and ${POSITION_BIN} neighbouring ` +
        'positions: left of T the positions it trained on, right of it the ones it never saw. Language-model tasks; ' +
        `updated every ${LENGTHS_EVERY} steps and on pause.`),
      c.positionSlot,
    ]),
  ]);
}

function inspection(c) {
  return element('div', { className: 'train-inspect' }, [
    element('h3', { text: 'Learned attention' }),
    caption('Where each model looks in the chosen layer and head: row i is token i of the sentence, ' +
      'spreading its attention (brighter = more) over itself and the tokens before it.'),
    element('div', { className: 'train-row' }, [labelled('Sentence to inspect', c.sentence), labelled('Layer', c.layer), labelled('Head', c.head)]),
    c.inspectNote,
    c.attentionSlot,
    element('p', { className: 'caption train-strip-caption', text: 'Per-token loss: each model\'s loss predicting each token of the ' +
      'sentence from the ones before it (brighter = more surprised).' }),
    c.stripSlot,
  ]);
}

/** Puts the controls `c` (createControls') into `root`, replacing what it held. */
export function layoutTrain(root, c) {
  root.replaceChildren(
    element('p', { className: 'caption train-intro', text: 'The same tiny decoder-only Transformer, trained from the same seed on the same batches, once per ' +
      'positional scheme, each in its own worker. Press Train, watch the losses separate, then see how each model does on ' +
      'sequences longer than it was trained on. Change the learning rate while it runs; every setting is in the link.' }),
    settingsBar(c),
    element('div', { className: 'train-run' }, [element('div', { className: 'train-buttons' }, [c.trainButton, c.stepButton, c.resetButton]), c.status]),
    charts(c),
    c.summary,
    inspection(c),
    element('div', { className: 'train-outputs' }, [
      element('div', { className: 'train-output' }, [element('h3', { text: 'Samples' }), c.samples]),
      element('div', { className: 'train-output' }, [element('h3', { text: 'Weights' }), c.downloads, c.drop, c.weightsNote]),
    ]),
  );
}
