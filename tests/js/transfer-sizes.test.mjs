// scripts/transfer-sizes.mjs on made-up measurements: the rule that checks serve.mjs's list of
// compressed types against what dist/ saves, the table's grouping and totals, and the markers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { contradictions, group, table, withTable } from '../../scripts/transfer-sizes.mjs';

const KB = 1024;
const row = (file, raw, gzip, brotli = gzip) => ({ file, raw, gzip, brotli });

test('a listed type that saves too little, and an unlisted one that saves much, are contradictions', () => {
  const found = contradictions([
    row('posenc.mjs', 100 * KB, 40 * KB),          // listed, saves 60%: fine
    row('models/a.safetensors', 1000 * KB, 990 * KB), // listed, saves 1%: contradiction
    row('data.bin', 200 * KB, 100 * KB),          // not listed, saves 50%: contradiction
    row('font.woff2', 100 * KB, 99 * KB),         // not listed, saves 1%: fine
    row('picture.png', 6 * KB, 4 * KB),           // not listed, saves 33%, but too few bytes to judge
  ]);
  assert.equal(found.length, 2, found.join('\n'));
  assert.match(found[0], /^\.safetensors: compressed .* saves only 1\.0%/);
  assert.match(found[1], /^\.bin: gzip saves 50\.0% but scripts\/serve\.mjs sends it as is/);
});

test('large files get a row each; small ones and the maps are grouped; the total counts what is sent', () => {
  const rows = [
    row('glove.i8', 2000 * KB, 1800 * KB, 1780 * KB),
    row('page/a.js', 10 * KB, 4 * KB, 3 * KB),
    row('page/b.js', 20 * KB, 8 * KB, 7 * KB),
    row('page/a.js.map', 31 * KB, 10 * KB, 9 * KB),
    row('picture.png', 6 * KB, 5 * KB, 5 * KB),
  ];
  const groups = group(rows);
  assert.deepEqual(groups.map((g) => [g.file, g.count, g.raw]), [
    ['glove.i8', 1, 2000 * KB],
    ['**/*.map (source maps: fetched by developer tools only)', 1, 31 * KB],
    ['page/*.js', 2, 30 * KB],
    ['*.png', 1, 6 * KB],
  ]);
  const text = table(rows);
  assert.match(text, /\| `page\/\*\.js` \(2 files\) \| 30\.0 KB \| 12\.0 KB \| 10\.0 KB \| 67% \| yes \|/);
  assert.match(text, /\| `\*\.png` \| 6\.0 KB \| 5\.0 KB \| 5\.0 KB \| 17% \| no \|/);
  // The maps are left out of the total; the PNG is sent as is under both encodings.
  assert.match(text, /\| \*\*all but the maps\*\* \(4 files\) \| 2,036\.0 KB \| 1,818\.0 KB \| 1,796\.0 KB \| 12% \| as listed \|/);
});

test('the table goes between its markers, and a doc without them is refused', () => {
  const text = table([row('a.js', 1 * KB, 1 * KB)]);
  const [start, end] = [text.split('\n')[0], text.split('\n').at(-1)];
  const doc = `# Doc\n\n${start}\nold table\n${end}\n\nAfter.\n`;
  assert.equal(withTable(doc, text), `# Doc\n\n${text}\n\nAfter.\n`);
  assert.throws(() => withTable('# Doc without markers\n', text), /no transfer-sizes markers/);
});
