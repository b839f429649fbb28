// Shift invariance: prepend k filler words; how much does attention among the original words move?
import { TableFigure } from '../figure.js';
import { SCHEMES, SCHEME_NAMES } from './lanes.js';

const FILLERS = ['so', 'well', 'then', 'now', 'yes', 'and', 'but', 'oh'];

export function fillerWords(k) {
  return Array.from({ length: k }, (_, i) => FILLERS[i % FILLERS.length]);
}

export function createShiftPanel(slot) {
  const table = new TableFigure(slot, { title: 'Shift invariance' });
  return {
    figure: table,
    /**
     * run(headCount, tokens) → lab.compare result for those tokens; headTypes: [0, h].
     * Returns { [headCount]: { additive, concatenated, rotary } } largest changes. A generator
     * that yields after each compare, so a keystroke never waits for more than one.
     */
    * update({ lab, run, tokens, k, headTypes }) {
      const n = tokens.length;
      const shiftedTokens = [...fillerWords(k), ...tokens];
      const changes = {};
      for (const heads of headTypes) {
        const base = run(heads, tokens);
        yield;
        const shifted = run(heads, shiftedTokens);
        yield;
        const perScheme = {};
        for (const scheme of SCHEMES) {
          let worst = 0;
          for (let h = 0; h < base.heads; h++) {
            const b = base[scheme].weights.subarray(h * n * n, (h + 1) * n * n);
            const m = n + k;
            const s = shifted[scheme].weights.subarray(h * m * m, (h + 1) * m * m);
            worst = Math.max(worst, lab.shiftChange(b, s, n, k));
          }
          perScheme[scheme] = worst;
        }
        changes[heads] = perScheme;
      }
      const headName = (h) => (h === 0 ? 'W = I' : `${h} random heads`);
      table.update({
        label: `Largest change of attention among the original ${n} words after prepending ${k} filler word${k === 1 ? '' : 's'}`,
        columns: ['scheme', ...headTypes.map(headName)],
        rows: SCHEMES.map((scheme) => [SCHEME_NAMES[scheme], ...headTypes.map((h) => changes[h][scheme])]),
        format: (cell, r, c) => (c === 0 ? cell : cell === 0 ? '0' : cell.toExponential(2)),
        note: `Filler words prepended: “${fillerWords(k).join(' ')}”. Attention weights run from 0 to 1, so 0.1 is a large change ` +
          'and 10⁻⁷ is float rounding. Random heads use fixed seeded projections (seed 1).',
      });
      return changes;
    },
  };
}
