// Editor data: dist/posenc-lab.html-data.json (VS Code custom data 1.1) and
// dist/web-types.json (JetBrains Web Types 2.0), generated from dist/custom-elements.json by
// scripts/editor-data.mjs, say what the manifest says, and the package points editors at them.
// Needs a built dist/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { literalValues, manifestElements } from '../../scripts/editor-data.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const read = async (path) => JSON.parse(await readFile(join(ROOT, path), 'utf8'));
const manifest = await read('dist/custom-elements.json');
const [element] = manifestElements(manifest);
const customData = await read('dist/posenc-lab.html-data.json');
const types = await read('dist/web-types.json');
const pkg = await read('package.json');

test('literal unions give completion values; other types none', () => {
  assert.deepEqual(literalValues("'interleaved' | 'half'"), ['interleaved', 'half']);
  assert.deepEqual(literalValues("'glove'"), ['glove']);
  assert.equal(literalValues('string'), null);
  assert.equal(literalValues("'a' | string"), null);
  assert.equal(literalValues(undefined), null);
});

test('VS Code custom data: the tag, every manifest attribute with its description, default and values', () => {
  assert.equal(customData.version, 1.1);
  assert.equal(customData.tags.length, 1);
  const [tag] = customData.tags;
  assert.equal(tag.name, 'posenc-lab');
  assert.equal(tag.description.value, element.description);
  assert.ok(element.attributes.length > 10);
  assert.deepEqual(tag.attributes.map((a) => a.name), element.attributes.map((a) => a.name));
  for (const [i, a] of element.attributes.entries()) {
    const out = tag.attributes[i];
    assert.ok(out.description.value.startsWith(a.description), a.name);
    if (a.default !== undefined) assert.ok(out.description.value.endsWith(`Default: \`${a.default}\``), a.name);
    const literals = literalValues(a.type?.text);
    const expected = literals ?? (a.type?.text === 'boolean' ? ['true', 'false'] : null);
    assert.deepEqual(out.values?.map((v) => v.name) ?? null, expected, a.name);
  }
  // The enumerated attributes this test relies on exist (else the loop above checks no values).
  assert.deepEqual(tag.attributes.find((a) => a.name === 'layout').values.map((v) => v.name), ['interleaved', 'half']);
});

test('Web Types: the element, its attributes with types and defaults, its event, CSS properties and part', () => {
  assert.equal(types.name, pkg.name);
  assert.equal(types.version, pkg.version);
  const [el] = types.contributions.html.elements;
  assert.equal(el.name, 'posenc-lab');
  assert.deepEqual(el.attributes.map((a) => [a.name, a.value.type, a.default]),
    element.attributes.map((a) => [a.name, a.type?.text ?? 'string', a.default]));
  assert.deepEqual(el.js.events.map((e) => e.name), element.events.map((e) => e.name));
  assert.ok(el.js.events.some((e) => e.name === 'posenc-change'));
  assert.deepEqual(el.css.properties.map((p) => p.name), element.cssProperties.map((p) => p.name));
  assert.deepEqual(el.css.parts.map((p) => p.name), ['container']);
});

test('the package names both files: the web-types field, exports, files', () => {
  assert.equal(pkg['web-types'], './dist/web-types.json');
  assert.equal(pkg.exports['./web-types.json'], './dist/web-types.json');
  assert.equal(pkg.exports['./html-data.json'], './dist/posenc-lab.html-data.json');
  for (const file of ['dist/web-types.json', 'dist/posenc-lab.html-data.json']) assert.ok(pkg.files.includes(file), file);
});
