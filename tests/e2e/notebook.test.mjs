// posenc_lab.show() in a real notebook: Debian's Jupyter Notebook (jupyter-notebook 6.4, with
// python3-ipykernel; ./scripts/setup installs both) serves a notebook whose one cell shows a model,
// headless Chromium runs the cell as a reader would, and the element in the output's iframe must
// draw every layer × head, the frame must take the height its document reports (the output's
// script ran), and nothing may be fetched beyond the notebook server. Saved and reopened, the
// notebook is trusted and draws it again. Needs a built dist/ (./scripts/build).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { access, constants, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DIST, launchChromium } from './browser.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const JUPYTER = '/usr/bin/jupyter-notebook';
const MAPS = 2 * 2; // the cell's model: 2 layers × 2 heads
// The cell: a seeded character model (the twin's initialisation, no training: the notebook's
// rendering is what is tested here; tests/e2e/show.test.mjs checks a twin-trained model's weights).
const CELL = `from posenc_lab import ModelConfig, PosencModel, show
model = PosencModel(ModelConfig(scheme="alibi", vocab=8, d=8, layers=2, heads=2, context=16))
model.vocab = list(" acehmst")
show(model, "the cat")`;

let dir;
let server; // the notebook server (a child process of this test, ended by its pid)
let baseUrl;
let browser;

/** A free port on 127.0.0.1 (the notebook server takes a number, not 0). */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => { const { port } = probe.address(); probe.close(() => resolve(port)); });
  });
}

/** Resolves once the server logs that it is running; rejects if it exits first. */
function started(child) {
  return new Promise((resolve, reject) => {
    let log = '';
    const read = (chunk) => { log += chunk; if (/is running at/.test(log)) resolve(); };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.on('exit', (code) => reject(new Error(`jupyter-notebook exited (${code}) before serving:\n${log.slice(-2000)}`)));
  });
}

before(async () => {
  await access(JUPYTER, constants.X_OK).catch(() => {
    throw new Error(`${JUPYTER} is missing: install Debian's jupyter-notebook and python3-ipykernel (./scripts/setup installs them)`);
  });
  await access(join(DIST, 'posenc-lab-standalone.js')).catch(() => { throw new Error('dist/ is missing: run ./scripts/build first'); });
  dir = await mkdtemp(join(tmpdir(), 'posenc-notebook-'));
  const notebook = {
    cells: [{ cell_type: 'code', execution_count: null, metadata: {}, outputs: [], source: CELL }],
    metadata: { kernelspec: { name: 'python3', display_name: 'Python 3', language: 'python' } },
    nbformat: 4,
    nbformat_minor: 5,
  };
  notebook.cells[0].id = 'show';
  await writeFile(join(dir, 'show.ipynb'), JSON.stringify(notebook));
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}/`;
  // The kernel inherits the package's path and the built element's folder.
  server = spawn(JUPYTER, ['--no-browser', '--ip=127.0.0.1', `--port=${port}`, '--NotebookApp.token=', '--NotebookApp.password=',
    '--allow-root', `--notebook-dir=${dir}`, `--NotebookApp.nbserver_extensions={}`],
  { env: { ...process.env, PYTHONPATH: join(ROOT, 'python'), POSENC_LAB_DIST: DIST, JUPYTER_DATA_DIR: join(dir, 'data'), JUPYTER_RUNTIME_DIR: join(dir, 'runtime') } });
  await started(server);
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  // SIGTERM: the server shuts its kernels down, then exits.
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server.on('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** The element's maps in the output's iframe once drawn → { maps, status, frameHeight }. */
async function drawnOutput(page) {
  const frameElement = await page.waitForSelector('iframe.posenc-lab-show', { timeout: 120000 });
  await frameElement.scrollIntoViewIfNeeded();
  const frame = await frameElement.contentFrame();
  await frame.waitForFunction((count) => document.querySelector('posenc-lab')?.shadowRoot
    ?.querySelectorAll('[data-figure="attention"] canvas.map-canvas').length === count, MAPS, { timeout: 60000 });
  const status = await frame.evaluate(() => document.querySelector('posenc-lab').shadowRoot.querySelector('.pl-status').textContent);
  const inner = await frame.evaluate(() => document.documentElement.scrollHeight);
  const frameHeight = await frameElement.evaluate((f) => f.getBoundingClientRect().height);
  return { status, inner, frameHeight };
}

test('show() in Jupyter Notebook: the cell draws the element with every head, and again once saved and reopened', async () => {
  const context = await browser.newContext({ viewport: { width: 1200, height: 1000 } });
  const elsewhere = [];
  context.on('request', (request) => { if (!/^(data|about|blob):/.test(request.url()) && !request.url().startsWith(baseUrl)) elsewhere.push(request.url()); });
  try {
    const page = await context.newPage();
    await page.goto(`${baseUrl}notebooks/show.ipynb`);
    await page.waitForFunction(() => window.Jupyter?.notebook?.kernel?.is_connected?.(), null, { timeout: 60000 });
    await page.evaluate(() => Jupyter.notebook.execute_all_cells());
    const shown = await drawnOutput(page);
    assert.match(shown.status, /^7 tokens, alibi model of 2 layers × 2 heads/);
    // The output's script ran: the frame is as tall as its document (within a pixel of rounding).
    assert.ok(Math.abs(shown.frameHeight - shown.inner) <= 1, JSON.stringify(shown));
    await page.evaluate(() => Jupyter.notebook.save_notebook());
    await page.waitForFunction(() => !Jupyter.notebook.dirty, null, { timeout: 30000 });
    // Reopened: the notebook's signature makes its saved output trusted, so the frame is kept.
    const again = await context.newPage();
    await again.goto(`${baseUrl}notebooks/show.ipynb`);
    await again.waitForFunction(() => window.Jupyter?.notebook?._fully_loaded, null, { timeout: 60000 });
    assert.equal(await again.evaluate(() => Jupyter.notebook.trusted), true);
    const reopened = await drawnOutput(again);
    assert.match(reopened.status, /^7 tokens/);
    assert.deepEqual(elsewhere, [], 'nothing fetched from beyond the notebook server');
  } finally {
    await context.close();
  }
});
