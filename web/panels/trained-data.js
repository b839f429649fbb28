// The trained lanes' numbers, without the DOM: which models the Heads control offers, and a shown
// map completed by a pass's rows. The page's tokens as a model's ids and the head to show are
// web/pipeline/model-ids.js' (the lab worker needs them too).

const plural = (count, word) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** The Heads control's text for the shipped models, "trained (2 layers × 5 heads)"; null when none ship. */
export function trainedHeadsLabel(pretrained) {
  if (!pretrained?.length) return null;
  const shapes = new Set(pretrained.map(({ config }) => `${plural(config.layers, 'layer')} × ${plural(config.heads, 'head')}`));
  // The models share one shape by design; if they ever do not, say so rather than pick one.
  return `trained (${shapes.size === 1 ? [...shapes][0] : 'layers × heads vary by model'})`;
}

/**
 * A causal map of n ids from the m × m map `shown` of ids that share their first `fromRow` with
 * them (fromRow ≤ min(m, n)) and `rows`, the new map's rows fromRow … n − 1 ((n − fromRow)·n
 * floats). Row i of a causal map reads ids 0 … i alone and is 0 past column i, so the rows before
 * fromRow are shown's, at the new row length. Written over shown's buffer where it holds n² floats
 * from its start (each row moved once, the last first when rows lengthen, so no row is written
 * over before it has moved), else onto a fresh array. → Float32Array(n·n).
 */
export function completedRows(shown, m, n, fromRow, rows) {
  const inPlace = shown.byteOffset === 0 && shown.buffer.byteLength >= 4 * n * n;
  const out = inPlace ? new Float32Array(shown.buffer, 0, n * n) : new Float32Array(n * n);
  const whole = inPlace ? new Float32Array(shown.buffer) : null; // shown's rows and out's, one index
  const move = (i) => {
    if (whole) whole.copyWithin(i * n, i * m, i * m + i + 1);
    else out.set(shown.subarray(i * m, i * m + i + 1), i * n);
    out.fill(0, i * n + i + 1, (i + 1) * n);
  };
  if (!inPlace || n < m) for (let i = 0; i < fromRow; i++) move(i);
  else if (n > m) for (let i = fromRow - 1; i >= 0; i--) move(i);
  out.set(rows, fromRow * n);
  return out;
}
