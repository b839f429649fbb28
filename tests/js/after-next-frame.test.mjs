// web/pipeline/tasks.js afterNextFrame: work for another thread waits until the frame that carries
// the current DOM writes is out, and only a page that gets no frame at all (hidden) lets it go on a
// timer. The timer must outlast a held first paint: headless Chromium (so Lighthouse) withholds a
// page's frames for up to a second during load, and the load let go into that gap lands on the
// frame that ends it.
import { test, mock } from 'node:test';
import assert from 'node:assert/strict';
import { afterNextFrame } from '../../web/pipeline/tasks.js';

function setUp() {
  const frames = [];
  globalThis.requestAnimationFrame = (f) => frames.push(f);
  mock.timers.enable({ apis: ['setTimeout'] });
  let resolved = false;
  afterNextFrame().then(() => { resolved = true; });
  return { frames, resolved: async () => { await Promise.resolve(); await Promise.resolve(); return resolved; } };
}

test('it resolves in the task after the next frame, not in the frame itself', async () => {
  const { frames, resolved } = setUp();
  try {
    assert.equal(frames.length, 1, 'one frame asked for');
    mock.timers.tick(16);
    assert.equal(await resolved(), false, 'no frame yet');
    frames[0]();
    assert.equal(await resolved(), false, 'the frame callback itself lets nothing go');
    mock.timers.tick(0);
    assert.equal(await resolved(), true, 'the task after the frame does');
  } finally {
    mock.timers.reset();
  }
});

test('a frame held back for 1.5 s still comes first; a page that gets no frame lets it go after 2 s', async () => {
  const { frames, resolved } = setUp();
  try {
    mock.timers.tick(1500);
    assert.equal(await resolved(), false, 'no frame for 1.5 s: still waiting for it');
    mock.timers.tick(499);
    assert.equal(await resolved(), false);
    mock.timers.tick(1);
    assert.equal(await resolved(), true, 'at 2 s the fallback lets it go');
    frames[0]();
    mock.timers.tick(0);
    assert.equal(await resolved(), true, 'a late frame changes nothing');
  } finally {
    mock.timers.reset();
  }
});
