// Random and hostile arguments against the analysis functions, decoding vocabularies, word vectors
// and the further schemes (standalone, and through compare() and distanceCurves; the contract
// functions are fuzzed in errors.test.mjs): only RangeError or TypeError may come out, never a
// wasm abort, and correct results must follow.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { load, LIMITS, SCHEMES } from '../../dist/posenc.mjs';
import * as ref from './reference.mjs';

// The further schemes' compare / distanceCurves options and a mix of valid and hostile values.
const SCHEME_OPTION_NAMES = ['trainedLength', 'evalLength', 'alibiHeads', 'alibiHead', 't5Buckets', 't5MaxDistance',
  'xposGamma', 'xposScaleBase', 'yarnAlpha', 'yarnBeta'];
const SCHEME_OPTION_VALUES = [
  SCHEMES.slice(), ['alibi', 't5'], ['yarn', 'xpos', 'nope'], ['learned'], [], ['rope-pi', 'rope-pi'], ['RoPE'], [1],
  2048, 8192, 1, 2, 8, 12, 32, 128, 0.4, 512, 1e-3, 0.5, 10, 2 ** 20, 'widened', true, false,
];

for (const simd of [true, false]) {
  describe(`hostile calls on analyses and word vectors, ${simd ? 'SIMD' : 'scalar'} build`, () => {
    let lab;
    let glove;
    before(async () => {
      lab = await load({ simd });
      glove = await lab.loadVectors('glove');
    });

    it('6,000 random calls throw only RangeError/TypeError and the lab keeps working', () => {
      const rand = ref.mulberry32(simd ? 4242 : 4243);
      const pick = (list) => list[Math.floor(rand() * list.length)];
      const HOSTILE = [
        0, -1, 1, 2, 3, 1.5, -0, NaN, Infinity, -Infinity, 2 ** 31, 2 ** 32, 2 ** 53, 1e300, 1e39, 5e-324,
        LIMITS.maxRows + 1, LIMITS.maxDim + 1, LIMITS.maxElements + 1, LIMITS.maxTextLength + 1,
        '4', '', 'king', null, undefined, true, 4n, {}, [], [4], Symbol('h'), () => 4,
        new Float32Array(4), new Float32Array([NaN, 1]), [1, '2'], new Uint32Array([99999]),
      ];
      const maybe = (valid) => (rand() < 0.7 ? valid : pick(HOSTILE));
      const matrix = (length) => {
        const r = rand();
        if (r < 0.7) return ref.randomMatrix(rand, length);
        if (r < 0.8) { const a = ref.randomMatrix(rand, length); a[Math.floor(rand() * length)] = pick([NaN, Infinity]); return a; }
        if (r < 0.9) return new Float32Array(Math.max(0, length + pick([-1, 1])));
        return pick(HOSTILE);
      };
      const options = (keys, values) => (rand() < 0.3 ? pick(HOSTILE) : Object.fromEntries(
        Array.from({ length: Math.floor(rand() * 3) }, () => [pick([...keys, 'bogus']), rand() < 0.5 ? pick(values) : pick(HOSTILE)])));
      const vocabularies = [];
      const calls = [
        () => { const n = pick([1, 3, 17]); const d = pick([1, 4, 5]); return lab.columnSpread(matrix(n * d), maybe(n), maybe(d)); },
        () => { const n = pick([1, 2, 4]); const k = pick([0, 1, 3]); return lab.shiftChange(matrix(n * n), matrix((n + k) ** 2), maybe(n), maybe(k)); },
        () => lab.offsetCurves(maybe(pick([0, 5, 64])), maybe(pick([2, 8, 100])), options(['base'], [10, 10000, 1e12])),
        () => lab.cosineSpread(maybe(pick([2, 16])), options(['pairs', 'seed'], [2, 50, 7])),
        () => {
          const v = pick([1, 3, 9]); const d = pick([2, 5]);
          const vocabulary = lab.vocabulary(matrix(v * d), maybe(v), maybe(d));
          vocabularies.push(vocabulary);
          return vocabulary;
        },
        () => {
          if (vocabularies.length === 0) return null;
          const vocabulary = pick(vocabularies);
          const n = pick([1, 2]);
          if (rand() < 0.1) return vocabulary.dispose();
          if (rand() < 0.5) return vocabulary.neighbors(matrix(vocabulary.dim), maybe(pick([1, 2, vocabulary.size])));
          return vocabulary.nearest(matrix(n * vocabulary.dim), maybe(n), options(['truth'], [[0], [0, 1], new Uint32Array(n)]));
        },
        () => glove.neighbors(rand() < 0.5 ? maybe(pick(['king', 'qwxz', ''])) : matrix(100), maybe(pick([1, 5, 1000]))),
        () => glove.vector(maybe(pick(['king', 'qwxz']))),
        () => glove.embed(rand() < 0.7 ? ['the', pick(['king', '1999', ''])] : pick(HOSTILE)),
        () => glove.tokenize(maybe('A well-known e-mail')),
        () => { const n = pick([1, 2]); return glove.nearest(matrix(n * 100), maybe(n), options(['truth'], [[0], [5, 6], [19999]])); },
        () => { const n = pick([1, 2]); return glove.reduce(matrix(n * 100), maybe(n), maybe(pick([1, 50, 100]))); },
        () => glove.retained(maybe(pick([1, 100]))),
        () => glove.word(maybe(pick([0, 19999]))),
        () => glove.indexOf(maybe('king')),
        () => glove.identity(rand() < 0.7 ? ['the', 'king'] : pick(HOSTILE), matrix(200), options(['alpha', 'additive', 'base', 'layout'], [1, 2, false, 'half'])),
        () => lab.alibiSlopes(maybe(pick([1, 8, 12]))),
        () => lab.alibiBias(maybe(pick([1, 5])), options(['heads', 'head', 'causal'], [1, 8, 12, 0, 7, true])),
        () => lab.t5Bias(maybe(pick([1, 5])), options(['bidirectional', 'numBuckets', 'maxDistance', 'seed'], [true, false, 32, 8, 128, 7])),
        () => lab.ropeFrequencies(maybe(pick([2, 64])), options(['base', 'scaling', 'trainedLength', 'evalLength', 'alpha', 'beta'],
          ['none', 'pi', 'ntk', 'yarn', 512, 4096, 1, 32, 10000])),
        () => { const n = pick([1, 3]); const d = pick([2, 8]); return lab.rotateWith(matrix(n * d), maybe(n), maybe(d), matrix(d / 2), options(['offset', 'pairing'], [0, 5, 'half'])); },
        () => { const n = pick([1, 3]); const d = pick([2, 8]); return lab.xpos(matrix(n * d), maybe(n), maybe(d), options(['base', 'offset', 'pairing', 'role', 'gamma', 'scaleBase'], ['key', 'query', 0.4, 512, 3])); },
        () => lab.learnedTable(maybe(pick([1, 4])), maybe(pick([2, 8])), options(['seed'], [1, 2])),
        () => {
          const n = pick([1, 3, 5]); const d = pick([2, 4, 8]);
          return lab.compare(matrix(n * d), maybe(n), maybe(d), options(['schemes', ...SCHEME_OPTION_NAMES, 'causal', 'heads'], SCHEME_OPTION_VALUES));
        },
        () => {
          if (rand() < 0.1) return lab.distanceCurves(pick(HOSTILE));
          const o = options(['schemes', ...SCHEME_OPTION_NAMES, 'causal', 'base', 'dPos', 'concat'], SCHEME_OPTION_VALUES);
          const valid = { d: maybe(pick([2, 8, 64])), maxDistance: maybe(pick([1, 50, 65536])) };
          return lab.distanceCurves(o && typeof o === 'object' && !Array.isArray(o) ? { ...valid, ...o } : o);
        },
      ];
      const ITERATIONS = 6000;
      let thrown = 0;
      for (let it = 0; it < ITERATIONS; it++) {
        try {
          pick(calls)();
        } catch (error) {
          thrown++;
          assert.ok(!(error instanceof WebAssembly.RuntimeError), `iteration ${it}: wasm aborted: ${error}`);
          assert.ok(error instanceof RangeError || error instanceof TypeError,
            `iteration ${it}: ${error?.constructor?.name}: ${error?.message}`);
        }
      }
      for (const vocabulary of vocabularies) vocabulary.dispose();
      // Both outcomes must occur, or the generator tests nothing.
      assert.ok(thrown > ITERATIONS * 0.2 && thrown < ITERATIONS * 0.95, `${thrown} of ${ITERATIONS} calls threw`);
      // Correct results afterwards.
      assert.equal(glove.neighbors('paris', 1)[0].word, 'france');
      const E = lab.embed(['a', 'b', 'c'], 8);
      const all = lab.compare(E, 3, 8, { schemes: SCHEMES.slice(), causal: true });
      for (const name of SCHEMES) assert.equal(all[name].weights.length, 9, name);
      assert.equal(all.alibi.weights[1], 0); // causal: row 0 sees only itself
      assert.equal(lab.distanceCurves({ d: 8, maxDistance: 3, schemes: ['alibi'] }).curves.alibi[1], -0.5);
      const pe = lab.sinusoidal(2, 4);
      assert.ok(ref.maxAbsDiff(pe, ref.sinusoidal(2, 4)) < 2e-7);
    });
  });
}
