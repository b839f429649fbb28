// data/train-replay.json (what <posenc-lab panel="train"> shows) is what the core trains today:
// scripts/train-replay.mjs --check re-runs the page's default run (its default schemes, 600 steps) and
// compares the file byte for byte. A core change that moves any shipped number fails here; then
// regenerate with `node scripts/train-replay.mjs` and review the diff.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('../../scripts/train-replay.mjs', import.meta.url));

test('the shipped Train replay is the current core\'s default run', { timeout: 300000 }, async () => {
  const { code, stderr } = await new Promise((resolve) => {
    execFile(process.execPath, [SCRIPT, '--check'], (error, _stdout, stderr) => resolve({ code: error?.code ?? 0, stderr }));
  });
  assert.equal(code, 0, stderr);
  assert.match(stderr, /up to date/);
});
