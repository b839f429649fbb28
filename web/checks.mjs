// Argument checks shared by the JS API's modules: TypeError for a wrong type, RangeError for a
// wrong value, each naming the argument. They return the checked value.

export function checkOptions(name, options, allowed) {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new TypeError(`${name} must be an object`);
  }
  for (const key of Object.keys(options)) {
    if (!allowed.includes(key)) throw new TypeError(`unknown option '${key}' (allowed: ${allowed.join(', ')})`);
  }
}

export function checkInt(name, value, min, max) {
  if (typeof value !== 'number') throw new TypeError(`${name} must be a number`);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(`${name} must be an integer from ${min} to ${max} (got ${value})`);
  }
  return value;
}

// A number, its value left to the layer that owns its range (the core's AdamW options).
export function checkNumber(name, value) {
  if (typeof value !== 'number') throw new TypeError(`${name} must be a number`);
  return value;
}

export function checkFinite(name, value) {
  checkNumber(name, value);
  if (!Number.isFinite(value)) throw new RangeError(`${name} must be finite (got ${value})`);
  return value;
}

export function checkBoolean(name, value) {
  if (typeof value !== 'boolean') throw new TypeError(`${name} must be a boolean`);
  return value;
}

// The index of value in allowed.
export function checkEnum(name, value, allowed) {
  if (typeof value !== 'string') throw new TypeError(`${name} must be a string`);
  const index = allowed.indexOf(value);
  if (index < 0) throw new RangeError(`${name} must be one of ${allowed.map((a) => `'${a}'`).join(', ')} (got '${value}')`);
  return index;
}
