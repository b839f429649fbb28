// A release as its users get it. scripts/release (--no-build, over the dist/ already built)
// writes the static-site folder and the npm tarball into a scratch directory; then:
//   - the folder, served under a sub-path (as a host's /posenc-lab-VERSION/), runs the page with
//     GloVe and the embed page's first element, without one failed request or console error;
//   - the tarball, installed with `npm install --offline` into a scratch project, runs in Node
//     through its `exports` (load(), then a call checked against Math.sin/cos), type-checks
//     (the scheme unions from the packed dist/scheme-table.d.mts) and runs in Chromium
//     (a tiny page served from that project loads each element build from node_modules, where
//     the element finds GloVe beside itself and reports the package version).
// Needs a built dist/ (./scripts/build), npm, and Debian's /usr/bin/chromium.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { closeServer, launchChromium, openLabPage, serveDir } from './browser.mjs';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const { version } = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8'));
const SITE = `posenc-lab-${version}`;
const TARBALL = `posenc-lab-${version}.tgz`;

let out;        // what scripts/release wrote
let project;    // the scratch project the tarball is installed into
let installed;  // what Node resolved there: { api, element, elementModule } file URLs
let browser;
const servers = [];

before(async () => {
  out = await mkdtemp(join(tmpdir(), 'posenc-release-'));
  project = await mkdtemp(join(tmpdir(), 'posenc-consumer-'));
  await run(join(ROOT, 'scripts/release'), ['--no-build', '--out', out]);
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  for (const server of servers) await closeServer(server);
  for (const dir of [out, project]) if (dir) await rm(dir, { recursive: true, force: true });
});

async function serve(dir, requires) {
  const { server, baseUrl } = await serveDir(dir, { requires });
  servers.push(server);
  return baseUrl;
}

/** A page that records console errors, page errors and failed requests in `problems`. */
async function openPage(url) {
  const context = await browser.newContext({ viewport: { width: 1000, height: 800 } });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (message) => { if (message.type() === 'error') problems.push(`console: ${message.text()}`); });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('response', (response) => { if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`); });
  await page.goto(url);
  return { page, problems, close: () => context.close() };
}

/**
 * Waits for the first <posenc-lab> on the page to paint (scrolled into view: it starts lazily)
 * and to switch to GloVe, which arrives a recompute later when the file beside the element is
 * reachable; → its status line, its painted canvases and the defined class's version.
 */
async function firstElement(page) {
  await page.evaluate(async () => {
    await customElements.whenDefined('posenc-lab');
    const element = document.querySelector('posenc-lab');
    element.scrollIntoView();
    await element.ready;
  });
  // No GloVe in time: the assertions on the status line below say what it shows instead.
  await page.waitForFunction(() => /GloVe/.test(document.querySelector('posenc-lab').shadowRoot.querySelector('.pl-status').textContent),
    null, { timeout: 20000 }).catch(() => {});
  return page.evaluate(() => {
    const element = document.querySelector('posenc-lab');
    const painted = [...element.shadowRoot.querySelectorAll('canvas.map-canvas')]
      .filter((c) => c.width > 0 && c.getContext('2d').getImageData(0, 0, c.width, c.height).data.some((v, i) => i % 4 === 3 && v > 0));
    return {
      status: element.shadowRoot.querySelector('.pl-status').textContent,
      painted: painted.length,
      version: customElements.get('posenc-lab').version,
    };
  });
}

test('scripts/release writes the versioned site folder and the npm tarball', async () => {
  const listing = (await run('tar', ['-tzf', join(out, TARBALL)])).stdout.split('\n').filter(Boolean);
  assert.ok(listing.includes('package/dist/posenc-lab.mjs') && listing.includes('package/types/posenc.d.ts'), listing.join(' '));
  for (const file of ['index.html', 'embed.html', 'posenc-lab.js', 'posenc-lab.mjs', 'posenc.mjs', 'posenc-core-simd.wasm',
    'posenc-core-scalar.wasm', 'glove-6b-100d-20k.i8', 'models/manifest.json', 'models/rotary.q8.safetensors',
    'models/results.json', 'LICENSE', 'CHANGELOG.md']) {
    await readFile(join(out, SITE, file)).catch(() => assert.fail(`${SITE}/${file} is missing`));
  }
});

test('the release folder served under a sub-path runs the page with GloVe', async () => {
  const baseUrl = await serve(out, `${SITE}/index.html`);
  // openLabPage waits for the first recompute and for GloVe (d = 100), else it throws.
  const { page, problems, close } = await openLabPage(browser, `${baseUrl}${SITE}/`);
  try {
    assert.match(await page.locator('#engine').textContent(), /wasm SIMD/);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test("the release folder's embed page runs its element with GloVe, reporting the package version", async () => {
  const baseUrl = await serve(out, `${SITE}/embed.html`);
  const { page, problems, close } = await openPage(`${baseUrl}${SITE}/embed.html`);
  try {
    const figure = await firstElement(page);
    assert.match(figure.status, /GloVe vectors · wasm SIMD/);
    assert.ok(figure.painted > 0, 'no painted canvas');
    assert.equal(figure.version, version);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('the tarball installs offline into a scratch project; Node runs the API through its exports', async () => {
  await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  // No dependencies to fetch: --offline proves the tarball is complete. A cache of its own keeps
  // the user's npm cache out of it.
  await run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--cache', join(project, '.npm-cache'), join(out, TARBALL)],
    { cwd: project });
  const script = `
    import { load } from 'posenc-lab';
    const lab = await load();
    const pe = lab.sinusoidal(3, 4);
    console.log(JSON.stringify({
      version: lab.version,
      pe: Array.from(pe),
      api: import.meta.resolve('posenc-lab'),
      element: import.meta.resolve('posenc-lab/element'),
      elementModule: import.meta.resolve('posenc-lab/element.mjs'),
    }));`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: project });
  const result = JSON.parse(stdout);
  assert.equal(result.version, version);
  // docs/ARCHITECTURE.md's interleaved table: PE[p][2i] = sin(p·ω_i), PE[p][2i+1] = cos(p·ω_i), ω_i = 10000^(−2i/4).
  const expected = [0, 1, 2].flatMap((p) => [0, 1].flatMap((i) => [Math.sin(p * 10000 ** (-i / 2)), Math.cos(p * 10000 ** (-i / 2))]));
  // 1e-6: docs/TESTING.md's tolerance for the tables (a few float32 ulps of values up to 1).
  result.pe.forEach((value, j) => assert.ok(Math.abs(value - expected[j]) < 1e-6, `PE[${j}] = ${value}, expected ${expected[j]}`));
  const dist = `file://${join(project, 'node_modules/posenc-lab/dist')}/`;
  // An ES import of posenc-lab/element gets the ES-module build (the import condition: its assets
  // are named from import.meta.url, which bundlers follow); <script src> and CDNs get posenc-lab.js.
  assert.deepEqual([result.api, result.element, result.elementModule],
    ['posenc.mjs', 'posenc-lab.mjs', 'posenc-lab.mjs'].map((file) => dist + file));
  installed = result;
});

test("the installed declarations type-check: Scheme comes from the packed scheme-table.d.mts and refuses a name not in the table", async () => {
  // A missing or unresolved scheme-table.d.mts fails as TS2307; a Scheme that admits any string
  // leaves the @ts-expect-error unused, which tsc reports as an error too.
  await writeFile(join(project, 'schemes.mts'), `import type { ModelScheme, Scheme } from 'posenc-lab';
export const shown: Scheme[] = ['additive', 'rope-ntk', 'yarn'];
export const trained: ModelScheme = 't5';
// @ts-expect-error: not a scheme of the core's table
export const misspelt: Scheme = 'rope-ntkk';
`);
  const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
  const args = [tsc, '--noEmit', '--strict', '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext',
    '--lib', 'es2022,dom', '--pretty', 'false', 'schemes.mts'];
  const { stdout } = await run(process.execPath, args, { cwd: project }).catch((error) => assert.fail(error.stdout || error.message));
  assert.equal(stdout.trim(), '');
});

test('Chromium runs both element builds from the installed package, with GloVe beside them', async () => {
  const { element, elementModule } = installed ?? assert.fail('the install test did not run');
  const path = (url) => relative(project, fileURLToPath(url));
  const host = (script) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>consumer</title>
    <link rel="icon" href="data:,"></head><body>
    <posenc-lab sentence="the cat sat on the mat" schemes="additive,rotary" panel="attention"></posenc-lab>
    ${script}</body></html>`;
  // The classic script is the file a <script src> names (unpkg and jsdelivr's field): posenc-lab.js.
  await writeFile(join(project, 'classic.html'), host(`<script src="${path(new URL('posenc-lab.js', element))}"></script>`));
  await writeFile(join(project, 'module.html'), host(`<script type="module">
    import { PosencLabElement } from './${path(elementModule)}';
    window.exportedIsDefined = customElements.get('posenc-lab') === PosencLabElement;
  </script>`));
  const baseUrl = await serve(project, 'classic.html');
  for (const file of ['classic.html', 'module.html']) {
    const { page, problems, close } = await openPage(baseUrl + file);
    try {
      const figure = await firstElement(page);
      assert.match(figure.status, /GloVe vectors · wasm SIMD/, file);
      assert.equal(figure.painted, 2, `${file}: one attention map per scheme`);
      assert.equal(figure.version, version, file);
      if (file === 'module.html') assert.equal(await page.evaluate(() => window.exportedIsDefined), true, 'the exported class is the defined one');
      assert.deepEqual(problems, [], file);
    } finally {
      await close();
    }
  }
});
