// The scheme table through the JS API: every scheme and parameter has every field, what the API
// and the page derive (SCHEMES, SCHEME_LABELS, term names, defaults, the page's ranges) equals the
// core's table, and the rules between parameters settle values as the core does, with its notes.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { load, LIMITS, SCHEMES, SCHEME_LABELS, SCHEME_ROPE_SCALING } from '../../dist/posenc.mjs';
import { DEFAULTS, FIELDS, parseField, readHash } from '../../dist/pipeline/state.js';
import { CONCAT_MODE, FAMILY, LAYOUT, ROPE_SCALING, SCHEME_TABLE, SYNTHETIC_KIND } from '../../dist/scheme-table.mjs';
import { staticTable } from '../../scripts/scheme-module.mjs';

const FAMILIES = ['absolute', 'concatenated', 'rotation', 'logit bias', 'none'];

for (const simd of [true, false]) {
  describe(`scheme table, ${simd ? 'SIMD' : 'scalar'} build`, () => {
    let lab;
    before(async () => { lab = await load({ simd }); });

    it('every scheme has every field; names and labels are the static SCHEMES and SCHEME_LABELS', () => {
      const { schemes, trainable } = lab.schemeTable;
      assert.deepEqual(schemes.map((s) => s.name), [...SCHEMES]);
      for (const s of schemes) {
        assert.equal(s.label, SCHEME_LABELS[s.name]);
        assert.ok(FAMILIES.includes(s.family), s.name);
        assert.equal(typeof s.trainable, 'boolean');
        assert.equal(typeof s.seeded, 'boolean');
        assert.ok(s.paper.length > 10, s.name);
        assert.ok(s.terms.length >= 1 && s.terms.every((t) => typeof t === 'string' && t.length > 0), s.name);
        assert.ok(Object.isFrozen(s) && Object.isFrozen(s.terms));
      }
      assert.deepEqual(trainable, schemes.filter((s) => s.trainable).map((s) => s.name));
      // docs/ARCHITECTURE.md, "The trained model": the seven schemes a model is built with.
      assert.deepEqual([...trainable].sort(), ['additive', 'alibi', 'concatenated', 'learned', 'nope', 'rotary', 't5']);
    });

    it("compare's term names, parameter echoes and rope extras follow the table", () => {
      const n = 5;
      const d = 8;
      const E = lab.embed(['a', 'b', 'c', 'd', 'e'], d);
      const c = lab.compare(E, n, d, { schemes: [...SCHEMES] });
      const param = (name) => lab.schemeTable.params.find((p) => p.name === name);
      for (const s of lab.schemeTable.schemes) {
        assert.deepEqual(c[s.name].termNames, [...s.terms], s.name);
        assert.equal(c[s.name].terms.length, s.terms.length * n * n, s.name);
        assert.equal('frequencies' in c[s.name], s.family === 'rotation', s.name);
        // A rotation lane's ω are ropeFrequencies' for the scaling the table names.
        if (s.family === 'rotation') {
          const { frequencies } = lab.ropeFrequencies(d, { scaling: s.ropeScaling, trainedLength: 2048, evalLength: 8192 });
          assert.deepEqual(c[s.name].frequencies, frequencies, s.name);
        } else {
          assert.equal(s.ropeScaling, undefined, s.name);
        }
      }
      assert.equal(c.learned.trainedLength, param('trainedLength').default);
      assert.equal(c.alibi.slopes[0], lab.alibiSlopes(param('alibiHeads').default)[param('alibiHead').default - 1]);
    });

    it("every parameter has every field; the page's defaults and ranges are the table's", () => {
      const { params } = lab.schemeTable;
      assert.equal(params.length, 10);
      for (const p of params) {
        assert.equal(typeof p.label, 'string');
        assert.ok(p.schemes.length >= 1 && p.schemes.every((s) => SCHEMES.includes(s)), p.name);
        assert.ok(p.min <= p.pageMin && p.pageMin <= p.default && p.default <= p.pageMax && p.pageMax <= p.max, p.name);
        assert.equal(DEFAULTS[p.name], p.default, `state.js default of ${p.name}`);
        const step = p.even ? 2 : p.integer ? 1 : Math.max(1e-9, p.pageMin * 1e-6);
        assert.equal(parseField(p.name, String(p.pageMin)), p.pageMin, `${p.name} = pageMin`);
        assert.equal(parseField(p.name, String(p.pageMax)), p.pageMax, `${p.name} = pageMax`);
        assert.equal(parseField(p.name, String(p.pageMax + step)), undefined, `${p.name} above pageMax`);
        if (p.pageMin > 0) assert.equal(parseField(p.name, String(p.pageMin - step)), undefined, `${p.name} below pageMin`);
        if (p.integer) assert.equal(parseField(p.name, String(p.default + 0.5)), undefined, `${p.name} not whole`);
        if (p.even) assert.equal(parseField(p.name, String(p.default + 1)), undefined, `${p.name} odd`);
      }
    });

    it('one T5 bucket limit: compare, distanceCurves and t5Bias take 256 and refuse 258', () => {
      assert.equal(LIMITS.maxBuckets, 256);
      const max = lab.schemeTable.params.find((p) => p.name === 't5Buckets').max;
      assert.equal(max, LIMITS.maxBuckets);
      assert.equal(lab.t5Bias(2, { numBuckets: max, maxDistance: max }).values.length, max);
      assert.throws(() => lab.t5Bias(2, { numBuckets: max + 2, maxDistance: 1000 }), RangeError);
      const E = lab.embed(['a', 'b'], 8);
      assert.equal(lab.compare(E, 2, 8, { schemes: ['t5'], t5Buckets: max, t5MaxDistance: max }).t5.weights.length, 4);
      assert.throws(() => lab.compare(E, 2, 8, { schemes: ['t5'], t5Buckets: max + 2, t5MaxDistance: 1000 }), /t5Buckets/);
      assert.throws(() => lab.distanceCurves({ d: 8, maxDistance: 4, t5Buckets: max + 2, t5MaxDistance: 1000 }), /t5Buckets/);
    });

    it('settleSchemeOptions: one fallback and one note per broken rule, and compare accepts the result', () => {
      const none = lab.settleSchemeOptions({});
      assert.deepEqual(none.notes, []);
      for (const p of lab.schemeTable.params) assert.equal(none.options[p.name], p.default);

      const alibi = lab.settleSchemeOptions({ alibiHeads: 2, alibiHead: 3 });
      assert.deepEqual(alibi.notes, ['ALiBi head k = 3 is more than H = 2 heads; using head 2.']);
      assert.equal(alibi.options.alibiHead, 2);

      const t5 = lab.settleSchemeOptions({ t5Buckets: 32, t5MaxDistance: 16 }, { causal: true });
      assert.deepEqual(t5.notes, ['T5 max distance 16 does not exceed the 16 exact buckets; using 128.']);
      assert.equal(lab.settleSchemeOptions({ t5Buckets: 32, t5MaxDistance: 16 }).notes.length, 0, '8 exact buckets when not causal');

      const yarn = lab.settleSchemeOptions({ yarnAlpha: 5, yarnBeta: 2.5 });
      assert.deepEqual(yarn.notes, ['YaRN needs α < β (got α = 5, β = 2.5); using α = 1, β = 32.']);
      assert.deepEqual([yarn.options.yarnAlpha, yarn.options.yarnBeta], [1, 32]);

      const all = lab.settleSchemeOptions({ alibiHeads: 4, alibiHead: 9, t5Buckets: 64, t5MaxDistance: 3, yarnAlpha: 40 }, { causal: true });
      assert.equal(all.notes.length, 3);
      const E = lab.embed(['a', 'b', 'c'], 8);
      assert.equal(lab.compare(E, 3, 8, { schemes: [...SCHEMES], causal: true, ...all.options }).alibi.slopes.length, 1);
      // Unsettled, the same values are refused, naming the option.
      assert.throws(() => lab.compare(E, 3, 8, { schemes: ['alibi'], alibiHeads: 4, alibiHead: 9 }), /alibiHead/);

      assert.throws(() => lab.settleSchemeOptions({ t5Buckets: 7 }), /t5Buckets/);
      assert.throws(() => lab.settleSchemeOptions({ alibiHead: '2' }), TypeError);
      assert.throws(() => lab.settleSchemeOptions({ bogus: 1 }), TypeError);
      assert.throws(() => lab.settleSchemeOptions({}, { causal: 1 }), TypeError);
    });
  });
}

describe('a core whose table disagrees with scheme-table.mjs (SCHEMES, SCHEME_LABELS, SCHEME_ROPE_SCALING, LIMITS, the page\'s ranges) is refused', () => {
  // A separate instance of the module (its own load() cache), given stand-in cores.
  const core = (table) => ({ schemeTable: () => table, version: () => '0.0.0', simdBuild: () => false });
  const real = async () => (await load({ simd: false })).schemeTable;

  it('a renamed scheme, a relabelled one, a different RoPE scaling, limit or default, a missing scheme each reject load()', async () => {
    const { schemes, params, trainable } = await real();
    const { classic, ropeScalings, layouts, concatModes, families, syntheticKinds, wordPcas, ropeDefaults } = SCHEME_TABLE;
    const table = (change) => ({ schemes: schemes.map((s) => ({ ...s })), params, trainable, classic, limits: { ...LIMITS },
      ropeScalings, layouts, concatModes, families, syntheticKinds, wordPcas, ropeDefaults, ...change });
    const cases = [
      [table({ schemes: schemes.map((s, i) => ({ ...s, name: i === 9 ? 'rope-ntk2' : s.name })) }), /schemes\.9\.name is rope-ntk2/],
      [table({ schemes: schemes.map((s, i) => ({ ...s, label: i === 0 ? 'Added' : s.label })) }), /schemes\.0\.label is Added/],
      [table({ limits: { ...LIMITS, maxBuckets: 1024 } }), /limits\.maxBuckets is 1024/],
      [table({ params: params.map((p, i) => ({ ...p, default: i === 4 ? 16 : p.default })) }), /params\.4\.default is 16/],
      [table({ schemes: schemes.slice(0, -1) }), /schemes has 10 entries/],
      [table({ schemes: schemes.map((s) => ({ ...s, ropeScaling: s.name === 'rope-ntk' ? 'pi' : s.ropeScaling })) }), /schemes\.9\.ropeScaling is pi/],
      // Names cross the boundary, so a reordered enum is harmless to callers, but the page's list must still match.
      [table({ ropeScalings: ['none', 'ntk', 'pi', 'yarn'] }), /ropeScalings\.1 is ntk/],
      [table({ ropeDefaults: { ...ropeDefaults, beta: 16 } }), /ropeDefaults\.beta is 16/],
      [table({ layouts: ['half', 'interleaved'] }), /layouts\.0 is half/],
      [table({ families: families.slice(0, -1) }), /families has 4 entries/],
    ];
    for (const [index, [stand, message]] of cases.entries()) {
      const module = await import(`../../dist/posenc.mjs?stand-in=${index}`);
      module.setCoreLoader(async () => core(stand));
      await assert.rejects(module.load({ simd: false }), message);
    }
    const module = await import('../../dist/posenc.mjs?stand-in=same');
    module.setCoreLoader(async () => core(table({})));
    assert.deepEqual((await module.load({ simd: false })).schemeTable.schemes.map((s) => s.name), [...SCHEMES]);
  });
});

const hashFor = (name, value) => `#${FIELDS[name][0]}=${value}`;

describe('scheme-table.mjs, generated at build time, is each core\'s own table', () => {
  for (const flavour of ['simd', 'scalar']) {
    it(`the ${flavour} core`, async () => {
      const { default: createCore } = await import(`../../dist/posenc-core-${flavour}.mjs`);
      const wasmBinary = await readFile(new URL(`../../dist/posenc-core-${flavour}.wasm`, import.meta.url));
      const table = (await createCore({ wasmBinary })).schemeTable();
      assert.deepEqual(SCHEME_TABLE, staticTable(table));
      assert.ok(Object.isFrozen(SCHEME_TABLE) && Object.isFrozen(SCHEME_TABLE.params[0]) && Object.isFrozen(SCHEME_TABLE.schemes));
    });
  }

  it('the JS API\'s constants are the generated table\'s', () => {
    assert.deepEqual([...SCHEMES], SCHEME_TABLE.schemes.map((s) => s.name));
    assert.deepEqual(Object.entries(SCHEME_LABELS), SCHEME_TABLE.schemes.map((s) => [s.name, s.label]));
    assert.deepEqual(SCHEME_ROPE_SCALING, { 'rope-pi': 'pi', 'rope-ntk': 'ntk', yarn: 'yarn' });
    for (const [key, value] of Object.entries(SCHEME_TABLE.limits)) assert.equal(LIMITS[key], value, key);
  });

  it("the generated declaration's unions are the table's names, trainable schemes, families and RoPE scalings, in its order", async () => {
    const declaration = await readFile(new URL('../../dist/scheme-table.d.mts', import.meta.url), 'utf8');
    const union = (type) => {
      const line = declaration.match(new RegExp(`^export type ${type} = (.*);$`, 'm'));
      assert.ok(line, `${type} in scheme-table.d.mts`);
      return [...line[1].matchAll(/'([^']*)'/g)].map((m) => m[1]);
    };
    assert.deepEqual(union('Scheme'), [...SCHEMES]);
    assert.deepEqual(union('TrainableScheme'), [...SCHEME_TABLE.trainable]);
    assert.deepEqual(union('SchemeFamily'), [...SCHEME_TABLE.families]);
    assert.deepEqual(union('SyntheticKind'), [...SCHEME_TABLE.syntheticKinds]);
    assert.deepEqual(union('WordPca'), [...SCHEME_TABLE.wordPcas]);
    assert.deepEqual(union('RopeScalingType'), ['none', ...Object.values(SCHEME_ROPE_SCALING)]);
  });

  it('LAYOUT, CONCAT_MODE, ROPE_SCALING and FAMILY hold the core\'s names, in its order, keyed by their camelCase', () => {
    for (const [named, names] of [[LAYOUT, SCHEME_TABLE.layouts], [CONCAT_MODE, SCHEME_TABLE.concatModes],
      [ROPE_SCALING, SCHEME_TABLE.ropeScalings], [FAMILY, SCHEME_TABLE.families], [SYNTHETIC_KIND, SCHEME_TABLE.syntheticKinds]]) {
      assert.deepEqual(Object.values(named), [...names]);
      assert.ok(Object.isFrozen(named));
    }
    assert.equal(CONCAT_MODE.sameWidth, 'same-width');  // the key a hyphenated name gets
    assert.equal(LAYOUT.half, 'half');
    assert.equal(FAMILY.logitBias, 'logit bias');
    for (const s of SCHEME_TABLE.schemes) assert.ok(SCHEME_TABLE.families.includes(s.family), s.name);
  });

  it("a link's scheme parameter at each end of the table's page range is kept, one past it is refused with that range", () => {
    for (const p of SCHEME_TABLE.params) {
      const step = p.even ? 2 : 1;
      for (const edge of [p.pageMin, p.pageMax]) {
        const hash = hashFor(p.name, edge);
        assert.deepEqual(readHash(hash).notes, [], hash);
        assert.equal(readHash(hash).state[p.name], edge, hash);
      }
      const past = hashFor(p.name, p.pageMax + step);
      const { state, notes } = readHash(past);
      assert.equal(state[p.name], p.default, past);
      assert.equal(notes.length, 1, past);
      assert.match(notes[0], new RegExp(`from ${p.pageMin.toLocaleString('en-US')} to ${p.pageMax.toLocaleString('en-US')}`), past);
    }
  });
});
