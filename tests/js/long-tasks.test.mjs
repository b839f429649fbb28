// bench/long-tasks.mjs reads a Chromium trace: only the page renderer's main-thread tasks count,
// a task nested in another (two trace categories record the same one) counts once, wall time is
// `dur` and thread time `tdur`, a window keeps the tasks that start inside it, and a task that ran a
// DevTools session's message (the bench's own evaluation) is reported apart, and the main thread's
// tasks that took a worker's message (HandlePostMessage inside) are summed apart too. A made-up
// trace whose every rule changes the answer if broken.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { longTasks, readTrace } from '../../bench/long-tasks.mjs';

const MAIN = { pid: 1, tid: 10 };
const task = (ts, dur, tdur, where = MAIN, name = 'RunTask') => ({ ph: 'X', name, ts, dur, tdur, ...where });
const trace = {
  traceEvents: [
    { ph: 'M', name: 'thread_name', args: { name: 'CrRendererMain' }, ...MAIN },
    { ph: 'M', name: 'thread_name', args: { name: 'CrRendererMain' }, pid: 2, tid: 20 },
    { name: 'TracingStartedInBrowser', args: { data: { frames: [{ processId: 1 }] } } },
    task(1000, 80000, 30000),                        // long by wall time only: the thread waited
    task(1500, 60000, 25000, MAIN, 'ThreadControllerImpl::RunTask'), // nested in the one above
    task(200000, 70000, 65000),                      // long by both
    task(400000, 20000, 20000),                      // short
    task(500000, 90000, 90000, { pid: 2, tid: 20 }), // another renderer's
    task(600000, 60000, 12000),                      // the bench's: a DevTools message inside
    { ph: 'X', name: 'Receive mojo message', ts: 600100, dur: 59000, ...MAIN,
      args: { chrome_mojo_event_info: { mojo_interface_tag: 'blink.mojom.DevToolsSession' } } },
    { ph: 'X', name: 'Receive mojo message', ts: 700100, dur: 100, pid: 2, tid: 20,
      args: { chrome_mojo_event_info: { mojo_interface_tag: 'blink.mojom.DevToolsSession' } } }, // not the page's thread
    { ph: 'R', cat: 'blink.user_timing', name: 'mark', ts: 150000 },
    // Worker messages taken by two of the page's main-thread tasks; others taken elsewhere.
    { ph: 'X', name: 'HandlePostMessage', ts: 200500, dur: 60000, ...MAIN },
    { ph: 'X', name: 'HandlePostMessage', ts: 400500, dur: 10000, ...MAIN },
    { ph: 'X', name: 'HandlePostMessage', ts: 500500, dur: 80000, pid: 2, tid: 20 }, // another renderer's
    { ph: 'X', name: 'HandlePostMessage', ts: 100600, dur: 1000, pid: 1, tid: 11 },  // a worker's
    // Two workers of the page's renderer, whose tasks overlap each other's; one of another renderer.
    { ph: 'M', name: 'thread_name', args: { name: 'DedicatedWorker thread' }, pid: 1, tid: 11 },
    { ph: 'M', name: 'thread_name', args: { name: 'DedicatedWorker thread' }, pid: 1, tid: 12 },
    { ph: 'M', name: 'thread_name', args: { name: 'DedicatedWorker thread' }, pid: 2, tid: 21 },
    task(100000, 120000, 110000, { pid: 1, tid: 11 }),
    task(100500, 100000, 90000, { pid: 1, tid: 11 }, 'ThreadControllerImpl::RunTask'), // nested
    task(150000, 55000, 54000, { pid: 1, tid: 12 }),  // inside the other worker's task: counts
    task(300000, 10000, 10000, { pid: 1, tid: 12 }),
    task(300000, 99000, 99000, { pid: 2, tid: 21 }),  // another renderer's worker
  ],
};

test('the page renderer\'s outermost tasks, wall and thread time, and the marks', () => {
  const { tasks, marks } = readTrace(JSON.stringify(trace));
  assert.deepEqual(tasks, [{ start: 1000, ms: 80, cpuMs: 30, harness: false, message: false },
    { start: 200000, ms: 70, cpuMs: 65, harness: false, message: true }, { start: 400000, ms: 20, cpuMs: 20, harness: false, message: true },
    { start: 600000, ms: 60, cpuMs: 12, harness: true, message: false }]);
  assert.deepEqual(marks, { mark: 150000 });
});

test('the page\'s workers\' outermost tasks, each thread on its own, none of them the bench\'s', () => {
  const { workerTasks } = readTrace(JSON.stringify(trace));
  assert.deepEqual(workerTasks, [{ start: 100000, ms: 120, cpuMs: 110, harness: false }, { start: 150000, ms: 55, cpuMs: 54, harness: false },
    { start: 300000, ms: 10, cpuMs: 10, harness: false }]);
  assert.deepEqual(longTasks(workerTasks).all, [120, 55]);
});

test('long tasks by wall time and by thread time, within a window', () => {
  const { tasks } = readTrace(JSON.stringify(trace));
  const none = { harnessCount: 0, harnessLongestMs: 0 };
  const bench = { harnessCount: 1, harnessLongestMs: 60 };
  const both = { messages: { count: 2, longestCpuMs: 65, longestMs: 70, cpuTotalMs: 85 } };
  const one = { messages: { count: 1, longestCpuMs: 20, longestMs: 20, cpuTotalMs: 20 } };
  assert.deepEqual(longTasks(tasks), { count: 2, longestMs: 80, totalMs: 150, all: [80, 70], cpuCount: 1, longestCpuMs: 65, cpuTotalMs: 115, ...bench, ...both });
  assert.deepEqual(longTasks(tasks, 150000, 500000), { count: 1, longestMs: 70, totalMs: 70, all: [70], cpuCount: 1, longestCpuMs: 65, cpuTotalMs: 85, ...none, ...both });
  assert.deepEqual(longTasks(tasks, 300000), { count: 0, longestMs: 0, totalMs: 0, all: [], cpuCount: 0, longestCpuMs: 20, cpuTotalMs: 20, ...bench, ...one });
});
