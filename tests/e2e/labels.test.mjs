// Maps that name their words: every token-indexed map shows its tokens on its
// axes (queries down the side, keys along the top), thins them without overlap when rows are
// too close, marks both words of the cell under the pointer or the keyboard cursor with a
// crosshair, follows the theme, and carries the words into its PNG export.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { exportFrom, pageSuite, reveal } from './browser.mjs';
import { sentence } from '../../bench/keystroke-text.mjs';

const openPage = pageSuite();
const tokenTexts = (page) => page.locator('#tokens .token-text').allTextContents();

/**
 * A figure's axes as drawn: per tile, the labels on each axis's canvas (token-axes.js keeps them
 * as `drawnLabels`, index-free text with their bands in CSS px), with their boxes on the page,
 * how many of those bands hold no ink on the canvas (a label listed but not drawn), and whether
 * the axis is shown at all.
 */
function readAxes(page, figure) {
  return page.evaluate((name) => [...document.querySelectorAll(`[data-figure="${name}"] .fig-tile`)]
    .filter((tile) => !tile.closest('[hidden]') && !tile.hidden)
    .map((tile) => Object.fromEntries(['rows', 'cols'].map((kind) => {
      const axis = tile.querySelector(`.token-axis-${kind}`);
      const at = axis.getBoundingClientRect();
      const labels = axis.drawnLabels;
      const canvas = axis.querySelector('canvas');
      const g = canvas.getContext('2d');
      const dpr = canvas.width / Math.max(1, at.width);
      const blank = labels.filter((l) => {
        const x = Math.max(0, Math.floor(l.x * dpr)), y = Math.max(0, Math.floor(l.y * dpr));
        const w = Math.max(1, Math.min(canvas.width - x, Math.floor(l.width * dpr))), h = Math.max(1, Math.min(canvas.height - y, Math.floor(l.height * dpr)));
        const { data } = g.getImageData(x, y, w, h);
        for (let i = 3; i < data.length; i += 4) if (data[i] > 128) return false;
        return true;
      }).length;
      return [kind, {
        shown: axis.checkVisibility(),
        words: labels.map((l) => l.text),
        boxes: labels.map((l) => ({ x: at.x + l.x, y: at.y + l.y, w: l.width, h: l.height })),
        blank,
        colour: getComputedStyle(axis).color,
      }];
    }))), figure);
}

async function showFigure(page, name) {
  await reveal(page, `[data-figure="${name}"]`); // a lane's input and decomposition are folded
  await page.locator(`[data-figure="${name}"]`).scrollIntoViewIfNeeded();
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  // An axis draws once its size is known (a ResizeObserver's callback after the figure's first
  // layout on screen), which a loaded machine can put a few frames later: wait for every shown
  // axis to have drawn, then let the assertions say what is missing if one never does.
  await page.waitForFunction((figure) => [...document.querySelectorAll(`[data-figure="${figure}"] .fig-tile`)]
    .filter((tile) => !tile.closest('[hidden]') && !tile.hidden)
    .every((tile) => [...tile.querySelectorAll('.token-axis')].every((axis) => !axis.checkVisibility() || axis.drawnLabels.length > 0)),
  name, { timeout: 10_000 }).catch(() => {});
}

/**
 * The ink of additive-attention's first row label: its most opaque pixel (small antialiased text
 * may have none quite opaque, and the canvas stores colour premultiplied by alpha, so a channel
 * read back at alpha 200 or more is within 2 of what was drawn), with the axis's own colour.
 * → { alpha, rgb, colour }
 */
function firstLabelInk(page) {
  return page.evaluate(() => {
    const axis = document.querySelector('[data-figure="additive-attention"] .token-axis-rows');
    const canvas = axis.querySelector('canvas');
    const [label] = axis.drawnLabels;
    const dpr = canvas.width / axis.getBoundingClientRect().width;
    const { data } = canvas.getContext('2d').getImageData(0, Math.floor(label.y * dpr), canvas.width, Math.max(1, Math.floor(label.height * dpr)));
    let top = 3;
    for (let i = 3; i < data.length; i += 4) if (data[i] > data[top]) top = i;
    return { alpha: data[top], rgb: [data[top - 3], data[top - 2], data[top - 1]], colour: getComputedStyle(axis).color };
  });
}

/** Asserts that firstLabelInk's label has ink, in its axis's colour. */
function drawnIn({ alpha, rgb, colour }, name) {
  assert.ok(alpha >= 200, `${name}: a label has ink (most opaque pixel's alpha ${alpha})`);
  const want = colour.match(/\d+/g).map(Number);
  assert.ok(rgb.every((c, i) => Math.abs(c - want[i]) <= 2), `${name}: the labels are drawn in the axis colour ${colour}, not rgb(${rgb})`);
}

/** Whether two boxes overlap by more than half a pixel. */
const overlap = (a, b) => a.x + a.w > b.x + 0.5 && b.x + b.w > a.x + 0.5 && a.y + a.h > b.y + 0.5 && b.y + b.h > a.y + 0.5;

describe('maps that name their words', () => {
  it('the default sentence: every word on both axes of attention and logit terms, down the side of the encoded input', async () => {
    const { page, problems, close } = await openPage();
    try {
      const tokens = await tokenTexts(page);
      assert.ok(tokens.length > 10 && tokens.length <= 48, `${tokens.length} tokens`);
      for (const scheme of ['additive', 'concatenated', 'rotary']) {
        await showFigure(page, `${scheme}-attention`);
        const [attention] = await readAxes(page, `${scheme}-attention`);
        assert.deepEqual(attention.rows.words, tokens, `${scheme} attention: queries down the side`);
        assert.deepEqual(attention.cols.words, tokens, `${scheme} attention: keys along the top`);
        assert.equal(attention.rows.blank + attention.cols.blank, 0, `${scheme} attention: every listed label is drawn`);
        await showFigure(page, `${scheme}-input`);
        const [input] = await readAxes(page, `${scheme}-input`);
        assert.deepEqual(input.rows.words, tokens, `${scheme} input: tokens down the side`);
        assert.equal(input.cols.shown, false, `${scheme} input: its columns are dimensions, not words`);
        await showFigure(page, `${scheme}-terms`);
        for (const tile of await readAxes(page, `${scheme}-terms`)) {
          assert.ok(tile.rows.shown && tile.cols.shown, `${scheme} terms: both axes`);
          assert.ok(tile.rows.words.length >= tokens.length / 2, `${scheme} terms: ${tile.rows.words.length} of ${tokens.length} words`);
        }
      }
      // Keys run left to right along the top, queries top to bottom down the side, none overlapping.
      const [attention] = await readAxes(page, 'additive-attention');
      for (let i = 1; i < tokens.length; i++) {
        assert.ok(attention.cols.boxes[i].x > attention.cols.boxes[i - 1].x, 'keys left to right');
        assert.ok(attention.rows.boxes[i].y > attention.rows.boxes[i - 1].y, 'queries top to bottom');
        assert.ok(!overlap(attention.rows.boxes[i], attention.rows.boxes[i - 1]), 'query labels do not overlap');
        assert.ok(!overlap(attention.cols.boxes[i], attention.cols.boxes[i - 1]), 'key labels do not overlap');
      }
      // The labels sit outside the map, beside and above it.
      const map = await page.locator('[data-figure="additive-attention"] canvas.map-canvas').boundingBox();
      assert.ok(attention.rows.boxes.every((b) => b.x + b.w <= map.x + 1), 'query words left of the map');
      assert.ok(attention.cols.boxes.every((b) => b.y + b.h <= map.y + 1), 'key words above the map');
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  it('48 tokens at 1920 × 1080 are all legible; 120 tokens are thinned, evenly and without overlap', async () => {
    const wide = await openPage({ hash: `#s=${encodeURIComponent(sentence(48))}`, width: 1920, height: 1080 });
    try {
      await showFigure(wide.page, 'rotary-attention');
      const [axes] = await readAxes(wide.page, 'rotary-attention');
      const tokens = await tokenTexts(wide.page);
      assert.equal(tokens.length, 48);
      assert.deepEqual(axes.rows.words, tokens);
      assert.deepEqual(axes.cols.words, tokens);
      assert.deepEqual(wide.problems, []);
    } finally {
      await wide.close();
    }
    const { page, problems, close } = await openPage({ hash: `#s=${encodeURIComponent(sentence(120))}` });
    try {
      await showFigure(page, 'rotary-attention');
      const tokens = await tokenTexts(page);
      assert.equal(tokens.length, 120);
      const [axes] = await readAxes(page, 'rotary-attention');
      for (const kind of ['rows', 'cols']) {
        const { words, boxes } = axes[kind];
        assert.ok(words.length > 5 && words.length < 120, `${kind}: ${words.length} of 120 labels`);
        // Every step-th word from the first: the thinning skips the same number each time.
        const step = Math.ceil(120 / words.length);
        assert.deepEqual(words, tokens.filter((_, i) => i % step === 0), `${kind}: every ${step}th word`);
        assert.equal(axes[kind].blank, 0, `${kind}: every listed label is drawn`);
        for (let i = 1; i < boxes.length; i++) assert.ok(!overlap(boxes[i], boxes[i - 1]), `${kind} labels ${i - 1} and ${i} overlap`);
      }
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  it('48 tokens at 1280 × 800: the lanes wrap two to a row and name every word; 15 and 60 tokens keep three across', async () => {
    const arrangement = (page) => page.evaluate(() => {
      const tops = [...document.querySelectorAll('#lanes > .lane')].map((lane) => Math.round(lane.getBoundingClientRect().top));
      return { columns: document.getElementById('lanes').dataset.columns ?? 'all', rows: new Set(tops).size };
    });
    const { page, problems, close } = await openPage({ hash: `#s=${encodeURIComponent(sentence(48))}` });
    try {
      await page.waitForFunction(() => document.getElementById('lanes').dataset.columns === '2', null, { timeout: 5000 });
      const tokens = await tokenTexts(page);
      assert.equal(tokens.length, 48);
      for (const scheme of ['additive', 'concatenated', 'rotary']) {
        await showFigure(page, `${scheme}-attention`);
        const [axes] = await readAxes(page, `${scheme}-attention`);
        assert.deepEqual(axes.rows.words, tokens, `${scheme}: every query word`);
        assert.deepEqual(axes.cols.words, tokens, `${scheme}: every key word`);
        assert.equal(axes.rows.blank + axes.cols.blank, 0);
      }
      assert.deepEqual(await arrangement(page), { columns: '2', rows: 2 });
      // Back to the default sentence: three across again.
      await page.locator('#sentence').fill(sentence(15));
      await page.waitForFunction(() => !document.getElementById('lanes').dataset.columns, null, { timeout: 5000 });
      assert.deepEqual(await arrangement(page), { columns: 'all', rows: 1 });
      // More words than two to a row can name: three across, thinned (two rows would not help).
      await page.locator('#sentence').fill(sentence(60));
      await page.waitForFunction(() => /n = 60,/.test(document.getElementById('engine').textContent));
      await page.evaluate(() => new Promise((r) => setTimeout(r, 300)));
      assert.deepEqual(await arrangement(page), { columns: 'all', rows: 1 });
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  it('pointer and keyboard draw a crosshair that names both words', async () => {
    const { page, problems, close } = await openPage();
    try {
      const tokens = await tokenTexts(page);
      const n = tokens.length;
      await showFigure(page, 'additive-attention');
      const figure = page.locator('[data-figure="additive-attention"]');
      const canvas = figure.locator('canvas.map-canvas');
      const box = await canvas.boundingBox();
      const [row, col] = [3, n - 2];
      await page.mouse.move(box.x + ((col + 0.5) / n) * box.width, box.y + ((row + 0.5) / n) * box.height);
      const crosshair = () => figure.evaluate((root) => ({
        row: root.querySelector('.crosshair-row').hidden ? null : root.querySelector('.crosshair-row').getBoundingClientRect(),
        col: root.querySelector('.crosshair-col').hidden ? null : root.querySelector('.crosshair-col').getBoundingClientRect(),
        words: ['rows', 'cols'].map((kind) => root.querySelector(`.token-axis-${kind} .axis-active`)).filter((l) => !l.hidden).map((l) => l.textContent),
        readout: root.querySelector('.cell-readout').textContent,
      }));
      let shown = await crosshair();
      assert.ok(shown.row && shown.col, 'both lines of the crosshair are drawn');
      assert.ok(Math.abs(shown.row.width - box.width) < 3, 'the row line spans the map');
      assert.ok(Math.abs(shown.col.height - box.height) < 3, 'the column line spans the map');
      assert.deepEqual(shown.words, [tokens[row], tokens[col]], 'the query and key words are marked on the axes');
      assert.match(shown.readout, new RegExp(`query “${tokens[row]}” \\(${row}\\), key “${tokens[col]}” \\(${col}\\)`));
      await page.mouse.move(box.x - 200, box.y - 200);
      shown = await crosshair();
      assert.ok(!shown.row && !shown.col && shown.words.length === 0, 'leaving the map removes it');
      // By keyboard: focus starts at the first cell, arrows move it.
      await canvas.focus();
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      shown = await crosshair();
      assert.deepEqual(shown.words, [tokens[1], tokens[2]]);
      assert.ok(shown.row && shown.col);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  it('labels follow the theme', async () => {
    const colours = {};
    for (const colorScheme of ['light', 'dark']) {
      const { page, close } = await openPage({ colorScheme, glove: false, hash: '#v=synthetic' });
      try {
        await showFigure(page, 'additive-attention');
        const [axes] = await readAxes(page, 'additive-attention');
        colours[colorScheme] = axes.rows.colour;
        const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
        assert.notEqual(axes.rows.colour, background, `${colorScheme}: labels are not the background colour`);
      } finally {
        await close();
      }
    }
    assert.notEqual(colours.light, colours.dark, `light ${colours.light}, dark ${colours.dark}`);
  });

  it('labels take the new colours when the theme changes while the page is open', async () => {
    const { page, close } = await openPage({ colorScheme: 'light', glove: false, hash: '#v=synthetic' });
    const ink = () => firstLabelInk(page);
    try {
      await showFigure(page, 'additive-attention');
      const light = await ink();
      drawnIn(light, 'light');
      // A new token first (the axis redraws every label on a canvas that keeps its size), then
      // the theme: the labels must be drawn again in the dark colours, not in the light ones kept.
      await page.locator('#sentence').press('End');
      await page.keyboard.type(' cat');
      await page.waitForFunction(() => /cat/.test([...document.querySelectorAll('#tokens .token-text')].map((t) => t.textContent).join(' ')));
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.waitForFunction((before) => {
        const axis = document.querySelector('[data-figure="additive-attention"] .token-axis-rows');
        return getComputedStyle(axis).color !== before;
      }, light.colour);
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const dark = await ink();
      assert.notEqual(dark.colour, light.colour);
      drawnIn(dark, 'dark');
    } finally {
      await close();
    }
  });

  it('a new word redraws the labels with the pen kept; a resized canvas gets it again', async () => {
    const { page, close } = await openPage({ glove: false, hash: '#v=synthetic' });
    // Every font the token axes' canvases are given from now on.
    const fontsSet = () => page.evaluate(() => {
      const fonts = window.fontsSet;
      window.fontsSet = [];
      return fonts;
    });
    const words = () => page.evaluate(() => document.querySelector('[data-figure="additive-attention"] .token-axis-rows').drawnLabels.map((l) => l.text));
    try {
      await showFigure(page, 'additive-attention');
      await page.evaluate(() => {
        window.fontsSet = [];
        const font = Object.getOwnPropertyDescriptor(CanvasRenderingContext2D.prototype, 'font');
        Object.defineProperty(CanvasRenderingContext2D.prototype, 'font', {
          configurable: true,
          get: font.get,
          set(value) {
            if (this.canvas.classList.contains('axis-canvas')) window.fontsSet.push(value);
            font.set.call(this, value);
          },
        });
      });
      const before = await words();
      // The default sentence's rows are far apart: its labels have the largest size, as they
      // keep with one word more, which moves every label (all are drawn again).
      await page.locator('#sentence').press('Control+End'); // the end of the text, not of its first line
      await page.keyboard.type(' cat');
      await page.waitForFunction(() => document.querySelector('[data-figure="additive-attention"] .token-axis-rows').drawnLabels.some((l) => l.text === 'cat'));
      assert.deepEqual(await words(), [...before, 'cat']);
      assert.deepEqual(await fontsSet(), [], 'no font set again for a canvas that kept its size');
      drawnIn(await firstLabelInk(page), 'after a new word');
      // A resized canvas has lost its context's state: the pen is set again, and the labels are
      // drawn in the axis colour, not the context's default black.
      await page.setViewportSize({ width: 1000, height: 900 });
      await page.waitForFunction(() => window.fontsSet.length > 0, null, { timeout: 10_000 });
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      assert.ok((await fontsSet()).every((font) => /px /.test(font)));
      drawnIn(await firstLabelInk(page), 'after the resize');
    } finally {
      await close();
    }
  });

  it('the PNG export carries the words: a gutter left of and above the map, with text in it', async () => {
    const { page, problems, close } = await openPage();
    try {
      const n = (await tokenTexts(page)).length;
      const download = await exportFrom(page, page, 'Additive attention', 'PNG image');
      const bytes = await download.createReadStream().then(async (stream) => {
        const chunks = [];
        for await (const chunk of stream) chunks.push(chunk);
        return Buffer.concat(chunks);
      });
      const found = await page.evaluate(async ({ png, n }) => {
        const image = await createImageBitmap(new Blob([new Uint8Array(png)], { type: 'image/png' }));
        const canvas = new OffscreenCanvas(image.width, image.height);
        const g = canvas.getContext('2d');
        g.drawImage(image, 0, 0);
        // Without words the map alone would be n·scale wide (canvasToPng's whole-pixel enlargement to 480).
        const scale = Math.ceil(480 / n);
        const gutter = image.width - n * scale;
        const dark = (x0, y0, w, h) => {
          const { data } = g.getImageData(x0, y0, w, h);
          let count = 0;
          for (let i = 0; i < data.length; i += 4) if (data[i] + data[i + 1] + data[i + 2] < 300) count++;
          return count;
        };
        const mapTop = image.height - n * scale;
        return { width: image.width, height: image.height, scale, gutter, side: dark(0, mapTop, gutter, n * scale), top: dark(gutter, 30, n * scale, mapTop - 30) };
      }, { png: [...bytes], n });
      assert.ok(found.gutter >= 24, `a word gutter beside the map (${JSON.stringify(found)})`);
      assert.ok(found.side > 50, `query words drawn left of the map (${found.side} dark pixels)`);
      assert.ok(found.top > 50, `key words drawn above the map (${found.top} dark pixels)`);
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });
});
