// Small numeric helpers the panels share (plain JS over row-major Float32Arrays).

/** The first `k` columns of an n×d matrix as an n×k matrix. */
export function leadingColumns(m, n, d, k, from = 0) {
  const out = new Float32Array(n * k);
  for (let i = 0; i < n; i++) out.set(m.subarray(i * d + from, i * d + from + k), i * k);
  return out;
}

/** Euclidean norm of row i of an n×d matrix. */
export function rowNorm(m, d, i) {
  let sum = 0;
  for (let j = i * d; j < (i + 1) * d; j++) sum += m[j] * m[j];
  return Math.sqrt(sum);
}

/** Scales a copy of `m` by s. */
export function scaled(m, s) {
  const out = new Float32Array(m.length);
  for (let i = 0; i < m.length; i++) out[i] = m[i] * s;
  return out;
}

/** Largest absolute value (0 for an empty or all-zero array). */
export function maxAbs(m, from = 0, to = m.length) {
  let best = 0;
  for (let i = from; i < to; i++) {
    const a = Math.abs(m[i]);
    if (a > best) best = a;
  }
  return best;
}
