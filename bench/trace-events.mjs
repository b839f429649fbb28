// What the trace-reading benches share about a Chromium trace's events (Playwright's
// browser.stopTracing(), parsed): { ph, name, pid, tid, ts, dur (µs), tdur, args }.

/**
 * The events not nested in another kept one: sorted by start (the longer first at a tie), each
 * kept unless it starts before the last kept one ends. Tasks nest (a RunTask inside another, as
 * two trace categories record it), and so do calls (a font lookup may make a second one inside it,
 * a script callback another), so only the outermost count once.
 */
export function outermost(events) {
  const kept = [];
  for (const e of [...events].sort((a, b) => a.ts - b.ts || b.dur - a.dur)) {
    const last = kept.at(-1);
    if (last && e.ts < last.ts + last.dur) continue;
    kept.push(e);
  }
  return kept;
}

/**
 * The page's renderer main thread: { pid, tid } of the CrRendererMain in the process of the
 * trace's main frame (TracingStartedInBrowser), else the one that ran the longest tasks (the
 * browser may hold other renderers, e.g. a blank tab's). Throws when the trace has none.
 */
export function pageMainThread(events) {
  const mains = events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const started = events.find((e) => e.name === 'TracingStartedInBrowser')?.args?.data?.frames?.find((f) => !f.parent);
  let main = started && mains.find((m) => m.pid === started.processId);
  if (!main) {
    const tasks = events.filter((e) => e.ph === 'X' && (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask') && e.dur != null);
    const busy = (m) => tasks.filter((t) => t.pid === m.pid && t.tid === m.tid).reduce((s, t) => s + t.dur, 0);
    main = mains.sort((a, b) => busy(b) - busy(a))[0];
  }
  if (!main) throw new Error('the trace has no renderer main thread (CrRendererMain)');
  return { pid: main.pid, tid: main.tid };
}
