// What the load leaves for later (web/page/when-near.js): the Train section's scripts are not
// fetched before the first view is painted and the lanes' trained models are in, and the section
// is built only once the reader comes near it (fetched ahead at an idle moment, its modules wait
// for that). A view's analyses wait for the frame that shows it, and so does the switch to GloVe
// once it is in (with its one-off costs in the worker). The page's shared chunks are
// asked for by the scripts that import them, not preloaded beside them, and what the page runs as
// it loads is compiled off its main thread (scripts/bundle-page.mjs).
// Read from the page's resource timing (Chromium lists a module worker's imports there too, but no
// worker imports the Train section's page modules). Needs a built dist/ (./scripts/build) and
// Debian's /usr/bin/chromium.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserSuite, summaryAnalysed } from './browser.mjs';
import { prepareModels } from './fixtures/pretrained-stand-in.mjs';
import { waitInPage } from '../../bench/long-tasks.mjs';

const suite = browserSuite();

// The engine line reports a recompute once the first view has been painted.
const viewPainted = () => /last recompute/.test(document.getElementById('engine').textContent);

// Frames held back, as Chromium does for up to a second at some loads: animation-frame callbacks
// wait until the test lets them run (window.__releaseFrames()).
async function holdFrames(page) {
  await page.addInitScript(() => {
    const held = [];
    const own = window.requestAnimationFrame.bind(window);
    window.requestAnimationFrame = (callback) => { held.push(callback); return held.length; };
    window.__releaseFrames = () => {
      window.requestAnimationFrame = own;
      for (const callback of held.splice(0)) own(callback);
    };
  });
}

test('the Train section loads after the first view and is built only when the reader nears it', async () => {
  const context = await suite.browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => { if (message.type() === 'error') problems.push(message.text()); });
  // The moment the engine line first reports a recompute: the first view has been painted.
  await page.addInitScript(() => {
    addEventListener('DOMContentLoaded', () => {
      const engine = document.getElementById('engine');
      const seen = new MutationObserver(() => {
        if (!/last recompute/.test(engine.textContent)) return;
        window.__firstView = performance.now();
        seen.disconnect();
      });
      seen.observe(engine, { childList: true, characterData: true, subtree: true });
    });
  });
  try {
    await page.goto(`${suite.baseUrl}#h=0&v=synthetic`);
    await page.waitForFunction(() => window.__firstView !== undefined, null, { timeout: 30000 });
    // Fetched at the first idle moment, and left unbuilt while the reader stays at the top.
    await page.waitForFunction(() => performance.getEntriesByType('resource').some((entry) => /\/train\/panel\.js$/.test(entry.name)), null, { timeout: 20000 });
    await page.waitForTimeout(1000);
    assert.equal(await page.locator('#train-root > *').count(), 0, 'the Train section was built with the reader two screens above it');
    // Its height is held on screen (styles/reserve.css), not on paper.
    const held = () => page.locator('#train-root').evaluate((root) => root.getBoundingClientRect().height);
    assert.ok(await held() > 1000, `the unbuilt section holds ${await held()} px`);
    await page.emulateMedia({ media: 'print' });
    assert.equal(await held(), 0, 'an unbuilt section prints as blank space');
    await page.emulateMedia({ media: 'screen' });
    await page.locator('#train').scrollIntoViewIfNeeded();
    await page.locator('#train').getByRole('button', { name: 'Train', exact: true }).waitFor({ timeout: 20000 });
    const { firstView, train } = await page.evaluate(() => {
      const fetched = performance.getEntriesByType('resource').map((entry) => ({ path: new URL(entry.name).pathname, start: entry.startTime }));
      return {
        firstView: window.__firstView,
        train: fetched.filter((entry) => /\/train\/[^/]+\.js$/.test(entry.path)),
      };
    });
    assert.ok(train.length > 0, 'the Train section\'s modules were fetched once it was near');
    for (const entry of train) assert.ok(entry.start > firstView, `${entry.path} fetched at ${entry.start.toFixed(0)} ms, before the first view at ${firstView.toFixed(0)} ms`);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('the analyses of a view wait for its frame: none while Chromium holds the page\'s frames back', async () => {
  const context = await suite.browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (error) => problems.push(error.message));
  await holdFrames(page);
  try {
    await page.goto(`${suite.baseUrl}#h=0&v=synthetic`);
    // Polled on a timer: Playwright's default polling asks for animation frames, and may keep the
    // held function it first found.
    const polled = { timeout: 30000, polling: 100 };
    await page.waitForFunction(viewPainted, null, polled);
    // Well past the 250 ms pause after which they are asked for, and well before the 2 s a page
    // with no frame at all waits (afterNextFrame).
    await page.waitForTimeout(1000);
    assert.equal(await page.evaluate(summaryAnalysed), false, 'the analyses ran before the view\'s frame');
    await page.evaluate(() => window.__releaseFrames());
    await page.waitForFunction(summaryAnalysed, null, polled);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('the switch to GloVe waits for the frame being painted: none while Chromium holds the page\'s frames back', async () => {
  let release;
  const hold = new Promise((resolve) => { release = resolve; });
  const context = await suite.browser.newContext({ viewport: { width: 1280, height: 800 } });
  // GloVe held back until the first view (on synthetic vectors) is painted, so it comes in while
  // the page's animation frames are held.
  await context.route(/\/glove-6b-100d-20k\.i8$/, async (route) => { await hold; await route.continue(); });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (error) => problems.push(error.message));
  await holdFrames(page);
  const status = () => page.locator('#vectors-status').textContent();
  try {
    await page.goto(`${suite.baseUrl}#h=0`);
    const polled = { timeout: 30000, polling: 100 };
    await page.waitForFunction(viewPainted, null, polled);
    release();
    // GloVe arrives and is decoded well within this; the page waits 2 s for a frame before it
    // switches without one (afterNextFrame), longer than this.
    await page.waitForTimeout(1200);
    assert.match(await status(), /^Loading GloVe/, 'the page switched to GloVe with its frames held');
    await page.evaluate(() => window.__releaseFrames());
    await page.waitForFunction(() => /^Word vectors: GloVe/.test(document.getElementById('vectors-status').textContent), null, polled);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

const trainFetched = () => performance.getEntriesByType('resource').some((entry) => /\/train\/panel\.js$/.test(entry.name));

test('the Train section\'s modules wait for the lanes\' trained models, then load at the next idle moment', async () => {
  let release;
  const hold = new Promise((resolve) => { release = resolve; });
  const context = await suite.browser.newContext({ viewport: { width: 1280, height: 800 } });
  await prepareModels(context, { hold });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (error) => problems.push(error.message));
  try {
    await page.goto(suite.baseUrl); // the default link: trained heads
    await page.waitForFunction(() => /^Loading the trained/.test(document.querySelector('#lanes .trained-note')?.textContent ?? ''), null, { timeout: 30000 });
    await page.waitForFunction(() => /^Word vectors: /.test(document.getElementById('vectors-status').textContent), null, { timeout: 30000 });
    // GloVe is in and the page idles: only the models, held back here, are still on their way.
    await page.waitForTimeout(2000);
    assert.equal(await page.evaluate(trainFetched), false, 'the Train section was fetched while the trained models were on their way');
    release();
    await page.waitForFunction(trainFetched, null, { timeout: 20000 });
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('a keyboard reader\'s first Tab builds the Train section, so Tab can reach it before a scroll does', async () => {
  const context = await suite.browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  try {
    await page.goto(`${suite.baseUrl}#h=0&v=synthetic`);
    await page.waitForFunction(viewPainted, null, { timeout: 30000 });
    await page.waitForTimeout(500);
    assert.equal(await page.locator('#train-root > *').count(), 0, 'built before any key');
    await page.keyboard.press('Tab');
    await page.locator('#train .train-buttons').waitFor({ state: 'attached', timeout: 20000 });
    const below = await page.evaluate(() => document.getElementById('train').getBoundingClientRect().top - innerHeight);
    assert.ok(below > 800, `the Train section starts ${below} px below the window, within a screen: a scroll could have built it`);
  } finally {
    await context.close();
  }
});

test('the page\'s chunks are fetched once a script importing them has arrived, not beside it', async () => {
  const context = await suite.browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  try {
    await page.goto(`${suite.baseUrl}#h=0&v=synthetic`);
    await page.waitForFunction(viewPainted, null, { timeout: 30000 });
    const { entries, chunks } = await page.evaluate(() => {
      const scripts = [...document.querySelectorAll('script[type="module"][src]')].map((script) => script.src);
      const fetched = performance.getEntriesByType('resource');
      return {
        entries: fetched.filter((entry) => scripts.includes(entry.name)).map((entry) => ({ name: entry.name, end: entry.responseEnd })),
        chunks: fetched.filter((entry) => /\/chunks\/[^/]+\.js$/.test(entry.name)).map((entry) => ({ name: entry.name, start: entry.startTime })),
      };
    });
    assert.ok(entries.length >= 2 && chunks.length >= 1, `read ${entries.length} module scripts and ${chunks.length} chunks`);
    const firstArrived = Math.min(...entries.map((entry) => entry.end));
    for (const chunk of chunks) {
      assert.ok(chunk.start >= firstArrived, `${chunk.name} was asked for at ${chunk.start.toFixed(1)} ms, before any module script had arrived (${firstArrived.toFixed(1)} ms): preloaded`);
    }
  } finally {
    await context.close();
  }
});

// V8 compiles a function on the main thread when it is first called, unless its file opens with the
// compile hint (scripts/bundle-page.mjs): then the function is compiled as the file streams in, on
// a background thread. The page's own renderer is the one that parsed its document.
test('the scripts the page runs as it loads are compiled off its main thread (V8\'s compile hint)', async () => {
  const context = await suite.browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  let tracing = false;
  try {
    await suite.browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-v8.compile', '__metadata'] });
    tracing = true;
    await page.goto(`${suite.baseUrl}#h=0&v=synthetic`);
    // Polled through CDP: Playwright's own waits inject its utility script into the page, whose
    // functions V8 would compile on the main thread as they are called.
    await waitInPage(await context.newCDPSession(page), viewPainted, null, 30000);
    const { traceEvents } = JSON.parse((await suite.browser.stopTracing()).toString());
    tracing = false;
    const renderers = new Set(traceEvents.filter((e) => e.name === 'ParseHTML' && e.args?.beginData?.url?.startsWith(suite.baseUrl)).map((e) => e.pid));
    const mains = new Set(traceEvents.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain' && renderers.has(e.pid))
      .map((e) => `${e.pid}:${e.tid}`));
    assert.ok(mains.size > 0, 'the trace has the page renderer\'s main thread');
    const compiled = (onMain) => traceEvents.filter((e) => e.ph === 'X' && e.name === 'V8.CompileCode' && renderers.has(e.pid) && mains.has(`${e.pid}:${e.tid}`) === onMain).length;
    // A handful remain; without the hint, a load compiled hundreds of functions on the main thread
    // (docs/BENCHMARKS.md, round 41).
    assert.ok(compiled(true) < 40, `${compiled(true)} functions compiled on the page's main thread before its first view`);
    const heads = await page.evaluate(async () => {
      const scripts = [...document.querySelectorAll('script[type="module"][src]')].map((script) => script.src);
      const head = async (url) => (await (await fetch(url)).text()).split('\n', 1)[0];
      return { startup: await Promise.all(scripts.map(head)), onDemand: await head(new URL('train/panel.js', location.href)) };
    });
    assert.ok(heads.startup.length >= 3 && heads.startup.every((line) => line === '//# allFunctionsCalledOnLoad'), `the page's scripts open with ${JSON.stringify(heads.startup)}`);
    assert.notEqual(heads.onDemand, '//# allFunctionsCalledOnLoad', 'the Train section, loaded on demand, is compiled as it is called');
  } finally {
    if (tracing) await suite.browser.stopTracing().catch(() => {});
    await context.close();
  }
});
