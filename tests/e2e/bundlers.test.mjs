// Package users' bundlers: consumer apps built from the packed tarball (npm pack) by Vite and by
// webpack 5 (its Node API), each with one page per entry — `posenc-lab` (the JS API),
// `posenc-lab/element` and `posenc-lab/element.mjs` — served and loaded in headless Chromium.
// Each must get its assets through the bundler (every one is named by a static
// new URL('./file', import.meta.url) or import('./file'): web/cores.mjs, web/element/element-loaders.mjs):
// the core, GloVe (not synthetic vectors), the lazy model core with its JS side when a model is
// first needed, the three default trained models the package ships, and the element's SVG writer
// (web/element/svg-writer-beside.js) on its first SVG export. The pages and the checks are the same for
// both bundlers. Needs a built dist/ (./scripts/build) and the vite and webpack dev dependencies.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import webpack from 'webpack';
import { closeServer, exportFrom, launchChromium, serveDir } from './browser.mjs';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const VITE = join(ROOT, 'node_modules/vite/bin/vite.js');

const ELEMENT_PAGE = (entry) => ({
  title: entry,
  script: `import '${entry}';`,
  body: '<posenc-lab id="fig" sentence="the king spoke to the queen" panel="attention,train" controls="export"></posenc-lab>',
});

// name → { title, script (the page's module), body }: each bundler puts the script in its own way.
const PAGES = {
  'api.html': { title: 'api', body: '<p>api</p>', script: `
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
` },
  'element.html': ELEMENT_PAGE('posenc-lab/element'),
  'element-mjs.html': ELEMENT_PAGE('posenc-lab/element.mjs'),
};

const pageHtml = ({ title, body }, script) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<link rel="icon" href="data:,">${script}</head><body>${body}</body></html>`;

const stem = (name) => name.replace(/\.html$/, '');

// bundler → (app folder) → the folder of the built app. Each writes its own sources into the app.
const BUILDERS = {
  async Vite(app) {
    for (const [name, page] of Object.entries(PAGES)) await writeFile(join(app, name), pageHtml(page, `<script type="module">${page.script}</script>`));
    await writeFile(join(app, 'vite.config.mjs'), `export default {
  logLevel: 'warn',
  build: { target: 'es2022', rollupOptions: { input: ${JSON.stringify(Object.keys(PAGES))} } },
};\n`);
    await run(process.execPath, [VITE, 'build'], { cwd: app, maxBuffer: 1 << 24 });
    return join(app, 'dist');
  },
  // webpack builds scripts, not pages: one ES-module entry per page, and the page names its output.
  // outputModule: the package is ES modules with top-level await. new URL('./file',
  // import.meta.url) becomes an asset module (a copied file) by webpack's defaults; the file names
  // keep their stems, as a consumer may choose, so the checks can tell the files apart.
  async 'webpack 5'(app) {
    const out = join(app, 'webpack-dist');
    const entry = {};
    for (const [name, page] of Object.entries(PAGES)) {
      await writeFile(join(app, `${stem(name)}.entry.mjs`), page.script);
      entry[stem(name)] = `./${stem(name)}.entry.mjs`;
    }
    const stats = await new Promise((done, fail) => webpack({
      mode: 'production',
      context: app,
      entry,
      experiments: { outputModule: true },
      output: { path: out, module: true, filename: '[name].js', assetModuleFilename: '[name]-[contenthash][ext]' },
      optimization: { chunkIds: 'named' },
      performance: { hints: false }, // the cores and GloVe are large on purpose
    }, (error, result) => (error ? fail(error) : done(result))));
    const { errors, warnings } = stats.toJson({ all: false, errors: true, warnings: true });
    assert.deepEqual([...errors, ...warnings].map((e) => `${e.moduleName ?? ''}: ${e.message}`), [], 'webpack builds without errors or warnings');
    for (const [name, page] of Object.entries(PAGES)) await writeFile(join(out, name), pageHtml(page, `<script type="module" src="./${stem(name)}.js"></script>`));
    return out;
  },
};

let dir, app, browser;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'posenc-bundlers-'));
  const { stdout } = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], { cwd: ROOT, maxBuffer: 1 << 24 });
  const [{ filename }] = JSON.parse(stdout);
  app = join(dir, 'app');
  const installed = join(app, 'node_modules', 'posenc-lab');
  await mkdir(installed, { recursive: true });
  // The tarball unpacked as npm would install it (the package has no dependencies to fetch).
  await run('tar', ['-xzf', join(dir, filename), '-C', installed, '--strip-components=1']);
  await writeFile(join(app, 'package.json'), '{ "name": "consumer", "private": true, "type": "module" }\n');
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** A page of the built app at baseUrl → { page, context, problems, fetched (names with status) }. */
async function open(baseUrl, name) {
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

// Unanchored where the file is a chunk: webpack names chunks after their module's path
// (node_modules_posenc-lab_dist_posenc-svg_mjs.js), Vite after the module (posenc-svg-<hash>.js).
const MODEL_CORE_CHUNK = /posenc-models-/;
const SVG_WRITER = /posenc-svg.*\.m?js$/;

for (const [bundler, build] of Object.entries(BUILDERS)) {
  describe(bundler, () => {
    let server, baseUrl;

    before(async () => {
      ({ server, baseUrl } = await serveDir(await build(app), { requires: 'api.html' }));
    });

    after(() => closeServer(server));

    test("import { load } from 'posenc-lab' gets the core, GloVe, the model core and a shipped model", async () => {
      const { page, context, problems, fetched } = await open(baseUrl, 'api.html');
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
      test(`import '${entry}' renders with GloVe and trains live with the lazy model core`, async () => {
        const { page, context, problems, fetched } = await open(baseUrl, name);
        try {
          const host = page.locator('#fig');
          await host.getByRole('img', { name: /attention/i }).first().waitFor({ timeout: 60000 });
          // The element's lab (its worker, for posenc-lab.mjs) fetches GloVe; the status names the vectors in use.
          await page.waitForFunction(() => /GloVe/.test(document.getElementById('fig').shadowRoot.querySelector('.pl-status')?.textContent ?? ''), null, { timeout: 30000 });
          assert.ok(!/synthetic/i.test(await host.locator('.pl-note').first().textContent()), 'GloVe, not synthetic vectors');
          assert.ok(!fetched.some(({ name: file }) => MODEL_CORE_CHUNK.test(file)), 'no model core before Train');
          await host.getByRole('button', { name: 'Train live' }).click();
          await page.waitForFunction(() => /Additive: step [1-9]/.test(
            document.getElementById('fig').shadowRoot.querySelector('.train-live-status')?.textContent ?? ''), null, { timeout: 60000 });
          await host.getByRole('button', { name: 'Pause' }).click();
          // The SVG writer: a chunk of the app, fetched on the first SVG export only.
          assert.ok(!got(fetched, SVG_WRITER), 'no SVG writer before an SVG export');
          const svg = await exportFrom(page, host, 'Additive attention', 'SVG image');
          assert.match(await readFile(await svg.path(), 'utf8'), /<text[^>]*>king<\/text>/);
          assert.ok(got(fetched, SVG_WRITER), 'the SVG writer through the bundler');
          assert.ok(got(fetched, /^glove-6b-100d-20k.*\.i8$/), 'GloVe through the bundler');
          assert.ok(got(fetched, /^posenc-models-(simd|scalar).*\.wasm$/), 'the lazy model core');
          assert.deepEqual(fetched.filter((f) => f.status >= 400), []);
          assert.deepEqual(problems, []);
        } finally {
          await context.close();
        }
      });
    }
  });
}
