// The main thread's work in a first load at phone width: headless Chromium opens the default link
// at 412 × 823 (a phone's screen, 1.75 device pixels per CSS pixel, touch), served by
// scripts/serve.mjs with every file compressed ahead, and a trace of the page's renderer, until
// the analyses are in (the summary no longer busy), gives per load:
//   longestTaskMs: the longest main-thread task's thread time (the trace's tdur; its wall time
//     also counts waits for a core on a shared machine);
//   lookups, lookupWallMs: its FontCache::GetFontPlatformData calls (each size, weight and style
//     of text laid out is one, and on Linux each waits for a synchronous answer from the browser);
//   fallbacks: its FontCache::FallbackFontForCharacter calls (a character the font lacks, looked
//     up in the system's other fonts: also a synchronous answer from the browser on Linux);
//   canvases: canvas pixels handed to the compositor (Canvas2DResourceProvider::ProduceCanvasResource),
//     with updateLayersMs, the frames' time in LayerTreeHost::DoUpdateLayers, where they happen.
//   node bench/phone-load.mjs [--reps N] [--baseline DIR] [--out FILE] [--desktop]
// --desktop: the same load at 1280 × 800 (the first-minute issue's screen), where the first view
// lays out what a phone's screen leaves for later (the lanes' formulas among them).
// Each round is a fresh browser. --baseline DIR: another build's dist/, run round by round
// alternating with this one. Prints each number's median over the rounds.
import { writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { comparisonOptions, median } from './options.mjs';
import { PHONE } from './phone-screen.mjs';
import { outermost, pageMainThread } from './trace-events.mjs';
import { launchChromium, serveDir, closeServer, summaryAnalysed } from '../tests/e2e/browser.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const { reps: REPS, baseline: BASELINE, out: OUT, operands } = comparisonOptions(process.argv.slice(2), 5);
const DESKTOP = operands[0] === '--desktop';
if (operands.length > Number(DESKTOP)) throw new RangeError(`unknown arguments: ${operands.slice(Number(DESKTOP)).join(' ')}`);
const SCREEN = DESKTOP ? { viewport: { width: 1280, height: 800 } } : PHONE;
const LOOKUP = 'FontCache::GetFontPlatformData';

// One load of dist's page: → the numbers above, from the page's main thread.
async function round(baseUrl) {
  const browser = await launchChromium();
  try {
    const page = await browser.newPage(SCREEN);
    await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'fonts', 'cc', 'blink'] });
    await page.goto(baseUrl);
    await page.waitForFunction(summaryAnalysed, null, { timeout: 60000 });
    const { traceEvents } = JSON.parse((await browser.stopTracing()).toString());
    const { pid, tid } = pageMainThread(traceEvents);
    const on = (name) => traceEvents.filter((e) => e.name === name && e.ph === 'X' && e.pid === pid && e.tid === tid);
    const wall = (events) => events.reduce((s, e) => s + e.dur, 0) / 1000;
    const lookups = outermost(on(LOOKUP));
    return {
      longestTaskMs: Math.max(...on('RunTask').map((e) => (e.tdur ?? 0) / 1000)),
      lookups: lookups.length,
      lookupWallMs: wall(lookups),
      fallbacks: outermost(on('FontCache::FallbackFontForCharacter')).length,
      canvases: on('Canvas2DResourceProvider::ProduceCanvasResource').length,
      updateLayersMs: wall(outermost(on('LayerTreeHost::DoUpdateLayers'))),
    };
  } finally {
    await browser.close();
  }
}

const builds = [{ name: 'current', dist: join(ROOT, 'dist/') }];
if (BASELINE) builds.unshift({ name: 'baseline', dist: BASELINE });
for (const build of builds) Object.assign(build, { served: await serveDir(build.dist, { precompress: true }), rounds: [] });
try {
  for (let r = 0; r < REPS; r++) for (const build of builds) build.rounds.push(await round(build.served.baseUrl));
} finally {
  for (const build of builds) await closeServer(build.served.server);
}
const KEYS = ['longestTaskMs', 'lookups', 'lookupWallMs', 'fallbacks', 'canvases', 'updateLayersMs'];
const result = {};
for (const { name, dist, rounds } of builds) {
  const row = { dist, reps: REPS, ...Object.fromEntries(KEYS.map((key) => [key, median(rounds.map((x) => x[key]))])), rounds };
  result[name] = row;
  console.log(`phone-load ${name} (median of ${REPS} loads at ${SCREEN.viewport.width} × ${SCREEN.viewport.height}): longest task ${row.longestTaskMs.toFixed(1)} ms of thread time; ` +
    `${row.lookups} font lookups, ${row.lookupWallMs.toFixed(0)} ms wall, ${row.fallbacks} fallbacks; ${row.canvases} canvases to the compositor, ` +
    `${row.updateLayersMs.toFixed(1)} ms updating layers`);
}
if (BASELINE) {
  const { baseline, current } = result;
  console.log(`phone-load current / baseline: ${KEYS.map((key) => `${key} ${baseline[key] ? (current[key] / baseline[key]).toFixed(2) : `${current[key]} (baseline 0)`}`).join(', ')}`);
}
if (OUT) {
  await writeFile(OUT, `${JSON.stringify({ date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC', cpus: cpus().length,
    cpu: cpus()[0]?.model, node: process.version, screen: SCREEN.viewport, result }, null, 1)}\n`);
}
