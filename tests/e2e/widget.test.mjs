// dist/anywidget.mjs (web/element/anywidget.mjs bundled with the element) in headless Chromium with a
// stand-in anywidget model: it mounts <posenc-lab>, the model's changes reach the attributes, a
// reader's edit reaches the model (typed as the model holds it) and is saved, and the cleanup
// removes the element and every listener. Also dist/custom-elements.json against the running
// element: every attribute it observes is documented, with the element's real default, and the
// generated attribute table in embed.html lists each. Needs a built dist/ (./scripts/build).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DIST, browserSuite } from './browser.mjs';

const suite = browserSuite();
const BLANK = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>widget host</title><link rel="icon" href="data:,"></head><body><main id="out"></main></body></html>';

/** A page on dist/'s origin with nothing in it (served by route, so dist/ needs no extra file). */
async function blankPage() {
  const context = await suite.browser.newContext({ viewport: { width: 900, height: 900 } });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => { if (message.type() === 'error') problems.push(`console: ${message.text()}`); });
  await page.route(`${suite.baseUrl}widget-host.html`, (route) => route.fulfill({ contentType: 'text/html', body: BLANK }));
  await page.goto(`${suite.baseUrl}widget-host.html`);
  return { page, problems, close: () => context.close() };
}

test('the anywidget module mounts the element and syncs it with the model both ways; cleanup undoes it', async () => {
  const { page, problems, close } = await blankPage();
  try {
    const result = await page.evaluate(async () => {
      // The part of anywidget's model the widget may use, recording what it is asked.
      const values = { sentence: 'the cat sat', schemes: ['additive', 'rotary'], d: 32, causal: true, vectors: 'synthetic', unrelated: 'x' };
      const listeners = new Map();
      const log = [];
      const model = {
        get: (key) => values[key],
        set: (key, value) => {
          values[key] = value;
          log.push(`set ${key}`);
          for (const callback of listeners.get(`change:${key}`) ?? []) callback();
        },
        on: (event, callback) => listeners.set(event, [...(listeners.get(event) ?? []), callback]),
        off: (event, callback) => listeners.set(event, (listeners.get(event) ?? []).filter((c) => c !== callback)),
        save_changes: () => log.push('save'),
      };
      const { default: widget } = await import('./anywidget.mjs');
      const el = document.getElementById('out');
      const cleanup = widget.render({ model, el });
      const figure = el.querySelector('posenc-lab');
      const attributes = () => Object.fromEntries([...figure.attributes].map((a) => [a.name, a.value]));
      const mounted = attributes();
      const listened = [...listeners.keys()].sort();

      model.set('sentence', 'the dog barked');
      model.set('schemes', ['rotary']);
      const followed = attributes();

      // A reader types: the element reflects the edit and fires posenc-change.
      await figure.ready;
      const area = figure.shadowRoot.querySelector('textarea');
      area.value = 'a reader typed this';
      area.dispatchEvent(new Event('input'));
      const edited = { sentence: values.sentence, schemes: values.schemes, d: values.d, causal: values.causal, log: [...log] };

      cleanup();
      return {
        mounted, listened, followed, edited,
        removed: !el.querySelector('posenc-lab'),
        leftListeners: [...listeners.values()].reduce((n, list) => n + list.length, 0),
      };
    });
    assert.deepEqual(result.mounted, { sentence: 'the cat sat', schemes: 'additive,rotary', d: '32', causal: 'true', vectors: 'synthetic' });
    assert.deepEqual(result.listened, ['change:causal', 'change:d', 'change:schemes', 'change:sentence', 'change:vectors'],
      'one listener per attribute the model has, none for its other keys');
    assert.equal(result.followed.sentence, 'the dog barked');
    assert.equal(result.followed.schemes, 'rotary');
    // Only the sentence changed: only it is set, in the model's own types for the rest, then saved once.
    assert.deepEqual(result.edited, {
      sentence: 'a reader typed this', schemes: ['rotary'], d: 32, causal: true,
      log: ['set sentence', 'set schemes', 'set sentence', 'save'],
    });
    assert.equal(result.removed, true);
    assert.equal(result.leftListeners, 0);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('custom-elements.json documents every observed attribute, with its real default; embed.html lists each', async () => {
  const manifest = JSON.parse(await readFile(join(DIST, 'custom-elements.json'), 'utf8'));
  const declaration = manifest.modules.flatMap((m) => m.declarations).find((d) => d.tagName === 'posenc-lab');
  assert.ok(declaration, 'the manifest declares <posenc-lab>');
  assert.equal(declaration.name, 'PosencLabElement');
  assert.ok(declaration.events.some((e) => e.name === 'posenc-change' && e.description));
  assert.equal(manifest.modules[0].path, 'dist/posenc-lab.mjs');
  assert.ok(manifest.modules[0].exports.some((e) => e.kind === 'custom-element-definition' && e.name === 'posenc-lab'));

  const { page, close } = await blankPage();
  try {
    // The defaults the element really uses: its properties with no attribute set.
    const element = await page.evaluate(async () => {
      await import('./posenc-lab.mjs');
      const Element = customElements.get('posenc-lab');
      const probe = document.createElement('posenc-lab');
      const option = (a) => a.replace(/-([a-z])/g, (_, c) => c.toUpperCase());
      return Object.fromEntries(Element.observedAttributes.map((a) => [a, String(probe[option(a)])]));
    });
    const documented = Object.fromEntries(declaration.attributes.map((a) => [a.name, a]));
    assert.deepEqual(Object.keys(documented).sort(), Object.keys(element).sort(), 'manifest attributes = observed attributes');
    for (const [name, actual] of Object.entries(element)) {
      const entry = documented[name];
      assert.ok(entry.description?.length > 20, `${name}: no description`);
      // Empty lists read back as '' and are written "none" in the docs; vectors-src's '' has no default.
      assert.equal(entry.default ?? '', actual === '' && entry.default === 'none' ? 'none' : actual, `${name}: documented default`);
    }
    const embed = await readFile(join(DIST, 'embed.html'), 'utf8');
    assert.ok(!embed.includes('attribute rows:'), 'the placeholder was replaced');
    for (const name of Object.keys(element)) {
      assert.ok(embed.includes(`<th scope="row"><code>${name}</code></th>`), `embed.html has no row for ${name}`);
    }
  } finally {
    await close();
  }
});

test('loaded from its http(s) URL, as anywidget imports an `https:` `_esm` (docs/EMBEDDING.md, the CDN form): GloVe from beside it', async () => {
  const { page, problems, close } = await blankPage();
  try {
    const result = await page.evaluate(async () => {
      // anywidget imports an href `_esm` as it is, so the module keeps its address.
      const { default: widget } = await import(new URL('anywidget.mjs', location.href).href);
      const values = { sentence: 'the cat sat', schemes: 'additive,rotary', panel: 'attention' };
      const model = { get: (key) => values[key], set() {}, on() {}, off() {}, save_changes() {} };
      const el = document.createElement('div');
      document.getElementById('out').append(el);
      widget.render({ model, el });
      const figure = el.querySelector('posenc-lab');
      figure.scrollIntoView();
      await Promise.race([figure.ready, new Promise((r) => setTimeout(r, 15000))]);
      const root = figure.shadowRoot;
      const note = root.querySelector('.pl-note[role="status"]');
      return { status: root.querySelector('.pl-status').textContent, note: note.hidden ? '' : note.textContent };
    });
    assert.match(result.status, /d = 100, GloVe vectors/);
    assert.equal(result.note, '');
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('loaded from a blob: URL, as anywidget loads `_esm`: no folder, so a note and no SVG export; vectors_src brings GloVe', async () => {
  const { page, problems, close } = await blankPage();
  try {
    const result = await page.evaluate(async () => {
      const text = await (await fetch('./anywidget.mjs')).text();
      const { default: widget } = await import(URL.createObjectURL(new Blob([text], { type: 'text/javascript' })));
      const mount = async (values) => {
        const model = { get: (key) => values[key], set() {}, on() {}, off() {}, save_changes() {} };
        const el = document.createElement('div');
        document.getElementById('out').append(el);
        widget.render({ model, el });
        const figure = el.querySelector('posenc-lab');
        figure.scrollIntoView(); // each starts when it comes into view
        await Promise.race([figure.ready, new Promise((r) => setTimeout(r, 15000))]);
        const root = figure.shadowRoot;
        const note = root.querySelector('.pl-note[role="status"]');
        const formats = [...new Set([...root.querySelectorAll('.fig-menu-item')].map((item) => item.textContent))];
        return { status: root.querySelector('.pl-status').textContent, note: note.hidden ? '' : note.textContent, formats };
      };
      return {
        beside: await mount({ sentence: 'the cat sat', schemes: 'additive', controls: 'export' }),
        elsewhere: await mount({ sentence: 'the cat sat', schemes: 'additive', vectors_src: new URL('glove-6b-100d-20k.i8', location.href).href }),
      };
    });
    assert.match(result.beside.status, /synthetic vectors/);
    assert.match(result.beside.note, /no folder to fetch GloVe from; set vectors-src/);
    // Nor the SVG writer (web/element/svg-writer-beside.js): its menus offer the other formats.
    assert.deepEqual(result.beside.formats, ['PNG image', 'CSV data', 'JSON data']);
    assert.match(result.elsewhere.status, /d = 100, GloVe vectors/);
    assert.equal(result.elsewhere.note, '');
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});
