// The charts' curve styles (web/pipeline/schemes.js): every scheme's curve differs from every
// other's in colour and dash, and the reference lines (RoFormer's bound, the Train section's
// T line) in colour from every scheme's — ALiBi's pink once doubled as the T line's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BOUND, CURVE_STYLE, SERIES_COLOURS } from '../../dist/pipeline/schemes.js';
import { SCHEMES } from '../../dist/posenc.mjs';

test('each scheme has its own colour and dash, and no scheme wears the reference lines\' colour', () => {
  const styles = SCHEMES.map((scheme) => CURVE_STYLE[scheme]);
  assert.equal(new Set(styles.map((s) => s.colour.toLowerCase())).size, SCHEMES.length, 'colours');
  assert.equal(new Set(styles.map((s) => JSON.stringify(s.dash))).size, SCHEMES.length, 'dashes');
  for (const scheme of SCHEMES) {
    assert.notEqual(CURVE_STYLE[scheme].colour.toLowerCase(), CURVE_STYLE[BOUND].colour.toLowerCase(), scheme);
  }
  assert.equal(CURVE_STYLE[BOUND].colour, SERIES_COLOURS.reference);
});
