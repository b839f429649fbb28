// What an array remade on every keystroke costs on a fresh buffer, against one copied into a kept
// buffer, and what a kept buffer's trip back to the worker costs: the numbers behind
// web/buffer-room.mjs's rule and the lab worker's pool (web/pipeline/buffer-pool.js).
//   node bench/fresh-buffers.mjs [--reps N] [--out FILE]
// In headless Chromium (the page's thread and a dedicated worker) and in Node, for Float32Arrays
// of one page to 1 MB: µs per fresh copy (`array.slice()`, seven arrays alive at a time, as a view
// of three lanes sends), per copy into an array kept from before (`set`), and, in Chromium, per
// ArrayBuffer sent to a worker and back in a message's transfer list, beyond the same messages
// without it. Each number is the median over --reps rounds (default 5) of the mean of a round's
// calls. Wall time (performance.now()), so run it on a quiet machine.
import { writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { launchChromium } from '../tests/e2e/browser.mjs';
import { median, optionReader } from './options.mjs';

const args = process.argv.slice(2);
const option = optionReader(args);
const REPS = Number(option('--reps', '5'));
const OUT = option('--out', null);
if (!Number.isInteger(REPS) || REPS < 1) throw new RangeError(`--reps: a positive integer, got ${REPS}`);
const FLOATS = [256, 1024, 6500, 16_384, 262_144]; // 1 KB, 4 KB (a page), 26 KB (64 tokens' x), 64 KB, 1 MB (512 tokens' weights)

// One round of the copies, in whatever realm runs it (its text is evaluated there): → { [floats]: { fresh, kept } } µs.
function copyRound(sizes) {
  const out = {};
  for (const n of sizes) {
    const source = new Float32Array(n).fill(1.5);
    const alive = [];
    const calls = Math.max(20, Math.round(2e6 / n));
    const time = (make) => {
      for (let i = 0; i < 10; i++) make(i);
      const start = performance.now();
      for (let i = 0; i < calls; i++) make(i);
      return ((performance.now() - start) / calls) * 1000;
    };
    const fresh = time(() => { alive.push(source.slice()); if (alive.length > 7) alive.shift(); });
    const kept = Array.from({ length: 7 }, () => new Float32Array(n));
    const into = time((i) => { kept[i % 7].set(source); });
    out[n] = { fresh, kept: into };
  }
  return out;
}

// In the page: messages to a worker that sends each straight back, with `count` buffers of
// `floats` in the transfer list or none. → µs per buffer beyond the bare message.
function transferRound(floats, count) {
  const echo = 'onmessage = (e) => postMessage(e.data, e.data.buffers);';
  const worker = new Worker(URL.createObjectURL(new Blob([echo], { type: 'text/javascript' })));
  const trips = 200;
  const run = (withBuffers) => new Promise((resolve) => {
    let buffers = withBuffers ? Array.from({ length: count }, () => new ArrayBuffer(floats * 4)) : [];
    let left = trips + 20;
    let start = 0;
    worker.onmessage = (e) => {
      buffers = e.data.buffers;
      if (left === trips) start = performance.now();
      if (left-- === 0) { resolve(((performance.now() - start) / trips) * 1000); return; }
      worker.postMessage({ buffers }, buffers);
    };
    worker.postMessage({ buffers }, buffers);
  });
  return run(false).then((bare) => run(true).then((carried) => {
    worker.terminate();
    return (carried - bare) / count;
  }));
}

const inWorker = (page, sizes) => page.evaluate(`new Promise((resolve) => {
  const source = 'onmessage = (e) => postMessage((' + ${JSON.stringify(copyRound.toString())} + ')(e.data));';
  const worker = new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })));
  worker.onmessage = (e) => { worker.terminate(); resolve(e.data); };
  worker.postMessage(${JSON.stringify(sizes)});
})`);

const browser = await launchChromium();
const rounds = { chromiumPage: [], chromiumWorker: [], node: [], transfer: [] };
try {
  const page = await (await browser.newContext()).newPage();
  await page.goto('about:blank');
  for (let r = 0; r < REPS; r++) {
    rounds.chromiumPage.push(await page.evaluate(`(${copyRound.toString()})(${JSON.stringify(FLOATS)})`));
    rounds.chromiumWorker.push(await inWorker(page, FLOATS));
    rounds.node.push(copyRound(FLOATS));
    const trip = {};
    for (const n of [256, 1024, 6500, 262_144]) trip[n] = await page.evaluate(`(${transferRound.toString()})(${n}, 7)`);
    rounds.transfer.push(trip);
  }
} finally {
  await browser.close();
}

const medianOf = (list, n, key) => median(list.map((round) => (key ? round[n][key] : round[n])));
const results = [];
for (const n of FLOATS) {
  const row = { floats: n, bytes: n * 4 };
  for (const realm of ['chromiumPage', 'chromiumWorker', 'node']) {
    row[realm] = { freshUs: medianOf(rounds[realm], n, 'fresh'), keptUs: medianOf(rounds[realm], n, 'kept') };
  }
  if (rounds.transfer[0][n] !== undefined) row.transferRoundTripUs = medianOf(rounds.transfer, n);
  results.push(row);
  console.log(JSON.stringify(row));
}
if (OUT) {
  const runtime = { cpu: cpus()[0]?.model, cores: cpus().length, loadavg: loadavg(), date: new Date().toISOString(), reps: REPS };
  await writeFile(OUT, `${JSON.stringify({ runtime, results }, null, 1)}\n`);
}
