// What a word-vector text file may be: the limits, the error policy in words, and the error a
// refused file raises. The parser's parts and the page's picker read them here;
// vector-text.js re-exports them as the parser's public interface.

import { SCHEME_TABLE } from '../scheme-table.mjs';
import { grouped } from './numbers.js';

export const MAX_FILE_BYTES = 500e6;             // 500 MB (decimal, as the page shows sizes)
export const MAX_DIM = SCHEME_TABLE.limits.maxDim;  // the core's limit on d
export const MAX_WORDS = SCHEME_TABLE.limits.maxVectorWords;  // the core's limit on a file's words
export const DEFAULT_MAX_WORDS = 400000;
export const MAX_VALUES = 2 ** 25;               // words × dim kept: 32 MiB of int8, within the core's 64 MiB file limit (~9× that in wasm)
export const MAX_LINE_BYTES = 1 << 20;           // a longer line means this is not a vector file
export const SNIFF_BYTES = 65536;                // NUL bytes or invalid UTF-8 here: a binary file
export const MAX_REPORTED_ERRORS = 20;           // line errors listed (all are counted)

/** A loaded file's words as the page's status and the lab's source label give them: "NAME: 20,000 words, d = 100". */
export const vectorFileLabel = (name, { size, dim }) => `${name}: ${grouped(size)} words, d = ${dim}`;
export const TOLERATED_ERRORS = 10;              // unreadable lines always tolerated …
export const TOLERATED_ERROR_RATE = 0.01;        // … and beyond that, up to 1% of the lines read
// The core refuses per-vector scales above 1e6 (src/vectors/vectors.cpp), so a component may be at most
// 127e6 in magnitude; larger values make the line unreadable rather than the whole file.
export const MAX_COMPONENT = 127e6;

/** The error policy, in words, for the page to show. */
export const POLICY =
  'GloVe or word2vec text files: one "word v1 v2 … vd" line per word, values separated by spaces ' +
  '(word2vec\'s "count dim" first line is recognised). The dimension must be even and at most ' +
  `${MAX_DIM}. Unreadable lines (wrong number of values, a value that is not a finite number) are ` +
  'skipped and listed with their line numbers; the file is refused as soon as more than ' +
  `${TOLERATED_ERRORS} lines, and more than ${TOLERATED_ERROR_RATE * 100}% of the lines read, are ` +
  'unreadable, or if no line is readable. A repeated word keeps its first vector. At most ' +
  `${grouped(DEFAULT_MAX_WORDS)} words are kept (fewer at high dimensions); the page says when a file ` +
  'is cut short. Binary word2vec (.bin) files are not supported.';

/** A file the parser refuses. code: a stable identifier; errors: [{ line, reason }] (may be empty). */
export class VectorFileError extends Error {
  constructor(message, { code, errors = [], errorCount = errors.length, line } = {}) {
    super(message);
    this.name = 'VectorFileError';
    this.code = code;
    this.errors = errors;
    this.errorCount = errorCount;
    if (line !== undefined) this.line = line;
  }
}

/** A count as the page writes it (1,234,567). */
export const fmt = grouped;

export function oddDimensionMessage(dim) {
  return `dimension ${dim} is odd: positional encodings pair dimensions; use an even-dimensional file`;
}

/** Throws VectorFileError when a file of `size` bytes is refused before reading. */
export function checkFileSize(size) {
  if (size === 0) throw new VectorFileError('the file is empty', { code: 'empty' });
  if (size > MAX_FILE_BYTES) {
    throw new VectorFileError(
      `the file is ${fmt(Math.round(size / 1e6))} MB; at most ${fmt(MAX_FILE_BYTES / 1e6)} MB can be loaded`,
      { code: 'too-large' },
    );
  }
}
