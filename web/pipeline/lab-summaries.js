// The summary's sentences (web/pipeline/prose.js) from the measures' numbers, inside the lab worker:
// after each keystroke, all three with stand-ins for the numbers still to come (prose.js; so the
// summary keeps its height), then all three whole once the analyses after a pause are done.
// A module of its own so that what shows no summary (the <posenc-lab> element) can leave it out.
import { disturbSummary, orthSummary, shiftSummary } from './prose.js';
import { additiveTerms, relativeSchemes, shiftHeadTypes } from './measures/analyses.js';

/** → { disturb, shift, orth }: the sentences before the analyses, their numbers pending (null). */
export function pendingSummaries(view, page, spread) {
  const unmeasured = Object.fromEntries(page.schemes.map((scheme) => [scheme, null]));
  const shift = Object.fromEntries(shiftHeadTypes(view.settings).map((heads) => [heads, unmeasured]));
  return {
    disturb: disturbSummary(view, spread, null),
    shift: shiftSummary(shift, view.state.shiftK, relativeSchemes()),
    orth: orthSummary({ point: null, d: view.settings.d, random: null }, null, view.n),
  };
}

/** → { disturb, shift, orth }: the summary's sentences once retrieval, shift and orth are done. */
export function analysisSummaries(view, page, spread, { retrieval, shift, orth }) {
  return {
    disturb: disturbSummary(view, spread, retrieval.identity),
    shift: shiftSummary(shift.changes, view.state.shiftK, relativeSchemes()),
    orth: orthSummary({ point: orth.point, d: orth.d, random: orth.randomAtD }, additiveTerms(view, page), view.n),
  };
}
