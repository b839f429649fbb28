// What every browser test needs: dist/ served on loopback and Debian's Chromium, headless, with
// the flags that keep it off the (closed) network.
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serve } from '../../scripts/serve.mjs';

export const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));

// Root needs --no-sandbox; the rest stop Chromium's background connections (NOTES.md).
export const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
  '--disable-sync', '--no-first-run', '--disable-quic',
];

export function launchChromium(extraArgs = []) {
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: [...CHROMIUM_ARGS, ...extraArgs] });
}

/** Serves dir (default dist/) on a free loopback port → { server, baseUrl }; `requires` must exist in it. */
export async function serveDir(dir = DIST, { requires = 'index.html' } = {}) {
  await access(join(dir, requires)).catch(() => {
    throw new Error(`${join(dir, requires)} is missing: run ./scripts/build first`);
  });
  const server = await serve(dir, 0);
  return { server, baseUrl: `http://127.0.0.1:${server.address().port}/` };
}

export function closeServer(server) {
  return new Promise((done) => (server ? server.close(done) : done()));
}
