// <posenc-lab> as an anywidget-style widget (Jupyter through anywidget, marimo, and any host that
// calls render({ model, el })). scripts/bundle-element.mjs bundles this file with the element and
// both cores into dist/anywidget.mjs (npm: posenc-lab/anywidget): one file, because anywidget
// loads `_esm` from text where relative imports do not resolve.
//
// Model keys are the element's attributes with "_" for "-" (sentence, schemes, eval_length,
// vectors_src, …), as Python traits are named. Only keys the model has are synced, both ways:
// the model's `change:<key>` sets the attribute; a reader's edit (posenc-change) sets the model
// and saves it, keeping the type the model holds (number, boolean, list or text).
import { PosencLabElement } from './element.js';

const keyOf = (attribute) => attribute.replaceAll('-', '_');
const optionOf = (attribute) => attribute.replace(/-([a-z])/g, (_, c) => c.toUpperCase());

// Attribute text for a model value: lists comma-separated, everything else as text.
const attributeText = (value) => (Array.isArray(value) ? value.join(',') : String(value));

// The element's value for a model key, in the type the model holds now.
function modelValue(current, value) {
  if (Array.isArray(current)) return Array.isArray(value) ? [...value] : String(value).split(',').filter(Boolean);
  if (typeof current === 'number') return Number(value);
  if (typeof current === 'boolean') return Boolean(value);
  return Array.isArray(value) ? value.join(',') : String(value);
}

/** Mounts a <posenc-lab> in el, synced with model; → the cleanup function. */
function render({ model, el }) {
  const figure = document.createElement('posenc-lab');
  const synced = PosencLabElement.observedAttributes.filter((attribute) => model.get(keyOf(attribute)) != null);
  const toAttribute = (attribute) => {
    const value = model.get(keyOf(attribute));
    if (value == null) figure.removeAttribute(attribute);
    else figure.setAttribute(attribute, attributeText(value));
  };
  const handlers = synced.map((attribute) => {
    const handler = () => toAttribute(attribute);
    model.on(`change:${keyOf(attribute)}`, handler);
    toAttribute(attribute);
    return [`change:${keyOf(attribute)}`, handler];
  });
  const onEdit = (event) => {
    let changed = false;
    for (const attribute of synced) {
      const key = keyOf(attribute);
      const current = model.get(key);
      const value = modelValue(current, event.detail[optionOf(attribute)]);
      if (attributeText(value) === attributeText(current)) continue;
      model.set(key, value);
      changed = true;
    }
    if (changed) model.save_changes();
  };
  figure.addEventListener('posenc-change', onEdit);
  el.append(figure);
  return () => {
    for (const [name, handler] of handlers) model.off(name, handler);
    figure.removeEventListener('posenc-change', onEdit);
    figure.remove();
  };
}

export default { render };
