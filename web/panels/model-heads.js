// One loaded model's learned heads on a sentence, as a HeatmapFigure's spec: every layer's and
// head's attention map side by side on one colour scale (0 to 1), one tile per (layer, head), in
// layer-major order as the core returns them; the figure toolkit gives them their accessible name,
// readout and "Values as a table". The <posenc-lab> element's `model-src` shows it in its attention
// panel; the maps are the page's trained-lane maps (trained-lane.js' paintMap), all heads at once
// instead of a chosen one.
//
// Shapes: attention Float32Array(L·h·n·n), map (l, k) at offset (l·h + k)·n², row = query i,
// column = key j; pieces n strings (the model's vocabulary entries).
import { SCHEME_LABELS } from '../options.mjs';
import { tokenLabel } from './trained-lane.js';

// Characters a map's axis could not show: a newline, a space, a tab.
const VISIBLE = { '\n': '↵', ' ': '␣', '\t': '⇥' };
export const visibleToken = (piece) => VISIBLE[piece] ?? piece;

/**
 * The figure's spec for one model's heads. view: { attention, n, pieces, config: { scheme, layers,
 * heads, d, context }, name (what the model is called: its file name) }.
 */
export function modelHeadsSpec({ attention, n, pieces, config, name }) {
  const { scheme, layers, heads } = config;
  if (attention.length !== layers * heads * n * n) {
    throw new RangeError(`attention holds ${attention.length} weights, expected L·h·n·n = ${layers * heads * n * n}`);
  }
  const words = pieces.map(visibleToken);
  const tiles = [];
  for (let l = 0; l < layers; l++) {
    for (let k = 0; k < heads; k++) {
      tiles.push({ title: `layer ${l + 1}, head ${k + 1}`, values: attention, rows: n, cols: n, offset: (l * heads + k) * n * n });
    }
  }
  return {
    tiles,
    min: 0,
    max: 1,
    label: `Attention weights of the ${SCHEME_LABELS[scheme] ?? scheme} model ${name}: ${layers} layer${layers === 1 ? '' : 's'} × ` +
      `${heads} head${heads === 1 ? '' : 's'}, ${n} × ${n} tokens, rows are queries`,
    legendTitle: 'attention weight',
    rowWords: words,
    colWords: words,
    rowLabel: (i) => `query ${tokenLabel(words, i)}`,
    colLabel: (j) => `key ${tokenLabel(words, j)}`,
    note: (t, i, j) => (j > i ? ' (masked: a later token)' : ''),
  };
}
