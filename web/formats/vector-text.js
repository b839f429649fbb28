// Bring-your-own word vectors: a streaming parser for GloVe and word2vec *text* files that packs
// them into the PELVEC01 format (data/README.md) the core's loader reads (lab.loadVectors).
//
// Pure: no DOM, no I/O. The page's worker (page/byo-worker.js) feeds it a File chunk by chunk; tests feed it
// byte arrays. Works in browsers, workers and Node ≥ 20.
//
//   const parser = createTextVectorParser({ maxWords: 400000 });
//   for (const chunk of chunks) if (!parser.push(chunk)) break;   // false: enough words kept
//   const { bytes, summary } = parser.finish();                   // or a VectorFileError is thrown
//
// Bytes are split into lines as they arrive (text-lines.js: a line may straddle any number of
// chunks; CRLF, a missing final newline and a UTF-8 byte-order mark are accepted), each line is
// read into a word and its values or a line error (vector-lines.js, over the number scanner in
// decimal-scan.js), and the kept vectors are quantized and packed (vector-table.js). The limits,
// the error policy and the error type are vector-file-rules.js'.

import {
  DEFAULT_MAX_WORDS, fmt, MAX_VALUES, MAX_WORDS, VectorFileError,
} from './vector-file-rules.js';
import { LineSplitter } from './text-lines.js';
import { LineErrors, VectorLineReader } from './vector-lines.js';
import { VectorTable } from './vector-table.js';

export {
  MAX_FILE_BYTES, MAX_DIM, DEFAULT_MAX_WORDS, MAX_VALUES, MAX_LINE_BYTES, SNIFF_BYTES, MAX_REPORTED_ERRORS,
  TOLERATED_ERRORS, TOLERATED_ERROR_RATE, POLICY, VectorFileError, oddDimensionMessage, checkFileSize,
} from './vector-file-rules.js';
export { scanValues } from './decimal-scan.js';

/**
 * A streaming parser. push(chunk: Uint8Array) → true while it wants more bytes (false once it has
 * kept as many words as allowed: stop reading then); finish() → { bytes, summary }.
 * Both throw VectorFileError when the file is refused.
 * Options: maxWords (default 400,000), maxValues (words × dim, default 2^25),
 * onProgress({ bytes, lines, words }) after every push.
 */
export function createTextVectorParser({ maxWords = DEFAULT_MAX_WORDS, maxValues = MAX_VALUES, onProgress } = {}) {
  if (!Number.isInteger(maxWords) || maxWords < 1 || maxWords > MAX_WORDS) {
    throw new RangeError(`maxWords must be an integer from 1 to ${MAX_WORDS}`);
  }
  if (!Number.isInteger(maxValues) || maxValues < 2) throw new RangeError('maxValues must be an integer ≥ 2');
  const parse = { failed: null, finished: false };
  const errors = new LineErrors();
  // Every refusal goes through here, so the parser stays refused and the error lists the lines.
  const fail = (message, details) => {
    parse.failed = new VectorFileError(message, { errors: errors.list.slice(), errorCount: errors.count, ...details });
    throw parse.failed;
  };
  parse.table = new VectorTable(maxWords, maxValues, fail);
  parse.reader = new VectorLineReader(parse.table, errors, fail);
  parse.lines = new LineSplitter(fail);
  parse.onLine = (bytes, from, to, line, last) => {
    parse.reader.read(bytes, from, to, line, last);
    return parse.table.full === null;
  };
  return {
    push: (chunk) => push(parse, chunk, onProgress),
    finish: () => finish(parse, fail),
    get full() { return parse.table.full !== null; },
    get lines() { return parse.lines.lineNumber; },
    get words() { return parse.table.words.length; },
    get dim() { return parse.table.dim; },
  };
}

function push(parse, chunk, onProgress) {
  if (parse.failed) throw parse.failed;
  if (parse.finished) throw new Error('push() after finish()');
  if (!(chunk instanceof Uint8Array)) throw new TypeError('chunk must be a Uint8Array');
  if (parse.table.full) return false;
  const going = parse.lines.push(chunk, parse.onLine);
  onProgress?.({ bytes: parse.lines.bytesSeen, lines: parse.lines.lineNumber, words: parse.table.words.length });
  return going;
}

function finish(parse, fail) {
  if (parse.failed) throw parse.failed;
  if (parse.finished) throw new Error('finish() called twice');
  parse.finished = true;
  const { table, reader, lines } = parse;
  lines.flush(table.full ? null : parse.onLine);
  if (lines.bytesSeen === 0) fail('the file is empty', { code: 'empty' });
  if (table.words.length === 0) {
    if (reader.errors.count > 0) {
      fail(`no readable vectors: none of the ${fmt(reader.dataLines)} lines is a "word v1 v2 …" line`, { code: 'no-vectors' });
    }
    fail(reader.header ? 'the file has a word2vec header but no vectors' : 'the file holds no vectors (only blank lines)', { code: 'empty' });
  }
  if (!(table.sumSquares > 0)) fail('every vector in the file is zero', { code: 'zero-vectors' });
  const statistics = table.statistics();
  return { bytes: table.pack(statistics), summary: summaryOf(parse, statistics) };
}

/** What the page shows about a parsed file (the worker hands it over with the bytes). */
function summaryOf({ table, reader, lines }, { componentRms, meanNorm }) {
  const { errors, header } = reader;
  return {
    format: reader.format,
    words: table.words.length,
    dim: table.dim,
    lines: lines.lineNumber,
    bytesRead: lines.bytesSeen,
    header: header ? { count: header.count, dim: header.dim } : null,
    skipped: errors.count,
    errors: errors.list.slice(),
    duplicates: table.duplicates,
    duplicateExamples: table.duplicateExamples,
    blankLines: reader.blankLines,
    zeroVectors: table.zeroVectors,
    truncated: table.full ? { atLine: table.full.line, reason: table.full.reason } : null,
    componentRms,
    meanNorm,
    notices: noticesOf(table, errors.count, header),
  };
}

// The summary's sentences: what was cut, skipped, ignored or odd about the file.
function noticesOf(table, skipped, header) {
  const { full, duplicates, zeroVectors, dim, maxValues } = table;
  const count = table.words.length;
  const notices = [];
  if (full) {
    notices.push(full.reason === 'maxWords'
      ? `Kept the first ${fmt(count)} words (the most this page loads); the rest of the file, from line ${fmt(full.line)}, was left out.`
      : `Kept the first ${fmt(count)} words: at ${dim} dimensions that is the most this page loads (${fmt(maxValues)} values); the rest of the file, from line ${fmt(full.line)}, was left out.`);
  }
  if (skipped > 0) notices.push(`Skipped ${fmt(skipped)} unreadable line${skipped === 1 ? '' : 's'}.`);
  if (duplicates > 0) notices.push(`Ignored ${fmt(duplicates)} repeated word${duplicates === 1 ? '' : 's'} (the first vector of each word is kept).`);
  if (zeroVectors > 0) notices.push(`${fmt(zeroVectors)} vector${zeroVectors === 1 ? ' is' : 's are'} all zeros.`);
  if (header && !full && header.count !== count + duplicates + skipped) {
    notices.push(`The header says ${fmt(header.count)} words; the file has ${fmt(count + duplicates + skipped)} word lines.`);
  }
  return notices;
}

/** Convenience: parses a whole file given as one Uint8Array or an iterable of chunks. */
export function parseTextVectors(input, options) {
  const parser = createTextVectorParser(options);
  const chunks = input instanceof Uint8Array ? [input] : input;
  for (const chunk of chunks) if (!parser.push(chunk)) break;
  return parser.finish();
}
