// One run of a torch table (scripts/experiment-tables.mjs, engine "torch") for
// scripts/experiments.mjs: python3 -m posenc_lab.train on the native table's flags at t.ranks
// gloo ranks, then python3 -m posenc_lab.evaluate on the table's held-out windows; the records it
// returns go to the store through experiments.mjs's addRecords.
// Scratch, per run, in build-data/experiments/ (never committed; <table> is t.models where set, a
// table that evaluates another table's models another way):
//   <table>-<scheme>-seed<seed>-<steps>.ckpt         the checkpoint, every saveEvery steps: a killed
//                                                   run resumes from it on the same machine
//   <table>-<scheme>-seed<seed>-<steps>.safetensors  the trained model, renamed into place only once
//                                                   written whole: a run killed while evaluating is
//                                                   evaluated again, not retrained
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { twinTrainerArgs } from './experiment-tables.mjs';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const SCRATCH = path.join(ROOT, 'build-data/experiments');
const ATTEMPTS = 3;

let python = null;
/** The Python that has torch: Debian's python3-torch is under /usr/bin/python3, which a pyenv or virtualenv python3 may hide. */
export function torchPython() {
  python ??= ['/usr/bin/python3', 'python3'].find((candidate) => spawnSync(candidate, ['-c', 'import torch']).status === 0) ?? null;
  if (!python) throw new Error('no python3 with torch (Debian: python3-torch; ./scripts/setup)');
  return python;
}

// Runs python3 -m MODULE ARGS from the checkout at niceness 10 (or the caller's, when higher), its
// output passed through line by line; rejects on a non-zero exit.
function runPython(module, args) {
  const command = [torchPython(), '-m', module, ...args];
  const niced = os.getPriority() >= 10;
  return new Promise((resolve, reject) => {
    const child = spawn(niced ? command[0] : 'nice', niced ? command.slice(1) : ['-n', '10', ...command],
      { cwd: ROOT, env: { ...process.env, PYTHONPATH: path.join(ROOT, 'python') }, stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${command.join(' ')} exited with ${code}`))));
  });
}

// Trains the run unless its finished model is already in scratch (retrain: start afresh).
async function trained(t, run, seed, base, { retrain }) {
  const out = `${base}.safetensors`;
  const checkpoint = `${base}.ckpt`;
  if (retrain) for (const file of [out, checkpoint]) fs.rmSync(file, { force: true });
  if (fs.existsSync(out)) {
    console.log(`${path.basename(out)}: trained already, evaluating it`);
    return out;
  }
  // A smoke run (fewer steps than saveEvery) still writes a checkpoint halfway.
  const saveEvery = Math.max(1, Math.min(t.saveEvery, Math.floor(t.steps / 2)));
  // A rank that fails mid-run (gloo times a collective out after 30 minutes, e.g. when the
  // processes were stopped that long) ends the run; it resumes from its last checkpoint, at most
  // ATTEMPTS times in all, so a transient failure costs at most saveEvery steps.
  for (let attempt = 1; ; attempt++) {
    const resume = fs.existsSync(checkpoint);
    if (resume) console.log(`${path.basename(checkpoint)}: resuming`);
    try {
      await runPython('posenc_lab.train', twinTrainerArgs(t, run, seed, `${out}.partial`, checkpoint, { resume, saveEvery }));
      break;
    } catch (error) {
      if (attempt >= ATTEMPTS) throw error;
      console.log(`${error.message}; attempt ${attempt + 1} of ${ATTEMPTS}`);
    }
  }
  fs.renameSync(`${out}.partial`, out);
  fs.rmSync(checkpoint, { force: true });
  return out;
}

/**
 * The records of one run (scheme, seed) of torch table `table` (t its settings; t.sliding: the
 * sliding-window protocol at t.sliding.stride, else the windows protocol): the twin's own
 * (engine "torch", its build and device), with the ranks and threads per rank in the config and
 * the wall time of this call. retrain: ignore a finished model or checkpoint in scratch.
 */
export async function twinRecords(table, t, run, seed, { retrain = false } = {}) {
  const started = performance.now();
  fs.mkdirSync(SCRATCH, { recursive: true });
  // t.models: another table's scratch models (the same flags), evaluated here another way.
  const base = path.join(SCRATCH, `${t.models ?? table}-${run.scheme}-seed${seed}-${t.steps}`);
  const model = await trained(t, run, seed, base, { retrain });
  const store = `${base}.records.json`;
  fs.rmSync(store, { force: true });
  await runPython('posenc_lab.evaluate', [model, '--task', t.task, '--text', 'data/moby-dick.txt', '--windows', t.windows,
    '--table', table, '--out', store, '--seed', seed, '--steps', t.steps, '--batch', t.train.B, '--lr', t.train.lr,
    ...(t.sliding ? ['--protocol', 'sliding', '--stride', t.sliding.stride] : []),
    ...(t.sliding?.ropeScalings === false ? ['--no-rope-scalings'] : [])].map(String));
  const { records } = JSON.parse(fs.readFileSync(store, 'utf8'));
  fs.rmSync(store);
  const timing = { wallSeconds: Math.round((performance.now() - started) / 100) / 10, reusedShipped: false };
  return records.map((r) => ({ ...r, config: { ...r.config, threads: t.threads, ranks: t.ranks }, timing }));
}
