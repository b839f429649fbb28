// What a fresh buffer costs against one written before, in Node on this machine: copying 3.6 MB
// (about one view's arrays at 512 tokens) with slice() (a new ArrayBuffer, its pages touched for
// the first time) and with set() into an array already written. web/pipeline/buffer-pool.js rests
// on the difference.
//   node bench/fresh-memory.mjs [--out FILE]   (median of 41 copies each, milliseconds)
import { writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';

const BYTES = 3.6e6;
const RUNS = 41;
const source = new Float32Array(BYTES / 4).map((_, i) => i);
const target = source.slice();
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const time = (copy) => median(Array.from({ length: RUNS }, () => {
  const start = performance.now();
  copy();
  return performance.now() - start;
}));
let keep = 0;
const fresh = time(() => { keep += source.slice()[12345]; });
const reused = time(() => { target.set(source); keep += target[12345]; });
const record = {
  at: new Date().toISOString(), cpu: cpus()[0]?.model, load: loadavg()[0], node: process.version, bytes: BYTES, runs: RUNS,
  freshMs: +fresh.toFixed(3), reusedMs: +reused.toFixed(3), ratio: +(fresh / reused).toFixed(1), checksum: keep > 0,
};
console.log(JSON.stringify(record));
const outIndex = process.argv.indexOf('--out');
if (outIndex > 0) await writeFile(process.argv[outIndex + 1], `${JSON.stringify(record, null, 1)}\n`);
