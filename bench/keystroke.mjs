// Keystroke-to-pixels on the real page (dist/index.html with GloVe) in headless Chromium.
//   node bench/keystroke.mjs [--out FILE] [--trained] [--stand-in V] [--throttled N,… | none] [--cpu] [--dist DIR --label TEXT] [--pause MS] [n …]
//   (default 16 64 512 tokens; KEYSTROKES=30 per size)
// Every size is measured on the desktop profile (the machine's own CPU), then the --throttled
// sizes (default 64) again with the CPU slowed 4× (CDP Emulation.setCPUThrottlingRate, as
// Lighthouse's mobile preset does), for the encoding alone and, with --trained, the trained heads;
// each row's cpuThrottle says which profile it is.
// --trained: then switches Heads to the shipped trained models (the default page's) and measures
// again at every size (rows marked heads: 'trained'); --stand-in V uses the tests' stand-in models with a
// V-word vocabulary instead (tests/e2e/fixtures/pretrained-stand-in.mjs), for when dist/ ships none.
// For each n: fills the Sentence box with n tokens (fewer where the typed keys would pass the page's
// cut at 512 tokens, so that the last of them reaches n: past it a key leaves the kept tokens as
// they are and the page computes nothing; startTokens in the row), types and deletes 20 characters unmeasured
// (warm-up), lets the analyses finish, then types one
// character at a time with pauses (so each keystroke starts from a quiet page: the analyses
// after the last key have ended, which the readout's second write marks; the bench waits for
// them without polling, which would give each key frames of the bench's own) and times
// keydown → the task that runs right after the first frame painted since the engine readout's
// data-view was written (the page writes it in the task that applies the lab worker's view, and
// the readout's text once typing pauses; the next
// frame's requestAnimationFrame callback posts a message, whose task runs after that frame's
// paint, the first one showing the new figures). Each row also says when the view was applied
// (viewAppliedMedian: keydown → readout; editedMedian: keydown → the box's edit, its input
// event) and how the frames fell: firstFrameEarly, the share of keys whose first frame after the
// box's edit was begun for a vsync before the keydown (the compositor starts a frame it had
// skipped, right away, rather than waiting for the next vsync), and viewInFirstFrame, the share
// whose view was painted in that first frame (else in a later one, the box's edit having been
// painted alone first). Then types continuously (one key
// every 60 ms for 3 s) at the largest n and records the frame intervals (requestAnimationFrame
// timestamps) and long tasks meanwhile. --cpu also traces the measured keystrokes and adds each
// row's thread time per key on the main thread and in the workers (bench/keystroke-cpu.mjs), and
// the engine's style, layout and paint on the main thread per kind of key (renderCpuByKind), which
// a loaded machine inflates far less than the wall-clock latency; tracing costs some time itself,
// so compare --cpu runs with --cpu runs. --dist serves another build (default dist/), e.g. a copy
// of an earlier commit's, to compare two builds in one sitting, or bench/control-keystroke, a page
// that takes the keystroke's path with none of the lab's work (the path's floor on this machine),
// or the lab's document with that path and none of its work (bench/frozen-page.mjs writes it);
// --label names it in the record. Prints a JSON line per measurement; --out also writes them
// to FILE as { runtime, results } for bench/report.mjs (./scripts/bench does).
import { writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { launchChromium, serveDir, closeServer, trainedHeadsShown } from '../tests/e2e/browser.mjs';
import { useStandIn } from '../tests/e2e/fixtures/pretrained-stand-in.mjs';
import { CPU_CATEGORIES, PHASES, keystrokeCpu } from './keystroke-cpu.mjs';
import { TYPED, TYPING_ON, sentence, startingTokens } from './keystroke-text.mjs';

const args = process.argv.slice(2);
const outIndex = args.indexOf('--out');
const OUT = outIndex >= 0 ? args.splice(outIndex, 2)[1] : null;
const trainedIndex = args.indexOf('--trained');
const TRAINED = trainedIndex >= 0 && args.splice(trainedIndex, 1).length > 0;
const standInIndex = args.indexOf('--stand-in');
const STAND_IN_V = standInIndex >= 0 ? Number(args.splice(standInIndex, 2)[1]) : 0;
const throttledIndex = args.indexOf('--throttled');
const THROTTLED_NS = throttledIndex >= 0 ? args.splice(throttledIndex, 2)[1].split(',').map(Number).filter((n) => n > 0) : [64];
const distIndex = args.indexOf('--dist');
const DIST_DIR = distIndex >= 0 ? args.splice(distIndex, 2)[1] : undefined;
// --pause MS: how long the page stays quiet after each key's analyses before the next key
// (default 400). A key after a longer quiet costs the page more (docs/BENCHMARKS.md, round 32).
const pauseIndex = args.indexOf('--pause');
const PAUSE_MS = pauseIndex >= 0 ? Number(args.splice(pauseIndex, 2)[1]) : 400;
if (!(PAUSE_MS >= 0)) throw new RangeError(`--pause: milliseconds ≥ 0, got ${PAUSE_MS}`);
const labelIndex = args.indexOf('--label');
const LABEL = labelIndex >= 0 ? args.splice(labelIndex, 2)[1] : null;
const cpuIndex = args.indexOf('--cpu');
const CPU = cpuIndex >= 0 && args.splice(cpuIndex, 1).length > 0;
const THROTTLE_RATE = 4;
const SIZES = args.map(Number).filter((n) => n > 0);
const NS = SIZES.length ? SIZES : [16, 64, 512];
const KEYSTROKES = Number(process.env.KEYSTROKES ?? 30);
const WARM_UP_KEYS = 20;

const withTimeout = (promise, ms, what) => {
  let timer;
  const late = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`keystroke: ${what} took over ${ms} ms`)), ms); });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
};
// What a typed key does to the tokens: a space ends a word (the tokens stay), the first letter
// after a space adds a token (the maps grow by a row and a column, every axis label moves), any
// other letter changes the last token's word. The row's median mixes the three in TYPED's
// proportions (8, 8 and 14 of 30 keys), so each kind's median is given too (keyToPixelsByKind,
// and with --cpu mainCpuByKind); perKey holds each key's own values, in order.
const KEY_KINDS = ['space', 'newToken', 'changedWord'];
const keyKinds = (keys) => keys.map((k, i) => (k.key === ' ' ? 'space' : keys[i - 1]?.key === ' ' ? 'newToken' : 'changedWord'));
const quantile = (xs, q) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(q * s.length))]; };

const { server, baseUrl } = await serveDir(DIST_DIR, { precompress: true });  // as a static host serves it
const sittingStart = { at: new Date().toISOString(), load: loadavg()[0] };
const browser = await launchChromium();
const results = [];
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } }); // the first-minute issue's screen
  if (STAND_IN_V) await useStandIn(context, { vocabSize: STAND_IN_V });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  // The identity rows first: the encoding alone (h=0); the trained rows switch the lanes' toggle.
  await page.goto(`${baseUrl}index.html#v=glove&h=0`);
  await page.waitForFunction(() => /last recompute/.test(document.getElementById('engine').textContent), null, { timeout: 60000 });
  await page.evaluate(() => {
    window.__keys = [];
    const engine = document.getElementById('engine');
    let pending = null;
    let lastKey = null; // pending, until the view's readout; lastKey, until the next key
    // The bench waits for key k's analyses by a promise asked for before the key, not by polling:
    // Playwright's waitForFunction polls at every animation frame, so each key would run with a
    // frame of the bench's own (a commit of every layer) and its call's script in its way.
    let waiting = null; // { k, resolve }
    const settleWaiting = () => {
      if (waiting && window.__keys[waiting.k]?.analysed !== undefined) { waiting.resolve(); waiting = null; }
    };
    window.__analysed = (k) => new Promise((resolve) => { waiting = { k, resolve }; settleWaiting(); });
    document.addEventListener('keydown', (event) => { pending = lastKey = window.__lastKey = { t0: performance.now(), key: event.key }; }, true);
    // The first frame after the box's edit (its vsync's time). Asked for at the edit's input
    // event, when the edit has asked for a frame anyway: a frame asked for at keydown would be
    // one the page itself might not need (the page holds a typed edit until its view arrives).
    document.addEventListener('input', () => {
      const p = lastKey;
      if (p && p.edited === undefined) { p.edited = performance.now(); requestAnimationFrame((t) => { p.firstFrame = t; }); }
    }, true);
    new MutationObserver(() => {
      // The page writes the readout's data-view when a view is applied and again when that view's
      // analyses have ended (app.js, showEngine): a write with no key waiting is the latter.
      if (!pending) {
        if (lastKey?.readout !== undefined) lastKey.analysed ??= performance.now();
        settleWaiting();
        return;
      }
      const line = engine.dataset.view ?? '';
      if (!/last recompute/.test(line)) return;
      const m = line.match(/last recompute ([\d.]+) ms \(n = (\d+)/);
      const p = pending;
      pending = null;
      p.readout = performance.now();
      p.recomputeMs = Number(m[1]);
      p.n = Number(m[2]);
      const channel = new MessageChannel();
      channel.port1.onmessage = () => { p.painted = performance.now(); window.__keys.push(p); };
      requestAnimationFrame((t) => { p.viewFrame = t; channel.port2.postMessage(0); });
      // Trained heads: each lane's m.inspect runs in the models' worker and is painted when its
      // answer arrives (data-state on each lane's trained box says pending until then); their
      // time is the frame after the last lane is ready.
      if (boxes().length) stripsFor = p;
      stripsReady();
    }).observe(engine, { attributes: true, attributeFilter: ['data-view'] });
    const boxes = () => [...document.querySelectorAll('#lanes .trained-box:not([hidden])')];
    let stripsFor = null;
    const stripsReady = () => {
      if (!stripsFor || !boxes().every((box) => box.dataset.state !== 'pending')) return;
      const p = stripsFor;
      stripsFor = null;
      const channel = new MessageChannel();
      channel.port1.onmessage = () => { p.strips = performance.now(); };
      requestAnimationFrame(() => channel.port2.postMessage(0));
    };
    new MutationObserver(stripsReady).observe(document.getElementById('lanes'), { attributes: true, attributeFilter: ['data-state'], subtree: true });
  });
  const box = page.locator('#sentence');
  // A quiet page at n tokens: the analyses after the last key have ended, plus 400 ms.
  const quietAt = async (n) => {
    await page.waitForFunction((n) => new RegExp(`n = ${n},.*analyses`).test(document.getElementById('engine').textContent) &&
      (!window.__lastKey || window.__lastKey.analysed !== undefined), n, { timeout: 120000 });
    await page.waitForTimeout(400);
  };
  const measure = async (n, heads, cpuThrottle = 1) => {
    const start = startingTokens(n, KEYSTROKES);
    await box.fill(sentence(start));
    await page.waitForFunction((n) => new RegExp(`n = ${n},.*analyses`).test(document.getElementById('engine').textContent), start, { timeout: 120000 });
    await box.focus();
    await page.keyboard.press('End');
    // Warm-up, not measured: V8 compiles hot wasm and JS with its optimising tiers in background
    // threads during the first seconds, which on two cores slows whatever is measured meanwhile.
    // A user has typed a while before any keystroke is "typical".
    for (let k = 0; k < WARM_UP_KEYS; k++) {
      await page.keyboard.type(TYPED[k % TYPED.length]);
      await page.waitForTimeout(120);
    }
    for (let k = 0; k < WARM_UP_KEYS; k++) await page.keyboard.press('Backspace');
    await quietAt(start);
    await page.evaluate(() => { window.__keys = []; });
    if (CPU) await browser.startTracing(page, { categories: CPU_CATEGORIES });
    const heavy = [];
    for (let k = 0; k < KEYSTROKES; k++) {
      // Let the analyses after the pause end before the next key (a quiet start each time): a
      // key that comes while they run waits for their current slice in the worker. The wait is
      // asked for before the key, so no call of the bench reaches the page while it is measured.
      const analysed = page.evaluate((k) => window.__analysed(k), k);
      await page.keyboard.type(TYPED[k % TYPED.length]);
      await withTimeout(analysed, 60000, `key ${k}'s analyses`);
      await page.waitForTimeout(PAUSE_MS);
      const text = await page.locator('#engine').textContent();
      const m = text.match(/analyses (\d+) ms/);
      if (m) heavy.push(Number(m[1]));
    }
    const keys = await page.evaluate(() => window.__keys);
    const cpu = CPU ? keystrokeCpu((await browser.stopTracing()).toString(), keys) : null;
    const latency = keys.map((k) => k.painted - k.t0);
    const strips = keys.filter((k) => k.strips).map((k) => k.strips - k.t0);
    const recompute = keys.map((k) => k.recomputeMs);
    const share = (test) => +(keys.filter(test).length / Math.max(1, keys.length)).toFixed(2);
    const kinds = keyKinds(keys);
    // Each kind's median of the per-key values xs (null for a kind no key was).
    const perKind = (xs, digits) => Object.fromEntries(KEY_KINDS.map((kind) => {
      const of = xs.filter((_, i) => kinds[i] === kind);
      return [kind, of.length ? +quantile(of, 0.5).toFixed(digits) : null];
    }));
    const row = {
      n, heads, cpuThrottle, pauseMs: PAUSE_MS, startTokens: start, tokens: keys.map((k) => k.n).at(-1), keystrokes: keys.length,
      keyToPixelsMedian: quantile(latency, 0.5), keyToPixelsP90: quantile(latency, 0.9), keyToPixelsMax: Math.max(...latency),
      recomputeMedian: quantile(recompute, 0.5), analysesMedian: heavy.length ? quantile(heavy, 0.5) : null,
      viewAppliedMedian: +quantile(keys.map((k) => k.readout - k.t0), 0.5).toFixed(1),
      editedMedian: +quantile(keys.filter((k) => k.edited).map((k) => k.edited - k.t0), 0.5).toFixed(1),
      firstFrameEarly: share((k) => k.firstFrame <= k.t0), viewInFirstFrame: share((k) => k.viewFrame === k.firstFrame),
      keyToPixelsByKind: perKind(latency, 1),
      ...(strips.length ? { keyToTrainedMedian: quantile(strips, 0.5), keyToTrainedP90: quantile(strips, 0.9) } : {}),
      ...(cpu ? { mainCpuMedian: +quantile(cpu.map((c) => c.main), 0.5).toFixed(2), workerCpuMedian: +quantile(cpu.map((c) => c.worker), 0.5).toFixed(2),
        mainCpuByKind: perKind(cpu.map((c) => c.main), 2),
        // The engine's share of the main thread's CPU, per kind: style, layout and paint.
        renderCpuByKind: Object.fromEntries(Object.keys(PHASES).map((phase) => [phase, perKind(cpu.map((c) => c[phase]), 2)])) } : {}),
      // Each key's own values, in order, so that two builds' blocks can be compared key by key.
      perKey: { kind: kinds, keyToPixels: latency.map((ms) => +ms.toFixed(1)),
        ...(cpu ? Object.fromEntries(['main', 'worker', ...Object.keys(PHASES)].map((what) =>
          [`${what}Cpu`, cpu.map((c) => +c[what].toFixed(2))])) : {}) },
    };
    results.push(row);
    console.log(JSON.stringify(row));
  };
  // The same sizes' keystrokes with the CPU slowed THROTTLE_RATE×, then back to the desktop profile.
  const throttled = async (heads) => {
    if (!THROTTLED_NS.length) return;
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLE_RATE });
    try {
      for (const n of THROTTLED_NS) await measure(n, heads, THROTTLE_RATE);
    } finally {
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    }
  };
  for (const n of NS) await measure(n, 'identity');
  await throttled('identity');

  const trainedOffered = await page.locator('#lane-heads-trained').count() > 0;
  if (TRAINED && !trainedOffered) console.error('keystroke: dist/ ships no trained models; the trained rows are skipped (try --stand-in V)');
  if (TRAINED && trainedOffered) {
    // Every lane's model loaded and painting (its note says so) before anything is measured.
    await page.locator('#lane-heads-trained').check();
    await page.waitForFunction(trainedHeadsShown, false, { timeout: 120000 });
    for (const n of NS) await measure(n, 'trained');
    await throttled('trained');
    await page.locator('#lane-heads-identity').check();
  }

  // Continuous typing at the largest n: frame intervals and long tasks.
  const n = Math.max(...NS);
  const start = startingTokens(n, TYPING_ON.keys);
  await box.fill(sentence(start));
  await quietAt(start);
  await box.focus();
  await page.keyboard.press('End');
  await page.evaluate(() => {
    window.__frames = [];
    window.__long = [];
    new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__long.push({ start: e.startTime, duration: e.duration }); }).observe({ type: 'longtask' });
    const tick = (t) => { window.__frames.push(t); if (!window.__stopFrames) requestAnimationFrame(tick); };
    requestAnimationFrame(tick);
  });
  const typingStart = await page.evaluate(() => performance.now());
  const started = Date.now();
  let i = 0;
  while (Date.now() - started < TYPING_ON.ms && i < TYPING_ON.keys) {
    await page.keyboard.type(TYPED[i++ % TYPED.length]);
    await page.waitForTimeout(TYPING_ON.everyMs);
  }
  const typingEnd = await page.evaluate(() => performance.now());
  await page.waitForTimeout(1500);  // the analyses after the last key
  const { frames, long } = await page.evaluate(() => { window.__stopFrames = true; return { frames: window.__frames, long: window.__long }; });
  // Typing: from the first key to the last key's frame (the analyses start 250 ms after it).
  // After: the pause, when the analyses run; reported apart.
  const typing = (t) => t >= typingStart && t <= typingEnd + 100;
  const intervals = frames.slice(1).map((t, j) => ({ t, gap: t - frames[j] }));
  const typingIntervals = intervals.filter((x) => typing(x.t)).map((x) => x.gap);
  const pauseIntervals = intervals.filter((x) => x.t > typingEnd + 100).map((x) => x.gap);
  const typingLong = long.filter((e) => typing(e.start)), pauseLong = long.filter((e) => e.start > typingEnd + 100);
  const maxOf = (xs) => (xs.length ? Math.max(...xs) : 0);
  // A frame that missed its vsync slot shows up as an interval of two slots or more.
  const missed = (gaps) => gaps.filter((x) => x > 16.7 * 1.5).length;
  const row = {
    n, startTokens: start, keysTyped: i, frames: typingIntervals.length,
    frameMedian: quantile(typingIntervals, 0.5), frameP95: quantile(typingIntervals, 0.95), frameMax: maxOf(typingIntervals),
    framesOver16_7: missed(typingIntervals),
    longTasks: typingLong.length, longTaskMax: maxOf(typingLong.map((e) => e.duration)),
    pauseFrames: pauseIntervals.length, pauseFramesOver16_7: missed(pauseIntervals),
    pauseLongTasks: pauseLong.length, pauseLongTaskMax: maxOf(pauseLong.map((e) => e.duration)),
  };
  results.push(row);
  console.log(JSON.stringify(row));
  // When and under what load (1-minute load average of the whole machine, at the start and end).
  const sitting = { ...sittingStart, end: new Date().toISOString(), loadEnd: loadavg()[0], build: LABEL ?? (DIST_DIR ? 'another build (--dist)' : 'dist/') };
  if (OUT) await writeFile(OUT, JSON.stringify({ runtime: `Chromium ${browser.version()} (headless)`, sitting, results }, null, 1));
} finally {
  await browser.close();
  await closeServer(server);
}
