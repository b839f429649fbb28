// What the Node bench scripts that compare two builds share: their command line and their median.

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
