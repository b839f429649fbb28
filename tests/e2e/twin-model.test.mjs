// A model trained by the PyTorch twin (python/posenc_lab, run here with Debian's python3-torch,
// which ./scripts/setup installs for the tests) opens in the page: dropped into the Train section
// as a reader would, it becomes a run of its own with a held-out loss on the book and its own
// learned-attention maps. The twin writes the lab's weights file; nothing converts it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { browserSuite, openLabPage } from './browser.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const suite = browserSuite();

/** Trains a tiny rotary model on the book with the twin (3 steps) → { bytes, heldOut }: the weights
 * file and the twin's own final held-out loss. */
async function twinModel() {
  const dir = await mkdtemp(join(tmpdir(), 'posenc-twin-'));
  try {
    const out = join(dir, 'twin-rotary.safetensors');
    const { stdout } = await promisify(execFile)('/usr/bin/python3', ['-m', 'posenc_lab.train', '--task', 'text', '--text', join(ROOT, 'data/moby-dick.txt'),
      '--scheme', 'rotary', '--d', '16', '--layers', '1', '--heads', '2', '--context', '32', '--steps', '3', '--batch', '4', '--out', out],
    { cwd: join(ROOT, 'python'), timeout: 120000 });
    const heldOut = Number(/final held-out loss ([\d.e-]+)/.exec(stdout)?.[1]);
    assert.ok(Number.isFinite(heldOut), `the twin's log names its held-out loss: ${stdout}`);
    return { bytes: await readFile(out), heldOut };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

test("a twin-trained weights file loads in the page's Train section, with its held-out loss and its heads", async () => {
  const { bytes, heldOut } = await twinModel();
  const { page, problems, close } = await openLabPage(suite.browser, suite.baseUrl, { hash: '#v=synthetic&t.task=book', glove: false });
  try {
    const train = page.locator('#train');
    await train.scrollIntoViewIfNeeded();
    await train.locator('#train-load').setInputFiles({ name: 'twin-rotary.safetensors', mimeType: 'application/octet-stream', buffer: bytes });
    await page.waitForFunction(() => [...document.querySelectorAll('#train .train-status-line')].some((line) => /held-out loss/.test(line.textContent)),
      null, { timeout: 60000 });
    const [line] = await train.locator('.train-status-line').allTextContents();
    assert.match(line, /loaded twin-rotary\.safetensors/);
    // The page evaluates the book's held-out windows as the twin does (the same split and windows,
    // the core's forward pass in float32 against torch's): the same loss to float rounding. The
    // status line shows 6 significant digits.
    const loss = Number(/held-out loss ([\d.e-]+)/.exec(line)[1]);
    assert.ok(Math.abs(loss - heldOut) <= 2e-5, `page ${loss}, twin ${heldOut}`);
    await train.getByRole('heading', { name: 'Learned attention' }).scrollIntoViewIfNeeded();
    await page.waitForFunction(() => document.querySelectorAll('#train canvas[aria-label^="Learned attention of layer 1, head 1"]').length === 1);
    assert.deepEqual(problems, []);
  } finally {
    await close();
  }
});
