// The native trainer (cli/posenc_train.cpp, built as build-native/posenc-train by scripts/test's
// first layer) and the page's core agree: a few copy steps, the weights file it writes loads with
// lab.loadModel, and the loaded model's held-out loss on the same task is the one the CLI printed.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { load } from '../../dist/posenc.mjs';

const CLI = fileURLToPath(new URL('../../build-native/posenc-train', import.meta.url));
// The JS API's default evaluation seed (web/model.mjs), passed to both sides explicitly.
const EVAL_SEED = 0x5eed;
const RUN = { B: 4, T: 16, batches: 2, symbols: 10 };

function train(out) {
  const args = ['--task', 'copy', '--scheme', 'rotary', '--d', '16', '--layers', '1', '--heads', '2',
    '--context', String(RUN.T), '--items', String(RUN.T / 2), '--symbols', String(RUN.symbols),
    '--batch', String(RUN.B), '--steps', '5', '--log-every', '5', '--eval-batches', String(RUN.batches),
    '--eval-seed', String(EVAL_SEED), '--out', out];
  return execFileSync(CLI, args, { encoding: 'utf8' });
}

describe('posenc-train (native CLI)', () => {
  let lab;
  before(async () => { lab = await load({ simd: true }); await lab.loadModels(); });

  it('writes a weights file that loads with the same held-out loss it printed', async () => {
    assert.ok(existsSync(CLI), `${CLI} is missing: build it with ` +
      '`cmake -S . -B build-native -DCMAKE_BUILD_TYPE=Release && cmake --build build-native --target posenc_train` ' +
      '(scripts/test\'s first layer does)');
    const dir = await mkdtemp(join(tmpdir(), 'posenc-cli-'));
    try {
      const file = join(dir, 'copy.safetensors');
      const output = train(file);
      const printed = /final held-out loss (\S+)/.exec(output);
      assert.ok(printed, `no final loss line in:\n${output}`);
      const model = lab.loadModel(new Uint8Array(await readFile(file)));
      const task = lab.createTask({ kind: 'copy', symbols: RUN.symbols });
      assert.equal(model.steps, 0);  // a loaded file carries weights, not the optimiser
      assert.equal(model.config.vocab, RUN.symbols + 2);
      const [result] = model.evaluate(task, { lengths: [RUN.T], B: RUN.B, batches: RUN.batches, seed: EVAL_SEED });
      // Same batches, same weights, same SSE-level kernels; only libm's exp/log (glibc natively,
      // musl in wasm) may round differently, a few ulps of a float loss: 1e-6 relative.
      const expected = Number(printed[1]);
      assert.ok(Math.abs(result.loss - expected) <= 1e-6 * expected,
        `CLI printed ${expected}, the loaded model gives ${result.loss}`);
      // A model trained for 5 steps is not at its initial loss: the file holds the trained weights.
      const fresh = lab.createModel({ ...model.config });
      const [initial] = fresh.evaluate(task, { lengths: [RUN.T], B: RUN.B, batches: RUN.batches, seed: EVAL_SEED });
      assert.notEqual(initial.loss, result.loss);
      for (const handle of [model, fresh, task]) handle.dispose();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('stops with a message at a diverged step and writes nothing', async () => {
    // lr 1, no clipping, beta2 0.5, no decay: the weights grow until a gradient overflows (step
    // 386 in the native SSE4.1 build, seed 1); the run must say so instead of training on NaN.
    const dir = await mkdtemp(join(tmpdir(), 'posenc-cli-'));
    try {
      const file = join(dir, 'diverged.safetensors');
      const args = ['--task', 'copy', '--scheme', 'additive', '--d', '16', '--layers', '4', '--heads', '2', '--context', '8',
        '--items', '4', '--batch', '4', '--steps', '3000', '--lr', '1', '--clip', '0', '--beta2', '0.5', '--weight-decay', '0',
        '--log-every', '1000', '--out', file];
      const run = spawnSync(CLI, args, { encoding: 'utf8' });
      assert.notEqual(run.status, 0, `exit ${run.status}; stdout:\n${run.stdout}`);
      assert.match(run.stderr, /^posenc-train: diverged at step \d+ \((a gradient was not finite|the loss was (-?nan|-?inf))\): the step was not applied and training stops, nothing written; lower --lr or keep --clip above 0\n$/);
      assert.ok(!existsSync(file), 'a diverged run wrote a weights file');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
