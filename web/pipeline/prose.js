// The page's explanations in words: the lanes' notes and the plain-language summaries, made from
// the pipeline's view and the numbers of web/pipeline/statistics.js. Strings only; no DOM.
import { SCHEME_NAMES, slopeText } from './schemes.js';
import { bucketsUsed, crossTermRatio, firstRepeat, meanOwnCosine, rowGap, worstShift } from './statistics.js';
import { grouped, significant, standIn } from '../formats/numbers.js';

const fmt = (v, digits = 4) => significant(v, digits);

/** Identity heads, as every sentence of the page writes them: no-break spaces keep "W = I" on one line. */
export const W_IS_I = 'W\u00a0=\u00a0I';

// A summary is written before its analyses are in, with null for the numbers they will give, so
// that it has its lines from the first view on. Each stand-in has the shape of the number it
// stands for (two decimals, one-digit exponentials, percentages), so filling them in does not
// rewrap the sentence and move what sits below it.
const PENDING = { fixed: standIn('0.00'), exponential: standIn('0.0e-0'), percent: standIn('000%') };
const fixed2 = (v) => (v === null ? PENDING.fixed : v.toFixed(2));

/** What the causal mask changes for NoPE, measured on this sentence's repeated words. */
export function nopeText({ masked, unmasked }, tokens, n) {
  const pair = firstRepeat(tokens);
  if (!pair) {
    return 'No word repeats in this sentence: type one twice to see that, without a mask, identical words get identical rows. ' +
      'Without the mask, reordering the words only reorders the rows and columns.';
  }
  const [i, j] = pair;
  const short = (v) => (v === 0 ? '0' : v.toPrecision(2));
  const same = rowGap(unmasked, n, i, j);
  return `Without a mask, “${tokens[i]}” (${i}) and “${tokens[j]}” (${j}) have ${same < 1e-6 ? 'identical' : 'nearly identical'} attention rows (largest difference ` +
    `${short(same)}): attention cannot tell them apart. With the causal mask their rows differ by up to ` +
    `${short(rowGap(masked, n, i, j))} — they see different numbers of earlier words, the only source of order here.`;
}

/**
 * The lanes' numbers in words: { [data-field name]: text } for what each scheme uses with these
 * settings (state: the page's state; settings: the pipeline's settled ones; rope: the scheme
 * names whose L′ is a parameter). NoPE's note reads the words: nopeText.
 */
export function laneNotes({ result, n, settings, state, rope }) {
  const notes = {};
  const { trainedLength: L, evalLength: L2 } = state;
  const s = settings.scale;
  notes.scaleFactor = `s = max(1, L′/L) = ${fmt(s)}`;
  notes.scaleNote = `L = ${grouped(L)}, L′ = ${grouped(L2)}, so s = ${fmt(s)}${s === 1 ? ': plain RoPE' : ''}.`;
  notes.trainedLength = grouped(L);
  notes.learnedNote = n <= L
    ? `All ${n} positions are within the table's L = ${grouped(L)} rows.`
    : `Positions ${L}–${n - 1} (${n - L} of ${n}) are at or beyond L = ${L}: a trained table has no row for these — ` +
      'they are hatched in the input map; this stand-in simply draws more seeded rows.';
  const alibi = result.alibi;
  if (alibi?.slopes) {
    notes.alibiSlope = settings.heads === 0
      ? `Head ${settings.alibiHead} of ${state.alibiHeads}: m = ${slopeText(alibi.slopes[0])}.`
      : `With ${settings.heads} random heads each head has its own slope (those of a ${settings.heads}-head model, k and H aside): ` +
        `the maps show head 1, m = ${slopeText(alibi.slopes[0])}.`;
  }
  if (result.t5?.buckets) {
    notes.t5Note = `${state.causal ? 'Causal' : 'Bidirectional'} buckets (the causal mask is ${state.causal ? 'on' : 'off'}): ` +
      `${state.t5Buckets} buckets, max distance ${settings.t5MaxDistance}; this sentence uses ${bucketsUsed(result.t5.buckets, state.t5Buckets)} of them.`;
  }
  if (result.xpos) {
    const zeta0 = state.xposGamma / (1 + state.xposGamma);
    notes.xposNote = `γ = ${state.xposGamma}, λ = ${fmt(state.xposScaleBase)}: ζ runs from ${fmt(zeta0, 3)} (pair 0) towards 1; across this ` +
      `sentence's largest distance, ${n - 1}, pair 0's logit factor is ζ₀^(${n - 1}/λ) = ${fmt(zeta0 ** ((n - 1) / state.xposScaleBase), 3)}.`;
  }
  const scaled = rope.map((name) => result[name]).find(Boolean);
  if (scaled?.frequencies) {
    const dh = 2 * scaled.frequencies.length;
    notes.piNote = s === 1 ? 'L′ ≤ L: nothing to stretch, the lane equals plain RoPE.'
      : `Neighbouring tokens are 1/s = ${fmt(1 / s)} trained positions apart: every pair turns ${fmt(s)}× slower.`;
    notes.ntkNote = s === 1 ? 'L′ ≤ L: base′ = base, the lane equals plain RoPE.'
      : `base′ = ${fmt(state.base)} · ${fmt(s)}^(${dh}/${dh - 2}) = ${fmt(state.base * s ** (dh / (dh - 2)))}; the fastest pair keeps ω₀ = 1.`;
  }
  if (result.yarn) {
    const q = result.yarn.qkFactor ?? 1;
    notes.yarnNote = `s = ${fmt(s)}, α = ${settings.yarnAlpha}, β = ${settings.yarnBeta}; logits × (0.1 ln s + 1)² = ${fmt(q * q)}.`;
  }
  return notes;
}

/** The disturbance summary: spread (the spread panel's numbers), identity (retrieval, or null). */
export function disturbSummary(view, spread, identity) {
  if (!spread || !view) return null;
  const { E, pe, n, settings } = view;
  const small = (v) => (v >= 0.01 ? v.toFixed(2) : v.toPrecision(1));
  let text = `additive. After adding PE, an encoded vector's cosine with its own word vector is ${meanOwnCosine(E, pe, n, settings.d, settings.alpha).toFixed(2)} ` +
    'on average (1 = untouched, which is what concatenation keeps for its word part and rotary for all of x). ' +
    `It shakes the first ${spread.tenth} dimensions by ${small(spread.firstTenth)}× the words' own spread and the last ` +
    `${spread.tenth} by ${small(spread.lastTenth)}× (L = ${spread.length}).`;
  // The heavy phase decodes the lanes' schemes (and, for this summary, the original three).
  // identity null: the analyses are still to come, so all three are pending.
  const decoded = ['additive', 'concatenated', 'rotary'].filter((scheme) => identity === null || Number.isFinite(identity?.[scheme]?.top1));
  if (decoded.length) {
    const pct = (r) => (r ? `${(100 * r.top1).toFixed(0)}%` : PENDING.percent);
    text += ` Words decoded back from the encoded vectors: ${decoded.map((scheme) => `${scheme} ${pct(identity?.[scheme])}` +
      (scheme === 'concatenated' && identity?.concatenated.top1 < 1 ? ' (lost to its narrower word part, not to position)' : '')).join(', ')}.`;
  }
  return text;
}

/**
 * The shift summary: shift = { [heads]: { [scheme]: largest change } }, k the words prepended,
 * relative: the schemes whose logits depend on distances only (rotation, logit bias, none).
 * Changes still to be measured are null.
 */
export function shiftSummary(shift, k, relative) {
  if (!shift) return null;
  const short = (v) => (v === null ? PENDING.exponential : v === 0 ? '0' : v.toExponential(1));
  const random = Object.keys(shift).map(Number).find((h) => h > 0);
  const both = (ids) => `${short(worstShift(shift, ids, 0))} with ${W_IS_I}${random ? ` and ${short(worstShift(shift, ids, random))} with ${random} random heads` : ''}`;
  const shown = relative.filter((id) => id in shift[0]);
  const words = `${k} word${k === 1 ? '' : 's'}`;
  let text = `the relative schemes (${shown.map((id) => SCHEME_NAMES[id]).join(', ')}) — prepending ${words} changes their ` +
    `attention among the original words by at most ${both(shown)}: rounding error, whatever the projections. ` +
    `The absolute ones move: additive by ${both(['additive'])}${'learned' in shift[0] ? `, the learned-style table by ${both(['learned'])}` : ''}.`;
  if (random) {
    text += ` Concatenated stays at ${short(worstShift(shift, ['concatenated'], 0))} with ${W_IS_I} — its position term PE(i)·PE(j) also depends ` +
      `only on the distance — but moves by ${short(worstShift(shift, ['concatenated'], random))} with ${random} random heads, whose projections mix ` +
      'word and position coordinates.';
  }
  return text;
}

/**
 * The near-orthogonality summary: orth (the panel's numbers), additiveTerms (the additive lane's
 * terms, n×n each). Before the analyses: orth's point and random are null, and additiveTerms is.
 */
export function orthSummary(orth, additiveTerms, n) {
  if (!orth) return null;
  return `at d = ${orth.d} a word vector and its position vector have cosine ≈ ±${fixed2(orth.point)} ` +
    `(random pairs: ${fixed2(orth.random)}, 1/√d = ${fixed2(1 / Math.sqrt(orth.d))}): nearly orthogonal, so ` +
    `in the additive lane the cross terms e·p and p·e are ${fixed2(additiveTerms && crossTermRatio(additiveTerms, n))}× the size of the larger of e·e and p·p — ` +
    'word and position barely interfere, as if they had separate coordinates.';
}
