// Frames while the Train section trains its default schemes (dist/index.html, headless
// Chromium): the "the page keeps painting at 60 fps while training, frame p95 ≤ 16.7 ms".
//   node bench/train-frames.mjs [--out FILE] [--seconds S] [--schemes a,b,c]   (default 10 s, DEFAULTS.schemes)
// Opens the page with its defaults (GloVe lanes, Train: book, web/train/config.js's DEFAULTS.schemes,
// tiny), scrolls the loss chart into view, presses Train, times the first visible curve (a scheme
// at BIN steps) and all of them, then records for a fixed window the
// requestAnimationFrame intervals and the long tasks (> 50 ms on the main thread) while the
// curves update, the same before pressing Train (the idle control: a loaded machine shows there),
// and the main thread's time in the section's paints (web/train/panel.js's `train-paint`
// measures). Prints one JSON line; --out writes { runtime, results } for bench/report.mjs
// (./scripts/bench does).
import { readFile, writeFile } from 'node:fs/promises';
import { launchChromium, serveDir, closeServer } from '../tests/e2e/browser.mjs';
import { BIN, DEFAULTS } from '../dist/train/config.js';

const args = process.argv.slice(2);
const option = (name, fallback) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : fallback; };
const OUT = option('--out', null);
const SECONDS = Number(option('--seconds', 10));
const VSYNC_MS = 1000 / 60;
// --schemes a,b,c: another set than the defaults (e.g. a before/after comparison of the default).
const SCHEMES = option('--schemes', DEFAULTS.schemes.join(',')).split(',');
const COUNT = SCHEMES.length;

const quantile = (xs, q) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(q * s.length))]; };
const steps = (lines) => lines.map((l) => Number(/step (\d+)/.exec(l)?.[1] ?? NaN));

const intervals = ({ frames }) => frames.slice(1).map((t, i) => t - frames[i]);

// In the page: requestAnimationFrame timestamps, long-task durations and `train-paint` measure
// durations over `seconds`.
async function recordFrames(seconds) {
  const frames = [];
  const long = [];
  const paints = [];
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.entryType === 'longtask') long.push(e.duration);
      else if (e.name === 'train-paint') paints.push(e.duration);
    }
  });
  observer.observe({ entryTypes: ['longtask', 'measure'] });
  let stop = false;
  const tick = (t) => { frames.push(t); if (!stop) requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  stop = true;
  observer.disconnect();
  return { frames, long, paints };
}

const { server, baseUrl } = await serveDir();
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  // A step budget no run reaches within the window: an idle machine finishes the default 600 steps
  // in seconds, and a finished run would leave the window measuring nothing.
  const schemes = SCHEMES.join() === DEFAULTS.schemes.join() ? '' : `&t.schemes=${SCHEMES.join()}`;
  await page.goto(`${baseUrl}index.html#t.steps=20000${schemes}`);
  await page.waitForFunction(() => /last recompute/.test(document.getElementById('engine').textContent), null, { timeout: 60000 });
  const train = page.locator('#train');
  // The section is built as a reader nears it: scrolled to first, then to its loss chart once built.
  await train.scrollIntoViewIfNeeded();
  await train.getByRole('img', { name: /^Loss/ }).scrollIntoViewIfNeeded();
  // The control: the same window with nothing training, so a loaded machine shows as such.
  const idle = await page.evaluate(recordFrames, SECONDS);
  // Time to the first visible curve: from the click until a status line (painted with the chart)
  // reports BIN steps, the first point of a training curve; then until all of them do.
  const clicked = Date.now();
  await train.getByRole('button', { name: 'Train', exact: true }).click();
  const stepsReach = (n, every) => page.waitForFunction(([n, every, count]) => {
    const lines = [...document.querySelectorAll('#train .train-status-line')];
    const reached = lines.filter((l) => Number(/step (\d+)/.exec(l.textContent)?.[1] ?? 0) >= n);
    return lines.length === count && (every ? reached.length === count : reached.length > 0);
  }, [n, every, COUNT], { timeout: 120000, polling: 50 });
  await stepsReach(BIN, false);
  const firstCurveMs = Date.now() - clicked;
  await stepsReach(BIN, true);
  const allCurvesMs = Date.now() - clicked;
  const before = steps(await train.locator('.train-status-line').allTextContents());
  const training = await page.evaluate(recordFrames, SECONDS);
  const after = steps(await train.locator('.train-status-line').allTextContents());
  const stillTraining = await train.getByRole('button', { name: 'Pause', exact: true }).count() > 0;
  if (stillTraining) await train.getByRole('button', { name: 'Pause', exact: true }).click();
  const gaps = intervals(training);
  const idleGaps = intervals(idle);
  const row = {
    bench: 'train-frames', seconds: SECONDS, schemes: COUNT, cores: await page.evaluate(() => navigator.hardwareConcurrency),
    firstCurveMs, allCurvesMs, stillTraining, frames: gaps.length,
    frameP50: quantile(gaps, 0.5), frameP95: quantile(gaps, 0.95), frameP99: quantile(gaps, 0.99), frameMax: Math.max(...gaps),
    // A frame that missed its vsync slot shows up as an interval of two slots or more.
    framesOver16_7: gaps.filter((g) => g > 1.5 * VSYNC_MS).length,
    longTasks: training.long.length, longTaskMax: training.long.length ? Math.max(...training.long) : 0,
    idleFrameP50: quantile(idleGaps, 0.5), idleFrameP95: quantile(idleGaps, 0.95), idleFrameP99: quantile(idleGaps, 0.99),
    idleLongTasks: idle.long.length,
    loadAverage: (await readFile('/proc/loadavg', 'utf8').catch(() => '')).split(' ')[0],
    paints: training.paints.length, paintMedianMs: training.paints.length ? quantile(training.paints, 0.5) : null,
    paintMaxMs: training.paints.length ? Math.max(...training.paints) : null,
    stepsPerSecond: after.map((s, i) => (s - before[i]) / SECONDS),
  };
  console.log(JSON.stringify(row));
  if (OUT) await writeFile(OUT, JSON.stringify({ runtime: `Chromium ${browser.version()} (headless)`, results: [row] }, null, 1));
} finally {
  await browser.close();
  await closeServer(server);
}
