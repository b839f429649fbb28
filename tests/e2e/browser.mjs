// What every browser test needs: dist/ served on loopback and Debian's Chromium, headless, with
// the flags that keep it off the (closed) network.
import assert from 'node:assert/strict';
import { access } from 'node:fs/promises';
import { after, before } from 'node:test';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serve } from '../../scripts/serve.mjs';

export const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));

// Debian's Chromium, through chromium.sh: it merges the --disable-features lists that a launcher
// and CHROMIUM_ARGS each pass (Chromium would keep only the last), and names the package when
// the browser is missing.
export const CHROMIUM = fileURLToPath(new URL('./chromium.sh', import.meta.url));

// Root needs --no-sandbox; the next six stop Chromium's background connections. The features
// turned off are its omnibox popups (chrome://omnibox-popup.top-chrome, a WebUI page): Chromium
// 156 loads them in a renderer of their own for each new window, headless too, a second or so of
// CPU as each browser context opens, so a page opened in a fresh context would share the 2 cores
// with the browser's own window work through its load. A reader's window has long done that.
export const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
  '--disable-sync', '--no-first-run', '--disable-quic',
  '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup',
];

export function launchChromium(extraArgs = []) {
  return chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, ...extraArgs] });
}

/**
 * Serves dir (default dist/) on a free loopback port → { server, baseUrl }; `requires` must exist
 * in it. precompress: every compressible file compressed before it listens (scripts/serve.mjs).
 */
export async function serveDir(dir = DIST, { requires = 'index.html', precompress = false } = {}) {
  await access(join(dir, requires)).catch(() => {
    throw new Error(`${join(dir, requires)} is missing: run ./scripts/build first`);
  });
  const server = await serve(dir, 0, { precompress });
  return { server, baseUrl: `http://127.0.0.1:${server.address().port}/` };
}

/**
 * Throws when `server` (started with precompress) has compressed a body since it listened: the
 * measured load then shared the cores with its compressor, which a static host does not do.
 */
export function assertNothingCompressed(server) {
  const n = server.compressions();
  if (n) throw new Error(`the server compressed ${n} bodies while measuring: a file it serves changed after it started`);
}

export function closeServer(server) {
  return new Promise((done) => (server ? server.close(done) : done()));
}

/**
 * Opens the page (baseUrl + hash) in a fresh context and waits for its first recompute, and for
 * GloVe unless `glove` is false (default: unless the hash asks for synthetic vectors). `heads`:
 * 'identity' (default) adds h=0 to a hash that names no heads, because most page tests check the
 * encoding alone (W = I), whose maps are exact; 'default' opens the link as a reader would, with
 * the page's default trained heads (first-screen and trained-heads tests). Console
 * errors, page errors and HTTP errors are collected in `problems`. prepare(context), if given, runs
 * before the page opens; openSettings unfolds the settings panel once loaded.
 * → { page, problems, close }
 */
export async function openLabPage(browser, baseUrl, { hash = '', heads = 'identity', width = 1280, height = 900, colorScheme = 'light', glove = !/v=synthetic/.test(hash), prepare = null, openSettings = false } = {}) {
  if (heads === 'identity') hash = withIdentityHeads(hash);
  const context = await browser.newContext({ viewport: { width, height }, colorScheme, acceptDownloads: true });
  await prepare?.(context); // e.g. routes set up before the page loads
  const page = await context.newPage();
  const problems = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  await page.goto(baseUrl + hash);
  try {
    await page.waitForFunction(() => /last recompute/.test(document.getElementById('engine').textContent), null, { timeout: 15000 });
    if (glove) await waitForGlove(page);
    // The settings are folded by default; tests of the controls inside unfold them.
    if (openSettings) await page.evaluate(() => { document.getElementById('settings').open = true; });
  } catch (error) {
    await context.close();
    throw new Error(`the page never finished loading (${problems.join('; ') || 'no console errors'}): ${error.message}`);
  }
  return { page, problems, close: () => context.close() };
}

/**
 * For page.waitForFunction (it runs in the page, so it names nothing outside itself): every shown
 * lane's note says its trained map is in, or that no model ships for its scheme; with
 * `analysed`, the analyses after the first pause have run too (the engine line says how long).
 */
export function trainedHeadsShown(analysed = false) {
  const notes = [...document.querySelectorAll('#lanes .trained-box:not([hidden]) .trained-note')];
  return notes.length > 0 && notes.every((note) => /^Trained model|^No trained model/.test(note.textContent)) &&
    (!analysed || /analyses \d/.test(document.getElementById('engine').textContent));
}

/**
 * For evaluate on a <textarea> in either engine (it runs in the page): its computed `contain`, its
 * height and the height its rows give it (lines of its line-height, padding and border; CSS px),
 * and whether its text scrolls inside it.
 */
export function textBoxGeometry(box) {
  const style = getComputedStyle(box);
  const frame = ['paddingTop', 'paddingBottom', 'borderTopWidth', 'borderBottomWidth'].reduce((sum, side) => sum + parseFloat(style[side]), 0);
  return { contain: style.contain, height: box.getBoundingClientRect().height, rowsHeight: box.rows * parseFloat(style.lineHeight) + frame, scrolls: box.scrollHeight > box.clientHeight };
}

/** `hash` with h=0 (W = I) added unless it names the heads already. */
export function withIdentityHeads(hash) {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  if (params.has('h')) return hash;
  return hash && hash !== '#' ? `${hash}&h=0` : '#h=0';
}

/** Waits until GloVe has loaded and the page has recomputed with it (d = 100). */
export async function waitForGlove(page) {
  await page.waitForFunction(() => /GloVe 6B/.test(document.getElementById('vectors-status').textContent), null, { timeout: 20000 });
  // The switch happens one recompute later; the summary's analyses follow after typing pauses.
  await page.waitForFunction(() => /d = 100\)/.test(document.getElementById('engine').textContent), null, { timeout: 10000 });
}

/**
 * Waits until the summary has the analyses' numbers, which come a moment after the view: the
 * analyses they end are what the page's worker runs then, so a test that times or clicks something
 * after them does not share the worker with them.
 */
export async function waitForSummary(page) {
  await page.waitForFunction(summaryAnalysed, null, { timeout: 30000 });
}

/** For waitForFunction in either engine (it runs in the page): the summary holds the analyses' numbers. */
export function summaryAnalysed() {
  return document.getElementById('summary').getAttribute('aria-busy') === 'false';
}

/**
 * For a page test file: serves dist/ and launches Chromium before its tests and closes both after
 * them; → openPage(options), openLabPage with `defaults` under the options.
 */
export function pageSuite(defaults = {}) {
  const suite = browserSuite();
  return (options) => openLabPage(suite.browser, suite.baseUrl, { ...defaults, ...options });
}

/**
 * For a browser test file: serves dist/ and launches Chromium before its tests and closes both
 * after them; → { browser, baseUrl }, filled in once the tests start.
 */
export function browserSuite() {
  const suite = { browser: null, baseUrl: '', server: null };
  before(async () => {
    ({ server: suite.server, baseUrl: suite.baseUrl } = await serveDir());
    suite.browser = await launchChromium();
  });
  after(async () => {
    await suite.browser?.close();
    await closeServer(suite.server);
  });
  return suite;
}

/**
 * draw true: every element of the page that skips layout and paint off screen (computed
 * content-visibility auto, whichever of the page's rules set it) is drawn as if on screen; draw
 * false: those are left to skip again. Through the CSSOM: the page's CSP refuses added style
 * elements. A full-page capture shows the whole page only with them drawn.
 */
export async function drawSkipped(page, draw) {
  await page.evaluate((on) => {
    if (on) {
      globalThis.__drawnSkipped = [...document.querySelectorAll('*')].filter((element) => getComputedStyle(element).contentVisibility === 'auto');
      for (const element of globalThis.__drawnSkipped) element.style.contentVisibility = 'visible';
    } else {
      for (const element of globalThis.__drawnSkipped ?? []) element.style.contentVisibility = '';
      globalThis.__drawnSkipped = [];
    }
  }, draw);
}

/**
 * A full-page screenshot with every figure painted: what skips layout and paint off screen is
 * drawn for the capture (drawSkipped), and the page is walked down first so every lazily painted
 * figure draws.
 */
export async function fullPageScreenshot(page, path) {
  await drawSkipped(page, true);
  await page.evaluate(async () => {
    for (const details of document.querySelectorAll('details.lane-more')) details.open = true;
    for (let y = 0; y < document.documentElement.scrollHeight; y += innerHeight / 2) {
      scrollTo(0, y);
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    }
    scrollTo(0, 0);
  });
  await page.screenshot({ path, fullPage: true });
  await drawSkipped(page, false);
}

/**
 * Makes the first element matching `selector` shown, as a reader would: opens the folded
 * disclosures around it (a lane's encoded input and decomposition, the settings) and picks the tab
 * of the tab panel it is in (the Measurements; the lanes on a phone).
 */
export async function reveal(page, selector) {
  await page.evaluate((s) => {
    const target = document.querySelector(s);
    for (let node = target; node; node = node.parentElement) {
      if (node.matches('details:not([open])')) node.open = true;
      if (node.matches('[role="tabpanel"].tab-off')) document.querySelector(`[role="tab"][aria-controls="${node.id}"]`)?.click();
    }
  }, selector);
}

/**
 * Downloads a figure's file through its Export menu (web/figures/export.js): opens the menu of the
 * figure titled `title` within `scope` (a page, a locator or an element's host) and picks `format`
 * ('PNG image', 'SVG image', 'CSV data', 'JSON data'); `title` may be a RegExp. → the Download.
 */
export async function exportFrom(page, scope, title, format) {
  const name = (prefix) => (title instanceof RegExp ? new RegExp(`^${prefix}${title.source}`) : `${prefix}${title}`);
  const button = scope.getByRole('button', { name: name('Export '), exact: true });
  await button.scrollIntoViewIfNeeded();
  await button.click();
  const [download] = await Promise.all([page.waitForEvent('download'),
    scope.getByRole('menuitem', { name: title instanceof RegExp ? new RegExp(`^Download ${title.source}.* as ${format}$`) : `Download ${title} as ${format}` }).click()]);
  return download;
}

/**
 * Reads a figure's canvases (`[data-figure="name"]`, those matching `canvases`, not hidden) after
 * scrolling it into view and letting it paint: the size painted, the matrix's rows and cols (a
 * map larger than its device pixels is painted at their size), opaque pixels, distinct colours, a
 * data URL of the pixels, the accessible name and whether it is laid out.
 */
export async function readFigure(page, name, { canvases = 'canvas:not(.legend-ramp):not(.axis-canvas)' } = {}) {
  await reveal(page, `[data-figure="${name}"]`);
  const slot = page.locator(`[data-figure="${name}"]`);
  await slot.scrollIntoViewIfNeeded();
  await page.waitForTimeout(50);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  return page.evaluate(({ figure, selector }) => [...document.querySelectorAll(`[data-figure="${figure}"] ${selector}`)]
    .filter((c) => !c.closest('[hidden]'))
    .map((canvas) => {
      // A map's canvas may be larger than what it shows: object-view-box's inset crops its right
      // and bottom (web/figures/heatmap.js), and what lies there is never shown, so never read.
      const [, right = 0, bottom = 0] = (canvas.style.objectViewBox ?? '').match(/[\d.]+/g)?.map(Number) ?? [];
      const width = canvas.width - right;
      const height = canvas.height - bottom;
      let shown = canvas;
      if (right || bottom) {
        shown = Object.assign(document.createElement('canvas'), { width, height });
        shown.getContext('2d').drawImage(canvas, 0, 0);
      }
      const { data } = shown.getContext('2d').getImageData(0, 0, width, height);
      const colours = new Set();
      let opaque = 0;
      for (let i = 0; i < data.length; i += 4) {
        colours.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
        if (data[i + 3] === 255) opaque++;
      }
      return {
        opaque,
        width,
        height,
        rows: Number(canvas.dataset.rows ?? height),
        cols: Number(canvas.dataset.cols ?? width),
        colours: colours.size,
        pixels: shown.toDataURL(),
        label: canvas.getAttribute('aria-label') ?? '',
        visible: canvas.getBoundingClientRect().width > 0,
      };
    }), { figure: name, selector: canvases });
}

/**
 * What a shared link promises: a fresh page opened (openPage from pageSuite) at `url`'s hash passes
 * `checkRestored(page)`, then paints `figure` (read with `read`) pixel for pixel as `before`, the
 * same figure read on the page that made the link, without one problem.
 */
export async function assertLinkRestores(openPage, url, { figure, before, read = readFigure, checkRestored }) {
  const second = await openPage({ hash: new URL(url).hash });
  try {
    await checkRestored(second.page);
    const restored = await read(second.page, figure);
    assert.equal(restored[0].pixels, before[0].pixels, `the same ${figure} from the link`);
    assert.deepEqual(second.problems, []);
  } finally {
    await second.close();
  }
}

/**
 * The page's cost per keystroke: for each n of `lengths`, a sentence of n words is typed nine times
 * (alternately with a trailing space, so every input changes it); the first, warming up, is dropped
 * → { [n]: the median of the other eight "last recompute … ms" each view's engine line reports (its
 * data-view: typing holds the text until a pause) }; fails unless each median is a positive
 * number of milliseconds (how many is the bench's to judge).
 */
export async function medianRecompute(page, lengths) {
  const words = 'the quick brown fox jumps over a lazy dog while the king and queen watch'.split(' ');
  const medians = {};
  for (const n of lengths) {
    const text = Array.from({ length: n }, (_, i) => words[i % words.length]).join(' ');
    const times = await page.evaluate(async (sentence) => {
      const input = document.getElementById('sentence');
      const out = [];
      for (let i = 0; i < 9; i++) {
        input.value = sentence + (i % 2 ? ' ' : '');
        input.dispatchEvent(new Event('input'));
        await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
        out.push(Number(document.getElementById('engine').dataset.view.match(/last recompute ([\d.]+) ms/)[1]));
      }
      return out.slice(1).sort((a, b) => a - b);
    }, text);
    medians[n] = times[Math.floor(times.length / 2)];
    assert.ok(medians[n] > 0 && Number.isFinite(medians[n]), `${n} tokens: a median recompute of ${medians[n]} ms`);
  }
  return medians;
}
