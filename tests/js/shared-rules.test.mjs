// The rules the page and the element both show have one home, web/pipeline/shared-rules.js: its
// values follow the core's scheme table, and the page's and the element's files take them from
// there rather than spelling them again (a copy would drift, as the element's list of seeded
// schemes once did).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { load } from '../../dist/posenc.mjs';
import { MAX_COMPARED_RANDOM_HEADS, SEEDED_NOTE, SEEDED_SCHEMES, comparedRandomHeads, engineLabel, isSeeded } from '../../dist/pipeline/shared-rules.js';

const WEB = fileURLToPath(new URL('../../web/', import.meta.url));
// A file's code without its comments (whole-line // and /* … */ blocks, and trailing // ones): the
// rules' words may appear in prose.
const code = (text) => text.replace(/\/\*[\s\S]*?\*\//g, '').split('\n').filter((line) => !line.trim().startsWith('//')).map((line) => line.replace(/\s\/\/ .*$/, '')).join('\n');
const sources = (folder) => readdirSync(join(WEB, folder)).filter((f) => /\.m?js$/.test(f)).map((f) => [`${folder}/${f}`, code(readFileSync(join(WEB, folder, f), 'utf8'))]);
const CONSUMERS = [...sources('page'), ...sources('element'), ...sources('panels')];

test("the seeded schemes are the core's table's seeded column, and nothing else", async () => {
  const lab = await load();
  const seeded = lab.schemeTable.schemes.filter((s) => s.seeded).map((s) => s.name);
  assert.deepEqual(SEEDED_SCHEMES, seeded);
  assert.ok(seeded.length >= 2, `the table marks the learned-style table and T5 as seeded: ${seeded}`);
  for (const { name } of lab.schemeTable.schemes) assert.equal(isSeeded(name), seeded.includes(name), name);
});

test('the engine label and the random-head rule', () => {
  assert.equal(engineLabel(true), 'wasm SIMD');
  assert.equal(engineLabel(false), 'scalar wasm');
  assert.equal(comparedRandomHeads(2, [0, 1, 2, 4, 8]), 2, 'the settings\' own heads');
  assert.equal(comparedRandomHeads(0, [0, 1, 2, 4, 8]), MAX_COMPARED_RANDOM_HEADS, 'W = I: the largest choice up to the limit');
  assert.equal(comparedRandomHeads(0, [0, 1, 2]), 2);
  assert.equal(comparedRandomHeads(0, [0, 8]), 0, 'no choice within the limit: none');
});

test('the page and the element take these rules from shared-rules.js and spell none of them', () => {
  const spelled = [SEEDED_NOTE, engineLabel(true), engineLabel(false)];
  for (const [file, text] of CONSUMERS) {
    for (const words of spelled) assert.ok(!text.includes(words), `${file} spells '${words}' itself`);
    // A list of the seeded schemes by name (both in one expression) is a copy of the table's column.
    assert.ok(!/['"]learned['"][^;\n]*['"]t5['"]|['"]t5['"][^;\n]*['"]learned['"]/.test(text), `${file} lists the seeded schemes by name`);
  }
  const importers = CONSUMERS.filter(([, text]) => /from '\.\.\/pipeline\/shared-rules\.js'/.test(text)).map(([file]) => file);
  assert.ok(importers.includes('element/element.js'), `the element imports shared-rules.js: ${importers}`);
  assert.ok(importers.includes('page/app.js') && importers.includes('page/lane-article.js'), `the page imports shared-rules.js: ${importers}`);
});
