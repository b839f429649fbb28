// From settings and text to what the figures show, for the page (web/page/app.js) and the element
// (web/element/element.js) alike: the settings settled once (every fallback with its note, the rules
// between scheme options applied by the core), then one lab.analysis() call per keystroke —
// tokens, word vectors, the PCA word part and every lane in one trip into wasm.
//
// state: the page's state shape (web/pipeline/state.js DEFAULTS): sentence, d, dPos, concat, base, alpha,
// layout, pairing, causal, heads, schemes and every scheme parameter by name. A source: a word-
// vector source of web/pipeline/vocab.js.
import { LIMITS } from '../options.mjs';
import { CONCAT_MODE } from '../scheme-table.mjs';
import { MAX_TOKENS, TRAINED_HEADS, autoDPos, validHeads } from './state.js';
import { W_IS_I } from './prose.js';

/**
 * The parameters actually used for this source, with a note for each value that cannot apply.
 * trainedAvailable: whether shipped models can stand in for the heads (the page's Heads = trained,
 * web/panels/trained-heads.js); the lanes' own compare then keeps W = I. trainedAsked: the reader
 * asked for trained heads (a link's h=trained), not only the default: a copy without models then
 * says it falls back.
 */
export function settleSettings(lab, state, source, { trainedAvailable = false, trainedAsked = false } = {}) {
  const notes = [];
  const d = source.fixedDim ? source.dim : state.d;
  let dPos = state.dPos || autoDPos(d);
  if (state.concat === CONCAT_MODE.sameWidth && dPos > d - 2) {
    notes.push(`d_p = ${dPos} leaves no room for the word at d = ${d}; using ${autoDPos(d)}.`);
    dPos = autoDPos(d);
  }
  const dWord = state.concat === CONCAT_MODE.sameWidth ? d - dPos : d;
  const concatWidth = state.concat === CONCAT_MODE.sameWidth ? d : d + dPos;
  const headChoices = validHeads([d, concatWidth]);
  const trained = state.heads === TRAINED_HEADS && trainedAvailable;
  if (state.heads === TRAINED_HEADS && !trained && trainedAsked) notes.push(`No trained models ship with this copy of the page; using ${W_IS_I}.`);
  let heads = state.heads === TRAINED_HEADS ? 0 : state.heads;
  if (!headChoices.includes(heads)) {
    notes.push(`${heads} heads do not divide the widths (${d}, ${concatWidth}) into even parts; using ${W_IS_I}.`);
    heads = 0;
  }
  const alpha = state.alpha === 'auto' ? source.defaultAlpha : state.alpha;
  // The rules between scheme options are the core's (lab.settleSchemeOptions): one fallback and
  // one note for the page and the element.
  const given = Object.fromEntries(lab.schemeTable.params.map(({ name }) => [name, state[name]]));
  const { options, notes: settled, scaleFactor } = lab.settleSchemeOptions(given, { causal: state.causal });
  notes.push(...settled);
  return { d, dPos, dWord, concatWidth, heads, trained, headChoices, alpha, notes, ...options, scale: scaleFactor };
}

/** The scheme parameters of settled settings, by name (compare's and distanceCurves' options). */
export function schemeParams(lab, settings) {
  return Object.fromEntries(lab.schemeTable.params.map(({ name }) => [name, settings[name]]));
}

/** compare()'s options for these schemes from the state and its settled settings. */
export function compareOptions(lab, state, settings, schemes) {
  return {
    schemes,
    ...schemeParams(lab, settings),
    alpha: settings.alpha,
    base: state.base,
    layout: state.layout,
    pairing: state.pairing,
    dPos: settings.dPos,
    concat: state.concat,
    causal: state.causal,
  };
}

/**
 * → { run(state, source, settings, { inputOnly, skipTerms, skipRepeat, reuseOf }?) → view, compare(view, heads, tokens, E?, schemes?, { terms }?), dispose() }.
 * inputOnly: lanes whose n×n parts no figure will show; skipTerms: lanes whose terms nothing will
 * read (compare()'s options of those names); skipRepeat: when the text gives the last run's
 * tokens again under the same options (lab.analysis's skipRepeat), run computes nothing and
 * gives { repeated: true }: the last view with tokens, and its arrays, stand. reuseOf(result) →
 * the arrays the run writes its result on, given the last view's result (default: that result's own).
 * view: { state, source, settings, tokens, total, textCut, unknown, E (n×d unscaled), result
 * (compare()'s, for state.schemes), n, pe, peConcat (the sinusoidal tables n×d and n×d_p the PE
 * figure and the norm readout show) } — n = 0 (and result null) for a text
 * without tokens. Each run overwrites the arrays of the last view's result (readers of an older
 * view must stop at the next keystroke, as the page's and the element's delayed tasks do).
 */
export function createPipeline(lab) {
  let analysis = null;
  let analysisSource = null;
  let last = null;

  return {
    run(state, source, settings, { inputOnly = [], skipTerms = [], skipRepeat = false, reuseOf = (result) => result } = {}) {
      if (source !== analysisSource) {
        analysis?.dispose();
        analysis = source.analysis();
        analysisSource = source;
        last = null;
      }
      const textCut = state.sentence.length > LIMITS.maxTextLength;
      const text = textCut ? state.sentence.slice(0, LIMITS.maxTextLength) : state.sentence;
      const out = analysis.update(text, {
        ...compareOptions(lab, state, settings, state.schemes), heads: settings.heads, maxTokens: MAX_TOKENS, peTables: true, inputOnly, skipTerms,
        ...(last?.result ? { reuse: reuseOf(last.result), reuseVectors: last.E } : {}), skipRepeat,
      });
      if (out.repeated) return { repeated: true };
      const n = out.tokens.length;
      const view = {
        state, source, settings, tokens: out.tokens, total: out.total, textCut, unknown: out.unknown, E: out.vectors,
        result: out.result, n, pe: out.pe, peConcat: out.peConcat,
      };
      last = n > 0 ? view : last;
      return view;
    },
    /**
     * lab.compare for a view's settings with other heads, tokens or schemes (the analyses after
     * typing pauses); E: the tokens' word vectors (default: embedded here). Only the
     * concatenated scheme needs the PCA word part, so it is made only then. terms: false for a
     * caller that reads no logit terms (compare()'s skipTerms for every scheme).
     */
    compare(view, heads, tokens, E, schemes = view.state.schemes, { terms = true } = {}) {
      const { state, source, settings } = view;
      const vectors = E ?? source.embed(tokens).vectors;
      const concatWords = schemes.includes('concatenated') ? source.concatWords(vectors, tokens.length) : null;
      return lab.compare(vectors, tokens.length, settings.d, {
        ...compareOptions(lab, state, settings, schemes), heads, ...(concatWords ? { concatWords } : {}),
        ...(terms ? {} : { skipTerms: schemes }),
      });
    },
    dispose() {
      analysis?.dispose();
      analysis = null;
      analysisSource = null;
      last = null;
    },
  };
}
