// Numbers written as en-US writes them ("20,000", "0.0001235", "1,235"), without Intl: a thread's
// first Intl number format loads ICU's locale data, which took 15–70 ms of the page's main thread
// on a 2-core EPYC (Chromium 156), a task of its own that a reader's tap could wait behind.
// tests/js/numbers.test.mjs checks both functions against Intl.NumberFormat('en-US').

/**
 * A number with thousands separators in its integer part and its fraction as String writes it:
 * 20000 → "20,000", 0.01 → "0.01". For a number String writes without an exponent (|v| from
 * 1e-6 to under 1e21, or 0); integers come out as Intl writes them.
 */
export function grouped(value) {
  const text = typeof value === 'number' && Number.isFinite(value) ? String(Math.abs(value)) : 'e';
  if (text.includes('e')) throw new RangeError(`grouped: a finite number from 1e-6 to under 1e21 in size, or 0, got ${value}`);
  const [whole, fraction] = text.split('.');
  return `${value < 0 || Object.is(value, -0) ? '-' : ''}${separate(whole)}${fraction ? `.${fraction}` : ''}`;
}

/**
 * A number rounded to `digits` significant digits (1–21), trailing zeros dropped and the integer
 * part grouped, as Intl's maximumSignificantDigits writes it: never an exponent; "∞", "-∞" and
 * "NaN" as Intl writes those.
 */
export function significant(value, digits) {
  if (!Number.isInteger(digits) || digits < 1 || digits > 21) throw new RangeError(`significant: digits from 1 to 21, got ${digits}`);
  if (typeof value !== 'number') throw new TypeError(`significant: a number, got ${typeof value}`);
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? '∞' : '-∞';
  if (value === 0) return Object.is(value, -0) ? '-0' : '0';
  // toExponential gives the rounded digits and the power of ten exactly (no float log10).
  const [mantissa, power] = Math.abs(value).toExponential(digits - 1).split('e');
  const kept = mantissa.replace('.', '').replace(/0+$/, '');
  const e = Number(power);
  let text;
  if (e < 0) text = `0.${'0'.repeat(-e - 1)}${kept}`;
  else if (e + 1 >= kept.length) text = separate(kept + '0'.repeat(e + 1 - kept.length));
  else text = `${separate(kept.slice(0, e + 1))}.${kept.slice(e + 1)}`;
  return (value < 0 ? '-' : '') + text;
}

// "1234567" → "1,234,567"
function separate(integerDigits) {
  return integerDigits.replace(/\B(?=(\d{3})+$)/g, ',');
}

const FIGURE_DASH = '\u2012'; // a digit's width
const WORD_JOINER = '\u2060'; // no line break on either side, no width

/**
 * A stand-in for a number not known yet, shaped like it: each 0 in `shape` becomes a figure dash
 * (as wide as a digit), the rest stays ("0.00", "0.0e-0", "000%"), and word joiners keep it on one
 * line, as the number itself is (a line may break after a dash, not inside a number). So a text
 * written with stand-ins wraps where the same text with its numbers does. Its length without the
 * joiners is the shape's.
 */
export function standIn(shape) {
  return [...shape].map((c) => (c === '0' ? FIGURE_DASH : c)).join(WORD_JOINER) + WORD_JOINER;
}

