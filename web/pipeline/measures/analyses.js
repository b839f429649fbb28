// The inputs of the expensive analyses run a moment after typing pauses (retrieval, shift,
// orthogonality), and the summary's extra numbers. `snapshot` is the view they analyse
// (pipeline.run's, with its source, settings and state); `page` gives { lab, pipeline, state,
// schemes } (schemes: those retrieval and shift compare; default every scheme, lab.SCHEMES).
// They live with the measures so the thread that runs the measures can prepare their inputs too.
import { FAMILY, SCHEME_TABLE } from '../../scheme-table.mjs';
import { scaled } from '../math.js';
import { comparedRandomHeads } from '../shared-rules.js';
import { schemesPerCompare } from '../slices.js';

// Compares for the analyses. For the sentence itself they are cached per snapshot and heads and
// merged scheme by scheme, so each scheme is computed once per pause (the keystroke's own result
// serves the lanes' schemes; the retrieval's compare of the others serves the shift panel's
// unshifted side); only x and the weights are kept (≈ 12 MB at n = 512): their compares neither
// form nor copy out the n×n terms (4·n² floats a scheme, 44 MB for all eleven at n = 512).
// Shifted sentences are used once and not kept.
const NO_TERMS = { terms: false }; // the analyses read x and the weights alone

/** → run(heads, words, schemes) → a lab.compare result holding at least `schemes` (their terms empty). */
export function analysisCompare(snapshot, { lab, pipeline }) {
  snapshot.compares ??= new Map();
  const { settings, tokens, result } = snapshot;
  return (heads, words, schemes) => {
    if (words !== tokens) return pipeline.compare(snapshot, heads, words, undefined, schemes, NO_TERMS);
    let entry = snapshot.compares.get(heads) ?? (heads === settings.heads ? result : null);
    // An input-only lane (a trained map covered it while typing) has no weights, and a lane
    // whose weights went to the page (lab-session.js, HANDED_OVER) has none left: computed here.
    const missing = schemes.filter((scheme) => !entry?.[scheme] || entry[scheme].inputOnly || !entry[scheme].weights?.length);
    if (missing.length) {
      const fresh = pipeline.compare(snapshot, heads, words, snapshot.E, missing, NO_TERMS);
      for (const scheme of missing) fresh[scheme] = { width: fresh[scheme].width, x: fresh[scheme].x, weights: fresh[scheme].weights };
      const lanes = Object.fromEntries(missing.map((scheme) => [scheme, fresh[scheme]]));
      entry = entry ? { ...fresh, ...entry, ...lanes, schemes: lab.SCHEMES.filter((s) => entry[s] || fresh[s]) } : fresh;
      snapshot.compares.set(heads, entry);
    }
    return entry;
  };
}

/**
 * retrievalMeasure's args for the snapshot, every scheme compared first in chunks (a generator
 * yielding after each compare). decoder() → the snapshot's decoder, asked for after the compares.
 */
export function* retrievalArgs(snapshot, page, decoder) {
  const { lab, state } = page;
  const { tokens, settings, E, n } = snapshot;
  const compare = analysisCompare(snapshot, page);
  const schemes = page.schemes ?? lab.SCHEMES;
  const perCompare = schemesPerCompare(n, settings.heads);
  for (let from = 0; from < schemes.length; from += perCompare) {
    compare(settings.heads, tokens, schemes.slice(from, from + perCompare));
    yield;
  }
  return { result: compare(settings.heads, tokens, schemes), tokens, decoder: decoder(),
    alpha: settings.alpha, dWord: settings.dWord, E, base: state.base, layout: state.layout };
}

/** The heads the shift measure compares: W = I (0) and the random heads of comparedRandomHeads (shared-rules.js). */
export function shiftHeadTypes(settings) {
  const random = comparedRandomHeads(settings.heads, settings.headChoices);
  return random > 0 ? [0, random] : [0];
}

/** shiftMeasure's args, over the heads of shiftHeadTypes. */
export function shiftArgs(snapshot, page) {
  const { settings, tokens } = snapshot;
  const headTypes = shiftHeadTypes(settings);
  // n + k must stay within compare's limit of 1024 tokens: n ≤ 512 and k ≤ 64 do.
  return { run: analysisCompare(snapshot, page), tokens, k: page.state.shiftK, headTypes, schemes: page.schemes ?? page.lab.SCHEMES };
}

/** orthogonalityMeasure's args: the snapshot's word vectors scaled by α, named by their source. */
export function orthogonalityArgs({ source, settings, tokens, E }, { state }) {
  const label = source.kind === 'synthetic' ? 'current (synthetic)' : source.kind === 'glove' ? 'GloVe' : 'your vectors';
  return { tokens, base: state.base, layout: state.layout, current: { vectors: scaled(E, settings.alpha), d: settings.d, label } };
}

/** The schemes whose logits depend on distances only: rotation, logit bias, none. */
export function relativeSchemes() {
  return [FAMILY.rotation, FAMILY.logitBias, FAMILY.none]
    .flatMap((family) => SCHEME_TABLE.schemes.filter((s) => s.family === family).map((s) => s.name));
}

/**
 * The additive lane's logit terms: the lanes' own, or (additive not a lane, an input-only one or a
 * folded one, whose terms the keystroke skipped) one additive-only compare after typing pauses —
 * the analyses' cached compares keep no terms.
 */
export function additiveTerms(snapshot, { pipeline }) {
  const { result, settings, tokens, E } = snapshot;
  const own = result.additive?.terms?.length ? result.additive : null;
  return (own ?? pipeline.compare(snapshot, settings.heads, tokens, E, ['additive']).additive).terms;
}
