// Near-orthogonality versus d's numbers: the spread of the cosine between random vectors, and the
// RMS cosine between each word vector and its position vector, as d grows. Plain data out, so a
// worker can run it.

export const DIMS = [4, 8, 16, 32, 64, 128, 256, 512, 1024];

// lab → Map(d → std of the cosine between random pairs): seeded, so the same for every sentence.
const randomSpreads = new WeakMap();
const PAIRS = 2000;
const SLICE = 250;

// The std of the cosine over PAIRS seeded random pairs, SLICE pairs per core call with a yield
// after each, so a keystroke waits for one slice, not for all. Pair s is the core's seeds 1 + 2s
// and 2 + 2s, so the slices draw the pairs one call of PAIRS would; their population moments pool.
function* randomSpreadOf(lab, d) {
  let sum = 0;
  let sumSq = 0;
  for (let first = 0; first < PAIRS; first += SLICE) {
    const { mean, std } = lab.cosineSpread(d, { pairs: SLICE, seed: 1 + 2 * first });
    sum += mean * SLICE;
    sumSq += (std * std + mean * mean) * SLICE;
    yield;
  }
  const mean = sum / PAIRS;
  return Math.sqrt(Math.max(0, sumSq / PAIRS - mean * mean));
}

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
 * by α), d, label } }. A generator: the random-pair spreads (once per d and lab) yield after
 * every slice of pairs (randomSpreadOf).
 * → { dims: DIMS, random: number[DIMS.length], wordPosition: number[DIMS.length] (synthetic word
 *     vs its position), point (the current vectors' RMS cosine), d, label, randomAtD (random std at d) }.
 */
export function* orthogonalityMeasure(lab, { tokens, base, layout, current }) {
  if (!randomSpreads.has(lab)) randomSpreads.set(lab, new Map());
  const randomSpread = randomSpreads.get(lab);
  for (const d of [...DIMS, current.d]) {
    if (!randomSpread.has(d)) randomSpread.set(d, yield* randomSpreadOf(lab, d));
  }
  // Long sentences add nothing to an RMS but cost time: 128 words are plenty.
  const words = tokens.slice(0, 128);
  const n = words.length;
  const random = DIMS.map((d) => randomSpread.get(d));
  const wordPosition = DIMS.map((d) => rmsRowCosine(lab.embed(words, d), lab.sinusoidal(n, d, { base, layout }), n, d));
  const point = rmsRowCosine(current.vectors.subarray(0, n * current.d), lab.sinusoidal(n, current.d, { base, layout }), n, current.d);
  return { dims: DIMS, random, wordPosition, point, d: current.d, label: current.label, randomAtD: randomSpread.get(current.d) };
}
