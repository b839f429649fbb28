// The sentence box's text after the edit its beforeinput event announces, so a keystroke's compute
// can leave for the lab worker before the browser edits the box: the edit (text shaping and a
// layout of the box) and the events around it take 1–2 ms of the page's thread before 'input'
// fires on a 2 GHz core, and the worker's answer is then that much later for the frame it aims at.
// Foretold are only the edits whose result is plain: typed text, a line break, and deleting the
// selection or the character either side of the caret. Anything else (an IME composition, a paste,
// a drop, undo, a word deleted at once) is left to the input event. A foretold text can still be
// wrong (Backspace removing a whole cluster of code points, an edit another listener cancelled),
// so it is checked against the box once the edit is done, and the box's text is sent when they differ.

const INSERTS = { insertText: (event) => event.data, insertLineBreak: () => '\n', insertParagraph: () => '\n' };
const DELETES = new Set(['deleteContentBackward', 'deleteContentForward']);

/** The code units of the one code point before (backward) or after `at` in text: 1, or 2 for a surrogate pair. */
function codePointLength(text, at, backward) {
  const unit = backward ? text.charCodeAt(at - 1) : text.charCodeAt(at);
  const other = backward ? text.charCodeAt(at - 2) : text.charCodeAt(at + 1);
  const pair = backward ? unit >= 0xdc00 && unit <= 0xdfff && other >= 0xd800 && other <= 0xdbff
    : unit >= 0xd800 && unit <= 0xdbff && other >= 0xdc00 && other <= 0xdfff;
  return pair ? 2 : 1;
}

/**
 * Calls onText(text) with the box's text once per edit: at beforeinput when textAfter foretells
 * it, else at the input event; again at the input event when the foretold text was wrong, or at the
 * next frame when no input event came (the edit was cancelled) and the box does not read it.
 */
export function followTyping(box, onText) {
  let foretold = null; // the text sent at beforeinput, until its edit is checked
  const check = () => {
    if (foretold === null) return;
    const right = foretold === box.value;
    foretold = null;
    if (!right) onText(box.value);
  };
  box.addEventListener('beforeinput', (event) => {
    const next = textAfter(box, event);
    if (next === null || next === box.value) return;
    foretold = next;
    requestAnimationFrame(check); // before the caller's own frame callbacks for this edit
    onText(next);
  });
  box.addEventListener('input', () => {
    if (foretold !== null) check();
    else onText(box.value);
  });
}

/**
 * box: a <textarea> or <input>; event: its beforeinput InputEvent. → the box's value once the
 * edit is done, or null when it is not foretold here.
 */
export function textAfter(box, event) {
  if (event.isComposing) return null;
  const { value, selectionStart: start, selectionEnd: end } = box;
  if (start === null || end === null) return null;
  const insert = INSERTS[event.inputType]?.(event);
  if (typeof insert === 'string') return value.slice(0, start) + insert + value.slice(end);
  if (!DELETES.has(event.inputType)) return null;
  if (start !== end) return value.slice(0, start) + value.slice(end);
  if (event.inputType === 'deleteContentBackward') {
    return start === 0 ? value : value.slice(0, start - codePointLength(value, start, true)) + value.slice(start);
  }
  return start === value.length ? value : value.slice(0, start) + value.slice(start + codePointLength(value, start, false));
}
