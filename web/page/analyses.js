// The page's expensive analyses, run a moment after typing pauses (web/page/app.js's runHeavy), each
// a generator that yields between its expensive parts so a keystroke is handled in between.
// `page` gives the page's current { lab, pipeline, state } (read when used); `snapshot` is the view
// they analyse. Their inputs and numbers come from web/pipeline/measures/; the panels draw them.
import { orthogonalityArgs, retrievalArgs, shiftArgs } from '../pipeline/measures/analyses.js';

export { additiveTerms, relativeSchemes } from '../pipeline/measures/analyses.js';

export function* runRetrieval(snapshot, page, { panel, decoder }) {
  const args = yield* retrievalArgs(snapshot, page, decoder);
  return yield* panel.update({ lab: page.lab, ...args });
}

export function runShift(snapshot, page, { panel }) {
  return panel.update({ lab: page.lab, ...shiftArgs(snapshot, page) });
}

export function runOrthogonality(snapshot, page, { panel }) {
  return panel.update({ lab: page.lab, ...orthogonalityArgs(snapshot, page) });
}
