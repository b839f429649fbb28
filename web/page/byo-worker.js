// Module Web Worker: reads a word-vector text file chunk by chunk (file.stream()) and packs it
// into PELVEC01 bytes with formats/vector-text.js, off the page's main thread.
//
// In:  { type: 'parse', file: File | Blob, maxWords?: number }   one per worker at a time
//      { type: 'cancel' }                                          aborts the reader
// Out: { type: 'progress', bytesRead, total, lines, words }        about every 100 ms
//      { type: 'done', buffer: ArrayBuffer (transferred), summary }
//      { type: 'error', message, code, errors: [{ line, reason }], errorCount }
//      { type: 'cancelled' }
import { checkFileSize, createTextVectorParser, VectorFileError } from '../formats/vector-text.js';

const PROGRESS_MS = 100;
let job = null; // { cancelled, reader }

self.addEventListener('message', (event) => {
  const message = event.data ?? {};
  if (message.type === 'cancel') {
    if (job) {
      job.cancelled = true;
      job.reader?.cancel().catch(() => {});
    }
  } else if (message.type === 'parse') {
    if (job) {
      self.postMessage({ type: 'error', code: 'busy', message: 'a file is already being read', errors: [], errorCount: 0 });
      return;
    }
    job = { cancelled: false, reader: null };
    run(job, message).finally(() => { job = null; });
  }
});

async function run(current, { file, maxWords }) {
  try {
    if (!(file instanceof Blob)) throw new TypeError('parse: file must be a File or Blob');
    const started = performance.now();
    const total = file.size;
    checkFileSize(total); // refused before reading a byte
    const parser = createTextVectorParser(maxWords === undefined ? {} : { maxWords });
    const reader = file.stream().getReader();
    current.reader = reader;
    let bytesRead = 0;
    let lastReport = 0;
    const report = () => {
      self.postMessage({ type: 'progress', bytesRead, total, lines: parser.lines, words: parser.words });
    };
    report();
    for (;;) {
      if (current.cancelled) break;
      const { done, value } = await reader.read();
      if (done || current.cancelled) break;
      bytesRead += value.length;
      const wantsMore = parser.push(value);
      const now = performance.now();
      if (now - lastReport >= PROGRESS_MS) {
        lastReport = now;
        report();
        // Let a pending 'cancel' message in even if the stream resolves reads without yielding.
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
      if (!wantsMore) {
        await reader.cancel().catch(() => {});
        break;
      }
    }
    if (current.cancelled) {
      await reader.cancel().catch(() => {});
      self.postMessage({ type: 'cancelled' });
      return;
    }
    const { bytes, summary } = parser.finish();
    summary.seconds = (performance.now() - started) / 1000; // reading, parsing and packing
    report();
    self.postMessage({ type: 'done', buffer: bytes.buffer, summary }, [bytes.buffer]);
  } catch (error) {
    if (current.cancelled) {
      self.postMessage({ type: 'cancelled' });
      return;
    }
    const known = error instanceof VectorFileError;
    self.postMessage({
      type: 'error',
      code: known ? error.code : 'read-failed',
      message: known ? error.message : `could not read the file: ${error?.message ?? error}`,
      errors: known ? error.errors : [],
      errorCount: known ? error.errorCount : 0,
    });
  }
}
