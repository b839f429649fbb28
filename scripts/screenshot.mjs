// Makes docs/screenshot.png, the README's picture: the built page (dist/) on its default link at
// 1280 × 800, in Debian's headless Chromium, once GloVe has loaded and the network is idle (so
// whatever the default link fetches has arrived), with reduced motion and the text caret hidden.
//   node scripts/screenshot.mjs           write docs/screenshot.png
//   node scripts/screenshot.mjs --check   render again and compare pixels with the committed file
// Needs a built dist/ (./scripts/build). Chromium's text and canvas rendering is deterministic on
// one machine kind but not across font versions, so --check compares decoded pixels with a
// tolerance (MAX_CHANGED_SHARE) instead of file bytes.
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { closeServer, launchChromium, serveDir, waitForGlove } from '../tests/e2e/browser.mjs';

export const SCREENSHOT_PNG = fileURLToPath(new URL('../docs/screenshot.png', import.meta.url));
const VIEWPORT = { width: 1280, height: 800 };
// A pixel counts as changed when a channel moves by more than this (anti-aliasing jitter is 1–3).
const CHANNEL_TOLERANCE = 16;
// --check passes while at most this share of pixels changed: a moved panel or a new colour scale
// changes far more than 1%.
const MAX_CHANGED_SHARE = 0.01;

/** Renders the page and returns its PNG bytes. */
export async function renderScreenshot() {
  const { server, baseUrl } = await serveDir();
  const browser = await launchChromium();
  try {
    const context = await browser.newContext({ viewport: VIEWPORT, colorScheme: 'light', reducedMotion: 'reduce', deviceScaleFactor: 1 });
    const page = await context.newPage();
    await page.goto(baseUrl);
    await page.waitForFunction(() => /last recompute/.test(document.getElementById('engine').textContent), null, { timeout: 30000 });
    await waitForGlove(page);
    // Models or other files the default link asks for: wait until nothing is in flight.
    await page.waitForLoadState('networkidle');
    await page.evaluate(() => document.fonts.ready);
    await page.evaluate(() => { document.activeElement?.blur(); scrollTo(0, 0); });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const png = await page.screenshot({ type: 'png', caret: 'hide', animations: 'disabled' });
    await context.close();
    return png;
  } finally {
    await browser.close();
    await closeServer(server);
  }
}

/** Share of pixels that differ by more than CHANNEL_TOLERANCE, decoded by Chromium itself. */
async function changedShare(a, b) {
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    return await page.evaluate(async ({ a, b, tolerance }) => {
      const pixels = async (base64) => {
        const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${base64}`)).blob());
        const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
        const context = canvas.getContext('2d');
        context.drawImage(bitmap, 0, 0);
        return { width: bitmap.width, height: bitmap.height, data: context.getImageData(0, 0, bitmap.width, bitmap.height).data };
      };
      const [x, y] = [await pixels(a), await pixels(b)];
      if (x.width !== y.width || x.height !== y.height) return 1;
      let changed = 0;
      for (let i = 0; i < x.data.length; i += 4) {
        for (let c = 0; c < 3; c++) {
          if (Math.abs(x.data[i + c] - y.data[i + c]) > tolerance) { changed++; break; }
        }
      }
      return changed / (x.width * x.height);
    }, { a: a.toString('base64'), b: b.toString('base64'), tolerance: CHANNEL_TOLERANCE });
  } finally {
    await browser.close();
  }
}

async function main() {
  const png = await renderScreenshot();
  if (process.argv.includes('--check')) {
    const share = await changedShare(await readFile(SCREENSHOT_PNG), png);
    const verdict = share <= MAX_CHANGED_SHARE ? 'ok' : 'differs: run node scripts/screenshot.mjs to renew it';
    console.log(`docs/screenshot.png: ${(share * 100).toFixed(2)}% of pixels changed (at most ${MAX_CHANGED_SHARE * 100}%): ${verdict}`);
    if (share > MAX_CHANGED_SHARE) process.exitCode = 1;
  } else {
    await writeFile(SCREENSHOT_PNG, png);
    console.log(`docs/screenshot.png: ${VIEWPORT.width} × ${VIEWPORT.height}, ${png.length} bytes`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
