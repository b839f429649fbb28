// <posenc-lab>'s figures by panel: the lane panels' slots (one per scheme, filled by the page's
// createLanes), and the one-figure panels' makers, each a panel module of the page's, the Train
// replay's, or the model's heads (the attention panel with model-src).
import { element } from '../figures/dom.js';
import { SCHEME_NAMES } from '../pipeline/schemes.js';
import { SEEDED_NOTE, isSeeded } from '../pipeline/shared-rules.js';
import { createPeFigure, createSpreadPanel } from '../panels/encoding.js';
import { createRetrievalPanel } from '../panels/retrieval.js';
import { createShiftPanel } from '../panels/shift.js';
import { createDistancePanel } from '../panels/distance.js';
import { createOrthogonalityPanel } from '../panels/orthogonality.js';
import { createAnglesPanel } from '../panels/angles.js';
import { createTrainLive } from './train-live.js';
import { createModelPanel } from './model-panel.js';

// The one-figure panels' makers, by panel name (the lane panels share createLanes); `attention`
// is one figure only when it shows a model (model-src).
const PANEL_FIGURES = {
  attention: createModelPanel,
  pe: createPeFigure,
  disturbance: createSpreadPanel,
  retrieval: createRetrievalPanel,
  shift: createShiftPanel,
  distance: createDistancePanel,
  orthogonality: createOrthogonalityPanel,
  angles: createAnglesPanel,
  train: createTrainLive,
};

/** The one-figure panel `name`'s figure in slot: { update?, render?, show?, figure }. */
export const panelFigure = (name, slot) => PANEL_FIGURES[name](slot);

/** A lane panel's figures: one per scheme, captioned, its slot named `<scheme>-<panel>`. */
export function laneFigures(panel, title, schemes) {
  const lanes = element('div', { class: 'pl-lanes' });
  for (const scheme of schemes) {
    const figure = element('figure', { class: 'pl-figure' });
    figure.setAttribute('aria-label', `${SCHEME_NAMES[scheme]} — ${title}`);
    const slot = element('div');
    slot.dataset.figure = `${scheme}-${panel}`;
    // Seeded stand-ins (the learned-style table, T5's bucket values) say so under each.
    const seeded = isSeeded(scheme) ? ` (${SEEDED_NOTE})` : '';
    figure.append(element('figcaption', { text: SCHEME_NAMES[scheme] + seeded }), slot);
    lanes.append(figure);
  }
  return lanes;
}
