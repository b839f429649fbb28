// The lab worker's compute for one typed key, in Node: the worker's own session
// (pipeline/lab-session.js) on GloVe at n tokens, driven as the page drives it — the buffers of
// each view given back before the next key, the shown tables' keys sent — one character appended
// per key (bench/keystroke-text.mjs's), each rhythm from the sentence afresh at n tokens or as many
// fewer as keep its keys within the page's cut (as bench/keystroke.mjs starts). Two rhythms: keys
// typed straight on ("typing"), and each key after the analyses of the last one have run to their
// end ("paused": a reader's pause, as bench/keystroke.mjs types; the analyses leave the worker's
// caches cold for the next key). With --idle MS a third ("idle"): each key after the analyses and
// then MS of idle, as bench/keystroke.mjs types (it waits 400 ms after each key's analyses). Each
// round is a first visit in a Node process of its own; every number is a median of the keys of a
// round, then over the rounds. The browser's worker runs the same code (bench/keystroke.mjs --cpu
// measures it there, with the messages around it).
//   node bench/keystroke-compute.mjs [--reps N] [--baseline DIR] [--idle MS] [--out FILE] [n …]   (default 64 512)
// --baseline DIR: another build's dist/ (e.g. a copy of an earlier commit's), run round by round
// alternating with this one, so the two see the same machine; the ratio of their medians is
// printed. Each round also counts the memory a key typed straight on touches (pagesTouched: 4 KB
// pages of the whole process, median of PAGE_KEYS further keys, each after the kernel's referenced
// bits were cleared: Linux's /proc/self/clear_refs and smaps_rollup; null where they are not
// there): after an idle spell each of those pages costs again (bench/idle-pages.mjs). Those keys
// are not timed (clearing the bits empties the TLB).
import { readFileSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { alternatingRounds, answerAsChild, comparedBuilds, comparisonOptions, median, optionReader } from './options.mjs';
import { TYPED, sentence, startingTokens } from './keystroke-text.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const { reps: REPS, baseline: BASELINE, out: OUT, operands } = comparisonOptions(process.argv.slice(2), 5);
const IDLE_MS = Number(optionReader(operands)('--idle', '0'));
if (!(IDLE_MS >= 0)) throw new RangeError(`--idle: milliseconds ≥ 0, got ${IDLE_MS}`);
const SIZES = operands.length && operands[0] !== '--child' ? operands.map(Number) : [64, 512];
for (const n of SIZES) if (!Number.isInteger(n) || n < 1) throw new RangeError(`sizes: positive integers, got ${n}`);
const WARM_UP_KEYS = 20;
const KEYS = 40;
const PAGE_KEYS = 12;

// KB of this process's memory referenced since the bits were last cleared (Linux), or null.
function referencedKb() {
  try {
    return Number(/^Referenced:\s+(\d+) kB/m.exec(readFileSync('/proc/self/smaps_rollup', 'utf8'))[1]);
  } catch {
    return null;
  }
}
// → the 4 KB pages referenced while `run` runs, or null where the kernel does not say.
function pagesTouched(run) {
  try {
    writeFileSync('/proc/self/clear_refs', '1');
  } catch {
    run();
    return null;
  }
  const before = referencedKb();
  run();
  const after = referencedKb();
  return before === null || after === null ? null : (after - before) / 4;
}

// One round (run as `--child DIST n idleMs` in a process of its own): → { typing, pagesTouched,
// paused, idle? } (ms, medians of KEYS keys; pagesTouched of PAGE_KEYS keys, or null; idle only
// for idleMs > 0).
async function round(dist, n, idleMs) {
  const url = pathToFileURL(dist.endsWith('/') ? dist : `${dist}/`);
  const { load } = await import(new URL('posenc.mjs', url));
  const { createLabSources, createLabSession } = await import(new URL('pipeline/lab-session.js', url));
  const { DEFAULTS } = await import(new URL('pipeline/state.js', url));
  const { createBufferPool } = await import(new URL('pipeline/buffer-pool.js', url));
  const lab = await load({ assetsUrl: url });
  const buffers = createBufferPool();
  const session = createLabSession(lab, createLabSources(lab), { buffers });
  await session.loadGlove();
  let text = '';
  let shown = {};
  let last = null;
  let received = [];
  let typed = 0;
  // One key: the next character appended; → the compute's milliseconds. Its buffers move as
  // postMessage moves them (detached here, so the analyses cannot read what was sent), and come
  // back with the next key, as the page gives them.
  const key = () => {
    text += TYPED[typed++ % TYPED.length];
    const started = performance.now();
    if (last) {
      buffers.give(received);
      shown = { ...shown, ...last.view.shownKeys };
    }
    last = session.compute({ state: { ...DEFAULTS, vectors: 'glove', sentence: text }, trainedAvailable: false, trainedAsked: false, inputOnly: [], shown, summaries: false });
    received = structuredClone(last.transfer, { transfer: last.transfer });
    return performance.now() - started;
  };
  // Each rhythm types from the sentence afresh, after WARM_UP_KEYS unmeasured keys, starting at n
  // tokens or fewer, so that its last key still changes the tokens the page keeps (startingTokens:
  // past the page's cut a key changes nothing the lanes show).
  const restart = (keys) => {
    text = sentence(startingTokens(n, WARM_UP_KEYS + keys));
    typed = 0;
    for (let k = 0; k < WARM_UP_KEYS; k++) key();
  };
  restart(KEYS);
  const typing = Array.from({ length: KEYS }, key);
  restart(PAGE_KEYS);
  const pages = Array.from({ length: PAGE_KEYS }, () => pagesTouched(key));
  // KEYS keys, each after the analyses of the last have run to their end and then `idle` ms.
  const afterPauses = async (idle) => {
    restart(KEYS);
    const times = [];
    for (let k = 0; k < KEYS; k++) {
      for (const _ of session.analyses()) { /* every slice, as the pause lets them run */ }
      if (idle > 0) await new Promise((resolve) => setTimeout(resolve, idle));
      times.push(key());
    }
    return median(times);
  };
  const paused = await afterPauses(0);
  return { typing: median(typing), pagesTouched: pages.includes(null) ? null : median(pages), paused,
    ...(idleMs > 0 ? { idle: await afterPauses(idleMs) } : {}) };
}

await answerAsChild(operands, (dist, n, idleMs) => round(dist, Number(n), Number(idleMs)));
const builds = comparedBuilds(ROOT, BASELINE);
const result = {};
for (const n of SIZES) {
  const rounds = await alternatingRounds(import.meta.url, builds.map((b) => b.dist), [n, IDLE_MS], REPS);
  for (const [i, { name, dist }] of builds.entries()) {
    const row = { dist, n, reps: REPS, keys: KEYS, typingMs: median(rounds[i].map((x) => x.typing)),
      pagesTouched: rounds[i].some((x) => x.pagesTouched === null) ? null : median(rounds[i].map((x) => x.pagesTouched)),
      pausedMs: median(rounds[i].map((x) => x.paused)),
      ...(IDLE_MS > 0 ? { idleMs: IDLE_MS, pausedIdleMs: median(rounds[i].map((x) => x.idle)) } : {}), rounds: rounds[i] };
    (result[name] ??= []).push(row);
    console.log(`keystroke-compute ${name}, n = ${n}: ${row.typingMs.toFixed(2)} ms a key typing on, ${row.pausedMs.toFixed(2)} ms after ` +
      `a pause's analyses${IDLE_MS > 0 ? `, ${row.pausedIdleMs.toFixed(2)} ms after them and ${IDLE_MS} ms idle` : ''} ` +
      `(median of ${REPS} rounds of ${KEYS} keys)${row.pagesTouched === null ? '' : `; a key typing on touches ${row.pagesTouched} pages of 4 KB`}`);
  }
  if (BASELINE) {
    const [base, cur] = [result.baseline.at(-1), result.current.at(-1)];
    console.log(`keystroke-compute n = ${n}: current / baseline ${(cur.typingMs / base.typingMs).toFixed(2)} typing on, ` +
      `${(cur.pausedMs / base.pausedMs).toFixed(2)} after a pause` +
      `${cur.pagesTouched && base.pagesTouched ? `, ${(cur.pagesTouched / base.pagesTouched).toFixed(2)} in pages touched` : ''}` +
      `${IDLE_MS > 0 ? `, ${(cur.pausedIdleMs / base.pausedIdleMs).toFixed(2)} after a pause and ${IDLE_MS} ms idle` : ''}`);
  }
}
if (OUT) {
  await writeFile(OUT, `${JSON.stringify({ date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC', cpus: cpus().length,
    cpu: cpus()[0]?.model, node: process.version, result }, null, 1)}\n`);
}
