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

/** Population standard deviation of each column: Float64Array(d). Works for any n. */
export function columnStd(m, n, d) {
  const mean = new Float64Array(d);
  const sq = new Float64Array(d);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < d; j++) {
      const v = m[i * d + j];
      mean[j] += v;
      sq[j] += v * v;
    }
  }
  const out = new Float64Array(d);
  for (let j = 0; j < d; j++) {
    const mu = mean[j] / n;
    out[j] = Math.sqrt(Math.max(0, sq[j] / n - mu * mu));
  }
  return out;
}

/**
 * The k rows of `rows` (v×dim) nearest to `query` by cosine, best first → [{ index, cosine }].
 * Brute force: 20,000 × 100 multiply-adds take a few milliseconds, fine for one click.
 */
export function nearestRows(rows, v, dim, query, k) {
  let qNorm = 0;
  for (let t = 0; t < dim; t++) qNorm += query[t] * query[t];
  qNorm = Math.sqrt(qNorm) || 1;
  const best = [];
  for (let r = 0; r < v; r++) {
    let dot = 0;
    let norm = 0;
    const base = r * dim;
    for (let t = 0; t < dim; t++) {
      const y = rows[base + t];
      dot += query[t] * y;
      norm += y * y;
    }
    const cosine = norm > 0 ? dot / (Math.sqrt(norm) * qNorm) : 0;
    if (best.length < k || cosine > best[best.length - 1].cosine) {
      best.push({ index: r, cosine });
      best.sort((a, b) => b.cosine - a.cosine);
      if (best.length > k) best.pop();
    }
  }
  return best;
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
