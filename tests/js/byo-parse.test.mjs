// The bring-your-own-vectors parser (web/formats/vector-text.js): GloVe and word2vec text in, PELVEC01 out.
// Good, malformed, truncated and binary files; every chunk boundary; and a round trip through the
// real module (dist/posenc.mjs and dist/formats/, which imports the generated scheme table: run
// ./scripts/build first).
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import {
  createTextVectorParser, parseTextVectors, checkFileSize, VectorFileError, MAX_FILE_BYTES,
  MAX_REPORTED_ERRORS, POLICY, oddDimensionMessage, scanValues,
} from '../../dist/formats/vector-text.js';
import { load } from '../../dist/posenc.mjs';

const encoder = new TextEncoder();
const utf8 = (text) => encoder.encode(text);

// A small file with real-looking values, non-ASCII words (2-, 3- and 4-byte UTF-8) and varied
// number spellings; `vectors` holds what the text means.
const DIM = 6;
const WORDS = ['the', 'king', 'queen', 'café', '東京', 'emoji🙂', 'e-mail', ',', 'man', 'woman'];
function makeVectors() {
  const rows = WORDS.map((_, i) => Array.from({ length: DIM }, (_, j) => Number((Math.sin(7 * i + 3 * j + 1) * (1 + i / 4)).toFixed(6))));
  // Vectors that are close pairs, so neighbours are predictable.
  rows[2] = rows[1].map((v, j) => Number((v + (j % 2 ? 0.01 : -0.01)).toFixed(6)));  // queen ≈ king
  rows[9] = rows[8].map((v, j) => Number((v * 1.02 + (j === 0 ? 0.003 : 0)).toFixed(6)));  // woman ≈ man
  return rows;
}
const VECTORS = makeVectors();
const spell = (v, j) => {
  // Exercise the number grammar: exponents, a '+' sign, a bare leading '.', trailing zeros.
  if (j === 1) return v.toExponential();
  if (j === 2 && v > 0) return `+${v}`;
  if (j === 3 && Math.abs(v) < 1 && v !== 0) return v.toFixed(6).replace(/^(-?)0\./, '$1.');
  if (j === 4) return v.toFixed(8);
  return String(v);
};
const gloveText = (eol = '\n', rows = VECTORS) =>
  WORDS.map((w, i) => `${w} ${rows[i].map(spell).join(' ')}`).join(eol) + eol;

function refusal(input, options) {
  try {
    parseTextVectors(input, options);
  } catch (error) {
    assert.ok(error instanceof VectorFileError, `a VectorFileError, got ${error}`);
    return error;
  }
  assert.fail('the file was accepted');
}

// Reads a PELVEC01 file independently of the core (data/README.md).
function unpack(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  assert.equal(new TextDecoder().decode(bytes.subarray(0, 8)), 'PELVEC01');
  const count = view.getUint32(8, true);
  const dim = view.getUint32(12, true);
  const vocabularyBytes = view.getUint32(16, true);
  assert.equal(view.getUint32(20, true), 0, 'flags');
  const words = new TextDecoder().decode(bytes.subarray(24, 24 + vocabularyBytes)).split('\n');
  const scalesAt = 24 + Math.ceil(vocabularyBytes / 4) * 4;
  for (let i = 24 + vocabularyBytes; i < scalesAt; i++) assert.equal(bytes[i], 0, 'padding is zeros');
  const valuesAt = scalesAt + 4 * count;
  assert.equal(bytes.length, valuesAt + count * dim + 8, 'total length');
  const scales = Array.from({ length: count }, (_, i) => view.getFloat32(scalesAt + 4 * i, true));
  const values = new Int8Array(bytes.buffer, bytes.byteOffset + valuesAt, count * dim);
  return {
    count, dim, words, scales, values,
    componentRms: view.getFloat32(bytes.length - 8, true),
    meanNorm: view.getFloat32(bytes.length - 4, true),
  };
}

describe('good files', () => {
  it('GloVe text: words in order, quantized exactly as data/README.md says', () => {
    const { bytes, summary } = parseTextVectors(utf8(gloveText()));
    assert.equal(summary.format, 'glove');
    assert.equal(summary.words, WORDS.length);
    assert.equal(summary.dim, DIM);
    assert.equal(summary.skipped, 0);
    assert.deepEqual(summary.notices, []);
    const file = unpack(bytes);
    assert.deepEqual(file.words, WORDS, 'words kept exactly as written (case, UTF-8)');
    let sumSquares = 0;
    let sumNorms = 0;
    VECTORS.forEach((v, i) => {
      const maxAbs = Math.max(...v.map(Math.abs));
      const scale = Math.fround(maxAbs / 127);
      assert.equal(file.scales[i], scale, `scale of ${WORDS[i]}`);
      const q = [...file.values.subarray(i * DIM, (i + 1) * DIM)];
      assert.deepEqual(q, v.map((x) => Math.min(127, Math.max(-127, Math.sign(x) * Math.floor(Math.abs(x / scale) + 0.5)))));
      assert.equal(Math.max(...q.map(Math.abs)), 127, 'every row reaches ±127');
      const n2 = v.reduce((s, x) => s + x * x, 0);
      sumSquares += n2;
      sumNorms += Math.sqrt(n2);
    });
    assert.equal(file.componentRms, Math.fround(Math.sqrt(sumSquares / (WORDS.length * DIM))), 'component_rms of the original values');
    assert.equal(file.meanNorm, Math.fround(sumNorms / WORDS.length), 'mean_norm of the original values');
    assert.equal(summary.componentRms, file.componentRms);
  });

  it('word2vec text (a "count dim" header line) gives the same bytes', () => {
    const glove = parseTextVectors(utf8(gloveText()));
    const w2v = parseTextVectors(utf8(`${WORDS.length} ${DIM}\n${gloveText()}`));
    assert.equal(w2v.summary.format, 'word2vec');
    assert.deepEqual(w2v.summary.header, { count: WORDS.length, dim: DIM });
    assert.deepEqual(w2v.summary.notices, []);
    assert.deepEqual(w2v.bytes, glove.bytes);
    // word2vec's C tool writes a space before each newline; a wrong count in the header is reported.
    const trailing = parseTextVectors(utf8(`12 ${DIM}\n${gloveText(' \n')}`));
    assert.deepEqual(trailing.bytes, glove.bytes);
    assert.match(trailing.summary.notices.join(' '), /header says 12 words; the file has 10/);
  });

  it('CRLF, a missing final newline, a byte-order mark, blank lines and tabs change nothing', () => {
    const reference = parseTextVectors(utf8(gloveText())).bytes;
    const variants = {
      crlf: gloveText('\r\n'),
      'no final newline': gloveText().slice(0, -1),
      'no final newline, CRLF': gloveText('\r\n').slice(0, -2),
      bom: `\uFEFF${gloveText()}`,
      'bom + crlf': `\uFEFF${gloveText('\r\n')}`,
      'blank lines': `\n${gloveText('\n\n')}\n  \n`,
      tabs: gloveText().replaceAll(' ', '\t'),
      'double spaces': gloveText().replaceAll(' ', '  '),
    };
    for (const [name, text] of Object.entries(variants)) {
      const { bytes, summary } = parseTextVectors(utf8(text));
      assert.deepEqual(bytes, reference, name);
      assert.equal(summary.skipped, 0, name);
    }
    assert.equal(unpack(parseTextVectors(utf8(variants.bom)).bytes).words[0], 'the', 'the BOM is not part of the first word');
  });

  it('every chunk boundary gives identical results (bytes and summary)', () => {
    // A file with a BOM, CRLF, a header, multi-byte words, a malformed line and no final newline.
    const lines = gloveText('\r\n').split('\r\n');
    lines.splice(4, 0, 'broken 1 2 x 4 5 6');
    const text = `\uFEFF${WORDS.length + 1} ${DIM}\r\n${lines.join('\r\n').replace(/\r\n$/, '')}`;
    const file = utf8(text);
    const whole = parseTextVectors(file);
    assert.equal(whole.summary.words, WORDS.length);
    assert.deepEqual(whole.summary.errors, [{ line: 6, reason: "value 3 ('x') is not a number" }]);
    for (let cut = 0; cut <= file.length; cut++) {
      const split = parseTextVectors([file.subarray(0, cut), file.subarray(cut)]);
      assert.deepEqual(split.bytes, whole.bytes, `cut at byte ${cut}`);
      assert.deepEqual(split.summary, whole.summary, `cut at byte ${cut}`);
    }
    const bytewise = parseTextVectors(Array.from(file, (b) => Uint8Array.of(b)));
    assert.deepEqual(bytewise.bytes, whole.bytes, 'one byte per chunk');
    assert.deepEqual(bytewise.summary, whole.summary, 'one byte per chunk');
  });

  it('numbers: signs, exponents, long mantissas and huge exponents parse like Number()', () => {
    const tokens = ['0', '-0', '1', '-1.5', '+2.25', '.5', '-.5', '5.', '1e-3', '1E+2', '-2.5e-7',
      '0.12345678901234567890', '12345678.9012345678', '1.2e8', '1e-300', '0.000000000000000000000000123', '7'];
    const line = `w ${tokens.join(' ')} 1\n`; // 18 values
    const { bytes, summary } = parseTextVectors(utf8(line));
    assert.equal(summary.dim, 18);
    const file = unpack(bytes);
    const v = [...tokens.map(Number), 1];
    const scale = Math.fround(Math.max(...v.map(Math.abs)) / 127);
    assert.equal(file.scales[0], scale);
    assert.deepEqual([...file.values], v.map((x) => Math.sign(x) * Math.floor(Math.abs(x / scale) + 0.5) || 0));
    assert.equal(file.componentRms, Math.fround(Math.sqrt(v.reduce((s, x) => s + x * x, 0) / 18)));
  });

  it('the number scanner gives exactly what Number() gives, past 15 digits in either part included', () => {
    // Both digit paths on each side of the 15 kept digits: integer parts that drop zeros (fast
    // path) or nonzero digits (Number()), fractions that drop them, and digits dropped in the
    // integer part followed by a fraction. Then fixed-seed random spellings of every shape.
    const fixed = ['100000000000000000000', '12345678901234567890', '1234567890123456.5', '123456789012345.6',
      '0.12345678901234567890', '0.1234567890123450000', '000000000000000000012.5', '-99999999999999999.9e-3',
      '1.00000000000000000001', '0.000000000000001234567890123456789'];
    let x = 20261124;
    const next = (n) => (x = (x * 1103515245 + 12345) >>> 0) % n;
    const digits = (n) => Array.from({ length: n }, () => next(10)).join('');
    const random = Array.from({ length: 2000 }, () => {
      const fraction = next(3) ? `.${digits(next(25))}` : '';
      const exponent = next(3) ? '' : `e${['', '-', '+'][next(3)]}${next(30)}`;
      return `${['', '-', '+'][next(3)]}${digits(next(25) + (fraction.length > 1 ? 0 : 1))}${fraction}${exponent}`;
    });
    for (const tokens of [fixed, random]) {
      const out = new Float64Array(tokens.length);
      const state = new Int32Array(3);
      const line = utf8(tokens.join(' '));
      assert.equal(scanValues(line, 0, line.length, out, state), tokens.length);
      tokens.forEach((token, i) => assert.ok(Object.is(out[i], Number(token)), `${token}: ${out[i]} ≠ ${Number(token)}`));
    }
  });

  it('repeated words keep their first vector; the rest are counted and named', () => {
    const text = `${gloveText()}king ${'9 '.repeat(DIM).trim()}\nking ${'8 '.repeat(DIM).trim()}\nqueen ${'7 '.repeat(DIM).trim()}\n`;
    const { bytes, summary } = parseTextVectors(utf8(text));
    assert.equal(summary.words, WORDS.length);
    assert.equal(summary.duplicates, 3);
    assert.deepEqual(summary.duplicateExamples, [{ line: 11, word: 'king' }, { line: 12, word: 'king' }, { line: 13, word: 'queen' }]);
    assert.match(summary.notices.join(' '), /Ignored 3 repeated words/);
    assert.deepEqual(bytes, parseTextVectors(utf8(gloveText())).bytes, 'the first vectors are kept');
  });

  it('maxWords: keeps the first words, stops reading and says so', () => {
    const parser = createTextVectorParser({ maxWords: 4 });
    const file = utf8(gloveText());
    assert.equal(parser.push(file), false, 'push() asks for no more bytes');
    assert.equal(parser.push(utf8('more 1 2 3 4 5 6\n')), false);
    const { bytes, summary } = parser.finish();
    assert.deepEqual(unpack(bytes).words, WORDS.slice(0, 4));
    assert.deepEqual(summary.truncated, { atLine: 5, reason: 'maxWords' });
    assert.match(summary.notices[0], /Kept the first 4 words .*from line 5, was left out/);
    // Exactly maxWords words: nothing is left out, nothing said.
    const exact = parseTextVectors(file, { maxWords: WORDS.length });
    assert.equal(exact.summary.truncated, null);
    assert.deepEqual(exact.summary.notices, []);
    // maxValues caps words × dim too.
    const capped = parseTextVectors(file, { maxValues: 3 * DIM + 1 });
    assert.equal(capped.summary.words, 3);
    assert.equal(capped.summary.truncated.reason, 'maxValues');
  });

  it('all-zero vectors are kept with scale 0 (and counted)', () => {
    const { bytes, summary } = parseTextVectors(utf8(`zero 0 0 0 0\none 1 -1 0.5 0\n`));
    assert.equal(summary.zeroVectors, 1);
    assert.deepEqual(unpack(bytes).scales, [0, Math.fround(1 / 127)]);
  });
});

describe('malformed, truncated and refused files', () => {
  it('malformed lines are skipped and reported with their 1-based line numbers', () => {
    const good = (w) => `${w} 1 2 3 4`;
    const lines = [
      good('a'),                 // 1
      'b 1 2 3',                 // 2 too few
      good('c'),                 // 3
      'd 1 2 3 4 5',             // 4 too many
      '',                        // 5 blank: fine
      'e 1 two 3 4',             // 6 not a number
      'f 1 2 NaN 4',             // 7 not finite
      'g 1 2 3 -inf',            // 8 not finite
      'h 1 2 3 1e999',           // 9 overflows double
      'i 1 2 3 1e39',            // 10 beyond float32
      ' 1 2 3 4',                // 11 empty word
      'j',                       // 12 no values
      good('k'),                 // 13
      'l 1 2 3 4x',              // 14 not a number
    ];
    const { bytes, summary } = parseTextVectors(utf8(`${lines.join('\n')}\n`));
    assert.deepEqual(unpack(bytes).words, ['a', 'c', 'k']);
    assert.equal(summary.skipped, 10);
    assert.deepEqual(summary.errors, [
      { line: 2, reason: 'expected 4 values after the word, found 3' },
      { line: 4, reason: 'expected 4 values after the word, found 5' },
      { line: 6, reason: "value 2 ('two') is not a number" },
      { line: 7, reason: "value 3 ('NaN') is not a finite number" },
      { line: 8, reason: "value 4 ('-inf') is not a finite number" },
      { line: 9, reason: "value 4 ('1e999') is not a finite number" },
      { line: 10, reason: "value 4 ('1e39') is beyond ±1.27e8, the largest component this page stores" },
      { line: 11, reason: 'the line starts with a space, so its word is empty' },
      { line: 12, reason: 'no values after the word' },
      { line: 14, reason: "value 4 ('4x') is not a number" },
    ]);
    assert.match(summary.notices.join(' '), /Skipped 10 unreadable lines/);
  });

  it('a truncated last line is skipped and reported; the rest loads', () => {
    const text = gloveText();
    const cut = text.lastIndexOf(' ', text.length - 8); // inside the last line, between two values
    const { bytes, summary } = parseTextVectors(utf8(text.slice(0, cut)));
    assert.deepEqual(unpack(bytes).words, WORDS.slice(0, -1));
    assert.equal(summary.errors.length, 1);
    assert.equal(summary.errors[0].line, WORDS.length);
    assert.match(summary.errors[0].reason, /^expected 6 values after the word, found [1-5] \(the file may be truncated\)$/);
    // Cut inside a value: "-0.12" of "-0.123456" is still a number, the count is what is wrong.
    const { summary: s2 } = parseTextVectors(utf8(`${text}last 1 2 3 4 5 -0.12`));
    assert.equal(s2.words, WORDS.length + 1, 'a complete last line without newline is fine');
    const { summary: s3 } = parseTextVectors(utf8(`${text}last 1 2 3 4 -0.`));
    assert.equal(s3.errors[0].line, WORDS.length + 1);
  });

  it('more than 10 unreadable lines and more than 1% of the lines: refused, with the lines listed', () => {
    const lines = [];
    for (let i = 0; i < 40; i++) lines.push(i % 3 === 0 ? `w${i} 1 2 x 4` : `w${i} 1 2 3 4`);
    const error = refusal(utf8(lines.join('\n')));
    assert.equal(error.code, 'too-many-errors');
    assert.match(error.message, /too many unreadable lines: 11 of the 31 lines read/);
    assert.equal(error.errors.length, 11);
    assert.deepEqual(error.errors.map((e) => e.line), [1, 4, 7, 10, 13, 16, 19, 22, 25, 28, 31]);
    // 10 bad lines among 30 good ones are tolerated; so are 11 among 2,000.
    assert.equal(parseTextVectors(utf8(lines.slice(0, 30).join('\n'))).summary.skipped, 10);
    const many = Array.from({ length: 2000 }, (_, i) => (i % 180 === 179 ? `w${i} x 2 3 4` : `w${i} 1 2 3 4`));
    assert.equal(parseTextVectors(utf8(many.join('\n'))).summary.skipped, 11);
    // No more than MAX_REPORTED_ERRORS are listed; all are counted.
    const sparse = Array.from({ length: 3000 }, (_, i) => (i % 120 === 0 ? `w${i} x 2 3 4` : `w${i} 1 2 3 4`));
    const { summary } = parseTextVectors(utf8(sparse.join('\n')));
    assert.equal(summary.skipped, 25);
    assert.equal(summary.errors.length, MAX_REPORTED_ERRORS);
  });

  it('odd dimensions are refused with a clear message (GloVe and word2vec)', () => {
    const message = 'dimension 99 is odd: positional encodings pair dimensions; use an even-dimensional file';
    assert.equal(oddDimensionMessage(99), message);
    const odd = `word ${Array.from({ length: 99 }, (_, i) => i / 100).join(' ')}\n`;
    let error = refusal(utf8(odd.repeat(3)));
    assert.equal(error.code, 'odd-dimension');
    assert.equal(error.message, message);
    error = refusal(utf8('100 99\n'));
    assert.equal(error.code, 'odd-dimension');
    assert.equal(error.message, message);
    assert.equal(refusal(utf8('a 1 2 3\n')).message, oddDimensionMessage(3));
  });

  it('inconsistent dimensions are refused, naming the first offending line', () => {
    // The header says 4, the first vector has 6.
    let error = refusal(utf8('3 4\na 1 2 3 4 5 6\nb 1 2 3 4 5 6\n'));
    assert.equal(error.code, 'inconsistent-dimension');
    assert.equal(error.message, 'inconsistent dimensions: the header (line 1) says 4 dimensions, but line 2 has 6 values');
    assert.equal(error.line, 2);
    // GloVe: the first line has 4 values, most later lines 6.
    const lines = ['a 1 2 3 4', 'b 1 2 3 4'];
    for (let i = 0; i < 20; i++) lines.push(`w${i} 1 2 3 4 5 6`);
    error = refusal(utf8(lines.join('\n')));
    assert.equal(error.code, 'inconsistent-dimension');
    assert.match(error.message, /^inconsistent dimensions: line 1 has 4 values, but line 3 has 6 \(11 of 13 lines read disagree\)$/);
    assert.equal(error.line, 3);
    assert.equal(error.errors[0].line, 3);
  });

  it('binary files are refused before any vector is read', () => {
    const message = 'this looks like a binary file (word2vec .bin is not supported; convert it to text)';
    // Random bytes with NUL bytes (a fixed LCG, so the test is deterministic).
    const random = new Uint8Array(5000);
    let x = 12345;
    for (let i = 0; i < random.length; i++) random[i] = (x = (x * 1103515245 + 12345) >>> 0) >>> 24;
    random[100] = 0;
    let error = refusal(random);
    assert.equal(error.code, 'binary');
    assert.equal(error.message, message);
    // word2vec .bin: a text header, then each word followed by raw float32s.
    const floats = new Float32Array([0.5, -0.25, 0.125, 1]);
    const bin = new Uint8Array([...utf8('2 4\nking '), ...new Uint8Array(floats.buffer), ...utf8('queen '), ...new Uint8Array(floats.buffer)]);
    assert.equal(refusal(bin).message, message);
    // Invalid UTF-8 but no NUL byte (Latin-1 text), and the refusal does not depend on chunking.
    const latin1 = Uint8Array.from([...utf8('caf'), 0xe9, ...utf8(' 1 2 3 4\n')]);
    assert.equal(refusal(latin1).message, message);
    assert.equal(refusal([latin1.subarray(0, 3), latin1.subarray(3, 4), latin1.subarray(4)]).message, message);
    // A UTF-8 character split across chunks is not invalid.
    const cafe = utf8('café 1 2 3 4\n');
    assert.equal(parseTextVectors([cafe.subarray(0, 4), cafe.subarray(4)]).summary.words, 1);
    // Compressed files and UTF-16 get their own advice.
    assert.match(refusal(Uint8Array.of(0x1f, 0x8b, 8, 0, 0, 0)).message, /gzip-compressed.*decompress/);
    assert.match(refusal(Uint8Array.of(0x50, 0x4b, 3, 4, 20, 0)).message, /zip archive/);
    const utf16 = new Uint8Array([0xff, 0xfe, ...Array.from(utf8('a 1 2\n')).flatMap((b) => [b, 0])]);
    assert.match(refusal(utf16).message, /UTF-16/);
    // Beyond the first 64 KiB, a bad word only costs its line.
    const big = `${'w 1 2 3 4\n'.replace('w', 'x')}${Array.from({ length: 7000 }, (_, i) => `w${i} 1 2 3 4\n`).join('')}`;
    const late = Uint8Array.from([...utf8(big), ...utf8('caf'), 0xe9, ...utf8(' 1 2 3 4\n')]);
    assert.ok(late.length > 65536);
    const { summary } = parseTextVectors(late);
    assert.deepEqual(summary.errors, [{ line: 7002, reason: 'the word is not valid UTF-8' }]);
  });

  it('empty files, files of blank lines and a header alone are refused', () => {
    assert.equal(refusal(new Uint8Array(0)).code, 'empty');
    assert.equal(refusal(new Uint8Array(0)).message, 'the file is empty');
    assert.equal(refusal(utf8('\n\r\n  \n')).code, 'empty');
    assert.equal(refusal(utf8('\uFEFF')).code, 'empty');
    assert.equal(refusal(utf8('10 4\n')).message, 'the file has a word2vec header but no vectors');
    assert.equal(refusal(utf8('0 0\n')).code, 'bad-header');
    assert.equal(refusal(utf8('z 0 0\ny 0 0\n')).code, 'zero-vectors');
    const prose = 'It was the best of times,\nit was the worst of times,\n';
    assert.equal(refusal(utf8(prose)).code, 'no-vectors');
  });

  it('size limits: over 500 MB is refused before reading, dimension over 4096 and huge lines too', () => {
    assert.equal(MAX_FILE_BYTES, 500e6);
    assert.doesNotThrow(() => checkFileSize(MAX_FILE_BYTES));
    assert.throws(() => checkFileSize(MAX_FILE_BYTES + 1), (e) => e.code === 'too-large' && /at most 500 MB/.test(e.message));
    assert.throws(() => checkFileSize(0), (e) => e.code === 'empty');
    const wide = `w ${'1 '.repeat(4098).trim()}\n`;
    assert.equal(refusal(utf8(wide)).message, 'dimension 4,098 is larger than 4,096, the most PosEnc Lab handles');
    assert.equal(refusal(utf8('3 5000\n')).code, 'dimension-too-large');
    assert.equal(parseTextVectors(utf8(`w ${'1 '.repeat(4096).trim()}\n`)).summary.dim, 4096);
    const noNewlines = new Uint8Array(1.5 * 1024 * 1024).fill(0x31);
    assert.equal(refusal([noNewlines.subarray(0, 700000), noNewlines.subarray(700000)]).code, 'line-too-long');
  });

  it('after a refusal the parser stays refused; the policy is stated', () => {
    const parser = createTextVectorParser();
    assert.throws(() => parser.push(utf8('a 1 2 3\n')), VectorFileError);
    assert.throws(() => parser.push(utf8('b 1 2\n')), /odd/);
    assert.throws(() => parser.finish(), /odd/);
    assert.match(POLICY, /more than 10 lines, and more than 1% of the lines read/);
  });
});

describe('round trip through the real module', () => {
  let lab;
  before(async () => {
    lab = await load();
  });

  it('the packed bytes load; vectors match the text within scale/2 per component; neighbours work', async () => {
    const { bytes } = parseTextVectors(utf8(`${WORDS.length} ${DIM}\r\n${gloveText('\r\n')}`));
    const set = await lab.loadVectors(bytes);
    try {
      assert.equal(set.size, WORDS.length);
      assert.equal(set.dim, DIM);
      WORDS.forEach((word, i) => {
        assert.equal(set.word(i), word);
        assert.ok(set.has(word), word);
        const got = set.vector(word);
        // Quantization bound: |v − scale·q| ≤ scale/2 with scale = max|v|/127 (rounded to
        // float32, hence the relative slack of 2^-23 on the bound), plus float32 rounding of
        // scale·q (≤ 2^-24 relative to max|v|).
        const maxAbs = Math.max(...VECTORS[i].map(Math.abs));
        const bound = (Math.fround(maxAbs / 127) / 2) * (1 + 2 ** -22) + maxAbs * 2 ** -23;
        for (let j = 0; j < DIM; j++) {
          assert.ok(Math.abs(got[j] - VECTORS[i][j]) <= bound, `${word}[${j}]: ${got[j]} vs ${VECTORS[i][j]} (bound ${bound})`);
        }
      });
      assert.equal(set.neighbors('king', 1)[0].word, 'queen');
      assert.equal(set.neighbors('man', 1)[0].word, 'woman');
      assert.equal(set.neighbors('東京', 3).length, 3);
      assert.ok(Math.abs(set.componentRms - unpack(bytes).componentRms) < 1e-6);
    } finally {
      set.dispose();
    }
  });

  it('a 20,000-word, 100-d file (12 MB) round-trips', async () => {
    const lines = [];
    let x = 1;
    const rnd = () => ((x = (x * 1103515245 + 12345) >>> 0) / 2 ** 32 - 0.5);
    for (let i = 0; i < 20000; i++) {
      let line = `w${i}`;
      for (let j = 0; j < 100; j++) line += ` ${rnd().toFixed(5)}`;
      lines.push(line);
    }
    const file = utf8(lines.join('\n'));
    const started = performance.now();
    const parser = createTextVectorParser();
    for (let at = 0; at < file.length; at += 65536) parser.push(file.subarray(at, at + 65536));
    const { bytes, summary } = parser.finish();
    const seconds = (performance.now() - started) / 1000;
    assert.equal(summary.words, 20000);
    const set = await lab.loadVectors(bytes);
    try {
      assert.equal(set.size, 20000);
      assert.equal(set.word(12345), 'w12345');
      assert.equal(set.neighbors('w7', 1).length, 1);
    } finally {
      set.dispose();
    }
    assert.ok(seconds < 5, `parsing ${(file.length / 1e6).toFixed(1)} MB took ${seconds.toFixed(2)} s`);
  });

  it('the core refuses nothing the parser produces: duplicates, odd widths never reach it', async () => {
    const { bytes } = parseTextVectors(utf8('a 1 2\na 3 4\nb 0 0\n'));
    const set = await lab.loadVectors(bytes);
    assert.equal(set.size, 2);
    set.dispose();
  });
});
