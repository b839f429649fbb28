// The selected token's nearest words, before and after each lane's encoding (the token list's
// panel). The words come from neighborsMeasure (web/pipeline/measures/neighbors.js), through a
// decoder made once per vector source and shared with the retrieval analysis.
import { createDecoderCache, neighborsMeasure } from '../pipeline/measures/neighbors.js';

/** tokenList: createTokenList's. → { decoder(view), show(view, selected), render(data or null) }. */
export function createNeighbors({ tokenList }) {
  const decoder = createDecoderCache();

  /** data: neighborsMeasure's, or null to clear the panel. */
  function render(data) {
    if (!data) { tokenList.showNeighbors(null); return; }
    tokenList.showNeighbors(data.token, data.position, data.rows, data.caption);
  }

  function show(view, selected) {
    if (selected === null || !view) { render(null); return; }
    const { result, tokens, E, settings, unknown } = view;
    render(neighborsMeasure(null, { decoder: decoder(view), result, tokens, E, d: settings.d, dWord: settings.dWord, selected, unknown }));
  }

  return { decoder, show, render };
}
