// bench/frozen-page.mjs: the lab page frozen at n tokens keeps the lab's document (its token list,
// lanes and canvases, drawn again from their pixels) and none of its scripts, and takes the
// control's keystroke path, so bench/keystroke.mjs can type into it: a typed character reaches the
// box and the engine line, with the new token count, and the held edit is made once.
// Needs a built dist/ (./scripts/build) and Debian's /usr/bin/chromium.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeServer, launchChromium, serveDir } from './browser.mjs';
import { freezePage } from '../../bench/frozen-page.mjs';

const TOKENS = 12;
const out = await mkdtemp(join(tmpdir(), 'posenc-frozen-'));
after(() => rm(out, { recursive: true, force: true }));

test('the frozen page has the lab document at n tokens and only the control scripts', async () => {
  const counts = await freezePage({ out, tokens: TOKENS });
  const html = await readFile(join(out, 'index.html'), 'utf8');
  const scripts = [...html.matchAll(/<script[^>]*src="([^"]+)"/g)].map((m) => m[1]).sort();
  assert.deepEqual(scripts, ['control.js', 'frozen-canvases.js']);
  assert.doesNotMatch(html, /modulepreload|Content-Security-Policy/);
  assert.equal([...html.matchAll(/<button[^>]*class="token[ "]/g)].length, TOKENS, 'the token list as the lab left it');
  assert.ok(counts.canvases >= 3 && counts.removed >= 2, JSON.stringify(counts));
  assert.equal([...html.matchAll(/data-frozen-pixels="data:image\/png/g)].length, counts.canvases);

  const { server, baseUrl } = await serveDir(out);
  const browser = await launchChromium();
  try {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    const errors = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${baseUrl}index.html`);
    await page.waitForFunction((n) => new RegExp(`^control · last recompute .* \\(n = ${n},`).test(document.getElementById('engine').textContent), TOKENS);
    // A map drawn again: some pixel of the first attention map is opaque.
    await page.waitForFunction(() => {
      const canvas = document.querySelector('[data-figure$="-attention"] canvas.map-canvas');
      const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
      return pixels.some((value, i) => i % 4 === 3 && value > 0);
    });
    // One key at a time, as the bench types: the control holds one edit, until its answer.
    const box = page.locator('#sentence');
    const before = await box.inputValue();
    await box.evaluate((element) => { element.focus(); element.setSelectionRange(element.value.length, element.value.length); });
    await page.keyboard.type(' ');
    await page.waitForFunction((text) => document.getElementById('sentence').value === text, `${before} `);
    await page.keyboard.type('x');
    await page.waitForFunction((n) => new RegExp(`\\(n = ${n},`).test(document.getElementById('engine').textContent), TOKENS + 1);
    assert.equal(await box.inputValue(), `${before} x`, 'each held edit made once');
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    await closeServer(server);
  }
});
