// One Lighthouse 12 run of a page, in a child process, against a browser that has finished starting:
// shared by bench/lighthouse.mjs (scores and metrics) and bench/lantern-tasks.mjs (the tasks its
// max potential FID counts).
//
// Lighthouse runs in a child process started with an asynchronous spawn: the calling process serves
// the page, and a synchronous child-process call would block its event loop, so the server could
// not answer and the run would hang.
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { launch } from 'chrome-launcher';
import { browserSettled } from './settle.mjs';
import { CHROMIUM, CHROMIUM_ARGS } from '../tests/e2e/browser.mjs';

const LIGHTHOUSE = fileURLToPath(new URL('../node_modules/.bin/lighthouse', import.meta.url));

export const PRESETS = [
  { name: 'mobile', args: [] },  // Lighthouse's default: 4× CPU throttle, slow 4G, a phone's screen
  { name: 'desktop', args: ['--preset=desktop'] },
];

// A first paint seen this late was held (bench/lighthouse.mjs says how): Chromium's one frame a
// second puts it at least a second after navigation start (observedFcp: ms from it, in the trace).
export const HELD_PAINT_MS = 1000;
export const paintHeld = (observedFcp) => observedFcp != null && observedFcp >= HELD_PAINT_MS;
export const heldRuns = (runs) => runs.filter((r) => paintHeld(r.observedFcp)).length;

// Lighthouse runs in a browser that has finished starting (settle.mjs: Chromium's own start-up
// work would otherwise share the cores with the page):
// launched here with Lighthouse's own launcher and flags, then handed to Lighthouse by its port.
// preset: one of PRESETS; extraArgs: more of Lighthouse's own flags.
async function runLighthouse(url, preset, outFile, extraArgs) {
  const chrome = await launch({ chromePath: CHROMIUM, chromeFlags: ['--headless=new', ...CHROMIUM_ARGS], logLevel: 'silent' });
  try {
    console.error(`lighthouse: the browser settled ${(await browserSettled() / 1000).toFixed(1)} s after it started`);
    const argv = [url, ...preset.args, ...extraArgs, `--port=${chrome.port}`, '--output=json', `--output-path=${outFile}`, '--quiet'];
    await new Promise((done, fail) => {
      const child = spawn(process.execPath, [LIGHTHOUSE, ...argv], { stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (chunk) => { stderr += chunk; });
      child.on('error', fail);
      child.on('exit', (code) => (code === 0 ? done() : fail(new Error(`lighthouse (${preset.name}) exited with ${code}: ${stderr.slice(-2000)}`))));
    });
  } finally {
    chrome.kill();
  }
}

// On a loaded machine Lighthouse sometimes gives up waiting for the browser (a DevTools protocol
// timeout); such a run is repeated, up to RETRIES times, and the retry is printed.
const RETRIES = 2;
export async function runWithRetries(url, preset, file, extraArgs = []) {
  for (let attempt = 0; ; attempt++) {
    try {
      await runLighthouse(url, preset, file, extraArgs);
      const lhr = JSON.parse(await readFile(file, 'utf8'));
      if (lhr.runtimeError) throw new Error(`lighthouse (${preset.name}): ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
      return lhr;
    } catch (error) {
      if (attempt >= RETRIES) throw error;
      console.error(`lighthouse: ${preset.name}: ${error.message.split('\n')[0]}; running it again`);
    }
  }
}
