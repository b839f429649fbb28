// The trained lanes' pure helpers (web/panels/trained-data.js, web/pipeline/model-ids.js) and the results panel's
// (web/results/report.js, on the results store's record shape): the numbers the page shows, checked against direct formulas.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { completedRows, trainedHeadsLabel } from '../../web/panels/trained-data.js';
import { clampHead, idsFor, vocabularyIndex } from '../../web/pipeline/model-ids.js';
import {
  groupRuns, lengthTitles, positionSeries, resultsSentences, resultsTable, runLabel, runSetAt,
} from '../../web/results/report.js';
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

  it('completes a shown causal map with a pass\'s rows: every size change, in place where the buffer has room', () => {
    // A causal map whose row i is a function of ids 0 … i alone (0 past column i), on `buffer`.
    const causalMap = (ids, buffer = new ArrayBuffer(4 * ids.length ** 2)) => {
      const n = ids.length;
      const map = new Float32Array(buffer, 0, n * n);
      for (let i = 0; i < n; i++) {
        const seed = ids.slice(0, i + 1).reduce((h, id) => (h * 31 + id) % 9973, 7);
        for (let j = 0; j <= i; j++) map[i * n + j] = seed + j / 64;
      }
      return map;
    };
    const shared = (a, b) => { let i = 0; while (i < a.length && i < b.length && a[i] === b[i]) i++; return i; };
    const cases = [
      [[1, 2, 3, 4], [1, 2, 3, 4, 5]], // a word added
      [[1, 2, 3, 4, 5], [1, 2, 3, 9, 5, 6, 7]], // a middle word changed and two added
      [[1, 2, 3, 4, 5, 6], [1, 2, 3]], // words deleted
      [[1, 2, 3, 4, 5, 6], [1, 2, 9, 4]],
      [[1, 2, 3], [1, 2, 4]], // the last word changed
      [[5], [5, 6, 7, 8, 9, 1, 2, 3, 4]],
    ];
    for (const [was, is] of cases) {
      const [m, n] = [was.length, is.length];
      const fromRow = Math.min(shared(was, is), n - 1);
      const want = causalMap(is);
      for (const room of [true, false]) {
        const buffer = new ArrayBuffer(4 * Math.max(m * m, room ? n * n : 0));
        const shown = causalMap(was, buffer);
        const got = completedRows(shown, m, n, fromRow, want.slice(fromRow * n));
        assert.deepEqual([...got], [...want], `${was} → ${is}, room ${room}`);
        assert.equal(got.buffer === buffer, room || n <= m, 'on the shown buffer exactly where it holds n² floats');
      }
    }
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
    // Trained heads are the default, so the link leaves h= out; W = I is written.
    assert.equal(DEFAULTS.heads, 'trained');
    assert.equal(writeHash(state), '#s=hi&hl=2&hh=5');
    assert.equal(readHash(writeHash(state)).state.heads, 'trained');
    assert.equal(readHash('#h=0').state.heads, 0, 'old links with h=0 keep the encoding alone');
    assert.equal(writeHash({ ...state, heads: 0 }), '#s=hi&h=0&hl=2&hh=5');
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

// A made-up store: losses per unit = the given mean at each multiple plus seeded unit noise and a
// per-seed offset, the shape scripts/experiments.mjs writes.
function store(spec, { seeds = [1, 2, 3], units = 8, unitNoise = 0.01, seedNoise = 0.005 } = {}) {
  const records = [];
  for (const [scheme, variant, means] of spec) {
    for (const seed of seeds) {
      const heldOut = {}; const byWindow = {};
      [1, 2, 4, 8].forEach((k, i) => {
        if (means[i] === null) return;
        byWindow[k] = Array.from({ length: units }, (_, u) => means[i] + seedNoise * Math.sin(seed * 7.1 + i) + unitNoise * Math.cos(u * 3.7 + seed));
        heldOut[k] = byWindow[k].reduce((a, b) => a + b, 0) / units;
      });
      records.push({ task: 'words', scheme, variant, seed, metric: 'loss', config: { context: 32 }, steps: 800, heldOut, byWindow,
        byPosition: means[3] === null ? null : { 8: Array.from({ length: 256 }, (_, p) => means[0] + (p >= 32 ? means[3] - means[0] : 0)) } });
    }
  }
  return { table: 'words', records };
}

describe('results panel: the store as a table, sentences and lines', () => {
  const results = store([
    ['additive', 'none', [4.6, 4.8, 5.0, 5.3]],
    ['concatenated', 'none', [4.6, 4.65, 4.7, 4.75]],
    ['rotary', 'none', [4.5, 4.55, 4.6, 4.7]],
    ['rotary', 'yarn', [4.5, 4.52, 4.55, 4.6]],
    ['learned', 'none', [4.65, null, null, null]],
    ['nope', 'none', [4.7, 4.7, 4.71, 4.71]],
  ]);

  it('one column per multiple and the seeds, perplexity with its interval, "—" where a model cannot run', () => {
    assert.deepEqual(lengthTitles(32), ['T = 32', '2T = 64', '4T = 128', '8T = 256']);
    const { columns, rows } = resultsTable(results, LABELS);
    assert.deepEqual(columns, ['Scheme', 'T = 32', '2T = 64', '4T = 128', '8T = 256', 'Seeds']);
    assert.deepEqual(rows.map((r) => r[0]), ['NoPE', 'Additive', 'Learned', 'Concatenated', 'Rotary', 'Rotary + YaRN']);
    assert.match(rows[1][1], /^99\.\d \[\d+(\.\d)?, \d+(\.\d)?\]$/);  // exp(4.6) = 99.5
    assert.deepEqual(rows[2].slice(2), ['—', '—', '—', '3']);
    assert.equal(runLabel({ scheme: 't5', variant: 't5max=128' }, { t5: 'T5 bias' }), 'T5 bias (t5max=128)');
  });

  it('claims under the interval rule, says its seeds, and ranks holding up by growth and by level', () => {
    const text = resultsSentences(results, LABELS).join(' ');
    assert.match(text, /T = 32, Rotary scored best on average \(perplexity 90\.\d \[.*\], over 3 seeds\)/);
    assert.match(text, /Against the runner-up: Rotary beat Additive on held-out loss \(nats per word\) at T by 0\.1/);
    assert.match(text, /at T: Additive and Concatenated: no clear difference/);
    assert.match(text, /At 8T: Concatenated beat Additive .* by 0\.55/);
    assert.match(text, /Held up best by growth from T to 8T: NoPE beat Concatenated on the change/);
    assert.match(text, /Lowest at 8T: Rotary beat NoPE/);  // plain schemes only: YaRN is a variant
    assert.match(text, /Learned cannot run past T/);
  });

  it('one seed: an interval over held-out units only, said to be from one seed', () => {
    const one = store([['additive', 'none', [4.6, 4.8, 5, 5.3]], ['concatenated', 'none', [4.7, 4.7, 4.75, 4.8]]], { seeds: [1] });
    assert.match(resultsTable(one, LABELS).rows[0][1], /\(1 seed\)$/);
    const text = resultsSentences(one, LABELS).join(' ');
    assert.match(text, /from one seed: the spread over training seeds is unmeasured, so no claim/);
    assert.doesNotMatch(text, /beat/);
  });

  it('pairs by seed: only the seeds both schemes have count', () => {
    const a = groupRuns(store([['additive', 'none', [4.6, 4.8, 5, 5.3]]], { seeds: [1, 2, 3] }).records)[0];
    const b = groupRuns(store([['concatenated', 'none', [4.6, 4.8, 5, 5.3]]], { seeds: [2, 3, 4] }).records)[0];
    assert.equal(runSetAt(a, 1, b).length, 2);
    assert.deepEqual(runSetAt(a, 1, b)[0], a.records[1].byWindow[1]);
  });

  it('a loss-by-position line per plain scheme with positions, averaged over seeds and bins of 8 positions', () => {
    const series = positionSeries(results, LABELS);
    assert.deepEqual(series.map((s) => s.name), ['NoPE', 'Additive', 'Concatenated', 'Rotary']);
    assert.equal(series[1].x.length, 32);  // bins of 8 positions
    assert.deepEqual(series[1].x.slice(0, 3), [0, 8, 16]);
    assert.ok(Math.abs(series[1].y[0] - 4.6) < 1e-12 && Math.abs(series[1].y[31] - 5.3) < 1e-12);
    assert.equal(positionSeries(results, LABELS, { bin: 1 })[1].x.length, 256);
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
