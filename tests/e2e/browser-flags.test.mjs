// The Chromium every browser test and bench launches (browser.mjs, launchChromium): one
// --disable-features list holding the launcher's features and CHROMIUM_ARGS' (chromium.sh merges
// them; Chromium keeps only the last list it is given), and no omnibox popup renderer once a
// window opens, which would share the cores with the page under test.
// Needs Debian's /usr/bin/chromium; Linux only (/proc).
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { CHROMIUM_ARGS, launchChromium } from './browser.mjs';
import { descendants } from '../../bench/settle.mjs';

/**
 * The processes below root → [{ pid, args, title }] (settle.mjs finds them; a process gone
 * meanwhile is left out). args: the command line split at its NULs; title: all of it, NULs as
 * spaces, for Chromium's child processes, which rewrite their command line as one string.
 */
async function commandLines(root) {
  const found = [];
  for (const { pid } of await descendants(root)) {
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => null);
    if (cmdline !== null) found.push({ pid, args: cmdline.split('\0').filter(Boolean), title: cmdline.replaceAll('\0', ' ') });
  }
  return found;
}

test('Chromium runs with one --disable-features list and no omnibox popup renderer in a new window', async () => {
  const browser = await launchChromium();
  try {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto('about:blank');
    const processes = await commandLines(process.pid);
    const main = processes.find((p) => p.args.includes('--remote-debugging-pipe'));
    assert.ok(main, `no browser process below this one: ${processes.map((p) => p.args[0]).join(', ')}`);
    const lists = main.args.filter((a) => a.startsWith('--disable-features='));
    assert.equal(lists.length, 1, `the browser was given ${lists.length} --disable-features lists: ${lists.join(' ')}`);
    const features = lists[0].slice('--disable-features='.length).split(',');
    // PaintHolding: one of Playwright's own; the rest: CHROMIUM_ARGS' (the omnibox popups).
    const ours = CHROMIUM_ARGS.filter((a) => a.startsWith('--disable-features=')).flatMap((a) => a.slice('--disable-features='.length).split(','));
    assert.ok(ours.length > 0, 'CHROMIUM_ARGS turns off no feature');
    for (const feature of ['PaintHolding', ...ours]) {
      assert.ok(features.includes(feature), `${feature} is not in ${lists[0]}`);
    }
    // With the popups on, their renderer runs about 0.1 s after the window's first page loaded.
    for (let waited = 0; waited < 2500; waited += 250) {
      const popups = (await commandLines(process.pid)).filter((p) => / --top-chrome-webui( |$)/.test(p.title));
      assert.equal(popups.length, 0, `an omnibox popup renderer runs: ${popups.map((p) => p.pid).join(', ')}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  } finally {
    await browser.close();
  }
});
