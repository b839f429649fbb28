// The results store: data/experiments/ holds the records docs/EXPERIMENTS.md and the
// page read, and one of them reproduces bit for bit. The reduced form of
// `node scripts/experiments.mjs check`: the book table's check run only (600 steps of the page's
// tiny model, seconds); copy and words are rerun by hand (docs/EXPERIMENTS.md).
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const KEYS = ['task', 'scheme', 'variant', 'seed', 'config', 'steps', 'heldOut', 'byPosition', 'byWindow'];

test('every record has the issue\'s fields, the same held-out units at every multiple, and positions at 8×', () => {
  for (const table of ['book', 'copy', 'words', 'controls']) {
    const file = path.join(ROOT, 'data/experiments', `${table}.json`);
    if (!fs.existsSync(file)) continue;
    const { records } = JSON.parse(fs.readFileSync(file, 'utf8'));
    assert.ok(records.length > 0, table);
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
});

test('check: the book table\'s check run reproduces its record bit for bit', { timeout: 600000 }, (t) => {
  if (!fs.existsSync(path.join(ROOT, 'data/experiments/book.json'))) return t.skip('no book records');
  const out = execFileSync(process.execPath, ['scripts/experiments.mjs', 'check', 'book'], { cwd: ROOT, encoding: 'utf8' });
  assert.match(out, /reproduced bit for bit/);
  assert.doesNotMatch(out, /DIFFERS/);
});
