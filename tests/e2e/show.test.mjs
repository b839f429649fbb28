// A model trained by the PyTorch twin (python/posenc_lab, Debian's python3-torch) shown by the
// element: posenc_lab.show()'s notebook HTML written to a file and opened from file:// with the
// network off (it must need nothing but itself), and `model-src` on a plain page served beside
// dist/ (the model side and the model core fetched beside posenc-lab.js). Each draws one map per
// layer × head on the model's own tokens, with the weights the twin computes; what cannot be shown
// is said in the element. The notebook HTML is also opened in Firefox ESR (tests/e2e/firefox.mjs).
// Needs a built dist/ (./scripts/build), Debian's /usr/bin/chromium and firefox-esr.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DIST, browserSuite, exportFrom } from './browser.mjs';
import { launchFirefox } from './firefox.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// axe-core (a dev dependency), handed to the frame as text: the page may fetch nothing.
const AXE_SOURCE = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const run = promisify(execFile);
const suite = browserSuite();
// The twin's model: a character model of the book, 2 layers × 2 heads, so the maps are L×h = 4.
const LAYERS = 2;
const HEADS = 2;
// Quotes and an ampersand: markup characters the book has, which must reach the element as text.
const SENTENCE = 'Call me "Ishmael" & \'go\';';
// The core's float32 forward pass against torch's: the parity suite's bound for attention
// (python/tests/test_parity.py, VALUE_TOL), as the JSON export carries each float32 exactly.
const WEIGHT_TOL = 1e-5;

let dir;
let weights; // the twin's weights file (bytes)
let expected; // { attention: L·h·n·n numbers, pieces, n }: what the twin's show() computed

/** Runs python3 in python/ (the package on the path) with POSENC_LAB_DIST = dist/. */
function python(args) {
  return run('/usr/bin/python3', args, { cwd: join(ROOT, 'python'), timeout: 180000, env: { ...process.env, POSENC_LAB_DIST: DIST } });
}

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'posenc-show-'));
  const model = join(dir, 'twin-rotary.safetensors');
  await python(['-m', 'posenc_lab.train', '--task', 'text', '--text', join(ROOT, 'data/moby-dick.txt'), '--scheme', 'rotary',
    '--d', '16', '--layers', String(LAYERS), '--heads', String(HEADS), '--context', '32', '--steps', '3', '--batch', '4', '--out', model]);
  weights = await readFile(model);
  // The notebook's output as a page of its own, and the numbers the twin computed for it.
  const script = `import json, sys
from posenc_lab import show
shown = show(sys.argv[1], sys.argv[2])
open(sys.argv[3], "w", encoding="utf-8").write("<!doctype html><html lang=en><head><meta charset=utf-8><title>notebook</title></head><body>" + shown._repr_html_() + "</body></html>")
json.dump({"attention": shown.attention.flatten().tolist(), "pieces": shown.pieces, "n": len(shown.tokens)}, open(sys.argv[4], "w"))`;
  await python(['-c', script, model, SENTENCE, join(dir, 'notebook.html'), join(dir, 'expected.json')]);
  expected = JSON.parse(await readFile(join(dir, 'expected.json'), 'utf8'));
});

after(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** A fresh page that records every request and every problem. */
async function newPage(options = {}) {
  const context = await suite.browser.newContext({ viewport: { width: 1100, height: 900 }, acceptDownloads: true, ...options });
  const page = await context.newPage();
  const problems = [];
  const requests = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => { if (message.type() === 'error') problems.push(`console: ${message.text()}`); });
  page.on('request', (request) => requests.push(request.url().slice(0, 60)));
  return { context, page, problems, requests };
}

/** The maps of the element `host` (a locator) once drawn: canvases' titles, distinct colours and token chips. */
async function drawnMaps(host, count) {
  await host.locator('[data-figure="attention"] canvas.map-canvas').nth(count - 1).waitFor({ timeout: 60000 });
  return host.evaluate((element) => {
    const root = element.shadowRoot;
    const panel = root.querySelector('[data-figure="attention"]'); // the model's heads (model-src)
    const canvases = [...panel.querySelectorAll('canvas.map-canvas')];
    return {
      titles: [...panel.querySelectorAll('.tile-title')].map((t) => t.textContent),
      colours: canvases.map((canvas) => {
        const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
        const seen = new Set();
        for (let i = 0; i < data.length; i += 4) seen.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
        return seen.size;
      }),
      label: canvases[0].getAttribute('aria-label'),
      chips: [...root.querySelectorAll('ol.tokens .token-run li')].map((li) => li.textContent),
      status: root.querySelector('.pl-status').textContent,
    };
  });
}

test("show()'s notebook HTML draws the twin's heads from a file with the network off, with the twin's weights", async () => {
  const { context, page, problems, requests } = await newPage({ offline: true });
  try {
    await page.goto(pathToFileURL(join(dir, 'notebook.html')).href);
    const frame = page.frameLocator('iframe.posenc-lab-show');
    const maps = await drawnMaps(frame.locator('posenc-lab'), LAYERS * HEADS);
    assert.deepEqual(maps.titles, ['layer 1, head 1', 'layer 1, head 2', 'layer 2, head 1', 'layer 2, head 2']);
    for (const colours of maps.colours) assert.ok(colours > 8, `a drawn map has many colours (${colours})`);
    const n = [...SENTENCE].length;
    assert.ok(maps.label.includes(`2 layers × 2 heads, ${n} × ${n} tokens`), maps.label);
    // The chips are the model's tokens: the sentence character by character (the markup as text).
    assert.equal(maps.chips.length, n);
    assert.deepEqual(expected.pieces, [...SENTENCE]);
    const download = await exportFrom(page, frame.locator('posenc-lab'), 'Learned attention', 'JSON data');
    const { matrices } = JSON.parse(await readFile(await download.path(), 'utf8'));
    assert.equal(matrices.length, LAYERS * HEADS);
    const shown = matrices.flatMap((m) => Object.values(m.values));
    assert.equal(shown.length, expected.attention.length);
    const worst = Math.max(...shown.map((v, i) => Math.abs(v - expected.attention[i])));
    assert.ok(worst <= WEIGHT_TOL, `element and twin differ by ${worst}`);
    assert.deepEqual(matrices[0].rowLabels.slice(0, 2), ['query “C” (0)', 'query “a” (1)']);
    // The frame told the notebook's page its height, and it took it.
    const heights = await page.evaluate(() => {
      const frame = document.querySelector('iframe.posenc-lab-show');
      return { frame: frame.getBoundingClientRect().height, inner: Number(frame.style.height.replace('px', '')) };
    });
    assert.ok(heights.frame > 300 && heights.frame === heights.inner, JSON.stringify(heights));
    // Accessible as the lab's other figures are (tests/e2e/a11y.test.mjs): axe on the frame's
    // document with every value table open finds no serious or critical violation.
    const frameHandle = await page.$('iframe.posenc-lab-show').then((f) => f.contentFrame());
    await frameHandle.evaluate(AXE_SOURCE);
    const violations = await frameHandle.evaluate(async () => {
      const root = document.querySelector('posenc-lab').shadowRoot;
      for (const details of root.querySelectorAll('details.fig-values')) details.open = true;
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      const tables = root.querySelectorAll('.fig-values table').length;
      const result = await window.axe.run(document, { resultTypes: ['violations'] });
      return { tables, serious: result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id) };
    });
    assert.ok(violations.tables >= LAYERS * HEADS, `the value tables were open (${violations.tables})`);
    assert.deepEqual(violations.serious, []);
    // Nothing was fetched but the file itself and data: URLs inside it.
    assert.deepEqual(requests.filter((url) => !/^(file|data|about|blob):/.test(url)), []);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test('without wasm SIMD the notebook HTML draws the same heads with the scalar model core inside it', async () => {
  const { context, page, problems } = await newPage({ offline: true });
  try {
    // web/posenc.mjs picks the SIMD cores when WebAssembly.validate accepts its SIMD probe; an
    // engine without SIMD refuses it (addInitScript runs in the iframe's document too).
    await context.addInitScript(() => { WebAssembly.validate = () => false; });
    await page.goto(pathToFileURL(join(dir, 'notebook.html')).href);
    const host = page.frameLocator('iframe.posenc-lab-show').locator('posenc-lab');
    const maps = await drawnMaps(host, LAYERS * HEADS);
    assert.match(maps.status, /scalar wasm/);
    const download = await exportFrom(page, host, 'Learned attention', 'JSON data');
    const shown = JSON.parse(await readFile(await download.path(), 'utf8')).matrices.flatMap((m) => Object.values(m.values));
    const worst = Math.max(...shown.map((v, i) => Math.abs(v - expected.attention[i])));
    assert.ok(worst <= WEIGHT_TOL, `scalar element and twin differ by ${worst}`);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test("Firefox ESR draws show()'s notebook HTML from a file too, fetching nothing", async () => {
  const firefox = await launchFirefox();
  try {
    const page = await firefox.newPage();
    const problems = [];
    const requests = [];
    page.on('console', (message) => { if (message.type() === 'error') problems.push(`console: ${message.text()}`); });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('request', (request) => requests.push(request.url().slice(0, 60)));
    await page.goto(pathToFileURL(join(dir, 'notebook.html')).href);
    const frame = page.frames().find((f) => f !== page.mainFrame());
    await frame.waitForFunction((count) => document.querySelector('posenc-lab')?.shadowRoot
      ?.querySelectorAll('[data-figure="attention"] canvas.map-canvas').length === count, { timeout: 60000 }, LAYERS * HEADS);
    const status = await frame.evaluate(() => document.querySelector('posenc-lab').shadowRoot.querySelector('.pl-status').textContent);
    assert.match(status, new RegExp(`^${[...SENTENCE].length} tokens, rotary model of 2 layers × 2 heads`));
    assert.deepEqual(requests.filter((url) => !/^(file|data|about|blob):/.test(url)), []);
    assert.deepEqual(problems, []);
  } finally {
    await firefox.close();
  }
});

const HOST = (elements) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>model host</title><link rel="icon" href="data:,"></head>
<body>${elements}<script src="posenc-lab.js"></script></body></html>`;

test('model-src on a plain page: the heads of a served weights file, and each failure named in its element', async () => {
  const { context, page, problems } = await newPage();
  const base = suite.baseUrl;
  const serve = (name, body, contentType) => page.route(`${base}${name}`, (route) => route.fulfill({ body, contentType }));
  try {
    await serve('twin.safetensors', weights, 'application/octet-stream');
    await serve('hostile.safetensors', Buffer.from([255, 255, 255, 255, 255, 255, 255, 127, 123, 125]), 'application/octet-stream');
    await serve('host.html', HOST(`<posenc-lab id="good" model-src="twin.safetensors" sentence="the whale"></posenc-lab>
<posenc-lab id="hostile" model-src="hostile.safetensors"></posenc-lab>
<posenc-lab id="missing" model-src="nowhere.safetensors"></posenc-lab>
<posenc-lab id="outside" model-src="twin.safetensors" sentence="the whale €"></posenc-lab>
<posenc-lab id="mixed" model-src="twin.safetensors" sentence="the whale" panel="attention,pe" vectors="synthetic"></posenc-lab>`), 'text/html');
    await page.goto(`${base}host.html`);
    const maps = await drawnMaps(page.locator('#good'), LAYERS * HEADS);
    assert.equal(maps.titles.length, LAYERS * HEADS);
    assert.equal(maps.chips.length, 9, 'one chip per character of "the whale"');
    assert.match(maps.status, /^9 tokens, rotary model of 2 layers × 2 heads/);
    const note = (id) => page.locator(`#${id}`).locator('p.pl-note[role="status"]:not([hidden])').first();
    for (const [id, cause] of [['hostile', /the model file was refused: .+/], ['missing', /could not be fetched \(HTTP 404\)/],
      ['outside', /sentence has "€" \(character 11\), which is not in the model's vocabulary/]]) {
      await page.locator(`#${id}`).scrollIntoViewIfNeeded();
      await note(id).waitFor({ timeout: 30000 });
      assert.match(await note(id).textContent(), cause, id);
      assert.equal(await page.locator(`#${id}`).locator('canvas.map-canvas').count(), 0, `${id} shows no map`);
    }
    // Beside another panel: the model's maps in the attention panel, the lab's figure in the other.
    await page.locator('#mixed').scrollIntoViewIfNeeded();
    const mixed = await drawnMaps(page.locator('#mixed'), LAYERS * HEADS);
    assert.equal(mixed.titles.length, LAYERS * HEADS);
    await page.locator('#mixed').locator('[data-figure="pe"] canvas.map-canvas').first().waitFor();
    // The 404 is the one expected failed request; nothing else went wrong.
    assert.deepEqual(problems.filter((p) => !/404/.test(p)), []);
  } finally {
    await context.close();
  }
});
