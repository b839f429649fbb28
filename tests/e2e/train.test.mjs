// The Train section in headless Chromium: every scheme trains a few steps in its worker and the
// loss chart and status follow; Pause stops the step count; the settings round-trip through the
// URL; a downloaded weights file loads back with the same held-out loss; a bad file is refused
// with the running models untouched; reduced motion is respected; a phone width fits; no console
// errors. Tiny models, copy task at T = 8, budgets of a few dozen steps.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { browserSuite, exportFrom, openLabPage, waitForSummary } from './browser.mjs';

const suite = browserSuite();
const QUICK = 'v=synthetic&t.task=copy&t.len=8&t.batch=4';

// The page once the analyses after the first pause have ended (waitForSummary): the worker is then
// free. Scrolled to the Train section, which is built once the reader nears it.
async function open(hash, options = {}) {
  const opened = await openLabPage(suite.browser, suite.baseUrl, { hash: `#${hash}`, glove: false, ...options });
  await waitForSummary(opened.page);
  await opened.page.locator('#train').scrollIntoViewIfNeeded();
  await opened.page.locator('#train .train-buttons').waitFor();
  return opened;
}

const section = (page) => page.locator('#train');
const statusLines = (page) => section(page).locator('.train-status-line').allTextContents();
const stepOf = (line) => Number(/step (\d+)/.exec(line)?.[1] ?? NaN);

// A Train figure's CSV export, by the figure's title.
async function exportCsv(page, title) {
  const download = await exportFrom(page, page, title, 'CSV data');
  return (await readFile(await download.path())).toString('utf8');
}

async function waitForBudget(page, count, timeout = 60000) {
  await page.waitForFunction((n) => {
    const lines = [...document.querySelectorAll('#train .train-status-line')];
    return lines.length === n && lines.every((l) => /budget reached/.test(l.textContent) && /held-out loss/.test(l.textContent));
  }, count, { timeout });
}

for (const schemes of [['additive', 'concatenated', 'rotary', 'learned'], ['alibi', 'nope', 't5']]) {
  test(`${schemes.join(', ')}: a few steps each move the status and the loss chart`, async () => {
    const { page, problems, close } = await open(`${QUICK}&t.steps=20&t.schemes=${schemes.join(',')}`);
    try {
      const train = section(page);
      await train.scrollIntoViewIfNeeded();
      assert.match(await train.getByRole('status').textContent(), /Not trained yet/);
      const chart = train.getByRole('img', { name: /^Loss/ });
      await train.getByRole('button', { name: 'Train', exact: true }).click();
      await waitForBudget(page, schemes.length);
      const lines = await statusLines(page);
      for (const line of lines) {
        assert.equal(stepOf(line), 20, line);
        assert.match(line, /training loss \d/);
        assert.match(line, /steps\/s/);
      }
      assert.match(await chart.getAttribute('aria-label'), /^Loss during training/);
      await chart.focus();
      await page.keyboard.press('ArrowRight');
      const readout = await train.locator('.cell-readout').first().textContent();
      assert.match(readout, /^step = 10:/);
      assert.equal((readout.match(/training: \d/g) ?? []).length, schemes.length, readout);
      const lengths = train.getByRole('img', { name: /^Length generalisation/ });
      assert.match(await lengths.getAttribute('aria-label'), /1, 2, 3, 4, 6 and 8 times/);
      if (schemes.includes('rotary')) assert.match(await lengths.getAttribute('aria-label'), /PI, NTK-aware and YaRN/);
      // The run's sentence, no longer the note that holds its place.
      const sentenceText = await train.locator('.train-summary').textContent();
      assert.ok(sentenceText.length > 20 && !/^A sentence comparing the models appears/.test(sentenceText), sentenceText);
      // The learned attention: one map per model on the copy example, with its loss strip.
      await train.getByRole('heading', { name: 'Learned attention' }).scrollIntoViewIfNeeded();
      await page.waitForFunction((n) => document.querySelectorAll('#train canvas[aria-label^="Learned attention of layer 1, head 1"]').length === n, schemes.length);
      // Figures paint once in view (web/figures/heatmap-figure.js): with four maps the strips sit below the fold.
      await train.getByRole('button', { name: /Per-token loss/ }).first().scrollIntoViewIfNeeded();
      await page.waitForFunction((n) => document.querySelectorAll('#train canvas[aria-label^="Per-token loss"]').length === n, schemes.length);
      // Every live figure exports as PNG, SVG, CSV and JSON like the rest of the page (its Export menu,
      // folded: its items are hidden until it opens).
      for (const title of ['Loss during training', 'Length generalisation', 'Learned attention', 'Per-token loss']) {
        assert.equal(await train.getByRole('button', { name: `Export ${title}`, exact: true }).count(), 1, `${title}'s Export menu`);
        for (const what of ['PNG image', 'SVG image', 'CSV data', 'JSON data']) {
          assert.equal(await train.getByRole('menuitem', { name: `Download ${title} as ${what}`, includeHidden: true }).count(), 1, `${title} ${what}`);
        }
      }
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });
}

test('Pause stops the step count; Step takes one step each', async () => {
  const { page, problems, close } = await open(`${QUICK}&t.steps=20000&t.schemes=additive,rotary`);
  try {
    const train = section(page);
    // By keyboard (focus, then Enter), as a keyboard reader presses it: a pointer click goes to the
    // button's place on screen, and figures above the section that paint once scrolled into view
    // can still move it there after the click was aimed.
    await train.getByRole('button', { name: 'Step', exact: true }).press('Enter');
    await page.waitForFunction(() => [...document.querySelectorAll('#train .train-status-line')].filter((l) => /step 1 /.test(l.textContent)).length === 2);
    await train.getByRole('button', { name: 'Train', exact: true }).click();
    await page.waitForFunction(() => [...document.querySelectorAll('#train .train-status-line')].every((l) => Number(/step (\d+)/.exec(l.textContent)?.[1]) > 20));
    await train.getByRole('button', { name: 'Pause', exact: true }).click();
    await train.getByRole('button', { name: 'Train', exact: true }).waitFor();
    await page.waitForTimeout(800);
    const paused = (await statusLines(page)).map(stepOf);
    await page.waitForTimeout(1200);
    assert.deepEqual((await statusLines(page)).map(stepOf), paused);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

// A diverged scheme: the worker script is served with the additive model's weights
// scaled by 1e17 right after it is made (finite, but its first step overflows), so that scheme's
// first step diverges while rotary trains on. The page must pause that scheme alone, say so in
// its status line, keep Train usable and offer Reset. The patched script is the source in web/
// (dist/ ships it minified): it imports the built modules beside it by the same names.
const CREATE = '  } else {\n    model = lab.createModel({ ...message.config, vocab: task.vocabSize });\n  }\n';
const POISON = `  } else {
    model = lab.createModel({ ...message.config, vocab: task.vocabSize });
    if (message.config.scheme === 'additive') {
      const bytes = model.save(), view = new DataView(bytes.buffer);
      for (let at = 8 + Number(view.getBigUint64(0, true)); at + 4 <= bytes.length; at += 4) view.setFloat32(at, view.getFloat32(at, true) * 1e17, true);
      model.dispose();
      model = lab.loadModel(bytes);
    }
  }
`;

test('a diverged scheme pauses with its weights kept and says so; the others train on; Reset starts over', async () => {
  const prepare = (context) => context.route('**/train/worker.js', async (route) => {
    const source = await readFile(new URL('../../web/train/worker.js', import.meta.url), 'utf8');
    assert.ok(source.includes(CREATE), 'web/train/worker.js no longer creates its model as this test expects');
    await route.fulfill({ body: source.replace(CREATE, POISON), contentType: 'text/javascript' });
  });
  const { page, problems, close } = await open(`${QUICK}&t.steps=20&t.schemes=additive,rotary`, { prepare });
  try {
    const train = section(page);
    await train.scrollIntoViewIfNeeded();
    await train.getByRole('button', { name: 'Train', exact: true }).click();
    await page.waitForFunction(() => {
      const lines = [...document.querySelectorAll('#train .train-status-line')].map((l) => l.textContent);
      return lines.length === 2 && lines.some((l) => /diverged/.test(l)) && lines.some((l) => /budget reached/.test(l));
    }, null, { timeout: 60000 });
    const [additive, rotary] = await statusLines(page);
    assert.match(additive, /step 0 .*diverged at step 1 \(loss (NaN|-?Infinity)\): paused; that step was not applied, so the weights of step 0 are kept/);
    assert.match(additive, /press Reset to start again/);
    assert.equal(stepOf(rotary), 20, rotary);
    assert.doesNotMatch(rotary, /diverged/);
    // Training settled: Train is back, and Reset clears both runs.
    await train.getByRole('button', { name: 'Train', exact: true }).waitFor();
    await train.getByRole('button', { name: 'Reset', exact: true }).click();
    assert.match(await train.getByRole('status').textContent(), /Not trained yet/);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('the settings round-trip through the URL, beside the lanes\' own keys', async () => {
  const first = await open('v=synthetic');
  let hash;
  try {
    const train = section(first.page);
    await train.getByLabel('Task').selectOption('reverse');
    await train.getByLabel('Learning rate').fill('0.01');
    await train.getByLabel('Learning rate').press('Enter');
    await train.getByLabel('Seed').fill('7');
    await train.getByLabel('Seed').press('Enter');
    // ALiBi is one of the defaults: unchecking it writes the three left.
    await train.getByRole('checkbox', { name: 'ALiBi' }).uncheck();
    hash = await first.page.evaluate(() => location.hash);
    for (const part of ['t.task=reverse', 't.lr=0.01', 't.seed=7', 't.schemes=additive%2Cconcatenated%2Crotary']) {
      assert.ok(hash.includes(part), `${part} in ${hash}`);
    }
    assert.deepEqual(first.problems, []);
  } finally {
    await first.close();
  }
  const second = await open(hash.slice(1));
  try {
    const train = section(second.page);
    assert.equal(await train.getByLabel('Task').inputValue(), 'reverse');
    assert.equal(await train.getByLabel('Learning rate').inputValue(), '0.01');
    assert.equal(await train.getByLabel('Seed').inputValue(), '7');
    assert.equal(await train.getByRole('checkbox', { name: 'ALiBi' }).isChecked(), false);
    assert.deepEqual(second.problems, []);
  } finally {
    await second.close();
  }
});

test('downloaded weights load back with the same held-out loss; a bad file is refused, the models untouched', async () => {
  const { page, problems, close } = await open(`${QUICK}&t.steps=20&t.schemes=additive`);
  try {
    const train = section(page);
    await train.getByRole('button', { name: 'Train', exact: true }).click();
    await waitForBudget(page, 1);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      train.getByRole('button', { name: 'Download Additive weights' }).click(),
    ]);
    assert.match(download.suggestedFilename(), /^posenc-train-additive-step20\.safetensors$/);
    const bytes = await readFile(await download.path());
    await train.locator('#train-load').setInputFiles({ name: 'additive.safetensors', mimeType: 'application/octet-stream', buffer: bytes });
    await page.waitForFunction(() => document.querySelectorAll('#train .train-status-line').length === 2 &&
      /held-out loss/.test(document.querySelectorAll('#train .train-status-line')[1].textContent));
    const [trained, loaded] = await statusLines(page);
    const heldout = (line) => /held-out loss ([\d.e-]+)/.exec(line)[1];
    assert.match(loaded, /loaded additive\.safetensors/);
    assert.equal(heldout(loaded), heldout(trained));
    // The loaded model in the loss chart (a flat held-out line over the trained steps) and in the
    // length-generalisation chart: both in the text alternative and the CSV.
    const name = 'Additive (loaded additive.safetensors)';
    const lossChart = train.getByRole('img', { name: /^Loss/ });
    await page.waitForFunction(() => /flat dotted line: Additive \(loaded/.test(
      document.querySelector('#train canvas[aria-label^="Loss"]').getAttribute('aria-label')));
    assert.ok((await lossChart.getAttribute('aria-label')).includes(`${name} ${heldout(loaded)}`));
    const lossCsv = (await exportCsv(page, 'Loss during training')).split('\n');
    const flat = lossCsv.filter((row) => row.startsWith(`${name} held-out,`));
    assert.equal(flat.length, 2, 'one row per training bin (20 steps, bins of 10)');
    // The status line shows 7 significant digits (formatValue), the CSV every digit.
    assert.ok(flat.every((row) => Number(Number(row.split(',').at(-1)).toPrecision(7)) === Number(heldout(loaded))), flat.join('|'));
    await page.waitForFunction(() => /loaded models \(dotted\)/.test(
      document.querySelector('#train canvas[aria-label^="Length generalisation"]').getAttribute('aria-label')));
    const lengthCsv = await exportCsv(page, 'Length generalisation');
    assert.equal(lengthCsv.split('\n').filter((row) => row.includes(name)).length, 6, 'one row per evaluation length');
    // And its own learned-attention map beside the trained model's.
    await train.getByRole('heading', { name: 'Learned attention' }).scrollIntoViewIfNeeded();
    await page.waitForFunction(() => document.querySelectorAll('#train canvas[aria-label^="Learned attention of layer 1, head 1"]').length === 2);

    await train.locator('#train-load').setInputFiles({ name: 'bad.safetensors', mimeType: 'application/octet-stream', buffer: Buffer.from('not a weights file at all') });
    await page.waitForFunction(() => /refused/.test(document.querySelector('#train [role="alert"]').textContent));
    assert.match(await train.getByRole('alert').textContent(), /“bad\.safetensors” was refused: weights file: .*The other models are untouched/);
    assert.deepEqual(await statusLines(page), [trained, loaded]);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('reduced motion is respected and a 390 px phone fits the section', async () => {
  const context = await suite.browser.newContext({ viewport: { width: 390, height: 844 }, reducedMotion: 'reduce' });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
  page.on('pageerror', (e) => problems.push(e.message));
  try {
    await page.goto(`${suite.baseUrl}#${QUICK}&t.steps=10&t.schemes=rotary`);
    // As open() does: a click made while the analyses' sentences grow the summary above can be lost.
    await waitForSummary(page);
    const train = section(page);
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Train' }).click();
    // The section is built as the reader nears it: wait for it rather than read it at once.
    await train.locator('#train-root[data-motion]').waitFor({ state: 'attached' });
    assert.equal(await train.locator('#train-root').getAttribute('data-motion'), 'reduced');
    await train.getByRole('button', { name: 'Train', exact: true }).click();
    await waitForBudget(page, 1);
    const overflow = await page.evaluate(() => {
      const root = document.getElementById('train');
      return [...root.querySelectorAll('*')].filter((e) => e.getBoundingClientRect().right > innerWidth + 1).map((e) => e.className || e.tagName);
    });
    assert.deepEqual(overflow, []);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
