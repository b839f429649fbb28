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
  let properties = input[0];
  if (properties >= 9 * 5 * 5) throw new Error('lzma: bad properties byte');
  const lc = properties % 9;
  properties = Math.floor(properties / 9);
  const lp = properties % 5;
  const pb = Math.floor(properties / 5);
  // The header's dictionary size and length are not needed: the output buffer is the whole
  // dictionary, and the caller knows how many bytes it wants.

  const rc = new RangeDecoder(input, 13);
  const literal = probabilities(0x300 << (lc + lp));
  const isMatch = probabilities(STATES << 4);
  const isRep = probabilities(STATES);
  const isRepG0 = probabilities(STATES);
  const isRepG1 = probabilities(STATES);
  const isRepG2 = probabilities(STATES);
  const isRep0Long = probabilities(STATES << 4);
  const posSlot = probabilities(4 << 6);
  const posTail = probabilities(1 + FULL_DISTANCES - END_POS_MODEL);
  const align = probabilities(1 << ALIGN_BITS);
  const matchLength = lengthDecoder();
  const repLength = lengthDecoder();

  const out = new Uint8Array(size);
  let outPos = 0;
  let state = 0;    // 0–6: last packet a literal; 7–11: a match, rep or short rep
  let rep0 = 0;     // the last four distances, minus one
  let rep1 = 0;
  let rep2 = 0;
  let rep3 = 0;
  const posMask = (1 << pb) - 1;
  const literalPosMask = (1 << lp) - 1;

  const distance = (length) => {
    const slot = bitTree(rc, posSlot, Math.min(length, 3) << 6, 6);
    if (slot < 4) return slot;
    const directBits = (slot >> 1) - 1;
    let dist = (2 | (slot & 1)) * 2 ** directBits;  // up to 2^32 − 1: no 32-bit shifts
    if (slot < END_POS_MODEL) return dist + reverseBitTree(rc, posTail, dist - slot, directBits);
    dist += rc.direct(directBits - ALIGN_BITS) * (1 << ALIGN_BITS);
    return dist + reverseBitTree(rc, align, 0, ALIGN_BITS);
  };

  while (outPos < size) {
    const posState = outPos & posMask;
    if (!rc.bit(isMatch, (state << 4) | posState)) {
      const previous = outPos > 0 ? out[outPos - 1] : 0;
      const base = 0x300 * (((outPos & literalPosMask) << lc) | (previous >> (8 - lc)));
      let symbol = 1;
      if (state >= 7) {
        // After a match the byte at rep0 predicts this one, bit by bit, until they differ.
        let matchByte = out[outPos - rep0 - 1];
        while (symbol < 0x100) {
          const matchBit = (matchByte >> 7) & 1;
          matchByte <<= 1;
          const bit = rc.bit(literal, base + ((1 + matchBit) << 8) + symbol);
          symbol = (symbol << 1) | bit;
          if (bit !== matchBit) break;
        }
      }
      while (symbol < 0x100) symbol = (symbol << 1) | rc.bit(literal, base + symbol);
      out[outPos++] = symbol - 0x100;
      state = state < 4 ? 0 : state < 10 ? state - 3 : state - 6;
      continue;
    }
    let length;
    if (!rc.bit(isRep, state)) {
      rep3 = rep2;
      rep2 = rep1;
      rep1 = rep0;
      length = matchLength(rc, posState);
      state = state < 7 ? 7 : 10;
      rep0 = distance(length);
      if (rep0 === 0xffffffff) throw new Error(`lzma: end marker after ${outPos} bytes, ${size} expected`);
    } else {
      if (outPos === 0) throw new Error('lzma: repeated match before any byte');
      if (!rc.bit(isRepG0, state)) {
        if (!rc.bit(isRep0Long, (state << 4) | posState)) {
          state = state < 7 ? 9 : 11;
          out[outPos] = out[outPos - rep0 - 1];
          outPos++;
          continue;
        }
      } else {
        let dist;
        if (!rc.bit(isRepG1, state)) {
          dist = rep1;
        } else {
          if (!rc.bit(isRepG2, state)) {
            dist = rep2;
          } else {
            dist = rep3;
            rep3 = rep2;
          }
          rep2 = rep1;
        }
        rep1 = rep0;
        rep0 = dist;
      }
      length = repLength(rc, posState);
      state = state < 7 ? 8 : 11;
    }
    if (rep0 >= outPos) throw new Error('lzma: distance before the start of the output');
    // Byte by byte: a match may overlap the bytes it produces (distance < length). A match
    // running past `size` is cut there: the stream goes on beyond what the caller asked for.
    const end = Math.min(size, outPos + length + MATCH_MIN);
    for (; outPos < end; outPos++) out[outPos] = out[outPos - rep0 - 1];
  }
  return out;
}
