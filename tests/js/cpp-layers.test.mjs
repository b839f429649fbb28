// src/'s layers: no C++ file includes from a layer above its own folder's, and no two folders
// include each other, even through others in the same layer. Every `#include "…"` line under src/
// is read and resolved against src/ (the one include root the build gives the core). A test that
// passed on today's tree but could not fail would be a defect, so the checker is also run on
// planted files: an encoding including attention (upward), and compare and analysis including
// each other (a cycle inside one layer), both of which it must reject.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SRC = join(ROOT, 'src');

// The one home of the core's layer order, lowest first; docs/ARCHITECTURE.md shows it and the last
// test holds the two together. A folder may include from its own layer or any layer below, never
// above: the shared helpers (base) under word vectors and the tokenizer, under the encodings
// (phases, tables, the scheme table), under the attention kernels and products, under the
// measurements built from them (the per-sentence lanes of compare, the analyses and the one-call
// keystroke), under the trainable model, under the embind bindings, the only Emscripten code.
// Keeping the arrows one way lets each layer be tested, benchmarked and fuzzed without the ones
// above it, and keeps the model's wasm core free of the page's analyses.
export const LAYERS = [
  { name: 'base', folders: ['base'] },
  { name: 'vectors', folders: ['vectors'] },
  { name: 'encodings', folders: ['encodings'] },
  { name: 'attention', folders: ['attention'] },
  { name: 'analysis and compare', folders: ['analysis', 'compare'] },
  { name: 'model', folders: ['model'] },
  { name: 'bindings', folders: ['bindings'] },
];

const folderOf = (path) => path.split('/')[0];

/** folder under src/ → layer index, or undefined for a folder outside the table. */
function layerOf(folder) {
  const index = LAYERS.findIndex(({ folders }) => folders.includes(folder));
  return index < 0 ? undefined : index;
}

/** The quoted includes of a C++ text, outside line comments: `#include "a/b.hpp"` → 'a/b.hpp'. */
export function includesOf(text) {
  return [...text.matchAll(/^[ \t]*#[ \t]*include[ \t]*"([^"]+)"/gm)].map((m) => m[1]);
}

/** [{ file, include, from, to }] for every include in `files` ([path under src/, text]) that points up a layer. */
export function upwardIncludes(files) {
  const wrong = [];
  for (const [file, text] of files) {
    const from = layerOf(folderOf(file));
    for (const include of includesOf(text)) {
      const to = layerOf(folderOf(include));
      if (from !== undefined && to !== undefined && to > from) {
        wrong.push({ file, include, from: LAYERS[from].name, to: LAYERS[to].name });
      }
    }
  }
  return wrong;
}

/** The cycles of the folder graph (an edge A → B when a file in A includes one in B), each as the
 *  folders on it in order, starting from the alphabetically first; [] when the graph is acyclic. */
export function folderCycles(files) {
  const edges = new Map();
  for (const [file, text] of files) {
    const from = folderOf(file);
    if (!edges.has(from)) edges.set(from, new Set());
    for (const include of includesOf(text)) {
      const to = folderOf(include);
      if (to !== from && include.includes('/')) edges.get(from).add(to);
    }
  }
  // Depth-first search; a back edge to a folder on the current path closes a cycle.
  const cycles = new Set();
  const state = new Map(); // folder → 'open' (on the path) | 'done'
  const path = [];
  const visit = (folder) => {
    state.set(folder, 'open');
    path.push(folder);
    for (const next of [...(edges.get(folder) ?? [])].sort()) {
      if (state.get(next) === 'open') {
        const cycle = path.slice(path.indexOf(next));
        const first = cycle.indexOf([...cycle].sort()[0]);
        cycles.add([...cycle.slice(first), ...cycle.slice(0, first)].join(' → '));
      } else if (!state.has(next)) {
        visit(next);
      }
    }
    path.pop();
    state.set(folder, 'done');
  };
  for (const folder of [...edges.keys()].sort()) if (!state.has(folder)) visit(folder);
  return [...cycles].sort();
}

function srcFiles(dir = SRC) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return srcFiles(path);
    return /\.(c|h)pp$/.test(entry.name) ? [[relative(SRC, path).split('\\').join('/'), readFileSync(path, 'utf8')]] : [];
  });
}

describe('src/ layers', () => {
  const files = srcFiles();

  it('every file under src/ sits in a folder of a layer', () => {
    assert.ok(files.length > 60, `only ${files.length} files found under ${SRC}`);
    const loose = files.map(([file]) => file).filter((file) => !file.includes('/') || layerOf(folderOf(file)) === undefined);
    assert.deepEqual(loose, [], 'add these folders to LAYERS in tests/js/cpp-layers.test.mjs');
  });

  it('every quoted include names a file under src/ by its folder', () => {
    const all = files.flatMap(([file, text]) => includesOf(text).map((include) => [file, include]));
    assert.ok(all.length > 150, `only ${all.length} includes found: is the pattern still right?`);
    const unresolved = all.filter(([, include]) => !include.includes('/') || !existsSync(join(SRC, include)));
    assert.deepEqual(unresolved.map(([file, include]) => `${file}: "${include}"`), []);
  });

  it('no file includes from a layer above its own', () => {
    const wrong = upwardIncludes(files).map(({ file, include, from, to }) => `${file} (${from}) includes ${include} (${to})`);
    assert.deepEqual(wrong, []);
  });

  it('no two folders include each other, directly or through others', () => {
    assert.deepEqual(folderCycles(files), []);
  });

  it('rejects an upward include (an encoding including the attention kernels)', () => {
    const planted = [['encodings/encodings.cpp', '#include "encodings/encodings.hpp"\n#include "attention/attention.hpp"\n']];
    assert.deepEqual(upwardIncludes(planted), [
      { file: 'encodings/encodings.cpp', include: 'attention/attention.hpp', from: 'encodings', to: 'attention' },
    ]);
    const amongReal = [...files.filter(([file]) => file !== planted[0][0]), ...planted];
    assert.equal(upwardIncludes(amongReal).length, 1, 'found among the real files');
  });

  it('rejects a cycle between folders of one layer, and one through a third folder', () => {
    const planted = [
      ['compare/compare.cpp', '#include "compare/compare.hpp"\n#include "analysis/analyses.hpp"\n'],
      ['analysis/analysis.hpp', '#include "compare/compare.hpp"\n'],
    ];
    assert.deepEqual(upwardIncludes(planted), [], 'one layer: not upward');
    assert.deepEqual(folderCycles(planted), ['analysis → compare']);
    const through = [['a/x.hpp', '#include "b/y.hpp"'], ['b/y.hpp', '#include "c/z.hpp"'], ['c/z.hpp', '#include "a/x.hpp"']];
    assert.deepEqual(folderCycles(through), ['a → b → c']);
    assert.deepEqual(folderCycles([...files, ...planted.slice(0, 1)]), ['analysis → compare'], 'found among the real files');
  });

  it("docs/ARCHITECTURE.md states this order and names every folder of the table", () => {
    const doc = readFileSync(join(ROOT, 'docs/ARCHITECTURE.md'), 'utf8');
    const stated = /In\s+`src\/`\s+the\s+order\s+is\s+([^.]+)\./.exec(doc);
    assert.ok(stated, 'docs/ARCHITECTURE.md says "In `src/` the order is …."');
    const order = stated[1].split('→').map((part) => part.trim().replace(/`/g, ''));
    assert.deepEqual(order, LAYERS.map(({ folders }) => folders.join(' and ')));
    for (const { folders } of LAYERS) for (const folder of folders) assert.ok(doc.includes(`\`src/${folder}/\``), `the layer table names src/${folder}/`);
  });
});
