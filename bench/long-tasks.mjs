// Main-thread tasks over 50 ms on the default page, read from a Chromium trace (every task the
// renderer's main thread ran, as Lighthouse reads them; the Long Tasks API would miss none of
// these but reports no task it cannot attribute to the page, and a trace also sees the ones during
// navigation). Three windows, at 1280 × 800:
//   load:   navigation of the default link → idle (trained heads in every lane, the first
//           analyses done, then 1 s without input, or --settle MS);
//   typing: typing up to 512 tokens, one key every 60 ms for 3 s (the text filled first, unmeasured);
//   pause:  from the last key until the analyses that follow the pause have finished, plus 500 ms.
//   node bench/long-tasks.mjs [--out FILE] [--throttle RATE] [--dist DIR] [--settle MS]
// --throttle RATE applies CDP Emulation.setCPUThrottlingRate (4 is Lighthouse's mobile preset).
// --dist DIR serves another build (default dist/), e.g. a copy of an earlier commit's. --settle MS:
// how long the load window goes on once the page is quiet (default 1000), to take in what the
// page leaves for its first idle moments.
// Each window also reports its tasks' thread time (the trace's CPU time of the task, tdur): on a
// machine shared with other work a task's wall time includes the time its thread waited for a
// core, and the thread time says how much of a long task was the page's own work.
// The load window is watched without Playwright's page helpers: their first call in a new document
// injects Playwright's utility script (about 330 KB), which Chromium evaluates in one main-thread
// task of 40–90 ms here, a task of the bench's and not the page's. The waits there poll with
// CDP's Runtime.evaluate instead (a task well under 1 ms each). Any task that runs a DevTools
// message is the bench's own: it is left out of the counts and reported apart (harness*).
// Each window also reports the main-thread tasks that took a message from the page's worker
// (`messages`: how many, the longest by thread time with its wall time, and their thread time in
// all): there the page applies what its worker computed, the first view's among them.
// Each window also lists the page's workers' tasks over 50 ms (`workers`, the same fields; the
// lab worker's and any other dedicated worker of the page's renderer): the main thread does not
// wait for them, but a keystroke's compute sent meanwhile does.
// Prints one JSON line per window; --out writes { runtime, throttle, results } for bench/report.mjs.
import { writeFile } from 'node:fs/promises';
import { browserSettled } from './settle.mjs';
import { outermost, pageMainThread } from './trace-events.mjs';
import { launchChromium, serveDir, closeServer, assertNothingCompressed, trainedHeadsShown } from '../tests/e2e/browser.mjs';
import { TYPED, TYPING_ON, sentence, startingTokens } from './keystroke-text.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args.splice(i, 2)[1] : fallback;
};
const OUT = option('--out', null);
const THROTTLE = Number(option('--throttle', '1'));
const DIST = option('--dist', undefined);
const SETTLE_MS = Number(option('--settle', '1000'));
if (!(SETTLE_MS >= 0)) throw new RangeError(`--settle: milliseconds ≥ 0, got ${SETTLE_MS}`);
if (!(THROTTLE >= 1)) throw new RangeError(`--throttle: a rate ≥ 1, got ${THROTTLE}`);
const LONG_MS = 50;
const N = 512;
// What the trace records: the tasks (toplevel, devtools.timeline), the marks that split windows
// (blink.user_timing) and the thread and process names (__metadata, always on).
const CATEGORIES = ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing', '__metadata'];

/**
 * A trace's main-thread tasks of the page's renderer → [{ start (µs, trace clock), ms, cpuMs,
 * harness, message }], its dedicated workers' tasks (workerTasks, alike without message, harness
 * false) and the user-timing
 * marks → { name: ts }. The page's renderer is the process of the
 * trace's main frame (TracingStartedInBrowser), else the CrRendererMain thread that ran the most
 * task time. harness: the task received a DevTools session's message (the bench's own evaluation,
 * not the page's work).
 */
export function readTrace(json) {
  const events = JSON.parse(json).traceEvents ?? [];
  const tasks = events.filter((e) => e.ph === 'X' && (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask') && e.dur != null);
  const main = pageMainThread(events);
  const marks = {};
  for (const e of events) if (e.cat?.includes('blink.user_timing') && (e.ph === 'R' || e.ph === 'I' || e.ph === 'n' || e.ph === 'b')) marks[e.name] ??= e.ts;
  const onMain = outermost(tasks.filter((t) => t.pid === main.pid && t.tid === main.tid));
  // Whether a main-thread task ran one of the main thread's events that `is` picks.
  const ranOne = (is) => {
    const inner = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && is(e));
    return (t) => inner.some((e) => e.ts >= t.ts && e.ts < t.ts + t.dur);
  };
  const harness = ranOne((e) => /DevToolsSession/.test(e.args?.chrome_mojo_event_info?.mojo_interface_tag ?? ''));
  const message = ranOne((e) => e.name === 'HandlePostMessage');
  const row = (t) => ({ start: t.ts, ms: t.dur / 1000, cpuMs: (t.tdur ?? t.dur) / 1000, harness: harness(t) });
  // Each worker thread's outermost tasks (tasks of two threads overlap without nesting).
  const workerThreads = events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.pid === main.pid &&
    /^DedicatedWorker/.test(e.args?.name ?? '')).map((e) => e.tid);
  const workerTasks = workerThreads.flatMap((tid) => outermost(tasks.filter((t) => t.pid === main.pid && t.tid === tid)))
    .map((t) => ({ ...row(t), harness: false })).sort((a, b) => a.start - b.start);
  return { tasks: onMain.map((t) => ({ ...row(t), message: message(t) })), workerTasks, marks };
}

/**
 * The page's tasks over LONG_MS starting in [from, to) (µs) → { count, longestMs, totalMs, all }, by
 * wall time, and { cpuCount, longestCpuMs, cpuTotalMs } by thread time (of every task in the
 * window; cpuTotalMs, their sum, is the page's main-thread work, which waits for a core do not
 * inflate); the bench's own tasks (harness) apart: { harnessCount, harnessLongestMs }.
 */
export function longTasks(tasks, from = -Infinity, to = Infinity) {
  const inWindow = tasks.filter((t) => t.start >= from && t.start < to);
  const harness = inWindow.filter((t) => t.harness).map((t) => t.ms);
  const within = inWindow.filter((t) => !t.harness);
  const long = within.filter((t) => t.ms > LONG_MS).map((t) => t.ms);
  const cpu = within.map((t) => t.cpuMs ?? t.ms);
  const messages = within.filter((t) => t.message);
  const longestMessage = messages.reduce((a, t) => (a && a.cpuMs >= t.cpuMs ? a : t), null);
  return {
    count: long.length,
    longestMs: long.length ? Math.max(...long) : 0,
    totalMs: long.reduce((s, x) => s + x, 0),
    all: long.sort((a, b) => b - a).map((x) => Math.round(x)),
    cpuCount: cpu.filter((x) => x > LONG_MS).length,
    longestCpuMs: cpu.length ? Math.max(...cpu) : 0,
    cpuTotalMs: cpu.reduce((s, x) => s + x, 0),
    harnessCount: harness.length,
    harnessLongestMs: harness.length ? Math.max(...harness) : 0,
    // Main-thread rows only (a worker's tasks take no message from a worker).
    ...(tasks.some((t) => 'message' in t) ? { messages: {
      count: messages.length,
      longestCpuMs: longestMessage?.cpuMs ?? 0,
      longestMs: longestMessage?.ms ?? 0,
      cpuTotalMs: messages.reduce((sum, t) => sum + t.cpuMs, 0),
    } } : {}),
  };
}

/**
 * Waits until fn(arg), run in the page's main world through CDP's Runtime.evaluate, is true
 * (polled every 100 ms; a document being replaced answers with an error, which counts as not yet).
 */
export async function waitInPage(cdp, fn, arg, timeout) {
  const expression = `(${fn})(${JSON.stringify(arg ?? null)})`;
  const until = Date.now() + timeout;
  for (;;) {
    const answer = await cdp.send('Runtime.evaluate', { expression, returnByValue: true }).catch(() => null);
    if (answer?.result?.value === true) return;
    if (Date.now() > until) throw new Error(`waitInPage: ${fn.name || 'the condition'} still false after ${timeout} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const engineQuiet = (n) => {
  const text = document.getElementById('engine').textContent;
  return (n == null || new RegExp(`n = ${n},`).test(text)) && /analyses/.test(text) && !text.includes('…');
};

async function main() {
  // Compressed ahead, as a static host serves it (scripts/serve.mjs, precompress).
  const { server, baseUrl } = await serveDir(DIST, { precompress: true });
  const browser = await launchChromium();
  await browserSettled(); // Chromium's own start-up work done first (settle.mjs)
  const results = [];
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    if (THROTTLE > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLE });
    const timeout = 120000 * THROTTLE;

    // Load: the default link, as a reader opens it.
    await browser.startTracing(page, { categories: CATEGORIES });
    await page.goto(`${baseUrl}index.html`);
    await waitInPage(cdp, trainedHeadsShown, false, timeout);
    await waitInPage(cdp, engineQuiet, null, timeout);
    await page.waitForTimeout(SETTLE_MS);
    const load = readTrace((await browser.stopTracing()).toString());
    results.push({ window: 'load', ...longTasks(load.tasks), workers: longTasks(load.workerTasks) });

    // Typing up to 512 tokens (not past the page's cut, where a key computes nothing), then the
    // pause after it.
    const box = page.locator('#sentence');
    const start = startingTokens(N, TYPING_ON.keys);
    await box.fill(sentence(start));
    await page.waitForFunction(engineQuiet, start, { timeout });
    await page.waitForTimeout(500);
    await box.focus();
    await page.keyboard.press('End');
    await browser.startTracing(page, { categories: CATEGORIES });
    await page.evaluate(() => performance.mark('typing-start'));
    const started = Date.now();
    for (let i = 0; Date.now() - started < TYPING_ON.ms && i < TYPING_ON.keys; i++) {
      await page.keyboard.type(TYPED[i % TYPED.length]);
      await page.waitForTimeout(TYPING_ON.everyMs);
    }
    await page.evaluate(() => performance.mark('typing-end'));
    await page.waitForFunction(engineQuiet, null, { timeout });
    await page.waitForTimeout(500);
    const typed = readTrace((await browser.stopTracing()).toString());
    const { 'typing-start': t0, 'typing-end': t1 } = typed.marks;
    if (t0 == null || t1 == null) throw new Error('the trace lost the typing marks (blink.user_timing)');
    results.push({ window: 'typing', ...longTasks(typed.tasks, t0, t1), workers: longTasks(typed.workerTasks, t0, t1) });
    results.push({ window: 'pause', ...longTasks(typed.tasks, t1), workers: longTasks(typed.workerTasks, t1) });
    assertNothingCompressed(server);
    for (const row of results) console.log(JSON.stringify({ throttle: THROTTLE, ...row }));
    if (OUT) await writeFile(OUT, JSON.stringify({ runtime: `Chromium ${browser.version()} (headless)`, throttle: THROTTLE, settleMs: SETTLE_MS, build: DIST ?? 'dist/', results }, null, 1));
  } finally {
    await browser.close();
    await closeServer(server);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
