// Shift invariance: prepend k filler words; how much does attention among the original words move?
// One row per scheme asked for, one column per head type.
import { FAMILY } from '../scheme-table.mjs';
import { TableFigure } from '../figures/table-figure.js';
import { SCHEME_NAMES } from '../pipeline/schemes.js';

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
const positionSignal = (lab, scheme) => POSITION_SIGNAL[lab.schemeTable.schemes.find((s) => s.name === scheme)?.family] ?? '';

// At most about one 512-token scheme's attention (n² × heads) per compare, so that no single task
// holds a keystroke for long: short sentences do every scheme in one compare, long ones one each.
const CELLS_PER_COMPARE = 1 << 18;

export function fillerWords(k) {
  return Array.from({ length: k }, (_, i) => FILLERS[i % FILLERS.length]);
}

export function createShiftPanel(slot) {
  const table = new TableFigure(slot, { title: 'Shift invariance' });
  return {
    figure: table,
    /**
     * run(headCount, tokens, schemes) → a lab.compare result holding at least those schemes
     * (a caller whose run ignores `schemes` must return every scheme in `schemes`); headTypes:
     * [0, h]. Returns { [headCount]: { [scheme]: largest change } }. A generator that yields
     * after each compare, so a keystroke never waits for more than one.
     */
    * update({ lab, run, tokens, k, headTypes, schemes = CLASSIC }) {
      const n = tokens.length;
      const m = n + k;
      const shiftedTokens = [...fillerWords(k), ...tokens];
      const changes = {};
      for (const heads of headTypes) {
        const perCompare = Math.max(1, Math.floor(CELLS_PER_COMPARE / (m * m * Math.max(1, heads))));
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
      const headName = (h) => (h === 0 ? 'W = I' : `${h} random heads`);
      table.update({
        label: `Largest change of attention among the original ${n} words after prepending ${k} filler word${k === 1 ? '' : 's'}, per scheme`,
        columns: ['scheme', 'position signal', ...headTypes.map(headName)],
        rows: schemes.map((scheme) => [SCHEME_NAMES[scheme] ?? scheme, positionSignal(lab, scheme), ...headTypes.map((h) => changes[h][scheme])]),
        format: (cell, r, c) => (c < 2 ? cell : cell === 0 ? '0' : cell.toExponential(2)),
        note: `Filler words prepended: “${fillerWords(k).join(' ')}”. Attention weights run from 0 to 1, so 0.1 is a large change ` +
          'and 10⁻⁷ is float rounding. Random heads use fixed seeded projections (seed 1); with them ALiBi gives head h the ' +
          "h-th slope of that many heads and T5 draws one seeded bias table per head.",
      });
      return changes;
    },
  };
}
