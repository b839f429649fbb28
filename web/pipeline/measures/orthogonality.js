// Near-orthogonality versus d's numbers: the spread of the cosine between random vectors, and the
// RMS cosine between each word vector and its position vector, as d grows. Plain data out, so a
// worker can run it.

export const DIMS = [4, 8, 16, 32, 64, 128, 256, 512, 1024];

// lab → Map(d → std of the cosine between random pairs): seeded, so the same for every sentence.
const randomSpreads = new WeakMap();

/** RMS cosine between each row of `a` and the same row of `b` (n×d each). */
function rmsRowCosine(a, b, n, d) {
  let sum = 0;
  for (let p = 0; p < n; p++) {
    let dot = 0; let na = 0; let nb = 0;
    for (let j = p * d; j < (p + 1) * d; j++) { dot += a[j] * b[j]; na += a[j] * a[j]; nb += b[j] * b[j]; }
    const c = na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
    sum += c * c;
  }
  return Math.sqrt(sum / n);
}

/**
 * args: { tokens, base, layout, current: { vectors (n×d word vectors of the chosen source, scaled
 * by α), d, label } }. A generator: the random-pair spreads (≈ 35 ms each at d = 1024, once per d
 * and lab) yield between them, so the first run does not hold a thread for a third of a second.
 * → { dims: DIMS, random: number[DIMS.length], wordPosition: number[DIMS.length] (synthetic word
 *     vs its position), point (the current vectors' RMS cosine), d, label, randomAtD (random std at d) }.
 */
export function* orthogonalityMeasure(lab, { tokens, base, layout, current }) {
  if (!randomSpreads.has(lab)) randomSpreads.set(lab, new Map());
  const randomSpread = randomSpreads.get(lab);
  for (const d of [...DIMS, current.d]) {
    if (randomSpread.has(d)) continue;
    randomSpread.set(d, lab.cosineSpread(d, { pairs: 2000 }).std);
    yield;
  }
  // Long sentences add nothing to an RMS but cost time: 128 words are plenty.
  const words = tokens.slice(0, 128);
  const n = words.length;
  const random = DIMS.map((d) => randomSpread.get(d));
  const wordPosition = DIMS.map((d) => rmsRowCosine(lab.embed(words, d), lab.sinusoidal(n, d, { base, layout }), n, d));
  const point = rmsRowCosine(current.vectors.subarray(0, n * current.d), lab.sinusoidal(n, current.d, { base, layout }), n, current.d);
  return { dims: DIMS, random, wordPosition, point, d: current.d, label: current.label, randomAtD: randomSpread.get(current.d) };
}
