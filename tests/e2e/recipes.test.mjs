// The Hugo and MkDocs recipes of docs/EMBEDDING.md, run for real: each tiny site is made from the
// blocks the doc marks `<!-- recipe: TOOL PATH -->` (so what a reader copies is what is built) and
// the files the doc says to copy from dist/, built with Debian's `hugo` / `mkdocs`, served on
// 127.0.0.1 and opened in Chromium, where every <posenc-lab> must draw with GloVe (not synthetic
// vectors) and nothing of the recipe may show as literal text.
// Needs a built dist/ (./scripts/build) and the tools (./scripts/setup installs them for tests).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DIST, closeServer, launchChromium } from './browser.mjs';
import { serve } from '../../scripts/serve.mjs';

const EMBEDDING = fileURLToPath(new URL('../../docs/EMBEDDING.md', import.meta.url));
const ASSETS = ['posenc-lab.js', 'glove-6b-100d-20k.i8'];

/**
 * The recipes of docs/EMBEDDING.md by tool: { files: { path: text }, assetsDir }, where assetsDir
 * is the folder the tool's section says to copy the element and GloVe into.
 */
export function recipesOf(markdown) {
  const recipes = {};
  for (const section of markdown.split(/^### /m)) {
    for (const [, tool, path, text] of section.matchAll(/<!-- recipe: (\S+) (\S+) -->\n(?:```|~~~)[^\n]*\n([\s\S]*?)\n(?:```|~~~)\n/g)) {
      const recipe = (recipes[tool] ??= { files: {}, assetsDir: null });
      recipe.files[path] = `${text}\n`;
      const copy = /Copy `posenc-lab\.js` and `glove-6b-100d-20k\.i8` from `dist\/` to `([^`]+)`/.exec(section);
      if (copy) recipe.assetsDir = copy[1];
    }
  }
  return recipes;
}

function writeSite(root, { files, assetsDir }) {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  mkdirSync(join(root, assetsDir), { recursive: true });
  for (const asset of ASSETS) copyFileSync(join(DIST, asset), join(root, assetsDir, asset));
}

const recipes = recipesOf(readFileSync(EMBEDDING, 'utf8'));
let browser;
let scratch;
before(async () => {
  browser = await launchChromium();
  scratch = mkdtempSync(join(tmpdir(), 'posenc-recipes-'));
});
after(async () => {
  await browser?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** Serves dir, opens path in Chromium, waits for every <posenc-lab> to draw; → what the page shows. */
async function openSite(dir, path) {
  const server = await serve(dir, 0);
  const context = await browser.newContext({ viewport: { width: 1000, height: 900 } });
  try {
    const page = await context.newPage();
    const problems = [];
    const outside = [];
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => { if (message.type() === 'error') problems.push(`console: ${message.text()}`); });
    page.on('response', (response) => { if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`); });
    // A theme may ask for fonts elsewhere; the machine is offline, so those are refused and listed.
    await context.route(/^https?:\/\/(?!127\.0\.0\.1[:/])/, (route) => { outside.push(route.request().url()); return route.abort(); });
    await page.goto(`http://127.0.0.1:${server.address().port}/${path}`);
    await page.waitForFunction(() => {
      const elements = [...document.querySelectorAll('posenc-lab')];
      return customElements.get('posenc-lab') && elements.length > 0 && elements.every((el) => {
        el.scrollIntoView();
        return /d = 100, GloVe vectors/.test(el.shadowRoot?.querySelector('.pl-status')?.textContent ?? '');
      });
    }, null, { timeout: 30000, polling: 250 }).catch(async (error) => {
      const statuses = await page.evaluate(() => [...document.querySelectorAll('posenc-lab')].map((el) => el.shadowRoot?.querySelector('.pl-status')?.textContent ?? 'not upgraded'));
      throw new Error(`the elements never drew with GloVe: ${JSON.stringify(statuses)}; ${problems.join('; ')}: ${error.message}`);
    });
    const shown = await page.evaluate(() => ({
      elements: [...document.querySelectorAll('posenc-lab')].map((el) => ({
        sentence: el.getAttribute('sentence'),
        schemes: el.getAttribute('schemes'),
        maps: el.shadowRoot.querySelectorAll('canvas.map-canvas').length,
        note: el.shadowRoot.querySelector('.pl-note[role="status"]')?.hidden === false ? el.shadowRoot.querySelector('.pl-note[role="status"]').textContent : '',
      })),
      scripts: [...document.querySelectorAll('script[src]')].map((s) => s.getAttribute('src')).filter((src) => src.includes('posenc-lab')),
      text: document.body.innerText,
    }));
    // The refused outside requests (listed in `outside`) log their own console errors.
    const own = outside.length ? problems.filter((p) => !/Failed to load resource: net::ERR_FAILED/.test(p)) : problems;
    return { ...shown, problems: own, outside };
  } finally {
    await context.close();
    await closeServer(server);
  }
}

test('docs/EMBEDDING.md marks a Hugo and an MkDocs recipe, each with a folder to copy the element into', () => {
  assert.deepEqual(Object.keys(recipes).sort(), ['hugo', 'mkdocs']);
  for (const [tool, recipe] of Object.entries(recipes)) {
    assert.ok(recipe.assetsDir, `${tool}: the doc says where to copy posenc-lab.js`);
    assert.ok(Object.keys(recipe.files).length >= 2, `${tool}: ${Object.keys(recipe.files)}`);
  }
});

test('Hugo: the shortcode recipe builds, writes the script once per page, and the elements draw with GloVe', async () => {
  const site = join(scratch, 'hugo');
  writeSite(site, recipes.hugo);
  // The test's own site around the recipe: a config and the smallest page layout (a real site's
  // theme provides these).
  writeFileSync(join(site, 'hugo.toml'), "baseURL = 'http://127.0.0.1/'\ntitle = 'Recipe check'\ndisableKinds = ['taxonomy', 'term', 'RSS', 'sitemap', 'robotsTXT']\n");
  mkdirSync(join(site, 'layouts/_default'), { recursive: true });
  writeFileSync(join(site, 'layouts/_default/single.html'), '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>{{ .Title }}</title></head>\n<body><main>{{ .Content }}</main></body></html>\n');
  writeFileSync(join(site, 'layouts/_default/list.html'), '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>{{ .Title }}</title></head><body></body></html>\n');
  const log = execFileSync('hugo', ['--source', site, '--destination', join(site, 'public'), '--cacheDir', join(scratch, 'hugo-cache')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  assert.doesNotMatch(log, /deprecated/i, 'hugo warns of nothing deprecated');
  const post = Object.keys(recipes.hugo.files).find((p) => p.startsWith('content/')).replace(/^content\//, '').replace(/\.md$/, '/');
  const shown = await openSite(join(site, 'public'), post);
  const calls = [...recipes.hugo.files[`content/${post.slice(0, -1)}.md`].matchAll(/\{\{< posenc /g)].length;
  assert.equal(shown.elements.length, calls, 'one element per shortcode call');
  assert.equal(shown.scripts.length, 1, `the script once per page (.Page.Store): ${shown.scripts}`);
  for (const el of shown.elements) {
    assert.ok(el.maps >= 1, `${el.sentence}: an attention map drawn`);
    assert.equal(el.note, '', `${el.sentence}: no fallback note`);
  }
  assert.equal(shown.elements[0].sentence, 'the cat sat on the mat');
  assert.doesNotMatch(shown.text, /\{\{|\}\}|posenc sentence=/, 'no shortcode text shows literally');
  assert.deepEqual(shown.problems, []);
  assert.deepEqual(shown.outside, [], 'nothing fetched from outside 127.0.0.1');
});

test('MkDocs: the extra_javascript recipe builds with the default theme and the element draws with GloVe', async () => {
  const site = join(scratch, 'mkdocs');
  writeSite(site, recipes.mkdocs);
  // The machine is offline and the default theme fetches highlight.js from a CDN (its page then
  // throws "hljs is not defined"): the test's one addition to the recipe turns that off.
  assert.doesNotMatch(recipes.mkdocs.files['mkdocs.yml'], /^theme:/m);
  writeFileSync(join(site, 'mkdocs.yml'), `${recipes.mkdocs.files['mkdocs.yml']}theme:\n  name: mkdocs\n  highlightjs: false\n`);
  execFileSync('mkdocs', ['build', '--quiet', '--strict', '--config-file', join(site, 'mkdocs.yml'), '--site-dir', join(site, 'site')], { cwd: site, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const shown = await openSite(join(site, 'site'), '');
  assert.equal(shown.elements.length, 1);
  assert.equal(shown.elements[0].schemes, 'additive,rotary');
  assert.equal(shown.elements[0].maps, 2, 'two lanes, two attention maps');
  assert.equal(shown.elements[0].note, '');
  assert.doesNotMatch(shown.text, /<posenc-lab/, 'the tag is not escaped into text');
  assert.deepEqual(shown.problems, []);
  assert.deepEqual(shown.outside, [], 'nothing fetched from outside 127.0.0.1');
});
