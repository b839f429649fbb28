// Identity and position retrieval: decode each scheme's encoded input x back to its word and its
// position. Every scheme in the result gets a row. Schemes that leave x = αE (the rotary family,
// ALiBi, T5, NoPE) are checked element by element against αE rather than assumed to match, and
// one decode of αE then serves them all.
import { FAMILY, LAYOUT, SCHEME_TABLE } from '../scheme-table.mjs';
import { TableFigure } from '../figures/table-figure.js';
import { leadingColumns } from '../pipeline/math.js';
import { SCHEME_NAMES } from '../pipeline/schemes.js';

// Where position is instead of x, by the scheme's family in the core's table.
const WHERE_POSITION = {
  [FAMILY.rotation]: 'none in x (only in q·k)',
  [FAMILY.logitBias]: 'none in x (a logit bias)',
  [FAMILY.none]: 'none anywhere',
};

/** α·E exactly as the core forms it: a float32 product of float32 α and float32 E (exact in float64, rounded once). */
function alphaTimes(E, alpha) {
  const a = Math.fround(alpha);
  const out = new Float32Array(E.length);
  for (let i = 0; i < E.length; i++) out[i] = a * E[i];
  return out;
}

function sameValues(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export function createRetrievalPanel(slot) {
  const table = new TableFigure(slot, { title: 'Identity and position retrieval' });
  const percent = (v) => (Number.isFinite(v) ? `${(100 * v).toFixed(1)}%` : '—');
  return {
    figure: table,
    /**
     * Runs the decoding (the expensive part: n queries against the whole vocabulary) and shows
     * it. A generator: it yields between decodings so the page can handle a keystroke in
     * between; returns { [scheme]: identity result } for the summary. E (the unscaled word
     * vectors) enables the cached decoder and the x = αE check; without it those rows decode x.
     */
    * update({ lab, result, tokens, decoder, alpha, dWord, E = null, base = 10000, layout = LAYOUT.interleaved }) {
      const { n, d, dPos } = result;
      const schemes = (result.schemes ?? SCHEME_TABLE.classic).filter((s) => result[s]);
      const identity = {};
      const position = {};
      const xNote = {};
      const cached = decoder.identityOf && E;
      const aE = E ? alphaTimes(E, alpha) : null;
      const truth = Array.from({ length: n }, (_, p) => p);
      const top1 = (r) => r.rank.reduce((hits, rank) => hits + (rank === 1 ? 1 : 0), 0) / n;
      const decodePositions = (table_, width, queries) => {
        const vocabulary = lab.vocabulary(table_, n, width);
        try {
          return top1(vocabulary.nearest(queries, n, { truth }));
        } finally {
          vocabulary.dispose();
        }
      };
      let alphaE = null;   // the one decode of αE, shared by every scheme whose x equals it
      const decoded = [];  // [{ x, result }]: other inputs already decoded (bitwise-equal x reuse it)

      for (const scheme of schemes) {
        const lane = result[scheme];
        if (scheme === 'additive') {
          identity.additive = cached
            ? yield* decoder.identityOf(E, tokens, { alpha, additive: true, base, layout })
            : yield* decoder.identity(lane.x, tokens);
          position.additive = decodePositions(result.pe, d, lane.x);
          xNote.additive = 'αE + PE';
        } else if (scheme === 'concatenated') {
          identity.concatenated = yield* decoder.identityReduced(leadingColumns(lane.x, n, lane.width, dWord), dWord, tokens);
          position.concatenated = decodePositions(result.peConcat, dPos, leadingColumns(lane.x, n, lane.width, dPos, dWord));
          xNote.concatenated = `[αE reduced to ${dWord} ; PE in ${dPos}]`;
        } else if (scheme === 'learned') {
          identity.learned = yield* decoder.identity(lane.x, tokens);
          // Against the seeded table itself (lab.learnedTable, the seed compare uses), so a
          // mismatch would show as lost positions rather than be hidden.
          position.learned = decodePositions(lab.learnedTable(n, d), d, lane.x);
          xNote.learned = 'αE + L(p), seeded table';
        } else if (aE && sameValues(lane.x, aE)) {
          alphaE ??= cached
            ? yield* decoder.identityOf(E, tokens, { alpha, additive: false, base, layout })
            : yield* decoder.identity(aE, tokens);
          identity[scheme] = alphaE;
          position[scheme] = null;
          xNote[scheme] = 'αE, checked equal';
        } else {
          const seen = decoded.find((entry) => sameValues(entry.x, lane.x));
          identity[scheme] = seen ? seen.result : yield* decoder.identity(lane.x, tokens);
          if (!seen) decoded.push({ x: lane.x, result: identity[scheme] });
          position[scheme] = null;
          xNote[scheme] = aE ? 'differs from αE' : 'as computed';
        }
        yield;
      }

      const first = identity[schemes[0]];
      const counted = first?.counted ?? 0;
      const skipped = first?.skipped ?? 0;
      table.update({
        label: `Identity and position retrieval for ${n} tokens (α = ${alpha.toPrecision(4)}), per scheme`,
        columns: ['scheme', 'word decoded (top-1)', 'mean rank of true word', 'position decoded (top-1)', 'x decoded'],
        rows: schemes.map((s) => [SCHEME_NAMES[s] ?? s, identity[s].top1, identity[s].meanRank, position[s], xNote[s]]),
        format: (cell, r, c) => {
          if (c === 0 || c === 4) return cell;
          if (cell === null) return WHERE_POSITION[lab.schemeTable.schemes.find((s) => s.name === schemes[r])?.family] ?? 'none in x';
          return c === 2 ? (Number.isFinite(cell) ? cell.toFixed(2) : '—') : percent(cell);
        },
        note: `Words decoded among ${decoder.label}; ${counted} token${counted === 1 ? '' : 's'} scored` +
          `${skipped ? `, ${skipped} unknown token${skipped === 1 ? '' : 's'} left out (no true word to find)` : ''}. ` +
          'Only the absolute schemes put position into x; the others act on queries and keys or on the logits, and their x ' +
          'is compared with αE value by value before its decode is reused.' +
          (schemes.includes('learned') ? ' The learned-style table is seeded N(0, ½), not trained.' : ''),
      });
      return identity;
    },
  };
}
