// SVG export (web/figures/svg-writer.js) in headless Chromium: each kind of figure on the page (a
// heatmap with words on its axes, a numbered one, a chart, a table, the Train section's live
// figures) downloads an SVG through its Export menu that Chromium parses as image/svg+xml and
// renders as a standalone image, with the figure's words as text. The element fetches its SVG
// writer (dist/posenc-svg.mjs) only on the first SVG export, from beside its script, and its first
// load stays within budget. The files are kept in build-e2e/svg/ to be looked at.
// Needs a built dist/ (./scripts/build) and Debian's /usr/bin/chromium.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { DIST, browserSuite, closeServer, exportFrom, openLabPage, reveal, serveDir } from './browser.mjs';

const KEPT = fileURLToPath(new URL('../../build-e2e/svg/', import.meta.url));
const suite = browserSuite();

/**
 * Downloads figure `title`'s SVG from `scope`, keeps it as KEPT/`name`.svg, and reads it in the page:
 * → { parserError, root, namespace, title, texts, rects, images, paths, scripts, rendered: [w, h] }.
 */
async function svgOf(page, scope, title, name) {
  const download = await exportFrom(page, scope, title, 'SVG image');
  assert.match(download.suggestedFilename(), /\.svg$/);
  const text = await readFile(await download.path(), 'utf8');
  await mkdir(KEPT, { recursive: true });
  await writeFile(join(KEPT, `${name}.svg`), text);
  return page.evaluate(async (source) => {
    const doc = new DOMParser().parseFromString(source, 'image/svg+xml');
    const all = (selector) => [...doc.querySelectorAll(selector)];
    const image = new Image();
    image.src = URL.createObjectURL(new Blob([source], { type: 'image/svg+xml' }));
    await image.decode();
    return {
      parserError: doc.querySelector('parsererror')?.textContent ?? null,
      root: doc.documentElement.localName,
      namespace: doc.documentElement.namespaceURI,
      title: doc.querySelector('svg > title')?.textContent,
      texts: all('text').map((t) => t.textContent),
      rects: all('g > rect').length,
      images: all('image').length,
      paths: all('path').length,
      scripts: all('script').length,
      rendered: [image.naturalWidth, image.naturalHeight],
    };
  }, text);
}

/** What every exported SVG must be: well-formed, standalone, named, rendered, no script. */
function assertSvgFile(svg, title) {
  assert.equal(svg.parserError, null);
  assert.equal(svg.root, 'svg');
  assert.equal(svg.namespace, 'http://www.w3.org/2000/svg');
  assert.equal(svg.title, title);
  assert.ok(svg.rendered[0] > 300 && svg.rendered[1] > 100, `rendered ${svg.rendered.join(' × ')}`);
  assert.equal(svg.scripts, 0);
}

test('the page: a word-labelled map, a numbered map, a chart and a table download as SVG with their words', async () => {
  const { page, problems, close } = await openLabPage(suite.browser, suite.baseUrl, { hash: '#s=the%20king%20spoke%20to%20the%20queen%20%3Cb%3E' });
  try {
    const tokens = await page.locator('#tokens .token-text').allTextContents();
    assert.ok(tokens.length >= 7, tokens.join(' '));
    await reveal(page, '[data-figure="rotary-attention"]');
    const map = await svgOf(page, page, 'Rotary attention', 'rotary-attention');
    assertSvgFile(map, 'Rotary attention');
    for (const word of new Set(tokens)) {
      const count = tokens.filter((t) => t === word).length;
      assert.equal(map.texts.filter((t) => t === word).length, 2 * count, `“${word}” on both axes`);
    }
    assert.ok(map.rects >= tokens.length, `${map.rects} runs of cells`);

    await reveal(page, '[data-figure="pe"]');
    const pe = await svgOf(page, page, 'Positional encoding', 'positional-encoding');
    assertSvgFile(pe, 'Positional encoding');
    for (const label of ['position 0', 'dim 0']) assert.ok(pe.texts.includes(label), label);

    await reveal(page, '[data-figure="distance"]');
    const chart = await svgOf(page, page, 'Score versus distance', 'score-versus-distance');
    assertSvgFile(chart, 'Score versus distance');
    assert.ok(chart.texts.includes('distance k'), chart.texts.join(' | '));
    assert.ok(chart.paths > 5, `${chart.paths} paths`);

    await reveal(page, '[data-figure="shift"]');
    const table = await svgOf(page, page, 'Shift invariance', 'shift-invariance');
    assertSvgFile(table, 'Shift invariance');
    assert.ok(table.texts.includes('Rotary'), table.texts.join(' | '));
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('the Train section: the live loss chart and learned attention download as SVG', async () => {
  const hash = '#v=synthetic&t.task=copy&t.len=8&t.batch=4&t.steps=10&t.schemes=additive';
  const { page, problems, close } = await openLabPage(suite.browser, suite.baseUrl, { hash, glove: false });
  try {
    const train = page.locator('#train');
    await train.scrollIntoViewIfNeeded();
    await train.getByRole('button', { name: 'Train', exact: true }).click();
    await page.waitForFunction(() => /budget reached/.test(document.querySelector('#train .train-status-line')?.textContent), null, { timeout: 60000 });
    const loss = await svgOf(page, train, 'Loss during training', 'loss-during-training');
    assertSvgFile(loss, 'Loss during training');
    assert.ok(loss.texts.some((t) => /additive/i.test(t)), loss.texts.join(' | '));
    await train.getByRole('heading', { name: 'Learned attention' }).scrollIntoViewIfNeeded();
    await page.waitForFunction(() => document.querySelector('#train canvas[aria-label^="Learned attention of layer 1, head 1"]'));
    const attention = await svgOf(page, train, 'Learned attention', 'learned-attention');
    assertSvgFile(attention, 'Learned attention');
    const words = await page.evaluate(() => [...document.querySelectorAll('#train .token-axis-rows')].flatMap((axis) => axis.drawnLabels.map((l) => l.text)));
    assert.ok(words.length >= 8, words.join(' '));
    for (const word of words) assert.ok(attention.texts.includes(word), `“${word}” in the SVG`);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

// The element on a host page of its own: posenc-lab.js (or .mjs, with its lab worker) and the writer beside it.
let dir;
let host;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'posenc-svg-'));
  for (const file of ['posenc-lab.js', 'posenc-lab.mjs', 'posenc-lab-worker.mjs', 'posenc-lab-core-scalar.mjs', 'posenc-svg.mjs']) await copyFile(join(DIST, file), join(dir, file));
  const page = (script) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>host</title><link rel="icon" href="data:,"></head>
<body><posenc-lab sentence="the cat sat on the mat" schemes="rotary" panel="attention" vectors="synthetic" controls="export"></posenc-lab>${script}</body></html>`;
  await writeFile(join(dir, 'classic.html'), page('<script src="posenc-lab.js"></script>'));
  await writeFile(join(dir, 'esm.html'), page('<script type="module" src="posenc-lab.mjs"></script>'));
  host = await serveDir(dir, { requires: 'posenc-svg.mjs' });
});
after(async () => {
  await closeServer(host?.server);
  if (dir) await rm(dir, { recursive: true, force: true });
});

for (const file of ['classic.html', 'esm.html']) {
  test(`the element (${file}): fetches posenc-svg.mjs only on the first SVG export, which has the words`, async () => {
    const context = await suite.browser.newContext({ viewport: { width: 1000, height: 800 }, acceptDownloads: true });
    const page = await context.newPage();
    const problems = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => { if (message.type() === 'error') problems.push(message.text()); });
    const writerRequests = [];
    page.on('request', (request) => { if (request.url().endsWith('/posenc-svg.mjs')) writerRequests.push(request.url()); });
    try {
      await page.goto(host.baseUrl + file);
      const element = page.locator('posenc-lab');
      await element.getByRole('img', { name: /attention weights/ }).first().waitFor();
      // Painted, the PNG taken: still no writer.
      await page.evaluate(() => document.querySelector('posenc-lab').toPNG());
      assert.deepEqual(writerRequests, [], 'nothing fetched before an SVG export');
      const svg = await svgOf(page, element, 'Rotary attention', `element-${file.replace('.html', '')}`);
      assertSvgFile(svg, 'Rotary attention');
      for (const word of ['the', 'cat', 'sat', 'on', 'mat']) assert.ok(svg.texts.includes(word), word);
      const again = await page.evaluate(async () => (await document.querySelector('posenc-lab').toSVG({ scheme: 'rotary' })).text());
      assert.match(again, /^<\?xml[^]*<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^]*<text[^>]*>cat<\/text>/, 'el.toSVG() gives the file too, from the writer already fetched');
      assert.deepEqual(writerRequests, [`${host.baseUrl}posenc-svg.mjs`], 'fetched once, from beside the script');
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
}

test('the first load stays within budget; the writer is not inside it', async (t) => {
  // scripts/bundle-element.mjs's budget (checked there at build time too): posenc-lab.js's first
  // load, and posenc-lab.mjs's with its worker.
  const bundler = await readFile(join(DIST, '../scripts/bundle-element.mjs'), 'utf8');
  const limit = Number(/BUDGET_GZIP = (\d+) \* 1024/.exec(bundler)[1]) * 1024;
  const writer = await readFile(join(DIST, 'posenc-svg.mjs'));
  t.diagnostic(`posenc-svg.mjs: ${writer.length} bytes, ${gzipSync(writer, { level: 9 }).length} gzipped`);
  for (const files of [['posenc-lab.js'], ['posenc-lab.mjs', 'posenc-lab-worker.mjs']]) {
    const bundles = await Promise.all(files.map((file) => readFile(join(DIST, file))));
    const gzip = bundles.reduce((sum, bundle) => sum + gzipSync(bundle, { level: 9 }).length, 0);
    t.diagnostic(`${files.join(' + ')}: ${gzip} bytes gzipped`);
    assert.ok(gzip <= limit, `${files.join(' + ')}: ${gzip} bytes gzipped (budget ${limit})`);
    for (const [i, bundle] of bundles.entries()) assert.ok(!bundle.includes('linearGradient'), `${files[i]} does not carry the writer`);
  }
});
