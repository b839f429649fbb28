// A long text pasted into the default page with trained heads, in headless Chromium: how soon its
// lanes show, how long a key typed right after waits, and how long the lab worker's tasks get.
//   node bench/paste.mjs [--reps N] [--baseline DIR] [--out FILE] [n]   (default 5 rounds, n = 462)
// A round opens the default link in a browser of its own (1280 × 800), waits until the three
// lanes show their trained maps and the analyses have ended, then replaces the sentence with n
// tokens in one input event, as a paste makes, and 30 ms later adds a word (a key typed during
// the paste's work). Per round, from a Chromium trace and the page's own clock:
//   viewMs      paste → the readout names the n tokens (the view applied);
//   keyViewMs   the added word's input event → the readout names n + 1 tokens;
//   mapsMs      paste → every trained lane shows its map of the final words (data-state ready);
//   workerLongestMs, mainLongestMs  the lab worker's and the page's main thread's longest task from
//               the paste until then (wall time; the main thread's while it applies the views).
// Medians over the rounds are printed; --baseline DIR serves another build's dist/ (a copy of an
// earlier commit's) in rounds alternating with this one's; --out writes every round.
import { writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { launchChromium, serveDir, closeServer } from '../tests/e2e/browser.mjs';
import { sentence } from './keystroke-text.mjs';
import { comparedBuilds, comparisonOptions, median } from './options.mjs';
import { pageMainThread } from './trace-events.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const { reps: REPS, baseline: BASELINE, out: OUT, operands } = comparisonOptions(process.argv.slice(2), 5);
const N = Number(operands[0] ?? 462);
if (!Number.isInteger(N) || N < 2 || N > 511) throw new RangeError(`n: an integer from 2 to 511, got ${operands[0]}`);
const KEY_AFTER_MS = 30;

// In the page: the paste, the word typed after it, and when each shows (a MutationObserver on the
// readout and the lanes' states; no polling, which would give the page frames of the bench's own).
async function pasteInPage([text, n, keyAfterMs]) {
  const box = document.getElementById('sentence');
  const engine = document.getElementById('engine');
  const names = (count) => new RegExp(`n = ${count}\\b`).test(engine.dataset.view ?? ''); // each view's line (app.js)
  const ready = () => [...document.querySelectorAll('#lanes .trained-box')].every((b) => b.dataset.state === 'ready');
  const t0 = performance.now();
  const at = { view: null, key: null, keyView: null, maps: null };
  const done = new Promise((resolve) => {
    new MutationObserver((_, observer) => {
      const now = performance.now() - t0;
      if (at.view === null && names(n)) at.view = now;
      if (at.key !== null && at.keyView === null && names(n + 1)) at.keyView = now;
      if (at.keyView !== null && ready()) {
        at.maps = now;
        observer.disconnect();
        resolve();
      }
    }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['data-state', 'data-view'] });
  });
  const input = (value, inputType, data = null) => {
    box.value = value;
    box.dispatchEvent(new InputEvent('input', { bubbles: true, inputType, data }));
  };
  box.focus();
  input(text, 'insertFromPaste');
  await new Promise((resolve) => setTimeout(resolve, keyAfterMs));
  at.key = performance.now() - t0;
  input(`${text} whale`, 'insertText', ' whale');
  await Promise.race([done, new Promise((resolve) => setTimeout(resolve, 20000))]);
  return at;
}

async function round(browser, baseUrl) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    await page.goto(`${baseUrl}index.html`);
    await page.waitForFunction(() => /analyses/.test(document.getElementById('engine').textContent) &&
      [...document.querySelectorAll('#lanes .trained-box')].filter((b) => b.dataset.state === 'ready').length === 3, null, { timeout: 60000 });
    await page.waitForTimeout(1500);
    await browser.startTracing(page, { categories: ['toplevel', '__metadata', 'devtools.timeline'] });
    const at = await page.evaluate(pasteInPage, [sentence(N), N, KEY_AFTER_MS]);
    const events = JSON.parse((await browser.stopTracing()).toString()).traceEvents;
    if (at.maps === null) throw new Error(`paste: the trained maps of ${N + 1} tokens did not come within 20 s`);
    const names = new Map(events.filter((e) => e.ph === 'M' && e.name === 'thread_name').map((e) => [`${e.pid}:${e.tid}`, e.args.name]));
    // The page's renderer: its main thread and its worker.
    const main = pageMainThread(events);
    const longest = (thread) => Math.max(0, ...events.filter((e) => e.ph === 'X' && e.name === 'ThreadControllerImpl::RunTask' &&
      e.pid === main.pid && thread(e)).map((e) => e.dur / 1000));
    const tenths = (ms) => Math.round(ms * 10) / 10;
    return { viewMs: tenths(at.view), keyViewMs: tenths(at.keyView - at.key), mapsMs: tenths(at.maps),
      workerLongestMs: tenths(longest((e) => names.get(`${e.pid}:${e.tid}`) === 'DedicatedWorker thread')),
      mainLongestMs: tenths(longest((e) => e.tid === main.tid)) };
  } finally {
    await context.close();
  }
}

const builds = comparedBuilds(ROOT, BASELINE);
const served = await Promise.all(builds.map((b) => serveDir(b.dist, { precompress: true })));
const started = { at: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC', load: loadavg()[0] };
const rounds = builds.map(() => []);
try {
  for (let r = 0; r < REPS; r++) {
    for (let i = 0; i < builds.length; i++) {
      const browser = await launchChromium();
      try {
        rounds[i].push(await round(browser, served[i].baseUrl));
      } finally {
        await browser.close();
      }
    }
  }
} finally {
  await Promise.all(served.map((s) => closeServer(s.server)));
}
const result = {};
for (const [i, { name, dist }] of builds.entries()) {
  const medians = Object.fromEntries(['viewMs', 'keyViewMs', 'mapsMs', 'workerLongestMs', 'mainLongestMs'].map((k) => [k, median(rounds[i].map((x) => x[k]))]));
  result[name] = { dist, n: N, reps: REPS, ...medians, rounds: rounds[i] };
  console.log(`paste ${name}, n = ${N}: view ${medians.viewMs} ms, a key typed ${KEY_AFTER_MS} ms after: its view ${medians.keyViewMs} ms, ` +
    `every trained map ${medians.mapsMs} ms, the longest task ${medians.workerLongestMs} ms in the worker and ${medians.mainLongestMs} ms on the main thread ` +
    `(medians of ${REPS} rounds)`);
}
if (OUT) {
  await writeFile(OUT, `${JSON.stringify({ date: started.at, loadAtStart: started.load, cpus: cpus().length, cpu: cpus()[0]?.model,
    node: process.version, keyAfterMs: KEY_AFTER_MS, result }, null, 1)}\n`);
}
