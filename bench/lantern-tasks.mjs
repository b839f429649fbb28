// Which of the page's main-thread tasks Lighthouse's max potential FID counts, on its mobile preset.
//   node bench/lantern-tasks.mjs [--runs N] [--top K] [--dist DIR --built-from COMMIT] [--out FILE]
// Lighthouse does not throttle the page: it traces one unthrottled load and simulates the phone
// (Lantern, in Lighthouse's own code, which this tool calls on the saved trace). Each main-thread
// task of the trace becomes a CPU node whose simulated length is its wall time in the trace × 4,
// or × 2 when it ran a layout; tasks under 10 ms of wall time are mostly dropped. Max potential FID
// is the longest simulated node that ends after the simulated first contentful paint, averaged over
// Lantern's optimistic and pessimistic estimates. So a task counts with its wall time, not its CPU
// time: on a machine whose cores are shared (the page's worker, V8's compile threads, the
// compositor, Lighthouse itself), a task of 10 ms of CPU can last 40 ms.
//
// Per run this prints Lighthouse's max potential FID and the top K tasks of the pessimistic
// estimate after its FCP: simulated length, wall and thread (CPU) time in the trace, when it started
// after navigation, and the trace events that filled it. Each run is a fresh browser (as in
// bench/lighthouse.mjs), with only the performance category. --dist serves another build (a copy
// of an earlier commit's dist/), named in the record by --built-from. --out writes the runs as JSON.
// Last, the runs whose first paint Chromium held (bench/lighthouse.mjs says how) are listed apart:
// their first frame comes about 1.2 s in, after the simulated FCP, and lays out all that the page
// built meanwhile, so they and the other runs are two different measurements.
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { LanternFirstContentfulPaint } from 'lighthouse/core/computed/metrics/lantern-first-contentful-paint.js';
import { LanternMaxPotentialFID } from 'lighthouse/core/computed/metrics/lantern-max-potential-fid.js';
import { HELD_PAINT_MS, PRESETS, paintHeld, runWithRetries } from './lighthouse-run.mjs';
import { serveDir, closeServer } from '../tests/e2e/browser.mjs';
import { optionReader } from './options.mjs';

const args = process.argv.slice(2);
const option = optionReader(args);
const RUNS = Number(option('--runs', '5'));
const TOP = Number(option('--top', '5'));
const DIST = option('--dist', null);
const BUILT_FROM = option('--built-from', null);
const OUT = option('--out', null);
if (!Number.isInteger(RUNS) || RUNS < 1) throw new RangeError(`--runs: a positive integer, got ${RUNS}`);
if (!Number.isInteger(TOP) || TOP < 1) throw new RangeError(`--top: a positive integer, got ${TOP}`);
if ((DIST === null) !== (BUILT_FROM === null)) throw new RangeError('--dist and --built-from go together: the build to serve and the commit it was built from');
if (args.length) throw new RangeError(`unknown arguments: ${args.join(' ')}`);

const MOBILE = PRESETS.find((preset) => preset.name === 'mobile');
const PART_MIN_US = 1500; // trace events shorter than this are not named in a task's parts

/** The trace events inside a task worth naming: "Name(function file:line:column) wall ms", first six. */
function parts(node) {
  return node.childEvents.filter((event) => (event.dur ?? 0) >= PART_MIN_US && event.name !== 'RunTask').slice(0, 6).map((event) => {
    const data = event.args?.data ?? {};
    const file = data.url ? `${data.url.replace(/.*\//, '')}${data.lineNumber !== undefined ? `:${data.lineNumber}:${data.columnNumber}` : ''}` : '';
    const what = [data.functionName, file].filter(Boolean).join(' ');
    return `${event.name}${what ? `(${what})` : ''} ${(event.dur / 1000).toFixed(1)}`;
  });
}

const round1 = (x) => Math.round(x * 10) / 10;

/** One saved run (Lighthouse's JSON and its -0.trace.json and -0.devtoolslog.json) → what it counted. */
async function analyse(file) {
  const lhr = JSON.parse(await readFile(file, 'utf8'));
  const base = file.replace(/\.json$/, '');
  const trace = JSON.parse(await readFile(`${base}-0.trace.json`, 'utf8'));
  const devtoolsLog = JSON.parse(await readFile(`${base}-0.devtoolslog.json`, 'utf8'));
  const data = {
    trace, devtoolsLog, gatherContext: { gatherMode: 'navigation' }, settings: lhr.configSettings, simulator: null, SourceMaps: [],
    URL: { requestedUrl: lhr.requestedUrl, mainDocumentUrl: lhr.mainDocumentUrl ?? lhr.finalDisplayedUrl, finalDisplayedUrl: lhr.finalDisplayedUrl },
  };
  const context = { computedCache: new Map(), settings: lhr.configSettings };
  const fcp = await LanternFirstContentfulPaint.request(data, context);
  const fid = await LanternMaxPotentialFID.request(data, context);
  // The pessimistic estimate counts the tasks after the optimistic FCP (Lantern's own pairing).
  const fcpMs = fcp.optimisticEstimate.timeInMs;
  const navigation = trace.traceEvents.find((event) => event.name === 'navigationStart')?.ts ?? 0;
  const tasks = [];
  for (const [node, timing] of fid.pessimisticEstimate.nodeTimings) {
    if (node.type !== 'cpu' || timing.endTime <= fcpMs) continue;
    tasks.push({
      simulatedMs: Math.round(timing.duration), wallMs: round1(node.duration / 1000), threadMs: round1((node.event.tdur ?? 0) / 1000),
      layout: node.didPerformLayout(), startMs: Math.round((node.event.ts - navigation) / 1000), parts: parts(node),
    });
  }
  tasks.sort((a, b) => b.simulatedMs - a.simulatedMs);
  return {
    maxFid: Math.round(lhr.audits['max-potential-fid'].numericValue), simulatedFcpMs: Math.round(fcpMs),
    observedFcpMs: Math.round(lhr.audits.metrics.details.items[0].observedFirstContentfulPaint), tasks: tasks.slice(0, TOP),
  };
}

const print = (run, i) => {
  console.log(`run ${i + 1}: max potential FID ${run.maxFid} ms (simulated FCP ${run.simulatedFcpMs} ms, FCP in the trace ${run.observedFcpMs} ms)`);
  for (const t of run.tasks) {
    console.log(`  ${String(t.simulatedMs).padStart(4)} ms simulated: ${t.wallMs} ms wall, ${t.threadMs} ms CPU${t.layout ? ', with layout' : ''}, ` +
      `at ${t.startMs} ms: ${t.parts.join('; ')}`);
  }
};

const loadBefore = loadavg()[0].toFixed(1);
const dir = await mkdtemp(join(tmpdir(), 'posenc-lantern-'));
const { server, baseUrl } = await serveDir(DIST ?? undefined, { precompress: true });
const runs = [];
try {
  for (let i = 0; i < RUNS; i++) {
    const file = join(dir, `run-${i}.json`);
    await runWithRetries(`${baseUrl}index.html`, MOBILE, file, ['--save-assets', '--only-categories=performance']);
    runs.push(await analyse(file));
    print(runs[i], i);
  }
} finally {
  await closeServer(server);
  await rm(dir, { recursive: true, force: true });
}
const sorted = (some) => some.map((run) => run.maxFid).sort((a, b) => a - b).join(', ');
const held = runs.filter((run) => paintHeld(run.observedFcpMs));
const notHeld = runs.filter((run) => !held.includes(run));
console.log(`max potential FID over ${RUNS} runs: ${sorted(runs)} ms`);
console.log(`  first paint held (FCP in the trace ≥ ${HELD_PAINT_MS} ms) in ${held.length} of ${RUNS}: ${sorted(held) || '–'} ms; ` +
  `not held: ${sorted(notHeld) || '–'} ms`);
if (OUT) {
  const commit = BUILT_FROM ? `${BUILT_FROM} (served from a copy of its build)`
    : execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  const record = {
    date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC', commit, preset: 'mobile', cpus: cpus().length,
    cpu: cpus()[0]?.model ?? null, loadBefore, loadAfter: loadavg()[0].toFixed(1), runs,
  };
  await writeFile(OUT, `${JSON.stringify(record, null, 1)}\n`);
}
