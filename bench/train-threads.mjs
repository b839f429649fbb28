// The native trainer's batch split over threads (posenc-train --threads, Transformer::set_parallel):
// training tokens/s at 1 and 2 threads on one model, alternating runs, the median of each, and
// their ratio measured in this run. A ratio, not a target: the machine's other load moves both.
//   node bench/train-threads.mjs TRAINER OUT.json [repeats]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

const [trainer, out, repeats = '3'] = process.argv.slice(2);
// The larger book configuration (T 64, d 128, L 4) at batch 16: big enough per step that
// two threads have work to share.
const args = ['--task', 'text', '--text', 'data/moby-dick.txt', '--scheme', 'rotary', '--d', '128', '--layers', '4', '--heads', '4',
  '--context', '64', '--batch', '16', '--steps', '20', '--log-every', '20', '--eval-batches', '1', '--lr', '3e-3'];
const runs = { 1: [], 2: [] };
let losses = {};
for (let r = 0; r < Number(repeats); r++) {
  for (const threads of [1, 2]) {
    const log = execFileSync(trainer, [...args, '--threads', String(threads)], { encoding: 'utf8' });
    runs[threads].push(Number(/(\d+) tokens\/s/.exec(log.trim().split('\n').find((l) => /tokens\/s/.test(l)))[1]));
    losses[threads] = Number(/final held-out loss (\S+)/.exec(log)[1]);
  }
}
const median = (v) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
const result = { config: args.join(' '), tokensPerSecond: { 1: median(runs[1]), 2: median(runs[2]) }, runs, finalHeldOutLoss: losses };
result.speedup = result.tokensPerSecond[2] / result.tokensPerSecond[1];
fs.writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
console.log('\n| native trainer (posenc-train, T 64, d 128, L 4, B 16) | tokens/s | ratio to 1 thread |\n|---|---:|---:|');
for (const t of [1, 2]) console.log(`| ${t} thread${t === 1 ? '' : 's'} | ${result.tokensPerSecond[t].toFixed(0)} | ${(result.tokensPerSecond[t] / result.tokensPerSecond[1]).toFixed(2)} |`);
console.log(`(final held-out loss after 20 steps: ${losses[1]} at 1 thread, ${losses[2]} at 2: the same up to float rounding)`);
