// The trained heads' controls above the lanes: the toggle between trained heads and the encoding
// alone (two radio buttons, so the arrow keys move between them as in any radio group), the
// layer/head picker, and the button that loads the models where the browser asks to save data.
import { element, setHidden, setText } from '../figures/dom.js';
import { TRAINED_HEADS } from '../pipeline/state.js';
import { W_IS_I } from '../pipeline/prose.js';

function buildToggle(onPickHeads) {
  const toggle = { trained: null, identity: null };
  const choices = element('div', { class: 'heads-toggle', role: 'radiogroup', 'aria-label': 'Attention shown in the lanes' });
  const choice = (value, text, key) => {
    const input = element('input', { type: 'radio', name: 'lane-heads', value, id: `lane-heads-${key}` });
    input.addEventListener('change', () => { if (input.checked) onPickHeads(value === TRAINED_HEADS ? TRAINED_HEADS : 0); });
    toggle[key] = input;
    return element('label', { class: 'heads-choice', htmlFor: input.id }, [input, text]);
  };
  choices.append(choice(TRAINED_HEADS, 'Trained heads', 'trained'), choice('0', `Encoding alone (${W_IS_I})`, 'identity'));
  return { toggle, choices };
}

function buildHeadGroup(onPickHead) {
  const layerSelect = element('select');
  const headSelect = element('select');
  const group = element('div', { class: 'trained-picker-group' });
  group.setAttribute('role', 'group');
  group.setAttribute('aria-label', 'Trained head shown in the lanes');
  const label = (text, control, id) => {
    control.id = id;
    const l = element('label', { text: text });
    l.htmlFor = id;
    return [l, control];
  };
  group.append(...label('Layer', layerSelect, 'trained-layer'), ...label('Head', headSelect, 'trained-head'));
  const pick = () => onPickHead({ headLayer: Number(layerSelect.value), headIndex: Number(headSelect.value) });
  layerSelect.addEventListener('change', pick);
  headSelect.addEventListener('change', pick);
  return { group, layerSelect, headSelect };
}

// Options 1 … count (1-based, as the state and the URL count heads), `chosen` clamped into them.
function fillSelect(select, count, chosen) {
  if (select.options.length !== count) {
    select.replaceChildren(...Array.from({ length: count }, (_, i) => new Option(String(i + 1), String(i + 1))));
  }
  const value = String(Math.min(count, Math.max(1, chosen)));
  if (select.value !== value) select.value = value;
}

/**
 * Builds the controls into `picker` (emptied first; hidden until models ship). onLoad() when the
 * reader presses the load button; onPickHeads and onPickHead as createTrainedHeads' own.
 * → { showToggle(shown, active), showLoad(waitingBytes), showHeads(shape | null, layer, head) }.
 */
export function createTrainedPicker({ picker, onPickHeads, onPickHead, onLoad }) {
  const { toggle, choices } = buildToggle(onPickHeads);
  const { group, layerSelect, headSelect } = buildHeadGroup(onPickHead);
  const loadButton = element('button', { type: 'button', class: 'trained-load', hidden: true });
  loadButton.addEventListener('click', () => { setHidden(loadButton, true); onLoad(); });
  picker.replaceChildren(choices, group, loadButton);
  picker.hidden = true;
  return {
    showToggle(shown, active) {
      setHidden(picker, !shown);
      if (toggle.trained.checked !== active) toggle.trained.checked = active;
      if (toggle.identity.checked === active) toggle.identity.checked = !active;
    },
    // waiting: bytes of the lanes' models not loaded because the reader has not asked yet.
    showLoad(waiting) {
      setHidden(loadButton, waiting === 0);
      if (waiting > 0) setText(loadButton, `Load the trained models (${(waiting / 1e6).toFixed(1)} MB)`);
    },
    // shape: a shipped model's config ({ layers, heads }), or null to hide the picker.
    showHeads(shape, layer, head) {
      setHidden(group, !shape);
      if (!shape) return;
      fillSelect(layerSelect, shape.layers, layer);
      fillSelect(headSelect, shape.heads, head);
    },
  };
}
