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
  // The panels are drawn in a task after the view's: they sit below the lanes, and drawing all
  // three took about 27 ms of the first view's task on a 2-core EPYC (four times that at a phone's
  // 4× throttle). Figures a newer view brings before then replace the waiting ones.
  let due = null;
  function draw() {
    const { spread, distance, angles } = due;
    due = null;
    if (spread) spreadPanel.render(spread);
    if (distance) distancePanel.render(distance);
    if (angles) anglesPanel.render(angles);
  }

  function show({ spread, distance, angles, spreadLength }, state, n) {
    // A text without tokens leaves L as the last sentence set it.
    if (spreadLength > 0) {
      if (state.spreadLength === 0) setValue(ui.spreadLength, String(n));
      setText(ui.spreadLengthValue, `L = ${spreadLength}${state.spreadLength === 0 ? ' (the sentence)' : ''}`);
    }
    if (!spread && !distance && !angles) return;
    if (!due) setTimeout(draw, 0);
    due = { spread: spread ?? due?.spread, distance: distance ?? due?.distance, angles: angles ?? due?.angles };
  }

  return { show };
}
