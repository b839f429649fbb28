// The analyses after a typing pause, slice by slice, in Node: the lab worker's own session
// (pipeline/lab-session.js) on GloVe, a new text of N tokens from moby-dick.txt, and every
// analysis the page runs (retrieval, shift, orth, summaries), each slice timed from one yield to
// the next. The longest slice is how long a key pressed meanwhile can wait for the worker. Each
// round is a first visit: a Node process of its own (the module keeps one lab per folder, and the
// lab its caches: the random-pair spreads, GloVe's decoder and reduced vocabularies), with its
// code as cold as a new page's. The round then goes on as a reader does who types on: WARM_EDITS
// times, the last word changed and the analyses run again in the same session (`warm*`: the
// longest of those slices and their mean total), which is what a key pressed after a later pause
// waits for.
//   node bench/analysis-slices.mjs [--reps N] [--baseline DIR] [--out FILE] [n …]   (default 64 512)
// --baseline DIR: another build's dist/ (e.g. a copy of an earlier commit's), run round by round
// alternating with this one, so the two see the same machine; the ratio of their medians is
// printed. Every number is a median over the rounds.
import { readFile, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { alternatingRounds, answerAsChild, comparedBuilds, comparisonOptions, median } from './options.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const { reps: REPS, baseline: BASELINE, out: OUT, operands } = comparisonOptions(process.argv.slice(2), 5);
const SIZES = operands.length && operands[0] !== '--child' ? operands.map(Number) : [64, 512];
for (const n of SIZES) if (!Number.isInteger(n) || n < 1) throw new RangeError(`sizes: positive integers, got ${n}`);

const BOOK = await readFile(join(ROOT, 'data/moby-dick.txt'), 'utf8').catch(() => readFile(join(ROOT, 'dist/moby-dick.txt'), 'utf8'));
// n words of running text from the middle of the book (past its front matter), the last one
// replaced by `last` when given (a warm edit).
const WORDS = BOOK.slice(40000).split(/\s+/).filter(Boolean);
const textOf = (n, last = null) => [...WORDS.slice(0, last === null ? n : n - 1), ...(last === null ? [] : [last])].join(' ');
// The last words of the warm edits, one GloVe word each (the word they replace may carry punctuation,
// so a warm text can have a token fewer than the first).
const WARM_WORDS = ['sea', 'ship', 'whale', 'harbour'];
const WARM_EDITS = WARM_WORDS.length;

// One round (run as `--child DIST n` in a process of its own): → { longest, total, slices,
// warmLongest, warmTotal }.
async function round(dist, n) {
  const url = pathToFileURL(dist.endsWith('/') ? dist : `${dist}/`);
  const { load } = await import(new URL('posenc.mjs', url));
  const { createLabSources, createLabSession } = await import(new URL('pipeline/lab-session.js', url));
  const { DEFAULTS } = await import(new URL('pipeline/state.js', url));
  const lab = await load({ assetsUrl: url });
  const session = createLabSession(lab, createLabSources(lab));
  await session.loadGlove();
  // The analyses of `text`, timed slice by slice → [ms].
  const analysed = (text) => {
    session.compute({ state: { ...DEFAULTS, vectors: 'glove', sentence: text }, trainedAvailable: false, trainedAsked: false, inputOnly: [] });
    const slices = [];
    let t = performance.now();
    for (const _ of session.analyses()) {
      const now = performance.now();
      slices.push(now - t);
      t = now;
    }
    slices.push(performance.now() - t);
    return slices;
  };
  const sum = (xs) => xs.reduce((a, b) => a + b, 0);
  const slices = analysed(textOf(n));
  const warm = WARM_WORDS.map((word) => analysed(textOf(n, word)));
  return { longest: Math.max(...slices), total: sum(slices), slices: slices.length,
    warmLongest: Math.max(...warm.flat()), warmTotal: sum(warm.flat()) / WARM_EDITS };
}

await answerAsChild(operands, (dist, n) => round(dist, Number(n)));
const builds = comparedBuilds(ROOT, BASELINE);
const result = {};
for (const n of SIZES) {
  const rounds = await alternatingRounds(import.meta.url, builds.map((b) => b.dist), [n], REPS);
  for (const [i, { name, dist }] of builds.entries()) {
    const of = (field) => median(rounds[i].map((x) => x[field]));
    const row = { dist, n, reps: REPS, longestMs: of('longest'), totalMs: of('total'), slices: of('slices'),
      warmEdits: WARM_EDITS, warmLongestMs: of('warmLongest'), warmTotalMs: of('warmTotal'), rounds: rounds[i] };
    (result[name] ??= []).push(row);
    console.log(`analysis-slices ${name}, n = ${n}: longest slice ${row.longestMs.toFixed(1)} ms, all ${row.totalMs.toFixed(0)} ms ` +
      `in ${row.slices} slices; warm: longest slice ${row.warmLongestMs.toFixed(1)} ms, all ${row.warmTotalMs.toFixed(0)} ms (median of ${REPS})`);
  }
  if (BASELINE) {
    const [base, cur] = [result.baseline.at(-1), result.current.at(-1)];
    const ratio = (field) => (cur[field] / base[field]).toFixed(2);
    console.log(`analysis-slices n = ${n}, current / baseline: longest slice ${ratio('longestMs')}, all ${ratio('totalMs')}; ` +
      `warm: longest slice ${ratio('warmLongestMs')}, all ${ratio('warmTotalMs')}`);
  }
}
if (OUT) {
  await writeFile(OUT, `${JSON.stringify({ date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC', cpus: cpus().length,
    cpu: cpus()[0]?.model, node: process.version, result }, null, 1)}\n`);
}
