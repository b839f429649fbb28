// One line of a word-vector text file at a time: a word and its values become a kept vector, a
// word2vec "count dim" first line the header, anything else a line error, counted against the
// error policy (vector-file-rules.js). Formats: GloVe (`word v1 … vd` per line) and word2vec text
// (the same after the header). Words are kept exactly as written (no lowercasing); values are
// separated by spaces or tabs.

import {
  fmt, MAX_DIM, MAX_REPORTED_ERRORS, TOLERATED_ERROR_RATE, TOLERATED_ERRORS,
} from './vector-file-rules.js';
import { isBlank, scanValues } from './decimal-scan.js';

/** The unreadable lines: the first MAX_REPORTED_ERRORS listed, all counted. */
export class LineErrors {
  constructor() {
    this.list = [];           // [{ line, reason }]
    this.count = 0;
    this.wrongCount = 0;      // of them, lines with the wrong number of values
    this.firstWrongCount = null; // { line, found }
  }

  add(line, reason, found) {
    this.count++;
    if (this.list.length < MAX_REPORTED_ERRORS) this.list.push({ line, reason });
    if (found !== undefined) {
      this.wrongCount++;
      this.firstWrongCount ??= { line, found };
    }
  }

  /** Whether the policy refuses the file after `dataLines` word lines. */
  beyondTolerance(dataLines) {
    return this.count > TOLERATED_ERRORS && this.count > TOLERATED_ERROR_RATE * Math.max(dataLines, 1);
  }
}

/** Reads lines into `table` (a VectorTable), errors into `errors`; fail(message, details) throws. */
export class VectorLineReader {
  constructor(table, errors, fail) {
    this.table = table;
    this.errors = errors;
    this.fail = fail;
    this.header = null;       // { count, dim, line } for word2vec text
    this.format = null;       // 'glove' | 'word2vec' once known
    this.dataLines = 0;       // non-blank, non-header lines
    this.blankLines = 0;
    this.row = new Float64Array(MAX_DIM + 1); // the current line's values
    this.scan = new Int32Array(3);             // scanValues' report of the first bad value
    this.wordDecoder = new TextDecoder('utf-8', { fatal: true });
  }

  /** One line (LineSplitter's onLine, bar the return value). */
  read(bytes, from, to, line, last) {
    let end = to;
    while (end > from && isBlank(bytes[end - 1])) end--;
    if (end === from) {
      this.blankLines++;
      return;
    }
    if (isBlank(bytes[from])) {
      this.dataLines++;
      this.lineError(line, 'the line starts with a space, so its word is empty');
      return;
    }
    // The word: everything up to the first space or tab.
    let wordEnd = from;
    while (wordEnd < end && !isBlank(bytes[wordEnd])) wordEnd++;
    const count = scanValues(bytes, wordEnd, end, this.row, this.scan);
    const bad = this.scan[0] >= 0 ? badValue(bytes, this.row, this.scan) : null;
    if (this.dataLines === 0 && this.format === null && count === 1 && bad === null && isHeader(bytes, from, wordEnd, end, this.row[0])) {
      this.readHeader(bytes.subarray(from, wordEnd), line);
      return;
    }
    this.dataLines++;
    const word = this.wordOf(bytes.subarray(from, wordEnd), line);
    if (word !== null && this.valuesFit(line, count, bad, last)) this.table.offer(word, this.row, line);
  }

  // word2vec text: a first line of two non-negative integers is its "count dim" header.
  readHeader(countBytes, line) {
    const dim = this.row[0];
    this.header = { count: Number(new TextDecoder().decode(countBytes)), dim, line };
    this.format = 'word2vec';
    this.table.setDim(dim, line, this.header.count);
  }

  /** The word as text, or null (and a line error) when it holds a NUL byte or is not UTF-8. */
  wordOf(wordBytes, line) {
    if (wordBytes.includes(0)) {
      this.lineError(line, 'the word contains a NUL byte');
      return null;
    }
    try {
      return this.wordDecoder.decode(wordBytes);
    } catch {
      this.lineError(line, 'the word is not valid UTF-8');
      return null;
    }
  }

  // Whether the line's `count` values can be kept (bad: why one of them cannot, or null); reports
  // why not. The first readable line fixes the dimension of a file without a header.
  valuesFit(line, count, bad, last) {
    const { table } = this;
    if (count === 0) {
      this.lineError(line, `no values after the word${last ? ' (the file may be truncated)' : ''}`);
      return false;
    }
    if (table.dim !== 0 && count !== table.dim) {
      this.dimensionMismatch(line, count, last);
      return false;
    }
    if (bad !== null) {
      this.lineError(line, bad);
      return false;
    }
    if (table.dim === 0) {
      this.format ??= 'glove';
      table.setDim(count, line);
    }
    return true;
  }

  // A line whose values disagree with the dimension: refused at once when it is the first line
  // after a header, else a line error.
  dimensionMismatch(line, count, last) {
    const { dim } = this.table;
    if (this.header && this.table.words.length === 0 && this.errors.count === 0 && !last) {
      this.fail(`inconsistent dimensions: the header (line ${this.header.line}) says ${dim} dimensions, but line ${fmt(line)} has ${fmt(count)} values`,
        { code: 'inconsistent-dimension', line });
    }
    const truncated = last && count < dim ? ' (the file may be truncated)' : '';
    this.lineError(line, `expected ${dim} values after the word, found ${fmt(count)}${truncated}`, count);
  }

  // found: the number of values, when that is what is wrong.
  lineError(line, reason, found) {
    this.errors.add(line, reason, found);
    if (this.errors.beyondTolerance(this.dataLines)) this.refuse();
  }

  // Too many unreadable lines: mostly wrong counts say the dimensions are inconsistent.
  refuse() {
    const { errors, table, dataLines } = this;
    if (errors.firstWrongCount && 2 * errors.wrongCount >= errors.count && table.dim) {
      const first = errors.firstWrongCount;
      const where = this.header ? `the header (line ${this.header.line}) says ${table.dim} dimensions` : `line ${fmt(table.dimLine)} has ${table.dim} values`;
      this.fail(`inconsistent dimensions: ${where}, but line ${fmt(first.line)} has ${fmt(first.found)} ` +
        `(${fmt(errors.wrongCount)} of ${fmt(dataLines)} lines read disagree)`, { code: 'inconsistent-dimension', line: first.line });
    }
    this.fail(`too many unreadable lines: ${fmt(errors.count)} of the ${fmt(dataLines)} lines read ` +
      `(more than ${TOLERATED_ERRORS} and more than ${TOLERATED_ERROR_RATE * 100}%); is this a GloVe or word2vec text file?`,
    { code: 'too-many-errors' });
  }
}

// "count dim": the word is digits, the one value a non-negative integer spelled in digits alone.
function isHeader(bytes, from, wordEnd, end, value) {
  for (let p = from; p < wordEnd; p++) if (bytes[p] < 0x30 || bytes[p] > 0x39) return false;
  if (!(Number.isInteger(value) && value >= 0)) return false;
  let p = wordEnd;
  while (p < end && isBlank(bytes[p])) p++;
  if (p === end) return false;
  for (; p < end; p++) if (bytes[p] < 0x30 || bytes[p] > 0x39) return false;
  return true;
}

const quote = (bytes, from, to) => {
  const text = new TextDecoder().decode(bytes.subarray(from, Math.min(to, from + 24)));
  return `'${text}${to - from > 24 ? '…' : ''}'`;
};

// Why the value scanValues flagged in scan (index, byte range) cannot be kept.
function badValue(bytes, row, scan) {
  const [index, tokenStart, tokenEnd] = scan;
  const text = new TextDecoder().decode(bytes.subarray(tokenStart, tokenEnd)).toLowerCase().replace(/^[+-]/, '');
  const v = row[index];
  return `value ${index + 1} (${quote(bytes, tokenStart, tokenEnd)}) is ` + (
    /^(nan|inf|infinity)$/.test(text) || (!Number.isNaN(v) && !Number.isFinite(v)) ? 'not a finite number'
      : Number.isNaN(v) ? 'not a number' : 'beyond ±1.27e8, the largest component this page stores');
}
