// The word-vector parser's kept vectors, quantized as they arrive and packed into PELVEC01 at the
// end (data/README.md). Quantization: per vector scale = fround(max|v| / 127),
// q = round-half-away-from-zero(v / scale) clamped to [−127, 127], so each component errs by at
// most scale/2. component_rms and mean_norm come from the original (float64-parsed) values.
//
// Layout: words[i]'s int8 components are values[i·dim … (i+1)·dim), its scale scales[i]; both
// grow by doubling up to wordCap words.

import { fmt, MAX_DIM, oddDimensionMessage } from './vector-file-rules.js';

const MAGIC = [0x50, 0x45, 0x4c, 0x56, 0x45, 0x43, 0x30, 0x31]; // PELVEC01
const HEADER_BYTES = 24;

export class VectorTable {
  /** At most maxWords words and maxValues words × dim values; fail(message, details) throws. */
  constructor(maxWords, maxValues, fail) {
    this.maxWords = maxWords;
    this.maxValues = maxValues;
    this.fail = fail;
    this.dim = 0;             // 0 until the first readable line (or the header) sets it
    this.dimLine = 0;         // the line that set it
    this.wordCap = maxWords;  // words kept at most (maxWords, or fewer so that words × dim ≤ maxValues)
    this.full = null;         // { line, reason } once wordCap words are kept
    this.words = [];
    this.seen = new Set();
    this.duplicates = 0;
    this.duplicateExamples = [];
    this.zeroVectors = 0;
    this.scales = new Float32Array(1024);
    this.values = null;       // Int8Array, allocated once dim is known
    this.sumSquares = 0;
    this.sumNorms = 0;
  }

  /** Fixes the dimension from `line`; expectedWords: a header's word count (0: unknown). */
  setDim(d, line, expectedWords = 0) {
    if (d === 0) this.fail(`the word2vec header (line ${line}) says the dimension is 0`, { code: 'bad-header', line });
    if (d > MAX_DIM) this.fail(`dimension ${fmt(d)} is larger than ${fmt(MAX_DIM)}, the most PosEnc Lab handles`, { code: 'dimension-too-large', line });
    if (d % 2 !== 0) this.fail(oddDimensionMessage(d), { code: 'odd-dimension', line });
    this.dim = d;
    this.dimLine = line;
    this.wordCap = Math.min(this.maxWords, Math.floor(this.maxValues / d));
    const initial = Math.max(1, Math.min(this.wordCap, expectedWords || 1024, 1 << 16));
    this.values = new Int8Array(initial * d);
    if (this.scales.length < initial) this.scales = new Float32Array(initial);
  }

  /** Keeps `word` with row[0 … dim) unless it was seen before or the table is full. */
  offer(word, row, line) {
    if (this.seen.has(word)) {
      this.duplicates++;
      if (this.duplicateExamples.length < 5) this.duplicateExamples.push({ line, word });
    } else if (this.words.length >= this.wordCap) {
      this.full = { line, reason: this.wordCap === this.maxWords ? 'maxWords' : 'maxValues' };
    } else {
      this.keep(word, row);
    }
  }

  keep(word, row) {
    const i = this.words.length;
    this.makeRoom(i);
    const d = this.dim;
    let maxAbs = 0;
    let n2 = 0;
    for (let j = 0; j < d; j++) {
      const v = row[j];
      const a = Math.abs(v);
      if (a > maxAbs) maxAbs = a;
      n2 += v * v;
    }
    const base = i * d;
    if (maxAbs === 0) {
      this.zeroVectors++;
      this.scales[i] = 0;
      this.values.fill(0, base, base + d);
    } else {
      const scale = Math.fround(maxAbs / 127);
      this.scales[i] = scale;
      quantize(row, d, scale, this.values, base);
    }
    this.sumSquares += n2;
    this.sumNorms += Math.sqrt(n2);
    this.words.push(word);
    this.seen.add(word);
  }

  // Room for word i in scales and values, doubling either when it is full (up to wordCap words).
  makeRoom(i) {
    if (i >= this.scales.length) {
      const grown = new Float32Array(Math.min(this.wordCap, 2 * this.scales.length));
      grown.set(this.scales);
      this.scales = grown;
    }
    if ((i + 1) * this.dim > this.values.length) {
      const grown = new Int8Array(Math.min(this.wordCap, 2 * (this.values.length / this.dim)) * this.dim);
      grown.set(this.values);
      this.values = grown;
    }
  }

  /** { componentRms, meanNorm } of the kept vectors, as float32; refuses what float32 cannot hold. */
  statistics() {
    const count = this.words.length;
    const componentRms = Math.fround(Math.sqrt(this.sumSquares / (count * this.dim)));
    const meanNorm = Math.fround(this.sumNorms / count);
    if (!(componentRms > 0) || !Number.isFinite(componentRms) || !Number.isFinite(meanNorm)) {
      this.fail('the vectors are too large or too small to store as float32 statistics', { code: 'out-of-range' });
    }
    return { componentRms, meanNorm };
  }

  /** The PELVEC01 file of the kept vectors: header, vocabulary, scales, values, statistics. */
  pack({ componentRms, meanNorm }) {
    const count = this.words.length;
    const dim = this.dim;
    const vocabulary = new TextEncoder().encode(this.words.join('\n'));
    const padded = (vocabulary.length + 3) & ~3;
    const scalesAt = HEADER_BYTES + padded;
    const valuesAt = scalesAt + 4 * count;
    const size = valuesAt + count * dim + 8;
    const out = new Uint8Array(size);
    const view = new DataView(out.buffer);
    out.set(MAGIC);
    view.setUint32(8, count, true);
    view.setUint32(12, dim, true);
    view.setUint32(16, vocabulary.length, true);
    view.setUint32(20, 0, true);
    out.set(vocabulary, HEADER_BYTES);
    for (let i = 0; i < count; i++) view.setFloat32(scalesAt + 4 * i, this.scales[i], true);
    out.set(new Uint8Array(this.values.buffer, 0, count * dim), valuesAt);
    view.setFloat32(size - 8, componentRms, true);
    view.setFloat32(size - 4, meanNorm, true);
    return out;
  }
}

// row[0 … d) / scale, rounded half away from zero and clamped to ±127, into out[base …].
function quantize(row, d, scale, out, base) {
  for (let j = 0; j < d; j++) {
    const x = row[j] / scale;
    let q = x < 0 ? -Math.floor(-x + 0.5) : Math.floor(x + 0.5);
    if (q > 127) q = 127;
    else if (q < -127) q = -127;
    out[base + j] = q;
  }
}
