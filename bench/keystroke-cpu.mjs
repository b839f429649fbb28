// The CPU a keystroke costs, from a Chromium trace of the measured keystrokes (bench/keystroke.mjs
// --cpu): the thread time (a trace event's tdur, not its wall duration) of every task that started
// on the page's main thread and in its workers (the renderer process that dispatched the keys)
// between the keydown and the frame that showed the new view. Thread time does not grow while
// another process holds the core, so on a shared, loaded machine it still compares two builds
// where wall-clock medians are mostly waiting.
//
// keystrokeCpu(json, keys) → [{ main, worker }] ms per key, or null when the trace's keydowns do not
// pair one to one with keys. json: the trace (Playwright's browser.stopTracing()); keys: the
// bench's [{ t0, painted }] in the page's clock (performance.now() ms), in order.

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
  return keys.map((key, i) => {
    // The trace clock (µs) and the page's (ms) differ by an offset; the keydown pins it.
    const from = keydowns[i].ts;
    const to = from + (key.painted - key.t0) * 1000;
    const sum = (where) => tasks.filter((t) => t.ts >= from && t.ts <= to && where(t.where)).reduce((s, t) => s + t.ms, 0);
    return { main: sum((w) => w === 'CrRendererMain'), worker: sum((w) => /^DedicatedWorker/.test(w)) };
  });
}
