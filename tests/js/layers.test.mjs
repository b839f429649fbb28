// web/'s layers: no file imports from a layer above its own. Every import in web/ is read (static
// `import … from`, `export … from`, `import('…')` with a literal, and `new URL('…',
// import.meta.url)`, which is how workers and stylesheets are loaded) and resolved to a file.
// A test that passed on today's tree but could not fail would be a defect, so the checker is also
// run on a made-up pipeline file importing a panel, which it must reject.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const WEB = resolve(dirname(fileURLToPath(import.meta.url)), '../../web');

// The one home of the layer order, lowest first. A file may import from its own layer or any layer
// below it, never above: data flows from the JS API (which alone calls the core) through the
// pipeline (what a keystroke computes, and how schemes are named and drawn), the results store's
// statistics and records (read by the scripts too, so they import nothing above them), the figure
// toolkit, the panels built on it, and the three things a reader sees (page, element, Train section).
// Keeping the arrows one way is what lets the element bundle take only what it shows, and lets each
// layer be tested without the ones above it. Prefixes are paths under web/; the longest match wins.
const LAYERS = [
  { name: 'API', paths: ['posenc.mjs', 'options.mjs', 'heap.mjs', 'buffer-room.mjs', 'assets.mjs', 'vectors.mjs', 'comparison.mjs', 'model.mjs', 'checks.mjs', 'cores.mjs', 'scheme-table.mjs', 'packed-weights.mjs', 'model-file.mjs'] },
  { name: 'pipeline', paths: ['pipeline/', 'formats/'] },
  { name: 'results', paths: ['results/'] },
  { name: 'figures', paths: ['figures/', 'styles/'] },
  { name: 'panels', paths: ['panels/'] },
  { name: 'page, element, train', paths: ['page/', 'element/', 'train/', 'index.html', 'embed.html'] },
];

/** path under web/ → layer index, or undefined for files outside web/'s layers (data, package.json). */
function layerOf(path) {
  let best;
  let bestLength = -1;
  LAYERS.forEach(({ paths }, index) => {
    for (const prefix of paths) {
      if ((path === prefix || path.startsWith(prefix)) && prefix.length > bestLength) { best = index; bestLength = prefix.length; }
    }
  });
  return best;
}

const IMPORT_PATTERNS = [
  /\bimport\s[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g,     // import x from '…' (also multi-line)
  /\bexport\s[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g,     // export { x } from '…'
  /\bimport\s*['"]([^'"]+)['"]/g,                     // import '…' (side effects)
  /\bimport\(\s*['"`]([^'"`$]+)['"`]\s*\)/g,          // import('…') with a literal
  /new URL\(\s*['"]([^'"]+)['"]\s*,\s*import\.meta\.url/g, // workers, stylesheets
];

/** The relative specifiers a module's text imports (package names and bundle-only names skipped). */
export function importsOf(text) {
  const found = new Set();
  for (const pattern of IMPORT_PATTERNS) for (const match of text.matchAll(pattern)) found.add(match[1]);
  return [...found].filter((spec) => spec.startsWith('.'));
}

/** [{ file, spec, from, to }] for every import in `files` (path → text) that points up a layer. */
export function upwardImports(files) {
  const wrong = [];
  for (const [file, text] of files) {
    const from = layerOf(file);
    if (from === undefined) continue;
    for (const spec of importsOf(text)) {
      const target = relative(WEB, resolve(WEB, dirname(file), spec)).split('\\').join('/');
      const to = layerOf(target);
      if (to !== undefined && to > from) wrong.push({ file, spec, from: LAYERS[from].name, to: LAYERS[to].name });
    }
  }
  return wrong;
}

function webFiles(dir = WEB) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return webFiles(path);
    return /\.(m?js|html)$/.test(entry.name) ? [[relative(WEB, path).split('\\').join('/'), readFileSync(path, 'utf8')]] : [];
  });
}

describe('web/ layers', () => {
  const files = webFiles();

  it('every module in web/ belongs to a layer', () => {
    const loose = files.map(([file]) => file).filter((file) => layerOf(file) === undefined);
    assert.deepEqual(loose, [], 'add these to LAYERS in tests/js/layers.test.mjs');
  });

  it('reads imports of every form the tree uses', () => {
    assert.ok(files.length > 40, `only ${files.length} files found under ${WEB}`);
    const all = files.flatMap(([, text]) => importsOf(text));
    assert.ok(all.some((s) => s.endsWith('figures/heatmap-figure.js')), 'static imports');
    assert.ok(all.some((s) => s.endsWith('worker.js')), 'new URL(…, import.meta.url) workers');
    assert.deepEqual(importsOf("import {\n  a,\n  b,\n} from '../panels/x.js';\nconst m = await import('./y.js');"), ['../panels/x.js', './y.js']);
  });

  it('no file imports from a layer above its own', () => {
    const wrong = upwardImports(files).map(({ file, spec, from, to }) => `${file} (${from}) imports ${spec} (${to})`);
    assert.deepEqual(wrong, []);
  });

  it('rejects an upward import (a pipeline file importing a panel, as prose.js once did)', () => {
    const wrong = upwardImports([['pipeline/prose.js', "import { SCHEME_NAMES, slopeText } from '../panels/lanes.js';"]]);
    assert.deepEqual(wrong, [{ file: 'pipeline/prose.js', spec: '../panels/lanes.js', from: 'pipeline', to: 'panels' }]);
  });

  it('rejects a results module importing a panel (the scripts read web/results/ without the panels)', () => {
    const wrong = upwardImports([['results/report.js', "import { createPositionChart } from '../panels/position-chart.js';"]]);
    assert.deepEqual(wrong, [{ file: 'results/report.js', spec: '../panels/position-chart.js', from: 'results', to: 'panels' }]);
  });
});
