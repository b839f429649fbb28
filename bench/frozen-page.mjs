// The lab page frozen at n tokens, for bench/keystroke.mjs: a control that keeps the lab's whole
// document and none of its work.
//   node bench/frozen-page.mjs --out DIR [--tokens N] [--dist DIR]
// Loads the default link with the encoding alone (as keystroke.mjs's first rows do) at 1280 × 800
// in Chromium, types keystroke.mjs's sentence of N tokens (default 64) into the box, and waits for
// its analyses. It then writes DIR: a copy of the build (default dist/) whose index.html is the
// page's document as it stood then (its lanes, maps, axes, token list and panels), without any of
// its scripts, and with bench/control-keystroke's keystroke path instead (control.js and its echo
// worker: the text leaves at beforeinput, comes straight back, and the held edit and the engine
// line are written in the task that receives it). Each canvas is drawn again from the pixels it
// showed (frozen-canvases.js), so the frozen page has the lab's layers too.
//   node bench/keystroke.mjs --dist DIR --label frozen N
// then measures a keystroke on the lab's document with none of the lab's work: the browser's edit,
// style, layout, paint and compositing of a page this size. Against the lab page it says how much
// of a keystroke is the lab's own work (its compute, its figures and its writes), and against
// bench/control-keystroke (one box and one line) how much is the document's weight.
import { cp, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DIST as DEFAULT_DIST, launchChromium, serveDir, closeServer } from '../tests/e2e/browser.mjs';
import { optionReader } from './options.mjs';
import { sentence } from './keystroke-text.mjs';

const CONTROL = fileURLToPath(new URL('./control-keystroke/', import.meta.url));
const CONTROL_FILES = ['control.js', 'echo-worker.js', 'frozen-canvases.js'];

// In the page: the document as it stands, with the canvases' pixels, the box's text and the
// controls' states written into its markup, its scripts and its policy out and the control's
// scripts in. → { html, counts }.
function freezeDocument(files) {
  const canvases = [...document.querySelectorAll('canvas')];
  for (const canvas of canvases) canvas.dataset.frozenPixels = canvas.toDataURL();
  // The markup carries neither the box's text (its value) nor the controls' states.
  const box = document.getElementById('sentence');
  box.textContent = box.value;
  for (const input of document.querySelectorAll('input')) input.toggleAttribute('checked', input.checked);
  for (const choice of document.querySelectorAll('option')) choice.toggleAttribute('selected', choice.selected);
  for (const details of document.querySelectorAll('details')) details.toggleAttribute('open', details.open);
  // The page's policy forbids inline styles, and its scripts' styles are inline in the markup now.
  const removed = [...document.querySelectorAll('script, link[rel="modulepreload"], link[rel="preload"], meta[http-equiv="Content-Security-Policy"]')];
  for (const node of removed) node.remove();
  for (const file of files.filter((name) => name !== 'echo-worker.js')) {
    const script = document.createElement('script');
    script.type = 'module';
    script.src = file;
    document.head.append(script);
  }
  return {
    html: `<!doctype html>\n${document.documentElement.outerHTML}\n`,
    counts: { elements: document.querySelectorAll('*').length, canvases: canvases.length, removed: removed.length },
  };
}

/**
 * Writes the page of build `dist`, frozen at `tokens` tokens, to the folder `out` (made, or
 * overwritten) → { elements, canvases, removed }: the frozen document's elements and canvases, and
 * the scripts, preloads and policy taken out.
 */
export async function freezePage({ out, tokens = 64, dist = DEFAULT_DIST }) {
  if (!Number.isInteger(tokens) || tokens < 1) throw new RangeError(`tokens (--tokens): a positive integer, got ${tokens}`);
  const { server, baseUrl } = await serveDir(dist, { precompress: true });
  const browser = await launchChromium();
  let frozen;
  try {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    await page.goto(`${baseUrl}index.html#v=glove&h=0`);
    await page.waitForFunction(() => /last recompute/.test(document.getElementById('engine').textContent), null, { timeout: 60000 });
    await page.locator('#sentence').fill(sentence(tokens));
    await page.waitForFunction((n) => new RegExp(`n = ${n},.*analyses`).test(document.getElementById('engine').textContent), tokens, { timeout: 120000 });
    await page.waitForTimeout(400);
    frozen = await page.evaluate(freezeDocument, CONTROL_FILES);
  } finally {
    await browser.close();
    await closeServer(server);
  }
  await cp(dist, out, { recursive: true });
  await writeFile(join(out, 'index.html'), frozen.html);
  for (const file of CONTROL_FILES) await cp(join(CONTROL, file), join(out, file));
  return frozen.counts;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const option = optionReader(args);
  const out = option('--out', null);
  const tokens = Number(option('--tokens', '64'));
  const dist = option('--dist', DEFAULT_DIST);
  if (!out) throw new RangeError('--out: the folder to write the frozen page to');
  if (args.length) throw new RangeError(`unknown arguments: ${args.join(' ')}`);
  console.log(JSON.stringify({ out, tokens, ...await freezePage({ out, tokens, dist }) }));
}
