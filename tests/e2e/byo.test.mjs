// "Bring your own vectors" in headless Chromium: the picker (web/page/byo-vectors.js) mounted on a
// small harness page served beside dist/, parsing in its module worker (web/page/byo-worker.js).
// A good file loads and hands over a WordVectorSet; malformed, odd-dimensional and binary files
// are refused with their messages while the previous vectors keep working; drag and drop works;
// Cancel stops a large file; and the parse speed is measured.
// Needs a built dist/ (./scripts/build) and Debian's /usr/bin/chromium.
// BYO_BENCH_MB=100 node --test tests/e2e/byo.test.mjs  measures on a bigger file (default 30 MB).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { access } from 'node:fs/promises';
import { DIST, closeServer, launchChromium, serveDir } from './browser.mjs';

const BENCH_MB = Number(process.env.BYO_BENCH_MB ?? 30);

// The harness: the page's stylesheet, an element with id="byo-vectors" as the page will have,
// and the picker mounted with callbacks that record what they receive. It is served by the
// browser context (page.route), so dist/ holds nothing but the build.
const HARNESS = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>BYO harness</title><link rel="stylesheet" href="styles/lab.css"></head>
<body><main><section id="byo-vectors"></section></main>
<script type="module">
  import { load } from './posenc.mjs';
  import { mountVectorPicker } from './page/byo-vectors.js';
  const lab = await load();
  window.events = [];
  window.current = await lab.loadVectors('glove');
  window.picker = mountVectorPicker(document.getElementById('byo-vectors'), {
    lab,
    onLoaded(vectors, summary) {
      window.current = vectors;
      window.events.push({ type: 'loaded', size: vectors.size, dim: vectors.dim, summary,
        first: vectors.word(0), neighbor: vectors.size > 1 ? vectors.neighbors(vectors.word(0), 1)[0].word : null });
    },
    onError(message, details) { window.events.push({ type: 'error', message, code: details.code, lines: details.errors.map((e) => e.line) }); },
    onReset() { window.events.push({ type: 'reset' }); },
    onCancel() { window.events.push({ type: 'cancel' }); },
  });
  window.ready = true;
</script></body></html>`;

let server;
let browser;
let baseUrl;

before(async () => {
  await access(`${DIST}page/byo-vectors.js`).catch(() => {
    throw new Error('dist/page/byo-vectors.js is missing: run ./scripts/build first');
  });
  ({ server, baseUrl } = await serveDir());
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await closeServer(server);
});

async function openHarness() {
  const context = await browser.newContext({ viewport: { width: 1000, height: 800 } });
  await context.route(`${baseUrl}byo-harness.html`, (route) => route.fulfill({ contentType: 'text/html', body: HARNESS }));
  const page = await context.newPage();
  const problems = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  await page.goto(`${baseUrl}byo-harness.html`);
  await page.waitForFunction(() => window.ready === true, null, { timeout: 10000 }).catch((error) => {
    throw new Error(`the harness never became ready (${problems.join('; ') || 'no console errors'}): ${error.message}`);
  });
  return { page, problems, close: () => context.close() };
}

const events = (page) => page.evaluate(() => window.events);
const waitForEvents = (page, n, timeout = 10000) =>
  page.waitForFunction((count) => window.events.length >= count, n, { timeout });
const fileInput = (page) => page.getByLabel('Vector file');

function glove(words, dim, { start = 0 } = {}) {
  const lines = [];
  for (let i = 0; i < words; i++) {
    const values = Array.from({ length: dim }, (_, j) => (Math.sin(i * 1.3 + j * 0.7) * (j === i % dim ? 2 : 1)).toFixed(5));
    lines.push(`w${start + i} ${values.join(' ')}`);
  }
  return lines.join('\n');
}

test('a good file loads: onLoaded gets the set, with its size and dimension; "Use GloVe again" resets', async () => {
  const { page, problems, close } = await openHarness();
  try {
    await fileInput(page).setInputFiles({ name: 'mine.txt', mimeType: 'text/plain', buffer: Buffer.from(`300 8\n${glove(300, 8)}\n`) });
    await waitForEvents(page, 1);
    const [loaded] = await events(page);
    assert.equal(loaded.type, 'loaded', JSON.stringify(loaded));
    assert.equal(loaded.size, 300);
    assert.equal(loaded.dim, 8);
    assert.equal(loaded.first, 'w0');
    assert.ok(loaded.neighbor?.startsWith('w'));
    assert.equal(loaded.summary.fileName, 'mine.txt');
    assert.equal(loaded.summary.format, 'word2vec');
    const root = page.locator('#byo-vectors');
    assert.match(await root.getByRole('status').textContent(), /Using “mine\.txt”: 300 words × 8 dimensions/);
    assert.equal(await root.getByRole('alert').isHidden(), true);
    assert.equal(await root.locator('progress').isHidden(), true);
    assert.equal(await page.evaluate(() => window.current.size), 300, 'the page switched to the new set');

    await root.getByRole('button', { name: 'Use GloVe again' }).click();
    assert.deepEqual((await events(page)).map((e) => e.type), ['loaded', 'reset']);
    assert.equal(await root.getByRole('button', { name: 'Use GloVe again' }).isHidden(), true);
    assert.match(await root.getByRole('status').textContent(), /Using GloVe again/);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('malformed lines are listed with their line numbers; a refused file leaves the previous vectors working', async () => {
  const { page, problems, close } = await openHarness();
  try {
    // Two bad lines among 40: skipped and listed, the rest loads.
    const lines = glove(40, 4).split('\n');
    lines[6] = 'broken 1 2 3';
    lines[20] = 'worse 1 <img/src=x/onerror=window.__xss=1> 3 4';
    await fileInput(page).setInputFiles({ name: 'some-bad.txt', mimeType: 'text/plain', buffer: Buffer.from(lines.join('\n')) });
    await waitForEvents(page, 1);
    const root = page.locator('#byo-vectors');
    assert.equal((await events(page))[0].size, 38);
    const details = await root.locator('.byo-details li').allTextContents();
    assert.deepEqual(details, [
      'Skipped 2 unreadable lines.',
      'Line 7: expected 4 values after the word, found 3',
      "Line 21: value 2 ('<img/src=x/onerror=windo…') is not a number",
    ]);
    assert.equal(await root.locator('img').count(), 0, 'file content is never markup');

    // Many bad lines: refused, the lines are listed, the 38-word set still works.
    const bad = glove(30, 4).split('\n').map((line, i) => (i % 2 ? line.replace(/ \S+$/, ' oops') : line));
    await fileInput(page).setInputFiles({ name: 'bad.txt', mimeType: 'text/plain', buffer: Buffer.from(bad.join('\n')) });
    await waitForEvents(page, 2);
    const error = (await events(page))[1];
    assert.equal(error.type, 'error');
    assert.equal(error.code, 'too-many-errors');
    assert.deepEqual(error.lines, [2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22]);
    const alert = root.getByRole('alert');
    assert.equal(await alert.isVisible(), true);
    assert.match(await alert.locator('p').textContent(), /Could not use “bad\.txt”: too many unreadable lines.*keeps its current vectors \(“some-bad\.txt”\)/);
    const listed = await alert.locator('li').allTextContents();
    assert.equal(listed.length, 11);
    assert.equal(listed[0], "Line 2: value 4 ('oops') is not a number");
    assert.equal(await page.evaluate(() => window.current.size), 38, 'the previous set is still current');
    assert.equal(await page.evaluate(() => window.current.neighbors('w1', 1).length), 1, 'and still works');
    assert.equal(await page.evaluate(() => window.__xss), undefined);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('an odd dimension and a binary file are refused with clear messages', async () => {
  const { page, problems, close } = await openHarness();
  try {
    const root = page.locator('#byo-vectors');
    await fileInput(page).setInputFiles({ name: 'odd.txt', mimeType: 'text/plain', buffer: Buffer.from(glove(5, 99)) });
    await waitForEvents(page, 1);
    assert.deepEqual((await events(page))[0], {
      type: 'error', code: 'odd-dimension', lines: [],
      message: 'dimension 99 is odd: positional encodings pair dimensions; use an even-dimensional file',
    });
    assert.match(await root.getByRole('alert').textContent(), /Could not use “odd\.txt”: dimension 99 is odd.*keeps its current vectors \(GloVe\)/);

    const binary = Buffer.alloc(4096);
    for (let i = 0; i < binary.length; i++) binary[i] = (i * 7919) % 251;
    await fileInput(page).setInputFiles({ name: 'vectors.bin', mimeType: 'application/octet-stream', buffer: binary });
    await waitForEvents(page, 2);
    const refused = (await events(page))[1];
    assert.equal(refused.code, 'binary');
    assert.match(await root.getByRole('alert').textContent(), /binary file \(word2vec \.bin is not supported; convert it to text\)/);
    assert.equal(await page.evaluate(() => window.current.name), 'glove', 'GloVe is still current');
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('a file dropped on the component loads', async () => {
  const { page, problems, close } = await openHarness();
  try {
    await page.evaluate((text) => {
      const target = document.getElementById('byo-vectors');
      const data = new DataTransfer();
      data.items.add(new File([text], 'dropped.vec', { type: 'text/plain' }));
      for (const type of ['dragenter', 'dragover']) target.dispatchEvent(new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true }));
      window.highlighted = target.querySelector('.byo').classList.contains('byo-dragging');
      target.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    }, glove(12, 6));
    await waitForEvents(page, 1);
    const [loaded] = await events(page);
    assert.equal(loaded.size, 12);
    assert.equal(loaded.summary.fileName, 'dropped.vec');
    assert.equal(await page.evaluate(() => window.highlighted), true, 'the drop zone is highlighted while dragging');
    assert.equal(await page.locator('.byo-dragging').count(), 0);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

// A file of `megabytes` MB of 100-d lines with unique words, built in the page from one block.
async function pickGenerated(page, megabytes) {
  return page.evaluate((mb) => {
    const dim = 100;
    const linesPerBlock = 1000;
    let text = '';
    for (let i = 0; i < linesPerBlock; i++) {
      text += 'w00000000';
      for (let j = 0; j < dim; j++) text += ` ${(Math.sin(i * 0.37 + j * 1.1) * 0.8).toFixed(6)}`;
      text += '\n';
    }
    const block = new TextEncoder().encode(text);
    const starts = [];
    for (let at = 0; at < block.length; at = block.indexOf(10, at) + 1) starts.push(at + 1);
    const blocks = [];
    let size = 0;
    for (let b = 0; size < mb * 1e6; b++) {
      const copy = block.slice();
      starts.forEach((at, i) => {
        const id = String(b * linesPerBlock + i).padStart(8, '0');
        for (let k = 0; k < 8; k++) copy[at + k] = id.charCodeAt(k);
      });
      blocks.push(copy);
      size += copy.length;
    }
    const file = new File(blocks, 'big.txt', { type: 'text/plain' });
    window.bigFile = file;
    const input = document.querySelector('#byo-vectors input[type=file]');
    const data = new DataTransfer();
    data.items.add(file);
    input.files = data.files;
    window.started = performance.now();
    input.dispatchEvent(new Event('change'));
    return size;
  }, megabytes);
}

test('Cancel stops a large file and leaves no error state', async () => {
  const { page, problems, close } = await openHarness();
  try {
    await pickGenerated(page, 60);
    const root = page.locator('#byo-vectors');
    await page.waitForFunction(() => Number(document.querySelector('#byo-vectors progress').value) > 0, null, { timeout: 10000 });
    assert.match(await root.locator('.byo-progress-text').textContent(), /^Reading “big\.txt”: [\d.]+ MB of 60 MB \(\d+%\) · [\d,]+ words$/);
    await root.getByRole('button', { name: 'Cancel' }).click();
    assert.match(await root.getByRole('status').textContent(), /Cancelled\. The page keeps its current vectors \(GloVe\)/);
    await page.waitForTimeout(1000);
    assert.deepEqual((await events(page)).map((e) => e.type), ['cancel'], 'no load and no error after Cancel');
    assert.equal(await root.getByRole('alert').isHidden(), true);
    assert.equal(await root.locator('progress').isHidden(), true);
    assert.equal(await page.evaluate(() => window.picker.busy), false);
    assert.equal(await page.evaluate(() => window.current.name), 'glove');

    // The worker's own protocol: a 'cancel' message aborts its reader and it says 'cancelled'.
    const run = await page.evaluate(() => new Promise((resolve) => {
      const file = window.bigFile;
      const worker = new Worker('./page/byo-worker.js', { type: 'module' });
      const seen = [];
      let lastRead = 0;
      worker.onmessage = ({ data }) => {
        seen.push(data.type);
        if (data.type === 'progress') {
          lastRead = data.bytesRead;
          if (data.bytesRead > 0 && !seen.includes('sent-cancel')) {
            seen.push('sent-cancel');
            worker.postMessage({ type: 'cancel' });
          }
        } else {
          worker.terminate();
          resolve({ last: data.type, lastRead, total: file.size, types: [...new Set(seen)] });
        }
      };
      worker.postMessage({ type: 'parse', file });
    }));
    assert.equal(run.last, 'cancelled', JSON.stringify(run));
    assert.ok(run.lastRead < run.total, `stopped early (${run.lastRead} of ${run.total} bytes)`);
    assert.ok(run.total > 50e6, 'the worker was given the large file');
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test(`parse speed on a generated ${BENCH_MB} MB, 100-d file (file picked → set loaded)`, async (t) => {
  const { page, problems, close } = await openHarness();
  try {
    const size = await pickGenerated(page, BENCH_MB);
    await waitForEvents(page, 1, 60000);
    const seconds = await page.evaluate(() => (performance.now() - window.started) / 1000);
    const [loaded] = await events(page);
    assert.equal(loaded.type, 'loaded', JSON.stringify(loaded));
    assert.equal(loaded.dim, 100);
    assert.equal(loaded.size, loaded.summary.lines);
    const rate = size / 1e6 / seconds;
    const worker = loaded.summary.seconds;
    t.diagnostic(`BYO: ${(size / 1e6).toFixed(1)} MB, ${loaded.size} words × 100: worker (read, parse, pack) ${worker.toFixed(2)} s = ` +
      `${(size / 1e6 / worker).toFixed(1)} MB/s; picked → set loaded ${seconds.toFixed(2)} s = ${rate.toFixed(1)} MB/s`);
    assert.ok(rate > 5, `${rate.toFixed(1)} MB/s`);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});
