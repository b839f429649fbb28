// The Train section: tiny Transformers identical but for their positional scheme, trained live in
// one worker each (web/train/worker.js), with the loss chart, the length-generalisation chart, the
// learned attention with its per-token loss, samples, weights download/load and a sentence
// computed from the run. Settings live in the URL hash (web/train/config.js).
//
// The parts: the controls and their layout (controls.js), the state (session.js), the runs and
// their workers (runs.js), the CPU share (frames.js), the listeners (wiring.js), and painting
// (paint.js, over figures.js' one render function per figure). The page mounts the section
// (web/page/app.js); importing this module does nothing by itself.
import { createControls, layoutTrain } from './controls.js';
import { createTrainFigures } from './figures.js';
import { reducedMotion, repaintAll } from './paint.js';
import { createSession, writeControls } from './session.js';
import { wireButtons, wireInspection, wireSettings, wireWeights } from './wiring.js';

// The first screen's link scrolls here without touching the hash (the lanes read it).
function wireTrainLinks() {
  for (const link of document.querySelectorAll('a[href="#train"]')) {
    link.addEventListener('click', (event) => {
      event.preventDefault();
      const heading = document.getElementById('train-heading');
      heading.setAttribute('tabindex', '-1');
      heading.scrollIntoView({ behavior: reducedMotion.matches ? 'auto' : 'smooth' });
      heading.focus({ preventScroll: true });
    });
  }
}

/** Builds the Train section into `root` (emptied first) and starts listening; the runs start on Train or Step. */
export function mountTrain(root) {
  const controls = createControls();
  layoutTrain(root, controls);
  const { status, samples, inspectNote, layer, head, sentence, xAxis, lossSlot, lengthSlot, positionSlot, attentionSlot, stripSlot } = controls;
  const figures = createTrainFigures({
    status, samples, inspectNote, layer, head, sentence, xAxis, lossSlot, lengthSlot, positionSlot, attentionSlot, stripSlot,
  });
  const session = createSession(root, controls, figures);
  wireSettings(session);
  wireButtons(session);
  wireInspection(session);
  wireWeights(session);
  wireTrainLinks();
  reducedMotion.addEventListener('change', () => repaintAll(session));
  writeControls(session);
  repaintAll(session);
}
