// The bring-your-own-vectors parser's speed (web/formats/vector-text.js, as built in dist/): MB/s
// of CPU time over a synthetic GloVe-style text file fed in 64 KiB chunks, as the page's worker
// feeds a File.
// With --against, a second copy of the parser (another commit's vector-text.js, placed where its
// imports resolve) is timed in the same run, runs alternating, and the ratio of the medians is
// printed: a ratio, since the machine's other load moves both.
//   node bench/byo-parse.mjs [--words 20000] [--dim 300] [--repeats 7] [--against PATH] [--out OUT.json]
import fs from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: {
    words: { type: 'string', default: '20000' },
    dim: { type: 'string', default: '300' },
    repeats: { type: 'string', default: '7' },
    module: { type: 'string', default: 'dist/formats/vector-text.js' },
    against: { type: 'string' },
    out: { type: 'string' },
  },
});
const words = Number(args.words);
const dim = Number(args.dim);
const CHUNK = 1 << 16;

// GloVe's spelling: six decimals, a sign only when negative; words are distinct. A fixed LCG seed
// makes the file the same on every run.
function syntheticFile() {
  let seed = 12345;
  const next = () => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return seed / 2 ** 32; };
  const lines = [];
  for (let i = 0; i < words; i++) {
    const values = Array.from({ length: dim }, () => ((next() + next() + next() - 1.5) * 0.8).toFixed(6));
    lines.push(`w${i.toString(36)} ${values.join(' ')}`);
  }
  return new TextEncoder().encode(`${lines.join('\n')}\n`);
}

const file = syntheticFile();
const chunks = [];
for (let at = 0; at < file.length; at += CHUNK) chunks.push(file.subarray(at, at + CHUNK));

const load = async (path) => import(pathToFileURL(resolve(path)).href);
const parsers = { current: await load(args.module) };
if (args.against) parsers.against = await load(args.against);

// The process's CPU time rather than the clock, so other load on the machine moves it less.
function megabytesPerSecond(parser) {
  const started = process.cpuUsage();
  const { summary } = parser.parseTextVectors(chunks, { maxWords: words });
  const { user, system } = process.cpuUsage(started);
  const seconds = (user + system) / 1e6;
  if (summary.words !== words || summary.dim !== dim) throw new Error(`parsed ${summary.words} × ${summary.dim}, expected ${words} × ${dim}`);
  return file.length / 1e6 / seconds;
}

const runs = Object.fromEntries(Object.keys(parsers).map((name) => [name, []]));
for (let r = 0; r < Number(args.repeats) + 1; r++) {
  const order = Object.entries(parsers);
  if (r % 2) order.reverse(); // neither copy always runs first
  for (const [name, parser] of order) {
    const speed = megabytesPerSecond(parser);
    if (r > 0) runs[name].push(speed); // the first round warms the JIT up
  }
}
const median = (v) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
const result = { file: { words, dim, megabytes: file.length / 1e6, chunkBytes: CHUNK }, megabytesPerSecond: {}, runs };
for (const name of Object.keys(runs)) result.megabytesPerSecond[name] = median(runs[name]);
if (args.against) result.ratio = result.megabytesPerSecond.current / result.megabytesPerSecond.against;
if (args.out) fs.writeFileSync(args.out, `${JSON.stringify(result, null, 2)}\n`);

console.log(`\n| vector-file parser (${words} words × ${dim}, ${(file.length / 1e6).toFixed(1)} MB, Node) | MB/s | ratio to --against |\n|---|---:|---:|`);
for (const name of Object.keys(runs)) {
  const ratio = args.against ? (result.megabytesPerSecond[name] / result.megabytesPerSecond.against).toFixed(2) : '';
  console.log(`| ${name === 'current' ? args.module : args.against} | ${result.megabytesPerSecond[name].toFixed(1)} | ${ratio} |`);
}
