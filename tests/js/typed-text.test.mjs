// web/page/typed-text.js: the sentence box's text after the edit a beforeinput event announces.
// The foretold text must be what the browser's edit makes for typed text, line breaks and
// deletions of the selection or of one code point; every other edit is left to the input event.
// followTyping sends each edit's text once, and the box's own text whenever the foretold one was
// wrong or its edit never came.
// The box and the events are plain objects with the fields textAfter reads (value,
// selectionStart/End; inputType, data, isComposing), as a textarea and an InputEvent have them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { followTyping, textAfter } from '../../web/page/typed-text.js';

const box = (value, start = value.length, end = start) => ({ value, selectionStart: start, selectionEnd: end });
const event = (inputType, data = null, isComposing = false) => ({ inputType, data, isComposing });

// A small seeded generator (mulberry32), so every run checks the same cases.
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}
// Letters, a space, a line break, an accented letter and a character outside the BMP (two code units).
const PIECES = ['a', 'b', 'q', ' ', '\n', 'é', '😀', 'Z'];
const text = (next, length) => Array.from({ length }, () => PIECES[Math.floor(next() * PIECES.length)]).join('');
/** A code-unit offset in `value` that does not split a surrogate pair. */
function boundary(next, value) {
  const points = [...value];
  const k = Math.floor(next() * (points.length + 1));
  return points.slice(0, k).join('').length;
}

test('typed text replaces the selection, wherever it is', () => {
  const next = random(7);
  for (let i = 0; i < 500; i++) {
    const value = text(next, Math.floor(next() * 12));
    const [a, b] = [boundary(next, value), boundary(next, value)].sort((x, y) => x - y);
    const typed = text(next, 1 + Math.floor(next() * 3));
    assert.equal(textAfter(box(value, a, b), event('insertText', typed)), value.slice(0, a) + typed + value.slice(b), JSON.stringify({ value, a, b, typed }));
  }
  assert.equal(textAfter(box('the king', 3), event('insertText', 'x')), 'thex king');
});

test('a line break is a newline in the box', () => {
  assert.equal(textAfter(box('the king', 3), event('insertLineBreak')), 'the\n king');
  assert.equal(textAfter(box('the king', 0, 8), event('insertParagraph')), '\n');
});

test('Backspace and Delete remove the selection, else one code point, a surrogate pair whole', () => {
  const next = random(11);
  for (let i = 0; i < 500; i++) {
    const value = text(next, Math.floor(next() * 12));
    const at = boundary(next, value);
    const points = [...value];
    const k = [...value.slice(0, at)].length; // code points before the caret
    const backward = [...points.slice(0, Math.max(0, k - 1)), ...points.slice(k)].join('');
    const forward = [...points.slice(0, k), ...points.slice(k + 1)].join('');
    assert.equal(textAfter(box(value, at), event('deleteContentBackward')), backward, JSON.stringify({ value, at }));
    assert.equal(textAfter(box(value, at), event('deleteContentForward')), forward, JSON.stringify({ value, at }));
    const end = boundary(next, value);
    if (end > at) assert.equal(textAfter(box(value, at, end), event('deleteContentBackward')), value.slice(0, at) + value.slice(end));
  }
  assert.equal(textAfter(box('a😀b', 3), event('deleteContentBackward')), 'ab');
  assert.equal(textAfter(box('a😀b', 1), event('deleteContentForward')), 'ab');
  assert.equal(textAfter(box('king', 0), event('deleteContentBackward')), 'king');
  assert.equal(textAfter(box('king', 4), event('deleteContentForward')), 'king');
});

test('compositions, pastes, undo and word deletions are left to the input event', () => {
  assert.equal(textAfter(box('the king', 3), event('insertText', 'x', true)), null);
  assert.equal(textAfter(box('the king', 3), event('insertCompositionText', 'k')), null);
  for (const inputType of ['insertFromPaste', 'insertFromDrop', 'historyUndo', 'historyRedo', 'deleteWordBackward', 'deleteByCut', 'insertReplacementText']) {
    assert.equal(textAfter(box('the king', 3), event(inputType, 'x')), null, inputType);
  }
  // insertText without data (the spec allows null): nothing to foretell.
  assert.equal(textAfter(box('the king', 3), event('insertText', null)), null);
});

// A box that dispatches beforeinput, applies `edit` unless cancelled, then dispatches input, as a
// browser does in one task; frames run the requestAnimationFrame callbacks queued so far.
function typingBox(value) {
  const listeners = { beforeinput: [], input: [] };
  const target = { value, selectionStart: value.length, selectionEnd: value.length, addEventListener: (type, f) => listeners[type].push(f) };
  return {
    target,
    edit(inputType, data, after, { cancelled = false } = {}) {
      for (const f of listeners.beforeinput) f(event(inputType, data));
      if (cancelled) return;
      target.value = after;
      target.selectionStart = target.selectionEnd = after.length;
      for (const f of listeners.input) f({});
    },
  };
}

test('followTyping sends each edit once, and the box\'s text when the foretold one was wrong or never came', () => {
  const frames = [];
  globalThis.requestAnimationFrame = (f) => frames.push(f);
  const frame = () => frames.splice(0).forEach((f) => f());
  try {
    const box = typingBox('king');
    const sent = [];
    followTyping(box.target, (text) => sent.push(text));
    box.edit('insertText', 's', 'kings');
    frame();
    assert.deepEqual(sent, ['kings'], 'foretold right: sent once, at beforeinput');
    box.edit('deleteContentBackward', null, 'kin'); // the browser removed two characters
    frame();
    assert.deepEqual(sent, ['kings', 'king', 'kin'], 'foretold wrong: the box\'s text follows at input');
    box.edit('insertFromPaste', 'g queen', 'king queen');
    frame();
    assert.deepEqual(sent.slice(3), ['king queen'], 'not foretold: sent at input');
    box.edit('insertText', 'x', 'king queenx', { cancelled: true });
    assert.deepEqual(sent.slice(4), ['king queenx'], 'sent at beforeinput');
    frame();
    assert.deepEqual(sent.slice(5), ['king queen'], 'its edit never came: the box\'s text at the next frame');
    box.target.selectionStart = box.target.selectionEnd = box.target.value.length;
    box.edit('deleteContentForward', null, 'king queen'); // nothing after the caret: no edit, nothing sent
    frame();
    assert.equal(sent.length, 7, 'an edit that changes nothing is sent at input only');
  } finally {
    delete globalThis.requestAnimationFrame;
  }
});

// A focused box in a document whose editing commands make the edit and fire input, as a browser's
// do; beforeinput is cancelable, as it is for typed text. `focus` false: the box lost the focus.
function heldBox(value, { focus = true } = {}) {
  const listeners = { beforeinput: [], input: [] };
  const documentListeners = {};
  const commands = [];
  const fire = (type, e) => listeners[type].forEach((f) => f(e));
  const splice = (text, from, to) => {
    target.value = target.value.slice(0, from) + text + target.value.slice(to);
    target.selectionStart = target.selectionEnd = from + text.length;
  };
  const doc = {
    addEventListener: (type, f) => { documentListeners[type] = f; },
    execCommand(command, _ui, data) {
      commands.push(command);
      const { selectionStart: a, selectionEnd: b } = target;
      if (command === 'insertText') splice(data, a, b);
      else if (command === 'delete') splice('', a === b ? a - 1 : a, b);
      else splice('', a, a === b ? b + 1 : b);
      fire('input', {});
      return true;
    },
  };
  const target = {
    value, selectionStart: value.length, selectionEnd: value.length, ownerDocument: doc,
    addEventListener: (type, f) => listeners[type].push(f),
    getRootNode: () => doc,
    setRangeText(text, from, to) { commands.push('setRangeText'); splice(text, from, to); },
    dispatchEvent: (e) => fire(e.type, e),
  };
  doc.activeElement = focus ? target : null;
  return {
    target, commands,
    /** Dispatches beforeinput; → whether the page cancelled it. */
    type(inputType, data = null) {
      const e = { ...event(inputType, data), cancelable: true, defaultPrevented: false, preventDefault() { this.defaultPrevented = true; } };
      fire('beforeinput', e);
      return e.defaultPrevented;
    },
    key: () => documentListeners.keydown(),
  };
}

function deferred() {
  let resolve;
  const promise = new Promise((r) => { resolve = r; });
  return { promise, resolve };
}

test('a foretold edit waits for its view, then is made by the editing commands in the same task', async () => {
  globalThis.requestAnimationFrame = () => assert.fail('a held edit asks for no frame');
  try {
    const box = heldBox('king');
    const sent = [];
    let view = deferred();
    followTyping(box.target, (text) => { sent.push(text); return view.promise; }, { holdLimitMs: 10_000 });
    assert.ok(box.type('insertText', 's'), 'the browser\'s own edit is cancelled');
    assert.equal(box.target.value, 'king', 'held until the view comes');
    assert.deepEqual(sent, ['kings']);
    view.resolve();
    await view.promise; // the page's callbacks for the view run first, then the edit
    assert.equal(box.target.value, 'kings');
    assert.deepEqual(box.commands, ['insertText']);
    assert.deepEqual(sent, ['kings'], 'its input event sends nothing again');

    view = deferred();
    box.type('deleteContentBackward');
    assert.equal(box.target.value, 'kings');
    box.key(); // another key: the held edit is made first, before the key can move the caret
    assert.equal(box.target.value, 'king');
    assert.deepEqual(box.commands, ['insertText', 'delete']);
    view.resolve();
    await view.promise;
    assert.equal(box.target.value, 'king', 'made once');

    view = deferred();
    box.type('insertText', 'a');
    box.type('insertText', 'b'); // the next edit comes before the first one's view: that one is made first
    assert.equal(box.target.value, 'kinga');
    view.resolve();
    await view.promise;
    assert.equal(box.target.value, 'kingab');
    assert.deepEqual(sent, ['kings', 'king', 'kinga', 'kingab']);
  } finally {
    delete globalThis.requestAnimationFrame;
  }
});

test('a held edit is made after the hold limit when its view is late, and spliced when the box lost the focus', async () => {
  const box = heldBox('king', { focus: false });
  const events = [];
  globalThis.InputEvent = class { constructor(type, init) { Object.assign(this, init, { type }); events.push(this); } };
  try {
    followTyping(box.target, () => new Promise(() => {}), { holdLimitMs: 5 });
    box.type('insertText', 's');
    assert.equal(box.target.value, 'king');
    await new Promise((resolve) => setTimeout(resolve, 30));
    assert.equal(box.target.value, 'kings');
    assert.deepEqual(box.commands, ['setRangeText'], 'no editing command on a box without the focus');
    assert.deepEqual(events.map((e) => [e.type, e.inputType, e.data]), [['input', 'insertText', 's']]);
  } finally {
    delete globalThis.InputEvent;
  }
});

test('an edit whose view is not on its way (onText returns no promise) is not held', () => {
  const frames = [];
  globalThis.requestAnimationFrame = (f) => frames.push(f);
  try {
    const box = heldBox('king');
    followTyping(box.target, () => null);
    assert.equal(box.type('insertText', 's'), false);
    assert.equal(frames.length, 1, 'checked at the next frame');
  } finally {
    delete globalThis.requestAnimationFrame;
  }
});
