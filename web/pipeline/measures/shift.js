// Shift invariance's numbers: prepend k filler words; how much does attention among the original
// words move? One row per scheme asked for, one column per head type. Plain data out, so a worker
// can run it.
import { FAMILY, SCHEME_TABLE } from '../../scheme-table.mjs';
import { SCHEME_NAMES } from '../schemes.js';
import { schemesPerCompare } from '../slices.js';

const FILLERS = ['so', 'well', 'then', 'now', 'yes', 'and', 'but', 'oh'];
const CLASSIC = ['additive', 'concatenated', 'rotary'];

/** Where a scheme's position signal lives, by its family in the core's table (the second column). */
const POSITION_SIGNAL = {
  [FAMILY.absolute]: 'absolute, in x',
  [FAMILY.concatenated]: 'absolute, in x',
  [FAMILY.rotation]: 'relative, rotation',
  [FAMILY.logitBias]: 'relative, logit bias',
  [FAMILY.none]: 'none (mask only)',
};
const positionSignal = (scheme) => POSITION_SIGNAL[SCHEME_TABLE.schemes.find((s) => s.name === scheme)?.family] ?? '';

export function fillerWords(k) {
  return Array.from({ length: k }, (_, i) => FILLERS[i % FILLERS.length]);
}

/**
 * args: { run, tokens, k, headTypes, schemes }. run(headCount, tokens, schemes) → a lab.compare
 * result holding at least those schemes (a caller whose run ignores `schemes` must return every
 * scheme in `schemes`); headTypes: [0, h]. A generator that yields after each compare, so a
 * keystroke never waits for more than one.
 * → { n, k, headTypes, fillers: string[k], changes: { [headCount]: { [scheme]: largest change } },
 *     rows: [[scheme name, position signal, ...one change per head type]] }.
 */
export function* shiftMeasure(lab, { run, tokens, k, headTypes, schemes = CLASSIC }) {
  const n = tokens.length;
  const m = n + k;
  const fillers = fillerWords(k);
  const shiftedTokens = [...fillers, ...tokens];
  const changes = {};
  for (const heads of headTypes) {
    const perCompare = schemesPerCompare(m, heads);
    const perScheme = {};
    for (let from = 0; from < schemes.length; from += perCompare) {
      const chunk = schemes.slice(from, from + perCompare);
      const base = run(heads, tokens, chunk);
      yield;
      const shifted = run(heads, shiftedTokens, chunk);
      yield;
      for (const scheme of chunk) {
        let worst = 0;
        for (let h = 0; h < base.heads; h++) {
          const b = base[scheme].weights.subarray(h * n * n, (h + 1) * n * n);
          const s = shifted[scheme].weights.subarray(h * m * m, (h + 1) * m * m);
          worst = Math.max(worst, lab.shiftChange(b, s, n, k));
        }
        perScheme[scheme] = worst;
      }
    }
    changes[heads] = perScheme;
  }
  const rows = schemes.map((scheme) => [SCHEME_NAMES[scheme] ?? scheme, positionSignal(scheme), ...headTypes.map((h) => changes[h][scheme])]);
  return { n, k, headTypes, fillers, changes, rows };
}
