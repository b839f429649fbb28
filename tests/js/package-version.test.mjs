// One version everywhere, and the README's figures true to the built files.
//
// package.json is the one home of the version. CMake reads it (project(VERSION) → POSENC_VERSION
// → lab.version of both cores); the element bundles import it; package-lock.json, CITATION.cff,
// the README (lab.version example, BibTeX, install lines) and CHANGELOG.md restate it and are
// checked here. The element's own report (PosencLabElement.version) is checked in Chromium by
// tests/e2e/release.test.mjs: the bundle cannot run in Node (it needs a DOM).
// Needs a built dist/ (./scripts/build).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { load } from '../../dist/posenc.mjs';

const ROOT = new URL('../../', import.meta.url);
const read = (path) => readFile(new URL(path, ROOT), 'utf8');
const { version } = JSON.parse(await read('package.json'));

// The README states bundle sizes as "about N KB" rounded to whole KB. 5% lets them drift by a
// few KB between README updates (one feature's worth), and still fails a figure left stale by a
// release: the 0.1.0 figures (205 KB, 107 KB gzipped) were 10% under the 0.2.0 bundle.
const SIZE_TOLERANCE = 0.05;

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

test('package-lock.json, CITATION.cff, the README and CHANGELOG.md state the same version', async () => {
  const lock = JSON.parse(await read('package-lock.json'));
  assert.equal(lock.version, version, 'package-lock.json version');
  assert.equal(lock.packages[''].version, version, "package-lock.json packages[''].version");

  const citation = await read('CITATION.cff');
  assert.equal(/^version:\s*"?([^"\s]+)"?\s*$/m.exec(citation)?.[1], version, 'CITATION.cff version');

  const readme = await read('README.md');
  assert.equal(/^lab\.version\s+\/\/ "([^"]+)"/m.exec(readme)?.[1], version, 'README lab.version example');
  assert.equal(/^\s*version\s*=\s*\{([^}]+)\}/m.exec(readme)?.[1], version, 'README BibTeX version');
  for (const [, stated] of readme.matchAll(/posenc-lab(?:@|-)(\d+\.\d+\.\d+)/g)) {
    assert.equal(stated, version, `README mentions posenc-lab ${stated}`);
  }

  const changelog = await read('CHANGELOG.md');
  const released = [...changelog.matchAll(/^## \[(\d+\.\d+\.\d+)\] - \d{4}-\d{2}-\d{2}$/gm)].map((m) => m[1]);
  assert.equal(released[0], version, 'the newest CHANGELOG.md entry');
  assert.ok(changelog.includes(`[${version}]: `), `CHANGELOG.md has a link for [${version}]`);
});

test("the README's bundle sizes match the built files (within 5%)", async () => {
  const readme = await read('README.md');
  const stated = [...readme.matchAll(/`dist\/(posenc-lab\.m?js|posenc-models-simd\.wasm)` \(about (\d+) KB, (\d+) KB gzipped/g)];
  assert.deepEqual(stated.map((m) => m[1]).sort(), ['posenc-lab.js', 'posenc-lab.mjs', 'posenc-models-simd.wasm'],
    'a size for each element build and the lazy model core');
  for (const [, file, raw, gzip] of stated) {
    const bytes = await readFile(new URL(`dist/${file}`, ROOT));
    const actual = { raw: bytes.length / 1024, gzip: gzipSync(bytes, { level: 9 }).length / 1024 };
    for (const [what, claimed] of [['raw', Number(raw)], ['gzip', Number(gzip)]]) {
      const off = Math.abs(claimed - actual[what]) / actual[what];
      assert.ok(off <= SIZE_TOLERANCE,
        `README: ${file} ${what} "about ${claimed} KB", built ${actual[what].toFixed(1)} KB (${(off * 100).toFixed(1)}% off)`);
    }
  }
});
