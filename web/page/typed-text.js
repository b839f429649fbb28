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
// The editing command that makes each deletion: a held edit is made by the editing commands, so
// it joins the box's undo history as a typed one would (an insertion is made by 'insertText').
const DELETE_COMMANDS = { deleteContentBackward: 'delete', deleteContentForward: 'forwardDelete' };

/** The code units of the one code point before (backward) or after `at` in text: 1, or 2 for a surrogate pair. */
function codePointLength(text, at, backward) {
  const unit = backward ? text.charCodeAt(at - 1) : text.charCodeAt(at);
  const other = backward ? text.charCodeAt(at - 2) : text.charCodeAt(at + 1);
  const pair = backward ? unit >= 0xdc00 && unit <= 0xdfff && other >= 0xd800 && other <= 0xdbff
    : unit >= 0xd800 && unit <= 0xdbff && other >= 0xdc00 && other <= 0xdfff;
  return pair ? 2 : 1;
}

// The longest a typed character waits for its view: the bound for a keystroke's pixels on
// a CPU four times slower than a 2 GHz core. Past it the box shows the edit alone, as it would
// unheld, and the view follows in a later frame.
export const HOLD_LIMIT_MS = 40;

/**
 * Calls onText(text) with the box's text once per edit: at beforeinput when textAfter foretells
 * it, else at the input event; again at the input event when the foretold text was wrong, or at the
 * next frame when no input event came (the edit was cancelled) and the box does not read it.
 *
 * When onText returns a promise (the view of that text is on its way), a foretold edit is held:
 * its beforeinput is cancelled, and the same edit is made once the promise settles, in the task
 * that painted the view, so the box and the figures change in one frame. Unheld, the box's edit
 * asks for a frame at once, and the view, a worker's trip later, misses it and waits for the next
 * vsync. A held edit is made first whenever anything else may read or move the caret: another
 * key, a pointer press, another edit; and after HOLD_LIMIT_MS at the latest.
 * → { flush() }: makes the held edit now, if any. The caller flushes in the task that paints the
 * view, after its writes: the editing command brings style and layout up to date, the writes' with
 * its own, and the frame after has no layout left to do (made first, it left the writes' layout to
 * the frame: the same two passes a key, in another order).
 */
export function followTyping(box, onText, { holdLimitMs = HOLD_LIMIT_MS } = {}) {
  let foretold = null; // the text sent at beforeinput, until its edit is checked
  let held = null; // { inputType, insert, before, start, end, timer }: a cancelled edit not yet made
  let making = false; // the held edit's own events pass through
  const check = () => {
    if (foretold === null) return;
    const right = foretold === box.value;
    foretold = null;
    if (!right) onText(box.value);
  };
  const make = () => {
    if (!held) return;
    const edit = held;
    held = null;
    clearTimeout(edit.timer);
    // The box keeps its text and caret while an edit is held (every other edit makes this one first).
    if (box.value !== edit.before) { check(); return; }
    making = true;
    try {
      const made = focused(box) && (edit.insert === null
        ? box.ownerDocument.execCommand(DELETE_COMMANDS[edit.inputType])
        : box.ownerDocument.execCommand('insertText', false, edit.insert));
      if (!made) spliceEdit(box, edit);
    } finally {
      making = false;
    }
  };
  for (const type of ['keydown', 'pointerdown', 'mousedown', 'focusout']) box.ownerDocument?.addEventListener?.(type, make, true);
  box.addEventListener('beforeinput', (event) => {
    if (making) return;
    make();
    const next = textAfter(box, event);
    if (next === null || next === box.value) return;
    foretold = next;
    const view = onText(next);
    if (typeof view?.then === 'function' && event.cancelable) {
      event.preventDefault();
      const insert = INSERTS[event.inputType]?.(event) ?? null;
      held = { inputType: event.inputType, insert, before: box.value, start: box.selectionStart, end: box.selectionEnd, timer: setTimeout(make, holdLimitMs) };
      view.then(make, make);
      return;
    }
    requestAnimationFrame(check); // the edit never came if no input event has checked it by then
  });
  box.addEventListener('input', () => {
    if (foretold !== null) check();
    else onText(box.value);
  });
  return { flush: make };
}

/** Whether the box has the keyboard focus, inside a shadow root too (where execCommand edits). */
function focused(box) {
  const root = box.getRootNode?.() ?? box.ownerDocument;
  return root.activeElement === box;
}

/**
 * The edit without the editing commands (the box lost focus meanwhile, or the browser refused the
 * command): spliced into the value, with the input event a browser's edit fires. It does not join
 * the undo history.
 */
function spliceEdit(box, { inputType, insert, start, end }) {
  const [from, to] = insert === null ? deletedRange(box.value, start, end, inputType) : [start, end];
  box.setRangeText(insert ?? '', from, to, 'end');
  box.dispatchEvent(new InputEvent('input', { bubbles: true, inputType, data: insert }));
}

/**
 * What a deletion removes from value with the selection [start, end): the selection, else the one
 * code point before (deleteContentBackward) or after the caret, none at either end. → [from, to).
 */
function deletedRange(value, start, end, inputType) {
  if (start !== end) return [start, end];
  if (inputType === 'deleteContentBackward') return [start === 0 ? 0 : start - codePointLength(value, start, true), start];
  return [start, start === value.length ? start : start + codePointLength(value, start, false)];
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
  if (!Object.hasOwn(DELETE_COMMANDS, event.inputType)) return null;
  const [from, to] = deletedRange(value, start, end, event.inputType);
  return value.slice(0, from) + value.slice(to);
}
