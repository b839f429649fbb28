// Trained heads in the lanes: the default link opens on them; Heads → trained
// paints each lane's model attention and surprise strip, the toggle above the lanes switches to the
// encoding alone (W = I) and back, the layer/head picker works by keyboard and lives in the URL,
// lanes without a model say so, a loading model keeps the layout still, Save-Data loads nothing
// until asked, typing updates the strip and holds the notes' counts of unknown words until it
// pauses, a failed load falls back to identity heads, and the
// results table renders with sentences from its numbers. Uses the shipped models when dist/ has
// them, else the test-only stand-in (fixtures/pretrained-stand-in.mjs).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { exportFrom, pageSuite, readFigure, reveal } from './browser.mjs';
import { prepareModels } from './fixtures/pretrained-stand-in.mjs';

const openPage = pageSuite({ openSettings: true });
const open = (hash, { fail, hold, ...options } = {}) => openPage({ hash, prepare: (context) => prepareModels(context, { fail, hold }), ...options });

/** A gate for the model files (prepareModels' hold): they arrive only once release() is called. */
function gate() {
  let release;
  const hold = new Promise((resolve) => { release = resolve; });
  return { hold, release };
}
// The attention map itself, not the strip inside the same slot.
const MAP = { canvases: '> .fig canvas.map-canvas' };
const STRIP = { canvases: '.trained-strip canvas.map-canvas' };
const MAP_CANVASES = { canvases: 'canvas.map-canvas' };
const SENTENCE = 's=The%20king%20sat%20on%20the%20throne%2C%20and%20the%20queen%20smiled%20at%20the%20king.';

/** Waits until every listed lane shows its model (note) and has scored the words (strip ready). */
function waitForTrained(page, schemes) {
  return page.waitForFunction((list) => list.every((scheme) => {
    const box = document.querySelector(`#lanes [data-scheme="${scheme}"] .trained-box`);
    return box?.dataset.state === 'ready' && /^Trained model: layer/.test(box.querySelector('.trained-note').textContent);
  }), schemes, { timeout: 30000 });
}

/** The surprise strip's values as its JSON export downloads them. */
async function stripValues(page, scheme) {
  const download = await exportFrom(page, page.locator(`#lanes [data-scheme="${scheme}"] .trained-strip`), /.*/, 'JSON data');
  const json = JSON.parse(await readFile(await download.path(), 'utf8'));
  return Object.values(json.matrices[0].values);
}

describe('trained heads in the lanes', () => {
  it('the default link opens on trained heads; one click on the toggle shows the encoding alone, and h=0 links keep it', async () => {
    const { page, problems, close } = await open(`#${SENTENCE}`, { heads: 'default' });
    try {
      await waitForTrained(page, ['additive', 'concatenated', 'rotary']);
      assert.equal(await page.locator('#lane-heads-trained').isChecked(), true);
      assert.match(await page.locator('#heads-note').textContent(), /^Trained heads:/);
      assert.doesNotMatch(await page.evaluate(() => location.hash), /(^#|&)h=/, 'the default is not written into the link');
      // Keyboard: the radio group moves with the arrow keys.
      await page.locator('#lane-heads-trained').focus();
      await page.keyboard.press('ArrowRight');
      await page.waitForFunction(() => /W\u00a0=\u00a0I/.test(document.querySelector('[data-figure="additive-attention"] > .fig canvas.map-canvas').getAttribute('aria-label')));
      assert.match(await page.locator('#heads-note').textContent(), /^Encoding alone \(W\u00a0=\u00a0I\)/);
      await page.waitForFunction(() => /(^#|&)h=0(&|$)/.test(location.hash));
      assert.equal(await page.locator('#heads').inputValue(), '0', 'the Settings control follows the toggle');
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
    const old = await open(`#${SENTENCE}&h=0`, { heads: 'default' });
    try {
      await old.page.waitForTimeout(300);
      assert.equal(await old.page.locator('#lane-heads-identity').isChecked(), true, 'h=0 keeps its meaning: the encoding alone');
      assert.equal(await old.page.locator('#lanes .trained-box:not([hidden])').count(), 0);
      assert.deepEqual(old.problems, []);
    } finally {
      await old.close();
    }
  });

  it('the models are asked of the worker only once the frame that first shows the lanes is out', async () => {
    // Page-side times: each 'load' message as it is posted, and the first animation frame after the
    // lanes enter the document (the paint that puts them there is the one that asks for the models).
    const watch = () => {
      window.__loads = [];
      const post = Worker.prototype.postMessage;
      Worker.prototype.postMessage = function postMessage(message, ...rest) {
        if (message?.type === 'load') window.__loads.push(performance.now());
        return post.call(this, message, ...rest);
      };
      addEventListener('DOMContentLoaded', () => {
        const lanes = document.getElementById('lanes');
        const seen = new MutationObserver(() => {
          if (!lanes.childElementCount) return;
          seen.disconnect();
          requestAnimationFrame(() => { window.__lanesFrame = performance.now(); });
        });
        seen.observe(lanes, { childList: true });
      });
    };
    const { page, problems, close } = await openPage({
      hash: `#${SENTENCE}`, heads: 'default',
      prepare: async (context) => { await prepareModels(context); await context.addInitScript(watch); },
    });
    try {
      await waitForTrained(page, ['additive', 'concatenated', 'rotary']);
      const { loads, lanesFrame } = await page.evaluate(() => ({ loads: window.__loads, lanesFrame: window.__lanesFrame }));
      assert.equal(loads.length, 3, 'one load per default lane');
      assert.ok(lanesFrame !== undefined, 'the lanes were put in the document');
      for (const at of loads) assert.ok(at > lanesFrame, `a model was asked for at ${at.toFixed(1)} ms, before the lanes' frame at ${lanesFrame.toFixed(1)} ms`);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  it('while a model loads the lane shows W = I, labelled, and the trained map replaces it without moving the layout', async () => {
    const models = gate();
    const { page, problems, close } = await open(`#${SENTENCE}`, { heads: 'default', hold: models.hold });
    try {
      await page.waitForFunction(() => /^Loading the trained Additive model….*encoding alone \(W\u00a0=\u00a0I\) meanwhile/.test(
        document.querySelector('#lanes [data-scheme="additive"] .trained-note')?.textContent ?? ''));
      assert.match(await page.locator('[data-figure="additive-attention"] > .fig canvas.map-canvas').getAttribute('aria-label'), /W\u00a0=\u00a0I/);
      const layout = () => page.evaluate(() => ({
        lanes: document.getElementById('lanes').getBoundingClientRect().height,
        below: document.getElementById('heads-note').getBoundingClientRect().top + scrollY,
      }));
      const loading = await layout();
      models.release();
      await waitForTrained(page, ['additive', 'concatenated', 'rotary']);
      const loaded = await layout();
      assert.ok(Math.abs(loaded.lanes - loading.lanes) <= 1, `the lanes moved from ${loading.lanes} to ${loaded.lanes} px`);
      assert.ok(Math.abs(loaded.below - loading.below) <= 1, `what follows the lanes moved from ${loading.below} to ${loaded.below} px`);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  it('with Save-Data on, no model loads until the reader presses the button above the lanes', async () => {
    const requests = [];
    const { page, problems, close } = await openPage({
      hash: `#${SENTENCE}`, heads: 'default',
      prepare: async (context) => {
        await prepareModels(context, {});
        await context.addInitScript(() => Object.defineProperty(navigator, 'connection', { value: { saveData: true } }));
        context.on('request', (request) => { if (/\.safetensors$/.test(request.url())) requests.push(request.url()); });
      },
    });
    try {
      const button = page.locator('#trained-picker .trained-load');
      await button.waitFor({ state: 'visible' });
      assert.match(await button.textContent(), /^Load the trained models \([\d.]+ MB\)$/);
      assert.match(await page.locator('#lanes [data-scheme="additive"] .trained-note').textContent(), /asks to save data/);
      await page.waitForTimeout(500);
      assert.deepEqual(requests, [], 'nothing loads before the click');
      await button.press('Enter');
      await waitForTrained(page, ['additive', 'concatenated', 'rotary']);
      // The three default lanes' files (each in two parts where the server takes ranges).
      assert.deepEqual([...new Set(requests)].map((url) => url.replace(/.*\//, '')).sort(),
        ['additive.q8.safetensors', 'concatenated.q8.safetensors', 'rotary.q8.safetensors']);
      assert.equal(await button.isVisible(), false);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  it('switching Heads to trained paints each lane’s model attention and a finite surprise strip', async () => {
    const { page, problems, close } = await open(`#${SENTENCE}`);
    try {
      const option = page.locator('#heads option[value="trained"]');
      assert.match(await option.textContent(), /^trained \(\d+ layers? × \d+ heads?\)$/);
      const before = await readFigure(page, 'additive-attention', MAP);
      await page.selectOption('#heads', 'trained');
      const lanes = ['additive', 'concatenated', 'rotary'];
      await waitForTrained(page, lanes);
      for (const scheme of lanes) {
        const [map] = await readFigure(page, `${scheme}-attention`, MAP);
        assert.match(map.label, /trained model, layer 1 of \d+, head 1 of \d+/, scheme);
        assert.ok(map.colours > 2, `${scheme}: the attention map is not uniform (${map.colours} colours)`);
        if (scheme === 'additive') assert.notEqual(map.pixels, before[0].pixels, 'the map changed from W = I');
        const strip = await readFigure(page, `${scheme}-attention`, STRIP);
        assert.equal(strip.length, 1);
        assert.equal(strip[0].width, 14, 'one cell per word after the first (15 tokens)');
        assert.match(strip[0].label, /surprise at each next word, −ln p in nats/);
        const values = await stripValues(page, scheme);
        assert.equal(values.length, 14);
        assert.ok(values.every((v) => Number.isFinite(v) && v >= 0), `${scheme}: ${values}`);
      }
      // Arrow keys read the strip's exact values.
      const canvas = page.locator('#lanes [data-scheme="rotary"] .trained-strip canvas.map-canvas');
      await canvas.focus();
      await page.keyboard.press('ArrowRight');
      assert.match(await page.locator('#lanes [data-scheme="rotary"] .trained-strip .cell-readout').textContent(),
        /surprise, “sat” \(2\) after “king” \(1\) = \d/);
      assert.match(await page.locator('#heads-note').textContent(), /^Trained heads:/);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  it('the layer and head picker works by keyboard, changes the figure and survives a reload of the link', async () => {
    const { page, problems, close } = await open(`#${SENTENCE}&h=trained`);
    let hash;
    try {
      await waitForTrained(page, ['additive']);
      assert.equal(await page.locator('#heads').inputValue(), 'trained');
      const [first] = await readFigure(page, 'additive-attention', MAP);
      await page.locator('#trained-head').focus();
      await page.keyboard.press('ArrowDown');
      await page.waitForFunction(() => /head 2 of/.test(document.querySelector('[data-figure="additive-attention"] > .fig canvas.map-canvas').getAttribute('aria-label')));
      await page.locator('#trained-layer').focus();
      await page.keyboard.press('ArrowDown');
      await page.waitForFunction(() => /layer 2 of/.test(document.querySelector('[data-figure="additive-attention"] > .fig canvas.map-canvas').getAttribute('aria-label')));
      const [second] = await readFigure(page, 'additive-attention', MAP);
      assert.notEqual(second.pixels, first.pixels, 'layer 2, head 2 is another picture');
      // Trained heads are the default, so the link names the layer and head but no h=.
      await page.waitForFunction(() => /hl=2/.test(location.hash) && /hh=2/.test(location.hash) && !/(^#|&)h=/.test(location.hash));
      hash = await page.evaluate(() => location.hash);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
    const again = await open(hash, { heads: 'default' }); // the link as saved: trained heads by default
    try {
      await waitForTrained(again.page, ['additive']);
      assert.equal(await again.page.locator('#trained-layer').inputValue(), '2');
      assert.equal(await again.page.locator('#trained-head').inputValue(), '2');
      assert.match(await again.page.locator('[data-figure="additive-attention"] > .fig canvas.map-canvas').getAttribute('aria-label'), /layer 2 of \d+, head 2 of/);
      assert.deepEqual(again.problems, []);
    } finally {
      await again.close();
    }
  });

  it('a lane repaints the map it kept after identity heads showed instead, although the page gave the worker back what no figure showed', async () => {
    // 40 tokens: each map (40² floats) is big enough to go back to the worker (view-buffers.js).
    const words = Array.from({ length: 40 }, (_, i) => ['the', 'king', 'sat', 'on', 'his', 'throne'][i % 6]).join('%20');
    // Tall enough that the lanes' maps are on screen (a figure off screen paints once it nears the
    // view: at 900 px, the rotary map's figure lay at the edge of that margin).
    const { page, problems, close } = await open(`#s=${words}`, { heads: 'default', height: 2400 });
    try {
      await waitForTrained(page, ['rotary']);
      const [before] = await readFigure(page, 'rotary-attention', MAP);
      assert.match(before.label, /trained model/);
      await page.locator('#lane-heads-identity').click();
      await page.waitForFunction(() => /W\u00a0=\u00a0I/.test(document.querySelector('[data-figure="rotary-attention"] > .fig canvas.map-canvas').getAttribute('aria-label')));
      // A key typed while identity heads show: its compute carries back every map no figure reads.
      await page.locator('#sentence').focus();
      await page.keyboard.press('Control+End');
      await page.keyboard.type(' ');
      await page.waitForTimeout(300);
      await page.locator('#lane-heads-trained').click();
      await page.waitForFunction(() => /trained model/.test(document.querySelector('[data-figure="rotary-attention"] > .fig canvas.map-canvas').getAttribute('aria-label')));
      const [after] = await readFigure(page, 'rotary-attention', MAP);
      assert.equal(after.label, before.label);
      assert.equal(after.pixels, before.pixels, 'the same words: the same trained map');
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  it('a key that adds or changes the last word brings only its row, repaints only the rows from that word on, and the map is the one a fresh page paints', async () => {
    // Every putImageData on a lane's map canvas: the rows it put (heatmap.js paints a causal map's
    // changed rows alone when the rows before are those it shows); and the rotary lane's pass in
    // every view from the lab worker: its first row and how many floats came.
    const recordPuts = () => {
      window.__rows = [];
      const Plain = window.Worker;
      window.Worker = class extends Plain {
        constructor(...args) {
          super(...args);
          this.addEventListener('message', ({ data }) => {
            const pass = data?.view?.trained?.rotary;
            if (pass?.attention) window.__rows.push([pass.fromRow, pass.attention.length]);
          });
        }
      };
      window.__puts = new WeakMap();
      const put = CanvasRenderingContext2D.prototype.putImageData;
      CanvasRenderingContext2D.prototype.putImageData = function putImageData(image, dx, dy, sx = 0, sy = 0, sw = image.width, sh = image.height) {
        const list = window.__puts.get(this.canvas) ?? [];
        list.push({ sy, sh, height: this.canvas.height });
        window.__puts.set(this.canvas, list);
        return put.call(this, image, dx, dy, sx, sy, sw, sh);
      };
    };
    const words = Array.from({ length: 40 }, (_, i) => ['the', 'king', 'sat', 'on', 'his', 'throne'][i % 6]);
    const map = '[data-figure="rotary-attention"] > .fig canvas.map-canvas';
    // Tall enough that the lanes' maps are on screen beside the box (figures off screen paint later).
    const height = 2400;
    const { page, problems, close } = await openPage({
      hash: `#s=${words.join('%20')}`, heads: 'default', height,
      prepare: async (context) => { await prepareModels(context); await context.addInitScript(recordPuts); },
    });
    try {
      await waitForTrained(page, ['rotary']);
      const loaded = await page.evaluate(() => window.__rows.length);
      await page.locator('#sentence').focus();
      await page.keyboard.press('Control+End');
      await page.keyboard.type(' kin', { delay: 50 });
      await page.waitForFunction((selector) => document.querySelector(selector).dataset.rows === '41', map);
      await page.waitForTimeout(300);
      await page.evaluate((selector) => window.__puts.delete(document.querySelector(selector)), map);
      await page.keyboard.type('g'); // "kin" → "king": the last word's id changes, the 40 before stay
      await page.waitForFunction((selector) => window.__puts.has(document.querySelector(selector)), map, { timeout: 10000 });
      await waitForTrained(page, ['rotary']);
      const puts = await page.evaluate((selector) => window.__puts.get(document.querySelector(selector)), map);
      assert.ok(puts.length > 0 && puts.every(({ sy }) => sy > 0), `only the last word's rows were put: ${JSON.stringify(puts)}`);
      // "k" added the 41st word, and "g" changed it: each view brought that one row.
      const typedRows = await page.evaluate((from) => window.__rows.slice(from), loaded);
      assert.ok(typedRows.length >= 2, `a pass for each of "k" and "g": ${JSON.stringify(typedRows)}`);
      for (const rows of typedRows) assert.deepEqual(rows, [40, 41], 'each view brought the last row alone');
      const [typed] = await readFigure(page, 'rotary-attention', MAP);
      assert.equal(typed.rows, 41);
      assert.deepEqual(problems, []);
      const fresh = await open(`#s=${[...words, 'king'].join('%20')}`, { heads: 'default', height });
      try {
        await waitForTrained(fresh.page, ['rotary']);
        const [painted] = await readFigure(fresh.page, 'rotary-attention', MAP);
        assert.equal(typed.label, painted.label);
        assert.equal(typed.pixels, painted.pixels, 'the map kept in part equals the map painted whole');
        assert.deepEqual(fresh.problems, []);
      } finally {
        await fresh.close();
      }
    } finally {
      await close();
    }
  });

  it('typing holds each note\'s count of unknown words, busy, until typing pauses; then the note is current', async () => {
    const { page, problems, close } = await open(`#${SENTENCE}`, { heads: 'default' });
    try {
      const schemes = ['additive', 'concatenated', 'rotary'];
      await waitForTrained(page, schemes);
      // Each view a typed key paints: the notes as they read in that view's task (the engine
      // line's data-view is written last, web/page/app.js).
      await page.evaluate((list) => {
        window.__notes = () => list.map((scheme) => {
          const note = document.querySelector(`#lanes [data-scheme="${scheme}"] .trained-note`);
          return { text: note.textContent, busy: note.getAttribute('aria-busy') };
        });
        window.__seen = [];
        new MutationObserver(() => window.__seen.push(window.__notes()))
          .observe(document.getElementById('engine'), { attributes: true, attributeFilter: ['data-view'] });
      }, schemes);
      const notes = () => page.evaluate(() => window.__notes());
      const before = await notes();
      await page.locator('#sentence').focus();
      await page.keyboard.press('Control+End');
      // Two words outside any shipped vocabulary, a key every 40 ms: typing does not pause (the
      // analyses wait 250 ms), and the views of most keys are painted.
      await page.keyboard.type(' zqxj vbk', { delay: 40 });
      // After the pause: each note counts the sentence's words, and is no longer busy.
      await page.waitForFunction((list) => {
        const tokens = [...document.querySelectorAll('#tokens .token-text')];
        return tokens.at(-1)?.textContent === 'vbk' && list.every((scheme) => {
          const note = document.querySelector(`#lanes [data-scheme="${scheme}"] .trained-note`);
          return note.getAttribute('aria-busy') !== 'true' && new RegExp(`; \\d+ of ${tokens.length} words are outside`).test(note.textContent);
        });
      }, schemes, { timeout: 30000 });
      const after = await notes();
      const seen = await page.evaluate(() => window.__seen);
      for (const [i, scheme] of schemes.entries()) {
        assert.notEqual(after[i].text, before[i].text, `${scheme}: the note follows the new words`);
        // A typed key's view left the note as it read, marked busy (its count was behind the words).
        assert.ok(seen.some((view) => view[i].text === before[i].text && view[i].busy === 'true'),
          `${scheme}: a typed key's view holds the note, busy: ${JSON.stringify(seen.map((view) => view[i]))}`);
      }
      assert.deepEqual(after.map((note) => note.busy), ['false', 'false', 'false'], 'no note is busy once typing paused');
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  it('a lane without a model says so; typing updates the strip; a long sentence is a note in the learned lane', async () => {
    const { page, problems, close } = await open(`#${SENTENCE}&h=trained&sch=additive,learned,xpos`);
    try {
      await waitForTrained(page, ['additive', 'learned']);
      assert.equal(await page.locator('#lanes [data-scheme="xpos"] .trained-note').textContent(),
        'No trained model ships for xPos: this map shows the encoding alone (W\u00a0=\u00a0I).');
      assert.equal(await page.locator('#lanes [data-scheme="xpos"] .trained-strip').isVisible(), false);
      const [before] = await readFigure(page, 'additive-attention', STRIP);
      await page.locator('#sentence').focus();
      await page.keyboard.press('Control+End');
      await page.keyboard.type(' the cat sat');
      // Figures off screen paint when they scroll in (web/figures/heatmap-figure.js), so bring the strip back.
      await page.locator('#lanes [data-scheme="additive"] .trained-strip').scrollIntoViewIfNeeded();
      await page.waitForFunction(() => document.querySelector('#lanes [data-scheme="additive"] .trained-strip canvas.map-canvas').dataset.cols === '17');
      const [after] = await readFigure(page, 'additive-attention', STRIP);
      assert.notEqual(after.pixels, before.pixels);
      assert.ok((await stripValues(page, 'additive')).every(Number.isFinite));
      // Past the learned model's context: the core refuses, the lane says why and keeps W = I.
      await page.locator('#sentence').fill(Array.from({ length: 40 }, () => 'the king').join(' '));
      await page.waitForFunction(() => /cannot read this sentence: .*context/.test(
        document.querySelector('#lanes [data-scheme="learned"] .trained-note').textContent));
      assert.match(await page.locator('#lanes [data-scheme="additive"] .trained-note').textContent(), /^Trained model: layer/);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  it('a pasted text shows its lanes at once, and each trained map follows from its lane\'s own request', async () => {
    // 120 words are more rows than a keystroke's pass adds (web/pipeline/slices.js, PASS_ROWS): the
    // view comes without them, the lanes wait (pending) and ask, and the worker makes the rows in
    // tasks a key typed meanwhile can pass.
    const { page, problems, close } = await open(`#${SENTENCE}`, { heads: 'default', height: 2400 });
    try {
      const schemes = ['additive', 'concatenated', 'rotary'];
      await waitForTrained(page, schemes);
      const words = Array.from({ length: 120 }, (_, i) => ['the', 'queen', 'sat', 'on', 'her', 'throne'][i % 6]);
      // The lanes' states when the readout's data-view first names the pasted length (the view applied).
      await page.evaluate((n) => {
        const engine = document.getElementById('engine');
        window.__atView = new Promise((resolve) => new MutationObserver((_, observer) => {
          if (!new RegExp(`n = ${n}\\b`).test(engine.dataset.view)) return;
          observer.disconnect();
          resolve([...document.querySelectorAll('#lanes .trained-box')].map((box) => box.dataset.state));
        }).observe(engine, { attributes: true, attributeFilter: ['data-view'] }));
      }, words.length);
      await page.locator('#sentence').fill(words.join(' '));
      assert.deepEqual(await page.evaluate(() => window.__atView), ['pending', 'pending', 'pending']);
      await waitForTrained(page, schemes);
      for (const scheme of schemes) {
        const [map] = await readFigure(page, `${scheme}-attention`, MAP);
        assert.equal(map.rows, words.length, `${scheme}: the map of the pasted words`);
      }
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  it('a lane under its trained map skips its folded decomposition while typing, and unfolding it paints the current words', async () => {
    // compare's inputOnly (web/page/app.js coveredLanes): the folded figure must not stay stale.
    const typed = ' and the queen left';
    const { page, problems, close } = await open(`#${SENTENCE}`, { heads: 'default' });
    try {
      await waitForTrained(page, ['additive', 'concatenated', 'rotary']);
      await page.locator('#sentence').focus();
      await page.keyboard.press('Control+End'); // End alone stops at the end of a wrapped line
      await page.keyboard.type(typed, { delay: 30 });
      await waitForTrained(page, ['additive', 'concatenated', 'rotary']);
      const n = Number((await page.locator('#engine').getAttribute('data-view')).match(/n = (\d+)/)[1]);
      await page.locator('#lane-additive details.lane-more > summary').click();
      await page.waitForFunction((n) => document.querySelector('[data-figure="additive-terms"] canvas.map-canvas')?.dataset.rows === String(n), n, { timeout: 5000 });
      const unfolded = await readFigure(page, 'additive-terms', MAP_CANVASES);
      // The same words typed into a fresh page with the lane open from the start: the same pixels.
      const sentence = decodeURIComponent(SENTENCE.slice(2)) + typed;
      const fresh = await open(`#s=${encodeURIComponent(sentence)}&more=additive`, { heads: 'default' });
      try {
        await waitForTrained(fresh.page, ['additive']);
        const expected = await readFigure(fresh.page, 'additive-terms', MAP_CANVASES);
        assert.equal(await page.locator('#sentence').inputValue(), sentence);
        assert.equal(unfolded.length, 4, 'four terms');
        assert.deepEqual(unfolded.map((c) => [c.rows, c.cols]), expected.map((c) => [c.rows, c.cols]));
        assert.equal(unfolded[0].rows, n);
        unfolded.forEach((c, t) => assert.ok(c.pixels === expected[t].pixels, `term ${t}: the unfolded figure shows the current words`));
        assert.deepEqual(fresh.problems, []);
      } finally {
        await fresh.close();
      }
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  it('a model that fails to load is a clear note and its lane keeps identity heads', async () => {
    const { page, problems, close } = await open(`#${SENTENCE}&h=trained`, { fail: ['rotary'] });
    try {
      await waitForTrained(page, ['additive']);
      await page.waitForFunction(() => /could not be loaded \(.+\); this map shows the encoding alone \(W\u00a0=\u00a0I\)/.test(
        document.querySelector('#lanes [data-scheme="rotary"] .trained-note').textContent));
      assert.match(await page.locator('[data-figure="rotary-attention"] > .fig canvas.map-canvas').getAttribute('aria-label'), /W\u00a0=\u00a0I/);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  it('switching back before the models arrive cancels their loads', async () => {
    const models = gate();
    const { page, problems, close } = await open(`#${SENTENCE}`, { hold: models.hold });
    try {
      await page.selectOption('#heads', 'trained');
      await page.waitForFunction(() => /Loading the trained/.test(document.querySelector('#lanes .trained-note')?.textContent ?? ''));
      await page.selectOption('#heads', '0');
      await page.waitForFunction(() => document.getElementById('lane-heads-identity').checked); // that view is painted
      // The files may now arrive: a load that was not cancelled would bring its lane back.
      models.release();
      await page.waitForTimeout(400);
      assert.equal(await page.locator('#lanes .trained-box:not([hidden])').count(), 0);
      assert.equal(await page.locator('#trained-layer').isVisible(), false, 'no layer picker for the encoding alone');
      assert.equal(await page.locator('#lane-heads-identity').isChecked(), true);
      assert.match(await page.locator('[data-figure="additive-attention"] > .fig canvas.map-canvas').getAttribute('aria-label'), /W\u00a0=\u00a0I/);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  it("a folded panel's data is not fetched: the results store loads when its tab opens, not with the trained heads", async () => {
    const fetched = [];
    const { page, problems, close } = await openPage({
      hash: `#${SENTENCE}`, heads: 'default',
      prepare: async (context) => {
        await prepareModels(context, {});
        context.on('request', (request) => { if (/\/experiments\/|\/models\/results\.json$/.test(request.url())) fetched.push(request.url()); });
      },
    });
    try {
      await waitForTrained(page, ['additive', 'concatenated', 'rotary']);
      await page.evaluate(() => new Promise((r) => requestIdleCallback(r, { timeout: 2000 })));
      await page.waitForTimeout(300);
      assert.equal(await page.locator('#panel-trained-results').isVisible(), false, 'the Trained models tab is not the one shown');
      assert.deepEqual(fetched, [], 'nothing of the folded panel is fetched');
      await reveal(page, '#panel-trained-results');
      await page.locator('#panel-trained-results').scrollIntoViewIfNeeded();
      await page.waitForFunction(() => document.querySelectorAll('[data-figure="trained-results"] tbody tr').length > 0);
      assert.equal(fetched.length, 1, fetched.join(', '));
      assert.match(fetched[0], /\/experiments\/words\.json$/);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  it('the results table shows perplexity by length, sentences under the interval rule and the loss by position', async () => {
    const { page, problems, close } = await open(`#${SENTENCE}`);
    try {
      await reveal(page, '#panel-trained-results'); // the Measurements tab
      const panel = page.locator('#panel-trained-results');
      await panel.scrollIntoViewIfNeeded();
      await page.waitForFunction(() => document.querySelectorAll('[data-figure="trained-results"] tbody tr').length > 0);
      const head = await page.locator('[data-figure="trained-results"] thead th').allTextContents();
      assert.deepEqual(head.slice(1).map((h) => h.replace(/ = \d+$/, '')), ['T', '2T', '4T', '8T', 'Seeds']);
      const rows = await page.locator('[data-figure="trained-results"] tbody tr').allTextContents();
      assert.ok(rows.some((r) => /^Rotary \+ PI/.test(r)), rows.join('\n'));
      // The results store's records (dist/experiments/words.json): every sentence says its seeds.
      const summary = await page.locator('#trained-results-summary').textContent();
      assert.match(summary, /scored best on average \(perplexity [\d.]+( \[[\d.]+, [\d.]+\])?, (over \d+ seeds|from one seed)\)/);
      assert.match(summary, /95% interval.*(no clear difference|beat|no claim)|(no clear difference|beat) .*95% interval/);
      assert.equal(await page.locator('[data-figure="trained-positions"] canvas').count(), 1);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });
});
