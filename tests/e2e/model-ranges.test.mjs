// The shipped models' heads first, in the page (lab.loadPretrained's onHeads in the lab worker):
// with ranges each default lane's model file is asked for in two Range requests, the first the
// manifest's heads bytes; while the rest is held back every lane shows its trained map with the
// surprise strip's place kept, and the strip follows once the rest arrives. Behind a server that
// ignores Range each file is one whole-file answer, and the maps and strips still show. Skipped
// when dist/ ships no models.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DIST, closeServer, launchChromium, openLabPage, serveDir } from './browser.mjs';
import { closing, rangeProxy } from './fixtures/range-proxy.mjs';

const DEFAULT_LANES = ['additive', 'concatenated', 'rotary'];
const SENTENCE = 's=The%20king%20sat%20on%20the%20throne%2C%20and%20the%20queen%20smiled%20at%20the%20king.';
const manifest = await readFile(join(DIST, 'models/manifest.json'), 'utf8').then(JSON.parse, () => null);

/**
 * Every default lane shows its trained map (note and box ready); strips: whether each strip shows
 * too, else its place is kept (laid out, not painted: styles/lab.css's strip-reserved).
 */
function waitForMaps(page, { strips }) {
  return page.waitForFunction(({ lanes, strips }) => lanes.every((scheme) => {
    const box = document.querySelector(`#lanes [data-scheme="${scheme}"] .trained-box`);
    const strip = box?.querySelector('.trained-strip');
    return box?.dataset.state === 'ready' && /^Trained model: layer/.test(box.querySelector('.trained-note').textContent) &&
      strip && !strip.hidden && box.classList.contains('strip-reserved') === !strips;
  }), { lanes: DEFAULT_LANES, strips }, { timeout: 30000 });
}

const mapLabel = (page, scheme) => page.locator(`[data-figure="${scheme}-attention"] > .fig canvas.map-canvas`).getAttribute('aria-label');
const modelRequests = (link, scheme) => link.seen.filter((r) => r.path.endsWith(`/models/${scheme}.q8.safetensors`));

describe('trained heads before the output layer', { skip: !manifest && 'this dist/ ships no models' }, () => {
  let origin;
  let browser;
  before(async () => {
    ({ server: origin } = await serveDir());
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await closeServer(origin);
  });

  async function openThrough(mode, options) {
    const link = await rangeProxy(origin.address().port, mode, options);
    const opened = await openLabPage(browser, link.url, { hash: `#${SENTENCE}`, heads: 'default' });
    return { ...opened, link, close: async () => { await opened.close(); await closing(link.server); } };
  }

  it('with ranges: the heads bytes first; the maps show while the rest is held, and the strips once it comes', async () => {
    const { page, problems, link, close } = await openThrough('ranges', { hold: true });
    try {
      await waitForMaps(page, { strips: false });
      for (const scheme of DEFAULT_LANES) {
        const { heads } = manifest.models.find((m) => m.name === scheme);
        assert.match(await mapLabel(page, scheme), /attention weights of the trained model/, scheme);
        assert.deepEqual(modelRequests(link, scheme).map((r) => r.range), [`bytes=0-${heads.bytes - 1}`, `bytes=${heads.bytes}-`], scheme);
      }
      link.release();
      await waitForMaps(page, { strips: true });
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });

  it('a server that ignores Range: one whole-file answer per model, and the maps and strips show', async () => {
    const { page, problems, link, close } = await openThrough('ignore');
    try {
      await waitForMaps(page, { strips: true });
      for (const scheme of DEFAULT_LANES) {
        assert.match(await mapLabel(page, scheme), /attention weights of the trained model/, scheme);
        assert.equal(modelRequests(link, scheme).length, 1, scheme);
      }
      assert.deepEqual(problems, []);
    } finally {
      await close();
    }
  });
});
