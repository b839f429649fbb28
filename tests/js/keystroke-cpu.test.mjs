// bench/keystroke-cpu.mjs: a keystroke's thread time from a Chromium trace, on a trace made here
// whose sums are known.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { keystrokeCpu } from '../../bench/keystroke-cpu.mjs';

const MAIN = { pid: 1, tid: 10 };
const WORKER = { pid: 1, tid: 20 };
const OTHER = { pid: 2, tid: 30 }; // another process's main thread: never counted
const name = (thread, text) => ({ ...thread, ph: 'M', name: 'thread_name', args: { name: text } });
const keydown = (ts) => ({ ...MAIN, ph: 'X', name: 'EventDispatch', ts, dur: 50, args: { data: { type: 'keydown' } } });
// A task of `tdur` µs thread time and twice that wall time (a loaded machine).
const task = (thread, ts, tdur) => ({ ...thread, ph: 'X', name: 'ThreadControllerImpl::RunTask', ts, dur: 2 * tdur, tdur });
// A rendering phase's event (UpdateLayoutTree, Layout, Paint …) of `tdur` µs thread time.
const phase = (thread, eventName, ts, tdur, dur = tdur) => ({ ...thread, ph: 'X', name: eventName, ts, dur, tdur });

function trace() {
  return JSON.stringify({
    traceEvents: [
      name(MAIN, 'CrRendererMain'), name(WORKER, 'DedicatedWorker thread'), name(OTHER, 'CrRendererMain'),
      // Key 1 at 1,000,000 µs, painted 20 ms later: main 3 + 4 ms, worker 2 ms inside the window.
      keydown(1_000_000), task(MAIN, 1_000_000, 3000), task(MAIN, 1_015_000, 4000), task(WORKER, 1_005_000, 2000),
      task(MAIN, 1_030_000, 9000), // after the frame: not this key's
      task(OTHER, 1_001_000, 5000),
      // Its rendering on the main thread: style 0.25 ms, layout 1.5 ms, paint 0.125 + 0.5 + 0.25 ms;
      // a layer's Paint inside the document's is part of it; a worker's paint (an offscreen
      // canvas), another process's layout and the main thread's after the frame are not.
      phase(MAIN, 'UpdateLayoutTree', 1_001_000, 250), phase(MAIN, 'Layout', 1_001_500, 1500),
      phase(MAIN, 'PrePaint', 1_015_500, 125), phase(MAIN, 'Paint', 1_016_000, 500, 800),
      phase(MAIN, 'Paint', 1_016_100, 200), phase(MAIN, 'Layerize', 1_017_000, 250),
      phase(WORKER, 'Paint', 1_006_000, 600), phase(OTHER, 'Layout', 1_002_000, 3000), phase(MAIN, 'Layout', 1_031_000, 4000),
      // Key 2 at 2,000,000 µs, painted 10 ms later: main 1 ms; a task from before the key is not counted.
      task(MAIN, 1_990_000, 7000), keydown(2_000_000), task(MAIN, 2_002_000, 1000),
    ],
  });
}

describe('keystroke CPU from a trace', () => {
  it('sums the thread time of the main thread and the workers between each keydown and its frame', () => {
    // The page clock is offset from the trace clock: only differences matter.
    const keys = [{ t0: 500, painted: 520 }, { t0: 1500, painted: 1510 }];
    const cpu = keystrokeCpu(trace(), keys);
    assert.deepEqual(cpu.map(({ main, worker }) => ({ main, worker })), [{ main: 7, worker: 2 }, { main: 1, worker: 0 }]);
  });

  it('sums the main thread\'s style, layout and paint within each key, a nested event once', () => {
    const keys = [{ t0: 500, painted: 520 }, { t0: 1500, painted: 1510 }];
    const cpu = keystrokeCpu(trace(), keys);
    assert.deepEqual(cpu.map(({ style, layout, paint }) => ({ style, layout, paint })),
      [{ style: 0.25, layout: 1.5, paint: 0.875 }, { style: 0, layout: 0, paint: 0 }]);
  });

  it('gives null when the keydowns do not pair one to one with the keys', () => {
    assert.equal(keystrokeCpu(trace(), [{ t0: 0, painted: 10 }]), null);
  });
});
