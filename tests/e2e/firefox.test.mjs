// The page and the element in a second engine, Debian's Firefox ESR (headless, WebDriver BiDi
// through puppeteer-core): the default link loads GloVe and the trained heads in its lanes,
// typing retokenises and repaints, a phone's width fits and its lane tabs switch, the sticky
// section bar covers what scrolls under it, the Train
// section trains, pauses and steps, the embed guide's copy buttons and live <posenc-lab>
// elements work, and posenc-lab.mjs's elements compute in their shared module worker, each without a console error, a page error or a failed request. Waits on what
// the reader sees (text, labels, canvases), never on the page's internals or fixed sleeps.
// Needs a built dist/ (./scripts/build) and Debian's firefox-esr.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DIST, closeServer, serveDir, textBoxGeometry } from './browser.mjs';
import { DEFAULT_LANES, launchFirefox, openPage, retype, waitForLab } from './firefox.mjs';

let server;
let baseUrl;
let browser;

before(async () => {
  ({ server, baseUrl } = await serveDir());
  browser = await launchFirefox();
});

after(async () => {
  await browser?.close();
  await closeServer(server);
});

const tokenTexts = (page) => page.$$eval('#tokens .token-text', (spans) => spans.map((s) => s.textContent));
const laneMap = (scheme) => `#lanes [data-figure="${scheme}-attention"] > .fig canvas.map-canvas`;

test('the default link loads GloVe and the trained heads in its lanes; typing retokenises and repaints them', async () => {
  const { page, problems, close } = await openPage(browser, baseUrl);
  try {
    await waitForLab(page, { trained: DEFAULT_LANES, analyses: true });
    assert.match(await page.$eval('#heads-note', (n) => n.textContent), /^Trained heads:/);
    assert.ok((await tokenTexts(page)).length > 5, 'the default sentence has tokens');
    for (const scheme of DEFAULT_LANES) {
      const map = await page.$(laneMap(scheme));
      assert.ok(map, `${scheme}'s attention map is on the page`);
      const box = await map.boundingBox();
      assert.ok(box && box.width > 0 && box.height > 0, `${scheme}'s attention map is laid out`);
      assert.doesNotMatch(await map.evaluate((c) => c.getAttribute('aria-label')), /W\u00a0=\u00a0I/, `${scheme} shows its trained model`);
    }
    const map = await page.$(laneMap('additive'));
    await map.scrollIntoView();
    const before = await map.screenshot({ encoding: 'base64' });

    await retype(page, await page.$('#sentence'), 'Rotary keeps words whole, right?');
    const expected = ['rotary', 'keeps', 'words', 'whole', ',', 'right', '?'];
    await page.waitForFunction((want) => JSON.stringify([...document.querySelectorAll('#tokens .token-text')].map((s) => s.textContent)) === want,
      { timeout: 10000 }, JSON.stringify(expected));
    await waitForLab(page, { trained: DEFAULT_LANES });
    // The map's label names its size; the pixels change with the sentence.
    await page.waitForFunction((selector, n) => document.querySelector(selector)?.getAttribute('aria-label').includes(`${n} × ${n}`),
      { timeout: 10000 }, laneMap('additive'), expected.length);
    const after = await (await page.$(laneMap('additive'))).screenshot({ encoding: 'base64' });
    assert.notEqual(after, before, 'the attention map was repainted');
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('typing in the middle of the sentence, deleting either way and undoing edit the box in order', async () => {
  const { page, problems, close } = await openPage(browser, baseUrl);
  try {
    await waitForLab(page);
    const box = await page.$('#sentence');
    // The box's layout is contained (styles/lab.css): Firefox too keeps the height its rows give it.
    const heights = await box.evaluate(textBoxGeometry);
    assert.match(heights.contain, /size/);
    assert.match(heights.contain, /layout/);
    assert.ok(Math.abs(heights.height - heights.rowsHeight) < 1, `the box is its rows' height (${heights.height} px against ${heights.rowsHeight} px)`);
    await retype(page, box, 'the king rules');
    await page.waitForFunction(() => document.querySelectorAll('#tokens .token-text').length === 3, { timeout: 10000 });
    await box.evaluate((b) => b.setSelectionRange(3, 3));
    await page.keyboard.type(' old', { delay: 50 });
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Delete');
    await page.waitForFunction(() => [...document.querySelectorAll('#tokens .token-text')].map((s) => s.textContent).join(' ') === 'the olking rules', { timeout: 10000 });
    assert.deepEqual(await box.evaluate((b) => [b.value, b.selectionStart, b.selectionEnd]), ['the olking rules', 6, 6]);
    await page.keyboard.down('Control');
    await page.keyboard.press('z');
    await page.keyboard.up('Control');
    // Undo steps back to an earlier text (Firefox undoes the two deletions at once, as it does
    // unheld), and the tokens follow.
    await page.waitForFunction(() => [...document.querySelectorAll('#tokens .token-text')].map((s) => s.textContent).join(' ') === 'the old king rules', { timeout: 10000 });
    assert.equal(await box.evaluate((b) => b.value), 'the old king rules');
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('on a phone (390 × 844) the page fits the width and the lane tabs switch the shown lane', async () => {
  const { page, problems, close } = await openPage(browser, baseUrl, { width: 390, height: 844 });
  try {
    await waitForLab(page, { trained: DEFAULT_LANES });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.equal(overflow, 0, 'no sideways scrolling');
    const tabs = await page.$$eval('#lane-tabs [role="tab"]', (list) => list.map((t) => `${t.textContent.trim()}:${t.getAttribute('aria-selected')}`));
    assert.deepEqual(tabs, ['Additive:true', 'Concatenated:false', 'Rotary:false']);
    await (await page.$('#lane-tabs [role="tab"]:nth-child(3)')).click();
    await page.waitForFunction(() => !document.getElementById('lane-rotary').classList.contains('tab-off') &&
      document.getElementById('lane-additive').classList.contains('tab-off'), { timeout: 5000 });
    const shown = await (await page.$(laneMap('rotary'))).boundingBox();
    assert.ok(shown && shown.width > 100, `the rotary map is shown (${JSON.stringify(shown)})`);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

// The Train section on synthetic vectors: a tiny copy task at T = 8, a few steps per scheme.
const QUICK = 'v=synthetic&t.task=copy&t.len=8&t.batch=4';
const stepsShown = (page) => page.$$eval('#train .train-status-line', (lines) => lines.map((l) => Number(/step (\d+)/.exec(l.textContent)?.[1] ?? NaN)));

/**
 * Clicks the Train section's button labelled `text` as a reader does: scrolled to, then, once it
 * has stayed in place for two frames (figures coming into view paint and may move it), pointer.
 */
async function press(page, text) {
  const button = (await page.waitForFunction((t) => [...document.querySelectorAll('#train .train-buttons button')]
    .find((b) => b.textContent === t && !b.disabled), { timeout: 10000 }, text)).asElement();
  await button.scrollIntoView();
  await page.waitForFunction((b) => new Promise((settled) => {
    const top = b.getBoundingClientRect().top;
    requestAnimationFrame(() => requestAnimationFrame(() => settled(b.getBoundingClientRect().top === top)));
  }), { timeout: 10000, polling: 'raf' }, button);
  await button.click();
}

/** Scrolls to the Train section, as a reader does, and waits until it is built (it builds as a reader nears it). */
async function reachTrain(page) {
  await (await page.$('#train')).scrollIntoView();
  await page.waitForSelector('#train [role="status"]', { timeout: 20000 });
}

/** Waits until `count` status lines each pass `test` (a RegExp source) and show step ≥ `minStep`. */
function waitForLines(page, count, test, minStep = 0, timeout = 120000) {
  return page.waitForFunction((n, source, min) => {
    const lines = [...document.querySelectorAll('#train .train-status-line')];
    return lines.length === n && lines.every((l) => new RegExp(source).test(l.textContent) && Number(/step (\d+)/.exec(l.textContent)?.[1]) >= min);
  }, { timeout, polling: 100 }, count, test.source, minStep);
}

test('the sticky section bar covers the window\'s first pixel row wherever its links scroll to', async () => {
  const { page, problems, close } = await openPage(browser, baseUrl);
  try {
    await waitForLab(page, { trained: DEFAULT_LANES });
    const uncovered = [];
    // Sections far enough down that the bar is stuck at the window's top; each twice, from
    // another place (the sections' tops lie at fractions of a pixel, as the reader's clicks leave them).
    for (const target of ['#measurements', '#train', '#measurements', '#train']) {
      await page.click(`.section-nav a[href="${target}"]`);
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const png = await page.screenshot({ encoding: 'base64' });
      // The pixels of the window's first row that differ from the second's, both in the bar's one
      // flat background: decoded in the page from the bytes (createImageBitmap needs no URL for
      // the CSP to refuse).
      const differing = await page.evaluate(async (base64) => {
        const bitmap = await createImageBitmap(new Blob([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))]));
        const canvas = new OffscreenCanvas(bitmap.width, 2);
        const g = canvas.getContext('2d');
        g.drawImage(bitmap, 0, 0);
        const rows = g.getImageData(0, 0, bitmap.width, 2).data;
        const w = bitmap.width * 4;
        let count = 0;
        for (let i = 0; i < w; i += 4) {
          if (rows[i] !== rows[w + i] || rows[i + 1] !== rows[w + i + 1] || rows[i + 2] !== rows[w + i + 2]) count++;
        }
        return count;
      }, png);
      if (differing > 0) uncovered.push(`${target} at ${await page.evaluate(() => scrollY)}: ${differing} px`);
    }
    assert.deepEqual(uncovered, [], 'the content under the bar shows above it');
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('Train trains each scheme to its budget, with held-out losses and the loss chart', async () => {
  const schemes = ['additive', 'rotary', 'alibi'];
  const { page, problems, close } = await openPage(browser, `${baseUrl}#${QUICK}&t.steps=20&t.schemes=${schemes.join(',')}`);
  try {
    await waitForLab(page, { glove: false });
    await reachTrain(page);
    assert.match(await page.$eval('#train [role="status"]', (s) => s.textContent), /Not trained yet/);
    await press(page, 'Train');
    await waitForLines(page, schemes.length, /held-out loss.*budget reached/, 20);
    for (const line of await page.$$eval('#train .train-status-line', (lines) => lines.map((l) => l.textContent))) {
      assert.match(line, /step 20 .*training loss \d.*held-out loss \d.*steps\/s.*budget reached/, line);
    }
    assert.match(await page.$eval('#train [role="img"][aria-label^="Loss"]', (c) => c.getAttribute('aria-label')), /^Loss during training/);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

/**
 * A barrier in the models' workers: inspects `text` (`n` tokens) and waits until every learned
 * attention map shows n × n. A worker answers in order, so every step it took before has arrived.
 */
async function inspectAndWait(page, text, n, models) {
  const field = await page.$('#train-sentence');
  await field.scrollIntoView();
  await retype(page, field, text);
  await page.keyboard.press('Enter');
  await page.waitForFunction((size, count) => {
    const maps = [...document.querySelectorAll('#train canvas[aria-label^="Learned attention of layer 1, head 1"]')];
    return maps.length === count && maps.every((c) => c.getAttribute('aria-label').includes(`; ${size} × ${size};`));
  }, { timeout: 20000 }, n, models);
  return stepsShown(page);
}

test('Pause stops training and Step then takes exactly one step; Reset starts over', async () => {
  const { page, problems, close } = await openPage(browser, `${baseUrl}#${QUICK}&t.steps=20000&t.schemes=additive,rotary`);
  try {
    await waitForLab(page, { glove: false });
    await reachTrain(page);
    await press(page, 'Train');
    await waitForLines(page, 2, /training loss/, 5);
    await press(page, 'Pause');
    const paused = await inspectAndWait(page, '3 1 4 <sep> 3 1 4', 7, 2);
    await press(page, 'Step');
    const stepped = await inspectAndWait(page, '3 1 <sep> 3 1', 5, 2);
    assert.deepEqual(stepped, paused.map((s) => s + 1), `paused at ${paused}, one Step later at ${stepped}`);
    assert.equal(await page.$eval('#train button.train-go', (b) => b.textContent), 'Train');
    await press(page, 'Reset');
    await page.waitForFunction(() => /Not trained yet/.test(document.querySelector('#train [role="status"]').textContent), { timeout: 10000 });
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

/** Waits until the guide's element `selector` has started (it starts when scrolled to) → its shadow root's contents. */
async function startedElement(page, selector) {
  await (await page.$(selector)).scrollIntoView();
  await page.waitForFunction((s) => {
    const root = document.querySelector(s).shadowRoot;
    const status = root?.querySelector('.pl-status')?.textContent ?? 'starts when it scrolls';
    return !/starts when it scrolls/.test(status) && root.querySelectorAll('canvas').length > 0;
  }, { timeout: 20000 }, selector);
  return page.$eval(selector, (element) => ({
    canvases: [...element.shadowRoot.querySelectorAll('canvas')].filter((c) => c.getBoundingClientRect().width > 0).length,
    textareas: element.shadowRoot.querySelectorAll('textarea').length,
    tokens: [...element.shadowRoot.querySelectorAll('ol.tokens .token-run li')].map((li) => li.textContent),
  }));
}

test('the embed guide: contents, a copy button, and live <posenc-lab> elements that answer typing', async () => {
  const { page, problems, close } = await openPage(browser, `${baseUrl}embed.html`, { height: 800 });
  try {
    await page.waitForFunction(() => document.querySelectorAll('button.copy').length > 0, { timeout: 10000 });
    const missing = await page.$$eval('nav.contents a', (links) => links.map((a) => a.getAttribute('href').slice(1)).filter((id) => !document.getElementById(id)));
    assert.deepEqual(missing, [], 'every contents link lands on an element');
    const copy = await page.$('#quick-start ~ .snippet button.copy');
    await copy.click();
    await page.waitForFunction(() => /Copied|Selected/.test(document.querySelector('#quick-start ~ .snippet button.copy').textContent), { timeout: 5000 });

    const attention = '#panel-attention posenc-lab';
    const shown = await startedElement(page, attention);
    assert.equal(shown.textareas, 1, 'the attention element has its sentence box');
    assert.ok(shown.canvases >= 2, `${shown.canvases} canvases painted`);
    const box = await page.$(`${attention} >>> textarea`);
    await retype(page, box, 'a red ball');
    await page.waitForFunction((s) => [...document.querySelector(s).shadowRoot.querySelectorAll('ol.tokens .token-run li')].map((li) => li.textContent.trim()).join('|') === 'a|red|ball',
      { timeout: 10000 }, attention);

    const train = await startedElement(page, '#panel-train posenc-lab');
    assert.equal(train.textareas, 0, 'the replay reads no sentence');
    assert.ok(train.canvases >= 1, `${train.canvases} canvases painted in the replay`);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('posenc-lab.mjs computes in its lab worker: three elements on one page paint their own sentences and answer typing', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'posenc-firefox-esm-'));
  let host;
  try {
    for (const file of ['posenc-lab.mjs', 'posenc-lab-worker.mjs', 'posenc-lab-core-scalar.mjs']) await copyFile(join(DIST, file), join(dir, file));
    await writeFile(join(dir, 'three.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>three</title><link rel="icon" href="data:,"></head>
<body><posenc-lab id="a" sentence="the cat sat on the mat" vectors="synthetic"></posenc-lab>
<posenc-lab id="b" sentence="a small dog" schemes="rotary" vectors="synthetic"></posenc-lab>
<posenc-lab id="c" sentence="four words are here" schemes="additive,alibi" vectors="synthetic" d="32"></posenc-lab>
<script type="module" src="posenc-lab.mjs"></script></body></html>`);
    const served = await serveDir(dir, { requires: 'three.html' });
    host = served.server;
    const { page, problems, close } = await openPage(browser, `${served.baseUrl}three.html`, { height: 2400 });
    try {
      const statuses = () => page.evaluate(() => [...document.querySelectorAll('posenc-lab')].map((e) => (e.shadowRoot.querySelector('.pl-status')?.textContent ?? '').split(',')[0]));
      await page.waitForFunction(() => [...document.querySelectorAll('posenc-lab')].every((e) => /wasm/.test(e.shadowRoot.querySelector('.pl-status')?.textContent ?? '')), { timeout: 30000 });
      assert.deepEqual(await statuses(), ['6 tokens', '3 tokens', '4 tokens']);
      await retype(page, await page.$('#b >>> textarea'), 'one two three four five');
      await page.waitForFunction(() => /^5 tokens/.test(document.getElementById('b').shadowRoot.querySelector('.pl-status').textContent), { timeout: 10000 });
      assert.deepEqual(await statuses(), ['6 tokens', '5 tokens', '4 tokens']);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  } finally {
    await closeServer(host);
    await rm(dir, { recursive: true, force: true });
  }
});
