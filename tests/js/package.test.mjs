// The npm package as a consumer meets it: publint's verdict on package.json, exactly the files
// `npm pack` ships, and the hand-written declarations in types/ — a consumer type-checks with
// `tsc --noEmit --strict` through the package's own `exports` (a scratch project whose
// node_modules/posenc-lab links to this repository, as `npm link` does), a file of wrong calls
// fails on exactly its marked lines, and the declared members match the running API's.
// Installing the packed tarball offline and running both entries: tests/e2e/release.test.mjs.
// Needs a built dist/ (./scripts/build).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import * as api from '../../dist/posenc.mjs';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURES = join(ROOT, 'tests/js/fixtures/types');
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');
const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8'));

// What a user needs and nothing else: the API and the modules it imports, both cores, both
// element builds and the notebook widget, the SVG writer, live trainer and model side they fetch on demand, the
// one-file element with the model core (the twin's show() inlines it), the GloVe file they read from beside themselves, the
// element's manifest and fallback image, the declarations (types/ and the scheme table's generated
// one), the licences of the npm packages bundled inside (dist/licences/, as the build found them:
// tests/js/licences.test.mjs) and of the data it ships (GloVe, the book, the models), and the
// documents npm always adds.
// No page, no sources, no build trees.
const BUNDLED = JSON.parse(await readFile(join(ROOT, 'dist/licences/packages.json'), 'utf8'));
const EXPECTED_FILES = [
  'dist/glove-6b-100d-20k.LICENCE.txt', 'dist/licences/packages.json', 'dist/posenc-lab.html-data.json', 'dist/web-types.json', ...BUNDLED.map((r) => `dist/licences/${r.file}`),
  'CHANGELOG.md', 'CITATION.cff', 'LICENSE', 'README.md', 'package.json',
  'dist/anywidget.mjs', 'dist/checks.mjs', 'dist/options.mjs', 'dist/heap.mjs', 'dist/buffer-room.mjs', 'dist/assets.mjs', 'dist/vectors.mjs', 'dist/comparison.mjs', 'dist/custom-elements.json', 'dist/glove-6b-100d-20k.i8', 'dist/posenc-fallback.png', 'dist/model.mjs', 'dist/model-file.mjs', 'dist/packed-weights.mjs', 'dist/posenc.mjs', 'dist/scheme-table.mjs', 'dist/scheme-table.d.mts',
  'dist/posenc-core-scalar.mjs', 'dist/posenc-core-scalar.wasm', 'dist/posenc-core-simd.mjs', 'dist/posenc-core-simd.wasm',
  'dist/posenc-lab.js', 'dist/posenc-lab.mjs', 'dist/posenc-lab-worker.mjs', 'dist/posenc-lab-core-scalar.mjs', 'dist/posenc-svg.mjs', 'dist/posenc-train-live.mjs', 'dist/posenc-model-heads.mjs', 'dist/posenc-lab-standalone.js', 'dist/cores.mjs', 'dist/moby-dick.txt',
  'dist/models/manifest.json', 'dist/models/additive.q8.safetensors', 'dist/models/concatenated.q8.safetensors', 'dist/models/rotary.q8.safetensors',
  'dist/moby-dick.LICENCE.txt', 'dist/models/LICENCE.txt', // the shipped book's and models' licences beside them
  'dist/posenc-models-scalar.mjs', 'dist/posenc-models-scalar.wasm', 'dist/posenc-models-simd.mjs', 'dist/posenc-models-simd.wasm',
  'types/anywidget.d.ts', 'types/element-script.d.ts', 'types/element.d.ts', 'types/posenc.d.ts',
];
// Every script ships minified with its source map beside it, but the Emscripten glue (emcc's own).
EXPECTED_FILES.push(...EXPECTED_FILES.filter((f) => /^dist\/[^/]+\.m?js$/.test(f) && !/^dist\/posenc-(core|models)-/.test(f)).map((f) => `${f}.map`));

let scratch;

before(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'posenc-types-'));
  await mkdir(join(scratch, 'node_modules'));
  await symlink(ROOT, join(scratch, 'node_modules', 'posenc-lab'), 'dir');
  await writeFile(join(scratch, 'package.json'), '{ "type": "module", "private": true }\n');
  for (const file of ['consumer.mts', 'wrong-calls.mts']) await copyFile(join(FIXTURES, file), join(scratch, file));
});

after(async () => {
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

test('publint finds nothing to report, suggestions included', async () => {
  const { messages, pkg: manifest } = await publint({ pkgDir: ROOT, level: 'suggestion', strict: true });
  assert.deepEqual(messages.map((m) => `${m.type}: ${formatMessage(m, manifest)}`), []);
});

test('the manifest is publishable and points every entry into the package', () => {
  assert.equal(pkg.private, undefined, 'private: true would refuse npm publish');
  assert.deepEqual(Object.keys(pkg.exports), ['.', './element', './element.mjs', './anywidget', './custom-elements.json',
    './html-data.json', './web-types.json', './package.json']);
  for (const entry of ['.', './element', './element.mjs', './anywidget']) {
    // ./element: bundlers (the import condition) get the ES module, whose assets they can follow
    // (new URL('./file', import.meta.url)); <script src> hosts and CDNs the classic script.
    const keys = entry === './element' ? ['types', 'import', 'default'] : ['types', 'default'];
    assert.deepEqual(Object.keys(pkg.exports[entry]), keys, `exports["${entry}"]: types first`);
  }
  assert.equal(pkg.exports['./element'].import, pkg.exports['./element.mjs'].default);
  assert.equal(pkg.exports['.'].default, pkg.main);
  assert.equal(pkg.exports['.'].types, pkg.types);
  assert.equal(pkg.unpkg, pkg.exports['./element'].default);
  assert.equal(pkg.jsdelivr, pkg.exports['./element'].default);
  assert.deepEqual(pkg.sideEffects, ['./element', './element.mjs', './anywidget'].map((entry) => pkg.exports[entry].default));
  assert.equal(pkg.customElements, pkg.exports['./custom-elements.json']);
  assert.ok(pkg.repository?.url && pkg.keywords?.length >= 5, 'repository and keywords');
});

test('npm pack ships exactly the files users need', async (t) => {
  const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT });
  const [{ files, size, unpackedSize }] = JSON.parse(stdout);
  assert.deepEqual(files.map((f) => f.path).sort(), [...EXPECTED_FILES].sort());
  t.diagnostic(`tarball ${(size / 1024).toFixed(0)} KB, unpacked ${(unpackedSize / 1024).toFixed(0)} KB, ${files.length} files`);
});

/** tsc --noEmit --strict on one fixture in the scratch project → [{ line, code, text }]. */
async function typeCheck(file) {
  const args = [TSC, '--noEmit', '--strict', '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext',
    '--lib', 'es2022,dom', '--pretty', 'false', file];
  const result = await run(process.execPath, args, { cwd: scratch }).then(
    ({ stdout }) => ({ code: 0, stdout }),
    (error) => ({ code: error.code, stdout: error.stdout }),
  );
  const errors = [...result.stdout.matchAll(/^(\S+)\((\d+),\d+\): error (TS\d+): (.*)$/gm)]
    .map(([, where, line, code, text]) => ({ where, line: Number(line), code, text }));
  return { exit: result.code, errors, output: result.stdout };
}

test('a consumer of both entries type-checks with tsc --strict through the exports', async () => {
  const { exit, output } = await typeCheck('consumer.mts');
  assert.equal(output.trim(), '');
  assert.equal(exit, 0);
});

test('wrong calls fail to type-check, each on its marked line and nowhere else', async () => {
  const source = await readFile(join(FIXTURES, 'wrong-calls.mts'), 'utf8');
  const marked = source.split('\n').flatMap((text, i) => (/\/\/ expect-error/.test(text) ? [i + 1] : []));
  assert.ok(marked.length >= 10, `${marked.length} marked lines`);
  const { exit, errors } = await typeCheck('wrong-calls.mts');
  assert.notEqual(exit, 0);
  assert.ok(errors.every((e) => e.where === 'wrong-calls.mts'), 'errors inside the declarations themselves');
  assert.deepEqual([...new Set(errors.map((e) => e.line))].sort((a, b) => a - b), marked);
});

// ---- Declared members against the running API ----------------------------------------------

/** Member names of each interface and class declared in a .d.ts file. */
function declaredMembers(file, source) {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.ES2022, true);
  const members = {};
  const walk = (node) => {
    if ((ts.isInterfaceDeclaration(node) || ts.isClassDeclaration(node)) && node.name) {
      members[node.name.text] = node.members
        .filter((m) => m.name && !m.modifiers?.some((k) => k.kind === ts.SyntaxKind.PrivateKeyword || k.kind === ts.SyntaxKind.StaticKeyword))
        .map((m) => m.name.text);
    }
    ts.forEachChild(node, walk);
  };
  walk(sf);
  return members;
}

/** Public names of a runtime object: own keys and its prototype's methods and getters. */
function runtimeMembers(object) {
  const names = new Set(Object.keys(object));
  const proto = Object.getPrototypeOf(object);
  if (proto !== Object.prototype) {
    for (const name of Object.getOwnPropertyNames(proto)) if (name !== 'constructor') names.add(name);
  }
  return [...names].sort();
}

const unique = (names) => [...new Set(names)].sort();

test('every declared member exists at run time, and every run-time member is declared', async () => {
  const members = declaredMembers('posenc.d.ts', await readFile(join(ROOT, 'types/posenc.d.ts'), 'utf8'));
  const lab = await api.load();
  assert.deepEqual(runtimeMembers(lab), unique(members.Lab), 'Lab');
  assert.equal(lab.modelLimits, null, 'no model limits before the model core loads');
  assert.deepEqual(runtimeMembers(await lab.loadModels()), unique(members.Models), 'Models');
  const model = lab.createModel({ scheme: 'rotary', vocab: 8, d: 16, layers: 1, heads: 2, context: 4 });
  try {
    assert.deepEqual(runtimeMembers(model), unique(members.Model), 'Model');
  } finally {
    model.dispose();
  }
  const vocabulary = lab.vocabulary(new Float32Array([1, 0, 0, 1]), 2, 2);
  assert.deepEqual(runtimeMembers(vocabulary), unique(members.Vocabulary), 'Vocabulary');
  vocabulary.dispose();
  const glove = await lab.loadVectors('glove');
  assert.deepEqual(runtimeMembers(glove), unique(members.WordVectorSet), 'WordVectorSet');
  assert.deepEqual(Object.keys(lab.limits).sort(), unique(members.Limits), 'Limits');
  assert.deepEqual(Object.keys(lab.modelLimits).sort(), unique(members.ModelLimits), 'ModelLimits');
  // One lane input-only, so its flag is among the keys too.
  const lanes = lab.compare(lab.embed(['a', 'b'], 8), 2, 8, { schemes: [...api.SCHEMES], inputOnly: ['additive'] });
  const laneKeys = unique(api.SCHEMES.flatMap((s) => Object.keys(lanes[s])));
  assert.deepEqual(laneKeys, unique(members.Lane), 'Lane (every scheme’s keys together)');

  const source = await readFile(join(ROOT, 'types/posenc.d.ts'), 'utf8');
  const declaredExports = [...source.matchAll(/^export declare (?:const|function|class) (\w+)/gm)].map((m) => m[1]);
  assert.deepEqual(unique(declaredExports), Object.keys(api).sort(), 'module exports');
});
