// The page's computing half, inside the lab worker (web/pipeline/lab-worker.js): the word-vector
// sources, the keystroke's pipeline run and what follows the settings, the analyses after typing
// pauses and the nearest words, all against the worker's one lab. Everything it returns is plain
// data (numbers, strings, typed arrays), which the page paints.
//
// createLabSources(lab) → the word-vector sources every session of a worker shares (each GloVe
// file once, the custom set, the synthetic vectors of each d asked for).
// createLabSession(lab, sources, { buffers }) → {
//   loadGlove(url?, warm?) → Promise<{ label }> (url: another copy of the GloVe file, absolute;
//     default the lab's own; warm: see createLabSources), loadCustom(bytes, label) → Promise<{ info, size, dim }>,
//   compute({ gen, repeatOf, state, trainedAvailable, trainedAsked, inputOnly, figures, shown, summaries, trained })
//     → { view (below), transfer (the buffers of the view's arrays, its own copies: send them, do
//     not copy them) };
//     figures: the settings figures wanted, default all; summaries: false leaves the view's
//     summaries out (null), for a client that keeps the sentences it shows; trained: the
//     trained lanes' pass requests (model-host.js), which the view's passes answer;
//     gen: the client's number for this compute; repeatOf: the gen of the last answer the client
//     shows (null: none) — when it is this session's last answer, everything but the text is asked
//     as then, and the text gives the same tokens (a space typed), nothing is computed and the
//     view is { repeated: true } alone: the client's figures stand, and so do the analyses' caches,
//   analyses(options) → a generator: yields between its expensive parts, and yields { name, data } for
//     each analysis done ('retrieval', 'shift', 'orth', then 'summaries'; options as
//     lab-measures.js's analyses),
//   neighbors(selected) → the selected token's nearest words, or null }
// Several sessions (one per client channel: the page, each <posenc-lab>) share one lab, its
// sources and, in a worker, the buffers the page gives back (buffers: buffer-pool.js's, whose
// copies the views' arrays are; default fresh copies); each has its own last view.
// view: { settings, source: info, tokens, unknown, total, textCut, n, result (a folded lane's
//   without its terms: termsFolded), pe, peConcat (null when the client shows them already),
//   normRatio, figures: { spread, distance, angles } (each null when the client shows it already
//   or did not ask for it),
//   shownKeys: { pe, spread, distance, angles } (what this view's tables and figures are keyed by),
//   summaries: { disturb, shift, orth } (the summary's sentences, numbers the analyses give still
//   stand-ins; null without tokens, or where no summary is shown) } — n = 0 (result null) for a
//   text without tokens.
// shown: the shownKeys of the last view the client painted ({} at first): what it has, so nothing
//   it shows is sent again, and nothing it dropped as stale is taken for shown.
// The word vectors (n×d) stay here: the page draws the lanes' inputs, not E.
// info: { kind, dim, fixedDim, label, defaultAlpha, reduction (what the concatenated word part
//   keeps, in words, at the settled d_word) }.
import { createPipeline, settleSettings } from './pipeline.js';
import { syntheticSource, vectorSetSource } from './vocab.js';
import { meanNormRatio } from './statistics.js';
import { createMeasures } from './lab-measures.js';
import { wordSpreadOf } from './measures/spread.js';
import { freshCopy } from './buffer-pool.js';

// The result as the page shows it, in arrays of its own, listed in `transfer` to be sent, not
// copied. A lane's x is overwritten in place by the next keystroke (the row cache) and read by the
// nearest words and the analyses, so the page gets a copy (sent: on a buffer the page gave back
// where there is one); made here it costs the worker one copy and the page's thread none, where a
// structured clone would copy again on the page's side. The lanes' n×n arrays (HANDED_OVER, 1 MB
// and more a lane at n = 512) go as they are where the session has a pool (handOver): the worker
// keeps none, the next run writes its own on the pool's buffers (reuseOf), and the analyses
// compute the weights they read again (measures/analyses.js). A folded lane's logit terms (4·n²
// floats, 4 MB per lane at n = 512) are not even formed (compute's skipTerms) and so not sent;
// the lane says so (termsFolded), and unfolding it asks again. The sinusoidal tables travel as the
// view's pe and peConcat, only when they change.
const HANDED_OVER = ['weights', 'terms', 'masked', 'unmasked'];
function shownResult(result, moreOpen, sent, handOver) {
  if (!result) return result;
  const { pe, peConcat, ...out } = result;
  for (const scheme of result.schemes ?? []) {
    const lane = result[scheme];
    if (!lane) continue;
    const folded = lane.terms && !moreOpen.includes(scheme);
    const copy = folded ? { termsFolded: true } : {};
    for (const [key, value] of Object.entries(lane)) {
      if (folded && key === 'terms') continue;
      if (!ArrayBuffer.isView(value)) copy[key] = value;
      else copy[key] = HANDED_OVER.includes(key) ? handOver(scheme, key, value) : sent(value);
    }
    out[scheme] = copy;
  }
  return out;
}

// The arrays a run writes its result on, where the last view's n×n arrays were handed over:
// arrays of their types and lengths on the pool's buffers (the buffers the page gave back), each
// also pushed onto `taken`; putBackUnused puts back those the run did not write on (a repeat
// writes none, an input-only lane none, a longer array may need a bigger buffer).
function reuseOf(result, buffers, taken) {
  const handed = handedOver.get(result);
  if (!handed) return result;
  const reuse = { ...result };
  for (const { scheme, key, Type, length } of handed) {
    const array = buffers.array(Type, length, taken);
    reuse[scheme] = { ...reuse[scheme], [key]: array };
  }
  return reuse;
}
function putBackUnused(taken, result, buffers) {
  if (!taken.length) return;
  const used = new Set(HANDED_OVER.flatMap((key) => (result?.schemes ?? []).map((scheme) => result[scheme]?.[key]?.buffer)));
  buffers.putBack(taken.filter((buffer) => !used.has(buffer)));
}
const handedOver = new WeakMap(); // a result → [{ scheme, key, Type, length }]: its arrays the page has

// Resolves in a later task (a zero-delay timer: pipeline/tasks.js's nextTask would bring its
// scheduler code into the element's bundle, whose budget has little room left).
const aTaskLater = () => new Promise((resolve) => setTimeout(resolve, 0));

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
        const loading = lab.loadVectors(url ? new URL(url) : 'glove').then(async (vectors) => {
          const source = vectorSetSource(lab, vectors);
          if (warm) {
            // Each in a task of its own (the PCA axes take tens of milliseconds), so a
            // keystroke's compute meanwhile waits for one part, not for the whole load.
            await aTaskLater();
            wordSpreadOf(source);
            await aTaskLater();
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

/** The source as the client shows it (view.source above). */
function sourceInfo(source, dWord) {
  return {
    kind: source.kind, dim: source.dim, fixedDim: source.fixedDim, label: source.label,
    defaultAlpha: source.defaultAlpha, reduction: source.reductionLabel(dWord),
  };
}

/** A compute's answer → { view (above), transfer }, from the pipeline's view and the settings figures. */
function reply(view, { state, settings, source, figures: { keys, ...figures }, shown, summaries, measures, buffers }) {
  // The sinusoidal tables follow the length and the encoding's settings, not the words.
  const peKey = JSON.stringify([view.n, settings.d, settings.dPos, state.base, state.layout, state.pairing, state.concat]);
  const newPe = view.n > 0 && peKey !== shown.pe;
  const transfer = [];
  const sent = (array) => buffers.copy(array, transfer); // a copy whose buffer goes into `transfer`
  const handed = [];
  const handOver = buffers.array ? (scheme, key, array) => {
    handed.push({ scheme, key, Type: array.constructor, length: array.length });
    transfer.push(array.buffer);
    return array;
  } : (scheme, key, array) => sent(array);
  const result = shownResult(view.result, state.moreOpen, sent, handOver);
  if (handed.length) handedOver.set(view.result, handed);
  const out = {
    settings, source: sourceInfo(source, settings.dWord), tokens: view.tokens, unknown: view.unknown, total: view.total,
    textCut: view.textCut, n: view.n, result,
    pe: newPe ? sent(view.pe) : null, peConcat: newPe ? sent(view.peConcat) : null,
    normRatio: null, figures, shownKeys: { ...keys, ...(view.n > 0 ? { pe: peKey } : {}) }, summaries: null,
  };
  if (view.n > 0) {
    out.normRatio = meanNormRatio(view.E, view.pe, view.n, settings.d, settings.alpha);
    if (summaries) out.summaries = measures.pendingSummaries(view);
  }
  return { view: out, transfer };
}

// Fresh copies, for a session without a pool (one in the page's own thread sends nothing).
const FRESH = { copy: freshCopy };

// The answer to a compute whose view would be the last one again (see compute's repeatOf).
const REPEATED = Object.freeze({ view: Object.freeze({ repeated: true }), transfer: Object.freeze([]) });

export function createLabSession(lab, sources = createLabSources(lab), { buffers = FRESH } = {}) {
  let glove = null;
  const pipeline = createPipeline(lab);
  const measures = createMeasures(lab, pipeline);
  let snapshot = null; // the last view with tokens, worker-side (its source and arrays)
  let answered = null; // the last compute answered: { gen, source, asked } (see compute)

  function sourceFor(state) {
    if (state.vectors === 'glove' && glove) return glove;
    if (state.vectors === 'custom' && sources.custom) return sources.custom;
    return sources.synthetic(state.d);
  }

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

    compute({ gen = null, repeatOf = null, state, trainedAvailable, trainedAsked, inputOnly, figures: wanted, shown = {}, summaries = true, trained = null }) {
      const source = sourceFor(state);
      const settings = settleSettings(lab, state, source, { trainedAvailable, trainedAsked });
      const skipTerms = state.schemes.filter((scheme) => !state.moreOpen.includes(scheme));
      // Everything asked but the text (and the ids a trained lane shows, which the lane keeps):
      // the same, for a client that shows the last answer, leaves the text's tokens the only
      // thing that can change the view.
      const { sentence, ...settingsAsked } = state;
      const passes = trained?.map(({ shownIds, ...request }) => request) ?? null;
      const asked = JSON.stringify([settingsAsked, trainedAvailable, trainedAsked, inputOnly, wanted ?? null, summaries, passes]);
      const skipRepeat = repeatOf !== null && repeatOf === answered?.gen && source === answered.source && asked === answered.asked;
      answered = null; // until this compute has succeeded
      const taken = [];
      const view = pipeline.run(state, source, settings, { inputOnly, skipTerms, skipRepeat, reuseOf: (result) => reuseOf(result, buffers, taken) });
      putBackUnused(taken, view.result, buffers);
      answered = { gen, source, asked };
      if (view.repeated) return REPEATED; // the snapshot, its caches and the client's figures stand
      snapshot = view.n > 0 ? view : null;
      const figures = measures.settingsFigures(state, source, settings, view.n, { wanted, shown });
      return reply(view, { state, settings, source, figures, shown, summaries, measures, buffers });
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
