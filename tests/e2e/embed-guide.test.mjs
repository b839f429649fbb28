// The embed guide (dist/embed.html) as a tutorial author uses it: the contents list leads to every
// section, each snippet has a keyboard-reachable copy button that copies exactly the snippet, the
// element's files download from beside the guide, and panels that never read the sentence
// (distance, angles, train) show no sentence box while the others do.
// Needs a built dist/ (./scripts/build).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserSuite } from './browser.mjs';

const suite = browserSuite();

async function openGuide() {
  const context = await suite.browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.baseUrl.replace(/\/$/, '') });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => { if (message.type() === 'error') problems.push(`console: ${message.text()}`); });
  await page.goto(`${suite.baseUrl}embed.html`);
  await page.waitForFunction(() => document.querySelectorAll('button.copy').length > 0);
  return { page, problems, close: () => context.close() };
}

test('the contents list links every section, and every link lands on an element of the page', async () => {
  const { page, problems, close } = await openGuide();
  try {
    const { targets, missing, h2 } = await page.evaluate(() => {
      const links = [...document.querySelectorAll('nav.contents a')].map((a) => a.getAttribute('href').slice(1));
      return {
        targets: links,
        missing: links.filter((id) => !document.getElementById(id)),
        h2: [...document.querySelectorAll('main > h2')].map((h) => h.id),
      };
    });
    assert.deepEqual(missing, []);
    for (const id of h2) assert.ok(targets.includes(id), `the contents list has no link to #${id}`);
    for (const id of await page.evaluate(() => [...document.querySelectorAll('section.example')].map((s) => s.id))) {
      assert.ok(targets.includes(id), `the contents list has no link to #${id}`);
    }
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('every snippet has a named copy button (a real button, in the tab order) that copies exactly its text', async () => {
  const { page, problems, close } = await openGuide();
  try {
    const snippets = await page.evaluate(() => [...document.querySelectorAll('main pre')].map((pre) => ({
      text: pre.textContent,
      button: pre.parentElement.querySelector(':scope > button.copy')?.getAttribute('aria-label') ?? null,
    })));
    assert.ok(snippets.length >= 15, `${snippets.length} snippets`);
    for (const { text, button } of snippets) assert.match(button ?? '', /^Copy snippet \d+/, `no copy button for ${text.slice(0, 60)}`);
    // Keyboard: the quick start's button, focused, copies on Enter.
    const first = page.locator('#quick-start ~ .snippet button.copy').first();
    await first.focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => /Copied|Selected/.test(document.querySelector('#quick-start ~ .snippet button.copy').textContent));
    assert.equal(await first.textContent(), 'Copied');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    assert.equal(copied, snippets.find((s) => s.text.includes('<script src="posenc-lab.js">')).text);
    const focusable = await page.evaluate(() => document.querySelector('button.copy').tabIndex);
    assert.equal(focusable, 0);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test("the element's files are listed with their sizes and download from beside the guide", async () => {
  const { page, problems, close } = await openGuide();
  try {
    const files = await page.evaluate(() => [...document.querySelectorAll('#files ~ ul.files a[download]')].map((a) => ({ href: a.href, text: a.parentElement.textContent })));
    assert.deepEqual(files.map((f) => new URL(f.href).pathname.slice(1)).sort(),
      ['anywidget.mjs', 'custom-elements.json', 'glove-6b-100d-20k.i8', 'posenc-fallback.png', 'posenc-lab-core-scalar.mjs', 'posenc-lab-worker.mjs', 'posenc-lab.js', 'posenc-lab.mjs', 'posenc-svg.mjs', 'posenc-train-live.mjs']);
    for (const { href, text } of files) {
      assert.match(text, /\((\d+ KB|\d+\.\d MB)\)/, `a size for ${href}`);
      const response = await page.request.get(href);
      assert.equal(response.status(), 200, href);
    }
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('panels that never read the sentence show no sentence box; the others show it', async () => {
  const { page, problems, close } = await openGuide();
  try {
    const boxes = {};
    for (const id of ['panel-attention', 'panel-orthogonality', 'panel-distance', 'panel-train']) {
      await page.locator(`#${id} posenc-lab`).scrollIntoViewIfNeeded();
      await page.waitForFunction((sel) => !/starts when it scrolls/.test(document.querySelector(sel).shadowRoot?.querySelector('.pl-status')?.textContent ?? 'starts when it scrolls'), `#${id} posenc-lab`, { timeout: 20000 });
      boxes[id] = await page.evaluate((sel) => {
        const root = document.querySelector(sel).shadowRoot;
        return { textarea: root.querySelectorAll('textarea').length, tokens: root.querySelectorAll('ol.tokens').length };
      }, `#${id} posenc-lab`);
    }
    assert.deepEqual(boxes['panel-attention'], { textarea: 1, tokens: 1 });
    assert.deepEqual(boxes['panel-orthogonality'], { textarea: 1, tokens: 1 }, 'orthogonality reads the sentence\'s word vectors');
    assert.deepEqual(boxes['panel-distance'], { textarea: 0, tokens: 0 });
    assert.deepEqual(boxes['panel-train'], { textarea: 0, tokens: 0 });
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});
