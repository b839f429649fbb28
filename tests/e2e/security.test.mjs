// The page under its Content-Security-Policy: it runs with no violation, requests nothing but
// its own files, and what a user types or puts in the URL is never sent anywhere.
// Needs a built dist/ (./scripts/build) and Debian's /usr/bin/chromium.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { browserSuite } from './browser.mjs';

const SECRET = 'zebrasecret7731';  // one token: a hyphenated secret would be split at its hyphens

const suite = browserSuite();

test('strict CSP, no violations, only same-origin requests, typed text never leaves the page', async () => {
  const page = await suite.browser.newPage();
  const requests = [];
  const problems = [];
  page.on('request', (request) => requests.push(request));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  // Collected in the page before any script of its own runs.
  await page.addInitScript(() => {
    window.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });

  await page.goto(`${suite.baseUrl}#s=${encodeURIComponent(`hidden ${SECRET} in the link`)}`);
  const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  for (const directive of ["default-src 'self'", "script-src 'self' 'wasm-unsafe-eval'", "style-src 'self'", "object-src 'none'"]) {
    assert.ok(csp.includes(directive), `CSP has ${directive}: ${csp}`);
  }
  assert.ok(!/unsafe-inline|'unsafe-eval'/.test(csp), `no unsafe-inline or unsafe-eval: ${csp}`);

  await page.waitForFunction(() => /GloVe 6B/.test(document.getElementById('vectors-status').textContent), null, { timeout: 20000 });
  const box = page.getByLabel('Sentence', { exact: true });
  await box.fill('');
  await box.pressSequentially(`the ${SECRET} typed here`, { delay: 5 });
  await page.waitForFunction((secret) => document.getElementById('tokens').textContent.includes(secret), SECRET, { timeout: 10000 });
  // Let the debounced analyses run: they too must stay inside the page.
  await page.waitForTimeout(1500);

  assert.deepEqual(await page.evaluate(() => window.__violations), [], 'CSP violations');
  assert.deepEqual(problems, []);
  const origin = new URL(suite.baseUrl).origin;
  for (const request of requests) {
    const url = request.url();
    assert.ok(url.startsWith(origin) || url.startsWith('data:') || url.startsWith('blob:'), `foreign request: ${url}`);
    assert.ok(!url.includes(SECRET) || url.includes('#'), `typed text in a request URL: ${url}`);
    assert.ok(!(request.postData() ?? '').includes(SECRET), `typed text in a request body: ${url}`);
    assert.equal(request.method(), 'GET', `only GETs of the page's files: ${request.method()} ${url}`);
  }
  assert.ok(requests.some((r) => r.url().endsWith('.wasm')), 'the wasm core was requested (the test saw the page load)');
  await page.close();
});

test('a 2 MB paste: only its beginning is read, the page says so and stays usable', async () => {
  const page = await suite.browser.newPage();
  const problems = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  await page.goto(`${suite.baseUrl}#v=synthetic`);
  await page.waitForFunction(() => /last recompute/.test(document.getElementById('engine').textContent), null, { timeout: 15000 });
  await page.evaluate(() => {
    const box = document.getElementById('sentence');
    box.value = 'word '.repeat(400000);  // 2,000,000 characters
    box.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await page.waitForFunction(() => /longer than 1,048,576 characters/.test(document.getElementById('tokens').textContent + document.body.textContent), null, { timeout: 20000 });
  const box = page.getByLabel('Sentence', { exact: true });
  await box.fill('short again');
  await page.waitForFunction(() => /\(2\)/.test(document.body.textContent), null, { timeout: 10000 });
  assert.deepEqual(problems, []);
  await page.close();
});
