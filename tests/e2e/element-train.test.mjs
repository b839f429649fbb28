// <posenc-lab panel="train"> in headless Chromium: the replay of the page's default Train run
// (data/train-replay.json, web/train/replay.js) draws the loss and length-generalisation charts
// with the shipped numbers, states the run's sentence, exports them, and needs no model or worker;
// pressing Train live fetches the live trainer (posenc-train-live.mjs) and the model core beside
// the script and trains the run in the page (web/element/train-live.js, train-runner.js), and
// pausing draws the running models' held-out loss by position. Needs a built dist/ (./scripts/build).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DIST, browserSuite, exportFrom } from './browser.mjs';

const suite = browserSuite();
const replay = JSON.parse(await readFile(new URL('../../data/train-replay.json', import.meta.url), 'utf8'));
const HOST = 'element-train-host.html';

test('panel="train" replays the shipped run: both charts, their numbers in the CSV, the sentence, PNG', async () => {
  await writeFile(join(DIST, HOST), '<!doctype html><html lang="en"><title>host</title><link rel="icon" href="data:,"><script src="posenc-lab.js"></script>' +
    '<posenc-lab id="replay" panel="train" controls="export"></posenc-lab>');
  const context = await suite.browser.newContext({ viewport: { width: 1000, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
  page.on('pageerror', (e) => problems.push(e.message));
  const workers = [];
  page.on('worker', (w) => workers.push(w.url()));
  try {
    await page.goto(`${suite.baseUrl}${HOST}`);
    const host = page.locator('#replay');
    const loss = host.getByRole('img', { name: /^Loss during training/ });
    await loss.waitFor();
    const label = await loss.getAttribute('aria-label');
    for (const name of ['Additive', 'Concatenated', 'Rotary']) assert.match(label, new RegExp(name));
    const lengths = host.getByRole('img', { name: /^Length generalisation/ });
    assert.match(await lengths.getAttribute('aria-label'), /PI, NTK-aware and YaRN/);
    // The run's sentence, recomputed from the shipped numbers by the Train section's summary.
    assert.match(await host.locator('.train-summary').textContent(), /learned fastest.*held up best.*Concatenating 8 position dimensions/s);

    const csv = async (title) => {
      const download = await exportFrom(page, host, title, 'CSV data');
      return (await readFile(await download.path(), 'utf8')).trim().split('\n').slice(1).map((row) => {
        const cells = row.split(',');
        return { series: cells.slice(0, -2).join(','), x: Number(cells.at(-2)), y: Number(cells.at(-1)) };
      });
    };
    const lossRows = await csv('Loss during training');
    for (const run of replay.runs) {
      const name = { additive: 'Additive', concatenated: 'Concatenated', rotary: 'Rotary', alibi: 'ALiBi' }[run.scheme];
      const training = lossRows.filter((r) => r.series === `${name} training`);
      assert.equal(training.length, replay.settings.steps / replay.bin);
      // Each bin's mean of BIN copies of the shipped value: that value to float64 rounding.
      training.forEach((r, k) => assert.ok(Math.abs(r.y - run.losses[k]) <= 1e-12 * run.losses[k], `${name} bin ${k}`));
      const held = lossRows.filter((r) => r.series === `${name} held-out`);
      assert.deepEqual(held.map((r) => [r.x, r.y]), run.heldout);
    }
    const lengthRows = await csv('Length generalisation');
    const rotaryYarn = lengthRows.filter((r) => r.series === 'Rotary + YaRN').map((r) => r.y);
    assert.deepEqual(rotaryYarn, replay.runs.find((r) => r.scheme === 'rotary').curves.yarn);

    const png = await page.evaluate(async () => {
      const blob = await document.getElementById('replay').toPNG({ panel: 'train' });
      return [...new Uint8Array(await blob.arrayBuffer()).subarray(0, 4)];
    });
    assert.deepEqual(png, [0x89, 0x50, 0x4e, 0x47]);
    assert.deepEqual(workers, [], 'no training worker starts');
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
    await rm(join(DIST, HOST), { force: true });
  }
});

test('an article with panel="train" trains live: the model core only once Train is pressed, steps climb, no console errors', async () => {
  const ARTICLE = 'element-train-article.html';
  await writeFile(join(DIST, ARTICLE), '<!doctype html><html lang="en"><title>An article</title><link rel="icon" href="data:,">' +
    '<script src="posenc-lab.js"></script><main><h1>Why rotary?</h1><p>Press Train live below.</p>' +
    '<posenc-lab id="live" panel="train" controls="export"></posenc-lab><p>The end.</p></main>');
  const context = await suite.browser.newContext({ viewport: { width: 1000, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
  page.on('pageerror', (e) => problems.push(e.message));
  const requested = [];
  page.on('request', (r) => requested.push(new URL(r.url()).pathname.split('/').pop()));
  try {
    await page.goto(`${suite.baseUrl}${ARTICLE}`);
    const host = page.locator('#live');
    await host.getByRole('img', { name: /^Loss during training/ }).waitFor();
    const lazy = (name) => /^posenc-models-|^model\.mjs$|^moby-dick\.txt$|^posenc-train-live\.mjs$/.test(name);
    assert.deepEqual(requested.filter(lazy), [], 'the first load fetches no live trainer, model core, model code or book');

    await host.getByRole('button', { name: 'Train live' }).click();
    const status = host.locator('.train-live-status');
    const stepOf = async () => Number((/Additive: step (\d+)/.exec(await status.textContent()) ?? [0, 0])[1]);
    await page.waitForFunction(() => /Additive: step [1-9]/.test(document.getElementById('live').shadowRoot.querySelector('.train-live-status').textContent), null, { timeout: 60000 });
    const first = await stepOf();
    await page.waitForFunction((before) => {
      const match = /Additive: step (\d+)/.exec(document.getElementById('live').shadowRoot.querySelector('.train-live-status').textContent);
      return match && Number(match[1]) > before;
    }, first, { timeout: 60000 });
    assert.ok(await stepOf() > first, 'the steps climb');
    assert.match(await status.textContent(), /Concatenated: step \d+.*Rotary: step \d+/);
    assert.ok(requested.some((name) => /^posenc-models-(simd|scalar)\.wasm$/.test(name)), 'the model core was fetched');
    assert.ok(requested.includes('moby-dick.txt'), 'the book was fetched');
    assert.equal(requested.filter((name) => name === 'posenc-train-live.mjs').length, 1, 'the live trainer was fetched, once');

    // Not before: the replay records no loss by position.
    assert.equal(await host.getByRole('img', { name: /^Held-out loss by position/ }).count(), 0);
    await host.getByRole('button', { name: 'Pause' }).click();
    await page.waitForFunction(() => /Paused/.test(document.getElementById('live').shadowRoot.querySelector('.train-live-status').textContent));
    // On pause the running models are evaluated by position: one line per scheme.
    const positions = host.getByRole('img', { name: /^Held-out loss by position/ });
    await positions.waitFor();
    const described = await positions.getAttribute('aria-label');
    assert.match(described, /one line per scheme .*at step [\d, ]+; 8 windows of the held-out text, evaluated when training ends and on pause/);
    // Four models, one line each, in the figure's data.
    const download = await exportFrom(page, host, 'Held-out loss by position', 'CSV data');
    const series = new Set((await readFile(await download.path(), 'utf8')).trim().split('\n').slice(1).map((row) => row.split(',').slice(0, -2).join(',')));
    assert.deepEqual([...series].sort(), ['ALiBi', 'Additive', 'Concatenated', 'Rotary']);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
    await rm(join(DIST, ARTICLE), { force: true });
  }
});
