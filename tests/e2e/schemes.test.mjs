// The eight further schemes in the page's lanes, in headless Chromium: the scheme
// picker (keyboard, limits and why a box is disabled), the lanes it builds, the URL round trip of
// schemes and lengths, refused link values, NoPE with and without the mask, the learned-style
// table's untrained rows, ALiBi's head control, accessible names, a phone's width, and the
// per-keystroke cost with three further schemes. Screenshots go to build-e2e/screenshots/.
// Needs a built dist/ (./scripts/build) and Debian's /usr/bin/chromium.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { assertLinkRestores, fullPageScreenshot, medianRecompute, pageSuite, readFigure as readFigureCanvases, reveal, waitForSummary } from './browser.mjs';
import { SCHEME_LABELS } from '../../dist/posenc.mjs';
import { INPUT_RANGES } from '../../dist/pipeline/state.js';

const SCREENSHOTS = fileURLToPath(new URL('../../build-e2e/screenshots/', import.meta.url));
const ALL = ['additive', 'concatenated', 'rotary', 'learned', 'alibi', 'nope', 't5', 'xpos', 'rope-pi', 'rope-ntk', 'yarn'];
const LANE_CHILDREN = ['H3', 'H4', 'fig-slot', 'lane-look', 'lane-formula', 'lane-extra', 'lane-more'];
const TERM_COUNTS = { additive: 4, concatenated: 4, learned: 4, rotary: 1, xpos: 1, 'rope-pi': 1, 'rope-ntk': 1, yarn: 1, alibi: 2, t5: 2, nope: 1 };

before(() => mkdir(SCREENSHOTS, { recursive: true }));

// Waits for the first recompute only: GloVe, where a test uses it, is awaited by the test itself.
const openPage = pageSuite({ glove: false, openSettings: true });

const laneSchemes = (page) => page.locator('#lanes > .lane').evaluateAll((lanes) => lanes.map((l) => l.dataset.scheme));

async function waitForLanes(page, expected) {
  await page.waitForFunction((want) => [...document.querySelectorAll('#lanes > .lane')].map((l) => l.dataset.scheme).join() === want,
    expected.join(), { timeout: 5000 }).catch(() => {});
  assert.deepEqual(await laneSchemes(page), expected);
}

// Lane maps only (not their legends or chart canvases).
const readFigure = (page, name) => readFigureCanvases(page, name, { canvases: 'canvas.map-canvas' });

const screenshot = (page, name) => fullPageScreenshot(page, `${SCREENSHOTS}${name}.png`);

test('the picker chooses the lanes from the keyboard; at the limit the other boxes say why they are disabled', async () => {
  const { page, problems, close } = await openPage({ hash: '#v=synthetic&s=the%20cat%20sat%20on%20the%20mat' });
  try {
    await waitForLanes(page, ['additive', 'concatenated', 'rotary']);
    assert.match(await page.locator('#scheme-count').textContent(), /3 of at most 3/);
    const box = (scheme) => page.locator(`#scheme-boxes input[value="${scheme}"]`);
    assert.equal(await box('alibi').isDisabled(), true, 'a fourth box is disabled at 1280 px');
    assert.match(await page.locator('#scheme-why').textContent(), /the most for this screen width: uncheck one/);
    assert.match(await page.locator('#scheme-rule').textContent(), /1600 px/);

    // Keyboard only: focus "concatenated", Space unchecks it, Tab on to ALiBi, Space checks it.
    await box('concatenated').focus();
    await page.keyboard.press('Space');
    await waitForLanes(page, ['additive', 'rotary']);
    assert.equal(await box('alibi').isDisabled(), false, 'below the limit every box is enabled');
    for (let i = 0; i < 3; i++) await page.keyboard.press('Tab'); // rotary, learned, alibi
    assert.equal(await page.evaluate(() => document.activeElement.value), 'alibi');
    await page.keyboard.press('Space');
    await waitForLanes(page, ['additive', 'rotary', 'alibi']);
    await page.waitForFunction(() => /sch=additive%2Crotary%2Calibi/.test(location.hash));
    const [attention] = await readFigure(page, 'alibi-attention');
    assert.equal(attention.width, 6, 'the new lane is computed and painted');
    assert.equal(attention.opaque, 36);
    assert.match(attention.label, /ALiBi attention weights \(W\u00a0=\u00a0I, slope m = 2⁻¹ = 0\.5\)/);

    // The last box cannot be unchecked.
    for (const scheme of ['additive', 'rotary']) await box(scheme).uncheck();
    await waitForLanes(page, ['alibi']);
    assert.equal(await box('alibi').isDisabled(), true);
    assert.match(await page.locator('#scheme-why').textContent(), /At least one scheme stays chosen/);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('five lanes side by side at 1600 px and wider', async () => {
  const { page, problems, close } = await openPage({ hash: '#v=synthetic&s=one%20two%20three', width: 1700 });
  try {
    for (const scheme of ['learned', 'nope']) await page.locator(`#scheme-boxes input[value="${scheme}"]`).check();
    await waitForLanes(page, ['additive', 'concatenated', 'rotary', 'learned', 'nope']);
    assert.match(await page.locator('#scheme-count').textContent(), /5 of at most 5/);
    const tops = await page.locator('#lanes > .lane').evaluateAll((lanes) => lanes.map((l) => Math.round(l.getBoundingClientRect().top)));
    assert.equal(new Set(tops).size, 1, `all five lanes in one row (tops ${tops})`);
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= 1700);
    await page.screenshot({ path: `${SCREENSHOTS}schemes-1700-five-lanes.png` });
    // Narrower again: nothing is dropped; the lanes wrap and the picker says why it is full.
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.waitForFunction(() => /5 lanes are chosen, more than fit side by side/.test(document.getElementById('scheme-why').textContent));
    await waitForLanes(page, ['additive', 'concatenated', 'rotary', 'learned', 'nope']);
    assert.match(await page.locator('#scheme-count').textContent(), /5 of at most 3/);
    assert.equal(await page.locator('#scheme-boxes input[value="alibi"]').isDisabled(), true);
    assert.equal(await page.locator('#scheme-boxes input[value="nope"]').isDisabled(), false, 'a chosen box can still be unchecked');
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= 1280);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('schemes and lengths round-trip through the URL; the lanes and their notes follow', async () => {
  const hash = '#v=synthetic&s=a%20b%20c%20d%20e%20f%20g%20h%20i%20j&sch=learned,rope-pi,yarn&tl=4&el=64&ah=3';
  const { page, problems, close } = await openPage({ hash });
  try {
    await waitForLanes(page, ['learned', 'rope-pi', 'yarn']);
    assert.equal(await page.locator('#url-note').isHidden(), true);
    assert.equal(await page.locator('#trained-length').inputValue(), '4');
    assert.equal(await page.locator('#eval-length').inputValue(), '64');
    assert.equal(await page.locator('#alibi-head').inputValue(), '3');
    assert.match(await page.locator('#length-hint').textContent(), /s = max\(1, L′\/L\) = 16/);
    for (const scheme of ['learned', 'rope-pi', 'yarn']) {
      assert.equal(await page.locator(`#scheme-boxes input[value="${scheme}"]`).isChecked(), true);
    }
    assert.match(await page.locator('[data-scheme="yarn"] [data-field="yarnNote"]').textContent(), /s = 16/);
    assert.match(await page.locator('[data-scheme="rope-pi"] [data-field="piNote"]').textContent(), /1\/s = 0\.0625/);
    // Change a length by keyboard: the link follows, and a fresh page restores the same picture.
    const el = page.locator('#eval-length');
    await el.fill('32');
    await el.press('Tab');
    await page.waitForFunction(() => /el=32/.test(location.hash));
    const url = page.url();
    for (const part of ['sch=learned%2Crope-pi%2Cyarn', 'tl=4', 'el=32', 'ah=3']) assert.ok(url.includes(part), `${part} in ${url}`);
    const before = await readFigure(page, 'yarn-attention');
    await assertLinkRestores(openPage, url, {
      figure: 'yarn-attention',
      before,
      read: readFigure,
      checkRestored: (restored) => waitForLanes(restored, ['learned', 'rope-pi', 'yarn']),
    });
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('k, K and every scheme-parameter input, a lane\'s included, take min, max and step from INPUT_RANGES', async () => {
  const { page, problems, close } = await openPage({ hash: '#v=synthetic&s=a%20b%20c&sch=alibi,t5,yarn' });
  try {
    await waitForLanes(page, ['alibi', 't5', 'yarn']);
    const inputs = await page.locator('#shift-k, #max-distance, [data-param]').evaluateAll((all) => all.map((input) => ({
      id: input.id, name: input.dataset.param ?? { 'shift-k': 'shiftK', 'max-distance': 'maxDistance' }[input.id],
      range: { min: input.min, max: input.max, step: input.step },
    })));
    assert.ok(inputs.some((i) => i.id === 'lane-alibi-head'), 'the ALiBi lane\'s head input is there');
    assert.equal(inputs.length, 14);
    for (const { id, name, range } of inputs) {
      const want = INPUT_RANGES[name];
      assert.deepEqual(range, { min: String(want.min), max: String(want.max), step: String(want.step) }, id);
    }
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('bad scheme values in the link are refused with the visible note; invalid lengths typed are refused too', async () => {
  const { page, problems, close } = await openPage({ hash: '#v=synthetic&s=hello%20there&sch=rotary,bogus&tl=0&el=abc&ah=99&xsb=1' });
  try {
    const note = await page.locator('#url-note').textContent();
    for (const key of ['sch=rotary,bogus', 'tl=0', 'el=abc', 'ah=99', 'xsb=1']) assert.ok(note.includes(key), `the note names ${key}: ${note}`);
    await waitForLanes(page, ['additive', 'concatenated', 'rotary']);
    assert.equal(await page.locator('#trained-length').inputValue(), '2048');
    // A duplicate and a sixth scheme are refused as well.
    const dup = await openPage({ hash: '#v=synthetic&s=x&sch=nope,nope' });
    try {
      assert.match(await dup.page.locator('#url-note').textContent(), /sch=nope,nope/);
      await waitForLanes(dup.page, ['additive', 'concatenated', 'rotary']);
    } finally {
      await dup.close();
    }
    const tl = page.locator('#trained-length');
    await tl.fill('0');
    await tl.press('Tab');
    assert.match(await page.locator('#control-error').textContent(), /L must be a whole number from 1 to 1,048,576/);
    assert.equal(await tl.getAttribute('aria-invalid'), 'true');
    await tl.fill('16');
    await tl.press('Tab');
    await page.waitForFunction(() => /tl=16/.test(location.hash));
    assert.equal(await page.locator('#control-error').isHidden(), true);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('NoPE: the maps without and with the causal mask differ, and repeated words get identical rows without it', async () => {
  const { page, problems, close } = await openPage({ hash: '#v=synthetic&s=the%20cat%20saw%20the%20dog&sch=nope,rotary' });
  try {
    await waitForLanes(page, ['rotary', 'nope']);
    const maps = await readFigure(page, 'nope-attention');
    assert.equal(maps.length, 2, 'two maps side by side');
    assert.match(maps[0].label, /NoPE attention weights .* — without a mask/);
    assert.match(maps[1].label, /— with the causal mask/);
    assert.notEqual(maps[0].pixels, maps[1].pixels, 'the mask changes the picture');
    const json = await page.evaluate(() => {
      const canvas = document.querySelectorAll('[data-figure="nope-attention"] canvas.map-canvas');
      const rows = (c) => { const d = c.getContext('2d').getImageData(0, 0, 5, 5).data; return [0, 3].map((r) => [...d.slice(r * 20, r * 20 + 20)].join()); };
      return { unmasked: rows(canvas[0]), masked: rows(canvas[1]) };
    });
    assert.equal(json.unmasked[0], json.unmasked[1], 'without a mask “the” (0) and “the” (3) have identical rows');
    assert.notEqual(json.masked[0], json.masked[1], 'with the mask they differ');
    const note = await page.locator('[data-field="nopeNote"]').textContent();
    assert.match(note, /“the” \(0\) and “the” \(3\) have identical attention rows \(largest difference 0\)/);
    assert.match(note, /With the causal mask their rows differ by up to 0\.\d+/);
    const [terms] = await readFigure(page, 'nope-terms');
    assert.match(terms.label, /content · content/);
    await page.locator('[data-scheme="nope"]').screenshot({ path: `${SCREENSHOTS}schemes-nope-lane.png` });
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('the learned-style lane says it is seeded and flags the positions beyond the trained length', async () => {
  const words = Array.from({ length: 12 }, (_, i) => `w${i}`).join('%20');
  const { page, problems, close } = await openPage({ hash: `#v=synthetic&s=${words}&sch=learned&tl=8` });
  try {
    await waitForLanes(page, ['learned']);
    const lane = page.locator('[data-scheme="learned"]');
    assert.match(await lane.innerText(), /seeded, not trained/);
    await reveal(page, '[data-scheme="learned"] .lane-about'); // the lane's story is folded
    assert.match(await lane.innerText(), /not trained weights/);
    assert.match(await lane.locator('[data-field="learnedNote"]').textContent(), /Positions 8–11 \(4 of 12\) are at or beyond L = 8: a trained table has no row for these/);
    const [input] = await readFigure(page, 'learned-input');
    assert.match(input.label, /rows 8 to 11 \(hatched\) are beyond the trained length L = 8/);
    const flag = await page.evaluate(() => {
      const el = document.querySelector('[data-figure="learned-input"] .row-flag');
      const frame = el.parentElement.getBoundingClientRect();
      const box = el.getBoundingClientRect();
      return { hidden: el.hidden, share: box.height / frame.height };
    });
    assert.equal(flag.hidden, false);
    assert.ok(Math.abs(flag.share - 4 / 12) < 0.02, `the hatch covers the last 4 of 12 rows (${flag.share})`);
    // Arrow keys onto an untrained row: the readout says so.
    const canvas = page.locator('[data-figure="learned-input"] canvas.map-canvas');
    await canvas.focus();
    for (let i = 0; i < 9; i++) await page.keyboard.press('ArrowDown');
    assert.match(await page.locator('[data-figure="learned-input"] .cell-readout').textContent(), /“w9” \(9\).*a trained table has no row for it/);
    // Within L, nothing is flagged.
    const tl = page.locator('#trained-length');
    await tl.fill('2048');
    await tl.press('Tab');
    await page.waitForFunction(() => document.querySelector('[data-figure="learned-input"] .row-flag').hidden);
    assert.match(await lane.locator('[data-field="learnedNote"]').textContent(), /All 12 positions are within/);
    await lane.screenshot({ path: `${SCREENSHOTS}schemes-learned-lane.png` });
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('ALiBi shows the slope of the chosen head, and the lane control and the settings box stay in step', async () => {
  const { page, problems, close } = await openPage({ hash: '#v=synthetic&s=one%20two%20three%20four&sch=alibi' });
  try {
    await waitForLanes(page, ['alibi']);
    const slope = page.locator('[data-field="alibiSlope"]');
    assert.match(await slope.textContent(), /Head 1 of 8: m = 2⁻¹ = 0\.5/);
    const head = page.locator('#lane-alibi-head');
    await head.fill('3');
    await head.press('Tab');
    await page.waitForFunction(() => /Head 3 of 8: m = 2⁻³ = 0\.125/.test(document.querySelector('[data-field="alibiSlope"]').textContent));
    assert.equal(await page.locator('#alibi-head').inputValue(), '3', 'the settings box follows the lane');
    const heads = page.locator('#lane-alibi-heads');
    await heads.fill('4');
    await heads.press('Tab');
    await page.waitForFunction(() => /Head 3 of 4: m = 2⁻⁶ = 0\.01563/.test(document.querySelector('[data-field="alibiSlope"]').textContent));
    // k > H is noted and clamped, not applied blindly.
    await heads.fill('2');
    await heads.press('Tab');
    await page.waitForFunction(() => /Head 2 of 2/.test(document.querySelector('[data-field="alibiSlope"]').textContent));
    assert.match(await page.locator('#control-error').textContent(), /ALiBi head k = 3 is more than H = 2 heads; using head 2/);
    const terms = await readFigure(page, 'alibi-terms');
    assert.equal(terms.length, 2, 'content · content and the ALiBi bias');
    assert.match(terms[1].label, /ALiBi bias/);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('every scheme’s figures are painted and have accessible names; T5 says its values are seeded', async () => {
  const { page, problems, close } = await openPage({ hash: '#v=synthetic&s=the%20king%20and%20the%20queen' });
  try {
    for (let at = 0; at < ALL.length; at += 3) {
      const group = ALL.slice(at, at + 3);
      await page.evaluate((schemes) => { location.hash = `v=synthetic&h=0&s=the%20king%20and%20the%20queen&sch=${schemes.join(',')}`; }, group);
      await waitForLanes(page, group);
      for (const scheme of group) {
        for (const part of ['input', 'attention', 'terms']) {
          const canvases = await readFigure(page, `${scheme}-${part}`);
          const expected = part === 'terms' ? TERM_COUNTS[scheme] : part === 'attention' && scheme === 'nope' ? 2 : 1;
          assert.equal(canvases.length, expected, `${scheme}-${part} has ${expected} map(s)`);
          for (const c of canvases) {
            assert.equal(c.opaque, c.width * c.height, `${scheme}-${part} is painted in full`);
            assert.ok(c.label.length > 30, `${scheme}-${part} has an accessible name (${c.label})`);
          }
        }
        const lane = page.locator(`[data-scheme="${scheme}"]`);
        assert.ok(await lane.getAttribute('aria-labelledby'), `${scheme} lane is labelled`);
        // Every lane is the one template: the table's label (and the badge of the seeded schemes),
        // then the same seven children in the same order, so subgrid rows line up across lanes.
        const seeded = scheme === 'learned' || scheme === 't5';
        assert.equal(await lane.locator('h3').textContent(), SCHEME_LABELS[scheme] + (seeded ? ' seeded, not trained' : ''));
        assert.deepEqual(await lane.evaluate((article) => [...article.children].map((c) => c.className || c.tagName)), LANE_CHILDREN);
        const link = lane.locator('.lane-about a').first();
        assert.match(await link.getAttribute('href'), /^https:\/\/arxiv\.org\/abs\/\d{4}\.\d{5}$/, `${scheme} links its paper`);
        assert.equal(await link.getAttribute('rel'), 'noopener');
      }
    }
    assert.match(await page.locator('[data-scheme="yarn"]').innerText(), /Peng et al\. 2023/);
    await page.evaluate(() => { location.hash = 'v=synthetic&h=0&s=the%20king%20and%20the%20queen&sch=t5&c=1'; });
    await waitForLanes(page, ['t5']);
    await page.waitForFunction(() => /Causal buckets/.test(document.querySelector('[data-field="t5Note"]').textContent));
    await reveal(page, '[data-scheme="t5"] .lane-about'); // the lane's story is folded
    assert.match(await page.locator('[data-scheme="t5"]').innerText(), /seeded N\(0, 1\) numbers, not trained/);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('390 px: the picker, the scheme settings and the new lanes fit without horizontal scrolling, light and dark', async () => {
  for (const colorScheme of ['light', 'dark']) {
    const { page, problems, close } = await openPage({
      hash: '#v=synthetic&s=the%20cat%20sat%20on%20the%20mat%20and%20the%20dog%20slept&sch=alibi,nope,yarn&tl=8', width: 390, height: 844, colorScheme,
    });
    try {
      await waitForLanes(page, ['alibi', 'nope', 'yarn']);
      await page.locator('.params-box > summary').click();
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= 390, `scrollWidth ${width} fits 390 (${colorScheme})`);
      await screenshot(page, `schemes-390-${colorScheme}`);
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= 390, 'still fits after painting every figure');
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  }
});

test('with none of the original three in the lanes, the summary still answers its three questions (GloVe, 1280 px)', async () => {
  const { page, problems, close } = await openPage({ hash: '#sch=alibi,nope,yarn&c=1' });
  try {
    await page.waitForFunction(() => /d = 100\)/.test(document.getElementById('engine').textContent), null, { timeout: 20000 });
    await waitForLanes(page, ['alibi', 'nope', 'yarn']);
    await waitForSummary(page);
    const summary = await page.locator('#summary').innerText();
    assert.match(summary, /cosine with its own word vector is 0\.\d\d/);
    assert.match(summary, /Words decoded back from the encoded vectors: additive \d+%, concatenated \d+%.*rotary 100%/);
    assert.match(summary, /unchanged under a shift: .*Rotary.*prepending 3 words changes .*additive by \d\.\de[−-]\d/s);
    assert.match(summary, /cross terms e·p and p·e are \d\.\d\d× the size/);
    await screenshot(page, 'schemes-1280-glove');
    await page.locator('.lanes-section').screenshot({ path: `${SCREENSHOTS}schemes-1280-lanes.png` });
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});

test('with three further schemes chosen, every keystroke recomputes their lanes at 64 and 512 tokens', async (t) => {
  const { page, problems, close } = await openPage({ hash: '#sch=alibi,t5,yarn' });
  try {
    await page.waitForFunction(() => /d = 100\)/.test(document.getElementById('engine').textContent), null, { timeout: 20000 });
    const medians = await medianRecompute(page, [64, 512]);
    // How long is the bench's to say (bench/keystroke.mjs), as in page.test.mjs.
    t.diagnostic(`median recompute with alibi, t5, yarn: ${JSON.stringify(medians)} ms`);
    await page.waitForFunction(() => /\(n = 512, d = 100\)/.test(document.getElementById('engine').textContent), null, { timeout: 20000 });
    await waitForLanes(page, ['alibi', 't5', 'yarn']);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});
