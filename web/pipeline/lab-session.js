// The page's computing half, inside the lab worker (web/pipeline/lab-worker.js): the word-vector
// sources, the keystroke's pipeline run and what follows the settings, the analyses after typing
// pauses and the nearest words, all against the worker's one lab. Everything it returns is plain
// data (numbers, strings, typed arrays), which the page paints.
//
// createLabSources(lab) → the word-vector sources every session of a worker shares (each GloVe
// file once, the custom set, the synthetic vectors of each d asked for).
// createLabSession(lab, sources) → {
//   loadGlove(url?, warm?) → Promise<{ label }> (url: another copy of the GloVe file, absolute;
//     default the lab's own; warm: see createLabSources), loadCustom(bytes, label) → Promise<{ info, size, dim }>,
//   compute({ state, trainedAvailable, trainedAsked, inputOnly, figures }) → view (below; figures:
//     the settings figures wanted, default all),
//   analyses(options) → a generator: yields between its expensive parts, and yields { name, data } for
//     each analysis done ('retrieval', 'shift', 'orth', then 'summaries'; options as
//     lab-measures.js's analyses),
//   neighbors(selected) → the selected token's nearest words, or null }
// Several sessions (one per client channel: the page, each <posenc-lab>) share one lab and its
// sources; each has its own last view and its own figures' keys.
// view: { settings, source: info, tokens, unknown, total, textCut, n, E, result (a folded lane's
//   without its terms: termsFolded), pe, peConcat,
//   normRatio, figures: { spread, distance, angles } (each null when unchanged since the last view),
//   summaries: { disturb } } — n = 0 (result null) for a text without tokens.
// info: { kind, dim, fixedDim, label, defaultAlpha, reduction (what the concatenated word part
//   keeps, in words, at the settled d_word) }.
import { createPipeline, settleSettings } from './pipeline.js';
import { syntheticSource, vectorSetSource } from './vocab.js';
import { meanNormRatio } from './statistics.js';
import { createMeasures } from './lab-measures.js';
import { wordSpreadOf } from './measures/spread.js';

// The result as the page shows it: a folded lane's logit terms (4·n² floats, 4 MB per lane at
// n = 512) stay in the worker, and the lane says so (termsFolded); unfolding it asks again.
function shown(result, moreOpen) {
  if (!result) return result;
  const out = { ...result };
  for (const scheme of result.schemes ?? []) {
    const lane = result[scheme];
    if (lane?.terms && !moreOpen.includes(scheme)) {
      const { terms, ...rest } = lane;
      out[scheme] = { ...rest, termsFolded: true };
    }
  }
  return out;
}

export function createLabSources(lab) {
  const gloves = new Map(); // URL ('' = the lab's own) → Promise of its source
  const synthetics = new Map(); // d → synthetic vectors (sessions may ask for several d)
  const sources = {
    custom: null,
    // warm: pay the one-off costs (the vocabulary's per-dimension spread, the PCA axes) before the
    // caller switches to these words, so no keystroke pays them; else the first view that needs
    // them does (an element whose figures may need neither).
    glove(url = '', warm = true) {
      if (!gloves.has(url)) {
        const loading = lab.loadVectors(url ? new URL(url) : 'glove').then((vectors) => {
          const source = vectorSetSource(lab, vectors);
          if (warm) {
            wordSpreadOf(source);
            source.warmUp?.();
          }
          return source;
        });
        loading.catch(() => gloves.delete(url)); // a later ask tries again
        gloves.set(url, loading);
      }
      return gloves.get(url);
    },
    synthetic(d) {
      if (!synthetics.has(d)) synthetics.set(d, syntheticSource(lab, d));
      return synthetics.get(d);
    },
  };
  return sources;
}

export function createLabSession(lab, sources = createLabSources(lab)) {
  let glove = null;
  const pipeline = createPipeline(lab);
  const measures = createMeasures(lab, pipeline);
  let snapshot = null; // the last view with tokens, worker-side (its source and arrays)

  function sourceFor(state) {
    if (state.vectors === 'glove' && glove) return glove;
    if (state.vectors === 'custom' && sources.custom) return sources.custom;
    return sources.synthetic(state.d);
  }

  const info = (source, dWord) => ({
    kind: source.kind, dim: source.dim, fixedDim: source.fixedDim, label: source.label,
    defaultAlpha: source.defaultAlpha, reduction: source.reductionLabel(dWord),
  });

  return {
    async loadGlove(url, warm = true) {
      glove = await sources.glove(url, warm);
      return { label: glove.label };
    },

    async loadCustom(bytes, label) {
      const vectors = await lab.loadVectors(bytes);
      const previous = sources.custom;
      sources.custom = vectorSetSource(lab, vectors, { kind: 'custom', label: label(vectors) });
      previous?.dispose?.();
      return { label: sources.custom.label, size: vectors.size, dim: vectors.dim };
    },

    compute({ state, trainedAvailable, trainedAsked, inputOnly, figures }) {
      const source = sourceFor(state);
      const settings = settleSettings(lab, state, source, { trainedAvailable, trainedAsked });
      const view = pipeline.run(state, source, settings, { inputOnly });
      snapshot = view.n > 0 ? view : null;
      const reply = {
        settings, source: info(source, settings.dWord), tokens: view.tokens, unknown: view.unknown, total: view.total,
        textCut: view.textCut, n: view.n, E: view.E, result: shown(view.result, state.moreOpen), pe: view.pe, peConcat: view.peConcat,
        normRatio: null, figures: measures.settingsFigures(state, source, settings, view.n, figures), summaries: { disturb: null },
      };
      if (view.n > 0) {
        reply.normRatio = meanNormRatio(view.E, view.pe, view.n, settings.d, settings.alpha);
        reply.summaries.disturb = measures.disturbSummary(view, null);
      }
      return reply;
    },

    * analyses(options) {
      if (!snapshot) return;
      yield* measures.analyses(snapshot, options);
    },

    neighbors(selected) {
      return snapshot && selected !== null && selected < snapshot.n ? measures.neighbors(snapshot, selected) : null;
    },
  };
}
