// Package users' bundlers: a Vite consumer app built from the packed tarball (npm pack), with one
// page per entry — `posenc-lab` (the JS API), `posenc-lab/element` and `posenc-lab/element.mjs` —
// served and loaded in headless Chromium. Each must get its assets through the bundler (every one
// is named by a static new URL('./file', import.meta.url) or import('./file'): web/cores.mjs,
// web/element/cores.mjs): the core, GloVe (not synthetic vectors), the lazy model core with its JS
// side when a model is first needed, the three default trained models the package ships, and the
// element's SVG writer (web/element/svg-loader.js) on its first SVG export. Needs a built dist/
// (./scripts/build) and the vite dev dependency.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { closeServer, exportFrom, launchChromium, serveDir } from './browser.mjs';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const VITE = join(ROOT, 'node_modules/vite/bin/vite.js');

const ELEMENT_PAGE = (entry) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${entry}</title>
<link rel="icon" href="data:,"><script type="module">import '${entry}';</script></head>
<body><posenc-lab id="fig" sentence="the king spoke to the queen" panel="attention,train" controls="export"></posenc-lab></body></html>`;

const PAGES = {
  'api.html': `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>api</title><link rel="icon" href="data:,">
<script type="module">
import { load } from 'posenc-lab';
const lab = await load();
const glove = await lab.loadVectors('glove');
const models = await lab.loadModels();
const model = lab.createModel({ scheme: 'rotary', vocab: 8, d: 16, layers: 1, heads: 2, context: 4, seed: 1 });
const loss = model.trainStep(new Int32Array([1, 2, 3, 4, 5, 2, 3, 4, 5, 6]), 2, 4);
const rotary = await lab.loadPretrained('rotary');
const ids = rotary.tokenize('the king spoke to the queen');
window.result = { simd: lab.simd, gloveWords: glove.size, king: glove.has('king'), modelCore: models.simd === lab.simd, loss,
  pretrained: lab.pretrained.map((m) => m.name), pretrainedLoss: rotary.loss(ids, 1, ids.length - 1) };
</script></head><body><p>api</p></body></html>`,
  'element.html': ELEMENT_PAGE('posenc-lab/element'),
  'element-mjs.html': ELEMENT_PAGE('posenc-lab/element.mjs'),
};

let dir, server, baseUrl, browser;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'posenc-vite-'));
  const { stdout } = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], { cwd: ROOT, maxBuffer: 1 << 24 });
  const [{ filename }] = JSON.parse(stdout);
  const app = join(dir, 'app');
  const installed = join(app, 'node_modules', 'posenc-lab');
  await mkdir(installed, { recursive: true });
  // The tarball unpacked as npm would install it (the package has no dependencies to fetch).
  await run('tar', ['-xzf', join(dir, filename), '-C', installed, '--strip-components=1']);
  await writeFile(join(app, 'package.json'), '{ "name": "consumer", "private": true, "type": "module" }\n');
  for (const [name, html] of Object.entries(PAGES)) await writeFile(join(app, name), html);
  await writeFile(join(app, 'vite.config.mjs'), `export default {
  logLevel: 'warn',
  build: { target: 'es2022', rollupOptions: { input: ${JSON.stringify(Object.keys(PAGES))} } },
};\n`);
  await run(process.execPath, [VITE, 'build'], { cwd: app, maxBuffer: 1 << 24 });
  ({ server, baseUrl } = await serveDir(join(app, 'dist'), { requires: 'api.html' }));
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await closeServer(server);
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** A page of the built app → { page, context, problems, fetched (names with status) }. */
async function open(name) {
  const context = await browser.newContext({ viewport: { width: 1000, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  const problems = [];
  const fetched = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('response', (r) => fetched.push({ name: new URL(r.url()).pathname.split('/').pop(), status: r.status() }));
  await page.goto(`${baseUrl}${name}`);
  return { page, context, problems, fetched };
}

const got = (fetched, pattern) => fetched.some(({ name, status }) => pattern.test(name) && status === 200);

test("Vite: import { load } from 'posenc-lab' gets the core, GloVe, the model core and a shipped model", async () => {
  const { page, context, problems, fetched } = await open('api.html');
  try {
    await page.waitForFunction(() => window.result, null, { timeout: 60000 });
    const result = await page.evaluate(() => window.result);
    assert.equal(result.gloveWords, 20000);
    assert.equal(result.king, true);
    assert.equal(result.modelCore, true);
    assert.ok(Number.isFinite(result.loss));
    assert.deepEqual(result.pretrained.slice(0, 3), ['additive', 'concatenated', 'rotary']);
    assert.ok(result.pretrainedLoss > 0 && result.pretrainedLoss < 10, `the shipped rotary model scores the sentence: ${result.pretrainedLoss}`);
    assert.ok(got(fetched, /^rotary.*\.safetensors$/), 'a shipped model through the bundler');
    assert.ok(got(fetched, /^glove-6b-100d-20k.*\.i8$/), 'GloVe through the bundler');
    assert.ok(got(fetched, /^posenc-core-(simd|scalar).*\.wasm$/), 'the core');
    assert.ok(got(fetched, /^posenc-models-(simd|scalar).*\.wasm$/), 'the lazy model core');
    assert.deepEqual(fetched.filter((f) => f.status >= 400), []);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

for (const [name, entry] of [['element.html', 'posenc-lab/element'], ['element-mjs.html', 'posenc-lab/element.mjs']]) {
  test(`Vite: import '${entry}' renders with GloVe and trains live with the lazy model core`, async () => {
    const { page, context, problems, fetched } = await open(name);
    try {
      const host = page.locator('#fig');
      await host.getByRole('img', { name: /attention/i }).first().waitFor({ timeout: 60000 });
      await page.waitForFunction(() => performance.getEntriesByType('resource').some((e) => /glove-6b-100d-20k.*\.i8$/.test(e.name)), null, { timeout: 30000 });
      assert.ok(!/synthetic/i.test(await host.locator('.pl-note').first().textContent()), 'GloVe, not synthetic vectors');
      assert.ok(!fetched.some(({ name: file }) => /^posenc-models-/.test(file)), 'no model core before Train');
      await host.getByRole('button', { name: 'Train live' }).click();
      await page.waitForFunction(() => /Additive: step [1-9]/.test(
        document.getElementById('fig').shadowRoot.querySelector('.train-live-status')?.textContent ?? ''), null, { timeout: 60000 });
      await host.getByRole('button', { name: 'Pause' }).click();
      // The SVG writer: a chunk of the app, fetched on the first SVG export only.
      const writer = /^posenc-svg.*\.m?js$/;
      assert.ok(!got(fetched, writer), 'no SVG writer before an SVG export');
      const svg = await exportFrom(page, host, 'Additive attention', 'SVG image');
      assert.match(await readFile(await svg.path(), 'utf8'), /<text[^>]*>king<\/text>/);
      assert.ok(got(fetched, writer), 'the SVG writer through the bundler');
      assert.ok(got(fetched, /^glove-6b-100d-20k.*\.i8$/), 'GloVe through the bundler');
      assert.ok(got(fetched, /^posenc-models-(simd|scalar).*\.wasm$/), 'the lazy model core');
      assert.deepEqual(fetched.filter((f) => f.status >= 400), []);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
}
