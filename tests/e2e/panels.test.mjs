// The analysis panels for every scheme, in headless Chromium: score versus distance (a curve per
// scheme, keyboard toggles, ALiBi clipping), rotation angles per RoPE pair (flags computed here
// independently), shift invariance and identity retrieval for all eleven schemes. Screenshots of
// the panels at 1280 and 390 px go to build-e2e/screenshots/ — look at them.
// Needs a built dist/ (./scripts/build) and Debian's /usr/bin/chromium.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { exportFrom, pageSuite, reveal, waitForSummary } from './browser.mjs';

const SCREENSHOTS = fileURLToPath(new URL('../../build-e2e/screenshots/', import.meta.url));
const SCHEMES = ['additive', 'concatenated', 'rotary', 'learned', 'alibi', 'nope', 't5', 'xpos', 'rope-pi', 'rope-ntk', 'yarn'];
const RELATIVE = ['rotary', 'xpos', 'rope-pi', 'rope-ntk', 'yarn', 'alibi', 't5', 'nope'];
// Relative schemes' attention among the original words after a shift: float rounding of weights
// in [0, 1] (≈ 1e-7); 1e-5 is the contract's attention tolerance. Absolute schemes move by far
// more (≈ 1e-2 on the default sentence).
const INVARIANT = 1e-5;

before(() => mkdir(SCREENSHOTS, { recursive: true }));

const openPage = pageSuite();

/** Waits for the heavy analyses, then reads a table panel as { scheme name: [cells] }. */
async function readTable(page, figure, rows) {
  await waitForSummary(page);
  await page.waitForFunction(({ figure: f, rows: r }) => document.querySelectorAll(`[data-figure="${f}"] tbody tr`).length === r,
    { figure, rows }, { timeout: 30000 });
  return page.evaluate((f) => Object.fromEntries([...document.querySelectorAll(`[data-figure="${f}"] tbody tr`)]
    .map((tr) => [tr.querySelector('th').textContent, [...tr.querySelectorAll('td')].map((td) => td.textContent)])), figure);
}

/** Scheme id → the name the page shows for it (the legend buttons use the same names). */
async function schemeNames(page) {
  return page.evaluate(async () => (await import('./pipeline/schemes.js')).SCHEME_NAMES);
}

const distanceLabel = (page) => page.locator('[data-figure="distance"] canvas.chart-canvas').getAttribute('aria-label');

test('score versus distance: a curve per scheme, named, in the CSV; toggled from the keyboard', async () => {
  const { page, problems, close } = await openPage({ hash: '#v=synthetic&d=64' });
  try {
    const names = await schemeNames(page);
    await reveal(page, '[data-figure="distance"]');
    const panel = page.locator('[data-figure="distance"]');
    await panel.scrollIntoViewIfNeeded();
    const label = await distanceLabel(page);
    assert.match(label, /score versus distance for d = 64/);
    for (const id of SCHEMES) {
      const button = panel.getByRole('button', { name: names[id], exact: true });
      assert.equal(await button.getAttribute('aria-pressed'), 'true', `${id} is shown`);
      assert.ok(label.includes(names[id]), `the chart's accessible name lists ${names[id]}`);
    }
    // The exported data hold one series per scheme, k = 0 … K (K = 128 by default).
    const download = await exportFrom(page, panel, /.*/, 'CSV data');
    const csv = (await import('node:fs')).readFileSync(await download.path(), 'utf8').trim().split('\n');
    for (const id of SCHEMES) {
      const rows = csv.filter((line) => line.startsWith(`${names[id]},`) || line.startsWith(`"${names[id]}",`));
      assert.equal(rows.length, 129, `${id}: 129 points in the CSV`);
    }
    // ALiBi is clipped by default, and the note says where its line leaves.
    assert.match(await panel.locator('.distance-note').textContent(), /ALiBi's −m·k \(m = 0\.5, head 1 of 8\) leaves the plotted range at k = \d+/);

    // Keyboard: Tab from the first toggle to ALiBi's, Space hides it, Enter shows it again.
    const canvasBefore = await panel.locator('canvas.chart-canvas').evaluate((c) => c.toDataURL());
    await panel.getByRole('button', { name: names.additive, exact: true }).focus();
    for (let i = 0; i < SCHEMES.indexOf('alibi'); i++) await page.keyboard.press('Tab');
    const alibi = panel.getByRole('button', { name: names.alibi, exact: true });
    assert.equal(await alibi.evaluate((b) => b === document.activeElement), true, 'Tab reaches the ALiBi toggle');
    await page.keyboard.press('Space');
    assert.equal(await alibi.getAttribute('aria-pressed'), 'false');
    assert.ok(!(await distanceLabel(page)).includes(names.alibi), 'hidden curves leave the accessible name');
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r())));
    assert.notEqual(await panel.locator('canvas.chart-canvas').evaluate((c) => c.toDataURL()), canvasBefore, 'the chart repaints');
    await page.keyboard.press('Enter');
    assert.equal(await alibi.getAttribute('aria-pressed'), 'true');

    // "Only the lanes' schemes" keeps the lanes' three (bold) and the bound; "Show all" restores.
    await panel.getByRole('button', { name: "Only the lanes' schemes" }).click();
    const pressed = await panel.locator('.curve-toggle[aria-pressed="true"]').allTextContents();
    assert.deepEqual(pressed, [names.additive, names.concatenated, names.rotary, 'RoFormer decay bound']);
    assert.deepEqual(await panel.locator('.curve-toggle.is-lane').allTextContents(), [names.additive, names.concatenated, names.rotary]);
    await panel.getByRole('button', { name: 'Show all' }).click();
    assert.equal(await panel.locator('.curve-toggle[aria-pressed="true"]').count(), SCHEMES.length + 1);

    // Fitting every curve brings ALiBi's whole line in: no clipping note.
    await panel.getByRole('combobox', { name: /^y range/ }).selectOption('all');
    assert.doesNotMatch(await panel.locator('.distance-note').textContent(), /leaves the plotted range/);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

// Plain RoPE at d = 100, base 10^4, L = 2048: pair i never turned when 2048·10^(−4·2i/100) < 2π,
// i.e. i > 50·ln(2048/2π)/ln(10^4) = 31.4: pairs 32–49, 18 of 50 (computed here, not read).
function unturnedPairs(d, base, L) {
  const pairs = [];
  for (let i = 0; i < d / 2; i++) if (L * base ** (-2 * i / d) < 2 * Math.PI) pairs.push(i);
  return pairs;
}

test('rotation angles: plain RoPE flagged beyond L, PI and YaRN not; nothing flagged when L′ ≤ L', async () => {
  const { page, problems, close } = await openPage({ hash: '#v=synthetic&d=100' });
  try {
    await reveal(page, '[data-figure="angles"]');
    const panel = page.locator('[data-figure="angles"]');
    await panel.scrollIntoViewIfNeeded();
    const expected = unturnedPairs(100, 10000, 2048);
    assert.equal(expected.length, 18);
    const text = await panel.locator('.angles-summary').textContent();
    assert.match(text, /pairs that meet angles never seen in training — /);
    assert.match(text, new RegExp(`plain RoPE \\(and xPos\\): ${expected.length} of 50 \\(pairs ${expected[0]}–${expected.at(-1)}\\)`));
    assert.match(text, /position interpolation: 0 of 50;/);
    assert.match(text, /YaRN: 0 of 50\./);
    // NTK-aware divides only its slowest pair by the full s: the other unturned pairs overshoot.
    assert.match(text, new RegExp(`NTK-aware: ${expected.length - 1} of 50 \\(pairs ${expected[0]}–${expected.at(-2)}\\)`));
    const label = await panel.locator('canvas.chart-canvas').getAttribute('aria-label');
    assert.match(label, /Largest rotation angle per RoPE pair/);
    assert.match(label, /plain RoPE: 18 of 50 pairs flagged/);
    // Keyboard readout: the chart gives radians for pair 0.
    await panel.locator('canvas.chart-canvas').focus();
    await page.keyboard.press('ArrowRight');
    assert.match(await panel.locator('.cell-readout').textContent(), /pair i .* = 0: .*raw 2048\b/);

    await page.evaluate(() => { location.hash = `${location.hash}&el=2048`; });
    await page.waitForFunction(() => /L' = 2048 \(s = 1\)/.test(document.querySelector('[data-figure="angles"] .angles-summary').textContent));
    assert.match(await panel.locator('.angles-summary').textContent(), /no pair meets an angle/);
    assert.match(await panel.locator('canvas.chart-canvas').getAttribute('aria-label'), /plain RoPE: 0 of 50 pairs flagged/);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('shift invariance: a value per scheme; relative ones at rounding error, absolute ones move', async () => {
  const { page, problems, close } = await openPage({ hash: '#sch=alibi,nope,yarn' });
  try {
    const names = await schemeNames(page);
    const table = await readTable(page, 'shift', SCHEMES.length);
    const columns = await page.locator('[data-figure="shift"] thead th').allTextContents();
    assert.deepEqual(columns.slice(0, 3), ['scheme', 'position signal', 'W\u00a0=\u00a0I']);
    assert.equal(columns.length, 4, 'W = I and one random-head column');
    for (const id of SCHEMES) {
      const cells = table[names[id]];
      assert.ok(cells, `${id} has a row`);
      const values = cells.slice(1).map(Number);
      assert.ok(values.every(Number.isFinite), `${id}: numbers (${cells})`);
      if (RELATIVE.includes(id)) assert.ok(values.every((v) => v <= INVARIANT), `${id} is shift-invariant (${values})`);
    }
    const additive = table[names.additive].slice(1).map(Number);
    const learned = table[names.learned].slice(1).map(Number);
    assert.ok(additive.every((v) => v > 100 * INVARIANT), `additive moves (${additive})`);
    assert.ok(learned.every((v) => v > 100 * INVARIANT), `learned moves (${learned})`);
    const concatenated = table[names.concatenated].slice(1).map(Number);
    assert.ok(concatenated[0] <= INVARIANT && concatenated[1] > 100 * INVARIANT, `concatenated: invariant only with W = I (${concatenated})`);
    assert.match(await page.locator('#summary-shift').textContent(), /relative schemes \(Rotary, xPos/);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('identity retrieval: 100% for every scheme that keeps x = αE, a measured value for the learned table', async () => {
  const { page, problems, close } = await openPage();
  try {
    const names = await schemeNames(page);
    const table = await readTable(page, 'retrieval', SCHEMES.length);
    for (const id of ['rotary', 'alibi', 'nope', 't5', 'xpos', 'rope-pi', 'rope-ntk', 'yarn']) {
      const [top1, rank, position, x] = table[names[id]];
      assert.equal(top1, '100.0%', `${id} decodes every word`);
      assert.equal(rank, '1.00');
      assert.match(position, /^none/);
      assert.equal(x, 'αE, checked equal', `${id}'s x was compared with αE`);
    }
    const [top1, rank, position, x] = table[names.learned];
    assert.match(top1, /^\d+\.\d%$/, 'learned: a percentage');
    assert.ok(Number.parseFloat(rank) >= 1);
    assert.equal(position, '100.0%', 'the seeded rows decode back to their positions');
    assert.match(x, /αE \+ L\(p\)/);
    assert.match(table[names.additive][0], /^\d+\.\d%$/);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('the analysis panels at 1280 and 390 px: screenshots, no horizontal overflow', async () => {
  for (const width of [1280, 390]) {
    const { page, problems, close } = await openPage({ width, height: 900 });
    try {
      await readTable(page, 'shift', SCHEMES.length);
      for (const id of ['panel-distance', 'panel-angles', 'panel-shift', 'panel-retrieval']) {
        await reveal(page, `#${id}`);
        const section = page.locator(`#${id}`);
        await section.scrollIntoViewIfNeeded();
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        await section.screenshot({ path: `${SCREENSHOTS}${id}-${width}.png` });
      }
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.equal(overflow, 0, `no horizontal scrolling at ${width} px`);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  }
});
