// What the page computes beside the keystroke's lanes, inside the lab worker: the panels that
// follow the settings (per-dimension disturbance, score versus distance, rotation angles), each
// recomputed only when what it reads changed; the analyses after typing pauses (retrieval over the
// whole vocabulary, shift invariance's extra compares, near-orthogonality) as one generator that
// yields between its expensive parts; the summaries' words; the selected token's nearest words.
// The numbers come from web/pipeline/measures/; the panels' render (web/panels/) draws them.
//
// createMeasures(lab, pipeline) → { wordSpread(source), settingsFigures(state, source, settings, n, { wanted, shown }),
//   pendingSummaries(view), analyses(view, { only, lanes, summaries }), neighbors(view, selected) }.
// view: a pipeline view (web/pipeline/pipeline.js), worker-side. analyses(view) yields undefined
// between slices and { name, data } as each analysis ends: 'retrieval', 'shift', 'orth', then
// 'summaries' ({ disturb, shift, orth }: the summary's sentences).
import { analysisSummaries, pendingSummaries } from './lab-summaries.js';
import { spreadArgs, spreadMeasure, wordSpreadOf } from './measures/spread.js';
import { distanceArgs, distanceMeasure } from './measures/distance.js';
import { anglesArgs, anglesMeasure } from './measures/angles.js';
import { retrievalMeasure } from './measures/retrieval.js';
import { shiftMeasure } from './measures/shift.js';
import { orthogonalityMeasure } from './measures/orthogonality.js';
import { createDecoderCache, neighborsMeasure } from './measures/neighbors.js';
import { orthogonalityArgs, retrievalArgs, shiftArgs } from './measures/analyses.js';

/** The figures that follow the settings, as settingsFigures names them. */
export const SETTINGS_FIGURES = ['spread', 'distance', 'angles'];

/** The analyses run after typing pauses, in their order. */
export const ANALYSES = ['retrieval', 'shift', 'orth'];

/**
 * Each wanted figure's data, or null where the client shows that figure for these settings
 * already (or did not ask for it). wanted: SETTINGS_FIGURES or some of them; shown: the keys of
 * the figures the client shows ({ spread, distance, angles }, from the last view it painted: a
 * view it dropped as stale does not count); spread: the session's { key, data } of the last spread
 * figure computed, kept for the summary. → { spread, distance, angles, spreadLength, keys (what
 * these settings' figures are keyed by, for the client to send back) }.
 */
function settingsFigures(lab, spread, state, source, settings, n, { wanted = SETTINGS_FIGURES, shown = {} } = {}) {
  const figures = { spread: null, distance: null, angles: null, spreadLength: state.spreadLength || n, keys: {} };
  const spreadAt = wanted.includes('spread') ? spreadArgs(state, source, settings, n) : { length: 0 };
  // The picture depends on L, not on the words, so most keystrokes leave it as it is.
  if (spreadAt.length > 0) {
    const key = [source.kind, source.dim, settings.d, settings.alpha, state.base, state.layout, spreadAt.length].join('/');
    if (key !== spread.key) Object.assign(spread, { key, data: spreadMeasure(lab, spreadAt) });
    figures.keys.spread = key;
    if (key !== shown.spread) figures.spread = spread.data;
  }
  if (wanted.includes('distance')) {
    const distance = distanceArgs(lab, state, settings);
    figures.keys.distance = JSON.stringify([distance.d, distance.base, distance.maxDistance, distance.lanes, distance.options]);
    if (figures.keys.distance !== shown.distance) figures.distance = distanceMeasure(lab, distance);
  }
  if (wanted.includes('angles')) {
    const angles = anglesArgs(state, settings);
    figures.keys.angles = JSON.stringify(angles);
    if (figures.keys.angles !== shown.angles) figures.angles = anglesMeasure(lab, angles);
  }
  return figures;
}

export function createMeasures(lab, pipeline) {
  const spread = { key: '', data: null }; // the last spread figure computed, for the summary
  const decoderFor = createDecoderCache();

  // only: the analyses to run, in this order (default all three); lanes: over the view's own
  // schemes (state.schemes) rather than every scheme; summaries: then the summary's sentences
  // (which need all three).
  function* analyses(view, { only = ANALYSES, lanes = false, summaries = true } = {}) {
    const page = { lab, pipeline, state: view.state, schemes: lanes ? view.state.schemes : lab.SCHEMES };
    const done = {};
    if (only.includes('retrieval')) {
      done.retrieval = yield* retrievalMeasure(lab, yield* retrievalArgs(view, page, () => decoderFor(view)));
      yield { name: 'retrieval', data: done.retrieval };
    }
    if (only.includes('shift')) {
      done.shift = yield* shiftMeasure(lab, shiftArgs(view, page));
      yield { name: 'shift', data: done.shift };
    }
    if (only.includes('orth')) {
      done.orth = yield* orthogonalityMeasure(lab, orthogonalityArgs(view, page));
      yield { name: 'orth', data: done.orth };
    }
    if (summaries && ANALYSES.every((name) => done[name])) {
      yield { name: 'summaries', data: analysisSummaries(view, page, spread.data, done) };
    }
  }

  function neighbors(view, selected) {
    const { result, tokens, E, settings, unknown } = view;
    return neighborsMeasure(null, { decoder: decoderFor(view), result, tokens, E, d: settings.d, dWord: settings.dWord, selected, unknown });
  }

  return {
    wordSpread: wordSpreadOf,
    settingsFigures: (...args) => settingsFigures(lab, spread, ...args),
    // As the analyses' summaries will be, over every scheme.
    pendingSummaries: (view) => pendingSummaries(view, { schemes: lab.SCHEMES }, spread.data),
    analyses,
    neighbors,
  };
}
