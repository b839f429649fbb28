// Word-vector sources behind one interface, so the panels need not care whether the words are
// GloVe's, synthetic, or a file the user brought:
//   kind, dim, label, fixedDim, defaultAlpha, tokenize(text), embed(tokens) → { vectors, unknown },
//   analysis()              a lab.analysis for these vectors (one keystroke in one wasm call),
//   concatWords(E, n)       the words in the basis whose leading coordinates concatenation keeps
//                           (PCA for real vectors, null = plain truncation),
//   reductionLabel(k)       what "E_{d_t}" means for this source, honestly,
//   decoder(tokens)         → { size, label, identity(queries, tokens) and identityReduced(queries, k, tokens)
//                              (generators returning scores), neighbors(query, k, reducedTo?), dispose() }.
import { leadingColumns } from './math.js';
import { grouped } from '../formats/numbers.js';
import { DECODE_CHUNK, IDENTITY_CHUNK } from './slices.js';

const SYNTHETIC_FILLERS = 2000;

/** Synthetic N(0,1) vectors of width d, seeded by each token's hash. */
export function syntheticSource(lab, d) {
  let fillerRows = null;
  const fillerWords = Array.from({ length: SYNTHETIC_FILLERS }, (_, i) => `filler-${i}`);
  return {
    kind: 'synthetic',
    dim: d,
    fixedDim: false,
    label: `synthetic N(0, 1) word vectors, d = ${d}`,
    defaultAlpha: 1,
    tokenize: (text) => lab.tokenize(text),
    embed: (tokens) => ({ vectors: lab.embed(tokens, d), unknown: tokens.map(() => false) }),
    analysis: () => lab.analysis({ synthetic: d }),
    concatWords: () => null,
    reductionLabel: (k) => `the first ${k} of the ${d} synthetic coordinates (truncation: every coordinate has the same variance, so no choice is better)`,
    // The vocabulary: the sentence's distinct words plus 2,000 hashed filler words, so a decoder
    // has to pick the right word out of thousands, as it would with a real vocabulary.
    decoder(tokens) {
      const distinct = [...new Set(tokens)];
      fillerRows ??= lab.embed(fillerWords, d);
      const words = [...distinct, ...fillerWords];
      const rows = new Float32Array(words.length * d);
      rows.set(lab.embed(distinct, d));
      rows.set(fillerRows, distinct.length * d);
      const index = new Map(distinct.map((w, i) => [w, i]));
      return tableDecoder(lab, words.length, (row) => words[row], rows, d, index,
        `${distinct.length} distinct words of the sentence + ${SYNTHETIC_FILLERS} hashed filler words (synthetic vectors have no real vocabulary)`,
        (k) => leadingColumns(rows, words.length, d, k));
    },
    vocabularySpread() {
      fillerRows ??= lab.embed(fillerWords, d);
      return lab.columnSpread(fillerRows, SYNTHETIC_FILLERS, d);
    },
  };
}

/** A WordVectorSet from lab.loadVectors (GloVe, or a user's file). */
export function vectorSetSource(lab, vectors, { kind = 'glove', label } = {}) {
  return {
    kind,
    dim: vectors.dim,
    fixedDim: true,
    label: label ?? `GloVe 6B 100-d word vectors (the ${grouped(vectors.size)} most frequent words)`,
    defaultAlpha: 1 / vectors.componentRms,
    componentRms: vectors.componentRms,
    tokenize: (text) => vectors.tokenize(text),
    embed: (tokens) => vectors.embed(tokens),
    analysis: () => lab.analysis(vectors),
    // The sentence's PCA coordinates (the concatenated scheme's word part), for compares outside
    // the keystroke's analysis, which makes its own.
    concatWords: (E, n) => vectors.reduce(E, n, vectors.dim),
    reductionLabel: (k) => `the word vector's first ${k} principal components (PCA over the vocabulary, ${(100 * vectors.retained(k)).toFixed(1)}% of its variance)`,
    // Searches in the core, over the set's own rows; a decoded row's word is read when it is
    // reported, so neither the rows nor the 20,000 words come out of the core for it.
    decoder() {
      const index = { get: (w) => { const i = vectors.indexOf(w); return i >= 0 ? i : undefined; } };
      return tableDecoder(lab, vectors.size, (row) => vectors.word(row), null, vectors.dim, index,
        `all ${grouped(vectors.size)} words of the vocabulary`, null, vectors);
    },
    // In the core, over its own rows: neither the rows nor the words come out for it.
    vocabularySpread: () => vectors.columnSpread(),
    /** Computes the PCA axes (on first use inside the core) ahead of the first keystroke. */
    warmUp() {
      vectors.retained(1);
    },
    dispose: () => vectors.dispose(),
  };
}

// Decoding against a table of words. For a WordVectorSet the full-width search runs in wasm
// (vectors.nearest) and the reduced one against vectors.reducedVocabulary(k); for synthetic
// vectors both use lab.vocabulary handles made here and disposed with the decoder.
// size: the table's words; word(row) → the word of a row; rows (size×dim) and reducedRows(k)
// (size×k) only without a WordVectorSet.
function tableDecoder(lab, size, word, rows, dim, index, label, reducedRows, vectorSet = null) {
  const handles = [];
  const handle = (matrix, width) => {
    const h = lab.vocabulary(matrix, size, width);
    handles.push(h);
    return h;
  };
  let full = null;
  const fullSearch = () => (full ??= vectorSet ?? handle(rows, dim));
  const reducedHandles = new Map();
  const reducedSearch = (k) => {
    if (!reducedHandles.has(k)) {
      reducedHandles.set(k, vectorSet ? vectorSet.reducedVocabulary(k) : handle(reducedRows(k), k));
    }
    return reducedHandles.get(k);
  };
  // The same, yielding while a set projects its 20,000 rows (WordVectorSet.reducing).
  function* reducedSearchInSlices(k) {
    if (vectorSet && !reducedHandles.has(k)) reducedHandles.set(k, yield* vectorSet.reducing(k));
    return reducedSearch(k);
  }
  return {
    size,
    label,
    /**
     * Only for a WordVectorSet (else null): generator like identity(), decoding x = αE + PE
     * (additive) or αE from the unscaled word vectors E through the cached decoder.
     */
    identityOf: vectorSet ? (E, tokens, options) => cachedIdentity(vectorSet, word, E, tokens, options) : null,
    /** Generator (see decode): yield* it; it returns the scores. */
    identity: (queries, tokens) => decode(fullSearch(), word, index, queries, dim, tokens),
    * identityReduced(queries, k, tokens) {
      return yield* decode(yield* reducedSearchInSlices(k), word, index, queries, k, tokens);
    },
    /** k nearest words of one query; reducedTo = width of a reduced query (concatenated word part). */
    neighbors(query, k, reducedTo = 0) {
      if (!reducedTo && vectorSet) return vectorSet.neighbors(query, k);
      const search = reducedTo ? reducedSearch(reducedTo) : fullSearch();
      return search.neighbors(query, k).map(({ row, cosine }) => ({ word: word(row), cosine }));
    },
    dispose() {
      // Only the handles made here: a WordVectorSet's cached reduced vocabularies are its own.
      for (const h of handles) h.dispose();
    },
  };
}

/** The decoder's scores: best[p] the word decoded at position p (null where not counted). */
function scores(hits, rankSum, counted, skipped, best) {
  if (counted === 0) return { top1: NaN, meanRank: NaN, counted: 0, skipped, best: [] };
  return { top1: hits / counted, meanRank: rankSum / counted, counted, skipped, best };
}

// Decodes the rows of `queries` (width floats each) whose token is in the table (index: word →
// row) against `search` → scores(). A generator yielding between chunks of queries: 512 queries
// against 20,000 words is a few hundred milliseconds, too long for one task while someone types.
function* decode(search, word, index, queries, width, tokens) {
  const truth = tokens.map((t) => index.get(t) ?? -1);
  const kept = [];
  truth.forEach((t, p) => { if (t >= 0) kept.push(p); });
  if (kept.length === 0) return scores(0, 0, 0, tokens.length, []);
  let hits = 0;
  let rankSum = 0;
  const best = new Array(tokens.length).fill(null);
  for (let start = 0; start < kept.length; start += DECODE_CHUNK) {
    if (start > 0) yield;
    const chunk = kept.slice(start, start + DECODE_CHUNK);
    const q = new Float32Array(chunk.length * width);
    chunk.forEach((p, i) => q.set(queries.subarray(p * width, (p + 1) * width), i * width));
    const result = search.nearest(q, chunk.length, { truth: chunk.map((p) => truth[p]) });
    chunk.forEach((p, i) => {
      if (result.rank[i] === 1) hits++;
      rankSum += result.rank[i];
      best[p] = word(result.best[i]);
    });
  }
  return scores(hits, rankSum, kept.length, tokens.length - kept.length, best);
}

// Identity retrieval through the set's cached decoder (WordVectorSet.identity): a keystroke
// costs about one new word's decode. Same scores as decode() on x = αE + PE (additive) or αE
// (not additive), up to float rounding. A generator like decode(): the decoder keeps what it
// decoded at each position, so it is asked for the first token, then the first IDENTITY_CHUNK,
// 2·IDENTITY_CHUNK, … and each call decodes only the new positions: a new text's first decode is
// a slice per chunk, not one long task. The first token alone, because a set's first decode also
// makes its unit rows (tens of milliseconds for GloVe): a slice of their own.
function* cachedIdentity(vectorSet, word, E, tokens, options) {
  const d = E.length / tokens.length;
  for (let n = 1; n < tokens.length; n = n === 1 ? IDENTITY_CHUNK : n + IDENTITY_CHUNK) {
    vectorSet.identity(tokens.slice(0, n), E.subarray(0, n * d), options);
    yield;
  }
  const { best, rank } = vectorSet.identity(tokens, E, options);
  let counted = 0;
  let hits = 0;
  let rankSum = 0;
  const decoded = new Array(tokens.length).fill(null);
  rank.forEach((r, p) => {
    if (r === 0) return;
    counted++;
    rankSum += r;
    if (r === 1) hits++;
    decoded[p] = word(best[p]);
  });
  return scores(hits, rankSum, counted, tokens.length - counted, decoded);
}
