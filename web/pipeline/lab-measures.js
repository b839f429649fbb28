// What the page computes beside the keystroke's lanes, inside the lab worker: the panels that
// follow the settings (per-dimension disturbance, score versus distance, rotation angles), each
// recomputed only when what it reads changed; the analyses after typing pauses (retrieval over the
// whole vocabulary, shift invariance's extra compares, near-orthogonality) as one generator that
// yields between its expensive parts; the summaries' words; the selected token's nearest words.
// The numbers come from web/pipeline/measures/; the panels' render (web/panels/) draws them.
//
// createMeasures(lab, pipeline) → { wordSpread(source), settingsFigures(state, source, settings, n, shown),
//   disturbSummary(view, identity), analyses(view), neighbors(view, selected) }.
// view: a pipeline view (web/pipeline/pipeline.js), worker-side. analyses(view) yields undefined
// between slices and { name, data } as each analysis ends: 'retrieval', 'shift', 'orth', then
// 'summaries' ({ disturb, shift, orth }: the summary's sentences).
import { disturbSummary, orthSummary, shiftSummary } from './prose.js';
import { spreadArgs, spreadMeasure, wordSpreadOf } from './measures/spread.js';
import { distanceArgs, distanceMeasure } from './measures/distance.js';
import { anglesArgs, anglesMeasure } from './measures/angles.js';
import { retrievalMeasure } from './measures/retrieval.js';
import { shiftMeasure } from './measures/shift.js';
import { orthogonalityMeasure } from './measures/orthogonality.js';
import { createDecoderCache, neighborsMeasure } from './measures/neighbors.js';
import { additiveTerms, orthogonalityArgs, relativeSchemes, retrievalArgs, shiftArgs } from './measures/analyses.js';

export function createMeasures(lab, pipeline) {
  let lastSpread = null;   // the spread figure's data for the summary, at lastSpreadKey
  let lastSpreadKey = '';
  const decoderFor = createDecoderCache();

  /**
   * Each figure's data, or null where the page shows that figure for these settings already.
   * shown: the keys of the figures the page shows ({ spread, distance, angles }, from the last view
   * it painted: a view it dropped as stale does not count). → { spread, distance, angles,
   * spreadLength, keys (what these settings' figures are keyed by, for the page to send back) }.
   */
  function settingsFigures(state, source, settings, n, shown = {}) {
    const figures = { spread: null, distance: null, angles: null, spreadLength: state.spreadLength || n, keys: {} };
    const spread = spreadArgs(state, source, settings, n);
    // The picture depends on L, not on the words, so most keystrokes leave it as it is.
    if (spread.length > 0) {
      const key = [source.kind, source.dim, settings.d, settings.alpha, state.base, state.layout, spread.length].join('/');
      if (key !== lastSpreadKey) {
        lastSpread = spreadMeasure(lab, spread);
        lastSpreadKey = key;
      }
      figures.keys.spread = key;
      if (key !== shown.spread) figures.spread = lastSpread;
    }
    const distance = distanceArgs(lab, state, settings);
    figures.keys.distance = JSON.stringify([distance.d, distance.base, distance.maxDistance, distance.lanes, distance.options]);
    if (figures.keys.distance !== shown.distance) figures.distance = distanceMeasure(lab, distance);
    const angles = anglesArgs(state, settings);
    figures.keys.angles = JSON.stringify(angles);
    if (figures.keys.angles !== shown.angles) figures.angles = anglesMeasure(lab, angles);
    return figures;
  }

  function* analyses(view) {
    const page = { lab, pipeline, state: view.state };
    const retrieval = yield* retrievalMeasure(lab, yield* retrievalArgs(view, page, () => decoderFor(view)));
    yield { name: 'retrieval', data: retrieval };
    const shift = yield* shiftMeasure(lab, shiftArgs(view, page));
    yield { name: 'shift', data: shift };
    const orth = yield* orthogonalityMeasure(lab, orthogonalityArgs(view, page));
    yield { name: 'orth', data: orth };
    yield {
      name: 'summaries',
      data: {
        disturb: disturbSummary(view, lastSpread, retrieval.identity),
        shift: shiftSummary(shift.changes, view.state.shiftK, relativeSchemes()),
        orth: orthSummary({ point: orth.point, d: orth.d, random: orth.randomAtD }, additiveTerms(view, page), view.n),
      },
    };
  }

  function neighbors(view, selected) {
    const { result, tokens, E, settings, unknown } = view;
    return neighborsMeasure(null, { decoder: decoderFor(view), result, tokens, E, d: settings.d, dWord: settings.dWord, selected, unknown });
  }

  return {
    wordSpread: wordSpreadOf,
    settingsFigures,
    disturbSummary: (view, identity) => disturbSummary(view, lastSpread, identity),
    analyses,
    neighbors,
  };
}
