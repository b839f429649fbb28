// Where the main thread's script time goes while the default page loads on a phone: V8's sampling
// profiler on the page's main thread, Lighthouse's mobile screen (412 × 823, 1.75 device pixels per
// CSS pixel) and its 4× CPU throttle, from navigation to `--seconds` after the load event. Samples
// are added up by function, named through the build's source maps (web/…:line), as self time (the
// function itself) and inclusive time (anything it called, each sample once per function on the
// stack), averaged over the runs, each in a fresh browser. This says which of the page's own
// functions the main thread spends its time in; the trace-based benches (long-tasks.mjs,
// phone-load.mjs) say how that time falls into tasks.
//   node bench/main-thread-profile.mjs [--runs N] [--seconds S] [--throttle RATE] [--top K]
//                                      [--dist DIR] [--out FILE]
// "(program)" is the browser's own work on that thread (style, layout, paint, parsing), "(idle)"
// the thread waiting; both are printed but are not the page's script.
import { writeFile } from 'node:fs/promises';
import { sourcePositions } from './source-positions.mjs';
import { browserSettled } from './settle.mjs';
import { DIST as DEFAULT_DIST, launchChromium, serveDir, closeServer } from '../tests/e2e/browser.mjs';
import { optionReader } from './options.mjs';
import { PHONE } from './phone-screen.mjs';

const args = process.argv.slice(2);
const option = optionReader(args);
const RUNS = Number(option('--runs', '3'));
const SECONDS = Number(option('--seconds', '6'));
const THROTTLE = Number(option('--throttle', '4'));
const TOP = Number(option('--top', '25'));
const DIST_ARG = option('--dist', null); // as given, for the record; dist/ by default
const DIST = DIST_ARG ?? DEFAULT_DIST;
const OUT = option('--out', null);
if (!Number.isInteger(RUNS) || RUNS < 1) throw new RangeError(`--runs: a positive integer, got ${RUNS}`);
if (!(SECONDS > 0)) throw new RangeError(`--seconds: a positive number, got ${SECONDS}`);
if (!(THROTTLE >= 1)) throw new RangeError(`--throttle: a rate ≥ 1, got ${THROTTLE}`);
if (!Number.isInteger(TOP) || TOP < 1) throw new RangeError(`--top: a positive integer, got ${TOP}`);
if (args.length) throw new RangeError(`unknown arguments: ${args.join(' ')}`);

const SAMPLING_US = 100;

/** A name for a profile node's function: its original source and line where a map has it. */
function namer(baseUrl) {
  const positionOf = sourcePositions(DIST);
  return async ({ functionName, url, lineNumber, columnNumber }) => {
    if (!url.startsWith(baseUrl)) return functionName || url || '(native)';
    const path = url.slice(baseUrl.length);
    // Profile positions are 0-based; source maps take 1-based lines and 0-based columns.
    const at = await positionOf(path, lineNumber + 1, columnNumber);
    if (!at) return `${functionName || '(anonymous)'} ${path}:${lineNumber + 1}`;
    return `${at.name ?? (functionName || '(anonymous)')} ${at.source}:${at.line}`;
  };
}

/** One profile → Map name → [self ms, inclusive ms]. */
async function tally(profile, nameOf) {
  const parentOf = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const names = new Map();
  for (const node of profile.nodes) names.set(node.id, await nameOf(node.callFrame));
  const totals = new Map();
  const add = (name, self, inclusive) => {
    const t = totals.get(name) ?? [0, 0];
    t[0] += self;
    t[1] += inclusive;
    totals.set(name, t);
  };
  // timeDeltas[i] is the time before sample i; sample i's time is the gap to the next one.
  profile.samples.forEach((id, i) => {
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    add(names.get(id), ms, 0);
    const seen = new Set();
    for (let node = id; node !== undefined; node = parentOf.get(node)) {
      const name = names.get(node);
      if (!seen.has(name)) { seen.add(name); add(name, 0, ms); }
    }
  });
  return totals;
}

async function profileOnce(baseUrl, nameOf) {
  const browser = await launchChromium(['--headless=new']);
  try {
    await browserSettled();
    const context = await browser.newContext(PHONE);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLE });
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: SAMPLING_US });
    await cdp.send('Profiler.start');
    await page.goto(`${baseUrl}index.html`, { waitUntil: 'load' });
    await page.waitForTimeout(SECONDS * 1000);
    const { profile } = await cdp.send('Profiler.stop');
    return { totals: await tally(profile, nameOf), version: browser.version() };
  } finally {
    await browser.close();
  }
}

const { server, baseUrl } = await serveDir(DIST, { precompress: true });
const sum = new Map();
let version = null;
try {
  const nameOf = namer(baseUrl);
  for (let run = 0; run < RUNS; run++) {
    const once = await profileOnce(baseUrl, nameOf);
    version = once.version;
    for (const [name, [self, inclusive]] of once.totals) {
      const t = sum.get(name) ?? [0, 0];
      sum.set(name, [t[0] + self, t[1] + inclusive]);
    }
    console.error(`main-thread-profile: run ${run + 1}/${RUNS} done`);
  }
} finally {
  await closeServer(server);
}
const perRun = [...sum].map(([name, [self, inclusive]]) => ({ name, selfMs: self / RUNS, inclusiveMs: inclusive / RUNS }));
const top = (key) => perRun.filter((f) => f.name !== '(root)').sort((a, b) => b[key] - a[key]).slice(0, TOP)
  .map(({ name, [key]: ms }) => ({ name, ms: Math.round(ms * 10) / 10 }));
const result = { runtime: `Chromium ${version} (headless)`, throttle: THROTTLE, runs: RUNS, seconds: SECONDS, build: DIST_ARG ?? 'dist/',
  self: top('selfMs'), inclusive: top('inclusiveMs') };
for (const key of ['self', 'inclusive']) {
  console.log(`${key} time, ms per load (${THROTTLE}× throttled, mean of ${RUNS}):`);
  for (const { name, ms } of result[key]) console.log(`${ms.toFixed(1).padStart(9)}  ${name}`);
}
if (OUT) await writeFile(OUT, `${JSON.stringify(result, null, 1)}\n`);
