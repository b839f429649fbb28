// The page's computing half, inside the lab worker (web/pipeline/lab-worker.js): the word-vector
// sources, the keystroke's pipeline run and what follows the settings, the analyses after typing
// pauses and the nearest words, all against the worker's one lab. Everything it returns is plain
// data (numbers, strings, typed arrays), which the page paints.
//
// createLabSession(lab) → {
//   loadGlove() → Promise<{ label }>, loadCustom(bytes, labelOf(vectors)) → Promise<{ label, size, dim }>,
//   compute({ state, trainedAvailable, trainedAsked, inputOnly, shown }) → { view (below), transfer
//     (the buffers of the view's arrays, its own copies: send them, do not copy them) },
//   analyses() → a generator: yields between its expensive parts, and yields { name, data } for
//     each analysis done ('retrieval', 'shift', 'orth', then 'summaries'),
//   neighbors(selected) → the selected token's nearest words, or null }
// view: { settings, source: info, tokens, unknown, total, textCut, n, result (a folded lane's
//   without its terms: termsFolded), pe, peConcat (null when the page shows them already),
//   normRatio, figures: { spread, distance, angles } (each null when the page shows it already),
//   shownKeys: { pe, spread, distance, angles } (what this view's tables and figures are keyed by),
//   summaries: { disturb } } — n = 0 (result null) for a text without tokens.
// shown: the shownKeys of the last view the page painted ({} at first): what it has, so nothing
//   it shows is sent again, and nothing it dropped as stale is taken for shown.
// The word vectors (n×d) stay here: the page draws the lanes' inputs, not E.
// info: { kind, dim, fixedDim, label, defaultAlpha, reduction (what the concatenated word part
//   keeps, in words, at the settled d_word) }.
import { createPipeline, settleSettings } from './pipeline.js';
import { syntheticSource, vectorSetSource } from './vocab.js';
import { meanNormRatio } from './statistics.js';
import { createMeasures } from './lab-measures.js';

// The result as the page shows it, in arrays of its own, listed in `transfer` to be sent, not
// copied: the worker's arrays are overwritten in place by the next keystroke (the row cache) and
// read by the analyses, so the page gets copies; made here they cost the worker one copy and the
// page's thread none, where a structured clone would copy again on the page's side. A folded
// lane's logit terms (4·n² floats, 4 MB per lane at n = 512) stay in the worker, and the lane says
// so (termsFolded); unfolding it asks again. The sinusoidal tables travel as the view's pe and
// peConcat, only when they change.
function shownResult(result, moreOpen, transfer) {
  if (!result) return result;
  const { pe, peConcat, ...out } = result;
  for (const scheme of result.schemes ?? []) {
    const lane = result[scheme];
    if (!lane) continue;
    const folded = lane.terms && !moreOpen.includes(scheme);
    const copy = folded ? { termsFolded: true } : {};
    for (const [key, value] of Object.entries(lane)) {
      if (folded && key === 'terms') continue;
      copy[key] = ArrayBuffer.isView(value) ? sent(value, transfer) : value;
    }
    out[scheme] = copy;
  }
  return out;
}

// A copy of a typed array whose buffer goes into `transfer`.
function sent(array, transfer) {
  const copy = array.slice();
  transfer.push(copy.buffer);
  return copy;
}

export function createLabSession(lab) {
  let synthetic = null;
  let glove = null;
  let custom = null;
  const pipeline = createPipeline(lab);
  const measures = createMeasures(lab, pipeline);
  let snapshot = null; // the last view with tokens, worker-side (its source and arrays)

  function sourceFor(state) {
    if (state.vectors === 'glove' && glove) return glove;
    if (state.vectors === 'custom' && custom) return custom;
    if (!synthetic || synthetic.dim !== state.d) synthetic = syntheticSource(lab, state.d);
    return synthetic;
  }

  const info = (source, dWord) => ({
    kind: source.kind, dim: source.dim, fixedDim: source.fixedDim, label: source.label,
    defaultAlpha: source.defaultAlpha, reduction: source.reductionLabel(dWord),
  });

  return {
    async loadGlove() {
      const vectors = await lab.loadVectors('glove');
      const source = vectorSetSource(lab, vectors);
      // One-off costs (the vocabulary's per-dimension spread, the PCA axes), paid before the
      // page switches to these words, so no keystroke pays them.
      measures.wordSpread(source);
      source.warmUp?.();
      glove = source;
      return { label: source.label };
    },

    async loadCustom(bytes, label) {
      const vectors = await lab.loadVectors(bytes);
      const previous = custom;
      custom = vectorSetSource(lab, vectors, { kind: 'custom', label: label(vectors) });
      previous?.dispose?.();
      return { label: custom.label, size: vectors.size, dim: vectors.dim };
    },

    compute({ state, trainedAvailable, trainedAsked, inputOnly, shown = {} }) {
      const source = sourceFor(state);
      const settings = settleSettings(lab, state, source, { trainedAvailable, trainedAsked });
      const view = pipeline.run(state, source, settings, { inputOnly });
      snapshot = view.n > 0 ? view : null;
      const { keys, ...figures } = measures.settingsFigures(state, source, settings, view.n, shown);
      // The sinusoidal tables follow the length and the encoding's settings, not the words.
      const peKey = JSON.stringify([view.n, settings.d, settings.dPos, state.base, state.layout, state.pairing, state.concat]);
      const newPe = view.n > 0 && peKey !== shown.pe;
      const transfer = [];
      const reply = {
        settings, source: info(source, settings.dWord), tokens: view.tokens, unknown: view.unknown, total: view.total,
        textCut: view.textCut, n: view.n, result: shownResult(view.result, state.moreOpen, transfer),
        pe: newPe ? sent(view.pe, transfer) : null, peConcat: newPe ? sent(view.peConcat, transfer) : null,
        normRatio: null, figures, shownKeys: { ...keys, ...(view.n > 0 ? { pe: peKey } : {}) }, summaries: { disturb: null },
      };
      if (view.n > 0) {
        reply.normRatio = meanNormRatio(view.E, view.pe, view.n, settings.d, settings.alpha);
        reply.summaries.disturb = measures.disturbSummary(view, null);
      }
      return { view: reply, transfer };
    },

    * analyses() {
      if (!snapshot) return;
      yield* measures.analyses(snapshot);
    },

    neighbors(selected) {
      return snapshot && selected !== null && selected < snapshot.n ? measures.neighbors(snapshot, selected) : null;
    },
  };
}
