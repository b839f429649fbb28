// Identity and position retrieval's numbers: decode each scheme's encoded input x back to its word
// and its position. Every scheme in the result gets a row. Schemes that leave x = αE (the rotary
// family, ALiBi, T5, NoPE) are checked element by element against αE rather than assumed to match,
// and one decode of αE then serves them all. Plain data out, so a worker can run it.
import { FAMILY, LAYOUT, SCHEME_TABLE } from '../../scheme-table.mjs';
import { leadingColumns } from '../math.js';
import { SCHEME_NAMES } from '../schemes.js';

// Where position is instead of x, by the scheme's family in the core's table.
const WHERE_POSITION = {
  [FAMILY.rotation]: 'none in x (only in q·k)',
  [FAMILY.logitBias]: 'none in x (a logit bias)',
  [FAMILY.none]: 'none anywhere',
};
const wherePosition = (scheme) => WHERE_POSITION[SCHEME_TABLE.schemes.find((s) => s.name === scheme)?.family] ?? 'none in x';

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

/** Top-1 share of positions decoded from `queries` (n×width) against a position table (n×width). */
function decodePositions(lab, table, n, width, queries) {
  const truth = Array.from({ length: n }, (_, p) => p);
  const vocabulary = lab.vocabulary(table, n, width);
  try {
    const { rank } = vocabulary.nearest(queries, n, { truth });
    return rank.reduce((hits, r) => hits + (r === 1 ? 1 : 0), 0) / n;
  } finally {
    vocabulary.dispose();
  }
}

/**
 * args: { result (a lab.compare result), tokens, decoder (web/pipeline/vocab.js's), alpha, dWord,
 * E = null (unscaled word vectors: enables the cached decoder and the x = αE check; without it
 * those rows decode x), base, layout }. A generator: it yields between decodings, so a keystroke
 * is handled in between (the expensive part: n queries against the whole vocabulary).
 * → { n, alpha, schemes, identity: { [scheme]: { top1, meanRank, counted, skipped, best } },
 *     rows: [[scheme name, word top-1, mean rank, position top-1 or null, x note]],
 *     positionNotes: string per row (what the table shows where position is null),
 *     decoderLabel, counted, skipped (the first scheme's token counts) }.
 */
export function* retrievalMeasure(lab, { result, tokens, decoder, alpha, dWord, E = null, base = 10000, layout = LAYOUT.interleaved }) {
  const { n, d, dPos } = result;
  const schemes = (result.schemes ?? SCHEME_TABLE.classic).filter((s) => result[s]);
  const cached = decoder.identityOf && E;
  const aE = E ? alphaTimes(E, alpha) : null;
  let alphaE = null;   // the one decode of αE, shared by every scheme whose x equals it
  const decoded = [];  // [{ x, result }]: other inputs already decoded (bitwise-equal x reuse it)

  // One scheme's row → [identity (the decoder's scores), position (top-1 share, or null where x
  // holds no position), x note].
  function* decodeScheme(scheme) {
    const { x, width } = result[scheme];
    if (scheme === 'additive') {
      const identity = cached
        ? yield* decoder.identityOf(E, tokens, { alpha, additive: true, base, layout })
        : yield* decoder.identity(x, tokens);
      return [identity, decodePositions(lab, result.pe, n, d, x), 'αE + PE'];
    }
    if (scheme === 'concatenated') {
      const identity = yield* decoder.identityReduced(leadingColumns(x, n, width, dWord), dWord, tokens);
      return [identity, decodePositions(lab, result.peConcat, n, dPos, leadingColumns(x, n, width, dPos, dWord)), `[αE reduced to ${dWord} ; PE in ${dPos}]`];
    }
    if (scheme === 'learned') {
      const identity = yield* decoder.identity(x, tokens);
      // Against the seeded table itself (lab.learnedTable, the seed compare uses), so a mismatch
      // would show as lost positions rather than be hidden.
      return [identity, decodePositions(lab, lab.learnedTable(n, d), n, d, x), 'αE + L(p), seeded table'];
    }
    if (aE && sameValues(x, aE)) {
      alphaE ??= cached
        ? yield* decoder.identityOf(E, tokens, { alpha, additive: false, base, layout })
        : yield* decoder.identity(aE, tokens);
      return [alphaE, null, 'αE, checked equal'];
    }
    const seen = decoded.find((entry) => sameValues(entry.x, x));
    const identity = seen ? seen.result : yield* decoder.identity(x, tokens);
    if (!seen) decoded.push({ x, result: identity });
    return [identity, null, aE ? 'differs from αE' : 'as computed'];
  }

  const identity = {};
  const rows = [];
  for (const scheme of schemes) {
    const [found, position, xNote] = yield* decodeScheme(scheme);
    identity[scheme] = found;
    rows.push([SCHEME_NAMES[scheme] ?? scheme, found.top1, found.meanRank, position, xNote]);
    yield;
  }
  const first = identity[schemes[0]];
  return {
    n, alpha, schemes, identity, rows, positionNotes: schemes.map(wherePosition),
    decoderLabel: decoder.label, counted: first?.counted ?? 0, skipped: first?.skipped ?? 0,
  };
}
