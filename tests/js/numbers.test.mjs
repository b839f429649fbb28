// web/formats/numbers.js writes numbers as Intl.NumberFormat('en-US') does (Node carries full
// ICU, so Intl is the reference here): integers grouped, and significant digits as
// maximumSignificantDigits writes them, over every magnitude the page prints and past them.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { grouped, significant, standIn } from '../../web/formats/numbers.js';
import { mulberry32 as random } from './reference.mjs';

const intl = (digits) => new Intl.NumberFormat('en-US', digits ? { maximumSignificantDigits: digits } : {});

describe('numbers without Intl', () => {
  it('grouped writes safe integers as Intl does, signs and every group length included', () => {
    const format = intl();
    const next = random(7);
    const values = [0, 1, -1, 12, 999, 1000, -1000, 12345, 999999, 1000000, 20000, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER];
    for (let i = 0; i < 2000; i++) values.push(Math.round((next() - 0.5) * 10 ** Math.floor(next() * 16)));
    for (const v of values) assert.equal(grouped(v), format.format(v), String(v));
  });

  it('grouped keeps a fraction as String writes it, and refuses what String writes with an exponent', () => {
    assert.equal(grouped(0.01), '0.01');
    assert.equal(grouped(1234567.25), '1,234,567.25');
    assert.equal(grouped(-1048576.5), '-1,048,576.5');
    for (const v of [1e21, 1e-7, NaN, Infinity, '12']) assert.throws(() => grouped(v), /grouped: a finite number from 1e-6 to under 1e21/);
  });

  it('significant matches maximumSignificantDigits from 1e-12 to 1e25, both signs, 1 to 6 digits', () => {
    const next = random(11);
    const cases = [[999.95, 4], [9.9995, 4], [0.00099995, 4], [1, 3], [100, 3], [123456, 3], [0.5, 1], [1.5, 1], [2.5, 1],
      [1e21, 4], [1.234e25, 4], [1e-7, 4], [-0.000123456, 3], [7, 6]];
    for (let i = 0; i < 5000; i++) {
      const v = (next() < 0.2 ? -1 : 1) * next() * 10 ** Math.floor(next() * 37 - 12);
      cases.push([v, 1 + Math.floor(next() * 6)]);
    }
    const formats = {};
    for (const [v, digits] of cases) {
      // The page rounds with toPrecision before formatting (web/pipeline/prose.js did): the same digits.
      const expected = (formats[digits] ??= intl(digits)).format(Number(v.toPrecision(digits)));
      assert.equal(significant(v, digits), expected, `${v} to ${digits} digits`);
    }
  });

  it('significant writes zero, the infinities and NaN as Intl does, and refuses what is not a number', () => {
    for (const v of [0, -0, Infinity, -Infinity, NaN]) assert.equal(significant(v, 4), intl(4).format(v), String(v));
    assert.throws(() => significant('1', 3), /significant: a number, got string/);
    for (const digits of [0, 22, 2.5]) assert.throws(() => significant(1, digits), /significant: digits from 1 to 21/);
  });

  it('standIn has the shape of the numbers it stands for, digits as figure dashes, joined so no line breaks inside or after it', () => {
    const rand = random(7);
    const shapes = [
      ['0.00', () => (rand() * 10).toFixed(2)],
      ['0.0e-0', () => (1e-9 + rand() * 0.9).toExponential(1)],
      ['000%', () => `${(100 * (0.995 + 0.005 * rand())).toFixed(0)}%`],
    ];
    for (const [shape, number] of shapes) {
      const held = standIn(shape);
      const shown = held.replaceAll('\u2060', '');
      assert.equal(shown, shape.replaceAll('0', '\u2012'), shape);
      // A word joiner after every character: no break opportunity inside it or before what follows.
      assert.equal(held, [...shown].map((c) => `${c}\u2060`).join(''), shape);
      for (let i = 0; i < 50; i++) {
        const text = number();
        assert.equal(text.replace(/\d/g, '0'), shape, `${text} is a number of shape ${shape}`);
      }
    }
  });
});
