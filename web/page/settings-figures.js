// The page's panels that follow the settings rather than the words (per-dimension disturbance,
// score versus distance, rotation angles): updated on every recompute, but each repaints only when
// what it reads changed, so most keystrokes leave them as they are.
import { schemeParams } from '../pipeline/pipeline.js';
import { setText, setValue } from '../figures/dom.js';

/**
 * ui: the page's controls (web/page/app.js); the three panels (web/panels/). Returns
 * { wordSpread(source), updateSpread(lab, state, source, settings, n) → the spread panel's
 * result, updateDistance(lab, state, settings) (the angles too) }.
 */
export function createSettingsFigures({ ui, spreadPanel, distancePanel, anglesPanel }) {
  const spreadCache = new WeakMap();
  let distanceKey = '';
  let anglesKey = '';
  let spreadKey = '';
  let lastSpread = null;

  function wordSpread(source) {
    if (!spreadCache.has(source)) spreadCache.set(source, source.vocabularySpread());
    return spreadCache.get(source);
  }

  function updateSpread(lab, state, source, settings, n) {
    const length = state.spreadLength || n;
    if (state.spreadLength === 0) setValue(ui.spreadLength, String(n));
    setText(ui.spreadLengthValue, `L = ${length}${state.spreadLength === 0 ? ' (the sentence)' : ''}`);
    // Computed once per source (GloVe's right after loading, before the page switches to it).
    const spread = wordSpread(source);
    // The picture depends on L, not on the words, so most keystrokes leave it as it is.
    const key = [source.kind, settings.d, settings.alpha, state.base, state.layout, length].join('/');
    if (key === spreadKey) return lastSpread;
    spreadKey = key;
    lastSpread = spreadPanel.update({ lab, d: settings.d, base: state.base, layout: state.layout, alpha: settings.alpha, wordSpread: spread, length });
  }

  // Score versus distance and the rotation angles depend on the settings, not on the words: most
  // keystrokes leave both as they are.
  function updateDistance(lab, state, settings) {
    updateAngles(lab, state, settings);
    // No schemes: the panel draws every scheme.
    const options = { dPos: settings.dPos, concat: state.concat, causal: state.causal, ...schemeParams(lab, settings) };
    const key = JSON.stringify([settings.d, state.base, state.maxDistance, state.schemes, options]);
    if (key === distanceKey) return;
    distanceKey = key;
    distancePanel.update({ lab, d: settings.d, base: state.base, maxDistance: state.maxDistance, lanes: state.schemes, options });
  }

  function updateAngles(lab, state, settings) {
    // RoPE rotates each head's d_head = d/h coordinates (d with W = I).
    const dHead = settings.heads ? settings.d / settings.heads : settings.d;
    const options = { lab, dHead, base: state.base, trainedLength: state.trainedLength, evalLength: state.evalLength,
      yarnAlpha: settings.yarnAlpha, yarnBeta: settings.yarnBeta };
    const key = JSON.stringify({ ...options, lab: 0 });
    if (key === anglesKey) return;
    anglesKey = key;
    anglesPanel.update(options);
  }

  return { wordSpread, updateSpread, updateDistance };
}
