// First load over a slow link: the default page (dist/index.html) in headless Chromium with the
// cache off, served through a link of 10 Mbit/s down and 40 ms latency (bench/throttled-link.mjs:
// every request the browser makes shares it, the lab worker's included, and the bytes are counted
// as they cross it). Records, from navigation start:
//   - lanesPaint: the first recompute painted (the engine readout says "last recompute"), with
//     the bytes received by then;
//   - glove: GloVe loaded and the page recomputed with it (d = 100);
//   - trained: every default lane shows its trained head (or says no model ships for its scheme),
//     or null when the link asks for no trained heads;
//   - bytes: everything received by the end, and by kind (wasm, models, vectors, scripts, other);
//   - timeline (in --out's runs): each request in the order it reached the link, { path, range,
//     kind, asked, first, last (ms of the request, its first and last byte), bytes }, to see
//     whether a milestone waits on bytes, on an earlier request, or on the CPU after its bytes.
//   node bench/first-load.mjs [--out FILE] [--runs N] [--hash '#h=trained'] [--timeline] [--baseline DIR]
// --timeline prints each run's timeline to stderr. --baseline DIR: another build's dist/ (e.g. of
// an earlier commit), loaded before this one in each run, so a loaded machine's drift falls on
// both alike; the output is then { baseline, current }, each as above.
// (default 3 runs, each in a fresh context; the medians are printed.) --hash measures another link,
// e.g. the explicit trained-heads link of builds where identity heads were the default.
import { writeFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { browserSettled } from './settle.mjs';
import { DIST, launchChromium, serveDir, closeServer, assertNothingCompressed, trainedHeadsShown } from '../tests/e2e/browser.mjs';
import { throttledLink } from './throttled-link.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args.splice(i, 2)[1] : fallback;
};
const OUT = option('--out', null);
const RUNS = Number(option('--runs', 3));
const HASH = option('--hash', '');
const TIMELINE = args.includes('--timeline');
const BASELINE = option('--baseline', null);
const LINK = Object.freeze({ downloadMbit: 10, latencyMs: 40 });
const TIMEOUT_MS = 120000;

const median = (xs) => {
  const s = xs.filter((x) => x != null).sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)] : null;
};
const kindOf = (url) => {
  if (/\.wasm$/.test(url)) return 'wasm';
  if (/\/models\//.test(url)) return 'models';
  if (/\.i8$/.test(url)) return 'vectors';
  if (/\.m?js$/.test(url)) return 'scripts';
  return 'other';
};

async function oneRun(browser, serverPort) {
  // A fresh link per run, so no connection or queue carries over.
  const link = await throttledLink(serverPort, LINK);
  const baseUrl = `http://127.0.0.1:${link.port}/`;
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const t0 = performance.now();
  const since = () => Math.round(performance.now() - t0);
  await page.goto(`${baseUrl}index.html${HASH}`, { waitUntil: 'commit' });
  await page.waitForFunction(() => /last recompute/.test(document.getElementById('engine')?.textContent ?? ''), null, { timeout: TIMEOUT_MS, polling: 'raf' });
  const lanesPaint = since();
  const bytesBy = (ms) => link.deliveries.filter((d) => d.at - t0 <= ms).reduce((sum, d) => sum + d.bytes, 0);
  const bytesAtLanes = bytesBy(lanesPaint);
  await page.waitForFunction(() => /d = 100\)/.test(document.getElementById('engine').textContent), null, { timeout: TIMEOUT_MS, polling: 100 });
  const glove = since();
  // The lanes' trained heads: each lane slot says data-trained="ready" once its model's map shows;
  // lanes with no model say nothing. None asked for (identity heads) → null.
  const asked = await page.evaluate(() => document.getElementById('heads')?.value === 'trained');
  let trained = null;
  if (asked) {
    // Every lane's note says its trained map shows, or that no model ships for its scheme.
    await page.waitForFunction(trainedHeadsShown, false, { timeout: TIMEOUT_MS, polling: 100 });
    trained = since();
  }
  const bytesAtTrained = trained === null ? null : bytesBy(trained);
  await page.waitForTimeout(500);
  const byKind = {};
  for (const { bytes, path } of link.deliveries) byKind[kindOf(path)] = (byKind[kindOf(path)] ?? 0) + bytes;
  const bytes = link.deliveries.reduce((sum, d) => sum + d.bytes, 0);
  const timeline = timelineOf(link, t0);
  await context.close();
  await link.close();
  return { lanesPaint, bytesAtLanes, glove, trained, bytesAtTrained, bytes, byKind, timeline };
}

// Each request the link saw, with when its bytes crossed it (ms from navigation start).
function timelineOf(link, t0) {
  const ms = (at) => Math.round(at - t0);
  return link.requests.map(({ at, path, range }, i) => {
    const mine = link.deliveries.filter((d) => d.request === i);
    return {
      path, range, kind: kindOf(path), asked: ms(at),
      first: mine.length ? ms(mine[0].at) : null,
      last: mine.length ? ms(mine[mine.length - 1].at) : null,
      bytes: mine.reduce((sum, d) => sum + d.bytes, 0),
    };
  });
}

function printTimeline(run) {
  for (const r of run.timeline) {
    console.error(`  ${String(r.asked).padStart(6)} ${String(r.first).padStart(6)} ${String(r.last).padStart(6)} ms ` +
      `${String(r.bytes).padStart(8)} B  ${r.path}${r.range ? ` (${r.range})` : ''}`);
  }
}

const builds = [{ name: 'current', dir: DIST }, ...(BASELINE ? [{ name: 'baseline', dir: BASELINE }] : [])];
// Compressed ahead, as a static host serves them (scripts/serve.mjs, precompress).
for (const build of builds) build.server = (await serveDir(build.dir, { precompress: true })).server;
const browser = await launchChromium();
await browserSettled(); // Chromium's own start-up work done first (settle.mjs)
try {
  for (let r = 0; r < RUNS; r++) {
    for (const build of [...builds].reverse()) {  // the baseline first
      const run = await oneRun(browser, build.server.address().port);
      (build.runs ??= []).push(run);
      const { timeline, ...milestones } = run;
      console.error(`first-load: ${BASELINE ? `${build.name} ` : ''}run ${r + 1}/${RUNS}: ${JSON.stringify(milestones)}`);
      if (TIMELINE) printTimeline(run);
    }
  }
  for (const build of builds) assertNothingCompressed(build.server);
} finally {
  await browser.close();
  for (const build of builds) await closeServer(build.server);
}

// The medians of one build's runs.
function summary(runs) {
  const kinds = [...new Set(runs.flatMap((r) => Object.keys(r.byKind)))];
  return {
    link: LINK, hash: HASH, runs: runs.length,
    lanesPaintMs: median(runs.map((r) => r.lanesPaint)),
    bytesAtLanesPaint: median(runs.map((r) => r.bytesAtLanes)),
    gloveMs: median(runs.map((r) => r.glove)),
    trainedMs: median(runs.map((r) => r.trained)),
    bytesAtTrained: median(runs.map((r) => r.bytesAtTrained)),
    bytes: median(runs.map((r) => r.bytes)),
    bytesByKind: Object.fromEntries(kinds.map((k) => [k, median(runs.map((r) => r.byKind[k] ?? 0))])),
  };
}

const [current, baseline] = builds;
const result = BASELINE ? { baseline: summary(baseline.runs), current: summary(current.runs) } : summary(current.runs);
const runs = BASELINE ? { baseline: baseline.runs, current: current.runs } : current.runs;
console.log(JSON.stringify(result));
if (OUT) await writeFile(OUT, JSON.stringify({ result, runs }, null, 1));
