// The first page in headless Chromium: it loads cleanly, paints the three attention maps, follows
// typing, shows an empty state, never turns user text into markup, and fits a phone's width.
// Needs a built dist/ (./scripts/build) and Debian's /usr/bin/chromium.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { access, mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serve } from '../../scripts/serve.mjs';

const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));
const SCREENSHOTS = fileURLToPath(new URL('../../build-e2e/screenshots/', import.meta.url));
const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
  '--disable-sync', '--no-first-run', '--disable-quic',
];
const SCHEMES = ['additive', 'concatenated', 'rotary'];

let server;
let browser;
let baseUrl;

before(async () => {
  await access(`${DIST}index.html`).catch(() => {
    throw new Error('dist/index.html is missing: run ./scripts/build first');
  });
  await mkdir(SCREENSHOTS, { recursive: true });
  server = await serve(DIST, 0);
  baseUrl = `http://127.0.0.1:${server.address().port}/`;
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
});

after(async () => {
  await browser?.close();
  await new Promise((done) => (server ? server.close(done) : done()));
});

// Opens the page and waits for the first maps; `problems` collects console errors and page errors.
async function openPage({ width = 1280, height = 900, colorScheme = 'light' } = {}) {
  const context = await browser.newContext({ viewport: { width, height }, colorScheme });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  await page.goto(baseUrl);
  await page.waitForSelector('#maps-panel:not([hidden])', { timeout: 10000 }).catch(async (error) => {
    await context.close();
    throw new Error(`the maps never appeared (${problems.join('; ') || 'no console errors'}): ${error.message}`);
  });
  return { page, problems, close: () => context.close() };
}

function readMaps(page) {
  return page.evaluate((schemes) => schemes.map((scheme) => {
    const canvas = document.querySelector(`figure[data-scheme="${scheme}"] canvas`);
    const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
    const colours = new Set();
    let opaque = 0;
    for (let i = 0; i < data.length; i += 4) {
      colours.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
      if (data[i + 3] === 255) opaque++;
    }
    return {
      scheme,
      width: canvas.width,
      height: canvas.height,
      colours: colours.size,
      opaque,
      pixels: canvas.toDataURL(),
      label: canvas.getAttribute('aria-label'),
      visible: canvas.getBoundingClientRect().width > 0,
    };
  }), SCHEMES);
}

const tokenTexts = (page) => page.locator('#tokens .token-text').allTextContents();

// Waits for the token list to show `expected`; on timeout, fails showing what it shows instead.
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

test('loads without errors and paints the three attention maps', async () => {
  const { page, problems, close } = await openPage();
  try {
    const maps = await readMaps(page);
    const n = (await tokenTexts(page)).length;
    assert.ok(n > 1, 'the default sentence has tokens');
    for (const map of maps) {
      assert.ok(map.visible, `${map.scheme} canvas is visible`);
      assert.equal(map.width, n, `${map.scheme} canvas has one column per token`);
      assert.equal(map.height, n, `${map.scheme} canvas has one row per token`);
      assert.equal(map.opaque, n * n, `${map.scheme} canvas is fully painted`);
      assert.ok(map.colours >= 4, `${map.scheme} canvas has varied colours (got ${map.colours})`);
      assert.match(map.label, new RegExp(`^${map.scheme}.*\\b${n}\\b`, 'i'), 'aria-label names the scheme and n');
    }
    assert.equal(new Set(maps.map((m) => m.pixels)).size, 3, 'the three schemes give three different pictures');
    const engine = await page.locator('#engine').textContent();
    assert.match(engine, /(wasm SIMD|scalar wasm) · last recompute \d+(\.\d)? ms/);
    await page.screenshot({ path: `${SCREENSHOTS}page-1280.png`, fullPage: true });
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('typing a sentence updates the tokens and repaints the maps', async () => {
  const { page, problems, close } = await openPage();
  try {
    const before = await readMaps(page);
    const box = page.getByLabel('Sentence', { exact: true });
    await box.fill('');
    // No clitics or numbers: their tokenization is the tokenizer's tests' business.
    await box.pressSequentially('Rotary keeps words whole, right?');
    const expected = ['rotary', 'keeps', 'words', 'whole', ',', 'right', '?'];
    await waitForTokens(page, expected);
    await page.waitForFunction((n) => document.querySelector('canvas.map-canvas').width === n, expected.length);
    const afterTyping = await readMaps(page);
    for (const [i, map] of afterTyping.entries()) {
      assert.equal(map.width, expected.length, `${map.scheme} canvas width follows n`);
      assert.equal(map.height, expected.length, `${map.scheme} canvas height follows n`);
      assert.notEqual(map.pixels, before[i].pixels, `${map.scheme} canvas was repainted`);
      assert.ok(map.colours >= 4, `${map.scheme} canvas is not blank`);
    }
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('blank input shows the empty state instead of maps', async () => {
  const { page, problems, close } = await openPage();
  try {
    await page.getByLabel('Sentence', { exact: true }).fill('   \n\t ');
    await page.waitForSelector('#empty-state:not([hidden])');
    assert.equal(await page.locator('#maps-panel').isHidden(), true);
    assert.equal(await page.locator('#tokens-panel').isHidden(), true);
    assert.match(await page.locator('#empty-state').textContent(), /type a sentence/i);
    await page.getByLabel('Sentence', { exact: true }).fill('back again');
    await waitForTokens(page, ['back', 'again']);
    assert.equal(await page.locator('#maps-panel').isVisible(), true);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('markup typed by the user stays literal text', async () => {
  const { page, problems, close } = await openPage();
  try {
    const payload = '<img src=x onerror="window.__xss=1">';
    await page.getByLabel('Sentence', { exact: true }).fill(payload);
    await page.waitForFunction(() => document.querySelectorAll('#tokens .token').length > 5);
    const tokens = await tokenTexts(page);
    assert.deepEqual(tokens.slice(0, 4), ['<', 'img', 'src', '=']);
    assert.equal(await page.locator('main img').count(), 0, 'no <img> element was created');
    // Give an injected onerror handler time to fire, were there one.
    await page.waitForTimeout(200);
    assert.equal(await page.evaluate(() => window.__xss), undefined);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('a long text is cut to 512 tokens and the page says so', async () => {
  const { page, problems, close } = await openPage();
  try {
    await page.getByLabel('Sentence', { exact: true }).fill('one two three four five. '.repeat(200));
    await page.waitForSelector('#truncation:not([hidden])');
    assert.match(await page.locator('#truncation').textContent(), /first 512 of 1,200 tokens/);
    assert.equal(await page.locator('#tokens .token').count(), 512);
    assert.deepEqual((await readMaps(page)).map((m) => m.width), [512, 512, 512]);
    await page.screenshot({ path: `${SCREENSHOTS}page-1280-512-tokens.png` });
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('controls: d and the causal mask recompute; a map can be read from the keyboard', async () => {
  const { page, problems, close } = await openPage();
  try {
    const before = await readMaps(page);
    await page.getByLabel('Causal mask').check();
    await page.waitForFunction((old) => document.querySelector('canvas.map-canvas').toDataURL() !== old, before[0].pixels);
    // With the mask, row 0 attends only to itself.
    const maskedRow = await page.evaluate(() => {
      const canvas = document.querySelector('canvas.map-canvas');
      const row = canvas.getContext('2d').getImageData(0, 0, canvas.width, 1).data;
      return [row.slice(0, 3).join(), row.slice(4, 7).join()];
    });
    assert.equal(maskedRow[0], '253,231,37', 'weight 1 is the palette top');
    assert.equal(maskedRow[1], '68,1,84', 'masked weight 0 is the palette bottom');

    const dim = page.getByLabel('Dimensions');
    await dim.fill('7');
    await dim.press('Tab');
    assert.equal(await page.locator('#dim-error').isVisible(), true, 'odd d is refused with a message');
    await dim.fill('32');
    assert.equal(await page.locator('#dim-error').isHidden(), true);
    await page.waitForFunction(() => /d = 32\)/.test(document.getElementById('engine').textContent));
    assert.equal(await page.locator('figure[data-scheme="concatenated"] [data-field="dWord"]').textContent(), '16');

    // Hovering the top-left cell of one map reads that cell in all three.
    const concatenated = page.locator('figure[data-scheme="concatenated"] canvas');
    const box = await concatenated.boundingBox();
    await page.mouse.move(box.x + 3, box.y + 3);
    assert.match(await page.locator('figure[data-scheme="additive"] .cell-readout').textContent(),
      /query “the” \(0\) → key “the” \(0\): 1\.000000/);
    await page.mouse.move(0, 0);
    assert.match(await page.locator('figure[data-scheme="additive"] .cell-readout').textContent(), /point at a cell/i);

    const additive = page.locator('figure[data-scheme="additive"] canvas');
    await additive.focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowDown');
    const readout = await page.locator('figure[data-scheme="rotary"] .cell-readout').textContent();
    assert.match(readout, /query “cat” \(1\) → key “cat” \(1\): \d\.\d{6}/);
    assert.match(await page.locator('#cell-announcer').textContent(), /Additive .*Concatenated .*Rotary /);
    await page.screenshot({ path: `${SCREENSHOTS}page-1280-cell-selected.png`, fullPage: true });
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('every control and map is reachable with the Tab key', async () => {
  const { page, problems, close } = await openPage();
  try {
    await page.getByLabel('Sentence', { exact: true }).focus();
    const reached = [];
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('Tab');
      reached.push(await page.evaluate(() => {
        const el = document.activeElement;
        return el.id || el.closest('figure')?.dataset.scheme || el.tagName;
      }));
    }
    for (const stop of ['dim', 'causal', 'tokens', ...SCHEMES]) assert.ok(reached.includes(stop), `Tab reaches ${stop} (${reached})`);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('fits a 390 px wide screen without horizontal scrolling', async () => {
  const { page, problems, close } = await openPage({ width: 390, height: 844 });
  try {
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(await overflow() <= 390, `scrollWidth ${await overflow()} fits 390`);
    for (const map of await readMaps(page)) assert.ok(map.visible, `${map.scheme} map is shown`);
    await page.screenshot({ path: `${SCREENSHOTS}page-390.png`, fullPage: true });
    await page.screenshot({ path: `${SCREENSHOTS}page-390-first-screen.png` });
    // A very long word must wrap, not widen the page.
    await page.getByLabel('Sentence', { exact: true }).fill(`a ${'x'.repeat(300)} b`);
    await waitForTokens(page, ['a', 'x'.repeat(300), 'b']);
    assert.ok(await overflow() <= 390, `scrollWidth ${await overflow()} fits 390 with a long word`);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('dark mode follows prefers-color-scheme', async () => {
  const { page, problems, close } = await openPage({ colorScheme: 'dark' });
  try {
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const [r, g, b] = background.match(/\d+/g).map(Number);
    assert.ok(r + g + b < 150, `dark background (got ${background})`);
    await page.screenshot({ path: `${SCREENSHOTS}page-1280-dark.png`, fullPage: true });
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});
