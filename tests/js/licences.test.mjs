// Bundled code ships with its licence: the build reads the npm packages inside each
// bundle from esbuild's metafile (scripts/bundled-licences.mjs) and copies each one's licence into
// dist/licences/ (from there into the release folder and the tarball: tests/js/package.test.mjs).
// Checked here: the metafile reading itself, a package without a licence stopping the build, every
// package the web/ sources import by name being listed with its licence text, the element's
// banner naming what it carries, and the data's licences beside the data. Needs a built dist/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundledPackageDirs, shipLicences } from '../../scripts/bundled-licences.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DIST = join(ROOT, 'dist');
const shipped = JSON.parse(await readFile(join(DIST, 'licences/packages.json'), 'utf8'));

test('the metafile reading finds each package folder once, scoped and nested ones included', () => {
  const metafile = { inputs: {
    'web/figures/colour.js': {}, 'node_modules/d3-array/src/max.js': {}, 'node_modules/d3-array/src/min.js': {},
    'node_modules/@scope/pkg/index.js': {}, 'node_modules/a/node_modules/b/lib/c.js': {}, 'posenc:posenc:cores': {},
  } };
  assert.deepEqual(bundledPackageDirs(metafile, '/r'), [
    '/r/node_modules/@scope/pkg', '/r/node_modules/a/node_modules/b', '/r/node_modules/d3-array',
  ]);
});

test('a bundled package without a licence file stops the build, naming it', async () => {
  const root = await mkdtemp(join(tmpdir(), 'posenc-licences-'));
  try {
    for (const [name, licence] of [['has-licence', 'ISC text'], ['no-licence', null]]) {
      await mkdir(join(root, 'node_modules', name), { recursive: true });
      await writeFile(join(root, 'node_modules', name, 'package.json'), JSON.stringify({ name, version: '1.0.0', license: 'ISC' }));
      if (licence) await writeFile(join(root, 'node_modules', name, 'LICENSE'), licence);
    }
    const out = join(root, 'out');
    const one = { inputs: { 'node_modules/has-licence/index.js': {} } };
    assert.deepEqual(await shipLicences(one, root, out, [join(out, 'a.js')]), [{ name: 'has-licence', version: '1.0.0', licence: 'ISC' }]);
    assert.equal(await readFile(join(out, 'licences/has-licence.txt'), 'utf8'), 'ISC text');
    const both = { inputs: { ...one.inputs, 'node_modules/no-licence/index.js': {} } };
    await assert.rejects(shipLicences(both, root, out, [join(out, 'b.js')]), /no-licence is bundled but has no LICENSE file/);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test('dist/licences/ holds every bundled package\'s own licence text, and nothing else', async () => {
  assert.ok(shipped.length > 0, 'no bundled package recorded');
  for (const { name, version, file, bundledIn } of shipped) {
    const dir = join(ROOT, 'node_modules', name);
    const own = (await readdir(dir)).find((f) => /^(licen[cs]e|copying)(\.(md|txt))?$/i.test(f));
    assert.ok(own, `${name}: no licence in node_modules`);
    assert.equal(await readFile(join(DIST, 'licences', file), 'utf8'), await readFile(join(dir, own), 'utf8'), name);
    assert.equal(version, JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')).version, name);
    assert.ok(bundledIn.length > 0 && bundledIn.every((f) => existsSync(join(DIST, f))), `${name}: ${bundledIn}`);
  }
  const files = (await readdir(join(DIST, 'licences'))).sort();
  assert.deepEqual(files, ['packages.json', ...shipped.map((r) => r.file)].sort());
});

test('every package the web/ sources import by name is among them', async () => {
  // Independent of the metafile: the bare specifiers written in the sources.
  const imported = new Set();
  for (const entry of await readdir(join(ROOT, 'web'), { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.m?js$/.test(entry.name)) continue;
    const text = await readFile(join(entry.parentPath ?? entry.path, entry.name), 'utf8');
    for (const [, spec] of text.matchAll(/^\s*(?:import|export)\b[^'"]*?\bfrom\s*['"](?![./]|[\w-]+:)([^'"]+)['"]/gm)) {
      imported.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]);
    }
  }
  assert.ok(imported.size > 0, 'the sources import no package by name: this test checks nothing');
  for (const name of imported) assert.ok(shipped.some((r) => r.name === name), `${name} is imported by web/ but has no licence in dist/licences/`);
});

test('the element\'s banner names every package inside it, with its licence', async () => {
  for (const file of ['posenc-lab.js', 'posenc-lab.mjs', 'anywidget.mjs']) {
    const head = (await readFile(join(DIST, file), 'utf8')).slice(0, 1000);
    const banner = /^\/\*[^]*?\*\//.exec(head)?.[0] ?? '';
    const inside = shipped.filter((r) => r.bundledIn.includes(file));
    assert.ok(inside.length > 0, `${file}: no package recorded inside`);
    for (const { name, version, licence } of inside) assert.ok(banner.includes(`${name} ${version} (${licence} licence)`), `${file}: ${name}`);
    assert.match(banner, /licences\/ beside this file/);
  }
});

test('the data\'s licences sit beside the data', async () => {
  assert.match(await readFile(join(DIST, 'glove-6b-100d-20k.LICENCE.txt'), 'utf8'), /PDDL/);
  assert.match(await readFile(join(DIST, 'moby-dick.LICENCE.txt'), 'utf8'), /public domain/);
  if (existsSync(join(DIST, 'models'))) assert.match(await readFile(join(DIST, 'models/LICENCE.txt'), 'utf8'), /PDDL[^]*public domain/);
});
