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
import { checkFileSize, fmt } from '../formats/vector-file-rules.js';
import {
  buildView, clearMessages, showError, showIdle, showLoaded, showProgress,
} from './byo-view.js';

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

/**
 * Mounts the picker into `container` (emptied first). Options: lab (the page's lab; loaded from
 * posenc.mjs when omitted), onLoaded(vectorSet, summary), onError(message, details), onReset(),
 * onCancel(), maxWords (default 400,000), defaultName (what "Use … again" names, 'GloVe').
 * Returns { load(file), cancel(), reset(), destroy(), busy }.
 */
export function mountVectorPicker(container, options = {}) {
  if (!(container instanceof Element)) throw new TypeError('mountVectorPicker: container must be a DOM element');
  const picker = new VectorPicker(container, options);
  return {
    load: (file) => picker.load(file),
    cancel: () => picker.cancel(),
    reset: () => picker.reset(),
    destroy: () => picker.destroy(),
    get busy() { return picker.job !== null; },
  };
}

// One mounted picker: its view, the file being read (job) and what it last handed over. A token
// numbers each load; whatever a worker says under an older token is ignored.
class VectorPicker {
  constructor(container, options) {
    const { defaultName = 'GloVe' } = options;
    this.container = container;
    this.options = options;
    this.defaultName = defaultName;
    this.labPromise = options.lab ? Promise.resolve(options.lab) : null;
    linkStylesheet(container.ownerDocument);
    this.view = buildView(container.ownerDocument, `byo-${++instances}`, defaultName);
    container.replaceChildren(this.view.root);
    this.job = null;          // { worker, file, token }
    this.token = 0;
    this.usingCustom = null;  // name of the file whose vectors were last handed over
    this.destroyed = false;
    this.listen();
    this.drop = dropZone(container, this.view.root, (files) => this.dropped(files));
  }

  emit(type, detail) {
    this.container.dispatchEvent(new CustomEvent(type, { detail, bubbles: true }));
  }

  keeping() {
    return `The page keeps its current vectors (${this.usingCustom ?? this.defaultName}).`;
  }

  listen() {
    const { input, cancelButton, resetButton } = this.view;
    input.addEventListener('change', () => {
      const file = input.files?.[0];
      if (file) this.load(file);
    });
    cancelButton.addEventListener('click', () => {
      this.cancel();
      input.focus();
    });
    resetButton.addEventListener('click', () => {
      this.reset();
      input.focus();
    });
  }

  stopWorker() {
    this.job?.worker.terminate();
    this.job = null;
    showIdle(this.view);
  }

  fail(file, message, info = {}) {
    this.stopWorker();
    const { code = 'error', errors = [], errorCount = errors.length } = info;
    showError(this.view, `Could not use ${file ? `“${file.name}”` : 'the file'}: ${message}. ${this.keeping()}`, errors, errorCount);
    this.view.input.value = ''; // so that the same file, once fixed, can be picked again
    const detail = { message, code, errors, errorCount, file: file?.name };
    this.options.onError?.(message, detail);
    this.emit('byo-error', detail);
  }

  // The worker's bytes into the lab (a WordVectorSet), handed over unless a newer load, a cancel
  // or destroy() came in the meantime.
  async succeed(file, buffer, summary, mine) {
    this.view.progressRow.hidden = true;
    this.view.status.textContent = `Preparing ${fmt(summary.words)} vectors…`;
    // Let the status paint before the (synchronous) load into wasm memory.
    await new Promise((resolve) => setTimeout(resolve, 0));
    let vectors;
    try {
      this.labPromise ??= import('../posenc.mjs').then((module) => module.load());
      const lab = await this.labPromise;
      if (mine !== this.token) return;
      vectors = await lab.loadVectors(new Uint8Array(buffer));
    } catch (error) {
      if (mine === this.token) this.fail(file, `the vectors could not be loaded (${error?.message ?? error})`, { code: 'load-failed' });
      return;
    }
    if (mine !== this.token || this.destroyed) {
      vectors.dispose();
      return;
    }
    this.job = null;
    showIdle(this.view);
    this.usingCustom = `“${file.name}”`;
    const fullSummary = { ...summary, fileName: file.name, fileBytes: file.size };
    showLoaded(this.view, file.name, summary);
    this.options.onLoaded?.(vectors, fullSummary);
    this.emit('byo-loaded', { vectors, summary: fullSummary });
  }

  load(file) {
    if (this.destroyed) throw new Error('the vector picker was destroyed');
    if (!(file instanceof Blob)) throw new TypeError('load: file must be a File');
    if (this.job) this.cancel({ quiet: true });
    clearMessages(this.view);
    const mine = ++this.token;
    const named = file.name === undefined ? new File([file], 'vectors.txt') : file;
    try {
      checkFileSize(named.size); // refused before reading
    } catch (error) {
      this.fail(named, error.message, { code: error.code });
      return;
    }
    let worker;
    try {
      worker = new Worker(new URL('./byo-worker.js', import.meta.url), { type: 'module' });
    } catch (error) {
      this.fail(named, `this browser cannot start the background parser (${error.message})`, { code: 'no-worker' });
      return;
    }
    this.job = { worker, file: named, token: mine };
    this.view.input.setAttribute('aria-busy', 'true');
    this.view.status.textContent = '';
    showProgress(this.view, named.name, 0, named.size, 0);
    this.follow(worker, named, mine);
    const { maxWords } = this.options;
    worker.postMessage({ type: 'parse', file: named, ...(maxWords === undefined ? {} : { maxWords }) });
  }

  // The worker's messages (page/byo-worker.js) for load number `mine`.
  follow(worker, file, mine) {
    worker.addEventListener('message', ({ data }) => {
      if (mine !== this.token) return;
      if (data.type === 'progress') showProgress(this.view, file.name, data.bytesRead, data.total, data.words);
      else if (data.type === 'done') {
        worker.terminate();
        this.succeed(file, data.buffer, data.summary, mine);
      } else if (data.type === 'error') this.fail(file, data.message, data);
      else if (data.type === 'cancelled') this.stopWorker();
    });
    worker.addEventListener('error', (event) => {
      if (mine !== this.token) return;
      event.preventDefault?.();
      this.fail(file, `the background parser failed (${event.message || 'could not load byo-worker.js'})`, { code: 'worker-failed' });
    });
  }

  cancel({ quiet = false } = {}) {
    if (!this.job) return false;
    const { worker } = this.job;
    this.token++; // whatever the worker still says is ignored
    worker.postMessage({ type: 'cancel' });
    // The worker stops its reader at once; terminating makes sure nothing lingers either way.
    setTimeout(() => worker.terminate(), 1000);
    this.job = null;
    showIdle(this.view);
    if (!quiet) {
      this.view.input.value = '';
      clearMessages(this.view);
      this.view.status.textContent = `Cancelled. ${this.keeping()}`;
      this.options.onCancel?.();
      this.emit('byo-cancelled', {});
    }
    return true;
  }

  reset() {
    if (this.job) this.cancel({ quiet: true });
    this.token++;
    clearMessages(this.view);
    this.usingCustom = null;
    this.view.resetButton.hidden = true;
    this.view.input.value = '';
    this.view.status.textContent = `Using ${this.defaultName} again.`;
    this.options.onReset?.();
    this.emit('byo-reset', {});
  }

  dropped(files) {
    if (files.length !== 1 && this.job) return; // a stray drop does not disturb a file being read
    if (files.length === 0) {
      clearMessages(this.view);
      this.fail(null, 'drop a file (a GloVe or word2vec text file), not text or a link', { code: 'no-file' });
    } else if (files.length > 1) {
      clearMessages(this.view);
      this.fail(null, `drop one file at a time (got ${files.length})`, { code: 'several-files' });
    } else {
      this.load(files[0]);
    }
  }

  destroy() {
    if (this.destroyed) return;
    this.cancel({ quiet: true });
    this.destroyed = true;
    this.drop.detach();
    this.view.root.remove();
  }
}

// Drag and drop onto the whole container: `root` is marked while files are dragged over it, and
// onDrop(files) gets what was dropped (a FileList, possibly empty). → { detach() }.
function dropZone(container, root, onDrop) {
  let depth = 0;
  const hasFiles = (event) => [...(event.dataTransfer?.types ?? [])].includes('Files');
  const handlers = {
    dragenter(event) {
      if (!hasFiles(event)) return;
      event.preventDefault();
      depth++;
      root.classList.add('byo-dragging');
    },
    dragover(event) {
      if (!hasFiles(event)) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = 'copy';
    },
    dragleave() {
      depth = Math.max(0, depth - 1);
      if (depth === 0) root.classList.remove('byo-dragging');
    },
    drop(event) {
      event.preventDefault();
      depth = 0;
      root.classList.remove('byo-dragging');
      onDrop(event.dataTransfer?.files ?? []);
    },
  };
  for (const [type, handler] of Object.entries(handlers)) container.addEventListener(type, handler);
  return {
    detach() {
      for (const [type, handler] of Object.entries(handlers)) container.removeEventListener(type, handler);
    },
  };
}
