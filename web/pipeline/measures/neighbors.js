// The selected token's nearest words, before and after each lane's encoding, and the decoder that
// finds them: made once per vector source (per set of words for synthetic vectors) and shared with
// the retrieval measure. Plain data out, so a worker can run it.
import { SCHEME_NAMES } from '../schemes.js';

const NEIGHBOURS = 5;

/**
 * → decoderFor({ source, tokens }): the source's decoder (web/pipeline/vocab.js), kept while the
 * source (and, for synthetic vectors, the set of words) stays the same; the previous one is
 * disposed when it changes.
 */
export function createDecoderCache() {
  let cache = { key: '', source: null, decoder: null };
  return function decoderFor({ source, tokens }) {
    const key = source.kind === 'synthetic' ? `syn/${source.dim}/${[...new Set(tokens)].join('\u0000')}` : source.kind;
    if (cache.key !== key || (source.kind !== 'synthetic' && cache.source !== source)) {
      cache.decoder?.dispose();
      cache = { key, source, decoder: source.decoder(tokens) };
    }
    return cache.decoder;
  };
}

/**
 * lab: unused (the decoder holds its own tables); kept so every measure is called the same way.
 * args: { decoder, result (a lab.compare result), tokens, E (n×d, αE), d, dWord, selected
 * (the token's position), unknown (per token: 1 when its vector is hashed) }.
 * One row per lane: the schemes that change x decode their x; the others leave x = αE.
 * → { token, position, rows: [{ name, words: [{ word, cosine }] or null, note? }], caption }.
 */
export function neighborsMeasure(lab, { decoder, result, tokens, E, d, dWord, selected, unknown }) {
  const p = selected;
  const row = (m, width, from = 0, count = width) => m.slice(p * width + from, p * width + from + count);
  const rows = [{ name: 'before encoding (αE)', words: decoder.neighbors(row(E, d), NEIGHBOURS) }];
  for (const scheme of result.schemes) {
    const lane = result[scheme];
    if (scheme === 'additive') rows.push({ name: 'additive (x = αE + PE)', words: decoder.neighbors(row(lane.x, d), NEIGHBOURS) });
    else if (scheme === 'learned') rows.push({ name: 'learned-style (x = αE + L(p))', words: decoder.neighbors(row(lane.x, d), NEIGHBOURS) });
    else if (scheme === 'concatenated') {
      rows.push({ name: `concatenated (word part, ${dWord} dims)`,
        words: decoder.neighbors(row(lane.x, lane.width, 0, dWord), NEIGHBOURS, dWord) });
    } else {
      rows.push({ name: `${SCHEME_NAMES[scheme]} (x = αE)`, words: null, note: 'x is left untouched, so its nearest words are exactly those before encoding.' });
    }
  }
  const caption = `Cosine similarity; searched among ${decoder.label}. ` +
    (unknown[p] ? 'This token is unknown: its vector is hashed, so its neighbours are arbitrary.' : '');
  return { token: tokens[p], position: p, rows, caption };
}
