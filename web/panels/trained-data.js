// The trained lanes' numbers, without the DOM: which models the Heads control offers. The page's
// tokens as a model's ids and the head to show are web/pipeline/model-ids.js' (the lab worker
// needs them too).

const plural = (count, word) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** The Heads control's text for the shipped models, "trained (2 layers × 5 heads)"; null when none ship. */
export function trainedHeadsLabel(pretrained) {
  if (!pretrained?.length) return null;
  const shapes = new Set(pretrained.map(({ config }) => `${plural(config.layers, 'layer')} × ${plural(config.heads, 'head')}`));
  // The models share one shape by design; if they ever do not, say so rather than pick one.
  return `trained (${shapes.size === 1 ? [...shapes][0] : 'layers × heads vary by model'})`;
}
