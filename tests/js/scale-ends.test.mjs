// A colour scale's ends (web/figures/accessibility.js, formatScaleEnd): 4 significant digits, so a
// legend reads "8.318" where the readout says 8.317766, never further from the value than half a
// unit of the 4th digit, and exponent form only outside [0.001, 100000).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatScaleEnd, formatValue } from '../../web/figures/accessibility.js';

test('the ends a map shows: rounded to 4 significant digits, trailing zeros dropped', () => {
  const cases = [
    [0, '0'], [1, '1'], [-1, '-1'], [Math.log(4096), '8.318'], [-12.345678, '-12.35'], [0.5, '0.5'],
    [0.0012346, '0.001235'], [99999.4, '1e+5'], [12345.6, '12350'], [0.00099, '9.9e-4'], [-3.2e-7, '-3.2e-7'], [6.02e23, '6.02e+23'],
  ];
  for (const [value, text] of cases) assert.equal(formatScaleEnd(value), text, String(value));
});

test('non-finite ends read as the readout reads them', () => {
  for (const value of [Infinity, -Infinity, NaN]) assert.equal(formatScaleEnd(value), formatValue(value));
});

test('a rounded end is within half a unit of its 4th significant digit (seeded values over 24 decades)', () => {
  let seed = 12345;
  const next = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
  for (let k = 0; k < 2000; k++) {
    const value = (next() < 0.5 ? -1 : 1) * 10 ** (next() * 24 - 12);
    const read = Number(formatScaleEnd(value));
    const unit = 10 ** (Math.floor(Math.log10(Math.abs(value))) - 3);
    assert.ok(Math.abs(read - value) <= unit / 2 * (1 + 1e-9), `${value} read as ${formatScaleEnd(value)}`);
  }
});
