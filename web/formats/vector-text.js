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
// Formats: GloVe (`word v1 … vd` per line) and word2vec text (the same after a `count dim` header
// line). Bytes are split into lines as they arrive (a line may straddle any number of chunks);
// CRLF, a missing final newline, a UTF-8 byte-order mark and blank lines are accepted. Words are
// kept exactly as written (no lowercasing); values are separated by spaces or tabs.
//
// Quantization is the one data/README.md describes: per vector scale = fround(max|v| / 127),
// q = round-half-away-from-zero(v / scale) clamped to [−127, 127], so each component errs by at
// most scale/2. component_rms and mean_norm come from the original (float64-parsed) values of the
// vectors that are kept.

import { SCHEME_TABLE } from '../scheme-table.mjs';

export const MAX_FILE_BYTES = 500e6;             // 500 MB (decimal, as the page shows sizes)
export const MAX_DIM = SCHEME_TABLE.limits.maxDim;  // the core's limit on d
const MAX_WORDS = SCHEME_TABLE.limits.maxVectorWords;  // the core's limit on a file's words
export const DEFAULT_MAX_WORDS = 400000;
export const MAX_VALUES = 2 ** 25;               // words × dim kept: 32 MiB of int8, within the core's 64 MiB file limit (~9× that in wasm)
export const MAX_LINE_BYTES = 1 << 20;           // a longer line means this is not a vector file
export const SNIFF_BYTES = 65536;                // NUL bytes or invalid UTF-8 here: a binary file
export const MAX_REPORTED_ERRORS = 20;           // line errors listed (all are counted)
export const TOLERATED_ERRORS = 10;              // unreadable lines always tolerated …
export const TOLERATED_ERROR_RATE = 0.01;        // … and beyond that, up to 1% of the lines read

/** The error policy, in words, for the page to show. */
export const POLICY =
  'GloVe or word2vec text files: one "word v1 v2 … vd" line per word, values separated by spaces ' +
  '(word2vec\'s "count dim" first line is recognised). The dimension must be even and at most ' +
  `${MAX_DIM}. Unreadable lines (wrong number of values, a value that is not a finite number) are ` +
  'skipped and listed with their line numbers; the file is refused as soon as more than ' +
  `${TOLERATED_ERRORS} lines, and more than ${TOLERATED_ERROR_RATE * 100}% of the lines read, are ` +
  'unreadable, or if no line is readable. A repeated word keeps its first vector. At most ' +
  `${DEFAULT_MAX_WORDS.toLocaleString('en-US')} words are kept (fewer at high dimensions); the page says when a file ` +
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

const fmt = (n) => n.toLocaleString('en-US');

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

const SPACE = 0x20;
const TAB = 0x09;
const CR = 0x0d;
const LF = 0x0a;
const isBlank = (b) => b === SPACE || b === TAB;
// Exact powers of ten (10^0 … 10^22 are exact doubles: Clinger's fast path is correctly rounded).
const POW10 = Array.from({ length: 23 }, (_, i) => 10 ** i);
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
// The core refuses per-vector scales above 1e6 (src/vectors/vectors.cpp), so a component may be at most
// 127e6 in magnitude; larger values make the line unreadable rather than the whole file.
const MAX_COMPONENT = 127e6;

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

  const wordDecoder = new TextDecoder('utf-8', { fatal: true });
  const sniffDecoder = new TextDecoder('utf-8', { fatal: true });

  let bytesSeen = 0;       // bytes pushed so far
  let carry = null;        // bytes of an unfinished line (a copy)
  let carryLength = 0;
  let lineNumber = 0;      // 1-based number of the last line handled
  let dataLines = 0;       // non-blank, non-header lines
  let blankLines = 0;
  let header = null;       // { count, dim, line } for word2vec text
  let format = null;
  let dim = 0;             // 0 until the first readable line (or the header) sets it
  let dimLine = 0;         // the line that set it
  let wordCap = maxWords;  // words kept at most (maxWords, or fewer so that words × dim ≤ maxValues)
  let full = null;         // { line, reason } once wordCap words are kept
  let finished = false;
  let failed = null;

  const errors = [];       // the first MAX_REPORTED_ERRORS line errors
  let errorCount = 0;
  let wrongCountErrors = 0;
  let firstWrongCount = null;

  const words = [];
  const seen = new Set();
  let duplicates = 0;
  const duplicateExamples = [];
  let zeroVectors = 0;
  let scales = new Float32Array(1024);
  let values = null;       // Int8Array, allocated once dim is known
  let sumSquares = 0;
  let sumNorms = 0;
  const row = new Float64Array(MAX_DIM + 1); // the current line's values
  const scan = new Int32Array(3);             // scanValues' report of the first bad value

  function fail(message, details) {
    failed = new VectorFileError(message, {
      errors: errors.slice(), errorCount, ...details,
    });
    throw failed;
  }

  function push(chunk) {
    if (failed) throw failed;
    if (finished) throw new Error('push() after finish()');
    if (!(chunk instanceof Uint8Array)) throw new TypeError('chunk must be a Uint8Array');
    if (full) return false;
    const start = bytesSeen;
    bytesSeen += chunk.length;
    sniff(chunk, start);

    let pos = 0;
    while (pos < chunk.length && !full) {
      const nl = chunk.indexOf(LF, pos);
      if (nl < 0) {
        appendCarry(chunk, pos, chunk.length);
        break;
      }
      if (carryLength > 0) {
        appendCarry(chunk, pos, nl);
        const line = carry;
        const length = carryLength;
        carryLength = 0;
        handleLine(line, 0, length, false);
      } else {
        handleLine(chunk, pos, nl, false);
      }
      pos = nl + 1;
    }
    onProgress?.({ bytes: bytesSeen, lines: lineNumber, words: words.length });
    return !full;
  }

  // The first SNIFF_BYTES bytes of the file must be text: no NUL byte, valid UTF-8.
  function sniff(chunk, start) {
    if (start >= SNIFF_BYTES) return;
    const part = chunk.subarray(0, Math.min(chunk.length, SNIFF_BYTES - start));
    const binary = () => {
      if (start === 0 && part.length >= 2 && ((part[0] === 0xff && part[1] === 0xfe) || (part[0] === 0xfe && part[1] === 0xff))) {
        fail('this file is UTF-16 text: save it as UTF-8 and load it again', { code: 'binary' });
      }
      if (part.length >= 2 && start === 0 && part[0] === 0x1f && part[1] === 0x8b) {
        fail('this is a gzip-compressed file: decompress it first (e.g. gunzip) and load the text file', { code: 'binary' });
      }
      if (part.length >= 4 && start === 0 && part[0] === 0x50 && part[1] === 0x4b && part[2] === 3 && part[3] === 4) {
        fail('this is a zip archive: extract the text file from it first', { code: 'binary' });
      }
      fail('this looks like a binary file (word2vec .bin is not supported; convert it to text)', { code: 'binary' });
    };
    if (part.indexOf(0) >= 0) binary();
    try {
      sniffDecoder.decode(part, { stream: true });
    } catch {
      binary();
    }
  }

  function appendCarry(chunk, from, to) {
    const need = carryLength + (to - from);
    if (need > MAX_LINE_BYTES) {
      fail(`line ${fmt(lineNumber + 1)} is longer than ${fmt(MAX_LINE_BYTES)} bytes: this does not look like a word-vector text file ` +
        '(one word and its values per line)', { code: 'line-too-long', line: lineNumber + 1 });
    }
    if (!carry || carry.length < need) {
      const grown = new Uint8Array(Math.min(MAX_LINE_BYTES, Math.max(need, 2 * (carry?.length ?? 0), 4096)));
      if (carryLength) grown.set(carry.subarray(0, carryLength));
      carry = grown;
    }
    carry.set(chunk.subarray(from, to), carryLength);
    carryLength = need;
  }

  function lineError(line, reason, wrongCount) {
    errorCount++;
    if (errors.length < MAX_REPORTED_ERRORS) errors.push({ line, reason });
    if (wrongCount) {
      wrongCountErrors++;
      firstWrongCount ??= { line, found: wrongCount.found };
    }
    if (errorCount > TOLERATED_ERRORS && errorCount > TOLERATED_ERROR_RATE * Math.max(dataLines, 1)) {
      if (firstWrongCount && 2 * wrongCountErrors >= errorCount && dim) {
        const first = firstWrongCount;
        const where = header ? `the header (line ${header.line}) says ${dim} dimensions` : `line ${fmt(dimLine)} has ${dim} values`;
        fail(`inconsistent dimensions: ${where}, but line ${fmt(first.line)} has ${fmt(first.found)} ` +
          `(${fmt(wrongCountErrors)} of ${fmt(dataLines)} lines read disagree)`, { code: 'inconsistent-dimension', line: first.line });
      }
      fail(`too many unreadable lines: ${fmt(errorCount)} of the ${fmt(dataLines)} lines read ` +
        `(more than ${TOLERATED_ERRORS} and more than ${TOLERATED_ERROR_RATE * 100}%); is this a GloVe or word2vec text file?`,
      { code: 'too-many-errors' });
    }
  }

  const quote = (bytes, from, to) => {
    const text = new TextDecoder().decode(bytes.subarray(from, Math.min(to, from + 24)));
    return `'${text}${to - from > 24 ? '…' : ''}'`;
  };

  // One line: bytes[from, to) without its "\n". last: the file's final line, with no newline.
  function handleLine(bytes, from, to, last) {
    const line = ++lineNumber;
    if (line === 1 && to - from >= 3 && bytes[from] === 0xef && bytes[from + 1] === 0xbb && bytes[from + 2] === 0xbf) from += 3;
    if (to > from && bytes[to - 1] === CR) to--;
    let end = to;
    while (end > from && isBlank(bytes[end - 1])) end--;
    if (end === from) {
      blankLines++;
      return;
    }
    // The word: everything up to the first space or tab.
    if (isBlank(bytes[from])) {
      dataLines++;
      lineError(line, 'the line starts with a space, so its word is empty');
      return;
    }
    let p = from;
    let nul = false;
    for (; p < end; p++) {
      const b = bytes[p];
      if (b === SPACE || b === TAB) break;
      if (b === 0) nul = true;
    }
    const wordEnd = p;

    // Values.
    const count = scanValues(bytes, p, end, row, scan);
    let bad = null;
    if (scan[0] >= 0) {
      const index = scan[0];
      const tokenStart = scan[1];
      const tokenEnd = scan[2];
      const text = new TextDecoder().decode(bytes.subarray(tokenStart, tokenEnd)).toLowerCase().replace(/^[+-]/, '');
      const v = row[index];
      bad = `value ${index + 1} (${quote(bytes, tokenStart, tokenEnd)}) is ` + (
        /^(nan|inf|infinity)$/.test(text) || (!Number.isNaN(v) && !Number.isFinite(v)) ? 'not a finite number'
          : Number.isNaN(v) ? 'not a number' : 'beyond ±1.27e8, the largest component this page stores');
    }

    // word2vec text: a first line of two non-negative integers is its "count dim" header.
    if (dataLines === 0 && header === null && format === null && count === 1 && bad === null) {
      const a = bytes.subarray(from, wordEnd);
      if (a.every((b) => b >= 0x30 && b <= 0x39) && Number.isInteger(row[0]) && row[0] >= 0 && isDigits(bytes, wordEnd, end)) {
        header = { count: Number(new TextDecoder().decode(a)), dim: row[0], line };
        format = 'word2vec';
        setDim(row[0], line);
        return;
      }
    }

    dataLines++;
    if (nul) {
      lineError(line, 'the word contains a NUL byte');
      return;
    }
    let word;
    try {
      word = wordDecoder.decode(bytes.subarray(from, wordEnd));
    } catch {
      lineError(line, 'the word is not valid UTF-8');
      return;
    }
    if (count === 0) {
      lineError(line, `no values after the word${last ? ' (the file may be truncated)' : ''}`);
      return;
    }
    if (dim === 0) {
      if (bad !== null) {
        lineError(line, bad);
        return;
      }
      format ??= 'glove';
      setDim(count, line);
    } else if (count !== dim) {
      if (header && words.length === 0 && errorCount === 0 && !last) {
        fail(`inconsistent dimensions: the header (line ${header.line}) says ${dim} dimensions, but line ${fmt(line)} has ${fmt(count)} values`,
          { code: 'inconsistent-dimension', line });
      }
      const truncated = last && count < dim ? ' (the file may be truncated)' : '';
      lineError(line, `expected ${dim} values after the word, found ${fmt(count)}${truncated}`, { found: count });
      return;
    }
    if (bad !== null) {
      lineError(line, bad);
      return;
    }
    if (seen.has(word)) {
      duplicates++;
      if (duplicateExamples.length < 5) duplicateExamples.push({ line, word });
      return;
    }
    if (words.length >= wordCap) {
      full = { line, reason: wordCap === maxWords ? 'maxWords' : 'maxValues' };
      return;
    }
    keep(word);
  }

  function isDigits(bytes, from, to) {
    let p = from;
    while (p < to && isBlank(bytes[p])) p++;
    if (p === to) return false;
    for (; p < to; p++) if (bytes[p] < 0x30 || bytes[p] > 0x39) return false;
    return true;
  }

  function setDim(d, line) {
    if (d === 0) fail(`the word2vec header (line ${line}) says the dimension is 0`, { code: 'bad-header', line });
    if (d > MAX_DIM) fail(`dimension ${fmt(d)} is larger than ${fmt(MAX_DIM)}, the most PosEnc Lab handles`, { code: 'dimension-too-large', line });
    if (d % 2 !== 0) fail(oddDimensionMessage(d), { code: 'odd-dimension', line });
    dim = d;
    dimLine = line;
    wordCap = Math.min(maxWords, Math.floor(maxValues / dim));
    const initial = Math.max(1, Math.min(wordCap, header?.count || 1024, 1 << 16));
    values = new Int8Array(initial * dim);
    if (scales.length < initial) scales = new Float32Array(initial);
  }

  function keep(word) {
    const i = words.length;
    if (i >= scales.length) {
      const grown = new Float32Array(Math.min(wordCap, 2 * scales.length));
      grown.set(scales);
      scales = grown;
    }
    if ((i + 1) * dim > values.length) {
      const grown = new Int8Array(Math.min(wordCap, 2 * (values.length / dim)) * dim);
      grown.set(values);
      values = grown;
    }
    const r = row;
    const out = values;
    const d = dim;
    let maxAbs = 0;
    let n2 = 0;
    for (let j = 0; j < d; j++) {
      const v = r[j];
      const a = Math.abs(v);
      if (a > maxAbs) maxAbs = a;
      n2 += v * v;
    }
    const base = i * dim;
    if (maxAbs === 0) {
      zeroVectors++;
      scales[i] = 0;
      out.fill(0, base, base + d);
    } else {
      const scale = Math.fround(maxAbs / 127);
      scales[i] = scale;
      for (let j = 0; j < d; j++) {
        const x = r[j] / scale;
        let q = x < 0 ? -Math.floor(-x + 0.5) : Math.floor(x + 0.5);
        if (q > 127) q = 127;
        else if (q < -127) q = -127;
        out[base + j] = q;
      }
    }
    sumSquares += n2;
    sumNorms += Math.sqrt(n2);
    words.push(word);
    seen.add(word);
  }

  function finish() {
    if (failed) throw failed;
    if (finished) throw new Error('finish() called twice');
    finished = true;
    if (!full && carryLength > 0) {
      const length = carryLength;
      carryLength = 0;
      handleLine(carry, 0, length, true);
    }
    carry = null;
    if (bytesSeen === 0) fail('the file is empty', { code: 'empty' });
    if (words.length === 0) {
      if (errorCount > 0) {
        fail(`no readable vectors: none of the ${fmt(dataLines)} lines is a "word v1 v2 …" line`, { code: 'no-vectors' });
      }
      fail(header ? 'the file has a word2vec header but no vectors' : 'the file holds no vectors (only blank lines)', { code: 'empty' });
    }
    if (!(sumSquares > 0)) fail('every vector in the file is zero', { code: 'zero-vectors' });

    const count = words.length;
    const componentRms = Math.sqrt(sumSquares / (count * dim));
    const meanNorm = sumNorms / count;
    if (!(Math.fround(componentRms) > 0) || !Number.isFinite(Math.fround(componentRms)) || !Number.isFinite(Math.fround(meanNorm))) {
      fail('the vectors are too large or too small to store as float32 statistics', { code: 'out-of-range' });
    }
    const vocabulary = new TextEncoder().encode(words.join('\n'));
    const padded = (vocabulary.length + 3) & ~3;
    const scalesAt = 24 + padded;
    const valuesAt = scalesAt + 4 * count;
    const size = valuesAt + count * dim + 8;
    const out = new Uint8Array(size);
    const view = new DataView(out.buffer);
    out.set([0x50, 0x45, 0x4c, 0x56, 0x45, 0x43, 0x30, 0x31]); // PELVEC01
    view.setUint32(8, count, true);
    view.setUint32(12, dim, true);
    view.setUint32(16, vocabulary.length, true);
    view.setUint32(20, 0, true);
    out.set(vocabulary, 24);
    for (let i = 0; i < count; i++) view.setFloat32(scalesAt + 4 * i, scales[i], true);
    out.set(new Uint8Array(values.buffer, 0, count * dim), valuesAt);
    view.setFloat32(size - 8, componentRms, true);
    view.setFloat32(size - 4, meanNorm, true);

    const notices = [];
    if (full) {
      notices.push(full.reason === 'maxWords'
        ? `Kept the first ${fmt(count)} words (the most this page loads); the rest of the file, from line ${fmt(full.line)}, was left out.`
        : `Kept the first ${fmt(count)} words: at ${dim} dimensions that is the most this page loads (${fmt(maxValues)} values); the rest of the file, from line ${fmt(full.line)}, was left out.`);
    }
    if (errorCount > 0) notices.push(`Skipped ${fmt(errorCount)} unreadable line${errorCount === 1 ? '' : 's'}.`);
    if (duplicates > 0) notices.push(`Ignored ${fmt(duplicates)} repeated word${duplicates === 1 ? '' : 's'} (the first vector of each word is kept).`);
    if (zeroVectors > 0) notices.push(`${fmt(zeroVectors)} vector${zeroVectors === 1 ? ' is' : 's are'} all zeros.`);
    if (header && !full && header.count !== count + duplicates + errorCount) {
      notices.push(`The header says ${fmt(header.count)} words; the file has ${fmt(count + duplicates + errorCount)} word lines.`);
    }
    const summary = {
      format,
      words: count,
      dim,
      lines: lineNumber,
      bytesRead: bytesSeen,
      header: header ? { count: header.count, dim: header.dim } : null,
      skipped: errorCount,
      errors: errors.slice(),
      duplicates,
      duplicateExamples,
      blankLines,
      zeroVectors,
      truncated: full ? { atLine: full.line, reason: full.reason } : null,
      componentRms: Math.fround(componentRms),
      meanNorm: Math.fround(meanNorm),
      notices,
    };
    return { bytes: out, summary };
  }

  return {
    push,
    finish,
    get full() { return full !== null; },
    get lines() { return lineNumber; },
    get words() { return words.length; },
    get dim() { return dim; },
  };
}

// Parses the space- or tab-separated decimal numbers in bytes[p, end) into out[0 … MAX_DIM]
// (further ones are only counted) and returns how many there are. state[0] = index of the first
// value that is not a number, is not finite or is beyond ±MAX_COMPONENT (−1 if none), state[1] and
// state[2] its byte range. One pass over the bytes, writing doubles into a Float64Array (V8
// would box returned doubles). A number has an optional sign, digits with an optional fraction
// and an optional exponent; up to 15 significant digits and |exponent| ≤ 22 it is correctly
// rounded (Clinger's fast path), anything longer goes through Number(), which is correct too.
export function scanValues(bytes, p, end, out, state) {
  let count = 0;
  state[0] = -1;
  for (;;) {
    let c = 0;
    while (p < end && ((c = bytes[p]) === SPACE || c === TAB)) p++;
    if (p >= end) return count;
    const start = p;
    let negative = false;
    if (c === 0x2d) { negative = true; p++; } else if (c === 0x2b) p++;
    let mantissa = 0;
    let digits = 0;
    let exponent = 0;
    let any = false;
    let slow = false;
    let ok = true;
    // Integer and fraction digits in one loop: the first '.' switches to the fraction, where each
    // kept digit lowers the exponent; in the integer part each digit dropped past 15 raises it.
    let fraction = false;
    for (; p < end; p++) {
      const d = bytes[p] - 0x30;
      if (d < 0 || d > 9) {
        if (bytes[p] !== 0x2e || fraction) break;
        fraction = true;
        continue;
      }
      any = true;
      if (digits < 15) {
        mantissa = mantissa * 10 + d;
        if (mantissa > 0) digits++;
        if (fraction) exponent--;
      } else {
        if (!fraction) exponent++;
        if (d !== 0) slow = true;
      }
    }
    if (p < end && (bytes[p] === 0x65 || bytes[p] === 0x45) && any) {
      p++;
      let expNegative = false;
      if (p < end && bytes[p] === 0x2d) { expNegative = true; p++; } else if (p < end && bytes[p] === 0x2b) p++;
      let e = 0;
      let expDigits = 0;
      for (; p < end; p++) {
        const d = bytes[p] - 0x30;
        if (d < 0 || d > 9) break;
        if (e < 100000) e = e * 10 + d;
        expDigits++;
      }
      if (expDigits === 0) ok = false;
      exponent += expNegative ? -e : e;
    }
    if (p < end && (c = bytes[p]) !== SPACE && c !== TAB) {
      ok = false; // something else follows: skip the rest of the token
      while (p < end && (c = bytes[p]) !== SPACE && c !== TAB) p++;
    }
    if (count <= MAX_DIM) {
      let v = NaN;
      if (ok && any) {
        if (slow || exponent > 22 || exponent < -22) {
          v = slowNumber(bytes, start, p);
        } else {
          v = exponent >= 0 ? mantissa * POW10[exponent] : mantissa / POW10[-exponent];
          if (negative) v = -v;
        }
      }
      out[count] = v;
      if (state[0] < 0 && !(Math.abs(v) <= MAX_COMPONENT)) {
        state[0] = count;
        state[1] = start;
        state[2] = p;
      }
    }
    count++;
  }
}

function slowNumber(bytes, from, to) {
  let text = '';
  for (let i = from; i < to && i < from + 400; i++) text += String.fromCharCode(bytes[i]);
  return to - from <= 400 && DECIMAL.test(text) ? Number(text) : NaN;
}

/** Convenience: parses a whole file given as one Uint8Array or an iterable of chunks. */
export function parseTextVectors(input, options) {
  const parser = createTextVectorParser(options);
  const chunks = input instanceof Uint8Array ? [input] : input;
  for (const chunk of chunks) if (!parser.push(chunk)) break;
  return parser.finish();
}
