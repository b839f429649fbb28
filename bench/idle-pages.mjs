// What memory costs the first time it is touched after the thread has been idle, in Node: the
// machine's own behaviour, which the page's keystrokes after a reader's pause meet (the lab
// worker's compute at 512 tokens touches some thousands of 4 KB pages of arrays it wrote at the
// last key). An array of ARRAY_MB written once, then for each idle time: sleep that long, then time
// one read of it (every float) and, after another such sleep, a read of one float per page (its
// cost is the pages', not the bytes'). Medians of REPS reads each; per page: the strided read's
// time over the array's pages. The same thread with no idle in between gives the warm cost.
//   node bench/idle-pages.mjs [--out FILE] [--reps N]
import { writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { median, optionReader } from './options.mjs';

const option = optionReader(process.argv.slice(2));
const OUT = option('--out', null);
const REPS = Number(option('--reps', '15'));
if (!Number.isInteger(REPS) || REPS < 3) throw new RangeError(`--reps: an integer ≥ 3, got ${REPS}`);
const ARRAY_MB = 1;
const PAGE_FLOATS = 4096 / 4;
const IDLE_MS = [0, 20, 100, 400];

const values = new Float32Array((ARRAY_MB << 20) / 4);
for (let i = 0; i < values.length; i++) values[i] = Math.random();
const pages = values.length / PAGE_FLOATS;
let sink = 0; // keeps the reads from being optimised away
const readAll = () => { let s = 0; for (let i = 0; i < values.length; i++) s += values[i]; sink += s; };
const readPages = () => { let s = 0; for (let i = 0; i < values.length; i += PAGE_FLOATS) s += values[i]; sink += s; };
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const timed = (read) => { const start = performance.now(); read(); return performance.now() - start; };

for (let k = 0; k < 20; k++) { readAll(); readPages(); } // compiled and warm before the first row
const rows = [];
for (const idleMs of IDLE_MS) {
  const all = [], strided = [];
  for (let k = 0; k < REPS; k++) {
    if (idleMs) await sleep(idleMs);
    all.push(timed(readAll));
    if (idleMs) await sleep(idleMs);
    strided.push(timed(readPages));
  }
  const row = { idleMs, readMs: +median(all).toFixed(4), pagesMs: +median(strided).toFixed(4), perPageUs: +((median(strided) * 1000) / pages).toFixed(3) };
  rows.push(row);
  console.log(`idle-pages: after ${idleMs} ms idle, ${ARRAY_MB} MB read ${row.readMs.toFixed(3)} ms, ` +
    `one float per page ${row.pagesMs.toFixed(3)} ms (${row.perPageUs.toFixed(2)} µs a page; median of ${REPS})`);
}
if (!(sink > 0)) throw new Error('idle-pages: the reads read nothing');
if (OUT) {
  await writeFile(OUT, `${JSON.stringify({ date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC', cpus: cpus().length,
    cpu: cpus()[0]?.model, node: process.version, loadAverage: +loadavg()[0].toFixed(2), arrayMb: ARRAY_MB, pages, reps: REPS, rows }, null, 1)}\n`);
}
