// Identity and position retrieval: decode each encoded vector back to its word and its position.
import { TableFigure } from '../figure.js';
import { leadingColumns } from '../math.js';

export function createRetrievalPanel(slot) {
  const table = new TableFigure(slot, { title: 'Identity and position retrieval' });
  const percent = (v) => (Number.isFinite(v) ? `${(100 * v).toFixed(1)}%` : '—');
  return {
    figure: table,
    /**
     * Runs the decoding (the expensive part: n queries against the whole vocabulary) and shows
     * it. A generator: it yields between decodings so the page can handle a keystroke in
     * between; returns { additive, concatenated, rotary } identity results for the summary.
     */
    * update({ lab, result, tokens, decoder, alpha, dWord, E = null, base = 10000, layout = 'interleaved' }) {
      const { n, d, dPos } = result;
      const add = result.additive;
      const cat = result.concatenated;
      const identity = {};
      // With real word vectors (a WordVectorSet) the additive x = αE + PE and rotary x = αE are
      // decoded by the set's cached decoder; synthetic vectors, and the concatenated scheme's
      // PCA-reduced word part, by brute force.
      const cached = decoder.identityOf && E;
      identity.additive = cached
        ? yield* decoder.identityOf(E, tokens, { alpha, additive: true, base, layout })
        : yield* decoder.identity(add.x, tokens);
      yield;
      identity.concatenated = yield* decoder.identityReduced(leadingColumns(cat.x, n, cat.width, dWord), dWord, tokens);
      yield;
      identity.rotary = cached
        ? yield* decoder.identityOf(E, tokens, { alpha, additive: false, base, layout })
        : yield* decoder.identity(result.rotary.x, tokens);
      yield;
      const truth = Array.from({ length: n }, (_, p) => p);
      const peVocabulary = lab.vocabulary(result.pe, n, d);
      const peConcatVocabulary = lab.vocabulary(result.peConcat, n, dPos);
      const top1 = (r) => r.rank.reduce((hits, rank) => hits + (rank === 1 ? 1 : 0), 0) / n;
      let position;
      try {
        position = {
          additive: top1(peVocabulary.nearest(add.x, n, { truth })),
          concatenated: top1(peConcatVocabulary.nearest(leadingColumns(cat.x, n, cat.width, dPos, dWord), n, { truth })),
        };
      } finally {
        peVocabulary.dispose();
        peConcatVocabulary.dispose();
      }
      const counted = identity.additive.counted;
      const skipped = identity.additive.skipped;
      table.update({
        label: `Identity and position retrieval for ${n} tokens (α = ${alpha.toPrecision(4)})`,
        columns: ['scheme', 'word decoded (top-1)', 'mean rank of true word', 'position decoded (top-1)'],
        rows: [
          ['Additive', identity.additive.top1, identity.additive.meanRank, position.additive],
          ['Concatenated', identity.concatenated.top1, identity.concatenated.meanRank, position.concatenated],
          ['Rotary', identity.rotary.top1, identity.rotary.meanRank, null],
        ],
        format: (cell, r, c) => {
          if (c === 0) return cell;
          if (cell === null) return 'none in x (only in q·k)';
          return c === 2 ? (Number.isFinite(cell) ? cell.toFixed(2) : '—') : percent(cell);
        },
        note: `Words decoded among ${decoder.label}; ${counted} token${counted === 1 ? '' : 's'} scored` +
          `${skipped ? `, ${skipped} unknown token${skipped === 1 ? '' : 's'} left out (no true word to find)` : ''}. ` +
          'Rotary keeps position out of x: it appears only in the rotated queries and keys.',
      });
      return identity;
    },
  };
}
