// The trained lanes' pure helpers (web/panels/trained-data.js) and the results table's
// (web/panels/results-data.js): the numbers the page shows, checked against direct formulas.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { clampHead, idsFor, trainedHeadsLabel, vocabularyIndex } from '../../web/panels/trained-data.js';
import { lengthTitles, resultsSentences, resultsTable, rowLabel } from '../../web/panels/results-data.js';
import { DEFAULTS, readHash, writeHash } from '../../dist/pipeline/state.js';

describe('trained lanes: data helpers', () => {
  it('labels the Heads choice with the models’ layers × heads, and offers nothing without models', () => {
    assert.equal(trainedHeadsLabel([]), null);
    assert.equal(trainedHeadsLabel(undefined), null);
    const entry = (layers, heads) => ({ config: { layers, heads } });
    assert.equal(trainedHeadsLabel([entry(2, 5), entry(2, 5)]), 'trained (2 layers × 5 heads)');
    assert.equal(trainedHeadsLabel([entry(1, 1)]), 'trained (1 layer × 1 head)');
    assert.match(trainedHeadsLabel([entry(2, 5), entry(2, 10)]), /vary/);
  });

  it('maps the page’s tokens to ids, unknown tokens to the unknown id, reusing the buffer', () => {
    const index = vocabularyIndex(['<unk>', 'the', 'king', 'sat', 'the']);
    assert.equal(index.get('the'), 1, 'a repeated string keeps its first id');
    const out = new Int32Array(8).fill(-7);
    const { ids, unknown } = idsFor(['the', 'king', 'zzz', 'sat', 'qqq'], index, 0, out);
    assert.deepEqual([...ids], [1, 2, 0, 3, 0]);
    assert.equal(unknown, 2);
    assert.equal(ids.buffer, out.buffer, 'a long enough buffer is written in place');
    const grown = idsFor(['king'], index, 0, null);
    assert.deepEqual([...grown.ids], [2]);
  });

  it('clamps a 1-based layer and head choice to the model', () => {
    assert.deepEqual(clampHead({ layer: 1, head: 1 }, { layers: 2, heads: 5 }), { layer: 0, head: 0 });
    assert.deepEqual(clampHead({ layer: 9, head: 64 }, { layers: 2, heads: 5 }), { layer: 1, head: 4 });
  });
});

describe('trained lanes: the URL', () => {
  it('keeps Heads = trained and the layer and head, and refuses what the form would', () => {
    const { state, notes } = readHash('#s=hi&h=trained&hl=2&hh=5');
    assert.deepEqual(notes, []);
    assert.equal(state.heads, 'trained');
    assert.equal(state.headLayer, 2);
    assert.equal(state.headIndex, 5);
    assert.equal(writeHash(state), '#s=hi&h=trained&hl=2&hh=5');
    assert.equal(readHash('#h=3').state.heads, 3, 'numbers stay numbers');
    const bad = readHash('#h=trainedx&hl=0&hh=1.5');
    assert.equal(bad.state.heads, DEFAULTS.heads);
    assert.equal(bad.state.headLayer, 1);
    assert.equal(bad.state.headIndex, 1);
    assert.equal(bad.notes.length, 3);
    assert.match(bad.notes[0], /or 'trained'/);
  });
});

const LABELS = { additive: 'Additive', concatenated: 'Concatenated', rotary: 'Rotary', learned: 'Learned', nope: 'NoPE' };
const pp = (...pairs) => pairs.map((p) => (p === null ? null : { mean: p[0], spread: p[1] }));

describe('trained lanes: results table', () => {
  const results = {
    lengths: [32, 64, 128, 256],
    seeds: 3,
    steps: 2000,
    rows: [
      { scheme: 'additive', variant: null, perplexity: pp([80, 1], [95, 2], [140, 5], [300, 9]) },
      { scheme: 'concatenated', variant: null, perplexity: pp([84, 1.5], [99, 2], [150, 5], [320, 10]) },
      { scheme: 'rotary', variant: null, perplexity: pp([70, 1], [72, 1], [90, 3], [150, 4]) },
      { scheme: 'rotary', variant: 'yarn', perplexity: pp([70, 1], [71, 1], [75, 2], [84, 3]) },
      { scheme: 'learned', variant: null, perplexity: pp([76, 2], null, null, null) },
      { scheme: 'nope', variant: null, perplexity: pp([90, 3], [92, 3], [96, 3], [100, 3]) },
    ],
  };

  it('has one column per length, named by its multiple of T, and "—" where a model cannot run', () => {
    assert.deepEqual(lengthTitles([32, 64, 128, 256]), ['T = 32', '2T = 64', '4T = 128', '8T = 256']);
    const { columns, rows } = resultsTable(results, LABELS);
    assert.deepEqual(columns, ['Scheme', 'T = 32', '2T = 64', '4T = 128', '8T = 256']);
    assert.deepEqual(rows[0], ['Additive', '80.0 ± 1', '95.0 ± 2', '140 ± 5', '300 ± 9']);
    assert.equal(rows[1][1], '84.0 ± 1.5');
    assert.equal(rows[3][0], 'Rotary + YaRN');
    assert.deepEqual(rows[4].slice(1), ['76.0 ± 2', '—', '—', '—']);
    assert.equal(rowLabel({ scheme: 'xpos', variant: 'none' }, LABELS), 'xpos');
  });

  it('says which scheme learned best, whether add and concatenate differ beyond the spread, and who held up', () => {
    const text = resultsSentences(results, LABELS).join(' ');
    assert.match(text, /T = 32, Rotary learned best \(perplexity 70\.0 ± 1 over 3 seeds\)/);
    // |80 − 84| = 4 > 1 + 1.5: a clear difference, additive ahead.
    assert.match(text, /Additive beat Concatenated/);
    // Growth to 8T: NoPE 100/90 = 1.11 least; concatenated 320/84 = 3.81 most; YaRN's 84 the lowest; learned cannot run.
    assert.match(text, /at 256 tokens \(8T\), NoPE held up best \(×1\.11 its perplexity at T\) and Concatenated worst \(×3\.81/);
    assert.match(text, /the lowest perplexity there is Rotary \+ YaRN's \(84\.0 ± 3\)/);
    assert.match(text, /Learned cannot run past T/);
  });

  it('reads the results file’s own shape: seeds as a list, variant "none", null cells, no spread for one seed', () => {
    const file = {
      lengths: [32, 64],
      seeds: [1],
      rows: [
        { scheme: 'additive', variant: 'none', perplexity: [{ mean: 101.2, spread: null, seeds: 1 }, { mean: 180, spread: null, seeds: 1 }] },
        { scheme: 'concatenated', variant: 'none', perplexity: [{ mean: 99.4, spread: null, seeds: 1 }, { mean: 150, spread: null, seeds: 1 }] },
        { scheme: 'learned', variant: 'none', perplexity: [{ mean: 104, spread: null, seeds: 1 }, null] },
        { scheme: 'rotary', variant: 'ntk', perplexity: [{ mean: 100, spread: null, seeds: 1 }, { mean: 120, spread: null, seeds: 1 }] },
      ],
    };
    const { rows } = resultsTable(file, LABELS);
    assert.deepEqual(rows.map((r) => r[0]), ['Additive', 'Concatenated', 'Learned', 'Rotary + NTK']);
    assert.deepEqual(rows[0].slice(1), ['101', '180']);
    assert.deepEqual(rows[2].slice(1), ['104', '—']);
    const [first, second] = resultsSentences(file, LABELS);
    assert.match(first, /Concatenated learned best \(perplexity 99\.4 over 1 seed\); at equal width Concatenated came out ahead .*one seed/);
    assert.match(second, /Rotary \+ NTK held up best \(×1\.20 .* Additive worst \(×1\.78 .*Learned cannot run past T/);
  });

  it('calls a gap within the seeds’ spread no clear difference, and follows the numbers when they change', () => {
    const close = structuredClone(results);
    close.rows[1].perplexity[0] = { mean: 81.5, spread: 1 }; // |80 − 81.5| = 1.5 < 1 + 1
    assert.match(resultsSentences(close, LABELS)[0], /no clear difference/);
    const flipped = structuredClone(results);
    flipped.rows[1].perplexity[0] = { mean: 60, spread: 1 };
    assert.match(resultsSentences(flipped, LABELS)[0], /Concatenated learned best.*Concatenated beat Additive/);
  });
});

// The lanes look the page's tokens up in JS instead of calling m.tokenize(text): the same ids for
// the same text, model by model (skipped until the shipped models exist in dist/).
describe('trained lanes: the vocabulary lookup equals the core’s tokenize', () => {
  const TEXT = 'The king sat on the throne, and the queen smiled at the king. Call me Ishmael; zxqv co-operate 1999 café!';
  for (const simd of [true, false]) {
    it(`${simd ? 'SIMD' : 'scalar'} build`, async (t) => {
      const { load } = await import('../../dist/posenc.mjs');
      const lab = await load({ simd });
      await lab.loadModels();
      if (!lab.pretrained?.length) { t.skip('no shipped models in dist/'); return; }
      const tokens = lab.tokenize(TEXT);
      for (const { name } of lab.pretrained) {
        const m = await lab.loadPretrained(name);
        try {
          const { ids, unknown } = idsFor(tokens, vocabularyIndex(m.vocab), m.unknownId, null);
          assert.deepEqual([...ids], [...m.tokenize(TEXT)], name);
          assert.ok(unknown >= 1, `${name}: "zxqv" is unknown`);
        } finally {
          m.dispose();
        }
      }
    });
  }
});
