// The summary's sentences (web/pipeline/prose.js) from the measures' numbers, inside the lab worker:
// the disturbance line after each keystroke, all three once the analyses after a pause are done.
// A module of its own so that what shows no summary (the <posenc-lab> element) can leave it out.
import { disturbSummary, orthSummary, shiftSummary } from './prose.js';
import { additiveTerms, relativeSchemes } from './measures/analyses.js';

export { disturbSummary };

/** → { disturb, shift, orth }: the summary's sentences once retrieval, shift and orth are done. */
export function analysisSummaries(view, page, spread, { retrieval, shift, orth }) {
  return {
    disturb: disturbSummary(view, spread, retrieval.identity),
    shift: shiftSummary(shift.changes, view.state.shiftK, relativeSchemes()),
    orth: orthSummary({ point: orth.point, d: orth.d, random: orth.randomAtD }, additiveTerms(view, page), view.n),
  };
}
