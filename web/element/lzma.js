// LZMA decoder (the .lzma "alone" format that `xz --format=lzma` writes), for the wasm cores
// that scripts/bundle-element.mjs stores inside dist/posenc-lab.js (bundle-only: scripts/build
// does not ship this file). Decoding follows the LZMA specification in the LZMA SDK
// (lzma-specification.txt): range decoder, adaptive binary probabilities, literal / match /
// rep-match packets.
//
//   decodeLzma(input: Uint8Array, size: number) → Uint8Array(size)
//
// input: a 13-byte header (properties byte, dictionary size, uncompressed size or all ones)
// then the range-coded data. Decoding stops after exactly `size` bytes — the stream may go on
// (the bundle puts both cores in one stream, SIMD first, so a SIMD browser decodes only its own).
// A malformed stream, or one that ends before `size` bytes, throws an Error; nothing is read or
// written out of bounds.
//
// Why LZMA and not DEFLATE: both cores share most of their code (tokenizer, vector files, PCA,
// embind, malloc); LZMA's window spans the first core while coding the second, DEFLATE's 32 KiB
// window does not — one stream of both is ~45% smaller than two DEFLATE streams.

const PROB_INIT = 1024;       // probabilities are 11-bit: 1024 = one half
const STATES = 12;
const POS_STATES_MAX = 16;    // pb ≤ 4
const END_POS_MODEL = 14;     // distance slots below this use the probability-coded tail bits
const FULL_DISTANCES = 128;
const ALIGN_BITS = 4;
const MATCH_MIN = 2;

/** The range decoder over input[offset…]; every bit is one adaptive or direct decision. */
class RangeDecoder {
  constructor(input, offset) {
    this.input = input;
    this.pos = offset;
    if (this.next() !== 0) throw new Error('lzma: bad range coder start');
    this.range = 0xffffffff;
    this.code = 0;
    for (let i = 0; i < 4; i++) this.code = this.code * 256 + this.next();
    if (this.code === this.range) throw new Error('lzma: bad range coder start');
  }

  next() {
    if (this.pos >= this.input.length) throw new Error('lzma: stream ends early');
    return this.input[this.pos++];
  }

  bit(probs, i) {
    const p = probs[i];
    const bound = (this.range >>> 11) * p;
    let bit;
    if (this.code < bound) {
      this.range = bound;
      probs[i] = p + ((2048 - p) >> 5);
      bit = 0;
    } else {
      this.range -= bound;
      this.code -= bound;
      probs[i] = p - (p >> 5);
      bit = 1;
    }
    if (this.range < 0x1000000) {
      this.range *= 256;
      this.code = this.code * 256 + this.next();
    }
    return bit;
  }

  direct(count) {
    let result = 0;
    for (let i = 0; i < count; i++) {
      this.range = Math.floor(this.range / 2);
      let bit = 0;
      if (this.code >= this.range) {
        this.code -= this.range;
        bit = 1;
      }
      result = result * 2 + bit;
      if (this.range < 0x1000000) {
        this.range *= 256;
        this.code = this.code * 256 + this.next();
      }
    }
    return result;
  }
}

const probabilities = (n) => new Uint16Array(n).fill(PROB_INIT);

function bitTree(rc, probs, base, bits) {
  let m = 1;
  for (let i = 0; i < bits; i++) m = (m << 1) | rc.bit(probs, base + m);
  return m - (1 << bits);
}

/** Least significant bit first (distance tails and align bits). */
function reverseBitTree(rc, probs, base, bits) {
  let m = 1;
  let symbol = 0;
  for (let i = 0; i < bits; i++) {
    const bit = rc.bit(probs, base + m);
    m = (m << 1) | bit;
    symbol |= bit << i;
  }
  return symbol;
}

/** Match lengths − 2: 0–7 (low tree per position state), 8–15 (mid), 16–271 (high). */
function lengthDecoder() {
  const choice = probabilities(2);
  const low = probabilities(POS_STATES_MAX << 3);
  const mid = probabilities(POS_STATES_MAX << 3);
  const high = probabilities(256);
  return (rc, posState) => {
    if (!rc.bit(choice, 0)) return bitTree(rc, low, posState << 3, 3);
    if (!rc.bit(choice, 1)) return 8 + bitTree(rc, mid, posState << 3, 3);
    return 16 + bitTree(rc, high, 0, 8);
  };
}

export function decodeLzma(input, size) {
  if (!(input instanceof Uint8Array)) throw new TypeError('input must be a Uint8Array');
  if (!Number.isSafeInteger(size) || size < 0) throw new RangeError('size must be a non-negative integer');
  if (input.length < 13) throw new Error('lzma: stream ends early');
  // The header's dictionary size and length are not needed: the output buffer is the whole
  // dictionary, and the caller knows how many bytes it wants.
  const { lc, lp, pb } = properties(input[0]);
  const rc = new RangeDecoder(input, 13);
  const model = createModel(lc, lp);
  const out = new Uint8Array(size);
  // state 0–6: the last packet was a literal; 7–11: a match, rep or short rep. rep0…rep3: the last
  // four distances, minus one.
  const at = { size, outPos: 0, state: 0, rep0: 0, rep1: 0, rep2: 0, rep3: 0 };
  const posMask = (1 << pb) - 1;
  while (at.outPos < size) {
    const posState = at.outPos & posMask;
    if (!rc.bit(model.isMatch, (at.state << 4) | posState)) {
      out[at.outPos] = literal(rc, model, out, at, lc, lp);
      at.outPos++;
      at.state = at.state < 4 ? 0 : at.state < 10 ? at.state - 3 : at.state - 6;
      continue;
    }
    const length = rc.bit(model.isRep, at.state) ? rep(rc, model, out, at, posState) : match(rc, model, at, posState);
    if (length < 0) continue;  // a short rep: one byte, already written
    if (at.rep0 >= at.outPos) throw new Error('lzma: distance before the start of the output');
    // Byte by byte: a match may overlap the bytes it produces (distance < length). A match
    // running past `size` is cut there: the stream goes on beyond what the caller asked for.
    const end = Math.min(size, at.outPos + length + MATCH_MIN);
    for (; at.outPos < end; at.outPos++) out[at.outPos] = out[at.outPos - at.rep0 - 1];
  }
  return out;
}

/** The header's properties byte → { lc, lp, pb }. */
function properties(byte) {
  if (byte >= 9 * 5 * 5) throw new Error('lzma: bad properties byte');
  return { lc: byte % 9, lp: Math.floor(byte / 9) % 5, pb: Math.floor(byte / 45) };
}

/** Every adaptive probability of the decoder, at one half. */
function createModel(lc, lp) {
  return {
    literal: probabilities(0x300 << (lc + lp)),
    isMatch: probabilities(STATES << 4),
    isRep: probabilities(STATES),
    isRepG0: probabilities(STATES),
    isRepG1: probabilities(STATES),
    isRepG2: probabilities(STATES),
    isRep0Long: probabilities(STATES << 4),
    posSlot: probabilities(4 << 6),
    posTail: probabilities(1 + FULL_DISTANCES - END_POS_MODEL),
    align: probabilities(1 << ALIGN_BITS),
    matchLength: lengthDecoder(),
    repLength: lengthDecoder(),
  };
}

/** One literal byte, coded in the context of the byte before it (and after a match, of the byte at rep0). */
function literal(rc, model, out, at, lc, lp) {
  const { outPos } = at;
  const previous = outPos > 0 ? out[outPos - 1] : 0;
  const base = 0x300 * (((outPos & ((1 << lp) - 1)) << lc) | (previous >> (8 - lc)));
  let symbol = 1;
  if (at.state >= 7) {
    // After a match the byte at rep0 predicts this one, bit by bit, until they differ.
    let matchByte = out[outPos - at.rep0 - 1];
    while (symbol < 0x100) {
      const matchBit = (matchByte >> 7) & 1;
      matchByte <<= 1;
      const bit = rc.bit(model.literal, base + ((1 + matchBit) << 8) + symbol);
      symbol = (symbol << 1) | bit;
      if (bit !== matchBit) break;
    }
  }
  while (symbol < 0x100) symbol = (symbol << 1) | rc.bit(model.literal, base + symbol);
  return symbol - 0x100;
}

/** A match at a new distance (rep0 after it) → its length − MATCH_MIN. */
function match(rc, model, at, posState) {
  at.rep3 = at.rep2;
  at.rep2 = at.rep1;
  at.rep1 = at.rep0;
  const length = model.matchLength(rc, posState);
  at.state = at.state < 7 ? 7 : 10;
  at.rep0 = distance(rc, model, length);
  if (at.rep0 === 0xffffffff) throw new Error(`lzma: end marker after ${at.outPos} bytes, ${at.size} expected`);
  return length;
}

/** The distance of a new match, minus one, for a match of `length` − MATCH_MIN. */
function distance(rc, model, length) {
  const slot = bitTree(rc, model.posSlot, Math.min(length, 3) << 6, 6);
  if (slot < 4) return slot;
  const directBits = (slot >> 1) - 1;
  const dist = (2 | (slot & 1)) * 2 ** directBits;  // up to 2^32 − 1: no 32-bit shifts
  if (slot < END_POS_MODEL) return dist + reverseBitTree(rc, model.posTail, dist - slot, directBits);
  return dist + rc.direct(directBits - ALIGN_BITS) * (1 << ALIGN_BITS) + reverseBitTree(rc, model.align, 0, ALIGN_BITS);
}

/**
 * A match at one of the last four distances (moved to rep0) → its length − MATCH_MIN; or a short
 * rep, one byte at rep0 written here → −1.
 */
function rep(rc, model, out, at, posState) {
  if (at.outPos === 0) throw new Error('lzma: repeated match before any byte');
  if (!rc.bit(model.isRepG0, at.state)) {
    if (!rc.bit(model.isRep0Long, (at.state << 4) | posState)) {
      at.state = at.state < 7 ? 9 : 11;
      out[at.outPos] = out[at.outPos - at.rep0 - 1];
      at.outPos++;
      return -1;
    }
  } else {
    let dist;
    if (!rc.bit(model.isRepG1, at.state)) {
      dist = at.rep1;
    } else {
      if (!rc.bit(model.isRepG2, at.state)) {
        dist = at.rep2;
      } else {
        dist = at.rep3;
        at.rep3 = at.rep2;
      }
      at.rep2 = at.rep1;
    }
    at.rep1 = at.rep0;
    at.rep0 = dist;
  }
  at.state = at.state < 7 ? 8 : 11;
  return model.repLength(rc, posState);
}

/** base64 text → its bytes (the cores travel inside the element as base64 of an LZMA stream). */
export function decodeBase64(text) {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
