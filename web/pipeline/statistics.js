// The numbers behind the page's plain-language summaries and lane notes: pure functions of the
// pipeline's arrays (row-major, see web/posenc.mjs), no DOM, tested in tests/js/statistics.test.mjs.
import { rowNorm } from './math.js';

/** Mean over tokens of ‖PE(p)‖ / ‖αE_p‖ (E, pe: n×d); a zero word vector counts as 1e-12. */
export function meanNormRatio(E, pe, n, d, alpha) {
  let sum = 0;
  for (let p = 0; p < n; p++) sum += rowNorm(pe, d, p) / Math.max(1e-12, alpha * rowNorm(E, d, p));
  return sum / n;
}

/** Mean cosine between each additive x_p = αE_p + PE(p) and its own word vector αE_p (1 for a zero row). */
export function meanOwnCosine(E, pe, n, d, alpha) {
  let sum = 0;
  for (let p = 0; p < n; p++) {
    let dot = 0; let nx = 0; let ne = 0;
    for (let j = p * d; j < (p + 1) * d; j++) {
      const e = alpha * E[j];
      const x = e + pe[j];
      dot += x * e; nx += x * x; ne += e * e;
    }
    sum += nx > 0 && ne > 0 ? dot / Math.sqrt(nx * ne) : 1;
  }
  return sum / n;
}

/** Root mean square of term t of a t×n×n terms array. */
export function termRms(terms, n, t) {
  let s = 0;
  for (let i = t * n * n; i < (t + 1) * n * n; i++) s += terms[i] * terms[i];
  return Math.sqrt(s / (n * n));
}

/**
 * The additive lane's cross terms against its own ones: max RMS of (e·p, p·e) over max RMS of
 * (e·e, p·p), terms in the lanes' order [e·e, e·p, p·e, p·p].
 */
export function crossTermRatio(terms, n) {
  const own = Math.max(termRms(terms, n, 0), termRms(terms, n, 3));
  const cross = Math.max(termRms(terms, n, 1), termRms(terms, n, 2));
  return cross / own;
}

/** The first repeated token: [earlier position, later position], or null. */
export function firstRepeat(tokens) {
  const seen = new Map();
  for (let j = 0; j < tokens.length; j++) {
    if (seen.has(tokens[j])) return [seen.get(tokens[j]), j];
    seen.set(tokens[j], j);
  }
  return null;
}

/** Largest |m[i][k] − m[j][k]| over k for rows i and j of an n×n matrix. */
export function rowGap(m, n, i, j) {
  let gap = 0;
  for (let k = 0; k < n; k++) gap = Math.max(gap, Math.abs(m[i * n + k] - m[j * n + k]));
  return gap;
}

/** How many of the `count` buckets the n×n bucket table uses. */
export function bucketsUsed(buckets, count) {
  const seen = new Uint8Array(count);
  for (const b of buckets) seen[b] = 1;
  return seen.reduce((sum, v) => sum + v, 0);
}

/** The largest shift change among schemes `ids` for head type h: shift[h][id]; null while any is (not measured yet). */
export function worstShift(shift, ids, h) {
  const changes = ids.map((id) => shift[h][id]);
  return changes.includes(null) ? null : Math.max(...changes);
}
