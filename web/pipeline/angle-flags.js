// Which RoPE pairs meet, within the evaluation length, rotation angles never seen in training.
// Plain JS without the DOM, so tests/js/angles.test.mjs can check it in Node.
//
// Shapes: omegaTrained, omegaEval — d_head/2 frequencies (pair i): plain RoPE's ω_i, as trained,
// and a variant's ω'_i, as evaluated. L, L' — trained and evaluation lengths (token positions
// 0 … L − 1 and 0 … L' − 1). Every output array has d_head/2 entries.
//
// Convention: positions in [0, L) sweep pair i through the angles [0, L·ω_i) — the half-open
// range RoPE is defined on and position interpolation maps [0, L') into (Chen et al. 2023, §2.2).
// A pair with L·ω_i ≥ 2π (YaRN's r = L/λ ≥ 1, Peng et al. 2023, §3.2) completed a turn in
// training and has met every angle; any other pair is flagged when the evaluation's sweep
// L'·ω'_i reaches beyond L·ω_i.

export const TWO_PI = 2 * Math.PI;

// PI's L'·(ω/s) equals L·ω up to a few float64 roundings (≈ 1e-16 relative); the smallest real
// overshoot, plain RoPE one position past L at the largest L (2^20), is 1/L ≈ 1e-6 relative.
export const RELATIVE_SLACK = 1e-9;

/**
 * → { trained, reached, turned, flagged, count }: trained[i] = L·ω_i, reached[i] = L'·ω'_i
 * (Float64Arrays), turned[i] = 1 when pair i completed a turn in training, flagged[i] = 1 when
 * the evaluation reaches angles pair i never met (Uint8Arrays), count = flagged pairs.
 */
export function angleReach(omegaTrained, omegaEval, trainedLength, evalLength) {
  const pairs = omegaTrained.length;
  if (omegaEval.length !== pairs) throw new RangeError(`omegaEval must have ${pairs} entries, got ${omegaEval.length}`);
  const trained = new Float64Array(pairs);
  const reached = new Float64Array(pairs);
  const turned = new Uint8Array(pairs);
  const flagged = new Uint8Array(pairs);
  let count = 0;
  for (let i = 0; i < pairs; i++) {
    trained[i] = trainedLength * omegaTrained[i];
    reached[i] = evalLength * omegaEval[i];
    turned[i] = trained[i] >= TWO_PI ? 1 : 0;
    flagged[i] = !turned[i] && reached[i] > trained[i] * (1 + RELATIVE_SLACK) ? 1 : 0;
    count += flagged[i];
  }
  return { trained, reached, turned, flagged, count };
}

/** "3–7, 12, 20–49": the flagged pair indices as ranges (empty string when none). */
export function pairRanges(flagged) {
  const parts = [];
  for (let i = 0; i < flagged.length; i++) {
    if (!flagged[i]) continue;
    let j = i;
    while (j + 1 < flagged.length && flagged[j + 1]) j++;
    parts.push(i === j ? `${i}` : `${i}–${j}`);
    i = j;
  }
  return parts.join(', ');
}
