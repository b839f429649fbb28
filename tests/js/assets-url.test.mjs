// load({ assetsUrl }) and lab.loadVectors(url) in Node: the data files come from the folder named
// (with or without its trailing slash), a missing file is refused with its URL, a URL of a vector
// file loads it, and bad values are refused by name. Over http with and without CORS, in
// Chromium: tests/e2e/assets.test.mjs. Needs a built dist/ (./scripts/build).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { load } from '../../dist/posenc.mjs';

const GLOVE = 'glove-6b-100d-20k.i8';
const DIST_GLOVE = new URL(`../../dist/${GLOVE}`, import.meta.url);
let folder;  // holds a copy of the GloVe file
let empty;   // holds nothing

before(async () => {
  folder = await mkdtemp(join(tmpdir(), 'posenc-assets-'));
  empty = await mkdtemp(join(tmpdir(), 'posenc-empty-'));
  await copyFile(DIST_GLOVE, join(folder, GLOVE));
});

after(async () => {
  for (const dir of [folder, empty]) if (dir) await rm(dir, { recursive: true, force: true });
});

test('GloVe comes from assetsUrl, a folder named with or without its trailing slash', async () => {
  const withSlash = await load({ simd: false, assetsUrl: pathToFileURL(`${folder}/`) });
  const withoutSlash = await load({ simd: false, assetsUrl: pathToFileURL(folder).href });
  assert.equal(withSlash, withoutSlash, 'one instance per folder');
  const beside = await load({ simd: false });
  assert.notEqual(withSlash, beside, 'another folder, another instance');
  const glove = await withSlash.loadVectors('glove');
  const reference = await beside.loadVectors('glove');
  assert.deepEqual([glove.dim, glove.size], [reference.dim, reference.size]);
  assert.deepEqual(glove.vector('king'), reference.vector('king'));
});

test('a folder without the file: loadVectors rejects with the URL it tried, and the lab stays usable', async () => {
  const lab = await load({ simd: false, assetsUrl: pathToFileURL(`${empty}/`) });
  await assert.rejects(lab.loadVectors('glove'), (error) => error.message.includes(`${pathToFileURL(empty).href}/${GLOVE}`));
  assert.equal(lab.sinusoidal(2, 4).length, 8);
});

test('loadVectors takes the URL of a vector file', async () => {
  const lab = await load({ simd: false });
  const vectors = await lab.loadVectors(new URL(pathToFileURL(join(folder, GLOVE))));
  assert.equal(vectors.dim, 100);
  assert.ok(vectors.has('queen'));
});

test('bad assetsUrl values are refused by name', () => {
  assert.throws(() => load({ assetsUrl: 42 }), { name: 'TypeError', message: /assetsUrl must be a string or a URL/ });
  assert.throws(() => load({ assetsUrl: 'http://[not a host' }), { name: 'RangeError', message: /assetsUrl must be a URL/ });
  assert.throws(() => load({ assetsUrl: '/x/', other: 1 }), { name: 'TypeError', message: /unknown option 'other'/ });
});
