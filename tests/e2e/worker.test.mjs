// The page's lab runs in a module worker (web/pipeline/lab-worker.js): typing faster than the
// worker answers never paints an older keystroke's view after a newer one, the page ends on the
// last keystroke's words, and the page's own thread loads no wasm.
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
      new MutationObserver(() => {
        const m = engine.textContent.match(/\(n = (\d+),/);
        if (m) window.__painted.push(Number(m[1]));
      }).observe(engine, { childList: true, characterData: true, subtree: true });
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
