// The PyTorch twin (python3 -m posenc_lab.train) beside the native trainer on one model: training
// tokens/s of the twin at 1 and 2 gloo ranks (one torch thread each, --nproc 2) and of
// posenc-train at 1 and 2 threads, alternating runs, the median of each, and the ratios measured
// in this run. Ratios, not targets: the machine's other load moves every number.
//   node bench/twin-ranks.mjs PYTHON TRAINER OUT.json [repeats]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const [python, trainer, out, repeats = '3'] = process.argv.slice(2);
// The same flags as bench/train-threads.mjs (the twin takes posenc-train's flags).
const args = ['--task', 'text', '--text', 'data/moby-dick.txt', '--scheme', 'rotary', '--d', '128', '--layers', '4', '--heads', '4',
  '--context', '64', '--batch', '16', '--steps', '20', '--log-every', '20', '--eval-batches', '1', '--lr', '3e-3'];
const env = { ...process.env, PYTHONPATH: path.resolve('python') };
delete env.WORLD_SIZE;
const runners = {
  'twin, 1 rank': () => execFileSync(python, ['-m', 'posenc_lab.train', ...args, '--threads', '1'], { encoding: 'utf8', env }),
  'twin, 2 ranks': () => execFileSync(python, ['-m', 'posenc_lab.train', ...args, '--threads', '1', '--nproc', '2'], { encoding: 'utf8', env }),
  'posenc-train, 1 thread': () => execFileSync(trainer, [...args, '--threads', '1'], { encoding: 'utf8' }),
  'posenc-train, 2 threads': () => execFileSync(trainer, [...args, '--threads', '2'], { encoding: 'utf8' }),
};
const runs = Object.fromEntries(Object.keys(runners).map((name) => [name, []]));
const losses = {};
for (let r = 0; r < Number(repeats); r++) {
  for (const [name, run] of Object.entries(runners)) {
    const log = run();
    runs[name].push(Number(/(\d+) tokens\/s/.exec(log.trim().split('\n').find((l) => /tokens\/s/.test(l)))[1]));
    losses[name] = Number(/final held-out loss (\S+)/.exec(log)[1]);
  }
}
const median = (v) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
const tokensPerSecond = Object.fromEntries(Object.entries(runs).map(([name, v]) => [name, median(v)]));
const base = tokensPerSecond['posenc-train, 1 thread'];
fs.writeFileSync(out, `${JSON.stringify({ config: args.join(' '), tokensPerSecond, runs, finalHeldOutLoss: losses }, null, 2)}\n`);
console.log('\n| trainer (T 64, d 128, L 4, B 16, 20 steps) | tokens/s | ratio to posenc-train, 1 thread |\n|---|---:|---:|');
for (const [name, value] of Object.entries(tokensPerSecond)) console.log(`| ${name} | ${value.toFixed(0)} | ${(value / base).toFixed(2)} |`);
console.log(`(final held-out losses after 20 steps: ${Object.entries(losses).map(([n, l]) => `${n} ${l.toFixed(4)}`).join('; ')})`);
