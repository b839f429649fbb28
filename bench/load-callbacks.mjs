// The page's script callbacks during a first load, by the module they enter: a trace of the default
// link in headless Chromium, from navigation until the analyses are in (the summary no longer busy),
// whose main-thread FunctionCall events (an event listener, an observer's callback, a timer, an
// animation frame: each call into the page's script from the browser) are named through the
// build's source maps by the web/ module of the function called, and their thread time (tdur,
// which a shared core's waits do not inflate) added up per module. A call's time includes all it
// called, style and layout it forced among them. Per load: { modules: { 'web/…': ms }, calls: n }.
//   node bench/load-callbacks.mjs [--reps N] [--baseline DIR] [--phone] [--top K] [--out FILE]
// 1280 × 800 by default (three lanes side by side), --phone Lighthouse's mobile screen
// (bench/phone-screen.mjs: 412 × 823 at 1.75 device pixels per CSS pixel, the lanes as tabs).
// Each round is a fresh browser context.
// --baseline DIR: another build's dist/ (a copy of an earlier commit's), loaded in turn with this
// one, round by round. Prints each module's median over the rounds, the top K (default 12).
import { writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { comparisonOptions, median, optionReader } from './options.mjs';
import { outermost, pageMainThread } from './trace-events.mjs';
import { sourcePositions } from './source-positions.mjs';
import { PHONE as PHONE_SCREEN } from './phone-screen.mjs';
import { launchChromium, serveDir, closeServer, summaryAnalysed } from '../tests/e2e/browser.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const { reps: REPS, baseline: BASELINE, out: OUT, operands } = comparisonOptions(process.argv.slice(2), 5);
const flags = optionReader(operands);
const TOP = Number(flags('--top', '12'));
const PHONE = operands.includes('--phone');
const unknown = operands.filter((arg) => arg !== '--phone');
if (unknown.length) throw new RangeError(`unknown arguments: ${unknown.join(' ')}`);
if (!Number.isInteger(TOP) || TOP < 1) throw new RangeError(`--top: a positive integer, got ${TOP}`);
const SCREEN = PHONE ? PHONE_SCREEN : { viewport: { width: 1280, height: 800 } };

// One load of dist's default link → { modules, calls }. positionOf: dist's sourcePositions, one per
// build, so each map is read and parsed once for all the rounds.
async function loadOnce(browser, dist, positionOf) {
  const { server, baseUrl } = await serveDir(dist, { precompress: true });
  const context = await browser.newContext(SCREEN);
  try {
    const page = await context.newPage();
    await browser.startTracing(page, { categories: ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline', '__metadata'] });
    await page.goto(baseUrl);
    await page.waitForFunction(summaryAnalysed, null, { timeout: 60000 });
    const events = JSON.parse((await browser.stopTracing()).toString()).traceEvents;
    const main = pageMainThread(events);
    const calls = events.filter((e) => e.ph === 'X' && e.name === 'FunctionCall' && e.pid === main.pid && e.tid === main.tid
      && e.args?.data?.url?.startsWith(baseUrl));
    // Trace positions are 1-based lines and 0-based columns, as source maps take them.
    const modules = {};
    for (const e of outermost(calls)) {
      const { url, lineNumber, columnNumber } = e.args.data;
      const path = url.slice(baseUrl.length);
      const module = (await positionOf(path, lineNumber, columnNumber))?.source ?? path;
      modules[module] = (modules[module] ?? 0) + (e.tdur ?? e.dur) / 1000;
    }
    return { modules, calls: calls.length };
  } finally {
    await context.close();
    await closeServer(server);
  }
}

const builds = [{ name: 'this build', dist: join(ROOT, 'dist') }];
if (BASELINE) builds.unshift({ name: 'baseline', dist: BASELINE });
const positions = builds.map((build) => sourcePositions(build.dist));
const rounds = builds.map(() => []);
const browser = await launchChromium();
const runtime = `Chromium ${browser.version()} (headless)`;
try {
  for (let r = 0; r < REPS; r++) {
    for (const [i, build] of builds.entries()) rounds[i].push(await loadOnce(browser, build.dist, positions[i]));
  }
} finally {
  await browser.close();
}
const modules = [...new Set(rounds.flat().flatMap((round) => Object.keys(round.modules)))];
const medians = builds.map((_, i) => Object.fromEntries(modules.map((m) => [m, +median(rounds[i].map((round) => round.modules[m] ?? 0)).toFixed(2)])));
const order = modules.sort((a, b) => medians.at(-1)[b] - medians.at(-1)[a]).slice(0, TOP);
console.log(`thread time of the page's script callbacks at load, by module entered (median of ${REPS} loads, ms):`);
console.log(`${builds.map((b) => b.name.padStart(12)).join('')}  module`);
for (const m of order) console.log(`${medians.map((x) => x[m].toFixed(2).padStart(12)).join('')}  ${m}`);
if (OUT) {
  const record = {
    runtime, cpu: cpus()[0]?.model, screen: PHONE ? `phone ${PHONE_SCREEN.viewport.width} × ${PHONE_SCREEN.viewport.height}` : '1280 × 800',
    builds: builds.map((b, i) => ({ name: b.name, dist: b.dist, medians: medians[i], rounds: rounds[i] })),
  };
  await writeFile(OUT, JSON.stringify(record, null, 1));
}
