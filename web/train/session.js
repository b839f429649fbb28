// The Train section's state: the settings (read from and written to the URL hash,
// web/train/config.js), the runs (one worker each), whether they train, and which figures need
// a repaint. One object, made by createSession and passed to the section's other modules.
import { SYNTHETIC_KIND } from '../scheme-table.mjs';
import { SIZES, dPosFor, readTrainHash, writeTrainHash } from './config.js';

export const BOOK_SENTENCE = 'Call me Ishmael. Some years ago—never mind how long precisely—having little money';
export const BOOK_PROMPT = 'Call me ';

// x_1 … x_n SEP y_1 … y_n for n = ⌊T/2⌋ items taken from π's digits: the attention view's
// sentence for copy, reverse and sort.
function syntheticSentence(task, T) {
  const digits = '31415926535897932384626433832795028841971693993751058209749445923078164062862089986280348253421170679';
  const items = Array.from(digits.slice(0, Math.floor(T / 2)));
  const answer = task === SYNTHETIC_KIND.copy ? items : task === SYNTHETIC_KIND.reverse ? [...items].reverse() : [...items].sort((a, b) => a - b);
  return [...items, '<sep>', ...answer].join(' ');
}

/** The sentence the attention view inspects unless the reader typed one. */
export function defaultSentence(state) {
  return state.task === 'book' ? BOOK_SENTENCE : state.task === 'text' ? state.text.slice(0, 64) : syntheticSentence(state.task, state.length);
}

/**
 * root: the section's element; controls: createControls'; figures: createTrainFigures'.
 * → { root, controls, figures, state (the settings), runs (key → run), playing, loadedCount,
 *   paintTimer, dirty, share, watching }.
 */
export function createSession(root, controls, figures) {
  return {
    root, controls, figures,
    state: readTrainHash(location.hash),
    runs: new Map(), // key → run (one per worker)
    playing: false,
    loadedCount: 0,  // weights files loaded so far (each run's key is unique)
    paintTimer: 0,
    // Figures repaint only when their data changed since the last paint (the loss chart and status
    // change with every chunk; lengths, attention and samples every LENGTHS_EVERY steps).
    dirty: { lengths: true, inspect: true },
    share: 1,        // the trained workers' share of the CPU (web/train/frames.js)
    watching: false, // frames.js is watching the frames
  };
}

/** The settings into the controls; the inspected sentence follows the task unless the reader typed one. */
export function writeControls(session) {
  const { state, controls: c } = session;
  c.task.value = state.task;
  c.text.value = state.text;
  c.textField.hidden = state.task !== 'text';
  for (const label of c.schemeBoxes) label.firstChild.checked = state.schemes.includes(label.firstChild.value);
  c.size.value = state.size;
  c.dPos.value = dPosFor(state);
  c.dPosHint.textContent = ` word columns ${SIZES[state.size].d - dPosFor(state)} + position ${dPosFor(state)} = width ${SIZES[state.size].d}`;
  for (const key of ['length', 'batch', 'lr', 'seed', 'steps']) c[key].value = state[key];
  if (!c.sentence.value || c.sentence.dataset.auto === '1') {
    c.sentence.value = defaultSentence(state);
    c.sentence.dataset.auto = '1';
  }
}

export function writeUrl(session) {
  history.replaceState(null, '', writeTrainHash(session.state, location.hash) || location.pathname + location.search);
}
