// bench/long-tasks.mjs reads a Chromium trace: only the page renderer's main-thread tasks count,
// a task nested in another (two trace categories record the same one) counts once, wall time is
// `dur` and thread time `tdur`, and a window keeps the tasks that start inside it. A made-up trace
// whose every rule changes the answer if broken.
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
    { ph: 'R', cat: 'blink.user_timing', name: 'mark', ts: 150000 },
  ],
};

test('the page renderer\'s outermost tasks, wall and thread time, and the marks', () => {
  const { tasks, marks } = readTrace(JSON.stringify(trace));
  assert.deepEqual(tasks, [{ start: 1000, ms: 80, cpuMs: 30 }, { start: 200000, ms: 70, cpuMs: 65 }, { start: 400000, ms: 20, cpuMs: 20 }]);
  assert.deepEqual(marks, { mark: 150000 });
});

test('long tasks by wall time and by thread time, within a window', () => {
  const { tasks } = readTrace(JSON.stringify(trace));
  assert.deepEqual(longTasks(tasks), { count: 2, longestMs: 80, totalMs: 150, all: [80, 70], cpuCount: 1, longestCpuMs: 65, cpuTotalMs: 115 });
  assert.deepEqual(longTasks(tasks, 150000), { count: 1, longestMs: 70, totalMs: 70, all: [70], cpuCount: 1, longestCpuMs: 65, cpuTotalMs: 85 });
  assert.deepEqual(longTasks(tasks, 300000), { count: 0, longestMs: 0, totalMs: 0, all: [], cpuCount: 0, longestCpuMs: 20, cpuTotalMs: 20 });
});
