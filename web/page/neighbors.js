// The selected token's nearest words, before and after each lane's encoding (the token list's
// panel), and the decoder that finds them: made once per vector source (per set of words for
// synthetic vectors) and shared with the retrieval analysis.
import { SCHEME_NAMES } from '../pipeline/schemes.js';

const NEIGHBOURS = 5;

/** tokenList: createTokenList's. → { decoder(view), show(view, selected) }. */
export function createNeighbors({ tokenList }) {
  let cache = { key: '', source: null, decoder: null };

  function decoder({ source, tokens }) {
    const key = source.kind === 'synthetic' ? `syn/${source.dim}/${[...new Set(tokens)].join('\u0000')}` : source.kind;
    if (cache.key !== key || (source.kind !== 'synthetic' && cache.source !== source)) {
      cache.decoder?.dispose();
      cache = { key, source, decoder: source.decoder(tokens) };
    }
    return cache.decoder;
  }

  // One row per lane: the schemes that change x decode their x; the others leave x = αE.
  function show(view, selected) {
    if (selected === null || !view) { tokenList.showNeighbors(null); return; }
    const { result, tokens, E, settings } = view;
    const p = selected;
    const found = decoder(view);
    const d = settings.d;
    const row = (m, width, from = 0, count = width) => m.slice(p * width + from, p * width + from + count);
    const rows = [{ name: 'before encoding (αE)', words: found.neighbors(row(E, d), NEIGHBOURS) }];
    for (const scheme of result.schemes) {
      const lane = result[scheme];
      if (scheme === 'additive') rows.push({ name: 'additive (x = αE + PE)', words: found.neighbors(row(lane.x, d), NEIGHBOURS) });
      else if (scheme === 'learned') rows.push({ name: 'learned-style (x = αE + L(p))', words: found.neighbors(row(lane.x, d), NEIGHBOURS) });
      else if (scheme === 'concatenated') {
        rows.push({ name: `concatenated (word part, ${settings.dWord} dims)`,
          words: found.neighbors(row(lane.x, lane.width, 0, settings.dWord), NEIGHBOURS, settings.dWord) });
      } else {
        rows.push({ name: `${SCHEME_NAMES[scheme]} (x = αE)`, words: null, note: 'x is left untouched, so its nearest words are exactly those before encoding.' });
      }
    }
    tokenList.showNeighbors(tokens[p], p, rows,
      `Cosine similarity; searched among ${found.label}. ` +
      (view.unknown[p] ? 'This token is unknown: its vector is hashed, so its neighbours are arbitrary.' : ''));
  }

  return { decoder, show };
}
