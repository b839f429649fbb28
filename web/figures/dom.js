// DOM writes that skip equal values. Chromium invalidates style, layout or paint on a text,
// attribute, class or inline-style write even when the value is unchanged, and per-keystroke code
// rewrites mostly the same values: every write on that path goes through these.

/** Sets node.textContent unless it already reads `text` (text only, never markup). */
export function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

/** Sets attribute `name` to the string `value` unless it already has it. */
export function setAttr(node, name, value) {
  if (node.getAttribute(name) !== value) node.setAttribute(name, value);
}

export function setHidden(node, hidden) {
  if (node.hidden !== hidden) node.hidden = hidden;
}

export function setClass(node, name, on) {
  if (node.classList.contains(name) !== Boolean(on)) node.classList.toggle(name, Boolean(on));
}

/** Sets a form control's value unless it already reads `value` (an equal write may move the caret). */
export function setValue(control, value) {
  if (control.value !== value) control.value = value;
}

// Inline styles read back normalised ("33.333333333%" reads "33.3333%"), so the last value
// written is remembered instead; a property must then be written only through setStyle.
const written = new WeakMap(); // element → { property: last value written }

export function setStyle(node, property, value) {
  let styles = written.get(node);
  if (!styles) written.set(node, styles = {});
  if (styles[property] === value) return;
  styles[property] = value;
  node.style[property] = value;
}

/**
 * A new element: props set properties (`text` → textContent; `class`, names with a dash and
 * names that are not properties → attributes), then children are appended. `doc` is the
 * document that owns it (a picker mounted in another document passes its own).
 */
export function element(tag, props = {}, children = [], doc = document) {
  const node = doc.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === 'text') node.textContent = value;
    else if (key in node && !key.includes('-')) node[key] = value;
    else node.setAttribute(key, value);
  }
  node.append(...children);
  return node;
}
