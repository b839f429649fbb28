// data/posenc-fallback.png (scripts/make-fallback.mjs): the committed picture is what the core and
// the palette make today (pixels compared, so another zlib does not matter), and it is the PE
// table it claims to be, checked from the formula without the core: at position 0 every even
// dimension is sin 0 = 0 (RdBu's white middle) and every odd one cos 0 = 1 (its darkest red).
// Needs a built dist/ (./scripts/build).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { FALLBACK_PNG, fallbackScanlines } from '../../scripts/make-fallback.mjs';
import { decodePng } from '../../scripts/png.mjs';
import { colourOf } from '../../web/figures/heatmap.js';

const committed = decodePng(await readFile(FALLBACK_PNG));

test('the committed fallback image matches what scripts/make-fallback.mjs computes', async () => {
  assert.deepEqual([committed.width, committed.height], [512, 256]);
  assert.ok(committed.lines.equals(await fallbackScanlines()), 'run node scripts/make-fallback.mjs and commit the result');
});

test('its first row is sin 0, cos 0, sin 0, … in the RdBu palette', () => {
  const cell = 8;
  const pixel = (x, y) => [...committed.lines.subarray(y * (1 + 3 * 512) + 1 + 3 * x, y * (1 + 3 * 512) + 4 + 3 * x)];
  for (let dim = 0; dim < 64; dim++) {
    const expected = colourOf('diverging', dim % 2 === 0 ? 0 : 1, -1, 1);
    assert.deepEqual(pixel(dim * cell + 3, 3), expected, `dimension ${dim}`);
  }
});
