// web/page/frame-pacing.js: at most one recompute per animation frame; a keystroke's goes at once
// and keeps the frame, later changes wait for it and the frame sends the newest state once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createFramePacing } from '../../web/page/frame-pacing.js';

function setUp({ ready = true } = {}) {
  const frames = [];
  globalThis.requestAnimationFrame = (f) => frames.push(f);
  const sent = [];
  const state = { ready };
  const pacing = createFramePacing({ run: ({ typed }) => { sent.push(typed ? 'typed' : 'control'); return Promise.resolve(sent.length); }, ready: () => state.ready });
  return { pacing, sent, state, frames, frame: () => frames.splice(0).forEach((f) => f()) };
}

test('a keystroke is sent at once and keeps the frame; keys before that frame wait, and the frame sends once', async () => {
  const { pacing, sent, frames, frame } = setUp();
  try {
    const painted = pacing.typed();
    assert.deepEqual(sent, ['typed']);
    assert.equal(await painted, 1, 'the paint promise is run\'s');
    assert.equal(pacing.typed(), null, 'a second key in the same frame waits');
    pacing.request();
    assert.deepEqual(sent, ['typed']);
    assert.equal(frames.length, 1, 'one frame asked for');
    frame();
    assert.deepEqual(sent, ['typed', 'typed'], 'the frame sends the newest state once');
    frame();
    assert.equal(frames.length, 0, 'nothing changed since: no frame asked for');
    assert.notEqual(pacing.typed(), null, 'the next key after the frame goes at once');
    assert.deepEqual(sent, ['typed', 'typed', 'typed']);
    frame();
    assert.equal(sent.length, 3, 'a frame kept but not needed sends nothing');
  } finally {
    delete globalThis.requestAnimationFrame;
  }
});

test('controls ask for the next frame, several changes make one recompute, and nothing goes before the lab is ready', () => {
  const { pacing, sent, state, frames, frame } = setUp({ ready: false });
  try {
    pacing.request();
    assert.equal(pacing.typed(), null);
    assert.equal(frames.length, 0, 'no frame before the lab is ready');
    state.ready = true;
    pacing.request();
    pacing.request();
    assert.equal(frames.length, 1);
    assert.deepEqual(sent, []);
    frame();
    assert.deepEqual(sent, ['control']);
    pacing.now();
    assert.deepEqual(sent, ['control', 'control'], 'now() sends at once');
  } finally {
    delete globalThis.requestAnimationFrame;
  }
});
