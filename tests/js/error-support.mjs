// Shared by the error-path tests (errors.test.mjs, errors-load.test.mjs): the check that a lab
// still gives reference values after an error, and a value's description for failure messages.
import assert from 'node:assert/strict';
import * as ref from './reference.mjs';

// A valid call after each error must still give reference values: 2e-5 is the contract's
// tolerance for sinusoidal/rotate at small positions and (looser than) its 1e-5 for attention.
const TOL_USABLE = 2e-5;

const USABLE_X = ref.randomMatrix(ref.mulberry32(7), 3 * 6);
const USABLE_ROT = ref.rotate(USABLE_X, 3, 6, { offset: 5 });
const USABLE_ATT = ref.attention(USABLE_X, USABLE_X, USABLE_X, 3, 6, { causal: true });
const USABLE_SIN = ref.sinusoidal(5, 8);

export function assertUsable(lab) {
  assert.ok(ref.maxAbsDiff(lab.sinusoidal(5, 8), USABLE_SIN) <= TOL_USABLE, 'sinusoidal after an error');
  assert.ok(ref.maxAbsDiff(lab.rotate(USABLE_X, 3, 6, { offset: 5 }), USABLE_ROT) <= TOL_USABLE, 'rotate after an error');
  const a = lab.attention(USABLE_X, USABLE_X, USABLE_X, 3, 6, { causal: true });
  assert.ok(ref.maxAbsDiff(a.weights, USABLE_ATT.weights) <= TOL_USABLE, 'attention after an error');
  assert.ok(ref.maxAbsDiff(a.output, USABLE_ATT.output) <= TOL_USABLE, 'attention after an error');
}

export function describeValue(v) {
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'symbol') return v.toString();
  if (typeof v === 'function') return 'function';
  if (typeof v === 'string') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.length > 8 ? `${v.length} items` : v.map(describeValue).join(',')}]`;
  if (ArrayBuffer.isView(v)) return `${v.constructor.name}(${v.length ?? v.byteLength})`;
  if (v && typeof v === 'object') return v.constructor === Object ? JSON.stringify(v) : v.constructor.name;
  return String(v);
}
