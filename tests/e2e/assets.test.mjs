// The element on a host that copied only posenc-lab.js, in headless Chromium: GloVe from a second
// origin (another loopback port) through `vectors-src` — served with Access-Control-Allow-Origin it
// loads; without, the figure falls back to synthetic vectors with a note naming the cause and
// nothing is thrown — and the light-DOM fallback image: shown where the script never runs (no
// script tag; JavaScript off), hidden once the element runs. Needs a built dist/ (./scripts/build).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DIST, closeServer, launchChromium, serveDir } from './browser.mjs';

const GLOVE = 'glove-6b-100d-20k.i8';
const FALLBACK_ALT = 'The positional-encoding table';

const host = ({ src = '', script = true } = {}) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>host</title><link rel="icon" href="data:,"></head>
<body><main><posenc-lab id="fig" sentence="the king and the queen" schemes="additive" panel="attention"${src ? ` vectors-src="${src}"` : ''}>
  <img id="fallback" src="posenc-fallback.png" alt="${FALLBACK_ALT}" width="512" height="256"></posenc-lab></main>
${script ? '<script src="posenc-lab.js"></script>' : ''}</body></html>`;

let dir;
let site;       // the host: posenc-lab.js and its pages, nothing else
let noCors;     // dist/ on another port, no CORS header (scripts/serve.mjs)
let withCors;   // the GloVe file on a third port, Access-Control-Allow-Origin: *
let browser;
const origin = (server) => `http://127.0.0.1:${server.address().port}/`;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'posenc-assets-'));
  for (const file of ['posenc-lab.js', 'posenc-fallback.png']) await copyFile(join(DIST, file), join(dir, file));
  ({ server: site } = await serveDir(dir, { requires: 'posenc-lab.js' }));
  ({ server: noCors } = await serveDir(DIST, { requires: GLOVE }));
  const glove = await readFile(join(DIST, GLOVE));
  withCors = createServer((req, res) => {
    res.writeHead(req.url === `/${GLOVE}` ? 200 : 404, { 'Access-Control-Allow-Origin': '*', 'Content-Type': 'application/octet-stream' });
    res.end(req.url === `/${GLOVE}` ? glove : '');
  });
  await new Promise((ready) => withCors.listen(0, '127.0.0.1', ready));
  await writeFile(join(dir, 'only-script.html'), host());
  await writeFile(join(dir, 'cors.html'), host({ src: `${origin(withCors)}${GLOVE}` }));
  await writeFile(join(dir, 'no-cors.html'), host({ src: `${origin(noCors)}${GLOVE}` }));
  await writeFile(join(dir, 'no-script.html'), host({ script: false }));
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  for (const server of [site, noCors, withCors]) await closeServer(server);
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Opens a host page and waits for its figure: → { status, note, problems, page, close }. */
async function open(name, { javaScriptEnabled = true, waitForFigure = true } = {}) {
  const context = await browser.newContext({ viewport: { width: 900, height: 900 }, javaScriptEnabled });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => { if (message.type() === 'error') problems.push(`console: ${message.text()}`); });
  await page.goto(`${origin(site)}${name}`);
  let status = '';
  let note = '';
  if (waitForFigure) {
    await page.waitForFunction(() => /vectors ·/.test(document.getElementById('fig').shadowRoot?.querySelector('.pl-status')?.textContent ?? ''),
      null, { timeout: 20000 });
    ({ status, note } = await page.evaluate(() => {
      const root = document.getElementById('fig').shadowRoot;
      const noteBox = root.querySelector('.pl-note[role="status"]');
      return { status: root.querySelector('.pl-status').textContent, note: noteBox.hidden ? '' : noteBox.textContent };
    }));
  }
  return { page, status, note, problems, close: () => context.close() };
}

test('vectors-src on another origin that sends Access-Control-Allow-Origin: GloVe loads', async () => {
  const { status, note, problems, close } = await open('cors.html');
  try {
    assert.match(status, /d = 100, GloVe vectors/);
    assert.equal(note, '');
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('vectors-src on another origin without CORS: synthetic vectors, a note naming the cause, nothing thrown', async () => {
  const { status, note, problems, close } = await open('no-cors.html');
  try {
    assert.match(status, /synthetic vectors/);
    assert.match(note, /^Synthetic word vectors: GloVe could not be loaded \(could not fetch http:\/\/127\.0\.0\.1:\d+\/glove-6b-100d-20k\.i8 .*Access-Control-Allow-Origin\)/);
    // Chromium reports the refused fetch on the console itself; nothing else may go wrong.
    assert.deepEqual(problems.filter((p) => !/CORS policy|Failed to load resource/.test(p)), []);
    assert.ok(!problems.some((p) => p.startsWith('page error')));
  } finally {
    await close();
  }
});

test('only the script copied, no vectors-src: the missing file is named and the figure still draws', async () => {
  const { status, note, problems, close } = await open('only-script.html');
  try {
    assert.match(status, /synthetic vectors/);
    assert.match(note, /could not load http:\/\/127\.0\.0\.1:\d+\/glove-6b-100d-20k\.i8: HTTP 404/);
    assert.deepEqual(problems.filter((p) => !/404/.test(p)), []);
  } finally {
    await close();
  }
});

/** The fallback image: laid out with a size, decoded, and exposed to assistive technology? */
const fallbackState = (page) => page.evaluate(() => {
  const image = document.getElementById('fallback');
  return { shown: image.checkVisibility() && image.getBoundingClientRect().width > 0, decoded: image.naturalWidth > 0 };
});

test('the fallback image shows where the script never runs, and is hidden once the element runs', async () => {
  const noScript = await open('no-script.html', { waitForFigure: false });
  const jsOff = await open('cors.html', { javaScriptEnabled: false, waitForFigure: false });
  const running = await open('cors.html');
  try {
    for (const { page } of [noScript, jsOff]) {
      await page.waitForFunction(() => document.getElementById('fallback').complete);
      assert.deepEqual(await fallbackState(page), { shown: true, decoded: true });
      // In the accessibility tree, named by its alt text.
      assert.equal(await page.getByRole('img', { name: FALLBACK_ALT }).count(), 1);
    }
    assert.equal(await noScript.page.evaluate(() => customElements.get('posenc-lab') === undefined), true);
    const after = await fallbackState(running.page);
    assert.equal(after.shown, false, 'the image still shows beside the live figure');
    assert.equal(await running.page.getByRole('img', { name: FALLBACK_ALT }).count(), 0, 'the hidden image is still exposed');
    assert.equal(await running.page.evaluate(() => document.getElementById('fig').shadowRoot.querySelector('slot')), null);
  } finally {
    for (const { close } of [noScript, jsOff, running]) await close();
  }
});
