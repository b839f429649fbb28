// Merges one run's results (native Google Benchmark JSON, Node and Chromium harness JSON) into
// the table of docs/BENCHMARKS.md and checks the issue's targets.
//   node bench/report.mjs build-bench/run  → markdown on stdout
import { readFileSync, existsSync } from 'node:fs';
import { BENCH_MODEL, KERNELS, flops } from './grid.mjs';

const dir = process.argv[2] ?? 'build-bench/run';
const read = (name) => (existsSync(`${dir}/${name}`) ? JSON.parse(readFileSync(`${dir}/${name}`, 'utf8')) : null);
const nativeRaw = read('native.json'), avx2Raw = read('native-avx2.json'), node = read('node.json'), chromium = read('chromium.json');
const page = read('page.json');
const trainFrames = read('train-frames.json');
const firstLoad = read('first-load.json');
const longTasks = read('long-tasks.json');
// Lighthouse at this machine's speed, and standing in for a slower CPU (--cpu-factor: the file says).
const lighthouseRuns = [read('lighthouse.json'), read('lighthouse-slower.json')].filter(Boolean);

// Google Benchmark medians (CPU time, ms) by "kernel/n/d".
function gbMedians(raw) {
  const out = new Map();
  let ghz = null;
  for (const b of raw?.benchmarks ?? []) {
    if (b.aggregate_name !== 'median') continue;
    const name = b.run_name;
    if (name.startsWith('clock_ghz')) { ghz = b.GHz; continue; }
    const scale = { ns: 1e-6, us: 1e-3, ms: 1 }[b.time_unit];
    out.set(name, b.cpu_time * scale);
  }
  return { out, ghz };
}
const native = gbMedians(nativeRaw), avx2 = gbMedians(avx2Raw);
const ghz = native.ghz ?? avx2.ghz;
// The wasm SIMD128 peak of each engine, measured in that engine (bench/roofline.mjs: independent
// f32x4.mul and f32x4.add chains in registers), so a share of it compares like with like. The
// clock (bench/native_bench.cpp, a dependent imul chain) only expresses it per cycle, and is
// checked against the CPU's stated clock: a probe reading far above it is not believed.
const peaks = { Node: node?.roofline?.gflops ?? null, Chromium: chromium?.roofline?.gflops ?? null };
const cpu = node?.cpu ?? { model: null, mhz: null };  // bench/node-run.mjs reads /proc/cpuinfo
const clockSuspect = ghz && cpu.mhz ? ghz / (cpu.mhz / 1000) > 2 || ghz / (cpu.mhz / 1000) < 0.5 : false;
const pct = (x, of) => (x != null && of ? `${(100 * x / of).toFixed(0)}%` : '–');

function index(run, field) {
  const m = new Map();
  for (const r of run?.results ?? []) m.set(`${r.kernel}/${r.n}/${r.d}/${r.variant}`, r[field]);
  return m;
}
const nodeMs = index(node, 'cpuMs'), chrMs = index(chromium, 'ms');
// The peak a case is compared with: its own interleaved `roofline` variant (timed in the same
// rounds as its kernels, so the same load hits both), else the engine's standalone measurement.
const peakFor = (engine, key) => {
  const run = engine === 'Node' ? node : chromium;
  const ms = (engine === 'Node' ? nodeMs : chrMs).get(`${key}/roofline`);
  return ms && run?.roofline?.callFlops ? run.roofline.callFlops / ms / 1e6 : peaks[engine];
};
const keys = [];
for (const r of node?.results ?? chromium?.results ?? []) {
  const key = `${r.kernel}/${r.n}/${r.d}`;
  if (!keys.includes(key)) keys.push(key);
}
keys.sort((a, b) => {
  const [ka, na, da] = a.split('/'), [kb, nb, db] = b.split('/');
  return KERNELS.indexOf(ka) - KERNELS.indexOf(kb) || da - db || na - nb;
});

const f = (x, digits = 3) => (x == null || Number.isNaN(x) ? '–' : x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(digits));
const ratio = (a, b) => (a == null || b == null ? null : a / b);
const lines = [];
lines.push(`Runtimes: native ${nativeRaw?.context?.host_name ?? ''} (g++ ${'SSE4.1'}, CPU time) · ${node?.runtime ?? 'Node –'} (CPU time) · ${chromium?.runtime ?? 'Chromium –'} (wall time)`);
const shape = (r) => (r ? `${r.gflops.toFixed(1)} GFLOP/s (${r.kind === 'pair' ? 'mul→add pairs' : 'separate mul and add chains'}, ${r.chains} chains` +
  `${ghz ? `; ${(r.gflops / ghz).toFixed(1)} flops per cycle` : ''}${r.runs ? `; the better of ${r.runs.map((g) => g.toFixed(1)).join(' and ')}, before and after the kernels` : ''})` : '–');
const stated = ghz && cpu.mhz ? `, ${(ghz / (cpu.mhz / 1000)).toFixed(2)}× the stated clock${clockSuspect ? ': **more than 2× off, not believed**' : ''}` : '';
lines.push(`CPU: ${cpu.model ?? 'unknown'}${cpu.mhz ? `, ${cpu.mhz.toFixed(0)} MHz stated (/proc/cpuinfo)` : ''}; clock ${ghz ? ghz.toFixed(2) : '–'} GHz ` +
  `(dependent imul chain, 3-cycle latency${stated}).`);
lines.push(`wasm SIMD128 peak measured in each engine (bench/roofline.mjs): Node ${shape(node?.roofline)}; Chromium ${shape(chromium?.roofline)}. ` +
  'Shares below divide by the same kernel timed as a variant beside each case (same rounds, same load).');
lines.push('');
lines.push('| kernel | n | d | native SSE4.1 | native AVX2 | Node SIMD | Node scalar | Node plain JS | Chromium SIMD | Chromium scalar | Chromium plain JS | scalar/SIMD (Node, Chr) | plain/SIMD (Node, Chr) | native/SIMD (Node) |');
lines.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const key of keys) {
  const [kernel, n, d] = key.split('/');
  const ns = native.out.get(key), av = avx2.out.get(key);
  const s = nodeMs.get(`${key}/wasm_simd`), sc = nodeMs.get(`${key}/wasm_scalar`), p = nodeMs.get(`${key}/plain_js`);
  const cs = chrMs.get(`${key}/wasm_simd`), csc = chrMs.get(`${key}/wasm_scalar`), cp = chrMs.get(`${key}/plain_js`);
  lines.push(`| ${kernel} | ${n} | ${d} | ${f(ns)} | ${f(av)} | ${f(s)} | ${f(sc)} | ${f(p)} | ${f(cs)} | ${f(csc)} | ${f(cp)} | ${f(ratio(sc, s), 1)}, ${f(ratio(csc, cs), 1)} | ${f(ratio(p, s), 1)}, ${f(ratio(cp, cs), 1)} | ${f(ratio(ns, s), 2)} |`);
}
lines.push('');
lines.push('All times in ms per call (medians). "–": not in the grid or no such variant (see "What each kernel is").');
lines.push('');

// Targets.
const t = [];
const check = (name, value, ok, note) => t.push(`| ${name} | ${value} | ${ok == null ? '–' : ok ? 'met' : '**not met**'} | ${note ?? ''} |`);
const att = 'attention/512/64';
for (const [label, m] of [['Node', nodeMs], ['Chromium', chrMs]]) {
  const s = m.get(`${att}/wasm_simd`), sc = m.get(`${att}/wasm_scalar`), p = m.get(`${att}/plain_js`);
  if (s == null) continue;
  check(`attention n=512 d=64, SIMD vs scalar wasm (${label})`, `${f(ratio(sc, s), 2)}×`, ratio(sc, s) >= 4, 'target ≥ 4×, goal 5.5×');
  check(`attention n=512 d=64, SIMD wasm vs plain JS (${label})`, `${f(ratio(p, s), 1)}×`, ratio(p, s) >= 8, 'target ≥ 8×');
}
const s512 = nodeMs.get(`${att}/wasm_simd`);
if (native.out.get(att) != null && s512 != null) {
  check('attention n=512 d=64, SIMD wasm speed ÷ native SSE4.1 speed (Node)', `${f(native.out.get(att) / s512, 2)}`, native.out.get(att) / s512 >= 0.65, 'target ≥ 0.65');
}
if (avx2.out.get(att) != null && s512 != null) {
  check('attention n=512 d=64, SIMD wasm speed ÷ native AVX2+FMA speed (Node)', `${f(avx2.out.get(att) / s512, 2)}`, null, 'reported');
}
for (const d of [64, 100, 128]) {
  const key = `scores/512/${d}`;
  const ms = nodeMs.get(`${key}/wasm_simd`), cms = chrMs.get(`${key}/wasm_simd`);
  const np = peakFor('Node', key), cp = peakFor('Chromium', key);
  if (ms == null || !np) continue;
  const g = flops('scores', 512, d) / ms / 1e6, cg = cms ? flops('scores', 512, d) / cms / 1e6 : null;
  check(`QKᵀ n=512 d=${d}: achieved ÷ the engine's measured peak (sampled beside it)`,
    `Node ${g.toFixed(1)} ÷ ${np.toFixed(1)} GFLOP/s = ${pct(g, np)}; Chromium ${cg ? cg.toFixed(1) : '–'} ÷ ${cp ? cp.toFixed(1) : '–'} = ${pct(cg, cp)}`,
    g / np >= 0.6, 'target ≥ 60% (Node)');
}
for (const n of [512, 1024]) {
  const ms = nodeMs.get(`softmax/${n}/64/wasm_simd`), cms = chrMs.get(`softmax/${n}/64/wasm_simd`);
  if (ms == null) continue;
  const ns = (ms * 1e6) / (n * n), cns = cms ? (cms * 1e6) / (n * n) : null;
  // Met only when both runtimes are: Chromium's wall time included (it is what a page gets).
  check(`softmax ${n}×${n}, ns per element (Node; Chromium)`, `${ns.toFixed(2)}; ${cns ? cns.toFixed(2) : '–'}`, ns <= 1.5 && cns != null && cns <= 1.5, 'target ≤ 1.5 ns');
}
for (const mode of ['full_keystroke', 'full_cold']) {
  const ms = nodeMs.get(`${mode}/64/100/wasm_simd`), cms = chrMs.get(`${mode}/64/100/wasm_simd`);
  if (ms == null) continue;
  // The target is a keystroke's (both runtimes); cold caches — every word new, as after a paste — are reported.
  const keystroke = mode === 'full_keystroke';
  check(`full recompute (${keystroke ? 'keystroke: warm caches, last word new' : 'cold caches: every word new'}), 64 tokens, d=100 GloVe`,
    `${f(ms)} ms (Chromium ${f(cms)} ms)`, keystroke ? ms < 1 && cms != null && cms < 1 : null,
    keystroke ? 'target < 1 ms of wasm compute' : 'reported (a new sentence, not a keystroke)');
}
for (const d of [64, 100, 128]) {
  const ms = nodeMs.get(`attention/4096/${d}/wasm_simd`), cms = chrMs.get(`attention/4096/${d}/wasm_simd`);
  if (ms == null) continue;
  check(`attention n=4096 d=${d} (SIMD wasm)`, `${f(ms)} ms (Chromium ${f(cms)} ms)`, ms <= 1000 && (cms == null || cms <= 1000), 'target ≤ 1 s, no OOM');
}
// The page (bench/keystroke.mjs): one row per sentence length, then the continuous-typing row.
// page.json is measured untraced, as the issue measured it and as a reader's browser runs;
// page-cpu.json is the same bench under a Chromium trace (--cpu), which slows the page's thread
// itself, for each key's CPU on the page's thread and in the workers: its medians are reported,
// not checked.
const VSYNC_MS = 1000 / 60;
const pageCpu = read('page-cpu.json');
// The issue's targets, by profile and size: ≤ 12 ms at 64 tokens and ≤ 16 ms at 512 (the machine's
// own CPU), ≤ 40 ms at 64 tokens with the CPU slowed 4×; both for the encoding alone and with
// trained heads. Other sizes are reported.
const keystrokeTarget = (r) => (r.cpuThrottle > 1 ? { 64: 40 } : { 64: 12, 512: 16 })[r.n] ?? null;
const throttled = (r) => (r.cpuThrottle > 1 ? `, ${r.cpuThrottle}× CPU throttle` : '');
const keystrokeName = (r) => `keystroke → pixels, ${r.tokens} tokens, ${r.heads === 'trained' ? 'trained heads on' : 'GloVe'}` +
  `${throttled(r)} (Chromium, median of ${r.keystrokes})`;
for (const r of page?.results ?? []) {
  if (r.keyToPixelsMedian != null) {
    const target = keystrokeTarget(r);
    check(keystrokeName(r), `${f(r.keyToPixelsMedian, 1)} ms (p90 ${f(r.keyToPixelsP90, 1)}, recompute ${f(r.recomputeMedian, 2)} ms)`,
      target == null ? null : r.keyToPixelsMedian <= target, target == null ? 'reported' : `target ≤ ${target} ms`);
    // Trained heads: the frame after every lane's map and strip show the new words (the key's own
    // frame when every lane's pass fitted the frame's budget; later when a lane fell back to its
    // background pass). Bounded on the desktop profile only; with the CPU slowed it is reported.
    if (r.keyToTrainedMedian != null) {
      const bounded = r.n <= 64 && !(r.cpuThrottle > 1);
      check(`keystroke → every trained map and strip painted, ${r.tokens} tokens${throttled(r)}`,
        `${f(r.keyToTrainedMedian, 1)} ms (p90 ${f(r.keyToTrainedP90, 1)})`,
        bounded ? r.keyToTrainedMedian <= 16 : null, bounded ? 'target ≤ 16 ms (typing stays live)' : 'reported');
    }
  } else if (r.frames != null) {
    // framesOver16_7: frames that missed their vsync slot (bench/keystroke.mjs says how).
    check(`frames while typing at ${r.n} tokens (${r.keysTyped} keys, one per 60 ms)`,
      `${r.frames} frames: median ${f(r.frameMedian, 1)} ms, p95 ${f(r.frameP95, 1)}, max ${f(r.frameMax, 1)}; ` +
      `${r.framesOver16_7} over 1.5 × ${VSYNC_MS.toFixed(1)} ms; ${r.longTasks} long tasks`,
      r.framesOver16_7 === 0 && r.longTasks === 0, 'target: every frame in its 16.7 ms slot, no long task');
    check(`frames in the 1.5 s after typing stops, ${r.n} tokens (the analyses run then)`,
      `${r.pauseFrames} frames, ${r.pauseFramesOver16_7} over 1.5 × ${VSYNC_MS.toFixed(1)} ms; ${r.pauseLongTasks} long tasks (longest ${f(r.pauseLongTaskMax, 0)} ms)`,
      null, 'reported');
  }
}
for (const r of pageCpu?.results ?? []) {
  if (r.keyToPixelsMedian == null || r.mainCpuMedian == null) continue;
  check(`${keystrokeName(r)}, traced (--cpu)`, `${f(r.keyToPixelsMedian, 1)} ms; CPU per key: page's thread ${f(r.mainCpuMedian, 2)} ms, workers ${f(r.workerCpuMedian, 2)} ms`,
    null, 'reported (the trace slows the page\'s thread)');
}
// The Train section training its default schemes (bench/train-frames.mjs). One vsync
// interval reads 16.6–16.8 ms (requestAnimationFrame timestamps are rounded to 0.1 ms), so the
// p95 target of 16.7 ms is met by p95 within one interval plus that rounding.
for (const r of trainFrames?.results ?? []) {
  check(`frames while the Train section trains ${r.schemes} schemes (${r.seconds} s, Chromium, ${r.cores} cores, load ${r.loadAverage})`,
    `first curve ${f(r.firstCurveMs / 1000, 1)} s after Train (all ${r.schemes} ${f(r.allCurvesMs / 1000, 1)} s); ${r.frames} frames: p50 ${f(r.frameP50, 1)} ms, p95 ${f(r.frameP95, 1)}, p99 ${f(r.frameP99, 1)}, max ${f(r.frameMax, 1)}; ` +
    `${r.framesOver16_7} over 1.5 × ${VSYNC_MS.toFixed(1)} ms; ${r.longTasks} long tasks (longest ${f(r.longTaskMax, 0)} ms); ` +
    `${r.paints} paints, median ${f(r.paintMedianMs, 2)} ms; steps/s ${r.stepsPerSecond.map((v) => v.toFixed(1)).join(', ')}; ` +
    `idle control p95 ${f(r.idleFrameP95, 1)}, p99 ${f(r.idleFrameP99, 1)}, ${r.idleLongTasks} long tasks`,
    r.frameP95 <= VSYNC_MS + 0.15, 'target: frame p95 ≤ 16.7 ms');
}

// The default page's first load over the emulated 10 Mbit/s, 40 ms link, cache off
// (bench/first-load.mjs): first lanes paint, GloVe, and trained heads in every default lane.
// The issue's first-load bounds at 10 Mbit/s and 40 ms: trained heads in every default lane and
// the bytes transferred by then, and the first lanes no later than the page painted them before.
const FIRST_LOAD = { trainedMs: 4000, bytesAtTrained: 4.5e6, lanesPaintMs: 1700 };
if (firstLoad?.result) {
  const r = firstLoad.result;
  const mb = (bytes) => `${(bytes / 1e6).toFixed(2)} MB`;
  check(`first load, default page${r.hash ? ` (${r.hash})` : ''}, ${r.link.downloadMbit} Mbit/s, ${r.link.latencyMs} ms, cache off (median of ${r.runs})`,
    `lanes painted ${f(r.lanesPaintMs / 1000, 2)} s after ${mb(r.bytesAtLanesPaint)}; GloVe ${f(r.gloveMs / 1000, 2)} s; ` +
    `trained heads ${r.trainedMs == null ? 'not shown' : `${f(r.trainedMs / 1000, 2)} s`}; ${mb(r.bytes)} in all ` +
    `(${Object.entries(r.bytesByKind).map(([kind, bytes]) => `${kind} ${mb(bytes)}`).join(', ')})` +
    `, ${mb(r.bytesAtTrained)} by then`,
    r.trainedMs != null && r.trainedMs <= FIRST_LOAD.trainedMs && r.bytesAtTrained <= FIRST_LOAD.bytesAtTrained && r.lanesPaintMs <= FIRST_LOAD.lanesPaintMs,
    `target: trained heads in every default lane ≤ ${FIRST_LOAD.trainedMs / 1000} s with ≤ ${mb(FIRST_LOAD.bytesAtTrained)} by then; lanes painted ≤ ${FIRST_LOAD.lanesPaintMs / 1000} s`);
}

// Main-thread tasks over 50 ms from a Chromium trace (bench/long-tasks.mjs): load, typing, pause.
for (const r of longTasks?.results ?? []) {
  const during = { load: 'from navigation to idle', typing: `while typing at 512 tokens`, pause: 'while the analyses run after typing pauses' }[r.window];
  check(`main-thread tasks over 50 ms ${during}${longTasks.throttle > 1 ? ` (${longTasks.throttle}× CPU throttle)` : ''} (Chromium trace)`,
    `${r.count}${r.count ? ` (longest ${f(r.longestMs, 0)} ms; ${r.all.join(', ')} ms)` : ''}` +
    (r.longestCpuMs === undefined ? '' : `; by thread time ${r.cpuCount}, longest ${f(r.longestCpuMs, 0)} ms`), r.count === 0, 'target: none');
}

// Lighthouse 12 on the default link (bench/lighthouse.mjs): medians of its runs per preset.
const LIGHTHOUSE_TARGETS = {
  mobile: { performance: ['≥', 95], tbt: ['≤', 150], maxFid: ['≤', 100], cls: ['≤', 0.02] },
  desktop: { performance: ['≥', 98], cls: ['≤', 0.02] },
};
for (const lighthouse of lighthouseRuns) for (const preset of ['mobile', 'desktop']) {
  const m = lighthouse[preset]?.medians;
  if (!m) continue;
  const targets = { ...LIGHTHOUSE_TARGETS[preset], accessibility: ['≥', 100], bestPractices: ['≥', 100], seo: ['≥', 100] };
  const met = Object.entries(targets).every(([key, [op, bound]]) => (op === '≥' ? m[key] >= bound : m[key] <= bound));
  const slower = lighthouse.cpuFactor > 1 ? `, standing in for a CPU ${lighthouse.cpuFactor} times slower` : '';
  check(`Lighthouse ${lighthouse.lighthouse}, ${preset} preset, default link${slower} (median of ${lighthouse.runs})`,
    `Performance ${m.performance}, TBT ${f(m.tbt, 0)} ms, max potential FID ${f(m.maxFid, 0)} ms, TTI ${f(m.tti / 1000, 1)} s, CLS ${m.cls?.toFixed(3)}, ` +
    `main thread ${f(m.mainThread / 1000, 1)} s, ${f(m.bytes / 1024, 0)} KiB; Accessibility ${m.accessibility}, Best Practices ${m.bestPractices}, SEO ${m.seo}`,
    met, `target: ${Object.entries(targets).map(([key, [op, bound]]) => `${key} ${op} ${bound}`).join(', ')}`);
}

// The training step (bench/kernels.cpp's kTrain; TF.js peers in Node only): tokens/s and GFLOP/s.
const TRAIN = `train/${BENCH_MODEL.context}/${BENCH_MODEL.d}`;
const trainTokens = BENCH_MODEL.batch * BENCH_MODEL.context, trainFlops = flops('train', BENCH_MODEL.context, BENCH_MODEL.d);
const trainRows = [
  // [label, ms, the engine whose measured peak it is compared with]
  ['native SSE4.1 (Google Benchmark, CPU time)', native.out.get(TRAIN), null],
  ['Node, SIMD wasm (CPU time)', nodeMs.get(`${TRAIN}/wasm_simd`), 'Node'],
  ['Node, scalar wasm (CPU time)', nodeMs.get(`${TRAIN}/wasm_scalar`), 'Node'],
  ['Node, TF.js 4.22 wasm backend, 1 thread (CPU time)', nodeMs.get(`${TRAIN}/tfjs_wasm`), 'Node'],
  ['Node, TF.js 4.22 cpu backend (CPU time)', nodeMs.get(`${TRAIN}/tfjs_cpu`), 'Node'],
  ['Chromium, SIMD wasm (wall time)', chrMs.get(`${TRAIN}/wasm_simd`), 'Chromium'],
  ['Chromium, scalar wasm (wall time)', chrMs.get(`${TRAIN}/wasm_scalar`), 'Chromium'],
].filter(([, ms]) => ms != null);
if (trainRows.length) {
  const { vocab, d, layers, heads, context, batch, scheme } = BENCH_MODEL;
  lines.push(`Training step: ${scheme} scheme, V = ${vocab}, d = ${d}, L = ${layers}, h = ${heads}, T = ${context}, B = ${batch} ` +
    `(${trainTokens} tokens, ${(trainFlops / 1e9).toFixed(3)} GFLOP per step: bench/grid.mjs, trainStepFlops).`);
  lines.push('');
  lines.push('| runtime | ms per step | tokens/s | GFLOP/s | ÷ the engine\'s measured SIMD128 peak |');
  lines.push('|---|---:|---:|---:|---:|');
  for (const [label, ms, engine] of trainRows) {
    const gflops = trainFlops / ms / 1e6, peak = engine && peakFor(engine, TRAIN);
    lines.push(`| ${label} | ${f(ms)} | ${(trainTokens / ms * 1000).toFixed(0)} | ${gflops.toFixed(2)} | ${peak ? `${(100 * gflops / peak).toFixed(1)}% of ${peak.toFixed(1)}` : '–'} |`);
  }
  lines.push('');
  for (const [label, m] of [['Node', nodeMs], ['Chromium', chrMs]]) {
    const ms = m.get(`${TRAIN}/wasm_simd`);
    const peak = peakFor(label, TRAIN);
    if (ms == null || !peak) continue;
    const share = trainFlops / ms / 1e6 / peak;
    check(`training step, SIMD wasm ÷ ${label}'s measured SIMD128 peak (sampled beside it)`,
      `${(100 * share).toFixed(1)}% (${(trainFlops / ms / 1e6).toFixed(1)} ÷ ${peak.toFixed(1)} GFLOP/s)`, share >= 0.4, 'target ≥ 40%');
  }
  const s = nodeMs.get(`${TRAIN}/wasm_simd`), sc = nodeMs.get(`${TRAIN}/wasm_scalar`);
  const tw = nodeMs.get(`${TRAIN}/tfjs_wasm`), tc = nodeMs.get(`${TRAIN}/tfjs_cpu`);
  if (s != null && tw != null) {
    check('training step, SIMD wasm vs TF.js wasm backend (Node, one thread)', `${f(ratio(tw, s), 1)}× (cpu backend: ${f(ratio(tc, s), 0)}×)`,
      ratio(tw, s) >= 5, 'target ≥ 5×; cpu backend reported');
  }
  for (const [label, m] of [['Node', nodeMs], ['Chromium', chrMs]]) {
    const a = m.get(`${TRAIN}/wasm_simd`), b = m.get(`${TRAIN}/wasm_scalar`);
    if (a != null && b != null) check(`training step, SIMD vs scalar wasm (${label})`, `${f(ratio(b, a), 2)}×`, ratio(b, a) >= 3.5, 'target ≥ 3.5×');
  }
}
lines.push('| target | measured | status | |');
lines.push('|---|---|---|---|');
lines.push(...t);
console.log(lines.join('\n'));
