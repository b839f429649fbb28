// Packs the shipped models for the wire (web/packed-weights.mjs has the format): every matrix as
// int8 per row with a float32 scale, vectors kept F16, the vocabulary as GloVe row numbers, and
// the concatenated model's frozen PCA word rows rebuilt from GloVe (its axes, their means and the
// few entries the rebuild misses). Writes
// OUT/<name>.q8.safetensors for each model in data/models/manifest.json and OUT/manifest.json:
// the data manifest with each model's bytes/sha256 those of its packed file, heads: the bytes and
// sha256 of its first headsBytes (what the attention maps need; the output layer comes last, so a
// page can show them while it arrives), and source: the F16 file's. Deterministic: a pure function of data/models/ and GloVe (scripts/build runs it).
//
//   node scripts/pack-models.mjs OUT
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import {
  AFTER_HEADS, PACKING, PACKING_KEY, f16Value, headsBytes, packedFile, frozenWordRows, projectedRows, readSafetensors, tensorView, tensorsOf, vocabularyRows, VOCAB_ROWS, writeSafetensors,
} from '../web/packed-weights.mjs';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const MODELS = path.join(ROOT, 'data/models');
const VECTORS = path.join(ROOT, 'data/glove-6b-100d-20k.i8');

const sha256 = (bytes) => crypto.createHash('sha256').update(bytes).digest('hex');
const bytesOf = (typed) => new Uint8Array(typed.buffer, typed.byteOffset, typed.byteLength);

// Int8 per row: scale = fround(max|row|/127), q = round half away from zero of v/scale, clamped.
function quantiseRows(values, rows, cols) {
  const q = new Int8Array(rows * cols);
  const scales = new Float32Array(rows);
  for (let r = 0; r < rows; r++) {
    let max = 0;
    for (let c = 0; c < cols; c++) max = Math.max(max, Math.abs(values[r * cols + c]));
    scales[r] = Math.fround(max / 127);
    if (scales[r] === 0) continue;
    for (let c = 0; c < cols; c++) {
      const v = values[r * cols + c] / scales[r];
      q[r * cols + c] = Math.max(-127, Math.min(127, Math.sign(v) * Math.round(Math.abs(v))));
    }
  }
  return { q, scales };
}

// Eigenvectors of a symmetric n×n matrix (cyclic Jacobi, float64): → { values, vectors } with
// vectors[j·n + c] the component j of the eigenvector of values[c]. Slow (O(n³) per sweep) but
// simple, and run once per build; its vectors agree with the core's Householder–QL ones to far
// below a float32 ulp, which is all the packed axes need.
function jacobiEigen(matrix, n) {
  const A = Float64Array.from(matrix);
  const V = new Float64Array(n * n);
  for (let i = 0; i < n; i++) V[i * n + i] = 1;
  for (let sweep = 0; sweep < 100; sweep++) {
    let off = 0;
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) off += A[p * n + q] ** 2;
    if (off < 1e-30) break;
    for (let p = 0; p < n; p++) {
      for (let q = p + 1; q < n; q++) {
        const apq = A[p * n + q];
        if (apq === 0) continue;
        const theta = (A[q * n + q] - A[p * n + p]) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < n; k++) {
          const akp = A[k * n + p];
          const akq = A[k * n + q];
          A[k * n + p] = c * akp - s * akq;
          A[k * n + q] = s * akp + c * akq;
        }
        for (let k = 0; k < n; k++) {
          const apk = A[p * n + k];
          const aqk = A[q * n + k];
          A[p * n + k] = c * apk - s * aqk;
          A[q * n + k] = s * apk + c * aqk;
        }
        for (let k = 0; k < n; k++) {
          const vkp = V[k * n + p];
          const vkq = V[k * n + q];
          V[k * n + p] = c * vkp - s * vkq;
          V[k * n + q] = s * vkp + c * vkq;
        }
      }
    }
  }
  return { values: Array.from({ length: n }, (_, i) => A[i * n + i]), vectors: V };
}

// The frozen PCA rows as the core makes them (src/analysis/pca.cpp, principal_components over the
// vocabulary's words, <unk> left out, centred): float32 axes by decreasing variance, each signed
// as the shipped rows say, and mean_along_axis in float64; plus every entry whose rebuild
// (web/packed-weights.mjs, projectedRows) differs from the file's bits.
function packWordRows(name, spec, data, vocab, vectors) {
  const [V, cols] = spec.shape;
  const target = tensorView(data, spec);
  const words = frozenWordRows(vocab, vectors);
  const { rows, d } = words;
  const kept = vocab.flatMap((token, i) => (token === '<unk>' ? [] : [i]));
  const mean = new Float64Array(d);
  for (const i of kept) for (let j = 0; j < d; j++) mean[j] += rows[i * d + j];
  for (let j = 0; j < d; j++) mean[j] /= kept.length;
  const cov = new Float64Array(d * d);
  const x = new Float64Array(d);
  for (const i of kept) {
    for (let j = 0; j < d; j++) x[j] = rows[i * d + j] - mean[j];
    for (let a = 0; a < d; a++) for (let b = a; b < d; b++) cov[a * d + b] += x[a] * x[b];
  }
  for (let a = 0; a < d; a++) for (let b = a; b < d; b++) cov[b * d + a] = cov[a * d + b] /= kept.length;
  const { values, vectors: eigen } = jacobiEigen(cov, d);
  const order = values.map((value, c) => [value, c]).sort((p, q) => q[0] - p[0]).map(([, c]) => c);
  const axes64 = new Float64Array(cols * d);
  order.slice(0, cols).forEach((column, a) => {
    // The sign: an eigenvector's is arbitrary; the shipped coordinates fix it.
    let agree = 0;
    for (const i of kept) {
      let dot = 0;
      for (let j = 0; j < d; j++) dot += (rows[i * d + j] - mean[j]) * eigen[j * d + column];
      agree += dot * f16Value(target[i * cols + a]);
    }
    for (let j = 0; j < d; j++) axes64[a * d + j] = Math.sign(agree) * eigen[j * d + column];
  });
  const axes = Float32Array.from(axes64);
  const meanAlong = new Float64Array(cols);
  for (let a = 0; a < cols; a++) for (let j = 0; j < d; j++) meanAlong[a] += mean[j] * axes64[a * d + j];
  const bits = projectedRows(words, axes, meanAlong, cols);
  const fixAt = [];
  bits.forEach((b, k) => { if (b !== target[k]) fixAt.push(k); });
  if (V * cols !== bits.length) throw new Error(`pack-models: ${name} has ${V} rows, the vocabulary ${bits.length / cols}`);
  const fix = Uint16Array.from(fixAt, (k) => target[k]);
  return [
    [`${name}/axes`, { dtype: 'F32', shape: [cols, d], bytes: bytesOf(axes) }],
    [`${name}/mean`, { dtype: 'F64', shape: [cols], bytes: bytesOf(meanAlong) }],
    [`${name}/fixAt`, { dtype: 'U32', shape: [fixAt.length], bytes: bytesOf(Uint32Array.from(fixAt)) }],
    [`${name}/fix`, { dtype: 'F16', shape: [fix.length], bytes: bytesOf(fix) }],
  ];
}

/** An F16 safetensors model file (its frozen wte, if any, PCA rows of `vectors`) → its packed bytes. */
export function packWeights(bytes, vectors) {
  const { header, data } = readSafetensors(bytes);
  const { vocab: vocabJson, ...metadata } = header.__metadata__;
  const vocab = JSON.parse(vocabJson);
  if (JSON.stringify(vocab) !== vocabJson) throw new Error('pack-models: the vocabulary would not come back as the same JSON');
  const out = [[VOCAB_ROWS, { dtype: 'U16', shape: [vocab.length], bytes: bytesOf(vocabularyRows(vocab, vectors)) }]];
  for (const [name, spec] of tensorsOf(header)) {
    if (spec.dtype !== 'F16') throw new Error(`pack-models: ${name} is ${spec.dtype}; the shipped models are F16`);
    if (name === 'wte.weight') {
      out.push(...packWordRows(name, spec, data, vocab, vectors));
    } else if (spec.shape.length === 2) {
      const [rows, cols] = spec.shape;
      const { q, scales } = quantiseRows(Float64Array.from(tensorView(data, spec), f16Value), rows, cols);
      out.push([name, { dtype: 'I8', shape: spec.shape, bytes: bytesOf(q) }],
        [`${name}/scale`, { dtype: 'F32', shape: [rows], bytes: bytesOf(scales) }]);
    } else {
      out.push([name, { dtype: 'F16', shape: spec.shape, bytes: data.subarray(...spec.data_offsets) }]);
    }
  }
  // The output layer last (a stable sort keeps the rest in the source's order).
  const late = ([key]) => (AFTER_HEADS.includes(key.split('/')[0]) ? 1 : 0);
  return writeSafetensors(out.sort((a, b) => late(a) - late(b)), { ...metadata, [PACKING_KEY]: PACKING });
}

function main(out) {
  if (!out) throw new Error('usage: pack-models.mjs OUT');
  const manifest = JSON.parse(fs.readFileSync(path.join(MODELS, 'manifest.json'), 'utf8'));
  const vectors = new Uint8Array(fs.readFileSync(VECTORS));
  fs.mkdirSync(out, { recursive: true });
  manifest.models = manifest.models.map((entry) => {
    const source = new Uint8Array(fs.readFileSync(path.join(MODELS, `${entry.name}.safetensors`)));
    if (sha256(source) !== entry.sha256) throw new Error(`pack-models: data/models/${entry.name}.safetensors is not the manifest's file`);
    const packed = packWeights(source, vectors);
    fs.writeFileSync(path.join(out, packedFile(entry.name)), packed);
    const { bytes, sha256: sourceSha256, fullBytes, fullSha256, ...rest } = entry;
    const heads = packed.subarray(0, headsBytes(packed));
    return { ...rest, file: packedFile(entry.name), bytes: packed.length, sha256: sha256(packed),
      heads: { bytes: heads.length, sha256: sha256(heads) },
      source: { file: `${entry.name}.safetensors`, bytes, sha256: sourceSha256, fullBytes, fullSha256 } };
  });
  manifest.packing = `${PACKING}: matrices int8 per row (float32 scales), vectors F16, the vocabulary as rows of the word vectors, frozen PCA word rows rebuilt from them (web/packed-weights.mjs)`;
  fs.writeFileSync(path.join(out, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const sizes = manifest.models.map((m) => `${m.name} ${m.source.bytes} → ${m.bytes}`).join(', ');
  console.log(`pack-models: ${sizes} bytes`);
}

if (process.argv[1] === new URL(import.meta.url).pathname) main(process.argv[2]);
