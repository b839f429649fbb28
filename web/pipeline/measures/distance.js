// Score versus distance's numbers: the position part of the attention logit between two identical
// words k tokens apart for every scheme (lab.distanceCurves), and RoFormer's decay bound scaled to
// share the axis. Plain data out, so a worker can run it and the panel repaint from it alone.
import { SCHEME_IDS } from '../state.js';
import { BOUND } from '../schemes.js';
import { schemeParams } from '../pipeline.js';

/**
 * args: { d, base, maxDistance, lanes (the lanes' schemes, marked in the legend), options
 * (distanceCurves' scheme parameters: dPos, concat, causal, trainedLength, alibiHeads, alibiHead, …) }.
 * → { d, base, maxDistance, lanes, ids: [...schemes, BOUND], curves: { [id]: number[maxDistance + 1] }
 *     (NaN where a scheme has no value), learnedCut: first k without a learned row, or null,
 *     slopeNote: ALiBi's slope and head, as the note words it }.
 */
export function distanceMeasure(lab, { d, base, maxDistance, lanes = [], options = {} }) {
  const schemes = lab.SCHEMES ?? SCHEME_IDS;
  const defined = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
  const { curves } = lab.distanceCurves({ d, base, maxDistance, schemes: [...schemes], ...defined });
  const all = {};
  for (const id of schemes) all[id] = Array.from(curves[id]);
  // A learned table has rows only for the positions it was trained on.
  const trainedLength = defined.trainedLength ?? 2048;
  const learnedCut = all.learned && trainedLength <= maxDistance ? trainedLength : null;
  if (learnedCut !== null) for (let k = learnedCut; k <= maxDistance; k++) all.learned[k] = NaN;
  // RoFormer's bound is relative; scaled to rotary's value at k = 0 (√d) to share the axis.
  const { bound } = lab.offsetCurves(maxDistance, d, { base });
  all[BOUND] = Array.from(bound, (v) => (v / bound[0]) * Math.sqrt(d));
  const heads = defined.alibiHeads ?? 8;
  const head = defined.alibiHead ?? 1;
  const slope = all.alibi ? -all.alibi[1] : NaN;
  return {
    d, base, maxDistance, curves: all, lanes, learnedCut,
    ids: [...schemes, BOUND],
    slopeNote: `m = ${Number(slope.toPrecision(6))}, head ${head} of ${heads}`,
  };
}

/** distanceMeasure's args for the page's state and settings; no schemes, so every scheme is drawn. */
export function distanceArgs(lab, state, settings) {
  const options = { dPos: settings.dPos, concat: state.concat, causal: state.causal, ...schemeParams(lab, settings) };
  return { d: settings.d, base: state.base, maxDistance: state.maxDistance, lanes: state.schemes, options };
}
