// Bytes into lines for the word-vector parser: chunks arrive as a File streams them, and a line may
// straddle any number of chunks, so its start is carried (copied) until its newline comes. The first
// SNIFF_BYTES bytes are checked for a binary file on the way.

import { fmt, MAX_LINE_BYTES, SNIFF_BYTES } from './vector-file-rules.js';

const CR = 0x0d;
const LF = 0x0a;

/**
 * fail(message, details) throws the parser's VectorFileError. A line is handed on as
 * onLine(bytes, from, to, line, last) → false to stop reading: bytes[from, to) without its "\n",
 * its "\r" or (on line 1) a UTF-8 byte-order mark; line is 1-based; last: the file's final line,
 * with no newline after it.
 */
export class LineSplitter {
  constructor(fail) {
    this.fail = fail;
    this.bytesSeen = 0;       // bytes pushed so far
    this.lineNumber = 0;      // the last line handed on
    this.carry = null;        // bytes of an unfinished line (a copy)
    this.carryLength = 0;
    this.sniffDecoder = new TextDecoder('utf-8', { fatal: true });
  }

  /** Hands on every line the chunk completes, until onLine returns false; → whether it did not. */
  push(chunk, onLine) {
    const start = this.bytesSeen;
    this.bytesSeen += chunk.length;
    if (start < SNIFF_BYTES) this.sniff(chunk.subarray(0, Math.min(chunk.length, SNIFF_BYTES - start)), start);
    let pos = 0;
    while (pos < chunk.length) {
      const nl = chunk.indexOf(LF, pos);
      if (nl < 0) {
        this.appendCarry(chunk, pos, chunk.length);
        return true;
      }
      let going;
      if (this.carryLength > 0) {
        this.appendCarry(chunk, pos, nl);
        const length = this.carryLength;
        this.carryLength = 0;
        going = this.emit(this.carry, 0, length, false, onLine);
      } else {
        going = this.emit(chunk, pos, nl, false, onLine);
      }
      pos = nl + 1;
      if (!going) return false;
    }
    return true;
  }

  /** Hands on the final line if the file did not end with a newline (onLine null: drops it). */
  flush(onLine) {
    if (onLine && this.carryLength > 0) {
      const length = this.carryLength;
      this.carryLength = 0;
      this.emit(this.carry, 0, length, true, onLine);
    }
    this.carry = null;
  }

  emit(bytes, from, to, last, onLine) {
    const line = ++this.lineNumber;
    if (line === 1 && to - from >= 3 && bytes[from] === 0xef && bytes[from + 1] === 0xbb && bytes[from + 2] === 0xbf) from += 3;
    if (to > from && bytes[to - 1] === CR) to--;
    return onLine(bytes, from, to, line, last);
  }

  appendCarry(chunk, from, to) {
    const need = this.carryLength + (to - from);
    if (need > MAX_LINE_BYTES) {
      const line = this.lineNumber + 1;
      this.fail(`line ${fmt(line)} is longer than ${fmt(MAX_LINE_BYTES)} bytes: this does not look like a word-vector text file ` +
        '(one word and its values per line)', { code: 'line-too-long', line });
    }
    if (!this.carry || this.carry.length < need) {
      const grown = new Uint8Array(Math.min(MAX_LINE_BYTES, Math.max(need, 2 * (this.carry?.length ?? 0), 4096)));
      if (this.carryLength) grown.set(this.carry.subarray(0, this.carryLength));
      this.carry = grown;
    }
    this.carry.set(chunk.subarray(from, to), this.carryLength);
    this.carryLength = need;
  }

  // `part` of the file's first SNIFF_BYTES, from byte `start`, must be text: no NUL byte, valid UTF-8.
  sniff(part, start) {
    let text = part.indexOf(0) < 0;
    if (text) {
      try {
        this.sniffDecoder.decode(part, { stream: true });
      } catch {
        text = false;
      }
    }
    if (!text) this.fail(binaryRefusal(part, start), { code: 'binary' });
  }
}

// Why a file that is not UTF-8 text is refused, naming the formats its first bytes give away.
function binaryRefusal(part, start) {
  const first = start === 0 ? part : [];
  if (first.length >= 2 && ((first[0] === 0xff && first[1] === 0xfe) || (first[0] === 0xfe && first[1] === 0xff))) {
    return 'this file is UTF-16 text: save it as UTF-8 and load it again';
  }
  if (first.length >= 2 && first[0] === 0x1f && first[1] === 0x8b) {
    return 'this is a gzip-compressed file: decompress it first (e.g. gunzip) and load the text file';
  }
  if (first.length >= 4 && first[0] === 0x50 && first[1] === 0x4b && first[2] === 3 && first[3] === 4) {
    return 'this is a zip archive: extract the text file from it first';
  }
  return 'this looks like a binary file (word2vec .bin is not supported; convert it to text)';
}
