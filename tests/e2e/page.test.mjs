// The comparison page in headless Chromium: it loads cleanly with GloVe, paints every panel,
// follows typing, shows an empty state, never turns user text into markup, survives unicode and
// 20,000-word inputs, round-trips its state through the URL, exports its figures, fits a phone
// and works from the keyboard. Screenshots go to build-e2e/screenshots/ — look at them.
// Needs a built dist/ (./scripts/build) and Debian's /usr/bin/chromium.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { assertLinkRestores, fullPageScreenshot, medianRecompute, pageSuite, readFigure, reveal, waitForSummary } from './browser.mjs';

const SCREENSHOTS = fileURLToPath(new URL('../../build-e2e/screenshots/', import.meta.url));
const SCHEMES = ['additive', 'concatenated', 'rotary'];
const HEATMAPS = [...SCHEMES.flatMap((s) => [`${s}-input`, `${s}-attention`, `${s}-terms`]), 'pe'];
const CHARTS = ['spread', 'distance', 'orth'];
const TABLES = ['retrieval', 'shift'];

before(() => mkdir(SCREENSHOTS, { recursive: true }));

/**
 * Opens the page (optionally with a hash) and waits for the first figures and, unless synthetic
 * vectors were asked for, for GloVe. `problems` collects console errors, page errors and failed
 * requests; every test ends by asserting it is empty.
 */
const openPage = pageSuite({ openSettings: true });


const box = (page) => page.getByLabel('Sentence', { exact: true });
const tokenTexts = (page) => page.locator('#tokens .token-text').allTextContents();

async function waitForTokens(page, expected) {
  try {
    await page.waitForFunction(
      (want) => JSON.stringify([...document.querySelectorAll('#tokens .token-text')].map((s) => s.textContent)) === want,
      JSON.stringify(expected),
      { timeout: 5000 },
    );
  } catch {
    assert.deepEqual(await tokenTexts(page), expected, 'token list');
  }
}

/** Picks a format in a figure's Export menu and returns the downloaded file's name and bytes. */
async function exportFigure(page, name, kind) {
  await reveal(page, `[data-figure="${name}"]`);
  const menu = page.locator(`[data-figure="${name}"] .fig-menu-button`);
  await menu.scrollIntoViewIfNeeded();
  await menu.click();
  const item = page.locator(`[data-figure="${name}"] [role="menuitem"]`, { hasText: kind });
  const [download] = await Promise.all([page.waitForEvent('download'), item.click()]);
  const path = await download.path();
  return { name: download.suggestedFilename(), bytes: await readFile(path) };
}

const screenshot = (page, name) => fullPageScreenshot(page, `${SCREENSHOTS}${name}.png`);

test('loads GloVe without errors and paints every panel', async () => {
  const { page, problems, close } = await openPage();
  try {
    await waitForSummary(page);
    const tokens = await tokenTexts(page);
    const n = tokens.length;
    assert.ok(n > 5, 'the default sentence has tokens');
    for (const name of HEATMAPS) {
      const canvases = await readFigure(page, name);
      assert.ok(canvases.length >= 1, `${name} has a canvas`);
      for (const c of canvases) {
        assert.ok(c.visible, `${name} is visible`);
        assert.equal(c.opaque, c.width * c.height, `${name} is painted in full`);
        assert.ok(c.label.length > 20, `${name} has an accessible name (${c.label})`);
      }
      if (name.endsWith('attention')) {
        assert.equal(canvases[0].width, n, `${name} has one column per token`);
        assert.ok(canvases[0].colours >= 4, `${name} has varied colours`);
      }
    }
    assert.equal((await readFigure(page, 'additive-terms')).length, 4, 'additive shows four terms');
    assert.equal((await readFigure(page, 'concatenated-terms')).length, 4, 'concatenated shows four terms');
    assert.equal((await readFigure(page, 'rotary-terms')).length, 1, 'rotary shows one term');
    for (const name of CHARTS) {
      const [chart] = await readFigure(page, name);
      assert.ok(chart.visible && chart.colours > 10, `${name} chart is drawn (${chart.colours} colours)`);
      assert.ok(chart.label.length > 20, `${name} chart has an accessible name`);
    }
    for (const name of TABLES) {
      const rows = await page.locator(`[data-figure="${name}"] tbody tr`).count();
      assert.equal(rows, 11, `${name} table has one row for each of the eleven schemes`);
    }
    // Every figure has a legend or a key, and export buttons.
    const actions = await page.locator('[data-figure]').evaluateAll((slots) => slots.map((s) => [s.dataset.figure, s.querySelectorAll('.fig-actions').length]));
    assert.ok(actions.length >= HEATMAPS.length + CHARTS.length + TABLES.length, `${actions.length} figures`);
    for (const [name, count] of actions) assert.equal(count, 1, `${name} has one Export menu`);
    await reveal(page, '[data-figure="retrieval"]');
    // On screen: an off-screen figure's contents are skipped (content-visibility), and innerText
    // reads only what is rendered.
    await page.locator('[data-figure="retrieval"]').scrollIntoViewIfNeeded();
    const retrieval = await page.locator('[data-figure="retrieval"] tbody').innerText();
    assert.match(retrieval, /Rotary\s+100\.0%/, 'rotary keeps every word');
    assert.match(await page.locator('#summary').innerText(), /rotary/i);
    assert.match(await page.locator('#engine').textContent(), /(wasm SIMD|scalar wasm) · last recompute \d+(\.\d)? ms/);
    await screenshot(page, 'page-1280');
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('the Settings take their enum options and number ranges from the core’s names and the page’s ranges', async () => {
  const { SCHEME_TABLE } = await import('../../dist/scheme-table.mjs');
  const { INPUT_RANGES } = await import('../../dist/pipeline/state.js');
  const { page, problems, close } = await openPage({ hash: '#lay=half&cm=widened' });
  try {
    const read = () => page.evaluate(() => ({
      ...Object.fromEntries(['concat', 'layout', 'pairing'].map((id) => [id, [...document.getElementById(id).options].map((o) => o.value)])),
      unworded: [...document.querySelectorAll('#concat option, #layout option, #pairing option')].filter((o) => o.text === o.value).map((o) => o.value),
      chosen: ['concat', 'layout'].map((id) => document.getElementById(id).value),
      ranges: ['dim', 'dpos'].map((id) => { const i = document.getElementById(id); return { min: Number(i.min), max: Number(i.max), step: Number(i.step) }; }),
    }));
    const got = await read();
    assert.deepEqual(got.concat, [...SCHEME_TABLE.concatModes]);
    assert.deepEqual(got.layout, [...SCHEME_TABLE.layouts]);
    assert.deepEqual(got.pairing, [...SCHEME_TABLE.layouts]);
    assert.deepEqual(got.chosen, ['widened', 'half'], 'the link’s choices are shown once the options exist');
    assert.deepEqual(got.unworded, [], 'every name has the page’s wording beside it');
    assert.deepEqual(got.ranges, [INPUT_RANGES.d, INPUT_RANGES.dPos].map(({ min, max, step }) => ({ min, max, step })));
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('typing a sentence updates the tokens and repaints the figures', async () => {
  const { page, problems, close } = await openPage();
  try {
    const before = await readFigure(page, 'additive-attention');
    await box(page).fill('');
    await box(page).pressSequentially('Rotary keeps words whole, right?');
    const expected = ['rotary', 'keeps', 'words', 'whole', ',', 'right', '?'];
    await waitForTokens(page, expected);
    for (const scheme of SCHEMES) {
      const [attention] = await readFigure(page, `${scheme}-attention`);
      assert.equal(attention.width, expected.length, `${scheme} attention follows n`);
      assert.ok(attention.colours >= 4, `${scheme} attention is not blank`);
      const [input] = await readFigure(page, `${scheme}-input`);
      assert.equal(input.height, expected.length, `${scheme} input has one row per token`);
    }
    const after = await readFigure(page, 'additive-attention');
    assert.notEqual(after[0].pixels, before[0].pixels, 'the attention map was repainted');
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('blank input shows a friendly empty state, and typing brings the figures back', async () => {
  const { page, problems, close } = await openPage();
  try {
    await box(page).fill('   \n\t ');
    await page.waitForSelector('#empty-state:not([hidden])');
    assert.equal(await page.locator('#results').isHidden(), true);
    assert.match(await page.locator('#empty-state').textContent(), /type a sentence/i);
    await box(page).fill('back again');
    await waitForTokens(page, ['back', 'again']);
    assert.equal(await page.locator('#results').isVisible(), true);
    assert.equal(await page.locator('#failure').isHidden(), true);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('markup typed by the user or put in the link stays literal text', async () => {
  const payloads = [
    '<img src=x onerror="window.__xss=1">',
    '<script>window.__xss=2</script>',
    '"><svg onload="window.__xss=3"></svg>',
    '<iframe src="javascript:window.__xss=4"></iframe>',
  ];
  const hashPayload = `#s=${encodeURIComponent('<img src=y onerror="window.__xss=5">')}&d=${encodeURIComponent('<b onmouseover=window.__xss=6>')}`;
  const { page, problems, close } = await openPage({ hash: hashPayload });
  try {
    assert.match(await page.locator('#url-note').textContent(), /<b onmouseover/, 'the refused value is shown as text');
    for (const payload of payloads) {
      await box(page).fill(payload);
      await page.waitForFunction(() => document.querySelectorAll('#tokens .token').length > 3);
      // Click the first token so its text also lands in the neighbours table and readouts.
      await page.locator('#tokens button.token').first().click();
    }
    await page.mouse.move(0, 0);
    const attention = page.locator('[data-figure="additive-attention"] canvas.map-canvas').first();
    await attention.hover({ position: { x: 2, y: 2 } });
    await page.waitForTimeout(300);
    for (const selector of ['main img', 'main script', 'main svg', 'main iframe', 'main b']) {
      assert.equal(await page.locator(selector).count(), 0, `no ${selector} element was created`);
    }
    assert.equal(await page.evaluate(() => window.__xss), undefined);
    assert.ok((await tokenTexts(page)).includes('<'), 'angle brackets are tokens shown as text');
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('unicode, emoji, right-to-left and a 20,000-word text keep the page responsive', async () => {
  const { page, problems, close } = await openPage();
  try {
    await box(page).fill('Ünïcödé café 😀👍🏽 שלום עולם مرحبا بالعالم 中文 e\u0301');
    // The lab worker answers after the input event: wait for these words, not for any 8 tokens.
    await page.waitForFunction(() => [...document.querySelectorAll('#tokens .token')].some((t) => /café/.test(t.textContent)));
    const tokens = await tokenTexts(page);
    assert.ok(tokens.some((t) => /שלום/.test(t)), `Hebrew survives (${tokens})`);
    assert.ok(tokens.some((t) => /مرحبا/.test(t)), 'Arabic survives');
    assert.ok(await page.locator('#tokens .token.is-unknown').count() > 0, 'unknown words are marked');
    assert.equal(await page.locator('#unknown-legend').isVisible(), true, 'and explained');
    await screenshot(page, 'page-1280-unicode');

    const words = Array.from({ length: 20000 }, (_, i) => ['alpha', 'beta', 'gamma', 'delta'][i % 4]).join(' ');
    await box(page).fill(words);
    await page.waitForSelector('#truncation:not([hidden])');
    assert.match(await page.locator('#truncation').textContent(), /first 512 of 20,000 tokens/);
    assert.equal(await page.locator('#tokens .token').count(), 512);
    // Responsive: a keystroke at the end of the 20,000 words is reflected within a second, and
    // the main thread answers a timer promptly while analyses run.
    const started = Date.now();
    await box(page).press('End');
    await box(page).press('x');
    await page.waitForFunction(() => /last recompute/.test(document.getElementById('engine').textContent));
    const gap = await page.evaluate(() => new Promise((resolve) => {
      const t0 = performance.now();
      setTimeout(() => resolve(performance.now() - t0), 0);
    }));
    assert.ok(Date.now() - started < 3000, 'typing stays possible');
    assert.ok(gap < 1000, `main thread answers within a second (${gap.toFixed(0)} ms)`);
    const [map] = await readFigure(page, 'rotary-attention');
    assert.equal(map.cols, 512, 'the map has a column per token');
    // Painted at the device pixels it is shown on, never more (a 512² map on fewer pixels).
    const shown = await page.locator('[data-figure="rotary-attention"] canvas.map-canvas').evaluate((c) => Math.ceil(c.getBoundingClientRect().width * devicePixelRatio));
    assert.ok(map.width <= Math.max(shown, 1) + 2 && map.width <= 512, `painted ${map.width} px wide, shown on ${shown}`);
    assert.equal(map.opaque, map.width * map.height, 'painted in full');
    await page.screenshot({ path: `${SCREENSHOTS}page-1280-512-tokens.png` });
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('the state round-trips through the URL and restores the exact view', async () => {
  const { page, problems, close } = await openPage();
  try {
    await page.locator('#vectors').selectOption('synthetic');
    const dim = page.locator('#dim');
    await dim.fill('32');
    await page.locator('#dpos').fill('8');
    await page.locator('#concat').selectOption('widened');
    await page.locator('#base').fill('500');
    await page.locator('#alpha').fill('2');
    await page.locator('#layout').selectOption('half');
    await page.locator('#pairing').selectOption('half');
    await page.locator('#causal').check();
    await page.locator('#heads').selectOption('2');
    await box(page).fill('Shareable links keep every knob.');
    await page.waitForFunction(() => /h=2/.test(location.hash) && /s=Shareable/.test(location.hash));
    const url = page.url();
    for (const part of ['v=synthetic', 'd=32', 'dp=8', 'cm=widened', 'b=500', 'a=2', 'lay=half', 'pair=half', 'c=1', 'h=2']) {
      assert.ok(url.includes(part), `${part} is in the link ${url}`);
    }
    const before = await readFigure(page, 'concatenated-attention');
    await assertLinkRestores(openPage, url, {
      figure: 'concatenated-attention',
      before,
      async checkRestored(p2) {
        assert.equal(await box(p2).inputValue(), 'Shareable links keep every knob.');
        const controls = { vectors: 'synthetic', dim: '32', dpos: '8', concat: 'widened', layout: 'half', pairing: 'half', heads: '2' };
        for (const [id, value] of Object.entries(controls)) assert.equal(await p2.locator(`#${id}`).inputValue(), value, id);
        assert.equal(await p2.locator('#causal').isChecked(), true);
        assert.equal(await p2.locator('#url-note').isHidden(), true);
      },
    });
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('malformed values in the link fall back to defaults with a visible note', async () => {
  const { page, problems, close } = await openPage({ hash: '#s=Hello%20there&d=7&b=-3&lay=diagonal&h=banana&v=synthetic' });
  try {
    const note = await page.locator('#url-note').textContent();
    for (const key of ['d=7', 'b=-3', 'lay=diagonal', 'h=banana']) assert.ok(note.includes(key), `the note names ${key}: ${note}`);
    assert.equal(await page.locator('#dim').inputValue(), '64');
    assert.equal(await page.locator('#layout').inputValue(), 'interleaved');
    await waitForTokens(page, ['hello', 'there']);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('clicking a token highlights it in every lane and lists its nearest words', async () => {
  const { page, problems, close } = await openPage();
  try {
    await box(page).fill('the king spoke to the people');
    await waitForTokens(page, ['the', 'king', 'spoke', 'to', 'the', 'people']);
    await page.locator('#tokens button.token').nth(1).click();
    assert.equal(await page.locator('#tokens button.token').nth(1).getAttribute('aria-pressed'), 'true');
    for (const scheme of SCHEMES) {
      await readFigure(page, `${scheme}-attention`); // figures paint when scrolled into view
      const bands = page.locator(`[data-figure="${scheme}-attention"] .sel-band:not([hidden])`);
      assert.equal(await bands.count(), 2, `${scheme} attention highlights a row and a column`);
    }
    const table = page.locator('#neighbors table');
    await table.waitFor();
    const text = await table.innerText();
    assert.match(text, /before encoding/);
    const firstBefore = await page.locator('#neighbors td').first().locator('li').first().textContent();
    assert.match(firstBefore, /^king /, 'before encoding, “king” decodes to itself');
    assert.equal(await page.locator('#neighbors td').nth(1).locator('li').count(), 5, 'five neighbours after additive encoding');

    // Hovering a cell shows its exact value.
    const canvas = page.locator('[data-figure="rotary-attention"] canvas.map-canvas').first();
    await canvas.scrollIntoViewIfNeeded();
    const bounds = await canvas.boundingBox();
    await page.mouse.move(bounds.x + bounds.width * 0.25, bounds.y + bounds.height * 0.1);
    assert.match(await page.locator('[data-figure="rotary-attention"] .cell-readout').textContent(),
      /query “the” \(0\), key “king” \(1\) = \d\.\d+/);
    await page.screenshot({ path: `${SCREENSHOTS}page-1280-token-selected.png` });
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('exports: the concatenated cross terms are exactly zero with W = I; PNG and CSV download', async () => {
  const { page, problems, close } = await openPage();
  try {
    const json = JSON.parse((await exportFigure(page, 'concatenated-terms', 'JSON')).bytes.toString('utf8'));
    assert.equal(json.matrices.length, 4);
    const n = json.matrices[0].rows;
    assert.ok(n > 5);
    assert.ok(json.matrices[1].values.every((v) => v === 0), 'content · position is exactly 0');
    assert.ok(json.matrices[2].values.every((v) => v === 0), 'position · content is exactly 0');
    assert.ok(json.matrices[0].values.some((v) => v !== 0), 'content · content is not');
    assert.ok(json.matrices[3].values.some((v) => v !== 0), 'position · position is not');
    const additive = JSON.parse((await exportFigure(page, 'additive-terms', 'JSON')).bytes.toString('utf8'));
    assert.ok(additive.matrices[1].values.some((v) => v !== 0), 'additive cross terms are not zero');

    const png = await exportFigure(page, 'rotary-attention', 'PNG');
    assert.match(png.name, /\.png$/);
    assert.deepEqual([...png.bytes.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47], 'a PNG file');
    const csv = (await exportFigure(page, 'pe', 'CSV')).bytes.toString('utf8');
    assert.match(csv.split('\n')[0], /^matrix,row,row_label,column,column_label,value$/);
    const chartCsv = (await exportFigure(page, 'distance', 'CSV')).bytes.toString('utf8');
    assert.match(chartCsv, /^series,distance k,/);
    const tablePng = await exportFigure(page, 'shift', 'PNG');
    assert.deepEqual([...tablePng.bytes.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

// A folded lane's logit terms are not sent with its views (skipTerms), so its figure shows an old
// picture, or none, until opening the decomposition brings them. An export asked for in that
// moment (the details opened and the JSON picked in one task) must wait for them: an export from
// the old picture wrote {title} alone here.
test('a folded decomposition exported as it opens: the file holds the current terms', async () => {
  const { page, problems, close } = await openPage();
  try {
    const n = (await tokenTexts(page)).length;
    const figure = page.locator('[data-figure="concatenated-terms"] .fig');
    assert.equal(await figure.getAttribute('aria-busy'), 'true', 'folded, its terms are not the view\'s');
    const [download] = await Promise.all([page.waitForEvent('download'), page.evaluate(() => {
      const slot = document.querySelector('[data-figure="concatenated-terms"]');
      for (let node = slot; node; node = node.parentElement) if (node.matches('details:not([open])')) node.open = true;
      slot.querySelector('.fig-menu-button').click();
      [...slot.querySelectorAll('[role="menuitem"]')].find((item) => /JSON/.test(item.textContent)).click();
    })]);
    const json = JSON.parse(await readFile(await download.path(), 'utf8'));
    assert.equal(json.matrices?.length, 4, `four terms in ${JSON.stringify(json).slice(0, 120)}`);
    for (const m of json.matrices) assert.deepEqual([m.rows, m.cols, m.values.length], [n, n, n * n]);
    assert.equal(await figure.getAttribute('aria-busy'), null, 'open, it shows the view\'s terms');
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('controls: causal mask, an invalid d and synthetic vectors', async () => {
  const { page, problems, close } = await openPage({ hash: '#v=synthetic&s=the%20cat%20sat' });
  try {
    assert.equal(await page.locator('#alpha').inputValue(), '1', 'synthetic vectors default to α = 1');
    await page.locator('#causal').check();
    await page.waitForFunction(() => /c=1/.test(location.hash));
    await readFigure(page, 'additive-attention');
    const row = await page.evaluate(() => {
      const canvas = document.querySelector('[data-figure="additive-attention"] canvas.map-canvas');
      const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, 1).data;
      return [data.slice(0, 3).join(), data.slice(4, 7).join()];
    });
    assert.equal(row[0], '253,231,37', 'with the mask, the first word attends only to itself (weight 1)');
    assert.equal(row[1], '68,1,84', 'masked weight 0 is the palette bottom');
    const dim = page.locator('#dim');
    await dim.fill('7');
    await dim.press('Tab');
    assert.equal(await page.locator('#control-error').isVisible(), true, 'odd d is refused with a message');
    await dim.fill('16');
    await page.waitForFunction(() => /d = 16\)/.test(document.getElementById('engine').textContent));
    assert.equal(await page.locator('#control-error').isHidden(), true);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('every control, the token list and the figures are reachable with the keyboard', async () => {
  // more=additive: additive's encoded input and decomposition unfolded, so Tab reaches them.
  const { page, problems, close } = await openPage({ hash: '#v=synthetic&a=2&more=additive' });
  try {
    for (const id of ['sentence', 'vectors', 'dim', 'dpos', 'concat', 'base', 'alpha', 'layout', 'pairing', 'heads', 'causal', 'spread-length', 'shift-k', 'max-distance',
      'trained-length', 'eval-length']) {
      await reveal(page, `#${id}`); // the measurements' controls are on their tabs
      const label = page.locator(`label[for="${id}"]`);
      assert.equal(await label.isVisible(), true, `#${id} has a visible label`);
      // textContent: unlike innerText, it does not depend on what the browser has rendered.
      assert.ok((await label.textContent()).trim().length > 0, `#${id}'s label has text`);
    }
    await box(page).focus();
    const reached = new Set();
    for (let i = 0; i < 60; i++) {
      await page.keyboard.press('Tab');
      reached.add(await page.evaluate(() => {
        const el = document.activeElement;
        if (el.closest('#tokens')) return 'tokens';
        const figure = el.closest('[data-figure]');
        return figure ? `figure:${figure.dataset.figure}` : el.id || el.tagName;
      }));
    }
    for (const stop of ['vectors', 'dim', 'dpos', 'concat', 'base', 'alpha', 'alpha-auto', 'layout', 'pairing', 'heads', 'causal',
      'trained-length', 'eval-length', 'tokens', 'figure:additive-input']) {
      assert.ok(reached.has(stop), `Tab reaches ${stop} (${[...reached]})`);
    }
    // Arrow keys move the cell cursor in a focused map and read the cell out.
    const canvas = page.locator('[data-figure="concatenated-attention"] canvas.map-canvas').first();
    await canvas.focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowDown');
    assert.match(await page.locator('[data-figure="concatenated-attention"] .cell-readout').textContent(), /\(1\), key .*\(1\) = /);
    await page.keyboard.press('Enter');
    assert.equal(await page.locator('#tokens button.token').nth(1).getAttribute('aria-pressed'), 'true', 'Enter selects the row’s token');
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('fits a 390 px wide phone screen without horizontal scrolling, light and dark', async () => {
  for (const colorScheme of ['light', 'dark']) {
    const { page, problems, close } = await openPage({ width: 390, height: 844, colorScheme });
    try {
      await waitForSummary(page);
      const overflow = () => page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(await overflow() <= 390, `scrollWidth ${await overflow()} fits 390 (${colorScheme})`);
      await page.screenshot({ path: `${SCREENSHOTS}page-390-${colorScheme}-first-screen.png` });
      await screenshot(page, `page-390-${colorScheme}`);
      if (colorScheme === 'light') {
        await box(page).fill(`a ${'x'.repeat(300)} b`);
        await waitForTokens(page, ['a', 'x'.repeat(300), 'b']);
        await page.locator('#tokens button.token').nth(1).click();
        await page.locator('#neighbors table').waitFor();
        assert.ok(await overflow() <= 390, `scrollWidth ${await overflow()} fits 390 with a long word`);
      }
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  }
});

test('dark mode follows prefers-color-scheme', async () => {
  const { page, problems, close } = await openPage({ colorScheme: 'dark' });
  try {
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const [r, g, b] = background.match(/\d+/g).map(Number);
    assert.ok(r + g + b < 150, `dark background (got ${background})`);
    await waitForSummary(page);
    await screenshot(page, 'page-1280-dark');
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('every keystroke recomputes at 16, 64 and 512 tokens (d = 100), and the engine line says how long it took', async (t) => {
  const { page, problems, close } = await openPage();
  try {
    const medians = await medianRecompute(page, [16, 64, 512]);
    // medianRecompute checks each median is a positive time; how long is the bench's to say
    // (bench/keystroke.mjs): a busy test machine moves it 3×.
    t.diagnostic(`median recompute: ${JSON.stringify(medians)} ms`);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('a vector file brought by the user drives every lane, and GloVe comes back', async () => {
  const { page, problems, close } = await openPage();
  try {
    // A small 8-d GloVe-style text file: the default sentence's words plus fillers.
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648) * 2 - 1;
    const words = ['the', 'king', 'sat', 'on', 'throne', ',', 'and', 'queen', 'smiled', 'at', '.',
      ...Array.from({ length: 200 }, (_, i) => `word${i}`)];
    const text = words.map((w) => `${w} ${Array.from({ length: 8 }, () => random().toFixed(4)).join(' ')}`).join('\n');
    await page.locator('.byo-details-box > summary').click();
    await page.locator('#byo-vectors input[type="file"]').setInputFiles({ name: 'tiny-8d.txt', mimeType: 'text/plain', buffer: Buffer.from(text) });
    await page.waitForFunction(() => /tiny-8d\.txt/.test(document.getElementById('vectors-status').textContent), null, { timeout: 20000 });
    await page.waitForFunction(() => /d = 8\)/.test(document.getElementById('engine').textContent));
    assert.equal(await page.locator('#vectors').inputValue(), 'custom');
    assert.match(await page.locator('#vectors-status').textContent(), /tiny-8d\.txt: 211 words, d = 8 \(not kept in the link\)/);
    assert.equal(await page.locator('#dim').isDisabled(), true, 'the file fixes d');
    const [input] = await readFigure(page, 'additive-input');
    assert.equal(input.width, 8, 'the encoded input has the file’s 8 dimensions');
    await page.locator('#tokens button.token').nth(1).click();
    await page.locator('#neighbors table').waitFor();
    assert.match(await page.locator('#neighbors td').first().locator('li').first().textContent(), /^king /);
    await waitForSummary(page);
    assert.doesNotMatch(page.url(), /v=custom/, 'a local file is not put in the link');
    await page.getByRole('button', { name: /GloVe again/i }).click();
    await page.waitForFunction(() => /d = 100\)/.test(document.getElementById('engine').textContent));
    assert.equal(await page.locator('#vectors').inputValue(), 'glove');
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});
