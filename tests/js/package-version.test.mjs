// One version everywhere (the docs' other figures: tests/js/docs.test.mjs).
//
// package.json is the one home of the version. CMake reads it (project(VERSION) → POSENC_VERSION
// → lab.version of both cores); the element bundles import it; package-lock.json, CITATION.cff,
// the README (BibTeX, CDN lines), docs/ (lab.version example, install lines) and CHANGELOG.md
// restate it and are
// checked here. The element's own report (PosencLabElement.version) is checked in Chromium by
// tests/e2e/release.test.mjs: the bundle cannot run in Node (it needs a DOM).
// Needs a built dist/ (./scripts/build).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { load } from '../../dist/posenc.mjs';

const ROOT = new URL('../../', import.meta.url);
const read = (path) => readFile(new URL(path, ROOT), 'utf8');
const { version } = JSON.parse(await read('package.json'));
// The README and the docs that restate the version, read as one text.
const DOCS = ['README.md', 'docs/API.md', 'docs/EMBEDDING.md', 'docs/MODELS.md'];
const readDocs = async () => (await Promise.all(DOCS.map(read))).join('\n');

test('package.json has a semantic version', () => {
  assert.match(version, /^\d+\.\d+\.\d+$/);
});

test('both wasm cores report the package version as lab.version', async () => {
  for (const simd of [true, false]) {
    const lab = await load({ simd });
    assert.equal(lab.version, version, `lab.version of the ${simd ? 'SIMD' : 'scalar'} core`);
  }
});

test('the element bundles carry the package version', async () => {
  // Minified, the import becomes a string constant; finding it proves the bundle was rebuilt
  // after the last version change (an older bundle holds the older version).
  for (const file of ['posenc-lab.js', 'posenc-lab.mjs']) {
    const text = await read(`dist/${file}`);
    assert.ok(text.includes(`"${version}"`), `dist/${file} does not contain "${version}"`);
  }
});

test('package-lock.json, CITATION.cff, the README, docs/ and CHANGELOG.md state the same version', async () => {
  const lock = JSON.parse(await read('package-lock.json'));
  assert.equal(lock.version, version, 'package-lock.json version');
  assert.equal(lock.packages[''].version, version, "package-lock.json packages[''].version");

  const citation = await read('CITATION.cff');
  assert.equal(/^version:\s*"?([^"\s]+)"?\s*$/m.exec(citation)?.[1], version, 'CITATION.cff version');

  const readme = await read('README.md');
  const docs = await readDocs();
  assert.equal(/^lab\.version\s+\/\/ "([^"]+)"/m.exec(await read('docs/API.md'))?.[1], version, 'docs/API.md lab.version example');
  assert.equal(/^\s*version\s*=\s*\{([^}]+)\}/m.exec(readme)?.[1], version, 'README BibTeX version');
  for (const [, stated] of docs.matchAll(/posenc-lab(?:@|-)(\d+\.\d+\.\d+)/g)) {
    assert.equal(stated, version, `README or docs/ mention posenc-lab ${stated}`);
  }

  const changelog = await read('CHANGELOG.md');
  const released = [...changelog.matchAll(/^## \[(\d+\.\d+\.\d+)\] - \d{4}-\d{2}-\d{2}$/gm)].map((m) => m[1]);
  assert.equal(released[0], version, 'the newest CHANGELOG.md entry');
  assert.ok(changelog.includes(`[${version}]: `), `CHANGELOG.md has a link for [${version}]`);
});
