// Accessibility in headless Chromium: axe-core (a dev dependency; its source is handed to the page
// by the test, never fetched) on the page, the embed page and an element host page, with every
// figure drawn and every "Values as a table" disclosure open — no serious or critical violation
// may remain. Then the figure toolkit's promises (web/figures/heatmap-figure.js): the keyboard readout's live
// region is in the DOM, empty, from load and an arrow key fills it; a figure of several matrices
// is one tab stop whose arrows cross into the next matrix; each matrix up to 32 × 32 has its values
// as a table, larger ones point to the CSV. Needs a built dist/ (./scripts/build).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { browserSuite } from './browser.mjs';

const require = createRequire(import.meta.url);
const AXE_SOURCE = await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
const suite = browserSuite();

// Every panel, lanes with one matrix (attention), two (nope) and four (terms), controls and export.
const HOST = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>element host</title><link rel="icon" href="data:,"></head>
<body><main><h1>Element host</h1>
<posenc-lab id="lanes" sentence="the cat sat on the mat" schemes="additive,nope" panel="attention,terms,input" vectors="synthetic" d="64" controls="all"></posenc-lab>
<posenc-lab id="panels" sentence="the dog saw the cat" panel="pe,disturbance,retrieval,shift,distance,orthogonality,angles" vectors="synthetic" d="16" editable="false"></posenc-lab>
</main><script src="posenc-lab.js"></script></body></html>`;

async function open(path, { route } = {}) {
  const context = await suite.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  if (route) await page.route(`${suite.baseUrl}${path}`, (r) => r.fulfill({ contentType: 'text/html', body: route }));
  await page.goto(`${suite.baseUrl}${path}`);
  return { page, problems, close: () => context.close() };
}

/** Waits for every <posenc-lab> on the page to draw (each starts when scrolled near). */
async function drawAllElements(page) {
  await page.evaluate(async () => {
    const all = [...document.querySelectorAll('posenc-lab')];
    for (const element of all) {
      element.scrollIntoView();
      await Promise.race([element.ready, new Promise((r) => setTimeout(r, 15000))]);
    }
    scrollTo(0, 0);
  });
}

/** Opens every value-table disclosure, in the page and in every shadow root, and lets them fill: → tables made. */
async function openValueTables(page) {
  return page.evaluate(async () => {
    const roots = [document, ...[...document.querySelectorAll('posenc-lab')].map((e) => e.shadowRoot)];
    for (const root of roots) for (const details of root.querySelectorAll('details.fig-values')) details.open = true;
    // The figures paint (and fill their tables) once in view: walk the page down.
    for (let y = 0; y < document.documentElement.scrollHeight; y += innerHeight / 2) {
      scrollTo(0, y);
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    }
    scrollTo(0, 0);
    return roots.reduce((n, root) => n + root.querySelectorAll('.fig-values table').length, 0);
  });
}

/** axe-core's serious and critical violations: ["rule (impact): target — summary"]. */
async function seriousViolations(page, t, name) {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => `${n.target.join(' ')} — ${n.failureSummary?.split('\n')[1] ?? ''}`) }));
  });
  t.diagnostic(`${name}: ${violations.length ? violations.map((v) => `${v.id} (${v.impact}, ${v.nodes.length})`).join(', ') : 'no violations'}`);
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.slice(0, 3).map((n) => `${v.id} (${v.impact}): ${n}`));
}

// [name, path, how the page is ready, tables it must have opened, its own HTML if served by route]
const AXE_PAGES = [
  // The lanes unfolded (more=…), so their logit terms come from the lab worker and fill their
  // tables; ready once the analyses after the first pause have come back too.
  ['the page', 'index.html#v=synthetic&more=additive,concatenated,rotary', (page) => page.waitForFunction(
    () => /last recompute.*analyses \d/.test(document.getElementById('engine').textContent), null, { timeout: 30000 }), 10],
  ['the embed page', 'embed.html', drawAllElements, 10],
  ['an element host page', 'a11y-host.html', drawAllElements, 3, HOST],
];

for (const [name, path, ready, minTables, route] of AXE_PAGES) {
  test(`axe: ${name} has no serious or critical violation`, async (t) => {
    const { page, problems, close } = await open(path, { route });
    try {
      await ready(page);
      assert.ok(await openValueTables(page) >= minTables, 'the value tables were open for axe');
      assert.deepEqual(await seriousViolations(page, t, name), []);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });
}

test('the readout live region exists before the first move; arrows fill it; several matrices are one tab stop', async () => {
  const { page, close } = await open('a11y-host.html', { route: HOST });
  try {
    // At load, before the element has drawn anything: the regions are there, empty and polite.
    const atLoad = await page.evaluate(() => [...document.getElementById('lanes').shadowRoot.querySelectorAll('.fig-live')]
      .map((r) => ({ live: r.getAttribute('aria-live'), text: r.textContent })));
    assert.ok(atLoad.length >= 3, `${atLoad.length} live regions at load`);
    assert.ok(atLoad.every((r) => r.live === 'polite' && r.text === ''));

    await drawAllElements(page);
    const terms = page.locator('#lanes [data-figure="additive-terms"]');
    await terms.scrollIntoViewIfNeeded();
    const stops = await terms.evaluate((f) => [...f.querySelectorAll('canvas.map-canvas')].filter((c) => !c.closest('[hidden]')).map((c) => c.tabIndex));
    assert.ok(stops.length >= 2, `${stops.length} matrices`);
    assert.deepEqual(stops.filter((s) => s === 0), [0], 'exactly one canvas of the figure is in the tab order');

    const canvas = terms.locator('canvas.map-canvas').first();
    await canvas.focus();
    await page.keyboard.press('ArrowDown');
    const live = terms.locator('.fig-live');
    assert.match(await live.textContent(), /= -?\d/);
    assert.equal(await live.textContent(), await terms.locator('.cell-readout').textContent());
    // Across the first matrix's right edge (6 tokens: columns 0…5): focus and the tab stop move to the second.
    for (let i = 0; i < 6; i++) await page.keyboard.press('ArrowRight');
    const focused = await terms.evaluate((f) => {
      const canvases = [...f.querySelectorAll('canvas.map-canvas')];
      return { index: canvases.indexOf(f.getRootNode().activeElement), stops: canvases.map((c) => c.tabIndex) };
    });
    assert.equal(focused.index, 1);
    assert.deepEqual(focused.stops.slice(0, 2), [-1, 0]);
  } finally {
    await close();
  }
});

test('each matrix up to 32 × 32 has its values as a table; a larger one points to the CSV', async () => {
  const { page, close } = await open('a11y-host.html', { route: HOST });
  try {
    await drawAllElements(page);
    await openValueTables(page);
    const attention = page.locator('#lanes [data-figure="additive-attention"]');
    const table = await attention.evaluate((f) => {
      const t = f.querySelector('.fig-values table');
      return {
        caption: t.caption.textContent,
        columns: [...t.tHead.rows[0].cells].slice(1).map((c) => c.textContent),
        rows: t.tBodies[0].rows.length,
        first: [...t.tBodies[0].rows[0].cells].map((c) => c.textContent),
      };
    });
    assert.match(table.caption, /3 significant digits/);
    assert.equal(table.rows, 6);
    assert.equal(table.columns.length, 6);
    // Attention rows are probabilities: each row's values add up to 1 (3-digit rounding, 6 terms: ±0.003).
    const sum = table.first.slice(1).reduce((a, v) => a + Number(v), 0);
    assert.ok(Math.abs(sum - 1) <= 0.003, `row 0 sums to ${sum}`);
    const input = await page.locator('#lanes [data-figure="additive-input"] .fig-values').textContent();
    assert.match(input, /6 × 64, larger than 32 × 32; its values are in the CSV download/);
  } finally {
    await close();
  }
});
