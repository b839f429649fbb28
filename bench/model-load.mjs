// The lab worker's load work in Node, without a browser or a link: from GloVe's bytes in memory,
// the GloVe switch (lab.loadVectors, its per-dimension spread and PCA axes, as createLabSources
// warms them) and the three default models as the page loads each (lab.loadPretrained's expansion
// and lab.loadModel, heads first, then whole). REPS rounds in one process after one warm-up round,
// on dist/ and, with --baseline DIR, on another build's dist/ in the same process, the builds
// alternating round by round, so a loaded machine's drift falls on both alike. Each round reads
// its own copy of GloVe whose last vector value differs from the previous round's (a word no
// model has), so nothing a build keeps between loads of the same file carries over from the last
// round: each round is one first visit's work. --cold runs each round in a Node process of its own
// instead, with no warm-up: a first visit's work with its code and memory as cold as a new page's.
//   node bench/model-load.mjs [--reps N] [--baseline DIR] [--out FILE] [--cold]
// Prints per-build medians (ms) of each part and of the whole; --out writes them with every round.
import { readFile, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { comparisonOptions, median, roundInProcess } from './options.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const { reps: REPS, baseline: BASELINE, out: OUT, operands } = comparisonOptions(process.argv.slice(2), 7);
const COLD = operands.includes('--cold');
const DEFAULTS = ['additive', 'concatenated', 'rotary'];


// One build's lab, its GloVe bytes and its packed models, read once.
async function prepare(dist) {
  const url = pathToFileURL(dist.endsWith('/') ? dist : `${dist}/`);
  const { load } = await import(new URL('posenc.mjs', url));
  const { expandWeights, headsBytes, packedFile } = await import(new URL('packed-weights.mjs', url));
  const { vectorSetSource } = await import(new URL('pipeline/vocab.js', url));
  const lab = await load({ assetsUrl: url });
  await lab.loadModels();
  const glove = new Uint8Array(await readFile(new URL('glove-6b-100d-20k.i8', url)));
  const models = await Promise.all(DEFAULTS.map(async (name) => new Uint8Array(await readFile(new URL(`models/${packedFile(name)}`, url)))));
  return { dist, lab, glove, models, expandWeights, headsBytes, vectorSetSource };
}

// One round: the GloVe switch, then each model's heads and whole, as the page's worker does them.
function round({ lab, glove: file, models, expandWeights, headsBytes, vectorSetSource }, r) {
  const glove = new Uint8Array(file);
  glove[glove.length - 9] ^= r & 1;  // the last row's last value (the 8 bytes after it are two floats)
  const t0 = performance.now();
  const vectors = lab.loadVectors(glove);
  return vectors.then((set) => {
    const source = vectorSetSource(lab, set);
    source.vocabularySpread();
    source.warmUp();
    const t1 = performance.now();
    const loaded = [];
    for (const packed of models) {
      loaded.push(lab.loadModel(expandWeights(packed.subarray(0, headsBytes(packed)), { vectors: glove, headsOnly: true }), { vectors: glove }));
      loaded.push(lab.loadModel(expandWeights(packed, { vectors: glove }), { vectors: glove }));
    }
    const t2 = performance.now();
    for (const m of loaded) m.dispose();
    source.dispose();
    return { glove: t1 - t0, models: t2 - t1, total: t2 - t0 };
  });
}

if (operands[0] === '--child') {
  console.log(JSON.stringify(await round(await prepare(operands[1]), 0)));
  process.exit(0);
}
const builds = COLD ? [{ dist: join(ROOT, 'dist/') }] : [await prepare(join(ROOT, 'dist/'))];
if (BASELINE) builds.unshift(COLD ? { dist: BASELINE } : await prepare(BASELINE));
const rounds = builds.map(() => []);
for (let r = COLD ? 0 : -1; r < REPS; r++) {
  for (const [i, build] of builds.entries()) {
    const t = COLD ? await roundInProcess(import.meta.url, [build.dist]) : await round(build, r);
    if (r >= 0) rounds[i].push(t);  // round -1 warms each build up (compilation, first allocations)
  }
}
const result = {};
for (const [i, build] of builds.entries()) {
  const name = BASELINE && i === 0 ? 'baseline' : 'current';
  result[name] = { dist: build.dist, reps: REPS, cold: COLD, ...Object.fromEntries(['glove', 'models', 'total'].map((k) => [`${k}Ms`, median(rounds[i].map((x) => x[k]))])) };
  console.log(`model-load ${name}: GloVe switch ${result[name].gloveMs.toFixed(0)} ms, six model loads ${result[name].modelsMs.toFixed(0)} ms, ` +
    `whole ${result[name].totalMs.toFixed(0)} ms (median of ${REPS}${COLD ? ', each a fresh process' : ''})`);
}
if (BASELINE) console.log(`model-load: whole, current / baseline ${(result.current.totalMs / result.baseline.totalMs).toFixed(2)}`);
if (OUT) {
  await writeFile(OUT, `${JSON.stringify({ date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC', cpus: cpus().length,
    cpu: cpus()[0]?.model, node: process.version, result, rounds: Object.fromEntries(builds.map((b, i) => [BASELINE && i === 0 ? 'baseline' : 'current', rounds[i]])) }, null, 1)}\n`);
}
