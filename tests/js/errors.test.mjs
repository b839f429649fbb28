// PosEnc Lab JS API: every error path of every function, on both builds (load()'s and the large
// valid calls: errors-load.test.mjs).
//
// Contract: invalid arguments throw a RangeError or TypeError whose message names the argument;
// the module stays usable afterwards; no call may abort the wasm instance. So every expected error
// below is followed by a valid call checked against the float64 reference.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { load, LIMITS } from '../../dist/posenc.mjs';
import { assertUsable, describeValue } from './error-support.mjs';
import * as ref from './reference.mjs';

/** fn() must throw `type` with a message matching `pattern`; the lab must work afterwards. */
function expectError(lab, fn, type, pattern, what) {
  let error;
  try {
    fn();
  } catch (e) {
    error = e;
  }
  assert.ok(error !== undefined, `${what}: expected a ${type.name}, but the call returned`);
  assert.ok(!(error instanceof WebAssembly.RuntimeError), `${what}: the wasm instance aborted: ${error}`);
  assert.equal(error.constructor, type, `${what}: expected ${type.name}, got ${error.constructor.name}: ${error.message}`);
  assert.match(error.message, pattern, `${what}: the message must name the argument`);
  assertUsable(lab);
}

// Bad values for an integer size argument, with the error each must raise.
const BAD_INTEGERS = [
  [0, RangeError], [-1, RangeError], [-4, RangeError], [1.5, RangeError], [2.000001, RangeError],
  [NaN, RangeError], [Infinity, RangeError], [-Infinity, RangeError], [2 ** 53, RangeError],
  ['4', TypeError], ['', TypeError], [null, TypeError], [undefined, TypeError], [4n, TypeError],
  [true, TypeError], [{}, TypeError], [[4], TypeError], [new Number(4), TypeError], [Symbol('n'), TypeError],
];
// Bad values for a finite-number option (base, scale, alpha).
const BAD_FINITE = [
  [NaN, RangeError], [Infinity, RangeError], [-Infinity, RangeError],
  ['10', TypeError], [10n, TypeError], [true, TypeError], [{}, TypeError], [[10], TypeError],
];
const BAD_BASES = [...BAD_FINITE, [1, RangeError], [0.5, RangeError], [0, RangeError], [-10, RangeError],
  [1e13, RangeError], [LIMITS.maxBase * 1.0000001, RangeError]];
const BAD_OPTIONS_OBJECTS = [null, 'base', 5, true, [], [1, 2], 10n, () => ({})];
const BAD_ENUMS = [
  ['foo', RangeError], ['', RangeError], ['HALF', RangeError], ['Interleaved', RangeError], [' half', RangeError],
  [0, TypeError], [1, TypeError], [true, TypeError], [{}, TypeError], [['half'], TypeError], [10n, TypeError],
];
const BAD_BOOLEANS = [['true', TypeError], ['false', TypeError], [1, TypeError], [0, TypeError], [{}, TypeError], [1n, TypeError]];
// Options are read with `?? default`, so null and undefined mean "not given" (see the report);
// for optional integers the bad values are BAD_INTEGERS without those two.
const BAD_OPTIONAL_INTEGERS = BAD_INTEGERS.filter(([v]) => v !== null && v !== undefined);

// Bad matrices for an argument that must hold `length` numbers: each with its error.
function badMatrices(length) {
  const good = () => new Float32Array(length).fill(0.5);
  const withElement = (i, v) => { const a = Array.from(good()); a[i] = v; return a; };
  const f64 = (i, v) => { const a = Float64Array.from(good()); a[i] = v; return a; };
  const f32 = (i, v) => { const a = good(); a[i] = v; return a; };
  const holey = Array.from(good());
  delete holey[1];
  const last = length - 1;
  return [
    // wrong type
    ['a string', 'abc', TypeError, null], ['null', null, TypeError, null], ['undefined', undefined, TypeError, null],
    ['a number', 3, TypeError, null], ['an object', { length }, TypeError, null],
    ['a DataView', new DataView(new ArrayBuffer(length * 4)), TypeError, null],
    ['a BigInt64Array', new BigInt64Array(length), TypeError, null],
    ['an ArrayBuffer', new ArrayBuffer(length * 4), TypeError, null],
    // wrong length
    ['one element short', new Float32Array(length - 1), RangeError, null],
    ['one element long', new Float32Array(length + 1), RangeError, null],
    ['empty', [], RangeError, null], ['twice as long', new Float64Array(2 * length), RangeError, null],
    // bad elements (the message names the element)
    ['NaN element', withElement(1, NaN), RangeError, 1], ['Infinity element', withElement(last, Infinity), RangeError, last],
    ['-Infinity element (Float64Array)', f64(0, -Infinity), RangeError, 0],
    ['NaN element (Float32Array)', f32(last, NaN), RangeError, last],
    ['Infinity element (Float32Array)', f32(0, Infinity), RangeError, 0],
    ['beyond float32 (Float64Array)', f64(1, 1e39), RangeError, 1], ['beyond float32 (array)', withElement(last, -3.5e38), RangeError, last],
    ['string element', withElement(1, '1'), TypeError, 1], ['null element', withElement(0, null), TypeError, 0],
    ['undefined element', withElement(last, undefined), TypeError, last], ['BigInt element', withElement(1, 1n), TypeError, 1],
    ['object element', withElement(0, {}), TypeError, 0], ['hole', holey, TypeError, 1],
    ['boolean element', withElement(1, true), TypeError, 1],
  ];
}

function checkMatrixErrors(lab, name, call, length) {
  for (const [label, value, type, index] of badMatrices(length)) {
    const pattern = index === null ? new RegExp(`\\b${name}\\b`) : new RegExp(`\\b${name}\\[${index}\\]`);
    expectError(lab, () => call(value), type, pattern, `${name} = ${label}`);
  }
}

function checkOptionObjects(lab, call, allowed) {
  for (const bad of BAD_OPTIONS_OBJECTS) {
    expectError(lab, () => call(bad), TypeError, /options/, `options = ${describeValue(bad)}`);
  }
  for (const key of ['foo', 'Base', 'base ', 'layouts', 'offSet', 'constructor', 'toString']) {
    if (allowed.includes(key)) continue;
    expectError(lab, () => call({ [key]: 1 }), TypeError, new RegExp(key.trim()), `unknown option ${key}`);
  }
  // An unknown key next to valid ones is still an error.
  expectError(lab, () => call({ [allowed[0]]: undefined, extra: 1 }), TypeError, /extra/, 'unknown option next to a valid one');
}

for (const simd of [true, false]) {
  describe(`errors, ${simd ? 'SIMD' : 'scalar'} build`, () => {
    let lab;
    before(async () => {
      lab = await load({ simd });
      assertUsable(lab);
    });

    describe('sinusoidal', () => {
      it('n', () => {
        for (const [bad, type] of BAD_INTEGERS) {
          expectError(lab, () => lab.sinusoidal(bad, 4), type, /\bn\b/, `n = ${describeValue(bad)}`);
        }
        expectError(lab, () => lab.sinusoidal(LIMITS.maxRows + 1, 2), RangeError, /\bn\b/, 'n beyond maxRows');
      });

      it('d', () => {
        for (const [bad, type] of BAD_INTEGERS) {
          expectError(lab, () => lab.sinusoidal(4, bad), type, /\bd\b/, `d = ${describeValue(bad)}`);
        }
        expectError(lab, () => lab.sinusoidal(4, 1), RangeError, /\bd\b/, 'd = 1');
        for (const odd of [3, 5, 101, LIMITS.maxDim - 1]) {
          expectError(lab, () => lab.sinusoidal(4, odd), RangeError, /\bd\b.*even|even.*\bd\b/, `odd d = ${odd}`);
        }
        expectError(lab, () => lab.sinusoidal(1, LIMITS.maxDim + 2), RangeError, /\bd\b/, 'd beyond maxDim');
      });

      it('n·d beyond maxElements', () => {
        // Both within their own limits, the product is not: 8192·4096 = 2^25 > 2^24.
        expectError(lab, () => lab.sinusoidal(LIMITS.maxRows, LIMITS.maxDim), RangeError, /\bn\b.*\bd\b/, 'n·d too large');
        expectError(lab, () => lab.sinusoidal(LIMITS.maxRows, 2050), RangeError, /\bn\b.*\bd\b/, 'n·d just too large');
      });

      it('options object and unknown keys', () => {
        checkOptionObjects(lab, (o) => lab.sinusoidal(4, 4, o), ['base', 'layout']);
      });

      it('base', () => {
        for (const [bad, type] of BAD_BASES) {
          expectError(lab, () => lab.sinusoidal(4, 4, { base: bad }), type, /base/, `base = ${describeValue(bad)}`);
        }
      });

      it('layout', () => {
        for (const [bad, type] of BAD_ENUMS) {
          expectError(lab, () => lab.sinusoidal(4, 4, { layout: bad }), type, /layout/, `layout = ${describeValue(bad)}`);
        }
      });
    });

    describe('rotate', () => {
      const x = new Float32Array(3 * 4).fill(0.25);

      it('n and d', () => {
        for (const [bad, type] of BAD_INTEGERS) {
          expectError(lab, () => lab.rotate(x, bad, 4), type, /\bn\b/, `n = ${describeValue(bad)}`);
          expectError(lab, () => lab.rotate(x, 3, bad), type, /\bd\b/, `d = ${describeValue(bad)}`);
        }
        expectError(lab, () => lab.rotate(new Float32Array(3), 3, 1), RangeError, /\bd\b/, 'd = 1');
        for (const odd of [3, 7]) {
          expectError(lab, () => lab.rotate(new Float32Array(3 * odd), 3, odd), RangeError, /\bd\b.*even/, `odd d = ${odd}`);
        }
        expectError(lab, () => lab.rotate(new Float32Array(2 * (LIMITS.maxRows + 1)), LIMITS.maxRows + 1, 2),
          RangeError, /\bn\b/, 'n beyond maxRows');
        expectError(lab, () => lab.rotate(new Float32Array(LIMITS.maxDim + 2), 1, LIMITS.maxDim + 2),
          RangeError, /\bd\b/, 'd beyond maxDim');
        expectError(lab, () => lab.rotate(x, LIMITS.maxRows, LIMITS.maxDim), RangeError, /\bn\b.*\bd\b/, 'n·d too large');
      });

      it('n and d that do not match x', () => {
        expectError(lab, () => lab.rotate(x, 2, 4), RangeError, /\bx\b/, 'n too small for x');
        expectError(lab, () => lab.rotate(x, 4, 4), RangeError, /\bx\b/, 'n too large for x');
        expectError(lab, () => lab.rotate(x, 3, 2), RangeError, /\bx\b/, 'd too small for x');
        expectError(lab, () => lab.rotate(x, 1, 12 + 2), RangeError, /\bx\b/, 'n·d ≠ length');
      });

      it('x', () => {
        checkMatrixErrors(lab, 'x', (bad) => lab.rotate(bad, 3, 4), 12);
      });

      it('options object and unknown keys', () => {
        checkOptionObjects(lab, (o) => lab.rotate(x, 3, 4, o), ['base', 'offset', 'pairing']);
        // sinusoidal's layout is not a rotate option (rotate has pairing)
        expectError(lab, () => lab.rotate(x, 3, 4, { layout: 'half' }), TypeError, /layout/, 'layout passed to rotate');
      });

      it('base', () => {
        for (const [bad, type] of BAD_BASES) {
          expectError(lab, () => lab.rotate(x, 3, 4, { base: bad }), type, /base/, `base = ${describeValue(bad)}`);
        }
      });

      it('offset', () => {
        const bad = [
          [0.5, RangeError], [-1.5, RangeError], [NaN, RangeError], [Infinity, RangeError], [-Infinity, RangeError],
          [LIMITS.maxOffset + 1, RangeError], [-LIMITS.maxOffset - 1, RangeError], [1e300, RangeError],
          ['1', TypeError], [1n, TypeError], [true, TypeError], [{}, TypeError], [[1], TypeError],
        ];
        for (const [value, type] of bad) {
          expectError(lab, () => lab.rotate(x, 3, 4, { offset: value }), type, /offset/, `offset = ${describeValue(value)}`);
        }
      });

      it('pairing', () => {
        for (const [bad, type] of BAD_ENUMS) {
          expectError(lab, () => lab.rotate(x, 3, 4, { pairing: bad }), type, /pairing/, `pairing = ${describeValue(bad)}`);
        }
      });
    });

    describe('attention', () => {
      const n = 3;
      const d = 5;
      const m = () => new Float32Array(n * d).fill(0.1);

      it('n and d', () => {
        for (const [bad, type] of BAD_INTEGERS) {
          expectError(lab, () => lab.attention(m(), m(), m(), bad, d), type, /\bn\b/, `n = ${describeValue(bad)}`);
          expectError(lab, () => lab.attention(m(), m(), m(), n, bad), type, /\bd\b/, `d = ${describeValue(bad)}`);
        }
        const big = new Float32Array(LIMITS.maxAttentionRows + 1);
        expectError(lab, () => lab.attention(big, big, big, LIMITS.maxAttentionRows + 1, 1), RangeError, /\bn\b/,
          'n beyond maxAttentionRows');
        const wide = new Float32Array(LIMITS.maxDim + 1);
        expectError(lab, () => lab.attention(wide, wide, wide, 1, LIMITS.maxDim + 1), RangeError, /\bd\b/, 'd beyond maxDim');
      });

      it('sizes that do not match q, k or v', () => {
        expectError(lab, () => lab.attention(m(), m(), m(), n, d + 1), RangeError, /\bq\b/, 'd does not match');
        expectError(lab, () => lab.attention(m(), m(), m(), n + 1, d), RangeError, /\bq\b/, 'n does not match');
        const short = new Float32Array(n * d - 1);
        expectError(lab, () => lab.attention(m(), short, m(), n, d), RangeError, /\bk\b/, 'k short');
        expectError(lab, () => lab.attention(m(), m(), short, n, d), RangeError, /\bv\b/, 'v short');
      });

      it('q, k and v', () => {
        checkMatrixErrors(lab, 'q', (bad) => lab.attention(bad, m(), m(), n, d), n * d);
        checkMatrixErrors(lab, 'k', (bad) => lab.attention(m(), bad, m(), n, d), n * d);
        checkMatrixErrors(lab, 'v', (bad) => lab.attention(m(), m(), bad, n, d), n * d);
      });

      it('options object and unknown keys', () => {
        checkOptionObjects(lab, (o) => lab.attention(m(), m(), m(), n, d, o), ['causal', 'scale']);
        expectError(lab, () => lab.attention(m(), m(), m(), n, d, { mask: 'causal' }), TypeError, /mask/, 'unknown key mask');
      });

      it('causal', () => {
        for (const [bad, type] of BAD_BOOLEANS) {
          expectError(lab, () => lab.attention(m(), m(), m(), n, d, { causal: bad }), type, /causal/,
            `causal = ${describeValue(bad)}`);
        }
      });

      it('scale', () => {
        for (const [bad, type] of BAD_FINITE) {
          expectError(lab, () => lab.attention(m(), m(), m(), n, d, { scale: bad }), type, /scale/,
            `scale = ${describeValue(bad)}`);
        }
      });

      it('scale beyond float32 range', () => {
        const q = [1, 2, 3, 4];
        // Were it accepted, the weights would be [0, 1] per row (logits 5·s vs 11·s and 11·s vs 25·s).
        expectError(lab, () => lab.attention(q, q, q, 2, 2, { scale: 1e39 }), RangeError, /scale/, 'scale = 1e39');
        expectError(lab, () => lab.attention(q, q, q, 2, 2, { scale: -1e39 }), RangeError, /scale/, 'scale = -1e39');
      });
    });

    describe('tokenize', () => {
      it('text', () => {
        for (const bad of [42, null, undefined, ['a'], new String('a'), 1n, Symbol('t'), {}, true]) {
          expectError(lab, () => lab.tokenize(bad), TypeError, /text/, `text = ${describeValue(bad)}`);
        }
      });

      it('text longer than LIMITS.maxTextLength is refused before it reaches wasm', () => {
        // 'a '.repeat(6e7) used to abort the instance (tokens outgrow wasm memory).
        const long = 'a '.repeat(LIMITS.maxTextLength / 2 + 1);
        expectError(lab, () => lab.tokenize(long), RangeError, /text must be at most 1048576/, 'text too long');
        assert.equal(lab.tokenize(long.slice(0, LIMITS.maxTextLength)).length, LIMITS.maxTextLength / 2);
      });
    });

    describe('embed', () => {
      it('tokens', () => {
        for (const bad of ['a cat', null, undefined, 5, { 0: 'a', length: 1 }, new Set(['a'])]) {
          expectError(lab, () => lab.embed(bad, 4), TypeError, /tokens/, `tokens = ${describeValue(bad)}`);
        }
        expectError(lab, () => lab.embed([], 4), RangeError, /tokens/, 'no tokens');
        expectError(lab, () => lab.embed(new Array(LIMITS.maxRows + 1).fill('a'), 2), RangeError, /tokens/, 'too many tokens');
        for (const [i, bad] of [[0, 1], [1, null], [2, undefined], [1, ['a']], [0, 1n], [2, new String('c')]]) {
          const tokens = ['a', 'b', 'c'];
          tokens[i] = bad;
          expectError(lab, () => lab.embed(tokens, 4), TypeError, new RegExp(`tokens\\[${i}\\]`), `tokens[${i}] = ${describeValue(bad)}`);
        }
      });

      it('tokens with holes', () => {
        const holey = ['a', 'b', 'c'];
        delete holey[1];
        expectError(lab, () => lab.embed(holey, 4), TypeError, /tokens\[1\]/, 'holey tokens');
        expectError(lab, () => lab.embed(new Array(2), 4), TypeError, /tokens\[0\]/, 'an array of 2 holes');
      });

      it('d', () => {
        for (const [bad, type] of BAD_INTEGERS) {
          expectError(lab, () => lab.embed(['a'], bad), type, /\bd\b/, `d = ${describeValue(bad)}`);
        }
        expectError(lab, () => lab.embed(['a'], 5), RangeError, /\bd\b.*even/, 'odd d');
        expectError(lab, () => lab.embed(['a'], LIMITS.maxDim + 2), RangeError, /\bd\b/, 'd beyond maxDim');
        expectError(lab, () => lab.embed(new Array(LIMITS.maxRows).fill('a'), LIMITS.maxDim), RangeError, /\bd\b/,
          'tokens·d beyond maxElements');
      });
    });

    describe('compare', () => {
      const n = 4;
      const d = 16;
      const e = () => new Float32Array(n * d).fill(0.3);

      it('n and d', () => {
        for (const [bad, type] of BAD_INTEGERS) {
          expectError(lab, () => lab.compare(e(), bad, d), type, /\bn\b/, `n = ${describeValue(bad)}`);
          expectError(lab, () => lab.compare(e(), n, bad), type, /\bd\b/, `d = ${describeValue(bad)}`);
        }
        expectError(lab, () => lab.compare(new Float32Array(n * 15), n, 15), RangeError, /\bd\b.*even/, 'odd d');
        const many = LIMITS.maxCompareTokens + 1;
        expectError(lab, () => lab.compare(new Float32Array(many * 4), many, 4), RangeError, /\bn\b/, 'n beyond maxCompareTokens');
        expectError(lab, () => lab.compare(new Float32Array(LIMITS.maxDim + 2), 1, LIMITS.maxDim + 2), RangeError, /\bd\b/,
          'd beyond maxDim');
      });

      it('embeddings', () => {
        checkMatrixErrors(lab, 'embeddings', (bad) => lab.compare(bad, n, d), n * d);
        expectError(lab, () => lab.compare(e(), n + 1, d), RangeError, /embeddings/, 'n does not match');
        expectError(lab, () => lab.compare(e(), n, d + 2), RangeError, /embeddings/, 'd does not match');
      });

      it('options object and unknown keys', () => {
        checkOptionObjects(lab, (o) => lab.compare(e(), n, d, o),
          ['alpha', 'base', 'layout', 'pairing', 'dPos', 'concat', 'causal', 'heads', 'seed', 'scale']);
        expectError(lab, () => lab.compare(e(), n, d, { dpos: 4 }), TypeError, /dpos/, 'misspelt dPos');
        expectError(lab, () => lab.compare(e(), n, d, { offset: 1 }), TypeError, /offset/, 'rotate option passed to compare');
      });

      it('alpha', () => {
        for (const [bad, type] of [...BAD_FINITE, [1e39, RangeError], [-1e39, RangeError]]) {
          expectError(lab, () => lab.compare(e(), n, d, { alpha: bad }), type, /alpha/, `alpha = ${describeValue(bad)}`);
        }
      });

      it('base, layout, pairing, concat', () => {
        for (const [bad, type] of BAD_BASES) {
          expectError(lab, () => lab.compare(e(), n, d, { base: bad }), type, /base/, `base = ${describeValue(bad)}`);
        }
        for (const [bad, type] of BAD_ENUMS) {
          expectError(lab, () => lab.compare(e(), n, d, { layout: bad }), type, /layout/, `layout = ${describeValue(bad)}`);
          expectError(lab, () => lab.compare(e(), n, d, { pairing: bad }), type, /pairing/, `pairing = ${describeValue(bad)}`);
          expectError(lab, () => lab.compare(e(), n, d, { concat: bad }), type, /concat/, `concat = ${describeValue(bad)}`);
        }
        for (const bad of ['same_width', 'wide', 'interleaved']) {
          expectError(lab, () => lab.compare(e(), n, d, { concat: bad }), RangeError, /concat/, `concat = ${bad}`);
        }
      });

      it('dPos', () => {
        for (const [bad, type] of BAD_OPTIONAL_INTEGERS) {
          expectError(lab, () => lab.compare(e(), n, d, { dPos: bad }), type, /dPos/, `dPos = ${describeValue(bad)}`);
        }
        for (const bad of [1, 3, 5, 15]) {
          expectError(lab, () => lab.compare(e(), n, d, { dPos: bad }), RangeError, /dPos/, `odd dPos = ${bad}`);
        }
        // same-width: d_t + dPos = d needs dPos < d
        for (const bad of [d, d + 2, 64]) {
          expectError(lab, () => lab.compare(e(), n, d, { dPos: bad }), RangeError, /dPos/, `dPos = ${bad} ≥ d`);
        }
        expectError(lab, () => lab.compare(e(), n, d, { dPos: LIMITS.maxDim + 2, concat: 'widened' }), RangeError, /dPos/,
          'dPos beyond maxDim');
      });

      it('causal', () => {
        for (const [bad, type] of BAD_BOOLEANS) {
          expectError(lab, () => lab.compare(e(), n, d, { causal: bad }), type, /causal/, `causal = ${describeValue(bad)}`);
        }
      });

      it('heads', () => {
        for (const [bad, type] of BAD_OPTIONAL_INTEGERS) {
          if (bad === 0) continue; // heads = 0 is valid (W = I)
          expectError(lab, () => lab.compare(e(), n, d, { heads: bad }), type, /heads/, `heads = ${describeValue(bad)}`);
        }
        expectError(lab, () => lab.compare(e(), n, d, { heads: LIMITS.maxHeads + 1 }), RangeError, /heads/, 'heads beyond maxHeads');
        // must divide d
        expectError(lab, () => lab.compare(e(), n, d, { heads: 3 }), RangeError, /heads/, 'heads does not divide d');
        // d / heads must be even (rotary pairs)
        expectError(lab, () => lab.compare(e(), n, d, { heads: 16 }), RangeError, /heads/, 'd / heads odd');
        // must divide the widened width d + dPos = 16 + 2 too
        expectError(lab, () => lab.compare(e(), n, d, { heads: 4, concat: 'widened', dPos: 2 }), RangeError, /heads/,
          'heads does not divide d + dPos');
        // heads·n² beyond maxElements: 64·1024² = 2^26
        const big = new Float32Array(1024 * 128);
        expectError(lab, () => lab.compare(big, 1024, 128, { heads: 64 }), RangeError, /heads/, 'heads·n² too large');
      });

      it('seed', () => {
        for (const [bad, type] of [...BAD_OPTIONAL_INTEGERS.filter(([v]) => v !== 0), [2 ** 32, RangeError], [-1, RangeError]]) {
          expectError(lab, () => lab.compare(e(), n, d, { heads: 2, seed: bad }), type, /seed/, `seed = ${describeValue(bad)}`);
        }
      });

      it('scale', () => {
        for (const [bad, type] of [...BAD_FINITE, [0, RangeError], [-1, RangeError], [-1e-30, RangeError], [1e39, RangeError]]) {
          expectError(lab, () => lab.compare(e(), n, d, { scale: bad }), type, /scale/, `scale = ${describeValue(bad)}`);
        }
      });
    });

    it('a few thousand random hostile calls throw only RangeError/TypeError, and the lab still works', () => {
      const rand = ref.mulberry32(simd ? 9001 : 9002);
      const pick = (list) => list[Math.floor(rand() * list.length)];
      const HOSTILE = [
        0, -1, 1, 2, 3, 4, 5, 6, 1.5, -0, NaN, Infinity, -Infinity, 2 ** 31, 2 ** 32, 2 ** 53, 1e300, 1e39, -1e39, 5e-324,
        LIMITS.maxRows + 1, LIMITS.maxDim + 1, LIMITS.maxAttentionRows + 1, LIMITS.maxCompareTokens + 1, LIMITS.maxHeads + 1,
        '4', '', 'half', 'widened', 'foo', null, undefined, true, false, 4n, -1n, {}, [], [4], Symbol('h'), () => 4,
        new Number(4), new Float32Array(4), new Float32Array([NaN, 1, 2, 3]), [1, 2, '3', 4], new BigInt64Array(4),
      ];
      const OPTION_KEYS = ['base', 'layout', 'pairing', 'offset', 'causal', 'scale', 'alpha', 'dPos', 'concat', 'heads',
        'seed', 'simd', 'bogus', '__proto__'];
      const OPTION_VALUES = [...HOSTILE, 'interleaved', 'half', 'same-width', 'widened', 10000, 1e12, 32768, -32768];
      const maybe = (valid) => (rand() < 0.7 ? valid : pick(HOSTILE));
      const matrix = (length) => {
        const r = rand();
        if (r < 0.6) return ref.randomMatrix(rand, length);
        if (r < 0.7) return Array.from(ref.randomMatrix(rand, length));
        if (r < 0.8) { const a = Float64Array.from(ref.randomMatrix(rand, length)); a[Math.floor(rand() * length)] = pick(HOSTILE); return a; }
        if (r < 0.9) return new Float32Array(Math.max(0, length + pick([-1, 1, 2])));
        return pick(HOSTILE);
      };
      const options = () => {
        const r = rand();
        if (r < 0.2) return undefined;
        if (r < 0.3) return pick(HOSTILE);
        const o = {};
        const count = Math.floor(rand() * 3);
        for (let i = 0; i < count; i++) o[pick(OPTION_KEYS)] = pick(OPTION_VALUES);
        return o;
      };
      const calls = [
        () => lab.sinusoidal(maybe(pick([1, 3, 17])), maybe(pick([2, 4, 6, 18])), options()),
        () => { const n = pick([1, 3, 17]); const d = pick([2, 4, 6, 18]); return lab.rotate(matrix(n * d), maybe(n), maybe(d), options()); },
        () => {
          const n = pick([1, 2, 5]); const d = pick([1, 3, 4, 8]);
          return lab.attention(matrix(n * d), matrix(n * d), matrix(n * d), maybe(n), maybe(d), options());
        },
        () => lab.tokenize(rand() < 0.7 ? pick(['The cat sat.', '', 'co-operate, e-mail!', '\u00e9t\u00e9 \uD800 x']) : pick(HOSTILE)),
        () => lab.embed(rand() < 0.7 ? ['the', pick(['cat', '', 'x'])] : pick(HOSTILE), maybe(pick([2, 4, 8]))),
        () => { const n = pick([1, 2, 5]); const d = pick([4, 8, 16]); return lab.compare(matrix(n * d), maybe(n), maybe(d), options()); },
      ];
      const ITERATIONS = 3000;
      let thrown = 0;
      for (let it = 0; it < ITERATIONS; it++) {
        const call = pick(calls);
        try {
          call();
        } catch (error) {
          thrown++;
          assert.ok(!(error instanceof WebAssembly.RuntimeError), `iteration ${it}: wasm aborted: ${error}`);
          assert.ok(error instanceof RangeError || error instanceof TypeError,
            `iteration ${it}: ${error?.constructor?.name}: ${error?.message}`);
          assert.ok(typeof error.message === 'string' && error.message.length > 0);
        }
        if (it % 250 === 0) assertUsable(lab);
      }
      // The generator must exercise both outcomes, or this test proves nothing.
      assert.ok(thrown > ITERATIONS * 0.3 && thrown < ITERATIONS, `${thrown} of ${ITERATIONS} calls threw`);
      assertUsable(lab);
    });
  });
}
