// web/page/frame-pacing.js: at most one recompute per animation frame for the controls and one
// in flight for typing; a keystroke's goes at once and asks for no frame, keys meanwhile wait for
// it and the newest text goes once it has settled.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createFramePacing } from '../../web/page/frame-pacing.js';

function setUp({ ready = true } = {}) {
  const frames = [];
  globalThis.requestAnimationFrame = (f) => frames.push(f);
  const sent = [];
  const paints = [];
  const state = { ready };
  const run = ({ typed }) => {
    sent.push(typed ? 'typed' : 'control');
    return new Promise((resolve) => paints.push(resolve));
  };
  const pacing = createFramePacing({ run, ready: () => state.ready });
  return { pacing, sent, paints, state, frames, frame: () => frames.splice(0).forEach((f) => f()) };
}
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

test('a keystroke is sent at once and asks for no frame; keys while it is in flight wait, and the newest goes once it settles', async () => {
  const { pacing, sent, paints, frames } = setUp();
  try {
    const painted = pacing.typed();
    assert.ok(painted instanceof Promise, 'the paint promise is run\'s');
    assert.deepEqual(sent, ['typed']);
    assert.equal(frames.length, 0, 'no frame asked for');
    assert.equal(pacing.typed(), null, 'a second key while the first is in flight waits');
    assert.equal(pacing.typed(), null);
    assert.deepEqual(sent, ['typed']);
    paints[0]();
    await settle();
    assert.deepEqual(sent, ['typed', 'typed'], 'the newest text goes once, when the first has settled');
    paints[1]();
    await settle();
    assert.equal(sent.length, 2, 'nothing changed since: nothing more sent');
    assert.notEqual(pacing.typed(), null, 'the next key goes at once');
    assert.equal(frames.length, 0);
  } finally {
    delete globalThis.requestAnimationFrame;
  }
});

test('controls ask for the next frame, several changes make one recompute, a key meanwhile waits for that frame, and nothing goes before the lab is ready', async () => {
  const { pacing, sent, paints, state, frames, frame } = setUp({ ready: false });
  try {
    pacing.request();
    assert.equal(pacing.typed(), null);
    assert.equal(frames.length, 0, 'no frame before the lab is ready');
    state.ready = true;
    pacing.request();
    pacing.request();
    assert.equal(pacing.typed(), null, 'a key waits for the frame a control asked for');
    assert.equal(frames.length, 1);
    assert.deepEqual(sent, []);
    frame();
    assert.deepEqual(sent, ['control'], 'the frame sends the newest state once');
    pacing.now();
    assert.deepEqual(sent, ['control', 'control'], 'now() sends at once');
    // A control's frame overtakes a key in flight: once that key settles, nothing is resent.
    paints.forEach((p) => p());
    await settle();
    pacing.typed();
    pacing.request();
    frame();
    paints.at(-2)();
    await settle();
    assert.deepEqual(sent, ['control', 'control', 'typed', 'control']);
  } finally {
    delete globalThis.requestAnimationFrame;
  }
});
