// bench/trace-events.mjs: the outermost of nesting trace events (each counted once, the longer
// first at a tie), and the page's renderer main thread (the main frame's process, else the
// CrRendererMain that ran the longest tasks). Made-up events whose every rule changes the answer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { outermost, pageMainThread } from '../../bench/trace-events.mjs';

const at = (ts, dur, name = 'e') => ({ ph: 'X', name, ts, dur });

test('outermost keeps each event not inside a kept one, in start order', () => {
  const a = at(100, 50, 'a');
  const inner = at(120, 10, 'inner');      // inside a
  const tie = at(100, 20, 'tie');          // starts with a, shorter: inside it
  const b = at(150, 30, 'b');              // starts as a ends: not inside
  const c = at(170, 5, 'c');               // inside b
  const d = at(400, 1, 'd');
  assert.deepEqual(outermost([d, c, inner, b, tie, a]).map((e) => e.name), ['a', 'b', 'd']);
  assert.deepEqual(outermost([]), []);
});

const names = (...threads) => threads.map(([pid, tid, name]) => ({ ph: 'M', name: 'thread_name', pid, tid, args: { name } }));
const task = (pid, tid, dur) => ({ ph: 'X', name: 'ThreadControllerImpl::RunTask', pid, tid, ts: 0, dur });

test("the page's main thread: the main frame's process first, else the busiest renderer main", () => {
  const threads = names([1, 10, 'CrRendererMain'], [2, 20, 'CrRendererMain'], [2, 21, 'Compositor']);
  const busySecond = [task(1, 10, 5), task(2, 20, 50), task(2, 21, 500)];
  // Named by the trace: the main frame's renderer even though the other one ran longer.
  const started = { name: 'TracingStartedInBrowser', args: { data: { frames: [{ processId: 1 }] } } };
  assert.deepEqual(pageMainThread([...threads, ...busySecond, started]), { pid: 1, tid: 10 });
  // Not named: the main thread with the most task time (a compositor's time does not count).
  assert.deepEqual(pageMainThread([...threads, ...busySecond]), { pid: 2, tid: 20 });
  assert.throws(() => pageMainThread([task(1, 10, 5)]), /no renderer main thread/);
});
