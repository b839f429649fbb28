// The Train section's listeners: settings (a change to anything but the learning rate or the
// budget starts the models afresh), the URL hash, the buttons, the inspected sentence and the
// weights file picker. Each takes the session (web/train/session.js).
import { LIMITS, SIZES, TRAIN_SCHEMES, MAX_TRAIN_SCHEMES, readTrainHash, trainingShare, writeTrainHash } from './config.js';
import { schemeName } from './figures.js';
import { watchFrames } from './frames.js';
import { render, repaintAll } from './paint.js';
import { ensureRuns, reset, setPlaying, startRun, toTrained } from './runs.js';
import { defaultSentence, writeControls, writeUrl } from './session.js';

function change(session, update, { restart = true } = {}) {
  session.state = { ...session.state, ...update };
  if (restart) { session.controls.sentence.dataset.auto = '1'; reset(session); }
  writeControls(session);
  writeUrl(session);
  for (const run of session.runs.values()) run.worker.postMessage({ type: 'set', lr: session.state.lr, budget: session.state.steps });
  repaintAll(session);
}

// The input's number when it is one in [min, max] (an integer unless told otherwise), else undefined.
function valid(input, [min, max], integer = true) {
  const v = Number(input.value);
  const ok = input.value !== '' && v >= min && v <= max && (!integer || Number.isInteger(v));
  input.setAttribute('aria-invalid', String(!ok));
  return ok ? v : undefined;
}

function wireSchemes(session) {
  const { schemeBoxes, summary } = session.controls;
  for (const label of schemeBoxes) {
    label.firstChild.addEventListener('change', () => {
      const chosen = TRAIN_SCHEMES.filter((s) => schemeBoxes.find((l) => l.firstChild.value === s).firstChild.checked);
      if (chosen.length === 0 || chosen.length > MAX_TRAIN_SCHEMES) {
        label.firstChild.checked = !label.firstChild.checked;
        summary.textContent = chosen.length ? `At most ${MAX_TRAIN_SCHEMES} schemes train at once.` : 'Choose at least one scheme.';
        return;
      }
      change(session, { schemes: chosen });
    });
  }
}

/** Task, text, schemes, size, dPos and the run's numbers; the loss chart's x axis; the hash. */
export function wireSettings(session) {
  const c = session.controls;
  c.task.addEventListener('change', () => change(session, { task: c.task.value }));
  let textTimer = 0;
  c.text.addEventListener('input', () => {
    clearTimeout(textTimer);
    textTimer = setTimeout(() => change(session, { text: c.text.value }), 600);
  });
  wireSchemes(session);
  c.size.addEventListener('change', () => change(session, { size: c.size.value, dPos: 0 }));
  c.dPos.addEventListener('change', () => {
    const d = SIZES[session.state.size].d;
    const v = valid(c.dPos, [2, d - 2]);
    if (v !== undefined && v % 2 === 0) change(session, { dPos: v === d / 4 ? 0 : v });
  });
  const numeric = (key, options) => c[key].addEventListener('change', () => {
    const v = valid(c[key], LIMITS[key], key !== 'lr');
    if (v !== undefined) change(session, { [key]: v }, options);
  });
  numeric('length');
  numeric('batch');
  numeric('lr', { restart: false });
  numeric('seed');
  numeric('steps', { restart: false });
  c.xAxis.addEventListener('change', () => render(session));
  addEventListener('hashchange', () => {
    const next = readTrainHash(location.hash);
    if (writeTrainHash(next, '') === writeTrainHash(session.state, '')) return;
    session.state = next;
    c.sentence.dataset.auto = '1';
    reset(session);
    writeControls(session);
  });
}

/** Train (and Pause), Step and Reset. */
export function wireButtons(session) {
  const c = session.controls;
  c.trainButton.addEventListener('click', () => {
    if (session.playing) {
      setPlaying(session, false);
      toTrained(session, { type: 'pause' });
      return;
    }
    ensureRuns(session);
    setPlaying(session, true);
    const trained = [...session.runs.values()].filter((run) => !run.loaded);
    session.share = trainingShare(navigator.hardwareConcurrency, trained.length);
    toTrained(session, { type: 'run', share: session.share });
    watchFrames(session);
  });
  c.stepButton.addEventListener('click', () => {
    ensureRuns(session);
    toTrained(session, { type: 'step' });
  });
  c.resetButton.addEventListener('click', () => reset(session));
}

/** The inspected sentence (every run inspects it again), and the layer and head shown. */
export function wireInspection(session) {
  const c = session.controls;
  c.sentence.addEventListener('change', () => {
    c.sentence.dataset.auto = c.sentence.value === defaultSentence(session.state) ? '1' : '0';
    for (const run of session.runs.values()) run.worker.postMessage({ type: 'inspect', text: c.sentence.value });
  });
  c.layer.addEventListener('change', () => repaintAll(session));
  c.head.addEventListener('change', () => repaintAll(session));
}

/** The scheme named in a weights file's config (for its colour and name), or 'nope' when unreadable. */
function schemeInFile(bytes) {
  const match = /\\?"scheme\\?"\s*:\s*\\?"([a-z0-9]+)/.exec(new TextDecoder().decode(bytes.subarray(0, Math.min(bytes.length, 65536))));
  return match && TRAIN_SCHEMES.includes(match[1]) ? match[1] : 'nope';
}

async function loadFile(session, file) {
  if (!file) return;
  session.controls.weightsNote.textContent = '';
  const bytes = new Uint8Array(await file.arrayBuffer());
  session.loadedCount += 1;
  const scheme = schemeInFile(bytes);
  startRun(session, `loaded-${session.loadedCount}`,
    { scheme, name: `${schemeName(scheme) ?? 'Model'} (loaded ${file.name})`, weights: bytes, loaded: true, fileName: file.name });
  repaintAll(session);
}

/** A weights file chosen or dropped: a run of its own, beside the trained ones. */
export function wireWeights(session) {
  const { picker, drop } = session.controls;
  picker.addEventListener('change', () => { loadFile(session, picker.files[0]); picker.value = ''; });
  drop.addEventListener('dragover', (event) => { event.preventDefault(); drop.classList.add('is-over'); });
  drop.addEventListener('dragleave', () => drop.classList.remove('is-over'));
  drop.addEventListener('drop', (event) => {
    event.preventDefault();
    drop.classList.remove('is-over');
    loadFile(session, event.dataTransfer.files[0]);
  });
}
