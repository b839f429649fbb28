// The Train section's layout in headless Chromium: at 1280 × 800 it spans the
// page, the loss and length charts side by side and each at least 560 px wide, the loss by
// position under them, one learned-attention map per model side by side (at 1920 × 1080 the two
// charts still share the row, half each); its figures hold their
// place when training starts and ends; the loss axis fits the language model's curves (its lower end above 0); at 390 × 844 it
// stacks with no horizontal scroll; built off screen, its charts are drawn only once the reader
// comes near them. Tiny models on Moby-Dick, the default schemes (four), a budget
// of 40 steps.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserSuite, openLabPage, waitForSummary } from './browser.mjs';
import { DEFAULTS } from '../../dist/train/config.js'; // it imports the generated scheme table

const suite = browserSuite();
const BOOK = 'v=synthetic&t.task=book&t.steps=40';
const MODELS = DEFAULTS.schemes.length;

// The page, scrolled to the Train section once that is built (it is built as a reader nears it)
// and the analyses after the first pause have ended (waitForSummary): the worker is then free.
async function open(hash, viewport) {
  const opened = await openLabPage(suite.browser, suite.baseUrl, { hash: `#${hash}`, glove: false, ...viewport });
  await waitForSummary(opened.page);
  await opened.page.locator('#train').scrollIntoViewIfNeeded();
  await opened.page.locator('#train canvas[aria-label^="Loss"]').waitFor();
  return opened;
}

// Page-relative boxes of the section, its charts, its attention slot and its maps.
function boxes(page) {
  return page.evaluate(() => {
    const box = (node) => {
      const r = node.getBoundingClientRect();
      return { left: r.left, right: r.right, top: r.top + scrollY - origin, bottom: r.bottom + scrollY - origin, width: r.width, height: r.height };
    };
    // Tops from the section's own top: figures above it (the lanes, the measurements) paint as
    // they scroll into view and may move the whole section.
    const origin = document.getElementById('train').getBoundingClientRect().top + scrollY;
    const one = (selector) => box(document.querySelector(selector));
    return {
      section: one('#train'),
      lanes: one('.lanes-section'),
      loss: one('#train canvas[aria-label^="Loss"]'),
      lengths: one('#train canvas[aria-label^="Length generalisation"]'),
      positions: one('#train canvas[aria-label^="Held-out loss by position"]'),
      inspect: one('#train .train-inspect'),
      maps: [...document.querySelectorAll('#train canvas[aria-label^="Learned attention of layer 1, head 1"]')].map(box),
      overflow: document.documentElement.scrollWidth - innerWidth,
    };
  });
}

async function trainToBudget(page, count) {
  await page.locator('#train').getByRole('button', { name: 'Train', exact: true }).click();
  await page.waitForFunction((n) => {
    const lines = [...document.querySelectorAll('#train .train-status-line')];
    return lines.length === n && lines.every((l) => /budget reached/.test(l.textContent));
  }, count, { timeout: 90000 });
  // The maps paint once in view.
  await page.locator('#train .train-inspect').scrollIntoViewIfNeeded();
  await page.waitForFunction((n) => document.querySelectorAll('#train canvas[aria-label^="Learned attention of layer 1, head 1"]').length === n, count);
}

const near = (a, b, what, tolerance = 1) => assert.ok(Math.abs(a - b) <= tolerance, `${what}: ${a} against ${b}`);

test('at 1280 × 800 the section spans the page: charts side by side, ≥ 560 px each, maps side by side, nothing moves when training starts', async () => {
  const { page, problems, close } = await open(BOOK, { width: 1280, height: 800 });
  try {
    // Loss by position is folded (the page's default height); opened, it spans the section.
    await page.locator('#train .train-positions > summary').click();
    const before = await boxes(page);
    // Below the comparison, across both of the page's columns.
    assert.ok(before.lanes.bottom <= 0, `the lanes end ${before.lanes.bottom} px below the section's top`);
    assert.ok(before.section.width >= 1200, `section ${before.section.width} px wide`);
    for (const chart of ['loss', 'lengths']) assert.ok(before[chart].width >= 560, `${chart}: ${before[chart].width} px`);
    near(before.loss.top, before.lengths.top, 'the two charts\' tops');
    assert.ok(before.positions.top >= before.loss.bottom && before.positions.width >= 1200, `loss by position: ${JSON.stringify(before.positions)}`);
    assert.ok(before.lengths.left >= before.loss.right, 'the length chart right of the loss chart');
    assert.equal(before.overflow, 0);

    await trainToBudget(page, MODELS);
    const after = await boxes(page);
    // The charts and the attention figure kept their place and size; the section's height moved
    // by at most 1% (the download buttons, a few pixels at its foot).
    for (const key of ['top', 'left', 'width', 'height']) {
      near(after.loss[key], before.loss[key], `loss chart ${key}`);
      near(after.lengths[key], before.lengths[key], `length chart ${key}`);
      near(after.positions[key], before.positions[key], `loss-by-position chart ${key}`);
      near(after.inspect[key], before.inspect[key], `learned attention ${key}`);
    }
    assert.ok(Math.abs(after.section.height - before.section.height) <= 0.01 * before.section.height,
      `section ${before.section.height} → ${after.section.height} px`);
    // One map per model in one row, left to right, not overlapping, each at least 240 px (four
    // with their word gutters share the section's 1214 px: 250 px each).
    assert.equal(after.maps.length, MODELS);
    for (const [i, map] of after.maps.entries()) {
      near(map.top, after.maps[0].top, `map ${i} top`);
      assert.ok(map.width >= 240, `map ${i}: ${map.width} px`);
      if (i) assert.ok(map.left >= after.maps[i - 1].right, `map ${i} right of map ${i - 1}`);
    }

    // The loss axis fits the curves: from a bit below the lowest loss, not from 0.
    const label = await page.locator('#train canvas[aria-label^="Loss"]').getAttribute('aria-label');
    const [, low, high] = /the y axis runs from ([\d.]+) to ([\d.]*\d)/.exec(label) ?? [];
    const losses = (await page.locator('#train .train-status-line').allTextContents())
      .map((line) => Number(/training loss ([\d.]+)/.exec(line)[1]));
    assert.ok(Number(low) > 0, `the loss axis starts at ${low}`);
    assert.ok(Number(low) <= Math.min(...losses) && Number(high) >= Math.max(...losses), `${low}–${high} holds ${losses}`);
    assert.ok(Number(low) >= Math.min(...losses) - 1, `${low} is within a nat of the lowest loss ${Math.min(...losses)}`);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('at 1920 × 1080 the two charts share the section\'s width: each about half, none left for a third column', async () => {
  const { page, problems, close } = await open(BOOK, { width: 1920, height: 1080 });
  try {
    const { section, loss, lengths, positions } = await boxes(page);
    near(loss.top, lengths.top, 'the two charts\' tops');
    assert.ok(lengths.left >= loss.right, 'the length chart right of the loss chart');
    // The section's content is its width less its padding; two charts and one gap fill it.
    for (const [name, chart] of [['loss', loss], ['lengths', lengths]]) {
      assert.ok(chart.width >= 0.45 * section.width, `${name}: ${chart.width} px of a ${section.width} px section`);
    }
    assert.ok(lengths.right >= positions.right - 40, `the length chart ends ${positions.right - lengths.right} px short of the row`);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('at 390 × 844 the section stacks with no horizontal scroll, before and after training', async () => {
  const { page, problems, close } = await open(BOOK, { width: 390, height: 844 });
  try {
    const before = await boxes(page);
    assert.equal(before.overflow, 0, 'no horizontal scroll');
    assert.ok(before.lengths.top >= before.loss.bottom, 'the length chart under the loss chart');
    assert.ok(before.section.right <= 390 && before.loss.right <= 390, JSON.stringify(before.section));
    await trainToBudget(page, MODELS);
    const after = await boxes(page);
    assert.equal(after.overflow, 0, 'no horizontal scroll after training');
    // Two maps a row: maps 1 and 2 side by side, 3 and 4 under them; all inside the screen.
    near(after.maps[1].top, after.maps[0].top, 'maps 1 and 2 share a row');
    assert.ok(after.maps[2].top >= after.maps[0].bottom, 'map 3 on the next row');
    near(after.maps[3].top, after.maps[2].top, 'maps 3 and 4 share a row');
    for (const map of after.maps) assert.ok(map.left >= 0 && map.right <= 390, JSON.stringify(map));
    const clipped = await page.evaluate(() => [...document.querySelectorAll('#train *')]
      .filter((e) => e.getBoundingClientRect().right > innerWidth + 1).map((e) => `${e.className || e.tagName} “${e.textContent.slice(0, 40)}” ${e.getBoundingClientRect().right}`));
    assert.deepEqual(clipped, []);
    near(after.inspect.height, before.inspect.height, 'the learned-attention figure kept its height');
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

// The Train section is built only once the reader comes within a screen of it (web/page/when-near.js,
// pinned by load-order.test.mjs), and its charts are drawn then, at their laid-out size (a canvas
// keeps its default 300 × 150 until drawn).
test('the Train charts are built and drawn, at their size, once the reader nears them', async () => {
  const { page, problems, close } = await openLabPage(suite.browser, suite.baseUrl, { hash: `#${BOOK}`, glove: false, width: 1280, height: 800 });
  try {
    await waitForSummary(page);
    const below = await page.evaluate(() => document.getElementById('train').getBoundingClientRect().top - innerHeight);
    assert.ok(below > 800, `the Train section starts ${below} px below the window`);
    assert.equal(await page.locator('#train canvas').count(), 0, 'the Train section was built off screen');
    const loss = page.locator('#train canvas[aria-label^="Loss"]');
    await page.locator('#train').scrollIntoViewIfNeeded();
    await page.waitForFunction(() => (document.querySelector('#train canvas[aria-label^="Loss"]')?.width ?? 300) !== 300);
    const [width, cssWidth] = await loss.evaluate((canvas) => [canvas.width, canvas.getBoundingClientRect().width]);
    near(width, cssWidth, 'the drawn canvas\'s width against its CSS width (1 device pixel per CSS pixel)');
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});
