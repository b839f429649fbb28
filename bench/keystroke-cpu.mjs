// The CPU a keystroke costs, from a Chromium trace of the measured keystrokes (bench/keystroke.mjs
// --cpu): the thread time (a trace event's tdur, not its wall duration) of every task that started
// on the page's main thread and in its workers (the renderer process that dispatched the keys)
// between the keydown and the frame that showed the new view. Thread time does not grow while
// another process holds the core, so on a shared, loaded machine it still compares two builds
// where wall-clock medians are mostly waiting.
//
// keystrokeCpu(json, keys) → [{ main, worker, style, layout, paint }] ms per key, or null when the
// trace's keydowns do not pair one to one with keys. style, layout and paint are the main thread's
// part of it that the engine spent bringing style up to date (UpdateLayoutTree), laying out
// (Layout) and painting (PrePaint, Paint, Layerize), wherever the task that did it began: what the
// page's writes cost the engine, apart from the page's script. json: the trace (Playwright's
// browser.stopTracing()); keys: the bench's [{ t0, painted }] in the page's clock
// (performance.now() ms), in order.

import { outermost } from './trace-events.mjs';

export const CPU_CATEGORIES = ['toplevel', 'devtools.timeline', '__metadata'];

export function keystrokeCpu(json, keys) {
  const events = JSON.parse(json).traceEvents ?? [];
  const threadName = new Map();
  for (const e of events) if (e.ph === 'M' && e.name === 'thread_name') threadName.set(`${e.pid}:${e.tid}`, e.args?.name ?? '');
  const thread = (e) => threadName.get(`${e.pid}:${e.tid}`) ?? '';
  const keydowns = events.filter((e) => e.name === 'EventDispatch' && e.args?.data?.type === 'keydown' && thread(e) === 'CrRendererMain');
  if (keydowns.length !== keys.length) return null;
  // The page's renderer is the process whose main thread dispatched the keys; its workers run there too.
  const pid = keydowns[0]?.pid;
  const tasks = events.filter((e) => e.ph === 'X' && e.name === 'ThreadControllerImpl::RunTask' && e.pid === pid)
    .map((e) => ({ ts: e.ts, ms: (e.tdur ?? e.dur) / 1000, where: thread(e) }));
  const mainTid = keydowns[0]?.tid;
  // A layer's Paint nests in the document's: each phase's outermost events count, at their thread time.
  const phases = Object.fromEntries(Object.entries(PHASES).map(([phase, names]) => [phase, outermost(events.filter((e) =>
    e.ph === 'X' && e.pid === pid && e.tid === mainTid && names.includes(e.name))).map((e) => ({ ts: e.ts, ms: (e.tdur ?? e.dur) / 1000 }))]));
  return keys.map((key, i) => {
    // The trace clock (µs) and the page's (ms) differ by an offset; the keydown pins it.
    const from = keydowns[i].ts;
    const to = from + (key.painted - key.t0) * 1000;
    const within = (list) => list.filter((t) => t.ts >= from && t.ts <= to);
    const sum = (where) => within(tasks).filter((t) => where(t.where)).reduce((s, t) => s + t.ms, 0);
    const phase = (name) => within(phases[name]).reduce((s, t) => s + t.ms, 0);
    return { main: sum((w) => w === 'CrRendererMain'), worker: sum((w) => /^DedicatedWorker/.test(w)),
      ...Object.fromEntries(Object.keys(PHASES).map((name) => [name, phase(name)])) };
  });
}

// The engine's rendering phases on the main thread, by their trace events' names (each key's
// values carry them by these keys).
export const PHASES = { style: ['UpdateLayoutTree'], layout: ['Layout'], paint: ['PrePaint', 'Paint', 'Layerize'] };
