// The three lanes — Additive | Concatenated | Rotary — each with its encoded input, its attention
// map and its logit decomposition. One shared colour scale per lane's decomposition, so the
// terms can be compared with each other.
import { HeatmapFigure } from '../figure.js';
import { maxAbs } from '../math.js';

export const SCHEMES = ['additive', 'concatenated', 'rotary'];
export const SCHEME_NAMES = { additive: 'Additive', concatenated: 'Concatenated', rotary: 'Rotary' };
const TERM_NAMES = ['content · content', 'content · position', 'position · content', 'position · position'];

// Figures are made for the slots `root` holds (`[data-figure="<scheme>-<part>"]`): the page has
// all nine; an embedded <posenc-lab> only the schemes and parts it shows. `lanes` exposes them.
export function createLanes(root, { onPickToken, schemes = SCHEMES }) {
  const lanes = {};
  for (const scheme of schemes) {
    const figure = (part, options) => {
      const slot = root.querySelector(`[data-figure="${scheme}-${part}"]`);
      return slot ? new HeatmapFigure(slot, options) : null;
    };
    const pick = (row) => onPickToken(row);
    lanes[scheme] = {
      input: figure('input', { title: `${SCHEME_NAMES[scheme]} encoded input`, palette: 'diverging', tokenRows: true, onPick: pick }),
      attention: figure('attention', { title: `${SCHEME_NAMES[scheme]} attention`, palette: 'viridis', tokenRows: true, tokenCols: true, onPick: pick }),
      terms: figure('terms', { title: `${SCHEME_NAMES[scheme]} logit decomposition`, palette: 'diverging', tokenRows: true, tokenCols: true, onPick: pick }),
    };
  }

  return {
    lanes,

    /** view: { result (lab.compare), tokens, heads, causal, dWord } */
    update({ result, tokens, heads, causal, dWord }) {
      const { n } = result;
      const tokenLabel = (i) => `“${tokens[i]}” (${i})`;
      const query = (i) => `query ${tokenLabel(i)}`;
      const key = (j) => `key ${tokenLabel(j)}`;
      const headText = heads === 0 ? 'W = I' : `head 1 of ${heads} random heads`;
      for (const scheme of Object.keys(lanes)) {
        const data = result[scheme];
        const name = SCHEME_NAMES[scheme];
        const width = data.width;
        const inputRange = maxAbs(data.x) || 1;
        const dimLabel = scheme === 'concatenated'
          ? (j) => `dim ${j} (${j < dWord ? 'word part' : 'position part'})`
          : (j) => `dim ${j}`;
        lanes[scheme].input?.update({
          tiles: [{ values: data.x, rows: n, cols: width }],
          min: -inputRange,
          max: inputRange,
          label: `${name} encoded input x: ${n} tokens × ${width} dimensions`,
          legendTitle: 'component value',
          rowLabel: tokenLabel,
          colLabel: dimLabel,
        });
        lanes[scheme].attention?.update({
          tiles: [{ values: data.weights, rows: n, cols: n }],
          min: 0,
          max: 1,
          label: `${name} attention weights (${headText}), ${n} × ${n} tokens, rows are queries`,
          legendTitle: 'attention weight',
          rowLabel: query,
          colLabel: key,
          note: (t, i, j) => (causal && j > i ? ' (masked: a later word)' : ''),
        });
        const termCount = scheme === 'rotary' ? 1 : 4;
        const termRange = maxAbs(data.terms, 0, termCount * n * n) || 1;
        lanes[scheme].terms?.update({
          tiles: Array.from({ length: termCount }, (_, t) => ({
            // Say so when a term is identically zero (concatenated cross terms with W = I).
            title: (scheme === 'rotary' ? 'rotated content · content' : TERM_NAMES[t]) +
              (maxAbs(data.terms, t * n * n, (t + 1) * n * n) === 0 ? ' — exactly 0' : ''),
            values: data.terms,
            offset: t * n * n,
            rows: n,
            cols: n,
          })),
          min: -termRange,
          max: termRange,
          label: `${name} logit decomposition (${headText}, scaled by 1/√d_head, before any mask)`,
          legendTitle: 'logit term (shared scale)',
          rowLabel: query,
          colLabel: key,
        });
      }
    },

    select(index) {
      for (const parts of Object.values(lanes)) for (const figure of Object.values(parts)) figure?.setSelectedToken(index);
    },
  };
}
