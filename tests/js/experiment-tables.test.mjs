// The experiment tables' definitions (scripts/experiment-tables.mjs): the add-versus-concatenate
// controls are the runs docs/EXPERIMENTS.md describes, each a valid model of the shipped word
// settings, and each reaches the native trainer as the flags that make it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CONTROLS, MULTIPLES, SCHEMES, SLIDING_STRIDE, TABLES, bookTrainerArgs, runNames, tableRuns, twinTrainerArgs } from '../../scripts/experiment-tables.mjs';
import { SHIPPED, trainerArgs } from '../../scripts/train-models.mjs';

const flag = (args, name) => (args.includes(name) ? args[args.lastIndexOf(name) + 1] : undefined);

test('the plain tables train every scheme and their variants; the controls table trains its controls only', () => {
  for (const table of ['book', 'copy', 'words', 'book-large', 'book-large-torch']) {
    assert.deepEqual(tableRuns(table).filter((r) => r.variant === 'none').map((r) => r.scheme), SCHEMES, table);
  }
  const runs = tableRuns('controls');
  assert.equal(runs.length, CONTROLS.length);
  assert.ok(runs.every((r) => r.variant !== 'none'));
  assert.deepEqual(runNames('controls'), CONTROLS.map((c) => c.name));
  // A name list picks runs by scheme or variant name; an unknown name picks nothing.
  assert.deepEqual(tableRuns('controls', ['dPos=8', 'rotary', 'nothing']).map((r) => r.variant), ['dPos=8']);
  assert.deepEqual(tableRuns('words', ['rotary', 't5max=128']).map((r) => `${r.scheme} ${r.variant}`), ['rotary none', 't5 t5max=128']);
  // Every table's check run exists.
  for (const [name, t] of Object.entries(TABLES)) assert.equal(tableRuns(name, [t.check]).length, 1, name);
});

test('the controls: dPos 8, 16, 50 beside the shipped 26, additive at concatenation\'s position energy, uncentred PCA, the widened split', () => {
  const byName = Object.fromEntries(CONTROLS.map((c) => [c.name, c]));
  assert.deepEqual(CONTROLS.filter((c) => 'dPos' in c.config && !('d' in c.config)).map((c) => c.config.dPos), [8, 16, 50]);
  assert.equal(SHIPPED.dPos, 26);
  // ‖PE‖² is the pair count: additive's d/2 pairs scaled by s² equal concatenated's dPos/2 (50 s² = 13).
  const { positionScale } = byName['PE energy of dPos=26'].config;
  assert.equal(byName['PE energy of dPos=26'].scheme, 'additive');
  assert.ok(Math.abs(positionScale ** 2 * (SHIPPED.d / 2) - SHIPPED.dPos / 2) < 1e-12, String(positionScale));
  assert.deepEqual(byName['uncentred PCA'], { name: 'uncentred PCA', scheme: 'concatenated', config: { wordPca: 'uncentred' } });
  // Widened: all of GloVe's columns beside dPos, at the shipped head count with an even head width.
  const wide = CONTROLS.find((c) => c.name.startsWith('widened'));
  assert.equal(wide.config.d - wide.config.dPos, SHIPPED.d);
  assert.equal(wide.config.d % SHIPPED.heads, 0);
  assert.equal((wide.config.d / SHIPPED.heads) % 2, 0);
  for (const c of CONTROLS) {
    const d = c.config.d ?? SHIPPED.d;
    if (c.scheme === 'concatenated') {
      const dPos = c.config.dPos ?? SHIPPED.dPos;
      assert.ok(dPos % 2 === 0 && dPos >= 2 && dPos <= d - 2, c.name);
    }
  }
});

test('a control reaches the trainer as its flags, and the shipped flags are unchanged without one', () => {
  const shipped = trainerArgs('concatenated', 'train.txt', 'out.safetensors', 800);
  assert.equal(flag(shipped, '--dpos'), '26');
  assert.equal(flag(shipped, '--d'), '100');
  assert.ok(!shipped.includes('--position-scale') && !shipped.includes('--word-pca'));
  // No flag appears twice: a control replaces the shipped value rather than following it.
  for (const run of tableRuns('controls')) {
    const args = trainerArgs(run.scheme, 'train.txt', 'out.safetensors', 800, { seed: 3, config: run.config });
    const flags = args.filter((a) => a.startsWith('--'));
    assert.equal(new Set(flags).size, flags.length, `${run.variant}: ${args.join(' ')}`);
    assert.equal(flag(args, '--seed'), '3');
    if ('dPos' in run.config) assert.equal(flag(args, '--dpos'), String(run.config.dPos));
    if ('d' in run.config) assert.equal(flag(args, '--d'), String(run.config.d));
    if ('positionScale' in run.config) assert.equal(Number(flag(args, '--position-scale')), run.config.positionScale);
    if ('wordPca' in run.config) assert.equal(flag(args, '--word-pca'), 'uncentred');
  }
  const t5 = trainerArgs('t5', 'train.txt', 'out.safetensors', 800, { config: { t5Buckets: 32, t5MaxDistance: 128 } });
  assert.equal(flag(t5, '--t5-buckets'), '32');
  assert.equal(flag(t5, '--t5-max-distance'), '128');
});

test('book-large: the larger book setting reaches the native trainer as its flags, on its thread count', () => {
  const t = TABLES['book-large'];
  assert.deepEqual(t.model, { layers: 4, d: 128, heads: 4, context: 64 });
  assert.ok(t.model.d / t.model.heads % 2 === 0 && t.dPos < t.model.d, 'rotary pairs and a word part for concatenated');
  for (const run of tableRuns('book-large')) {
    const args = bookTrainerArgs(t, run, 2, 'out.safetensors');
    const flags = args.filter((a) => a.startsWith('--'));
    assert.equal(new Set(flags).size, flags.length, args.join(' '));
    assert.equal(flag(args, '--task'), 'text');
    assert.equal(flag(args, '--scheme'), run.scheme);
    assert.equal(flag(args, '--threads'), String(t.threads));
    assert.equal(flag(args, '--seed'), '2');
    assert.equal(flag(args, '--data-seed'), '2');
    assert.equal(flag(args, '--steps'), String(t.steps));
    assert.equal(flag(args, '--dpos'), run.scheme === 'concatenated' ? String(t.dPos) : undefined);
    for (const [name, value] of [['--d', 128], ['--layers', 4], ['--heads', 4], ['--context', 64], ['--batch', 16], ['--lr', 0.002]]) {
      assert.equal(flag(args, name), String(value), name);
    }
  }
});

test('book-large-torch: the native table\'s model, steps, seeds and windows, on the twin at two ranks of one thread', () => {
  const [t, native] = [TABLES['book-large-torch'], TABLES['book-large']];
  assert.equal(t.engine, 'torch');
  assert.equal(t.twin, 'book-large');
  const { engine, threads, ranks, saveEvery, twin, ...same } = t;
  const { engine: e, threads: n, ...nativeSame } = native;
  assert.deepEqual(same, nativeSame);
  assert.deepEqual([ranks, threads], [2, 1]);
  assert.ok(saveEvery >= 1 && saveEvery < t.steps);
  for (const run of tableRuns('book-large-torch')) {
    const args = twinTrainerArgs(t, run, 3, 'out.safetensors', 'run.ckpt');
    const flags = args.filter((a) => a.startsWith('--'));
    assert.equal(new Set(flags).size, flags.length, args.join(' '));
    // The native run's flags but for the thread count: the same model, batches and steps.
    const nativeArgs = bookTrainerArgs(native, run, 3, 'out.safetensors');
    for (const name of nativeArgs.filter((a) => a.startsWith('--') && a !== '--threads')) assert.equal(flag(args, name), flag(nativeArgs, name), name);
    assert.equal(flag(args, '--threads'), '1');
    assert.equal(flag(args, '--nproc'), '2');
    assert.equal(flag(args, '--checkpoint'), 'run.ckpt');
    assert.equal(flag(args, '--save-every'), String(saveEvery));
    assert.equal(flag(args, '--resume'), undefined);
    assert.equal(flag(twinTrainerArgs(t, run, 3, 'out.safetensors', 'run.ckpt', { resume: true }), '--resume'), 'run.ckpt');
  }
});

test('book-large-torch-sliding: book-large-torch\'s models under the sliding protocol, at a stride that divides 8T − kT', () => {
  const [t, windows] = [TABLES['book-large-torch-sliding'], TABLES['book-large-torch']];
  assert.equal(t.models, 'book-large-torch');
  assert.deepEqual(t.sliding, { stride: SLIDING_STRIDE, windows: 'book-large-torch', ropeScalings: false });
  assert.equal(t.twin, undefined);
  // Everything that makes the models and the held-out targets is the windows table's.
  const { sliding, models, twin, ...rest } = t;
  const { twin: w, ...windowsRest } = windows;
  assert.deepEqual(rest, windowsRest);
  const T = t.model.context;
  for (const k of MULTIPLES) assert.equal((8 * T - k * T) % SLIDING_STRIDE, 0, `${k}×`);
  // Shorter than T, so the protocol differs from the windows one at every length below 8×.
  assert.ok(SLIDING_STRIDE >= 1 && SLIDING_STRIDE < T);
});

test('book-large-1thread: book-large\'s rotary runs on one thread, set beside the twin at one rank', () => {
  const [t, two] = [TABLES['book-large-1thread'], TABLES['book-large']];
  assert.deepEqual([t.floatOrderOf, t.engineOf, t.engine], ['book-large', 'book-large-torch-1rank', 'native']);
  assert.deepEqual(t.schemes, ['rotary']);
  const [run] = tableRuns('book-large-1thread');
  const args = bookTrainerArgs(t, run, 2, 'out.safetensors');
  const twoArgs = bookTrainerArgs(two, run, 2, 'out.safetensors');
  for (const name of twoArgs.filter((a) => a.startsWith('--') && a !== '--threads')) assert.equal(flag(args, name), flag(twoArgs, name), name);
  assert.deepEqual([flag(args, '--threads'), flag(twoArgs, '--threads')], ['1', '2']);
});

test('book-large-torch-1rank: the two-rank table\'s rotary runs at one rank of one thread', () => {
  const [t, two] = [TABLES['book-large-torch-1rank'], TABLES['book-large-torch']];
  assert.equal(t.floatOrderOf, 'book-large-torch');
  assert.deepEqual(t.schemes, ['rotary']);
  const [run] = tableRuns('book-large-torch-1rank');
  const args = twinTrainerArgs(t, run, 2, 'out.safetensors', 'run.ckpt');
  const twoArgs = twinTrainerArgs(two, run, 2, 'out.safetensors', 'run.ckpt');
  for (const name of twoArgs.filter((a) => a.startsWith('--') && a !== '--threads' && a !== '--nproc')) assert.equal(flag(args, name), flag(twoArgs, name), name);
  assert.deepEqual([flag(args, '--nproc'), flag(args, '--threads')], ['1', '1']);
});
