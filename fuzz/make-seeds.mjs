// Writes the committed seed corpora in fuzz/corpus/<target>/ (deterministic; rerun after changing
// a target's input format):  node fuzz/make-seeds.mjs
// Each vectors seed starts with the mode byte fuzz_vectors.cpp reads (odd: the rest is the file).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), 'corpus');
const write = (target, name, bytes) => {
  mkdirSync(join(root, target), { recursive: true });
  writeFileSync(join(root, target, name), bytes);
};
for (const t of ['tokenizer', 'vectors', 'compare', 'safetensors']) rmSync(join(root, t), { recursive: true, force: true });

// --- tokenizer: sentences, unicode, clitics, hyphens, numbers, broken UTF-8 ---
const sentences = {
  'plain.txt': 'The king spoke to the queen in Paris, and the queen answered.',
  'clitics.txt': "Don't say the king's dog can't swim; we're sure they'll've gone. I'd, I'm",
  'hyphens.txt': 'A state-of-the-art, well-known co-operate e-mail x-ray\'s anti-war mid-1990s',
  'numbers.txt': 'Pi is 3.14, a million is 1,000,000; 2.5.6 and 1,2,3 and .5 and 5. end...',
  'unicode.txt': 'Café ÉLAN Ærø Straße ΑΘΗΝΑ МОСКВА Łódź “quoted” ‘single’ — naïve e\u0301 …',
  'emoji.txt': 'I 👍🏽 it 👨‍👩‍👧 ❤️ 1️⃣ 🇫🇷 flags\u200bzero\u00a0nbsp\u3000ideo',
  'cjk.txt': '東京は日本の首都です。ソウル、北京！',
  'empty.txt': '',
};
for (const [name, text] of Object.entries(sentences)) write('tokenizer', name, Buffer.from(text, 'utf8'));
write('tokenizer', 'broken-utf8.bin', Buffer.from([0x61, 0xc0, 0xaf, 0x62, 0xed, 0xa0, 0x80, 0xf4, 0x90, 0x80, 0x80, 0xe2, 0x82, 0x20, 0xff, 0x80, 0x63]));
write('tokenizer', 'controls.bin', Buffer.from('a\x00b\x01c\x7fd\r\ne\tf\u2028g', 'utf8'));

// --- vectors: a tiny valid PELVEC01 file (data/README.md) and damaged copies ---
function pelvec({ words, dim, scales, values, rms = 0.5, meanNorm = 2.0, vocabularyBytes, count }) {
  const vocab = Buffer.from(words.join('\n'), 'utf8');
  const vb = vocabularyBytes ?? vocab.length;
  const padded = Math.ceil(vocab.length / 4) * 4;
  const n = count ?? words.length;
  const out = Buffer.alloc(24 + padded + 4 * words.length + words.length * dim + 8);
  out.write('PELVEC01', 0, 'ascii');
  out.writeUInt32LE(n, 8);
  out.writeUInt32LE(dim, 12);
  out.writeUInt32LE(vb >>> 0, 16);
  vocab.copy(out, 24);
  let at = 24 + padded;
  for (const s of scales) { out.writeFloatLE(s, at); at += 4; }
  for (const v of values) { out.writeInt8(v, at); at += 1; }
  out.writeFloatLE(rms, at);
  out.writeFloatLE(meanNorm, at + 4);
  return out;
}
const base = {
  words: ['the', ',', 'king', 'queen', 'well-known', 'café'],
  dim: 4,
  scales: [0.01, 0.02, 0.03, 0.03, 0.005, 0],
  values: [127, -3, 5, 0, 1, 2, 127, -127, 30, 127, -20, 10, 35, 120, -127, 11, -127, 0, 0, 1, 0, 0, 0, 0],
};
const raw = (bytes) => Buffer.concat([Buffer.from([1]), bytes]);
const valid = pelvec(base);
write('vectors', 'valid.bin', raw(valid));
write('vectors', 'truncated-header.bin', raw(valid.subarray(0, 20)));
write('vectors', 'truncated-body.bin', raw(valid.subarray(0, valid.length - 3)));
write('vectors', 'trailing-bytes.bin', raw(Buffer.concat([valid, Buffer.from([0, 0, 0, 0])])));
const badMagic = Buffer.from(valid); badMagic.write('PELVEC02', 0, 'ascii');
write('vectors', 'bad-magic.bin', raw(badMagic));
write('vectors', 'odd-dim.bin', raw(pelvec({ ...base, dim: 3, values: base.values.slice(0, 18) })));
write('vectors', 'duplicate-word.bin', raw(pelvec({ ...base, words: ['the', ',', 'king', 'king', 'x', 'y'] })));
write('vectors', 'empty-word.bin', raw(pelvec({ ...base, words: ['the', '', 'king', 'q', 'x', 'y'] })));
write('vectors', 'nan-scale.bin', raw(pelvec({ ...base, scales: [0.01, NaN, 0, 0, 0, 0] })));
write('vectors', 'huge-scale.bin', raw(pelvec({ ...base, scales: [3e38, 0.01, 0, 0, 0, 0] })));
write('vectors', 'zero-rms.bin', raw(pelvec({ ...base, rms: 0 })));
write('vectors', 'count-mismatch.bin', raw(pelvec({ ...base, count: 5 })));
// vocabulary_bytes near 2^32: (v + 3) wraps in 32-bit size_t arithmetic (wasm32).
write('vectors', 'vocabulary-bytes-wrap.bin', raw(pelvec({ words: ['a'], dim: 2, scales: [1], values: [1, 1], vocabularyBytes: 0xfffffffd })));
write('vectors', 'binary-noise.bin', raw(Buffer.from(Array.from({ length: 64 }, (_, i) => (i * 37 + 11) & 255))));
write('vectors', 'text-file.bin', raw(Buffer.from('the 0.1 0.2 0.3\nking 0.4 0.5 0.6\n', 'utf8')));
// Assembled mode (even first byte): counts, dims and words come from the following bytes.
write('vectors', 'assembled.bin', Buffer.from([0, 2, 1, 9, ...Buffer.from('king\nqueen'), ...Array.from({ length: 48 }, (_, i) => (i * 29) & 255)]));
write('vectors', 'assembled-damaged.bin', Buffer.from([6, 3, 2, 5, ...Buffer.from('a\nb\nc'), 1, 255, 255, 255, 255, 4]));

// --- compare: mode byte, then the fields fuzz_compare.cpp reads in order ---
const compareSeeds = {
  // mode 0 (compare): flags, n, d, d_pos, heads, base index, alpha index, scale index, seed (4 bytes), embeddings
  'default.bin': [0, 0x00, 8, 16, 4, 0, 0, 0, 0, 1, 0, 0, 0],
  'half-widened-causal.bin': [0, 0x0f, 12, 32, 8, 2, 3, 3, 1, 7, 0, 0, 0],
  'heads.bin': [0, 0x08, 5, 64, 16, 4, 0, 1, 2, 9, 9, 9, 9],
  'odd-d.bin': [0, 0x00, 4, 5, 2, 0, 0, 0, 0, 0, 0, 0, 0],
  'bad-base.bin': [0, 0x00, 4, 8, 2, 0, 10, 0, 0, 0, 0, 0, 0],
  'raw-sizes.bin': [0, 0x10, 0, 4, 0, 0, 0, 16, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
  // mode 1 (limit checks + kernels): flags, n, d, base index, offset index, scale index, x
  'kernels.bin': [1, 0x00, 6, 8, 0, 1, 1],
  'kernels-half-causal.bin': [1, 0x60, 9, 12, 3, 3, 0],
  'kernels-bad-offset.bin': [1, 0x00, 3, 4, 0, 6, 9],
};
for (const [name, bytes] of Object.entries(compareSeeds)) {
  const noise = Array.from({ length: 64 }, (_, i) => (i * 53 + 7) & 255);
  write('compare', name, Buffer.from([...bytes, ...noise]));
}
// --- safetensors: assembled mode (even first byte: scheme, vocab, heads, width, context,
// pairing, flags [1 vocab, 2 F16, 4 truncate], then one byte per parameter and damage pairs),
// and raw files (odd first byte) with hostile headers ---
const schemes = ['nope', 'additive', 'learned', 'concatenated', 'rotary', 'alibi', 't5'];
schemes.forEach((name, s) => {
  write('safetensors', `assembled-${name}.bin`, Buffer.from([0, s, 3, s % 2, s % 3, 2, s & 1, s % 4]));
});
write('safetensors', 'assembled-damaged.bin', Buffer.from([0, 4, 2, 0, 0, 1, 0, 1, ...Array.from({ length: 300 }, (_, i) => (i * 41 + 3) & 255)]));
write('safetensors', 'assembled-truncated.bin', Buffer.from([0, 6, 5, 1, 1, 3, 1, 4 | (17 << 3)]));
const stFile = (header, data = Buffer.alloc(0)) => {
  const h = Buffer.from(header, 'utf8');
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(h.length));
  return Buffer.concat([Buffer.from([1]), length, h, data]);
};
const config = (extra = '') => JSON.stringify(`{"scheme":"nope","vocab":2,"d":2,"layers":1,"heads":1,"context":1${extra}}`);
write('safetensors', 'raw-empty-object.bin', stFile('{}'));
write('safetensors', 'raw-metadata-only.bin', stFile(`{"__metadata__":{"posenc":${config()}}}`));
write('safetensors', 'raw-bad-config.bin', stFile(`{"__metadata__":{"posenc":${config(',"d":3')}}}`));
write('safetensors', 'raw-one-tensor.bin', stFile(`{"__metadata__":{"posenc":${config()},"vocab":"[\"a\",\"b\"]"},"wte.weight":{"dtype":"F16","shape":[2,2],"data_offsets":[0,8]}}`, Buffer.alloc(8, 0x3c)));
write('safetensors', 'raw-huge-length.bin', Buffer.from([1, 255, 255, 255, 255, 255, 255, 255, 127, 123, 125]));
write('safetensors', 'raw-deep.bin', stFile('{"a":' + '['.repeat(40) + ']'.repeat(40) + '}'));
write('safetensors', 'raw-escapes.bin', stFile('{"\u0077te.weight\ud83d\udc0b":{"dtype":"F64","shape":[18446744073709551615],"data_offsets":[1,0]}}'));

console.log(`seeds written under ${root}`);
