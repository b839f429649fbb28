// PosEnc Lab JS API: the one module pages, tutorials and tests import.
//
// It validates every argument (TypeError for a wrong type, RangeError for a wrong value, each
// naming the argument), copies arrays into a reusable wasm heap buffer, calls the core through
// embind and returns fresh Float32Arrays. Shapes are row-major: an n×d matrix is a
// Float32Array(n*d) whose row p starts at p*d.

export const LIMITS = Object.freeze({
  maxRows: 8192,          // n for sinusoidal and rotate
  maxAttentionRows: 4096, // n for attention
  maxDim: 4096,           // d
  maxElements: 1 << 24,   // n·d, and heads·n² for compare
  maxCompareTokens: 1024, // tokens per compare()
  maxHeads: 64,
  maxBase: 1e12,          // base must be > 1
  maxOffset: 32768,       // |offset|, an integer
});

const FLOAT32_MAX = 3.4028234663852886e38;
const LAYOUTS = ['interleaved', 'half'];
const CONCAT_MODES = ['same-width', 'widened'];

// The smallest module that uses a SIMD128 instruction (a function returning v128.const 0):
// WebAssembly.validate accepts it exactly where wasm SIMD is supported.
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 22, 1, 20, 0, 253, 12,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 11,
]);

export function wasmSimdSupported() {
  try {
    return typeof WebAssembly === 'object' && WebAssembly.validate(SIMD_PROBE);
  } catch {
    return false;
  }
}

const IS_NODE = typeof process === 'object' && typeof process.versions?.node === 'string';
const loaded = new Map();

/**
 * Resolves to the lab once the wasm core is ready; one instance per flavour, cached.
 * @param {{ simd?: boolean }} [options] simd: false forces the scalar build; true requires SIMD.
 */
export function load(options = {}) {
  checkOptions('load options', options, ['simd']);
  const { simd = wasmSimdSupported() } = options;
  if (typeof simd !== 'boolean') throw new TypeError('simd must be a boolean');
  if (simd && !wasmSimdSupported()) throw new RangeError('simd: this engine does not support wasm SIMD');
  const flavour = simd ? 'simd' : 'scalar';
  if (!loaded.has(flavour)) {
    const pending = instantiate(flavour).then((core) => new Lab(core));
    pending.catch(() => loaded.delete(flavour));
    loaded.set(flavour, pending);
  }
  return loaded.get(flavour);
}

async function instantiate(flavour) {
  const { default: createCore } = await import(`./posenc-core-${flavour}.mjs`);
  const wasmUrl = new URL(`posenc-core-${flavour}.wasm`, import.meta.url);
  if (IS_NODE) {
    const { readFile } = await import('node:fs/promises');
    return createCore({ wasmBinary: await readFile(wasmUrl) });
  }
  return createCore({ locateFile: () => wasmUrl.href });
}

class Lab {
  #core;
  #buffer = 0;      // heap address of the scratch buffer (bytes below)
  #capacity = 0;    // in floats
  #comparison;

  constructor(core) {
    this.#core = core;
    this.version = core.version();
    this.simd = core.simdBuild();
    this.limits = LIMITS;
    Object.freeze(this);
  }

  /** Sinusoidal table PE: Float32Array(n*d), row p = PE(p). */
  sinusoidal(n, d, options = {}) {
    checkOptions('options', options, ['base', 'layout']);
    checkInt('n', n, 1, LIMITS.maxRows);
    checkEvenDim('d', d);
    checkElements(n * d);
    const base = checkBase(options.base ?? 10000);
    const layout = checkEnum('layout', options.layout ?? 'interleaved', LAYOUTS);
    const [out] = this.#reserve(n * d);
    this.#call(this.#core.sinusoidal(out, n, d, base, layout));
    return this.#read(out, n * d);
  }

  /** Rotary rotation: new Float32Array(n*d), row p rotated for position p + offset. */
  rotate(x, n, d, options = {}) {
    checkOptions('options', options, ['base', 'offset', 'pairing']);
    checkInt('n', n, 1, LIMITS.maxRows);
    checkEvenDim('d', d);
    checkElements(n * d);
    checkMatrix('x', x, n * d);
    const base = checkBase(options.base ?? 10000);
    const offset = checkInt('offset', options.offset ?? 0, -LIMITS.maxOffset, LIMITS.maxOffset);
    const pairing = checkEnum('pairing', options.pairing ?? 'interleaved', LAYOUTS);
    const [input, out] = this.#reserve(n * d, n * d);
    this.#write(input, x);
    this.#call(this.#core.rotate(input, out, n, d, base, offset, pairing));
    return this.#read(out, n * d);
  }

  /** softmax(q·kᵀ·scale [+ causal mask])·v → { weights: n×n, output: n×d }. */
  attention(q, k, v, n, d, options = {}) {
    checkOptions('options', options, ['causal', 'scale']);
    checkInt('n', n, 1, LIMITS.maxAttentionRows);
    checkInt('d', d, 1, LIMITS.maxDim);
    checkElements(n * d);
    for (const [name, m] of [['q', q], ['k', k], ['v', v]]) checkMatrix(name, m, n * d);
    const causal = options.causal ?? false;
    if (typeof causal !== 'boolean') throw new TypeError('causal must be a boolean');
    const scale = checkFinite('scale', options.scale ?? 1 / Math.sqrt(d));
    const [qa, ka, va, weights, output] = this.#reserve(n * d, n * d, n * d, n * n, n * d);
    this.#write(qa, q);
    this.#write(ka, k);
    this.#write(va, v);
    this.#call(this.#core.attention(qa, ka, va, n, d, scale, causal, weights, output));
    return { weights: this.#read(weights, n * n), output: this.#read(output, n * d) };
  }

  /** Lowercased word and punctuation tokens (see README for the rules). */
  tokenize(text) {
    if (typeof text !== 'string') throw new TypeError('text must be a string');
    return this.#core.tokenize(text);
  }

  /** Synthetic word vectors: Float32Array(tokens.length*d), N(0,1) seeded by each token's hash. */
  embed(tokens, d) {
    checkTokens(tokens);
    checkEvenDim('d', d);
    checkElements(tokens.length * d);
    const [row] = this.#reserve(d);
    const out = new Float32Array(tokens.length * d);
    tokens.forEach((token, p) => {
      this.#call(this.#core.syntheticEmbedding(token, row, d));
      out.set(this.#view(row, d), p * d);
    });
    return out;
  }

  /**
   * Runs one sentence through the additive, concatenated and rotary schemes.
   * embeddings: Float32Array(n*d) word vectors (e.g. from embed()); see README for the result.
   */
  compare(embeddings, n, d, options = {}) {
    checkOptions('options', options, [
      'alpha', 'base', 'layout', 'pairing', 'dPos', 'concat', 'causal', 'heads', 'seed', 'scale',
    ]);
    checkInt('n', n, 1, LIMITS.maxCompareTokens);
    checkEvenDim('d', d);
    checkMatrix('embeddings', embeddings, n * d);
    const alpha = checkFinite('alpha', options.alpha ?? 1);
    const base = checkBase(options.base ?? 10000);
    const layout = checkEnum('layout', options.layout ?? 'interleaved', LAYOUTS);
    const pairing = checkEnum('pairing', options.pairing ?? 'interleaved', LAYOUTS);
    const concat = checkEnum('concat', options.concat ?? 'same-width', CONCAT_MODES);
    const defaultDPos = Math.max(2, 2 * Math.round(d / 8));
    const dPos = checkInt('dPos', options.dPos ?? defaultDPos, 2, LIMITS.maxDim);
    if (dPos % 2 !== 0) throw new RangeError('dPos must be even');
    if (concat === 0 && dPos >= d) throw new RangeError(`dPos must be smaller than d (${d}) for same-width concatenation`);
    const causal = options.causal ?? false;
    if (typeof causal !== 'boolean') throw new TypeError('causal must be a boolean');
    const heads = checkInt('heads', options.heads ?? 0, 0, LIMITS.maxHeads);
    const seed = checkInt('seed', options.seed ?? 1, 0, 2 ** 32 - 1);
    const scale = options.scale === undefined ? 0 : checkFinite('scale', options.scale);
    if (options.scale !== undefined && !(scale > 0)) throw new RangeError('scale must be greater than 0');
    const [input] = this.#reserve(n * d);
    this.#write(input, embeddings);
    this.#comparison ??= new this.#core.Comparison();
    this.#call(this.#comparison.run(input, n, d, alpha, base, layout, pairing, dPos, concat, causal,
      heads, seed, scale));
    const c = this.#comparison;
    const scheme = (i) => ({
      width: c.width(i),
      x: c.view(i, 0).slice(),
      weights: c.view(i, 1).slice(),
      terms: c.view(i, 2).slice(),
    });
    return {
      n, d, dPos, heads: Math.max(heads, 1),
      pe: c.pe(false).slice(),
      peConcat: c.pe(true).slice(),
      additive: scheme(0),
      concatenated: scheme(1),
      rotary: scheme(2),
    };
  }

  // Heap addresses for consecutive float arrays of the given lengths, in one reused allocation.
  #reserve(...lengths) {
    const total = lengths.reduce((a, b) => a + b, 0);
    if (total > this.#capacity) {
      if (this.#buffer) this.#core._free(this.#buffer);
      this.#buffer = 0;
      this.#capacity = 0;
      const address = this.#core._malloc(total * 4);
      if (!address) throw new RangeError(`not enough wasm memory for ${total} floats; use smaller n or d`);
      this.#buffer = address;
      this.#capacity = total;
    }
    const addresses = [];
    let next = this.#buffer;
    for (const length of lengths) {
      addresses.push(next);
      next += length * 4;
    }
    return addresses;
  }

  // Views are re-made on every use: memory growth replaces HEAPF32's buffer.
  #view(address, length) {
    return this.#core.HEAPF32.subarray(address / 4, address / 4 + length);
  }

  #write(address, values) {
    this.#view(address, values.length).set(values);
  }

  #read(address, length) {
    return this.#view(address, length).slice();
  }

  #call(error) {
    if (error) throw new RangeError(error);
  }
}

function checkOptions(name, options, allowed) {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new TypeError(`${name} must be an object`);
  }
  for (const key of Object.keys(options)) {
    if (!allowed.includes(key)) throw new TypeError(`unknown option '${key}' (allowed: ${allowed.join(', ')})`);
  }
}

function checkInt(name, value, min, max) {
  if (typeof value !== 'number') throw new TypeError(`${name} must be a number`);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(`${name} must be an integer from ${min} to ${max} (got ${value})`);
  }
  return value;
}

function checkEvenDim(name, value) {
  checkInt(name, value, 2, LIMITS.maxDim);
  if (value % 2 !== 0) throw new RangeError(`${name} must be even (dimensions form pairs), got ${value}`);
  return value;
}

function checkElements(count) {
  if (count > LIMITS.maxElements) throw new RangeError(`n·d must be at most ${LIMITS.maxElements} (got ${count})`);
}

function checkFinite(name, value) {
  if (typeof value !== 'number') throw new TypeError(`${name} must be a number`);
  if (!Number.isFinite(value)) throw new RangeError(`${name} must be finite (got ${value})`);
  return value;
}

function checkBase(value) {
  checkFinite('base', value);
  if (!(value > 1 && value <= LIMITS.maxBase)) {
    throw new RangeError(`base must be greater than 1 and at most ${LIMITS.maxBase} (got ${value})`);
  }
  return value;
}

function checkEnum(name, value, allowed) {
  if (typeof value !== 'string') throw new TypeError(`${name} must be a string`);
  const index = allowed.indexOf(value);
  if (index < 0) throw new RangeError(`${name} must be one of ${allowed.map((a) => `'${a}'`).join(', ')} (got '${value}')`);
  return index;
}

function checkMatrix(name, values, length) {
  const isArrayLike = Array.isArray(values) || (ArrayBuffer.isView(values) && !(values instanceof DataView));
  if (!isArrayLike) throw new TypeError(`${name} must be a Float32Array or an array of numbers`);
  if (typeof values[0] === 'bigint') throw new TypeError(`${name} must hold numbers, not BigInts`);
  if (values.length !== length) {
    throw new RangeError(`${name} must have ${length} elements (n·d), got ${values.length}`);
  }
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (typeof v !== 'number') throw new TypeError(`${name}[${i}] must be a number`);
    if (!(Math.abs(v) <= FLOAT32_MAX)) throw new RangeError(`${name}[${i}] must be a finite float32 value (got ${v})`);
  }
}

function checkTokens(tokens) {
  if (!Array.isArray(tokens)) throw new TypeError('tokens must be an array of strings');
  if (tokens.length < 1 || tokens.length > LIMITS.maxRows) {
    throw new RangeError(`tokens must hold 1 to ${LIMITS.maxRows} strings (got ${tokens.length})`);
  }
  tokens.forEach((t, i) => {
    if (typeof t !== 'string') throw new TypeError(`tokens[${i}] must be a string`);
  });
}
