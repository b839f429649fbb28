// "Bring your own vectors": a file picker and drop zone that loads a GloVe or word2vec text file
// (up to 500 MB) into the lab, parsed in a Web Worker (byo-worker.js) with progress and cancel.
//
//   import { mountVectorPicker } from './byo-vectors.js';
//   const picker = mountVectorPicker(document.getElementById('byo-vectors'), {
//     lab,                                          // the page's lab (from posenc.mjs load())
//     onLoaded(vectorSet, summary) { … },           // a WordVectorSet: switch the page to it
//     onError(message, details) { … },              // optional: the component shows it already
//     onReset() { … },                              // "Use GloVe again" was pressed
//   });
//
// The same happen as DOM events on the container: 'byo-loaded' (detail { vectors, summary }),
// 'byo-error' (detail { message, code, errors, errorCount }), 'byo-reset', 'byo-cancelled'.
// The component never touches the page's current vectors: after an error or a cancel the page
// simply keeps what it had. It does not dispose the sets it hands over; the page owns them
// (call set.dispose() on a custom set once the page has switched away from it).
// All file-derived text is shown with textContent, never as markup.
import { element } from '../figures/dom.js';
import { MAX_FILE_BYTES, POLICY, checkFileSize } from '../formats/vector-text.js';

let instances = 0;

// A stylesheet file rather than an inline <style>, so a page with a strict
// Content-Security-Policy (style-src 'self') styles the picker too.
const STYLESHEET = new URL('byo-vectors.css', import.meta.url).href;

function linkStylesheet(doc) {
  if (doc.querySelector('link[data-byo-vectors]')) return;
  const link = doc.createElement('link');
  link.rel = 'stylesheet';
  link.href = STYLESHEET;
  link.dataset.byoVectors = '';
  doc.head.append(link);
}

const MB = 1e6; // decimal megabytes, as file managers show them
const fmt = (n) => n.toLocaleString('en-US');
const megabytes = (bytes) => `${(bytes / MB).toFixed(bytes < 10 * MB ? 1 : 0)} MB`;

/**
 * Mounts the picker into `container` (emptied first). Options: lab (the page's lab; loaded from
 * posenc.mjs when omitted), onLoaded(vectorSet, summary), onError(message, details), onReset(),
 * onCancel(), maxWords (default 400,000), defaultName (what "Use … again" names, 'GloVe').
 * Returns { load(file), cancel(), reset(), destroy(), busy }.
 */
export function mountVectorPicker(container, options = {}) {
  if (!(container instanceof Element)) throw new TypeError('mountVectorPicker: container must be a DOM element');
  const { onLoaded, onError, onReset, onCancel, maxWords, defaultName = 'GloVe' } = options;
  let labPromise = options.lab ? Promise.resolve(options.lab) : null;
  const doc = container.ownerDocument;
  linkStylesheet(doc);
  const id = `byo-${++instances}`;

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
  const root = element('div', { class: 'byo' }, [
    element('p', { class: 'byo-title', id: `${id}-title`, text: 'Your own word vectors' }, [], doc),
    element('p', {
      class: 'byo-intro', id: `${id}-hint`,
      text: `A GloVe or word2vec text file, up to ${megabytes(MAX_FILE_BYTES)}. It is read here, in your browser; nothing is uploaded.`,
    }, [], doc),
    element('div', { class: 'byo-row' }, [
      element('label', { htmlFor: input.id, text: 'Vector file' }, [], doc),
      input,
      resetButton,
    ], doc),
    element('p', { class: 'byo-drop-hint', text: '…or drop the file anywhere in this box.' }, [], doc),
    progressRow,
    status,
    details,
    errorBox,
    element('details', { class: 'byo-policy' }, [
      element('summary', { text: 'Which files work?' }, [], doc),
      element('p', { text: POLICY }, [], doc),
    ], doc),
  ], doc);
  root.setAttribute('aria-labelledby', `${id}-title`);
  root.setAttribute('role', 'group');
  container.replaceChildren(root);

  let job = null;          // { worker, file, token }
  let token = 0;
  let usingCustom = null;  // name of the file whose vectors were last handed over
  let destroyed = false;

  const emit = (type, detail) => container.dispatchEvent(new CustomEvent(type, { detail, bubbles: true }));

  function setLines(list, items, total) {
    list.replaceChildren(...items.map((text) => element('li', { text }, [], doc)));
    if (total > items.length) list.append(element('li', { text: `… and ${fmt(total - items.length)} more` }, [], doc));
  }

  function clearMessages() {
    errorBox.hidden = true;
    errorMessage.textContent = '';
    errorLines.replaceChildren();
    details.hidden = true;
    details.replaceChildren();
  }

  function showProgress(name, bytesRead, total, words) {
    progressRow.hidden = false;
    progress.max = Math.max(1, total);
    progress.value = Math.min(bytesRead, total);
    const percent = total ? Math.floor((100 * bytesRead) / total) : 0;
    progressText.textContent = `Reading “${name}”: ${megabytes(bytesRead)} of ${megabytes(total)} (${percent}%)` +
      (words ? ` · ${fmt(words)} words` : '');
  }

  function stopWorker() {
    job?.worker.terminate();
    job = null;
    progressRow.hidden = true;
    input.removeAttribute('aria-busy');
  }

  const keeping = () => `The page keeps its current vectors (${usingCustom ?? defaultName}).`;

  function fail(file, message, info = {}) {
    stopWorker();
    const { code = 'error', errors = [], errorCount = errors.length } = info;
    status.textContent = '';
    errorMessage.textContent = `Could not use ${file ? `“${file.name}”` : 'the file'}: ${message}. ${keeping()}`;
    setLines(errorLines, errors.map((e) => `Line ${fmt(e.line)}: ${e.reason}`), errorCount);
    errorBox.hidden = false;
    input.value = ''; // so that the same file, once fixed, can be picked again
    const detail = { message, code, errors, errorCount, file: file?.name };
    onError?.(message, detail);
    emit('byo-error', detail);
  }

  async function succeed(file, buffer, summary, mine) {
    progressRow.hidden = true;
    status.textContent = `Preparing ${fmt(summary.words)} vectors…`;
    // Let the status paint before the (synchronous) load into wasm memory.
    await new Promise((resolve) => setTimeout(resolve, 0));
    let vectors;
    try {
      labPromise ??= import('../posenc.mjs').then((module) => module.load());
      const lab = await labPromise;
      if (mine !== token) return;
      vectors = await lab.loadVectors(new Uint8Array(buffer));
    } catch (error) {
      if (mine === token) fail(file, `the vectors could not be loaded (${error?.message ?? error})`, { code: 'load-failed' });
      return;
    }
    if (mine !== token || destroyed) {
      vectors.dispose();
      return;
    }
    job = null;
    input.removeAttribute('aria-busy');
    usingCustom = `“${file.name}”`;
    const fullSummary = { ...summary, fileName: file.name, fileBytes: file.size };
    status.textContent = `Using “${file.name}”: ${fmt(summary.words)} words × ${summary.dim} dimensions` +
      `${summary.format === 'word2vec' ? ' (word2vec text)' : ''}.`;
    const lines = [...summary.notices];
    setLines(details, lines.concat(summary.errors.map((e) => `Line ${fmt(e.line)}: ${e.reason}`)),
      lines.length + summary.skipped);
    details.hidden = lines.length === 0;
    resetButton.hidden = false;
    onLoaded?.(vectors, fullSummary);
    emit('byo-loaded', { vectors, summary: fullSummary });
  }

  function load(file) {
    if (destroyed) throw new Error('the vector picker was destroyed');
    if (!(file instanceof Blob)) throw new TypeError('load: file must be a File');
    if (job) cancel({ quiet: true });
    clearMessages();
    const mine = ++token;
    const named = file.name === undefined ? new File([file], 'vectors.txt') : file;
    try {
      checkFileSize(named.size); // refused before reading
    } catch (error) {
      fail(named, error.message, { code: error.code });
      return;
    }
    let worker;
    try {
      worker = new Worker(new URL('./byo-worker.js', import.meta.url), { type: 'module' });
    } catch (error) {
      fail(named, `this browser cannot start the background parser (${error.message})`, { code: 'no-worker' });
      return;
    }
    job = { worker, file: named, token: mine };
    input.setAttribute('aria-busy', 'true');
    status.textContent = '';
    showProgress(named.name, 0, named.size, 0);
    worker.addEventListener('message', ({ data }) => {
      if (mine !== token) return;
      if (data.type === 'progress') showProgress(named.name, data.bytesRead, data.total, data.words);
      else if (data.type === 'done') {
        worker.terminate();
        succeed(named, data.buffer, data.summary, mine);
      } else if (data.type === 'error') fail(named, data.message, data);
      else if (data.type === 'cancelled') stopWorker();
    });
    worker.addEventListener('error', (event) => {
      if (mine !== token) return;
      event.preventDefault?.();
      fail(named, `the background parser failed (${event.message || 'could not load byo-worker.js'})`, { code: 'worker-failed' });
    });
    worker.postMessage({ type: 'parse', file: named, ...(maxWords === undefined ? {} : { maxWords }) });
  }

  function cancel({ quiet = false } = {}) {
    if (!job) return false;
    const { worker } = job;
    token++; // whatever the worker still says is ignored
    worker.postMessage({ type: 'cancel' });
    // The worker stops its reader at once; terminating makes sure nothing lingers either way.
    setTimeout(() => worker.terminate(), 1000);
    job = null;
    progressRow.hidden = true;
    input.removeAttribute('aria-busy');
    if (!quiet) {
      input.value = '';
      clearMessages();
      status.textContent = `Cancelled. ${keeping()}`;
      onCancel?.();
      emit('byo-cancelled', {});
    }
    return true;
  }

  function reset() {
    if (job) cancel({ quiet: true });
    token++;
    clearMessages();
    usingCustom = null;
    resetButton.hidden = true;
    input.value = '';
    status.textContent = `Using ${defaultName} again.`;
    onReset?.();
    emit('byo-reset', {});
  }

  input.addEventListener('change', () => {
    const file = input.files?.[0];
    if (file) load(file);
  });
  cancelButton.addEventListener('click', () => {
    cancel();
    input.focus();
  });
  resetButton.addEventListener('click', () => {
    reset();
    input.focus();
  });

  // Drag and drop onto the whole container.
  let depth = 0;
  const hasFiles = (event) => [...(event.dataTransfer?.types ?? [])].includes('Files');
  const onDragEnter = (event) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    depth++;
    root.classList.add('byo-dragging');
  };
  const onDragOver = (event) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
  };
  const onDragLeave = () => {
    depth = Math.max(0, depth - 1);
    if (depth === 0) root.classList.remove('byo-dragging');
  };
  const onDrop = (event) => {
    event.preventDefault();
    depth = 0;
    root.classList.remove('byo-dragging');
    const files = event.dataTransfer?.files ?? [];
    if (files.length !== 1 && job) return; // a stray drop does not disturb a file being read
    if (files.length === 0) {
      clearMessages();
      fail(null, 'drop a file (a GloVe or word2vec text file), not text or a link', { code: 'no-file' });
    } else if (files.length > 1) {
      clearMessages();
      fail(null, `drop one file at a time (got ${files.length})`, { code: 'several-files' });
    } else {
      load(files[0]);
    }
  };
  container.addEventListener('dragenter', onDragEnter);
  container.addEventListener('dragover', onDragOver);
  container.addEventListener('dragleave', onDragLeave);
  container.addEventListener('drop', onDrop);

  function destroy() {
    if (destroyed) return;
    cancel({ quiet: true });
    destroyed = true;
    container.removeEventListener('dragenter', onDragEnter);
    container.removeEventListener('dragover', onDragOver);
    container.removeEventListener('dragleave', onDragLeave);
    container.removeEventListener('drop', onDrop);
    root.remove();
  }

  return {
    load,
    cancel: () => cancel(),
    reset,
    destroy,
    get busy() { return job !== null; },
  };
}
