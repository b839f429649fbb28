// The Settings box's controls as the state says: the scheme picker's boxes (one per scheme, in the
// table's order, labelled as the lanes are), every number input's range, and each control's value
// written from a state (the link's). The page (app.js) says what a change of each one does.
import { INPUT_RANGES, SCHEME_IDS } from '../pipeline/state.js';
import { SCHEME_NAMES } from '../pipeline/schemes.js';
import { fillEnumSelects } from './enum-selects.js';

/** The scheme picker's boxes, into `container` (empty until then). */
export function buildSchemeBoxes(container) {
  container.replaceChildren(...SCHEME_IDS.map((id) => {
    const label = document.createElement('label');
    const box = document.createElement('input');
    Object.assign(box, { type: 'checkbox', name: 'scheme', value: id });
    label.append(box, ` ${SCHEME_NAMES[id]}`);
    return label;
  }));
}

/**
 * min, max and step of d, d_p, k, K and every scheme-parameter input (the lanes' templates' too)
 * from INPUT_RANGES; the enum selects' options from the core's names.
 */
export function applyInputRanges(ui) {
  fillEnumSelects({ concat: ui.concat, layout: ui.layout, pairing: ui.pairing });
  const params = [document, document.getElementById('lane-texts').content].flatMap((root) => [...root.querySelectorAll('[data-param]')]);
  const inputs = [[ui.dim, 'd'], [ui.dpos, 'dPos'], [ui.shiftK, 'shiftK'], [ui.maxDistance, 'maxDistance'],
    ...params.map((input) => [input, input.dataset.param])];
  for (const [input, name] of inputs) Object.assign(input, INPUT_RANGES[name]);
}

/**
 * The controls show `state`. parts: { numbers (number-inputs.js), disclosures, measureTabs, limit
 * (how many lanes fit side by side now) }. d_p, α and heads depend on the word vectors: the page
 * writes them with each view.
 */
export function writeControls(ui, state, { numbers, disclosures, measureTabs, limit }) {
  ui.sentence.value = state.sentence;
  ui.vectors.value = state.vectors;
  ui.dim.value = String(state.d);
  ui.concat.value = state.concat;
  ui.base.value = String(state.base);
  ui.layout.value = state.layout;
  ui.pairing.value = state.pairing;
  ui.causal.checked = state.causal;
  ui.shiftK.value = String(state.shiftK);
  ui.maxDistance.value = String(state.maxDistance);
  ui.spreadFollow.checked = state.spreadLength === 0;
  if (state.spreadLength) ui.spreadLength.value = String(state.spreadLength);
  numbers.writeParams();
  syncSchemeBoxes(ui, state.schemes, limit);
  disclosures.apply(state);
  measureTabs.sync();
}

/** The boxes follow `chosen`; at the limit the others are disabled, and the hint says why. */
export function syncSchemeBoxes(ui, chosen, limit) {
  for (const box of ui.schemeBoxes) {
    box.checked = chosen.includes(box.value);
    box.disabled = box.checked ? chosen.length === 1 : chosen.length >= limit;
  }
  ui.schemeCount.textContent = `(${chosen.length} of at most ${limit})`;
  ui.schemeWhy.textContent = chosen.length > limit
    ? `${chosen.length} lanes are chosen, more than fit side by side at this width, so they wrap into rows; uncheck some to choose others.`
    : chosen.length === limit ? `${limit} chosen — the most for this screen width: uncheck one to choose another.`
      : chosen.length === 1 ? 'At least one scheme stays chosen.' : '';
}
