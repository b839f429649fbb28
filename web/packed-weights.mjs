// The shipped models' wire format ("packed" weights) and its expansion back to a complete F16
// safetensors file, the one home of both layouts. scripts/pack-models.mjs writes it at build time
// from data/models/<name>.safetensors; lab.loadPretrained (posenc.mjs) fetches it and expands it
// here before lab.loadModel, so the page runs exactly the file a download would give.
//
// A packed file is itself a safetensors file (any reader opens it). Its __metadata__ is the source
// file's posenc config plus PACKING_KEY = PACKING; the vocabulary (the source's __metadata__.vocab,
// a JSON list of its token strings) travels as VOCAB_ROWS, U16 [V]: each token's row in the word
// vectors the model was trained on (0xffff for <unk>), whose words the page has already
// downloaded. The expanded file has the source's metadata, and the source's tensors, in the
// order of their first piece in the packed data, all F16:
//   <name>            F16, any shape    kept as it is (vectors: biases, layer norms)
//   <name>            I8  [rows, cols]  with <name>/scale F32 [rows]: value = q·scale, rounded to
//                                      F16 (int8 per row; the error is at most scale/2 = max|row|/254)
//   <name>/axes       F32 [cols, d]     with <name>/mean F64 [cols], <name>/fixAt U32 [k] and
//                                      <name>/fix F16 [k]: frozen word rows rebuilt from the word
//                                      vectors (PCA coordinates, the concatenated scheme's wte):
//                                      entry (i, a) = F16(float32(float32(x_i·axes_a) − mean_a)),
//                                      as the core's Pca::project and round_to_f16 make it, x_i the
//                                      word's vector (the mean of the file's other words for <unk>);
//                                      then the k entries at flat index fixAt[j] set to fix[j]. The
//                                      dot product here is summed in float64, the core's in float32
//                                      lanes; the writer lists every entry where that changes the
//                                      bits, so the rows are the source file's bit for bit.
// The pieces of AFTER_HEADS' tensors (the output layer) come last in the data, so a file's first
// headsBytes(file) bytes hold everything the attention maps need: expandWeights with headsOnly
// makes a model of them whose attention is the complete file's, while the rest is on its way.
// Pure: no DOM, no I/O; works in pages, workers and Node.

export const PACKING_KEY = 'posenc_packing';
/** A model's packed file name in the models folder (the manifest's `file`). */
export const packedFile = (name) => `${name}.q8.safetensors`;
export const PACKING = 'q8-rows/1';
const UNKNOWN_TOKEN = '<unk>';  // the core's kUnknownToken (src/model/word_vocabulary.hpp)
const NO_ROW = 0xffff;          // <unk>'s entry in VOCAB_ROWS: no row of the word-vector file
// The tensor that stands for __metadata__.vocab: each token's row in the word-vector file.
export const VOCAB_ROWS = 'vocab/rows';
const ALIGN = 8;                // the data section starts 8-byte aligned, as the trainer writes it
/** The tensors neither the tokenizer nor the attention maps read (only logits and surprise do). */
export const AFTER_HEADS = Object.freeze(['lm_head.weight']);
const isAfterHeads = (key) => AFTER_HEADS.includes(key.split('/')[0]);

/** A safetensors file's { header, data } (data: the bytes after the header); RangeError if malformed. */
export function readSafetensors(bytes, what = 'weights file') {
  if (!(bytes instanceof Uint8Array)) throw new TypeError(`${what} must be a Uint8Array`);
  if (bytes.length < 8) throw new RangeError(`${what}: shorter than a safetensors header`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const length = Number(view.getBigUint64(0, true));
  if (8 + length > bytes.length) throw new RangeError(`${what}: its header runs past the end of the file`);
  let header;
  try {
    header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + length)));
  } catch {
    throw new RangeError(`${what}: its header is not JSON`);
  }
  return { header, data: bytes.subarray(8 + length) };
}

/** Tensors as [name, { dtype, shape, data_offsets }], in data order. */
export function tensorsOf(header) {
  return Object.entries(header).filter(([name]) => name !== '__metadata__')
    .sort(([, a], [, b]) => a.data_offsets[0] - b.data_offsets[0]);
}

/** safetensors bytes from [name, { dtype, shape, bytes: Uint8Array }] in order and a metadata object. */
export function writeSafetensors(tensors, metadata) {
  const header = { __metadata__: metadata };
  let at = 0;
  for (const [name, { dtype, shape, bytes }] of tensors) {
    header[name] = { dtype, shape, data_offsets: [at, at + bytes.length] };
    at += bytes.length;
  }
  let json = JSON.stringify(header);
  json += ' '.repeat((ALIGN - ((8 + json.length) % ALIGN)) % ALIGN);
  const head = new TextEncoder().encode(json);
  const out = new Uint8Array(8 + head.length + at);
  new DataView(out.buffer).setBigUint64(0, BigInt(head.length), true);
  out.set(head, 8);
  let offset = 8 + head.length;
  for (const [, { bytes }] of tensors) {
    out.set(bytes, offset);
    offset += bytes.length;
  }
  return out;
}

// A tensor's elements as a typed array (copied when its bytes are not aligned for the view).
export function tensorView(data, { dtype, data_offsets: [begin, end] }) {
  const Type = { F16: Uint16Array, F32: Float32Array, F64: Float64Array, I8: Int8Array, U16: Uint16Array, U32: Uint32Array }[dtype];
  if (!Type) throw new RangeError(`packed weights: dtype ${dtype} is not one this format uses`);
  const slice = data.slice(begin, end);  // a copy: aligned, and safe to view
  return new Type(slice.buffer, 0, (end - begin) / Type.BYTES_PER_ELEMENT);
}

/**
 * How many of a packed file's first bytes the attention maps need: the length field, the header
 * and every tensor before AFTER_HEADS' pieces. RangeError if a piece of those is not last.
 */
export function headsBytes(packed) {
  const { header, data } = readSafetensors(packed, 'packed weights');
  const start = packed.length - data.length;
  let end = 0;
  let late = Infinity;
  for (const [key, { data_offsets: [begin, stop] }] of tensorsOf(header)) {
    if (isAfterHeads(key)) late = Math.min(late, begin);
    else if (begin >= late) throw new RangeError(`packed weights: ${key} comes after the output layer; the attention maps need it first`);
    else end = Math.max(end, stop);
  }
  return start + end;
}

const bytesOf = (typed) => new Uint8Array(typed.buffer, typed.byteOffset, typed.byteLength);

// Round half to even at an integer boundary (JS's Math.round rounds halves up).
function roundEven(v) {
  const r = Math.round(v);
  return r - v === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

// A number's float64 bits, read as two 32-bit words (little-endian: [1] holds sign and exponent).
const WIDE = new Float64Array(1);
const WORDS = new Uint32Array(WIDE.buffer);
const HIGH = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 1 : 0;

/** IEEE binary16 bits of a number, rounded to nearest even directly from the float64 (no double rounding). */
export function f16Bits(x) {
  WIDE[0] = x;
  const hi = WORDS[HIGH];
  const lo = WORDS[1 - HIGH];
  const sign = (hi >>> 16) & 0x8000;
  const e = ((hi >>> 20) & 0x7ff) - 1023;
  if (e === 1024) return sign | ((hi & 0xfffff) | lo ? 0x7e00 : 0x7c00);  // NaN, infinity
  if (e > 15) return sign | 0x7c00;
  if (e < -14) return sign | roundEven(Math.abs(x) * 2 ** 24);  // subnormal (1024: the smallest normal's bits)
  const mantissa = hi & 0xfffff;  // the top 20 of 52 bits; binary16 keeps 10
  let bits = ((e + 15) << 10) | (mantissa >>> 10);
  const rest = mantissa & 0x3ff;
  if (rest > 0x200 || (rest === 0x200 && (lo !== 0 || (bits & 1)))) bits += 1;  // a carry may reach infinity: right
  return sign | bits;
}

/** The number an IEEE binary16 bit pattern holds. */
export function f16Value(bits) {
  const sign = bits & 0x8000 ? -1 : 1;
  const e = (bits >> 10) & 0x1f;
  const m = bits & 0x3ff;
  if (e === 0) return sign * m * 2 ** -24;
  if (e === 31) return m ? NaN : sign * Infinity;
  return sign * (1024 + m) * 2 ** (e - 25);
}

// A PELVEC01 word-vector file's parts (data/README.md): { words, count, d, scales, values },
// read once per file (the page passes the same GloVe bytes for every model).
const vectorFiles = new WeakMap();
function readVectorFile(bytes) {
  if (!(bytes instanceof Uint8Array) || bytes.length < 24 || new TextDecoder().decode(bytes.subarray(0, 8)) !== 'PELVEC01') {
    throw new RangeError('vectors: not a PELVEC01 word-vector file (data/README.md)');
  }
  if (vectorFiles.has(bytes)) return vectorFiles.get(bytes);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const [count, d, wordBytes] = [view.getUint32(8, true), view.getUint32(12, true), view.getUint32(16, true)];
  const words = new TextDecoder().decode(bytes.subarray(24, 24 + wordBytes)).split('\n');
  const start = 24 + Math.ceil(wordBytes / 4) * 4;
  if (words.length !== count || start + 4 * count + count * d + 8 > bytes.length) throw new RangeError('vectors: a truncated PELVEC01 file');
  const file = {
    words, count, d,
    scales: new Float32Array(bytes.slice(start, start + 4 * count).buffer),
    values: new Int8Array(bytes.buffer, bytes.byteOffset + start + 4 * count, count * d),
  };
  vectorFiles.set(bytes, file);
  return file;
}

/**
 * A vocabulary as rows of a word-vector file: Uint16Array(V), NO_ROW for <unk>; RangeError when a
 * word is not in the file. The model's words are all the file's (frequent_vector_words), so the
 * packed file carries 2 bytes per token instead of the strings.
 */
export function vocabularyRows(vocab, vectorBytes) {
  const { words, count } = readVectorFile(vectorBytes);
  if (count >= NO_ROW) throw new RangeError(`vectors: ${count} words, more than a 16-bit row index holds`);
  const rowOf = new Map(words.map((word, r) => [word, r]));
  return Uint16Array.from(vocab, (token) => {
    if (token === UNKNOWN_TOKEN) return NO_ROW;
    const r = rowOf.get(token);
    if (r === undefined) throw new RangeError(`vectors: no row for the model's word ${JSON.stringify(token)} (not the vectors it was trained on)`);
    return r;
  });
}

/** The words of vocabularyRows' rows, <unk> for NO_ROW. */
export function vocabularyOf(rows, vectorBytes) {
  const { words, count } = readVectorFile(vectorBytes);
  return Array.from(rows, (r) => {
    if (r === NO_ROW) return UNKNOWN_TOKEN;
    if (r >= count) throw new RangeError(`packed weights: vocabulary row ${r} is past the word vectors' ${count} words`);
    return words[r];
  });
}

/**
 * The float32 rows the trainer froze into wte before its PCA (src/model/word_vocabulary.cpp,
 * unreduced_rows), from a PELVEC01 word-vector file (data/README.md): vocab[i]'s vector,
 * scales[r]·values[r·d + j] rounded to float32, and for <unk> the mean of the file's other words
 * (summed in float64 in file order). → { rows: Float64Array(V·d) of float32 values, d }.
 */
export function frozenWordRows(vocab, vectorBytes) {
  const { words, count, d, scales, values } = readVectorFile(vectorBytes);
  const rowOf = new Map(words.map((word, r) => [word, r]));
  const rows = new Float64Array(vocab.length * d);
  const used = new Uint8Array(count);
  const copyRow = (r, into, at) => {
    for (let j = 0; j < d; j++) into[at + j] = Math.fround(scales[r] * values[r * d + j]);
  };
  let unknown = -1;
  vocab.forEach((token, i) => {
    if (token === UNKNOWN_TOKEN) { unknown = i; return; }
    const r = rowOf.get(token);
    if (r === undefined) throw new RangeError(`vectors: no row for the model's word ${JSON.stringify(token)} (not the vectors it was trained on)`);
    used[r] = 1;
    copyRow(r, rows, i * d);
  });
  if (unknown >= 0) {
    const mean = new Float64Array(d);
    const row = new Float64Array(d);
    let others = 0;
    for (let r = 0; r < count; r++) {
      if (used[r]) continue;
      others += 1;
      copyRow(r, row, 0);
      for (let j = 0; j < d; j++) mean[j] += row[j];
    }
    for (let j = 0; j < d; j++) rows[unknown * d + j] = others ? Math.fround(mean[j] / others) : 0;
  }
  return { rows, d };
}

/**
 * Binary16 bits of F16(float32(float32(x_i·axes_a) − mean_a)) for every row i and axis a: axes
 * Float32Array(cols·d), row a the axis; mean Float64Array(cols). → Uint16Array(V·cols).
 */
export function projectedRows({ rows, d }, axes, mean, cols) {
  const V = rows.length / d;
  const out = new Uint16Array(V * cols);
  const wide = Float64Array.from(axes);
  // Offsets rather than a subarray per (row, axis): the same sums in the same order, no allocation.
  for (let i = 0; i < V; i++) {
    const x = i * d;
    for (let a = 0; a < cols; a++) {
      const axis = a * d;
      let sum = 0;
      for (let j = 0; j < d; j++) sum += rows[x + j] * wide[axis + j];
      out[i * cols + a] = f16Bits(Math.fround(Math.fround(sum) - mean[a]));
    }
  }
  return out;
}

/**
 * A packed file (above) → the complete F16 safetensors file it was packed from, with quantised
 * values where it holds int8. options.vectors: the bytes of the word-vector file (PELVEC01) the
 * model was trained on, for its vocabulary and frozen word rows. options.headsOnly: `packed` may
 * be the file's first headsBytes bytes; AFTER_HEADS' tensors it lacks come as zeros (a model for
 * the attention maps only: its logits are not the model's). Throws a RangeError naming what is wrong.
 */
export function expandWeights(packed, options = {}) {
  const { header, data } = readSafetensors(packed, 'packed weights');
  // A tensor with a piece past the end of `packed`: one of AFTER_HEADS' with headsOnly (zeros), else an error.
  const cut = new Set();
  for (const [key, { data_offsets: [, end] }] of tensorsOf(header)) {
    if (end <= data.length) continue;
    if (!options.headsOnly || !isAfterHeads(key)) throw new RangeError(`packed weights: tensor ${key} runs past the end of the file`);
    cut.add(key.split('/')[0]);
  }
  const { [PACKING_KEY]: packing, ...rest } = header.__metadata__ ?? {};
  if (packing !== PACKING) throw new RangeError(`packed weights: ${PACKING_KEY} must be '${PACKING}' (got ${JSON.stringify(packing)})`);
  const tensors = new Map(tensorsOf(header));
  const rows = tensors.get(VOCAB_ROWS);
  if (rows && options.vectors === undefined) throw new RangeError('packed weights: its vocabulary is rows of word vectors: pass options.vectors');
  // The source's key order: posenc, then vocab.
  const metadata = rows ? { ...rest, vocab: JSON.stringify(vocabularyOf(tensorView(data, rows), options.vectors)) } : rest;
  const part = (name, suffix) => {
    const spec = tensors.get(`${name}/${suffix}`);
    if (!spec) throw new RangeError(`packed weights: ${name} has no ${suffix}`);
    return { spec, values: tensorView(data, spec) };
  };
  const out = [];
  for (const [key, spec] of tensors) {
    const [name, suffix] = key.split('/');
    if (cut.has(name)) {
      if (suffix === undefined) out.push([name, zerosF16(spec.shape)]);
    } else if (suffix === undefined && spec.dtype === 'F16') {
      out.push([name, { dtype: 'F16', shape: spec.shape, bytes: data.subarray(...spec.data_offsets) }]);
    } else if (suffix === undefined && spec.dtype === 'I8') {
      const [rows, cols] = spec.shape;
      const q = tensorView(data, spec);
      const { values: scales } = part(name, 'scale');
      if (spec.shape.length !== 2 || scales.length !== rows) throw new RangeError(`packed weights: ${name}'s scales do not match its rows`);
      out.push([name, { dtype: 'F16', shape: spec.shape, bytes: bytesOf(int8AsF16(name, q, scales, cols)) }]);
    } else if (suffix === 'axes') {
      out.push([name, rebuiltRows(name, metadata, spec, tensorView(data, spec), part, options.vectors)]);
    } else if (key !== VOCAB_ROWS && !['scale', 'mean', 'fixAt', 'fix'].includes(suffix ?? '')) {
      throw new RangeError(`packed weights: tensor ${key} (${spec.dtype}) is not one this format has`);
    }
  }
  return writeSafetensors(out, metadata);
}

// The int8 matrices the last expansions made F16, with the bytes they were made from (copies): the
// page expands each shipped model twice (its heads, then whole), and the whole file's matrices
// before the output layer are its heads' again, so the second expansion takes them from the first.
// A matrix whose bytes differ in any way is expanded anew. The output layer (AFTER_HEADS) comes
// in whole files only, so it is not kept. Three models' eight matrices each fit.
const KEPT_MATRICES = 24;
const keptMatrices = [];  // [{ name, q, scales, f16 }], the most recent last

// q: Int8Array(rows·cols); scales: Float32Array(rows) → Uint16Array(rows·cols) of F16(q·scale).
function int8AsF16(name, q, scales, cols) {
  const kept = keptMatrices.find((m) => m.name === name && sameBytes(m.q, q) && sameBytes(m.scales, bytesOf(scales)));
  if (kept) return kept.f16;
  const f16 = new Uint16Array(q.length);
  for (let r = 0; r < scales.length; r++) for (let c = 0; c < cols; c++) f16[r * cols + c] = f16Bits(q[r * cols + c] * scales[r]);
  if (!isAfterHeads(name)) {
    keptMatrices.push({ name, q: q.slice(), scales: bytesOf(scales).slice(), f16 });
    if (keptMatrices.length > KEPT_MATRICES) keptMatrices.shift();
  }
  return f16;
}

const zerosF16 = (shape) => ({ dtype: 'F16', shape, bytes: new Uint8Array(2 * shape.reduce((a, b) => a * b, 1)) });

// The rows rebuilt last from each word-vector file, with what they were rebuilt from: the page
// expands each shipped model twice (its heads first, then whole), and both expansions hold the
// same vocabulary and tensors, so the second takes the first's rows instead of projecting again.
const lastRebuilt = new WeakMap();  // vectors bytes → [vocab, tensors' bytes (copies), bits]
const sameBytes = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);

function rebuiltRows(name, metadata, spec, axes, part, vectors) {
  if (vectors === undefined) throw new RangeError(`packed weights: ${name} is rebuilt from word vectors: pass options.vectors`);
  const [cols, d] = spec.shape;
  if (metadata.vocab === undefined) throw new RangeError(`packed weights: ${name} is rebuilt for a vocabulary, and the file has none`);
  const mean = part(name, 'mean').values;
  const at = part(name, 'fixAt').values;
  const fix = part(name, 'fix').values;
  const inputs = [axes, mean, at, fix].map(bytesOf);
  let [vocab, was, bits] = lastRebuilt.get(vectors) ?? [];
  if (vocab !== metadata.vocab || !was.every((x, i) => sameBytes(x, inputs[i]))) {
    const words = frozenWordRows(JSON.parse(metadata.vocab), vectors);
    if (words.d !== d) throw new RangeError(`vectors: ${words.d} wide, ${name}'s axes expect ${d}`);
    bits = projectedRows(words, axes, mean, cols);
    at.forEach((index, k) => { bits[index] = fix[k]; });
    // Copies: the inputs are views of the caller's file, which it may reuse.
    lastRebuilt.set(vectors, [metadata.vocab, inputs.map((x) => x.slice()), bits]);
  }
  return { dtype: 'F16', shape: [bits.length / cols, cols], bytes: bytesOf(bits) };
}
