// The number scanner under the word-vector parser: the decimal values of one line, read straight
// from its bytes. It runs over every byte of a file of up to 500 MB, so its loops stay tight: no
// strings, and doubles are written into a Float64Array rather than returned (V8 would box them).

import * as rules from './vector-file-rules.js';

// Module-local constants, never imported or exported ones, in the loops: V8 reads an imported or
// exported binding through its module cell at every use, which slows the scan measurably.
const MAX_DIM = rules.MAX_DIM;
const MAX_COMPONENT = rules.MAX_COMPONENT;
const SPACE = 0x20;
const TAB = 0x09;
const PLUS = 0x2b;
const MINUS = 0x2d;
const DOT = 0x2e;
const ZERO = 0x30;
// Exact powers of ten (10^0 … 10^22 are exact doubles: Clinger's fast path is correctly rounded).
const POW10 = Array.from({ length: 23 }, (_, i) => 10 ** i);
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** Whether byte b separates values (a space or a tab). */
export const isBlank = (b) => b === SPACE || b === TAB;

// scanExponent's result: the exponent, clamped to at most 6 digits, and 1 when it had a digit
// (0 when the 'e' was followed by none).
const exponentScan = new Int32Array(2);

// Parses the space- or tab-separated decimal numbers in bytes[p, end) into out[0 … MAX_DIM]
// (further ones are only counted) and returns how many there are. state[0] = index of the first
// value that is not a number, is not finite or is beyond ±MAX_COMPONENT (−1 if none), state[1] and
// state[2] its byte range. A number has an optional sign, digits with an optional fraction and an
// optional exponent; up to 15 significant digits and |exponent| ≤ 22 it is correctly rounded
// (Clinger's fast path), anything longer goes through Number(), which is correct too.
// Integer and fraction digits are read in one loop: the first '.' switches to the fraction, where
// each kept digit lowers the exponent; in the integer part each digit dropped past 15 raises it.
// The digit loop and the value's arithmetic stay inline: they run for every byte and every number
// (bench/byo-parse.mjs times the parser).
export function scanValues(bytes, p, end, out, state) {
  let count = 0;
  state[0] = -1;
  for (;;) {
    let c = 0;
    while (p < end && ((c = bytes[p]) === SPACE || c === TAB)) p++;
    if (p >= end) return count;
    const start = p;
    let negative = false;
    if (c === MINUS) { negative = true; p++; } else if (c === PLUS) p++;
    let mantissa = 0;
    let digits = 0;
    let exponent = 0;
    let any = false;
    let slow = false;
    let ok = true;
    let fraction = false;
    for (; p < end; p++) {
      const d = bytes[p] - ZERO;
      if (d < 0 || d > 9) {
        if (bytes[p] !== DOT || fraction) break;
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
      p = scanExponent(bytes, p + 1, end);
      if (exponentScan[1] === 0) ok = false;
      exponent += exponentScan[0];
    }
    if (p < end && (c = bytes[p]) !== SPACE && c !== TAB) {
      ok = false; // something else follows: skip the rest of the token
      p = tokenEnd(bytes, p, end);
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
      if (state[0] < 0 && !(Math.abs(v) <= MAX_COMPONENT)) flag(state, count, start, p);
    }
    count++;
  }
}

// The first bad value: its index and byte range (see scanValues).
function flag(state, index, start, end) {
  state[0] = index;
  state[1] = start;
  state[2] = end;
}

// The end of a token that is not a number: the next blank, or `end`.
function tokenEnd(bytes, p, end) {
  let c = 0;
  while (p < end && (c = bytes[p]) !== SPACE && c !== TAB) p++;
  return p;
}

// The exponent after an 'e' from bytes[p]: its value into exponentScan (see there), the position
// after its digits returned.
function scanExponent(bytes, p, end) {
  let negative = false;
  if (p < end && bytes[p] === MINUS) { negative = true; p++; } else if (p < end && bytes[p] === PLUS) p++;
  let e = 0;
  let digits = 0;
  for (; p < end; p++) {
    const d = bytes[p] - ZERO;
    if (d < 0 || d > 9) break;
    if (e < 100000) e = e * 10 + d;
    digits++;
  }
  exponentScan[0] = negative ? -e : e;
  exponentScan[1] = digits > 0 ? 1 : 0;
  return p;
}

function slowNumber(bytes, from, to) {
  let text = '';
  for (let i = from; i < to && i < from + 400; i++) text += String.fromCharCode(bytes[i]);
  return to - from <= 400 && DECIMAL.test(text) ? Number(text) : NaN;
}
