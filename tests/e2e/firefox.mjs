// The second engine: Debian's Firefox ESR, headless, driven by puppeteer-core over WebDriver BiDi
// (no browser download; puppeteer's profile turns off Firefox's own background traffic). What a Firefox test needs beside browser.mjs's server: the launcher, a
// page that collects its problems, and waits on what the reader sees (puppeteer's API, not
// Playwright's, so browser.mjs's helpers do not apply).
import { access, constants } from 'node:fs/promises';
import puppeteer from 'puppeteer-core';
import { CHROMIUM, CHROMIUM_ARGS, summaryAnalysed } from './browser.mjs';

export const FIREFOX = '/usr/bin/firefox-esr';

/** Launches Debian's headless Firefox ESR; fails with the package's name when it is not installed. */
export async function launchFirefox() {
  await access(FIREFOX, constants.X_OK).catch(() => {
    throw new Error(`${FIREFOX} is missing: install Debian's firefox-esr package (./scripts/setup installs it)`);
  });
  return puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX, headless: true });
}

/** Debian's headless Chromium under puppeteer (CDP), for scripts that drive both engines alike. */
export function launchPuppeteerChromium() {
  return puppeteer.launch({ browser: 'chrome', executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}

/**
 * Opens `url` in a fresh browser context at width × height. Console errors, page errors and HTTP
 * errors are collected in `problems`. → { page, problems, close }
 */
export async function openPage(browser, url, { width = 1280, height = 900 } = {}) {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  await page.setViewport({ width, height, deviceScaleFactor: 1 });
  const problems = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  await page.goto(url);
  return { page, problems, close: () => context.close() };
}

// What the reader sees when the page is ready, as predicates run inside the page.
const READY = {
  recomputed: () => /last recompute/.test(document.getElementById('engine')?.textContent ?? ''),
  glove: () => /GloVe 6B/.test(document.getElementById('vectors-status')?.textContent ?? '') &&
    /d = 100\)/.test(document.getElementById('engine')?.textContent ?? ''),
  // Every lane with a trained model has loaded it and scored the words (its strip is ready).
  trained: (schemes) => schemes.every((scheme) => {
    const box = document.querySelector(`#lanes [data-scheme="${scheme}"] .trained-box`);
    return box?.dataset.state === 'ready' && /^Trained model: layer/.test(box.querySelector('.trained-note')?.textContent ?? '');
  }),
  // The sentence's summary, from the analyses that run once typing pauses.
  analysed: summaryAnalysed,
};

/** The lanes of the default link, each with a shipped trained model. */
export const DEFAULT_LANES = ['additive', 'concatenated', 'rotary'];

/**
 * Waits until the page has computed with GloVe (d = 100), when `trained` names lanes until those
 * lanes show their trained models, and with `analyses` until the summary has its sentences; a
 * timeout names the stage that never came.
 */
export async function waitForLab(page, { glove = true, trained = [], analyses = false, timeout = 30000 } = {}) {
  const stages = [['the first recompute', READY.recomputed], ...(glove ? [['GloVe', READY.glove]] : []),
    ...(trained.length ? [[`trained heads in ${trained.join(', ')}`, READY.trained]] : []),
    ...(analyses ? [['the summary of the analyses', READY.analysed]] : [])];
  for (const [name, predicate] of stages) {
    await page.waitForFunction(predicate, { timeout, polling: 100 }, trained).catch((error) => {
      throw new Error(`the page never showed ${name}: ${error.message}`);
    });
  }
}

/** Replaces a text field's whole value by typing, as a reader does (Ctrl+A: triple-click selects one line in Firefox). */
export async function retype(page, field, text) {
  await field.focus();
  await page.keyboard.down('Control');
  await page.keyboard.press('a');
  await page.keyboard.up('Control');
  await page.keyboard.press('Backspace');
  await page.keyboard.type(text);
}
