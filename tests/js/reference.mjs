// Plain float64 reference for the PosEnc Lab JS API tests, written from docs/ARCHITECTURE.md's
// formulas ("Notation and exact definitions"). It imports nothing from the module under test,
// so an error in the wasm kernels cannot hide in it. Every function returns a Float64Array.

/** ω_i = base^(−2i/d), i = 0 … d/2 − 1. */
export function omega(i, d, base = 10000) {
  return Math.pow(base, (-2 * i) / d);
}

/**
 * Sinusoidal PE, n×d row-major.
 * interleaved: PE[p][2i] = sin(p·ω_i), PE[p][2i+1] = cos(p·ω_i)
 * half:        PE[p][i]  = sin(p·ω_i), PE[p][i+d/2] = cos(p·ω_i)
 */
export function sinusoidal(n, d, { base = 10000, layout = 'interleaved', first = 0 } = {}) {
  const out = new Float64Array(n * d);
  const h = d / 2;
  for (let p = 0; p < n; p++) {
    const pos = first + p;
    for (let i = 0; i < h; i++) {
      const angle = pos * omega(i, d, base);
      const [a, b] = layout === 'half' ? [i, i + h] : [2 * i, 2 * i + 1];
      out[p * d + a] = Math.sin(angle);
      out[p * d + b] = Math.cos(angle);
    }
  }
  return out;
}

/** The component indices of pair i: (2i, 2i+1) interleaved, (i, i+d/2) half. */
export function pairIndices(i, d, pairing) {
  return pairing === 'half' ? [i, i + d / 2] : [2 * i, 2 * i + 1];
}

/**
 * Rotary rotation, n×d row-major: row p, pair i rotated by the angle (p + offset)·ω_i,
 * [a', b'] = [a·cos − b·sin, a·sin + b·cos].
 */
export function rotate(x, n, d, { base = 10000, offset = 0, pairing = 'interleaved' } = {}) {
  const out = new Float64Array(n * d);
  const h = d / 2;
  for (let p = 0; p < n; p++) {
    for (let i = 0; i < h; i++) {
      const angle = (p + offset) * omega(i, d, base);
      const c = Math.cos(angle);
      const s = Math.sin(angle);
      const [ia, ib] = pairIndices(i, d, pairing);
      const a = x[p * d + ia];
      const b = x[p * d + ib];
      out[p * d + ia] = a * c - b * s;
      out[p * d + ib] = a * s + b * c;
    }
  }
  return out;
}

/** Row-wise softmax with max subtraction; entries equal to −∞ get weight 0. */
export function softmax(row) {
  let m = -Infinity;
  for (const v of row) m = Math.max(m, v);
  const out = new Float64Array(row.length);
  let sum = 0;
  for (let j = 0; j < row.length; j++) {
    out[j] = row[j] === -Infinity ? 0 : Math.exp(row[j] - m);
    sum += out[j];
  }
  for (let j = 0; j < row.length; j++) out[j] /= sum;
  return out;
}

/** softmax of each row of n×n logits (float64), with an optional causal mask (j > i → −∞). */
export function softmaxRows(logits, n, causal = false) {
  const out = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    const row = Float64Array.from(logits.subarray(i * n, (i + 1) * n));
    if (causal) for (let j = i + 1; j < n; j++) row[j] = -Infinity;
    out.set(softmax(row), i * n);
  }
  return out;
}

export function dot(a, aStart, b, bStart, d) {
  let s = 0;
  for (let j = 0; j < d; j++) s += a[aStart + j] * b[bStart + j];
  return s;
}

/** Logits S = Q·Kᵀ·scale (n×n), with S[i][j] = −∞ for j > i when causal. */
export function logits(q, k, n, d, { causal = false, scale = 1 / Math.sqrt(d) } = {}) {
  const s = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      s[i * n + j] = causal && j > i ? -Infinity : scale * dot(q, i * d, k, j * d, d);
    }
  }
  return s;
}

/** softmax(Q·Kᵀ·scale [+ causal mask])·V → { weights: n×n, output: n×d }. */
export function attention(q, k, v, n, d, options = {}) {
  const s = logits(q, k, n, d, options);
  const weights = new Float64Array(n * n);
  for (let i = 0; i < n; i++) weights.set(softmax(s.subarray(i * n, (i + 1) * n)), i * n);
  const output = new Float64Array(n * d);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const w = weights[i * n + j];
      if (w === 0) continue;
      for (let c = 0; c < d; c++) output[i * d + c] += w * v[j * d + c];
    }
  }
  return { weights, output };
}

/** Largest |a[i] − b[i]|; throws if the lengths differ (so a shape bug cannot pass as 0). */
export function maxAbsDiff(a, b) {
  if (a.length !== b.length) throw new Error(`length mismatch: ${a.length} vs ${b.length}`);
  let m = 0;
  for (let i = 0; i < a.length; i++) {
    const e = Math.abs(a[i] - b[i]);
    if (Number.isNaN(e)) return NaN; // a NaN anywhere fails every `<= tol` assertion
    if (e > m) m = e;
  }
  return m;
}

/** mulberry32: a small seeded 32-bit PRNG, uniform in [0, 1). */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return function next() {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Float32Array of `length` values uniform in [lo, hi), from a seeded generator. */
export function randomMatrix(rand, length, lo = -1, hi = 1) {
  const out = new Float32Array(length);
  for (let i = 0; i < length; i++) out[i] = lo + (hi - lo) * rand();
  return out;
}

// ---- The further schemes (moved here from schemes.test.mjs; used by compare-schemes.test.mjs) ----


// ALiBi (Press et al. 2022, §3 and the reference code): geometric 2^(−8k/p) for a power of two p;
// otherwise p = 2^⌊log2 h⌋ slopes then every other slope of the 2p sequence.
export function alibiSlopes(h) {
  const pow2 = (p) => Array.from({ length: p }, (_, k) => 2 ** ((-8 * (k + 1)) / p));
  const p = 2 ** Math.floor(Math.log2(h));
  if (p === h) return pow2(p);
  return [...pow2(p), ...pow2(2 * p).filter((_, k) => k % 2 === 0).slice(0, h - p)];
}

// T5 bucket (Raffel et al. 2020, §2.1; bucket function of the T5 code), relative = key − query.
export function t5Bucket(relative, bidirectional, numBuckets, maxDistance) {
  let offset = 0;
  let r;
  let b = numBuckets;
  if (bidirectional) {
    b = numBuckets / 2;
    if (relative > 0) offset = b;
    r = Math.abs(relative);
  } else {
    r = Math.max(-relative, 0);
  }
  const maxExact = b / 2;
  if (r < maxExact) return offset + r;
  const large = maxExact + Math.floor((Math.log(r / maxExact) / Math.log(maxDistance / maxExact)) * (b - maxExact));
  return offset + Math.min(large, b - 1);
}

// RoPE frequencies with context extension: PI (Chen et al. 2023 §2.3, eq. 4), NTK-aware (YaRN §3.1),
// YaRN (Peng et al. 2023 §3.2 ramp, §3.4 temperature), in the papers' own forms.
export function ropeFrequencies(d, { base = 10000, scaling = 'none', L = 2048, Lp = L, alpha = 1, beta = 32 }) {
  const s = Math.max(1, Lp / L);
  const w = (i, b = base) => b ** ((-2 * i) / d);
  return Array.from({ length: d / 2 }, (_, i) => {
    if (scaling === 'pi') return w(i) / s;
    if (scaling === 'ntk') return w(i, base * s ** (d / (d - 2)));
    if (scaling === 'yarn') {
      const r = L / ((2 * Math.PI) / w(i));
      const g = r < alpha ? 0 : r > beta ? 1 : (r - alpha) / (beta - alpha);
      return ((1 - g) * w(i)) / s + g * w(i);
    }
    return w(i);
  });
}

export function rotateWith(x, n, d, frequencies, { offset = 0, pairing = 'interleaved', positionScale = 1 } = {}) {
  const out = new Float64Array(n * d);
  for (let p = 0; p < n; p++) {
    for (let i = 0; i < d / 2; i++) {
      const [a, b] = pairIndices(i, d, pairing);
      const angle = (p + offset) * positionScale * frequencies[i];
      const xa = x[p * d + a];
      const xb = x[p * d + b];
      out[p * d + a] = xa * Math.cos(angle) - xb * Math.sin(angle);
      out[p * d + b] = xa * Math.sin(angle) + xb * Math.cos(angle);
    }
  }
  return out;
}

// xPos (Sun et al. 2023, §3.2): ζ_i = (2i/d + γ)/(1 + γ); query ×ζ^(P/λ), key ×ζ^(−P/λ).
export function xpos(x, n, d, { offset = 0, pairing = 'interleaved', role = 'query', gamma = 0.4, scaleBase = 512 } = {}) {
  const rotated = rotate(x, n, d, { offset, pairing });
  const sign = role === 'key' ? -1 : 1;
  for (let p = 0; p < n; p++) {
    for (let i = 0; i < d / 2; i++) {
      const zeta = ((2 * i) / d + gamma) / (1 + gamma);
      const scale = zeta ** ((sign * (p + offset)) / scaleBase);
      for (const j of pairIndices(i, d, pairing)) rotated[p * d + j] *= scale;
    }
  }
  return rotated;
}
