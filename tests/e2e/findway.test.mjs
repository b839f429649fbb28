// A page you can find your way in, in headless Chromium: the sticky section
// navigation, the settings and the lanes' extra figures folded (remembered in the URL), one export
// menu per figure that works from the keyboard, the Measurements as tabs, the lanes as tabs on a
// phone with the map in place, and the page's height: at most 6 screens at 1280 × 800 and 12 at
// 390 × 844 in its default state, growing by at most 5% while scrolled through.
// Needs a built dist/ (./scripts/build) and Debian's /usr/bin/chromium.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { pageSuite } from './browser.mjs';

const openPage = pageSuite();
const SETTLE_MS = 200;

/**
 * scrollHeight once the page has done its work (GloVe, then the analyses after typing pauses, which
 * fill the summary), and after walking down to the bottom half a screen at a time.
 */
async function heights(page) {
  await page.waitForFunction(() => /analyses \d/.test(document.getElementById('engine').textContent), null, { timeout: 30000 });
  const first = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.evaluate(async (settle) => {
    for (let y = 0; y < document.documentElement.scrollHeight; y += innerHeight / 2) {
      scrollTo(0, y);
      await new Promise((r) => setTimeout(r, settle));
    }
    await new Promise((r) => setTimeout(r, 4 * settle));
  }, SETTLE_MS);
  return { first, last: await page.evaluate(() => document.documentElement.scrollHeight) };
}

for (const [width, height, screens] of [[1280, 800, 6], [390, 844, 12]]) {
  test(`${width} × ${height}: the default page is at most ${screens} screens tall and grows at most 5% while scrolled through`, async () => {
    const { page, problems, close } = await openPage({ width, height, heads: 'default' });
    try {
      const { first, last } = await heights(page);
      assert.ok(first <= screens * height, `${first} px on load (${(first / height).toFixed(2)} screens)`);
      assert.ok(last <= screens * height, `${last} px after scrolling (${(last / height).toFixed(2)} screens)`);
      assert.ok(Math.abs(last - first) <= 0.05 * first, `height ${first} → ${last} px while scrolling`);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });
}

test('a sticky section navigation links to Compare, Train, Measurements and the embed guide, and marks the section in view', async () => {
  const { page, problems, close } = await openPage({ width: 1280, height: 800 });
  try {
    const nav = page.getByRole('navigation', { name: 'Sections' });
    const links = await nav.getByRole('link').evaluateAll((as) => as.map((a) => [a.textContent.trim(), a.getAttribute('href')]));
    assert.deepEqual(links, [['Compare', '#compare'], ['Train', '#train'], ['Measurements', '#measurements'], ['Embed guide', 'embed.html']]);
    for (const [, href] of links.slice(0, 3)) assert.equal(await page.locator(href).count(), 1, `${href} exists`);
    const current = () => nav.locator('a[aria-current="true"]').textContent();
    assert.equal(await current(), 'Compare');
    // By keyboard: Tab reaches the links, Enter follows one; the bar stays at the top.
    await nav.getByRole('link', { name: 'Measurements' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('.section-nav a[aria-current="true"]')?.textContent === 'Measurements', null, { timeout: 5000 });
    const bar = await nav.evaluate((n) => n.getBoundingClientRect().bottom);
    const top = await page.locator('#measurements').evaluate((s) => s.getBoundingClientRect().top);
    assert.ok(top >= bar && top < 800 - 100, `the section starts below the bar (${top} px, the bar ends at ${bar} px)`);
    // Stuck, the bar's box starts past the window's top by its top padding (styles/navigation.css).
    assert.equal(await nav.evaluate((n) => Math.round(n.getBoundingClientRect().top + parseFloat(getComputedStyle(n).paddingTop))), 0, 'the bar sticks to the top');
    await nav.getByRole('link', { name: 'Train' }).click();
    await page.waitForFunction(() => document.querySelector('.section-nav a[aria-current="true"]')?.textContent === 'Train', null, { timeout: 5000 });
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('scrolling within one section leaves the section links as they are: no attribute is written, so no style is recalculated', async () => {
  const { page, problems, close } = await openPage({ width: 1280, height: 800 });
  try {
    const current = () => page.evaluate(() => document.querySelector('.section-nav a[aria-current="true"]')?.textContent);
    await page.waitForFunction(() => document.querySelector('.section-nav a[aria-current="true"]'), null, { timeout: 5000 });
    assert.equal(await current(), 'Compare');
    // Ten small scrolls, each given two frames and a task to be marked, all within Compare.
    const writes = await page.evaluate(async () => {
      let count = 0;
      const watch = new MutationObserver((records) => { count += records.length; });
      watch.observe(document.querySelector('.section-nav'), { attributes: true, subtree: true });
      const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
      for (let i = 1; i <= 10; i++) {
        scrollTo(0, i * 8);
        await frame();
        await frame();
      }
      watch.disconnect();
      return count;
    });
    assert.equal(await current(), 'Compare');
    assert.equal(writes, 0, `${writes} attribute writes on the section links while scrolling within Compare`);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('following a section link keeps the state and its link: a place on the page is not a state', async () => {
  const { page, problems, close } = await openPage({ width: 1280, height: 800, hash: '#s=one%20two%20three&c=1&m=shift' });
  try {
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Measurements' }).click();
    await page.waitForFunction(() => /(^#|&)m=shift(&|$)/.test(location.hash), null, { timeout: 5000 });
    assert.equal(await page.locator('#sentence').inputValue(), 'one two three', 'the sentence stays');
    assert.equal(await page.locator('#causal').isChecked(), true, 'the settings stay');
    assert.match(await page.evaluate(() => location.hash), /(^#|&)c=1(&|$)/);
    assert.equal(await page.getByRole('tab', { selected: true, name: 'Shift' }).count(), 1);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('each lane folds its encoded input and logit decomposition behind one disclosure, remembered in the URL', async () => {
  const { page, problems, close } = await openPage({ width: 1280, height: 800 });
  try {
    const lanes = await page.locator('#lanes .lane').evaluateAll((articles) => articles.map((a) => ({
      scheme: a.dataset.scheme,
      disclosures: a.querySelectorAll('details.lane-more').length,
      open: a.querySelector('details.lane-more').open,
      inside: [...a.querySelectorAll('details.lane-more [data-figure]')].map((s) => s.dataset.figure.replace(`${a.dataset.scheme}-`, '')),
      attentionOutside: !a.querySelector('[data-figure$="-attention"]').closest('details'),
      look: a.querySelector('.lane-look')?.textContent ?? '',
    })));
    assert.equal(lanes.length, 3);
    for (const lane of lanes) {
      assert.equal(lane.disclosures, 1, `${lane.scheme}: one disclosure`);
      assert.equal(lane.open, false, `${lane.scheme}: folded by default`);
      assert.deepEqual(lane.inside, ['input', 'terms'], `${lane.scheme}: input and decomposition inside`);
      assert.ok(lane.attentionOutside, `${lane.scheme}: the attention map stays open`);
      assert.match(lane.look, /^Look for: \S/, `${lane.scheme}: a "Look for:" line`);
    }
    await page.locator('#lane-rotary details.lane-more > summary').click();
    await page.waitForFunction(() => /(^#|&)more=rotary(&|$)/.test(location.hash), null, { timeout: 5000 });
    // The link is written 150 ms after the change; the figure when the worker's view arrives.
    await page.locator('[data-figure="rotary-terms"] canvas.map-canvas').first().waitFor({ timeout: 10000 })
      .catch(() => assert.fail('opening it paints the decomposition'));
    const hash = await page.evaluate(() => location.hash);
    const again = await openPage({ width: 1280, height: 800, hash });
    try {
      const open = await again.page.locator('#lanes details.lane-more').evaluateAll((ds) => ds.map((d) => [d.closest('.lane').dataset.scheme, d.open]));
      assert.deepEqual(open, [['additive', false], ['concatenated', false], ['rotary', true]], 'the link reopens the same one');
      assert.deepEqual(again.problems, []);
    } finally {
      await again.close();
    }
    await page.locator('#lane-rotary details.lane-more > summary').click();
    await page.waitForFunction(() => !/(^#|&)more=/.test(location.hash), null, { timeout: 5000 });
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('every figure has one Export menu; the keyboard opens it, moves, closes it and downloads', async () => {
  const { page, problems, close } = await openPage({ width: 1280, height: 800, hash: '#more=additive' });
  try {
    const counts = await page.locator('[data-figure]').evaluateAll((slots) => slots.map((s) => [s.dataset.figure,
      s.querySelectorAll('.fig-actions').length, s.querySelectorAll('.fig-actions > button').length, s.querySelectorAll('.fig-export:not(.fig-menu-button)').length]));
    assert.ok(counts.length >= 15, `${counts.length} figures`);
    for (const [name, menus, buttons, loose] of counts) {
      assert.deepEqual([menus, buttons, loose], [1, 1, 0], `${name}: one menu button, no loose export buttons`);
    }
    const slot = page.locator('[data-figure="additive-attention"]');
    const button = slot.getByRole('button', { name: /^Export/ });
    const menu = slot.getByRole('menu');
    const focused = () => page.evaluate(() => document.activeElement.textContent);
    await button.focus();
    await page.keyboard.press('Enter');
    assert.equal(await menu.isVisible(), true, 'Enter opens the menu');
    assert.equal(await button.getAttribute('aria-expanded'), 'true');
    assert.equal(await focused(), 'PNG image', 'on its first item');
    await page.keyboard.press('ArrowDown');
    assert.equal(await focused(), 'SVG image');
    await page.keyboard.press('End');
    assert.equal(await focused(), 'JSON data');
    await page.keyboard.press('ArrowDown');
    assert.equal(await focused(), 'PNG image', 'the arrows wrap');
    await page.keyboard.press('Escape');
    assert.equal(await menu.isVisible(), false, 'Escape closes it');
    assert.equal(await button.getAttribute('aria-expanded'), 'false');
    assert.equal(await page.evaluate(() => document.activeElement.getAttribute('aria-haspopup')), 'menu', 'focus returns to the button');
    await page.keyboard.press('Space');
    assert.equal(await menu.isVisible(), true, 'Space opens it too');
    await page.keyboard.press('ArrowUp');
    assert.equal(await focused(), 'JSON data');
    const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
    assert.equal(download.suggestedFilename(), 'posenc-additive-attention.json');
    const data = JSON.parse(await readFile(await download.path(), 'utf8'));
    assert.equal(data.matrices[0].rows, data.matrices[0].cols);
    assert.equal(await menu.isVisible(), false, 'choosing closes it');
    // A click outside closes an open menu.
    await button.click();
    await page.locator('#lanes-heading').click();
    assert.equal(await menu.isVisible(), false);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('the Measurements are tabs: one panel shows, the arrows switch, the URL keeps the tab', async () => {
  const { page, problems, close } = await openPage({ width: 1280, height: 800 });
  try {
    const tabs = page.getByRole('tablist', { name: 'Measurements' });
    const shown = () => page.locator('#measurements .panel').evaluateAll((ps) => ps.filter((p) => p.getBoundingClientRect().height > 0).map((p) => p.id));
    assert.deepEqual(await shown(), ['panel-pe']);
    await tabs.getByRole('tab', { selected: true }).focus();
    await page.keyboard.press('ArrowRight');
    assert.deepEqual(await shown(), ['panel-spread']);
    await tabs.getByRole('tab', { name: 'Distance' }).click();
    assert.deepEqual(await shown(), ['panel-distance']);
    await page.waitForFunction(() => /(^#|&)m=distance(&|$)/.test(location.hash), null, { timeout: 5000 });
    const again = await openPage({ width: 1280, height: 800, hash: await page.evaluate(() => location.hash) });
    try {
      assert.equal(await again.page.getByRole('tab', { selected: true, name: 'Distance' }).count(), 1);
      assert.deepEqual(again.problems, []);
    } finally {
      await again.close();
    }
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('390 × 844: the lanes are tabs with their maps side by side as small multiples, within the first two screens; the chosen lane\'s map stays in place', async () => {
  const { page, problems, close } = await openPage({ width: 390, height: 844, heads: 'default' });
  try {
    const tabs = page.getByRole('tablist', { name: 'Lanes' });
    assert.deepEqual(await tabs.getByRole('tab').allTextContents(), ['Additive', 'Concatenated', 'Rotary']);
    await page.waitForFunction(() => [...document.querySelectorAll('#lane-tabs canvas.lane-thumb')].every((c) => c.width > 1), null, { timeout: 5000 });
    const thumbs = await tabs.locator('canvas.lane-thumb').evaluateAll((cs) => cs.map((c) => {
      const r = c.getBoundingClientRect();
      const { data } = c.getContext('2d').getImageData(0, 0, c.width, c.height);
      const colours = new Set();
      for (let i = 0; i < data.length; i += 4) colours.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
      return { top: Math.round(r.top + scrollY), bottom: Math.round(r.bottom + scrollY), width: Math.round(r.width), cells: c.width, colours: colours.size };
    }));
    assert.equal(thumbs.length, 3, 'one small map per lane');
    const n = await page.locator('#tokens button.token').count();
    for (const [i, t] of thumbs.entries()) {
      assert.ok(t.width >= 90 && t.width <= 130, `small map ${i + 1} is ${t.width} px wide`);
      assert.ok(t.bottom <= 2 * 844, `small map ${i + 1} at ${t.top}–${t.bottom} px, within two screens`);
      assert.equal(t.cells, n, 'one column per token');
      assert.ok(t.colours >= 4, `small map ${i + 1} is painted (${t.colours} colours)`);
    }
    assert.equal(new Set(thumbs.map((t) => t.top)).size, 1, 'side by side');
    const places = [];
    for (const name of ['Additive', 'Concatenated', 'Rotary']) {
      await tabs.getByRole('tab', { name }).click();
      const scheme = name.toLowerCase();
      await page.waitForFunction((s) => document.querySelector(`[data-figure="${s}-attention"] canvas.map-canvas`)?.getBoundingClientRect().width > 0, scheme, { timeout: 5000 });
      const box = await page.locator(`[data-figure="${scheme}-attention"] canvas.map-canvas`).first().evaluate((c) => {
        const r = c.getBoundingClientRect();
        return { top: Math.round(r.top + scrollY), bottom: Math.round(r.bottom + scrollY), width: Math.round(r.width) };
      });
      assert.ok(box.bottom <= 2 * 844, `${name}'s map at ${box.top}–${box.bottom} px, within two screens`);
      assert.ok(box.width >= 300, `${name}'s map is ${box.width} px wide`);
      const visibleLanes = await page.locator('#lanes .lane').evaluateAll((ls) => ls.filter((l) => l.getBoundingClientRect().height > 0).map((l) => l.dataset.scheme));
      assert.deepEqual(visibleLanes, [scheme], 'one lane at a time');
      places.push(box.top);
    }
    assert.equal(new Set(places).size, 1, `the maps take the same place (${places.join(', ')})`);
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= 390, 'no horizontal scrolling');
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});
