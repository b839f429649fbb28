// Screenshots of the built page (dist/) in Debian's headless Firefox ESR and Chromium, at several
// window sizes, for looking at the layout in both engines (not a test: nothing is compared).
// Each is taken on the default link (or --hash) once GloVe and the default lanes' trained heads
// have loaded (where the link shows them) and the summary has its sentences, at device scale 1, with the focus (and so the text caret) taken off the sentence.
//   node scripts/screenshots.mjs [--browser firefox,chromium] [--sizes 1280x800,1920x1080,390x844]
//                                [--out build-e2e/screenshots/engines] [--hash '#s=…'] [--full]
// Writes OUT/<browser>-<width>x<height>.png (the first screen) and, with --full,
// OUT/<browser>-<width>x<height>-full.png (the whole page, every lazily painted figure drawn).
// Both browsers are driven by puppeteer-core: Firefox over WebDriver BiDi, Chromium over CDP.
// Needs a built dist/ (./scripts/build).
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { closeServer, drawSkipped, serveDir } from '../tests/e2e/browser.mjs';
import { DEFAULT_LANES, launchFirefox, launchPuppeteerChromium, openPage, waitForLab } from '../tests/e2e/firefox.mjs';
import { TRAINED_HEADS, readHash } from '../dist/pipeline/state.js'; // the built page's own link reader

const LAUNCH = { firefox: launchFirefox, chromium: launchPuppeteerChromium };
const DEFAULTS = { browser: 'firefox,chromium', sizes: '1280x800,1920x1080,390x844', out: 'build-e2e/screenshots/engines' };

/** '1280x800,390x844' → [{ width: 1280, height: 800 }, …]; a malformed size is refused by name. */
export function parseSizes(text) {
  return text.split(',').map((size) => {
    const match = /^(\d{3,4})x(\d{3,4})$/.exec(size.trim());
    if (!match) throw new RangeError(`--sizes: "${size}" is not WIDTHxHEIGHT (e.g. 1280x800)`);
    return { width: Number(match[1]), height: Number(match[2]) };
  });
}

/** 'firefox,chromium' → ['firefox', 'chromium']; an unknown browser is refused by name. */
export function parseBrowsers(text) {
  return text.split(',').map((name) => {
    if (!Object.hasOwn(LAUNCH, name)) throw new RangeError(`--browser: "${name}" is not one of ${Object.keys(LAUNCH).join(', ')}`);
    return name;
  });
}

/** Scrolls down the whole page so every lazily painted figure draws, with off-screen panels laid out. */
async function paintWholePage(page) {
  await drawSkipped(page, true);
  await page.evaluate(async () => {
    for (let y = 0; y < document.documentElement.scrollHeight; y += innerHeight / 2) {
      scrollTo(0, y);
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    }
    scrollTo(0, 0);
    // The scroll event, and what follows it (the section navigation's mark), come a frame later.
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  });
}

/**
 * What the page at `hash` shows once it has loaded, as waitForLab's options: GloVe unless the link
 * picks synthetic vectors, and trained heads in the default lanes it keeps unless it picks the
 * encoding alone or random heads (h=0, h=2, …), so that a screenshot of such a link waits for
 * nothing the page will never show.
 */
export function awaitedFor(hash) {
  const { state } = readHash(hash);
  const trained = state.heads === TRAINED_HEADS ? DEFAULT_LANES.filter((scheme) => state.schemes.includes(scheme)) : [];
  return { glove: state.vectors === 'glove', trained, analyses: true };
}

/** Takes one browser's screenshots at every size → the paths written. */
async function shoot(name, url, sizes, out, full) {
  const browser = await LAUNCH[name]();
  const written = [];
  try {
    for (const { width, height } of sizes) {
      const { page, problems, close } = await openPage(browser, url, { width, height });
      try {
        await waitForLab(page, awaitedFor(new URL(url).hash));
        await page.evaluate(() => document.fonts.ready);
        await page.evaluate(() => { document.activeElement?.blur(); scrollTo(0, 0); });
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        const path = join(out, `${name}-${width}x${height}.png`);
        await page.screenshot({ path });
        written.push(path);
        if (full) {
          await paintWholePage(page);
          const fullPath = join(out, `${name}-${width}x${height}-full.png`);
          await page.screenshot({ path: fullPath, fullPage: true });
          written.push(fullPath);
        }
        for (const problem of problems) console.warn(`${name} ${width}x${height}: ${problem}`);
      } finally {
        await close();
      }
    }
  } finally {
    await browser.close();
  }
  return written;
}

async function main() {
  const { values } = parseArgs({ options: {
    browser: { type: 'string', default: DEFAULTS.browser },
    sizes: { type: 'string', default: DEFAULTS.sizes },
    out: { type: 'string', default: DEFAULTS.out },
    hash: { type: 'string', default: '' },
    full: { type: 'boolean', default: false },
  } });
  const browsers = parseBrowsers(values.browser);
  const sizes = parseSizes(values.sizes);
  const out = resolve(values.out);
  await mkdir(out, { recursive: true });
  const { server, baseUrl } = await serveDir();
  try {
    for (const name of browsers) {
      for (const path of await shoot(name, baseUrl + values.hash, sizes, out, values.full)) console.log(path);
    }
  } finally {
    await closeServer(server);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
