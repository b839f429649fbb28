// The page's panels that follow the settings rather than the words (per-dimension disturbance,
// score versus distance, rotation angles). The lab worker recomputes each only when what it reads
// changed (web/pipeline/lab-measures.js) and sends null otherwise, so most keystrokes leave them as
// they are.
import { setText, setValue } from '../figures/dom.js';

/**
 * ui: the page's controls (web/page/app.js); the three panels (web/panels/). Returns
 * { show(figures, state, n) }, figures: a view's { spread, distance, angles, spreadLength }.
 */
export function createSettingsFigures({ ui, spreadPanel, distancePanel, anglesPanel }) {
  function show({ spread, distance, angles, spreadLength }, state, n) {
    // A text without tokens leaves L as the last sentence set it.
    if (spreadLength > 0) {
      if (state.spreadLength === 0) setValue(ui.spreadLength, String(n));
      setText(ui.spreadLengthValue, `L = ${spreadLength}${state.spreadLength === 0 ? ' (the sentence)' : ''}`);
    }
    if (spread) spreadPanel.render(spread);
    if (distance) distancePanel.render(distance);
    if (angles) anglesPanel.render(angles);
  }

  return { show };
}
