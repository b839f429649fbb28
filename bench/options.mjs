// What the Node bench scripts that compare two builds share: their command line, their median,
// and rounds run in a Node process of their own (a first visit: the modules keep one lab per
// folder with its caches, and a fresh process's code and memory are as cold as a new page's).
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/** A reader of `--name value` options that takes each out of args (so what is left are operands). */
export function optionReader(args) {
  return (name, fallback) => {
    const i = args.indexOf(name);
    return i >= 0 ? args.splice(i, 2)[1] : fallback;
  };
}

/**
 * The options of a script that runs this build's dist/ against another's: --reps N (default
 * `reps`; a RangeError naming it unless a positive integer), --baseline DIR, --out FILE.
 * → { reps, baseline, out, operands (what is left of argv) }.
 */
export function comparisonOptions(argv, reps) {
  const operands = [...argv];
  const option = optionReader(operands);
  const out = { reps: Number(option('--reps', String(reps))), baseline: option('--baseline', null), out: option('--out', null) };
  if (!Number.isInteger(out.reps) || out.reps < 1) throw new RangeError(`--reps: a positive integer, got ${out.reps}`);
  return { ...out, operands };
}

/** The median of numbers (the mean of the middle two for an even count). */
export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Runs `node script --child ...args` and parses the JSON line it prints (one round's numbers). */
export async function roundInProcess(scriptUrl, args) {
  const { stdout } = await promisify(execFile)(process.execPath, [fileURLToPath(scriptUrl), '--child', ...args.map(String)]);
  return JSON.parse(stdout);
}

/**
 * The rounds of two builds (or one) in turn, so that both see the same machine: reps rounds of
 * `node script --child DIST ...args` for each dist, alternating. → one array of rounds per dist.
 */
export async function alternatingRounds(scriptUrl, dists, args, reps) {
  const rounds = dists.map(() => []);
  for (let r = 0; r < reps; r++) {
    for (const [i, dist] of dists.entries()) rounds[i].push(await roundInProcess(scriptUrl, [dist, ...args]));
  }
  return rounds;
}

/** The builds a comparison runs: dist/ of the checkout at root, after --baseline's when given. → [{ name, dist }]. */
export function comparedBuilds(root, baseline) {
  const current = { name: 'current', dist: join(root, 'dist/') };
  return baseline ? [{ name: 'baseline', dist: baseline }, current] : [current];
}

/** In a round's own process (`--child` first among operands): prints round(...the rest)'s JSON line and exits. */
export async function answerAsChild(operands, round) {
  if (operands[0] !== '--child') return;
  console.log(JSON.stringify(await round(...operands.slice(1))));
  process.exit(0);
}
