// web/element/lzma.js, the LZMA decoder that unpacks the wasm cores inside dist/posenc-lab.js, against
// xz (xz-utils, an independent encoder): literal/position parameters lc/lp/pb across their
// range, every preset, data that exercises literals, matched literals, long and overlapping
// matches and the four rep distances, a prefix of a longer stream (what a SIMD browser decodes),
// and hostile streams. Exact comparison: LZMA is lossless, so any differing byte is a bug.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { decodeLzma } from '../../web/element/lzma.js';

const SIZES = [0, 1, 3, 4, 5, 7, 8, 15, 16, 17, 63, 100, 273, 274, 1000, 4096, 65537];

const xz = (data, options) => new Uint8Array(execFileSync('xz', ['--format=lzma', `--lzma1=${options}`, '--stdout'], {
  input: data, maxBuffer: 1 << 26,
}));

/** Seeded xorshift32: the same bytes on every run. */
function prng(seed) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13; s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5; s >>>= 0;
    return s;
  };
}

const KINDS = {
  random: (n, next) => Uint8Array.from({ length: n }, () => next() & 255),
  skewed: (n, next) => Uint8Array.from({ length: n }, () => Math.clz32(next() | 1)),
  words: (n, next) => {
    const words = ['the ', 'cat ', 'sat ', 'on ', 'mat ', 'position ', 'rotary ', 'encoding ', '\n'];
    let text = '';
    while (text.length < n) text += words[next() % words.length];
    return new TextEncoder().encode(text.slice(0, n));
  },
  // Runs: overlapping copies at distance 1 and lengths up to 273, the longest LZMA match.
  runs: (n, next) => {
    const out = new Uint8Array(n);
    for (let i = 0; i < n;) {
      const run = 1 + (next() % 600);
      out.fill(next() & 255, i, i + run);
      i += run;
    }
    return out;
  },
  // Copies of earlier blocks with single-byte edits: rep distances and matched literals.
  edited: (n, next) => {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      const back = [13, 100, 1000, 40000][next() % 4];
      out[i] = i >= back && next() % 8 ? out[i - back] : next() & 255;
    }
    return out;
  },
};

const OPTIONS = [
  'preset=0', 'preset=6', 'preset=9e,lc=4,lp=0,pb=0,nice=273',
  'preset=6,lc=0,lp=2,pb=2', 'preset=6,lc=3,lp=1,pb=4', 'preset=6,lc=0,lp=4,pb=0', 'preset=1,mode=fast,lc=2,pb=1',
];

test('decodes what xz encodes, byte for byte, for every size, kind of data and lc/lp/pb', () => {
  let seed = 1;
  let cases = 0;
  for (const [kind, make] of Object.entries(KINDS)) {
    for (const n of SIZES) {
      const data = make(n, prng(seed++));
      for (const options of OPTIONS) {
        const decoded = decodeLzma(xz(data, options), data.length);
        assert.ok(Buffer.from(decoded).equals(Buffer.from(data)), `${kind}, ${n} bytes, ${options}`);
        cases++;
      }
    }
  }
  assert.equal(cases, Object.keys(KINDS).length * SIZES.length * OPTIONS.length);
});

test('decodes a prefix of a longer stream, cutting a match that spans its end', () => {
  const data = KINDS.edited(100000, prng(42));
  const packed = xz(data, 'preset=9e');
  for (const size of [1, 2, 1000, 65536, 99999]) {
    assert.ok(Buffer.from(decodeLzma(packed, size)).equals(Buffer.from(data.subarray(0, size))), `prefix ${size}`);
  }
  // Runs of 600 bytes: the prefix ends inside a match.
  const runs = KINDS.runs(5000, prng(3));
  assert.ok(Buffer.from(decodeLzma(xz(runs, 'preset=6'), 2500)).equals(Buffer.from(runs.subarray(0, 2500))));
});

test('round-trips the wasm cores as the bundle stores them: one stream, SIMD first', async (t) => {
  const paths = ['simd', 'scalar'].map((f) => new URL(`../../build-wasm/posenc-core-${f}-embed.wasm`, import.meta.url));
  const cores = await Promise.all(paths.map((url) => readFile(url).catch(() => null)));
  if (cores.some((bytes) => !bytes)) {
    t.skip('build-wasm/posenc-core-*-embed.wasm not built (./scripts/build)');
    return;
  }
  const both = Buffer.concat(cores);
  // The bundle keeps whichever of pb = 0, 1 and 2 packs smallest (scripts/bundle-element.mjs).
  for (const pb of [0, 1, 2]) {
    const packed = xz(both, `preset=9e,lc=4,lp=0,pb=${pb},nice=273`);
    for (const [name, size] of [['simd alone', cores[0].length], ['both', both.length]]) {
      const started = performance.now();
      const decoded = decodeLzma(packed, size);
      t.diagnostic(`pb=${pb}, ${name}: ${size} bytes from ${packed.length} in ${(performance.now() - started).toFixed(1)} ms`);
      assert.ok(Buffer.from(decoded).equals(both.subarray(0, size)));
    }
    const decoded = decodeLzma(packed, both.length);
    assert.ok(WebAssembly.validate(decoded.subarray(0, cores[0].length)));
    assert.ok(WebAssembly.validate(decoded.subarray(cores[0].length)));
  }
});

test('refuses a stream that ends early, an end marker before size, bad headers and bad arguments', () => {
  const data = KINDS.words(5000, prng(99));
  const packed = xz(data, 'preset=6');  // xz writes an end marker after the data
  assert.throws(() => decodeLzma(packed, data.length + 1), /end marker after 5000 bytes, 5001 expected/);
  for (const cut of [0, 5, 13, 14, 18, packed.length >> 1, packed.length - 8]) {
    assert.throws(() => decodeLzma(packed.subarray(0, cut), data.length), /ends early|bad range coder/, `cut at ${cut}`);
  }
  const badProperties = packed.slice();
  badProperties[0] = 225;
  assert.throws(() => decodeLzma(badProperties, 10), /bad properties byte/);
  const badStart = packed.slice();
  badStart[13] = 1;
  assert.throws(() => decodeLzma(badStart, 10), /bad range coder start/);
  assert.throws(() => decodeLzma([1, 2, 3], 3), TypeError);
  assert.throws(() => decodeLzma(packed, -1), RangeError);
  assert.throws(() => decodeLzma(packed, 1.5), RangeError);
});

test('corrupted streams end in an Error or a result of the stated size, never a hang or a crash', () => {
  const data = KINDS.edited(20000, prng(7));
  const packed = xz(data, 'preset=6');
  const next = prng(12345);
  let refused = 0;
  let differ = 0;
  for (let trial = 0; trial < 1000; trial++) {
    const bad = packed.slice();
    for (let flips = 1 + (next() % 4); flips > 0; flips--) bad[14 + (next() % (bad.length - 14))] ^= 1 << (next() % 8);
    try {
      const decoded = decodeLzma(bad, data.length);
      assert.equal(decoded.length, data.length);
      if (!Buffer.from(decoded).equals(Buffer.from(data))) differ++;
    } catch (error) {
      if (!(error instanceof Error) || error instanceof assert.AssertionError) throw error;
      assert.match(error.message, /^lzma: /);
      refused++;
    }
  }
  // LZMA has no checksum: a flipped bit yields other bytes or an error, never the same bytes.
  assert.equal(refused + differ, 1000, `${refused} refused, ${differ} decoded differently`);
  assert.ok(refused > 100, `${refused} of 1000 corrupted streams refused`);
});
