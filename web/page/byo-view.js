// The vector picker's view (page/byo-vectors.js): its DOM, made once, and the writes that show
// progress, a loaded file and an error. All file-derived text goes in with textContent, never as
// markup.
import { element } from '../figures/dom.js';
import { fmt, MAX_FILE_BYTES, POLICY } from '../formats/vector-file-rules.js';

const MB = 1e6; // decimal megabytes, as file managers show them
const megabytes = (bytes) => `${(bytes / MB).toFixed(bytes < 10 * MB ? 1 : 0)} MB`;

// The file input, the progress row and the messages, in `doc`; id prefixes the ids that tie
// labels and descriptions to them.
function controls(doc, id, defaultName) {
  const input = element('input', { type: 'file', id: `${id}-file`, accept: '.txt,.vec,.text,text/plain', 'aria-describedby': `${id}-hint` }, [], doc);
  const progress = element('progress', { max: 1, value: 0, 'aria-labelledby': `${id}-progress-text` }, [], doc);
  const progressText = element('span', { class: 'byo-progress-text', id: `${id}-progress-text` }, [], doc);
  const cancelButton = element('button', { type: 'button', class: 'byo-cancel', text: 'Cancel' }, [], doc);
  const progressRow = element('div', { class: 'byo-progress-row', hidden: true }, [progress, progressText, cancelButton], doc);
  const status = element('p', { class: 'byo-status', role: 'status', 'aria-live': 'polite' }, [], doc);
  const details = element('ul', { class: 'byo-lines byo-details', hidden: true }, [], doc);
  const errorMessage = element('p', { class: 'byo-error-message' }, [], doc);
  const errorLines = element('ul', { class: 'byo-lines' }, [], doc);
  const errorBox = element('div', { class: 'byo-error', role: 'alert', hidden: true }, [errorMessage, errorLines], doc);
  const resetButton = element('button', { type: 'button', class: 'byo-reset', hidden: true, text: `Use ${defaultName} again` }, [], doc);
  return { doc, input, progress, progressText, cancelButton, progressRow, status, details, errorMessage, errorLines, errorBox, resetButton };
}

/** The picker's parts (see controls), with `root` holding them, its title, intro and policy. */
export function buildView(doc, id, defaultName) {
  const view = controls(doc, id, defaultName);
  view.root = element('div', { class: 'byo' }, [
    element('p', { class: 'byo-title', id: `${id}-title`, text: 'Your own word vectors' }, [], doc),
    element('p', {
      class: 'byo-intro', id: `${id}-hint`,
      text: `A GloVe or word2vec text file, up to ${megabytes(MAX_FILE_BYTES)}. It is read here, in your browser; nothing is uploaded.`,
    }, [], doc),
    element('div', { class: 'byo-row' }, [
      element('label', { htmlFor: view.input.id, text: 'Vector file' }, [], doc),
      view.input,
      view.resetButton,
    ], doc),
    element('p', { class: 'byo-drop-hint', text: '…or drop the file anywhere in this box.' }, [], doc),
    view.progressRow,
    view.status,
    view.details,
    view.errorBox,
    element('details', { class: 'byo-policy' }, [
      element('summary', { text: 'Which files work?' }, [], doc),
      element('p', { text: POLICY }, [], doc),
    ], doc),
  ], doc);
  view.root.setAttribute('aria-labelledby', `${id}-title`);
  view.root.setAttribute('role', 'group');
  return view;
}

// `items` as the list's lines, and a last line counting those left out of `total`.
function setLines(view, list, items, total) {
  list.replaceChildren(...items.map((text) => element('li', { text }, [], view.doc)));
  if (total > items.length) list.append(element('li', { text: `… and ${fmt(total - items.length)} more` }, [], view.doc));
}

const lineErrors = (errors) => errors.map((e) => `Line ${fmt(e.line)}: ${e.reason}`);

export function clearMessages(view) {
  view.errorBox.hidden = true;
  view.errorMessage.textContent = '';
  view.errorLines.replaceChildren();
  view.details.hidden = true;
  view.details.replaceChildren();
}

export function showProgress(view, name, bytesRead, total, words) {
  view.progressRow.hidden = false;
  view.progress.max = Math.max(1, total);
  view.progress.value = Math.min(bytesRead, total);
  const percent = total ? Math.floor((100 * bytesRead) / total) : 0;
  view.progressText.textContent = `Reading “${name}”: ${megabytes(bytesRead)} of ${megabytes(total)} (${percent}%)` +
    (words ? ` · ${fmt(words)} words` : '');
}

/** Progress hidden, the input no longer busy. */
export function showIdle(view) {
  view.progressRow.hidden = true;
  view.input.removeAttribute('aria-busy');
}

/** text: the whole message; errors: [{ line, reason }], the first errorCount. */
export function showError(view, text, errors, errorCount) {
  view.status.textContent = '';
  view.errorMessage.textContent = text;
  setLines(view, view.errorLines, lineErrors(errors), errorCount);
  view.errorBox.hidden = false;
}

/** The file in use: its size and format, then its notices and skipped lines. */
export function showLoaded(view, fileName, summary) {
  view.status.textContent = `Using “${fileName}”: ${fmt(summary.words)} words × ${summary.dim} dimensions` +
    `${summary.format === 'word2vec' ? ' (word2vec text)' : ''}.`;
  const lines = [...summary.notices];
  setLines(view, view.details, lines.concat(lineErrors(summary.errors)), lines.length + summary.skipped);
  view.details.hidden = lines.length === 0;
  view.resetButton.hidden = false;
}
