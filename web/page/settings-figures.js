// The page's panels that follow the settings rather than the words (per-dimension disturbance,
// score versus distance, rotation angles): updated on every recompute, but each repaints only when
// what it reads changed, so most keystrokes leave them as they are. Their inputs and numbers come
// from web/pipeline/measures/.
import { wordSpreadOf, spreadArgs } from '../pipeline/measures/spread.js';
import { distanceArgs } from '../pipeline/measures/distance.js';
import { anglesArgs } from '../pipeline/measures/angles.js';
import { setText, setValue } from '../figures/dom.js';

/**
 * ui: the page's controls (web/page/app.js); the three panels (web/panels/). Returns
 * { wordSpread(source), updateSpread(lab, state, source, settings, n) → the spread panel's
 * result, updateDistance(lab, state, settings) (the angles too) }.
 */
export function createSettingsFigures({ ui, spreadPanel, distancePanel, anglesPanel }) {
  let distanceKey = '';
  let anglesKey = '';
  let spreadKey = '';
  let lastSpread = null;

  function updateSpread(lab, state, source, settings, n) {
    const length = state.spreadLength || n;
    if (state.spreadLength === 0) setValue(ui.spreadLength, String(n));
    setText(ui.spreadLengthValue, `L = ${length}${state.spreadLength === 0 ? ' (the sentence)' : ''}`);
    // The word spread is computed once per source (GloVe's right after loading, before the page
    // switches to it).
    const args = spreadArgs(state, source, settings, n);
    // The picture depends on L, not on the words, so most keystrokes leave it as it is.
    const key = [source.kind, settings.d, settings.alpha, state.base, state.layout, length].join('/');
    if (key === spreadKey) return lastSpread;
    spreadKey = key;
    lastSpread = spreadPanel.update({ lab, ...args });
  }

  // Score versus distance and the rotation angles depend on the settings, not on the words: most
  // keystrokes leave both as they are.
  function updateDistance(lab, state, settings) {
    updateAngles(lab, state, settings);
    const args = distanceArgs(lab, state, settings);
    const key = JSON.stringify([args.d, args.base, args.maxDistance, args.lanes, args.options]);
    if (key === distanceKey) return;
    distanceKey = key;
    distancePanel.update({ lab, ...args });
  }

  function updateAngles(lab, state, settings) {
    const args = anglesArgs(state, settings);
    const key = JSON.stringify(args);
    if (key === anglesKey) return;
    anglesKey = key;
    anglesPanel.update({ lab, ...args });
  }

  return { wordSpread: wordSpreadOf, updateSpread, updateDistance };
}
