// Chromium driver: serves the repository over http on a free port, opens bench/chromium.html in
// headless Chromium and runs bench/wasm-harness.mjs there (wall time: performance.now(), which
// Chromium clamps to 100 µs, so every sample is a ≥ 25 ms batch).
//   node bench/chromium-run.mjs OUT.json [kernel-filter-regexp]
import { createServer } from 'node:http';
import { readFile, writeFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { bestRoofline } from './roofline.mjs';
import { launchChromium } from '../tests/e2e/browser.mjs';

const [out = 'build-bench/chromium.json', pattern = ''] = process.argv.slice(2);
const root = new URL('../', import.meta.url);
const types = { '.mjs': 'text/javascript', '.js': 'text/javascript', '.html': 'text/html', '.wasm': 'application/wasm' };
const server = createServer(async (req, res) => {
  try {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname).replace(/^\/+/, '');
    if (path.includes('..')) throw new Error('bad path');
    const body = await readFile(new URL(path, root));
    res.writeHead(200, { 'content-type': types[extname(path)] ?? 'application/octet-stream' });
    res.end(body);
  } catch {
    res.writeHead(404);
    res.end();
  }
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${server.address().port}/`;
const browser = await launchChromium();
try {
  const page = await browser.newPage();
  page.on('console', (m) => process.stderr.write(`chromium: ${m.text()}\n`));
  await page.goto(`${base}bench/chromium.html`);
  const version = browser.version();
  // The SIMD128 peak this engine attains (bench/roofline.mjs), in wall time as the kernels are;
  // measured before and after the suite, the better kept.
  const roofline = () => page.evaluate(async () => {
    const { measureRoofline } = await import('/bench/roofline.mjs');
    return measureRoofline({ elapsedMs: (fn) => { const t0 = performance.now(); fn(); return performance.now() - t0; } });
  });
  const rooflineBefore = await roofline();
  const { results, callFlops } = await page.evaluate(async ({ pattern, best }) => {
    const { runSuite } = await import('/bench/wasm-harness.mjs');
    const { PEAK_KERNELS, rooflineVariant } = await import('/bench/roofline.mjs');
    // The peak's best shape, timed inside the suite beside the kernels reported against it.
    const interleaved = await rooflineVariant(best);
    const peers = (kernel) => (PEAK_KERNELS.includes(kernel) ? [interleaved.variant] : []);
    const cores = {};
    for (const flavour of ['simd', 'scalar']) {
      const { default: create } = await import(`/build-bench/wasm/bench-${flavour}.mjs`);
      cores[flavour] = await create({ locateFile: (f) => `/build-bench/wasm/${f}` });
    }
    const glove = new Uint8Array(await (await fetch('/data/glove-6b-100d-20k.i8')).arrayBuffer());
    const regexp = new RegExp(pattern);
    const results = await runSuite({ cores, glove, peers, filter: (k, n, d) => regexp.test(`${k}/${n}/${d}`), log: (l) => console.log(l) });
    return { results, callFlops: interleaved.callFlops };
  }, { pattern, best: { kind: rooflineBefore.kind, chains: rooflineBefore.chains } });
  const peak = { ...bestRoofline(rooflineBefore, await roofline()), callFlops };
  process.stderr.write(`chromium: roofline ${peak.gflops.toFixed(1)} GFLOP/s (${peak.kind}, ${peak.chains} chains; runs ${peak.runs.map((g) => g.toFixed(1)).join(', ')})\n`);
  await writeFile(out, JSON.stringify({ runtime: `Chromium ${version} (headless)`, roofline: peak, results }, null, 1));
} finally {
  await browser.close();
  server.close();
}
