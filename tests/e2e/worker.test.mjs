// The page's lab runs in a module worker (web/pipeline/lab-worker.js): typing faster than the
// worker answers never paints an older keystroke's view after a newer one, the page ends on the
// last keystroke's words, a keystroke's compute leaves once, before the browser edits the box
// (corrected when the edit was foretold wrongly), and the page's own thread loads no wasm.
// Needs a built dist/ (./scripts/build) and Debian's /usr/bin/chromium.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pageSuite } from './browser.mjs';

const openPage = pageSuite();
const WORDS = 'the quick brown fox jumps over a lazy dog while king and queen of the city watch from distant hill'.split(' ');

test('typing fast: no painted view is older than the one before it, and the page ends on the last keystroke', async () => {
  // Trained heads on, so the models' answers race the lanes' too.
  const { page, problems, close } = await openPage({ heads: 'default' });
  try {
    // The load's own repaints (each model's arrival and first maps) end, then the box is emptied
    // and its empty view painted, so every view recorded below comes from a keystroke.
    await page.waitForFunction(() => {
      const boxes = [...document.querySelectorAll('#lanes .trained-box:not([hidden])')];
      return boxes.length > 0 && boxes.every((box) => box.dataset.state === 'ready');
    });
    const box = page.getByLabel('Sentence', { exact: true });
    await box.fill('');
    await page.waitForFunction(() => /nothing to compute/.test(document.getElementById('engine').textContent));
    await page.evaluate(() => {
      window.__painted = [];
      const engine = document.getElementById('engine');
      // Each view writes its engine line on data-view (the text waits for the pause).
      new MutationObserver(() => {
        const m = engine.dataset.view.match(/\(n = (\d+),/);
        if (m) window.__painted.push(Number(m[1]));
      }).observe(engine, { attributes: true, attributeFilter: ['data-view'] });
    });
    await box.focus();
    // Keys with no pause between them: whether the worker keeps up or answers are overtaken and
    // dropped (tests/js/lab-worker.test.mjs pins that), no older view may follow a newer one.
    const text = WORDS.join(' ');
    await page.keyboard.type(text, { delay: 0 });
    const n = WORDS.length;
    await page.waitForFunction((count) => new RegExp(`\\(n = ${count},`).test(document.getElementById('engine').textContent) &&
      document.querySelectorAll('#tokens button.token').length === count, n);
    const painted = await page.evaluate(() => window.__painted);
    for (let i = 1; i < painted.length; i++) {
      assert.ok(painted[i] >= painted[i - 1], `a view of ${painted[i]} tokens was painted after one of ${painted[i - 1]}: ${painted.join(', ')}`);
    }
    // The trained maps end on the last words too.
    await page.waitForFunction((count) => [...document.querySelectorAll('#lanes .trained-box:not([hidden])')]
      .every((box) => box.dataset.state === 'ready'), n);
    const labels = (await page.$$eval('#lanes [data-figure$="-attention"] [role="img"]', (figures) => figures.map((f) => f.getAttribute('aria-label'))))
      .filter((label) => /attention weights/.test(label));
    assert.equal(labels.length, 3, 'one attention map per lane');
    for (const label of labels) assert.match(label, new RegExp(`${n} × ${n} tokens`), label);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

// Every 'compute' the page posts to its worker, and a mark for each input event (seen first, on
// the document's capture phase), in order.
const recordComputes = (context) => context.addInitScript(() => {
  window.__posts = [];
  const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function postMessage(message, ...rest) {
    if (message?.type === 'compute') window.__posts.push({ sentence: message.state.sentence });
    return post.call(this, message, ...rest);
  };
  document.addEventListener('input', () => window.__posts.push({ input: true }), true);
});
const tokenTexts = (page) => page.locator('#tokens .token-text').allTextContents();

test('a keystroke\'s compute leaves before the browser edits the box, once; an edit foretold wrongly is sent again', async () => {
  const { page, problems, close } = await openPage({ prepare: recordComputes });
  try {
    const box = page.getByLabel('Sentence', { exact: true });
    await box.fill('king and queen');
    await page.waitForFunction(() => /\(n = 3,/.test(document.getElementById('engine').textContent));
    await box.focus();
    await page.keyboard.press('End');
    await page.evaluate(() => { window.__posts = []; });
    await page.keyboard.type('s');
    await page.waitForFunction(() => [...document.querySelectorAll('#tokens .token-text')].at(-1)?.textContent === 'queens');
    // The text the edit makes, sent at beforeinput: before the input event, and not again after it.
    assert.deepEqual(await page.evaluate(() => window.__posts), [{ sentence: 'king and queens' }, { input: true }]);

    // Backspace after a family emoji (one grapheme of five code points, joined by U+200D) removes it
    // whole in Chromium, where one code point was foretold: the input event sends the box's text,
    // and the page ends showing it.
    await box.fill('king \u{1F468}\u200D\u{1F469}\u200D\u{1F467}');
    await page.waitForFunction(() => document.querySelectorAll('#tokens .token-text').length > 1);
    await page.keyboard.press('End');
    await page.evaluate(() => { window.__posts = []; });
    await page.keyboard.press('Backspace');
    await page.waitForFunction(() => /\(n = 1,/.test(document.getElementById('engine').textContent));
    assert.equal(await box.inputValue(), 'king ');
    assert.deepEqual(await tokenTexts(page), ['king']);
    assert.deepEqual(await page.evaluate(() => window.__posts),
      [{ sentence: 'king \u{1F468}\u200D\u{1F469}\u200D' }, { input: true }, { sentence: 'king ' }]);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('the page\'s own thread fetches no wasm: the cores and the models load in the worker', async () => {
  const { page, problems, close } = await openPage({ heads: 'default' });
  try {
    const fromWorker = await page.evaluate(() => performance.getEntriesByType('resource')
      .filter((entry) => /\.(wasm|safetensors|i8)$/.test(entry.name)).map((entry) => entry.name));
    assert.deepEqual(fromWorker, [], 'the page\'s resource timing lists none of the lab\'s files (a worker\'s requests are its own)');
    assert.match(await page.locator('#engine').textContent(), /^wasm SIMD · last recompute/);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});
