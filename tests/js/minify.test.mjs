// The page's scripts and stylesheets ship minified with source maps (scripts/minify-page.mjs, the
// bundlers): minifyOne on small modules — what must survive (imports, exports, worker and asset
// URLs, dynamic imports, licence comments, a classic script's globals) and that the code still
// runs — and then the built dist/: every script and stylesheet is smaller than its source in web/,
// ends by naming its map, and its map holds that source's text under its path in web/.
// Needs a built dist/ (./scripts/build) for the second half.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { minifyOne } from '../../scripts/minify-page.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DIST = join(ROOT, 'dist');

const MODULE = `/*! Example licence: keep this with the code. */
import { helper } from './helper.js';
export { helper };
export const CORE_URL = new URL('./posenc-core-simd.wasm', import.meta.url);
export function startWorker() {
  const worker = new Worker(new URL('./byo-worker.js', import.meta.url), { type: 'module' });
  return worker;
}
export const lazyPanel = () => import('./byo-vectors.js');
`;

test('a module keeps its imports, exports, worker and asset URLs, dynamic imports and licence comment', async () => {
  const { code, map } = await minifyOne(esbuild, MODULE, 'example.js', '../web/example.js');
  assert.ok(code.length < MODULE.length, `${code.length} ≥ ${MODULE.length}`);
  for (const kept of ['"./helper.js"', 'new URL("./posenc-core-simd.wasm",import.meta.url)', 'new URL("./byo-worker.js",import.meta.url)',
    '{type:"module"}', 'import("./byo-vectors.js")', '/*! Example licence: keep this with the code. */']) {
    assert.ok(code.includes(kept), `${kept} is missing from ${code}`);
  }
  // The export names are the module's interface: each is still exported under its name.
  for (const name of ['helper', 'CORE_URL', 'startWorker', 'lazyPanel']) assert.match(code, new RegExp(`\\b(as )?${name}\\b[,}]`), name);
  assert.ok(code.endsWith('//# sourceMappingURL=example.js.map\n'));
  const parsed = JSON.parse(map);
  assert.deepEqual(parsed.sources, ['../web/example.js']);
  assert.deepEqual(parsed.sourcesContent, [MODULE]);
  assert.ok(parsed.mappings.length > 0);
});

test("a bundler's directive in an import() survives (webpack must not bundle node:fs)", async () => {
  const source = `export const readBytes = async (url) => (await import(/* webpackIgnore: true */ 'node:fs/promises')).readFile(url);\n`;
  const { code } = await minifyOne(esbuild, source, 'cores.mjs', 'cores.mjs');
  assert.match(code, /import\(\s*\/\* webpackIgnore: true \*\/\s*"node:fs\/promises"\s*\)/);
});

test('minified code computes what the source did', async () => {
  const source = `export function mean(values) {
  let total = 0;
  for (const value of values) total += value;
  return total / values.length;
}
export const LABEL = 'mean of ' + [1, 2, 3].join(', ');
`;
  const { code } = await minifyOne(esbuild, source, 'mean.js', 'mean.js');
  const minified = await import(`data:text/javascript,${encodeURIComponent(code)}`);
  const original = await import(`data:text/javascript,${encodeURIComponent(source)}`);
  assert.equal(minified.mean([1, 2, 4, 9]), original.mean([1, 2, 4, 9]));
  assert.equal(minified.LABEL, original.LABEL);
});

test("a classic script's top-level names stay global; a stylesheet is minified with its own comment form", async () => {
  const classic = `// Runs before the page's modules.\nvar embedMode = new URLSearchParams(location.search).get('embed') === '1';\nfunction markEmbed(root) {\n  if (embedMode) root.classList.add('embed');\n}\nmarkEmbed(document.documentElement);\n`;
  const { code } = await minifyOne(esbuild, classic, 'embed-mode.js', 'embed-mode.js');
  assert.match(code, /\bvar embedMode\b/);
  assert.match(code, /\bfunction markEmbed\(/);
  assert.doesNotMatch(code, /Runs before/);

  const css = '/* The lanes. */\n.lane {\n  display: grid;\n  gap: 0.5rem;\n}\n';
  const sheet = await minifyOne(esbuild, css, 'lab.css', '../web/lab.css');
  assert.ok(sheet.code.startsWith('.lane{display:grid;gap:.5rem}'), sheet.code);
  assert.ok(sheet.code.endsWith('/*# sourceMappingURL=lab.css.map */\n'));
  assert.deepEqual(JSON.parse(sheet.map).sourcesContent, [css]);
});

/** dist/'s scripts and stylesheets (relative paths), but emcc's glue, minified by emcc. */
async function distSources() {
  const files = [];
  for (const entry of await readdir(DIST, { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && /\.(m?js|css)$/.test(entry.name) && !/^posenc-(core|models)-(simd|scalar)\.mjs$/.test(entry.name)) {
      files.push(relative(DIST, join(entry.parentPath ?? entry.path, entry.name)));
    }
  }
  return files.sort();
}

test("every script and stylesheet in dist/ names its map, which holds its source's text from web/", async () => {
  const files = await distSources();
  assert.ok(files.length > 50, `only ${files.length} scripts and stylesheets in dist/`);
  let fromWeb = 0;
  for (const file of files) {
    const path = join(DIST, file);
    const [code, mapText] = await Promise.all([readFile(path, 'utf8'), readFile(`${path}.map`, 'utf8').catch(() => null)]);
    assert.ok(mapText, `${file} has no map beside it`);
    const name = file.slice(file.lastIndexOf('/') + 1);
    const comment = file.endsWith('.css') ? `/*# sourceMappingURL=${name}.map */` : `//# sourceMappingURL=${name}.map`;
    assert.equal(code.trimEnd().split('\n').at(-1), comment, `${file} does not end by naming its map`);
    const map = JSON.parse(mapText);
    assert.equal(map.sources.length, map.sourcesContent.length, file);
    // The file's own source, where it has one in web/ (generated modules and bundle-only entries aside).
    const web = join(ROOT, 'web', file);
    const original = await readFile(web, 'utf8').catch(() => null);
    if (original == null) continue;
    fromWeb++;
    const index = map.sources.findIndex((source) => resolve(dirname(path), source) === web);
    assert.ok(index >= 0, `${file}.map does not name web/${file} (${map.sources.join(', ')})`);
    assert.equal(map.sourcesContent[index], original, `${file}.map holds another text than web/${file}`);
    // A bundle carries its packages' code too; a file minified alone is smaller than its source.
    if (map.sources.length === 1) assert.ok(Buffer.byteLength(code) < Buffer.byteLength(original), `${file} is not smaller than web/${file}`);
  }
  assert.ok(fromWeb > 50, `only ${fromWeb} of dist/'s files come from web/`);
});
