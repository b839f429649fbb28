// Checks the committed word-vector file data/glove-6b-100d-20k.i8 (format in data/README.md)
// without the 118 MB source package: header, exact layout, checksum, vocabulary, scales, and a few
// semantic sanity checks on the dequantized vectors. The quantization quality against the original
// floats (worst cosine) is measured by ./scripts/make-vectors, which needs the package.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import crypto from 'node:crypto';

const FILE = new URL('../../data/glove-6b-100d-20k.i8', import.meta.url);
const README = new URL('../../data/README.md', import.meta.url);
const SHA256 = '2dbbe68834de19e9d829f43c99c27e220504d1b2d22ea5a7e4f5939661a99f12';
const SIZE = 2241404;

const bytes = fs.readFileSync(FILE);

function parse(buf) {
  const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const magic = buf.subarray(0, 8).toString('latin1');
  const count = dv.getUint32(8, true);
  const dim = dv.getUint32(12, true);
  const vocabularyBytes = dv.getUint32(16, true);
  const flags = dv.getUint32(20, true);
  const vocabEnd = 24 + vocabularyBytes;
  const scalesAt = (vocabEnd + 3) & ~3;
  const valuesAt = scalesAt + 4 * count;
  const trailerAt = valuesAt + count * dim;
  const words = buf.subarray(24, vocabEnd).toString('utf8').split('\n');
  const scales = new Float32Array(count);
  for (let i = 0; i < count; i++) scales[i] = dv.getFloat32(scalesAt + 4 * i, true);
  const values = new Int8Array(buf.buffer, buf.byteOffset + valuesAt, count * dim);
  return {
    magic, count, dim, vocabularyBytes, flags, words, scales, values,
    padding: buf.subarray(vocabEnd, scalesAt),
    expectedSize: trailerAt + 8,
    componentRms: dv.getFloat32(trailerAt, true),
    meanNorm: dv.getFloat32(trailerAt + 4, true),
  };
}

const f = parse(bytes);
const index = new Map(f.words.map((w, i) => [w, i]));

function vector(word) {
  const i = index.get(word);
  assert.ok(i !== undefined, `${word} is in the vocabulary`);
  return Array.from(f.values.subarray(i * f.dim, (i + 1) * f.dim), (q) => q * f.scales[i]);
}
function cosine(a, b) {
  let d = 0, aa = 0, bb = 0;
  for (let j = 0; j < a.length; j++) { d += a[j] * b[j]; aa += a[j] * a[j]; bb += b[j] * b[j]; }
  return d / Math.sqrt(aa * bb);
}

test('vectors file: header', () => {
  assert.equal(f.magic, 'PELVEC01');
  assert.equal(f.count, 20000);
  assert.equal(f.dim, 100);
  assert.equal(f.flags, 0);
  assert.equal(Buffer.byteLength(f.words.join('\n'), 'utf8'), f.vocabularyBytes);
  assert.ok(f.padding.length < 4 && f.padding.every((b) => b === 0), 'vocabulary padded with zeros to a multiple of 4');
});

test('vectors file: size and checksum (data/README.md quotes the same)', () => {
  assert.equal(bytes.length, f.expectedSize, 'file length matches the layout exactly');
  assert.equal(bytes.length, SIZE);
  assert.ok(bytes.length <= 2.5e6, 'within the 2.5 MB budget');
  assert.equal(crypto.createHash('sha256').update(bytes).digest('hex'), SHA256);
  const readme = fs.readFileSync(README, 'utf8');
  assert.ok(readme.includes(SHA256), 'data/README.md states the sha256');
  assert.ok(readme.includes(String(SIZE)), 'data/README.md states the size in bytes');
});

test('vectors file: vocabulary', () => {
  assert.equal(f.words.length, 20000);
  assert.equal(new Set(f.words).size, 20000, 'words are unique');
  for (const w of f.words) {
    assert.ok(w.length > 0, 'no empty word');
    assert.ok(!/\s/.test(w), `no whitespace in ${JSON.stringify(w)}`);
    assert.equal(w, w.toLowerCase(), `${w} is lowercase`);
  }
  // The package's frequency order (GloVe 6B's own): punctuation is among the most frequent tokens.
  assert.deepEqual(f.words.slice(0, 10), ['the', ',', '.', 'of', 'to', 'and', 'in', '"', 'for', '-']);
  for (const w of ['king', 'queen', 'man', 'woman', 'paris', 'france', 'tokyo', 'japan', 'banana',
    'well-known', '(', ')', ';', "'", '?', '!']) {
    assert.ok(index.has(w), `${JSON.stringify(w)} is in the top 20,000`);
  }
  // Facts the tokenizer must handle: the package has no clitics and no pure numbers at all, and
  // these hyphenated words rank below 20,000 (co-operate 60,949th, e-mail 26,720th in the package).
  for (const w of ["'s", "n't", '2', '1999', 'café', 'co-operate', 'e-mail']) {
    assert.ok(!index.has(w), `${JSON.stringify(w)} is not in the file`);
  }
  assert.ok(!f.words.some((w) => /^[0-9][0-9.,]*$/.test(w)), 'no pure numbers');
});

test('vectors file: scales and values', () => {
  for (let i = 0; i < f.count; i++) {
    const s = f.scales[i];
    assert.ok(Number.isFinite(s) && s > 0, `scale of ${f.words[i]} is finite and positive`);
    // Symmetric absmax quantization: every row reaches ±127 and never -128.
    let maxAbs = 0;
    for (let j = 0; j < f.dim; j++) {
      const q = f.values[i * f.dim + j];
      assert.ok(q >= -127, `${f.words[i]}[${j}] ≥ -127`);
      maxAbs = Math.max(maxAbs, Math.abs(q));
    }
    assert.equal(maxAbs, 127, `row ${f.words[i]} reaches ±127`);
  }
});

test('vectors file: trailer statistics agree with the dequantized vectors', () => {
  let sumSquares = 0, sumNorms = 0;
  for (let i = 0; i < f.count; i++) {
    let n2 = 0;
    for (let j = 0; j < f.dim; j++) n2 += (f.values[i * f.dim + j] * f.scales[i]) ** 2;
    sumSquares += n2;
    sumNorms += Math.sqrt(n2);
  }
  const rms = Math.sqrt(sumSquares / (f.count * f.dim));
  const meanNorm = sumNorms / f.count;
  assert.ok(Number.isFinite(f.componentRms) && f.componentRms > 0);
  assert.ok(Math.abs(rms / f.componentRms - 1) < 1e-3, `component_rms ${f.componentRms} vs ${rms}`);
  assert.ok(Math.abs(meanNorm / f.meanNorm - 1) < 1e-3, `mean_norm ${f.meanNorm} vs ${meanNorm}`);
});

test('vectors file: related words are closer than unrelated ones', () => {
  assert.ok(cosine(vector('king'), vector('queen')) > 0.7);
  assert.ok(cosine(vector('king'), vector('queen')) > cosine(vector('king'), vector('banana')) + 0.4);
  assert.ok(cosine(vector('paris'), vector('france')) > cosine(vector('paris'), vector('banana')) + 0.4);
  assert.ok(cosine(vector('tokyo'), vector('japan')) > cosine(vector('tokyo'), vector('banana')) + 0.4);
  // The classic analogy holds after quantization: king − man + woman ≈ queen.
  const [king, man, woman] = [vector('king'), vector('man'), vector('woman')];
  const target = king.map((x, j) => x - man[j] + woman[j]);
  let best = '', bestCos = -Infinity;
  for (const w of f.words) {
    if (w === 'king' || w === 'man' || w === 'woman') continue;
    const c = cosine(target, vector(w));
    if (c > bestCos) { bestCos = c; best = w; }
  }
  assert.equal(best, 'queen');
});
