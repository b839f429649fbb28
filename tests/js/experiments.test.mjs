// The results store: data/experiments/ holds the records docs/EXPERIMENTS.md and the
// page read, and one of them reproduces bit for bit. The reduced form of
// `node scripts/experiments.mjs check`: the book table's check run only (600 steps of the page's
// tiny model, seconds); copy and words are rerun by hand (docs/EXPERIMENTS.md).
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { SLIDING_STRIDE } from '../../scripts/experiment-tables.mjs';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const KEYS = ['task', 'scheme', 'variant', 'seed', 'config', 'steps', 'heldOut', 'byPosition', 'byWindow'];

test('every record has the issue\'s fields, the same held-out units at every multiple, and positions at 8×', () => {
  for (const table of ['book', 'copy', 'words', 'controls', 'book-large-torch', 'book-large-torch-sliding', 'book-large-torch-1rank', 'book-large-1thread']) {
    const file = path.join(ROOT, 'data/experiments', `${table}.json`);
    if (!fs.existsSync(file)) continue;
    const { records } = JSON.parse(fs.readFileSync(file, 'utf8'));
    assert.ok(records.length > 0, table);
    checkRecords(table, records);
  }
});

// Each record: the fields, heldOut the mean of byWindow over the same units at every
// multiple, and byPosition at 8× averaging to heldOut there.
function checkRecords(table, records) {
  for (const r of records) {
    for (const key of KEYS) assert.ok(key in r, `${table} ${r.scheme} ${r.variant} ${r.seed}: ${key}`);
    const units = r.config.windows;
    for (const [k, value] of Object.entries(r.heldOut)) {
      assert.equal(r.byWindow[k].length, units);
      const mean = r.byWindow[k].reduce((a, b) => a + b, 0) / units;
      assert.ok(Math.abs(mean - value) <= 1e-12 * Math.abs(value), `${table} ${r.scheme} ${k}×: heldOut is the mean of byWindow`);
    }
    if (r.task !== 'copy' && r.heldOut[8] !== undefined) {
      assert.equal(r.byPosition[8].length, 8 * r.config.context);
      const mean = r.byPosition[8].reduce((a, b) => a + b, 0) / r.byPosition[8].length;
      assert.ok(Math.abs(mean - r.heldOut[8]) < 1e-9, 'byPosition averages to heldOut at 8×');
    }
  }
}

test('check: the book table\'s check run reproduces its record bit for bit', { timeout: 600000 }, (t) => {
  if (!fs.existsSync(path.join(ROOT, 'data/experiments/book.json'))) return t.skip('no book records');
  const out = execFileSync(process.execPath, ['scripts/experiments.mjs', 'check', 'book'], { cwd: ROOT, encoding: 'utf8' });
  assert.match(out, /reproduced bit for bit/);
  assert.doesNotMatch(out, /DIFFERS/);
});

// The reduced form of `run book-large-torch`: 4 steps of ALiBi (no RoPE variants: one evaluation)
// on the twin at two gloo ranks, evaluated on 8 held-out windows, into the smoke store
// (build-data/). A second call trains nothing; with the store gone but the trained model kept (a
// run killed while evaluating), the model is evaluated again, not retrained, to the same records.
const torchPython = ['/usr/bin/python3', 'python3'].find((p) => {
  try { execFileSync(p, ['-c', 'import torch'], { stdio: 'ignore' }); return true; } catch { return false; }
});
test('run book-large-torch, reduced: records with engine "torch" at two ranks; recorded runs are skipped', { timeout: 600000 }, (t) => {
  if (!fs.existsSync(path.join(ROOT, 'dist/posenc.mjs'))) return t.skip('no dist/ (./scripts/build)');
  if (!torchPython) return t.skip('no python3 with torch');
  const store = path.join(ROOT, 'build-data/experiments-smoke/book-large-torch.json');
  const model = path.join(ROOT, 'build-data/experiments/book-large-torch-alibi-seed1-4.safetensors');
  for (const file of [store, model]) fs.rmSync(file, { force: true });
  const run = () => execFileSync(process.execPath, ['scripts/experiments.mjs', 'run', 'book-large-torch', '--steps', '4', '--windows', '8', '--schemes', 'alibi', '--seeds', '1'],
    { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  assert.match(run(), /book-large-torch alibi seed 1: 1× \d/);
  const first = fs.readFileSync(store, 'utf8');
  const [r, ...more] = JSON.parse(first).records;
  assert.equal(more.length, 0);
  checkRecords('book-large-torch (smoke)', [r]);
  assert.deepEqual([r.scheme, r.variant, r.seed, r.steps, r.engine, r.build.engine, r.build.device], ['alibi', 'none', 1, 4, 'torch', 'torch', 'cpu']);
  assert.deepEqual([r.config.ranks, r.config.threads, r.config.windows, r.config.context, r.config.B], [2, 1, 8, 64, 16]);
  // Four steps at lr 2e-3 take the held-out loss well below a uniform guess over the 89 characters.
  for (const k of ['1', '2', '4', '8']) assert.ok(r.heldOut[k] < Math.log(89) - 0.5, `${k}×: ${r.heldOut[k]}`);
  assert.doesNotMatch(run(), /alibi seed 1/);
  assert.equal(fs.readFileSync(store, 'utf8'), first);
  fs.rmSync(store);
  assert.match(run(), /trained already, evaluating it/);
  const strip = ({ timing, ...rest }) => rest;
  assert.deepEqual(strip(JSON.parse(fs.readFileSync(store, 'utf8')).records[0]), strip(r));
});

// The sliding table on the same reduced model: evaluated, not retrained, with the protocol in the
// config; at 8× a row is the whole window under both protocols, so those numbers agree exactly,
// while at 1× the later rows' targets gain context and the numbers differ.
test('run book-large-torch-sliding, reduced: book-large-torch\'s model under the sliding protocol', { timeout: 600000 }, (t) => {
  if (!fs.existsSync(path.join(ROOT, 'dist/posenc.mjs'))) return t.skip('no dist/ (./scripts/build)');
  if (!torchPython) return t.skip('no python3 with torch');
  const smoke = (table) => execFileSync(process.execPath, ['scripts/experiments.mjs', 'run', table, '--steps', '4', '--windows', '8', '--schemes', 'alibi', '--seeds', '1'],
    { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const record = (table) => JSON.parse(fs.readFileSync(path.join(ROOT, `build-data/experiments-smoke/${table}.json`), 'utf8')).records;
  smoke('book-large-torch');
  fs.rmSync(path.join(ROOT, 'build-data/experiments-smoke/book-large-torch-sliding.json'), { force: true });
  assert.match(smoke('book-large-torch-sliding'), /book-large-torch-alibi-seed1-4\.safetensors: trained already, evaluating it/);
  const [[w], [s, ...more]] = [record('book-large-torch'), record('book-large-torch-sliding')];
  assert.equal(more.length, 0);
  checkRecords('book-large-torch-sliding (smoke)', [s]);
  assert.deepEqual([s.config.protocol, s.config.stride, s.config.ranks, s.config.windows], ['sliding', SLIDING_STRIDE, 2, 8]);
  assert.equal(w.config.protocol, undefined);
  assert.deepEqual(s.byWindow[8], w.byWindow[8]);
  assert.notDeepEqual(s.byWindow[1], w.byWindow[1]);
});
