// The trained heads' passes as a reader types, in Node: the three default models, loaded as the
// lab worker loads them (packed, with GloVe's rows; bench/model-load.mjs), each inspecting one map
// per call as a keystroke's trained passes do (web/pipeline/model-host.js). A round pastes a
// sentence of FROM tokens (one pass each from nothing) and then adds one token per call up to TO,
// each call reusing the rows before it (model/inspect.hpp). Every map is written into one
// preallocated array, as the worker writes onto buffers the page gives back, so no fresh page of
// the caller's is timed. Each round is a Node process of its own (a first visit).
//   node bench/trained-typing.mjs [--reps N] [--baseline DIR] [--out FILE] [FROM TO]   (default 462 512)
// Per round: pasteMs (the three passes on the pasted sentence), firstMs (the first token added),
// medianMs and maxMs (over every token added), and changedMs: after each token added, its word
// changed and changed back (a letter typed inside the last word: no new row to score), the median
// of those calls; printed as medians over the rounds. --baseline DIR: another build's dist/, its
// rounds alternating with this one's.
import { readFile, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { alternatingRounds, answerAsChild, comparedBuilds, comparisonOptions, median } from './options.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DEFAULTS = ['additive', 'concatenated', 'rotary'];
const { reps: REPS, baseline: BASELINE, out: OUT, operands } = comparisonOptions(process.argv.slice(2), 5);
const [FROM, TO] = operands.length && operands[0] !== '--child' ? operands.map(Number) : [462, 512];
if (!(Number.isInteger(FROM) && Number.isInteger(TO) && FROM >= 2 && TO > FROM)) {
  throw new RangeError(`FROM TO: integers with 2 ≤ FROM < TO, got ${FROM} ${TO}`);
}

// One round (run as `--child DIST FROM TO`): → { pasteMs, firstMs, medianMs, maxMs, changedMs }.
async function round(dist, from, to) {
  const url = pathToFileURL(dist.endsWith('/') ? dist : `${dist}/`);
  const { load } = await import(new URL('posenc.mjs', url));
  const { expandWeights, packedFile } = await import(new URL('packed-weights.mjs', url));
  const lab = await load({ assetsUrl: url });
  await lab.loadModels();
  const glove = new Uint8Array(await readFile(new URL('glove-6b-100d-20k.i8', url)));
  const models = await Promise.all(DEFAULTS.map(async (name) => {
    const packed = new Uint8Array(await readFile(new URL(`models/${packedFile(name)}`, url)));
    return lab.loadModel(expandWeights(packed, { vectors: glove }), { vectors: glove });
  }));
  const vocab = Math.min(...models.map((m) => m.config.vocab));
  const ids = Int32Array.from({ length: to }, (_, i) => (i * 37 + 5) % vocab);
  const maps = new ArrayBuffer(4 * to * to);
  const pass = (n) => {
    const started = performance.now();
    for (const m of models) m.inspect(ids.subarray(0, n), n, { layer: 0, head: 0, into: new Float32Array(maps, 0, n * n) });
    return performance.now() - started;
  };
  const pasteMs = pass(from);
  const added = [];
  const changed = [];
  for (let n = from + 1; n <= to; n++) {
    added.push(pass(n));
    const word = ids[n - 1];
    for (const id of [(word + 1) % vocab, word]) {
      ids[n - 1] = id;
      changed.push(pass(n));
    }
  }
  return { pasteMs, firstMs: added[0], medianMs: median(added), maxMs: Math.max(...added), changedMs: median(changed) };
}

await answerAsChild(operands, (dist, from, to) => round(dist, Number(from), Number(to)));
const builds = comparedBuilds(ROOT, BASELINE);
const rounds = await alternatingRounds(import.meta.url, builds.map((b) => b.dist), [FROM, TO], REPS);
const result = {};
for (const [i, { name, dist }] of builds.entries()) {
  const of = (key) => median(rounds[i].map((r) => r[key]));
  const row = { dist, from: FROM, to: TO, reps: REPS, pasteMs: of('pasteMs'), firstMs: of('firstMs'), medianMs: of('medianMs'), maxMs: of('maxMs'),
    changedMs: of('changedMs'), rounds: rounds[i] };
  result[name] = row;
  console.log(`trained-typing ${name}, ${FROM} → ${TO} tokens, three models: paste ${row.pasteMs.toFixed(1)} ms, first token added ` +
    `${row.firstMs.toFixed(1)} ms, each token added ${row.medianMs.toFixed(2)} ms (median), ${row.maxMs.toFixed(1)} ms at most, ` +
    `the last word changed ${row.changedMs.toFixed(2)} ms (median) (median of ${REPS} rounds)`);
}
if (OUT) {
  await writeFile(OUT, `${JSON.stringify({ date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC', cpus: cpus().length,
    cpu: cpus()[0]?.model, node: process.version, result }, null, 1)}\n`);
}
