// The first screen shows the comparison, in headless Chromium: at 1280 × 800
// the sentence box and every lane's attention map are in view before any scrolling, and the lanes'
// formulas are drawn with no fallback font; at 390 × 844
// the first attention map lies within the first two screens; the settings are a folded panel that
// the keyboard opens, at every width, its open state in the URL with its values. Screenshots go to build-e2e/screenshots/first-screen-*.png — look at them.
// Needs a built dist/ (./scripts/build) and Debian's /usr/bin/chromium.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { pageSuite, trainedHeadsShown } from './browser.mjs';

const SCREENSHOTS = fileURLToPath(new URL('../../build-e2e/screenshots/', import.meta.url));
const MAPS = '#lanes [data-figure$="-attention"] canvas.map-canvas';

before(() => mkdir(SCREENSHOTS, { recursive: true }));

const openPage = pageSuite();

/** The element's box in page coordinates (rounded px), whatever the scroll position. */
function pageBox(page, selector) {
  return page.evaluate((s) => [...document.querySelectorAll(s)].map((element) => {
    const r = element.getBoundingClientRect();
    return { top: Math.round(r.top + scrollY), bottom: Math.round(r.bottom + scrollY), left: Math.round(r.left), right: Math.round(r.right) };
  }), selector);
}

/** Waits until every chosen lane's attention map has been painted (lanes build their figures lazily). */
async function waitForMaps(page, count) {
  await page.waitForFunction(({ selector, want }) => document.querySelectorAll(selector).length >= want, { selector: MAPS, want: count }, { timeout: 10000 });
}

test('1280 × 800: the sentence box and all three attention maps are in view without scrolling', async () => {
  const { page, problems, close } = await openPage({ width: 1280, height: 800 });
  try {
    await waitForMaps(page, 3);
    assert.equal(await page.evaluate(() => scrollY), 0, 'nothing has scrolled');
    const [sentence] = await pageBox(page, '#sentence');
    assert.ok(sentence.top >= 0 && sentence.bottom <= 800, `sentence box at ${sentence.top}–${sentence.bottom} px`);
    const maps = await pageBox(page, MAPS);
    assert.equal(maps.length, 3, 'one map per lane');
    for (const [i, map] of maps.entries()) {
      assert.ok(map.top >= 0 && map.bottom <= 800 && map.left >= 0 && map.right <= 1280,
        `lane ${i + 1}'s attention map at ${JSON.stringify(map)} lies within 1280 × 800`);
      // A map squeezed to a sliver would also "fit": it must stay large enough to read cells.
      assert.ok(map.right - map.left >= 200, `lane ${i + 1}'s map is ${map.right - map.left} px wide`);
    }
    assert.equal(new Set(maps.map((m) => m.top)).size, 1, 'the maps stand side by side, on one row');
    assert.equal(await page.locator('#settings').evaluate((d) => d.open), false, 'settings folded by default');
    assert.equal(await page.locator('#dim').isVisible(), false);
    await page.screenshot({ path: `${SCREENSHOTS}first-screen-1280x800.png` });
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('390 × 844: the first attention map lies within two screens; the settings are folded', async () => {
  const { page, problems, close } = await openPage({ width: 390, height: 844 });
  try {
    await page.screenshot({ path: `${SCREENSHOTS}first-screen-390x844.png` });
    assert.equal(await page.locator('#settings').evaluate((d) => d.open), false, 'settings folded on a phone');
    assert.equal(await page.locator('#dim').isVisible(), false);
    const [sentence] = await pageBox(page, '#sentence');
    assert.ok(sentence.bottom <= 844, `sentence box on the first screen (${sentence.top}–${sentence.bottom} px)`);
    await page.locator('#lanes [data-figure$="-attention"]').first().scrollIntoViewIfNeeded();
    await waitForMaps(page, 1);
    const [map] = await pageBox(page, MAPS);
    assert.ok(map.bottom <= 2 * 844, `the first attention map at ${map.top}–${map.bottom} px ends within two screens (${2 * 844} px)`);
    assert.ok(map.right - map.left >= 300, `and fills the phone's width (${map.right - map.left} px)`);
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= 390, 'no horizontal scrolling');
    await page.screenshot({ path: `${SCREENSHOTS}first-screen-390x844-second.png`, fullPage: true, clip: { x: 0, y: 844, width: 390, height: 844 } });
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

// A lane's formula (styles/reserve.css) skips layout until it nears the screen: its MathML is the
// first text in the math fonts, and on Linux each font the renderer has not used yet waits for the
// browser process. Chromium lays out such a box from 1.5 screens away: on a phone whose browser
// bars leave it 700 px, the formula is further than that, and waits for the reader.
const SHORT_PHONE = { width: 412, height: 700 };
test(`${SHORT_PHONE.width} × ${SHORT_PHONE.height}: a lane's formula is laid out only once the reader nears it`, async () => {
  const { page, problems, close } = await openPage(SHORT_PHONE);
  try {
    const formula = '#lanes .lane:not(.tab-off) .lane-formula';
    const rendered = (s) => document.querySelector(`${s} math`)?.checkVisibility({ contentVisibilityAuto: true });
    await page.waitForFunction(() => /last recompute/.test(document.getElementById('engine').textContent), null, { timeout: 10000 });
    assert.equal(await page.locator(formula).count(), 1, 'one lane shows on a phone');
    await page.waitForTimeout(500); // frames enough for the browser to decide what is near
    assert.equal(await page.evaluate(() => scrollY), 0, 'nothing has scrolled');
    assert.equal(await page.evaluate(rendered, formula), false, 'off screen, the formula is not laid out');
    assert.match(await page.locator(formula).textContent(), /dims/, 'its words are in the page all the same');
    await page.locator(formula).scrollIntoViewIfNeeded();
    await page.waitForFunction(rendered, formula, { timeout: 5000 });
    const [box] = await pageBox(page, `${formula} math`);
    assert.ok(box.top > 2.5 * SHORT_PHONE.height, `the formula starts ${box.top} px down, past the screen and 1.5 screens more`);
    assert.ok(box.bottom - box.top >= 10, `near the screen it is laid out (${box.bottom - box.top} px tall)`);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

// The formulas name the math fonts (styles/page.css). Under the generic math family alone, Chromium
// on Linux draws MathML's italic letters by falling back character by character, and each fallback
// is a synchronous request from the main thread to the browser process. Read from a trace of the
// load (category `fonts`) on the page's renderer.
test('1280 × 800: the lanes\' formulas are drawn with no fallback font', async () => {
  const categories = ['fonts', 'devtools.timeline', '__metadata'];
  const { page, problems, close } = await openPage({
    hash: '#v=synthetic', width: 1280, height: 800, prepare: (context) => context.browser().startTracing(undefined, { categories }),
  });
  let traced = true;
  try {
    const formulas = '#lanes .lane:not(.tab-off) .lane-formula math';
    await page.waitForFunction((s) => {
      const shown = [...document.querySelectorAll(s)];
      return shown.length >= 3 && shown.every((math) => math.checkVisibility({ contentVisibilityAuto: true }) && math.getBoundingClientRect().height > 0);
    }, formulas, { timeout: 10000 });
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    traced = false;
    const { traceEvents } = JSON.parse((await page.context().browser().stopTracing()).toString());
    const origin = new URL(page.url()).origin;
    const renderers = new Set(traceEvents.filter((e) => e.name === 'ParseHTML' && e.args?.beginData?.url?.startsWith(origin)).map((e) => e.pid));
    assert.ok(renderers.size > 0, 'the trace has the page\'s renderer');
    const named = (name) => traceEvents.filter((e) => e.name === name && renderers.has(e.pid) && e.ph === 'X').length;
    assert.ok(named('FontCache::GetFontPlatformData') > 0, 'the trace records the renderer\'s font lookups');
    assert.equal(named('FontCache::FallbackFontForCharacter'), 0, 'characters looked up in a fallback font');
    assert.deepEqual(problems, []);
  } finally {
    if (traced) await page.context().browser().stopTracing().catch(() => {});
    await close();
  }
});

test('the settings panel opens and folds from the keyboard; its values stay in the URL', async () => {
  const { page, problems, close } = await openPage({ width: 390, height: 844, hash: '#v=synthetic' });
  try {
    await page.getByLabel('Sentence', { exact: true }).focus();
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement.closest('summary')?.parentElement.id), 'settings',
      'the panel is the next stop after the sentence');
    await page.keyboard.press('Enter');
    assert.equal(await page.locator('#settings').evaluate((d) => d.open), true, 'Enter opens it');
    assert.equal(await page.locator('#layout').isVisible(), true);
    await page.locator('#layout').selectOption('half');
    await page.waitForFunction(() => /(^#|&)lay=half(&|$)/.test(location.hash) && /(^#|&)set=1(&|$)/.test(location.hash), null, { timeout: 5000 });
    await page.locator('#settings > summary').focus();
    await page.keyboard.press('Space');
    assert.equal(await page.locator('#settings').evaluate((d) => d.open), false, 'Space folds it again');
    await page.waitForFunction(() => !/(^#|&)set=/.test(location.hash), null, { timeout: 5000 });
    // A link restores the settings into the folded panel.
    const hash = await page.evaluate(() => location.hash);
    const { page: again, problems: problemsAgain, close: closeAgain } = await openPage({ width: 390, height: 844, hash });
    try {
      assert.equal(await again.locator('#settings').evaluate((d) => d.open), false);
      assert.equal(await again.locator('#layout').inputValue(), 'half');
      assert.deepEqual(problemsAgain, []);
    } finally {
      await closeAgain();
    }
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('a link with set=1 opens the settings, at any width', async () => {
  for (const width of [1280, 390]) {
    const { page, problems, close } = await openPage({ width, height: 800, hash: '#v=synthetic&set=1' });
    try {
      assert.equal(await page.locator('#settings').evaluate((d) => d.open), true, `open at ${width} px`);
      assert.equal(await page.locator('#dim').isVisible(), true);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  }
});

// Chromium's history.replaceState costs milliseconds of the main thread (and re-reads the favicon),
// so the page writes its link only when the link changes. The default link (no hash) says the
// defaults, so its load, trained heads arriving and the analyses after it included, writes
// nothing; the first edit writes the link once, with the sentence.
test('the default link stays bare through the load, and an edit writes the link once', async () => {
  const { page, problems, close } = await openPage({
    heads: 'default',
    prepare: (context) => context.addInitScript(() => {
      window.__links = [];
      const replace = history.replaceState.bind(history);
      history.replaceState = (state, title, url) => {
        window.__links.push({ url: String(url), before: location.hash });
        return replace(state, title, url);
      };
    }),
  });
  try {
    await page.waitForFunction(trainedHeadsShown, true, { timeout: 60000 });
    await page.waitForTimeout(1500); // past the link's write delay after the last view
    assert.deepEqual(await page.evaluate(() => window.__links), []);
    assert.equal(await page.evaluate(() => location.hash), '');
    await page.locator('#sentence').focus();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('!');
    await page.waitForFunction(() => window.__links.length > 0, null, { timeout: 10000 });
    await page.waitForTimeout(1500); // the analyses after the edit, and any write they would cause
    const links = await page.evaluate(() => window.__links);
    assert.equal(links.filter(({ url, before }) => url === before).length, 0, `unchanged links written: ${JSON.stringify(links)}`);
    assert.equal(links.length, 1, JSON.stringify(links));
    assert.match(links[0].url, /^#s=The\+king.*king\.%21$/);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});
