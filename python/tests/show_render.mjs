// The page posenc_lab.show() puts in its iframe, opened from a file in headless Chromium (Debian's,
// through the repository's playwright-core): waits until the element has drawn `maps` maps, then
// prints what it shows as JSON: { maps, titles, status }. Usage: node show_render.mjs PAGE.html MAPS
import { pathToFileURL } from 'node:url';
import { launchChromium } from '../../tests/e2e/browser.mjs';

const [page, maps] = process.argv.slice(2);
const browser = await launchChromium();
try {
  const tab = await browser.newPage();
  const problems = [];
  tab.on('pageerror', (error) => problems.push(error.message));
  await tab.goto(pathToFileURL(page).href);
  await tab.waitForFunction((count) => document.querySelector('posenc-lab')?.shadowRoot
    ?.querySelectorAll('[data-figure="attention"] canvas.map-canvas').length === count, Number(maps), { timeout: 120000 });
  const shown = await tab.evaluate(() => {
    const root = document.querySelector('posenc-lab').shadowRoot;
    return {
      maps: root.querySelectorAll('[data-figure="attention"] canvas.map-canvas').length,
      titles: [...root.querySelectorAll('[data-figure="attention"] .tile-title')].map((t) => t.textContent),
      status: root.querySelector('.pl-status').textContent,
    };
  });
  console.log(JSON.stringify({ ...shown, problems }));
} finally {
  await browser.close();
}
