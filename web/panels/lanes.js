// The lanes — one per chosen scheme — each with its encoded input, its attention map and its
// logit decomposition. One shared colour scale per lane's decomposition, so the terms can be
// compared with each other. NoPE's attention shows two maps (without and with the causal mask);
// the learned-style table's input flags the positions a trained table of L rows would not have.
import { HeatmapFigure } from '../figures/heatmap-figure.js';
import { maxAbs } from '../pipeline/math.js';
import { SCHEMES, SCHEME_NAMES, slopeText } from '../pipeline/schemes.js';
import { W_IS_I } from '../pipeline/prose.js';

const NONE = new Set();

// onAttention(scheme, spec) hears every map an attention figure is given, whoever gives it (this
// module's identity maps, or the trained heads'): the page's phone tabs copy them small.
function echoed(onAttention, scheme, figure) {
  if (!figure || !onAttention) return figure;
  const update = figure.update.bind(figure);
  figure.update = (spec) => {
    update(spec);
    onAttention(scheme, spec);
  };
  return figure;
}

/** f's value, computed on the first call only. */
function once(f) {
  let done = false;
  let value;
  return () => {
    if (!done) { value = f(); done = true; }
    return value;
  };
}

// Each part's legend title, given to its figure before its first values too (and used by what else
// draws into a lane's figure: trained-lane.js's maps).
export const LEGENDS = { input: 'component value', attention: 'attention weight', terms: 'logit term (shared scale)' };

// Figures are made for the slots found under `root` (`[data-figure="<scheme>-<part>"]`): the page
// attaches each lane's article as it is first chosen; an embedded <posenc-lab> builds the slots
// of the schemes and parts it shows before calling createLanes. `lanes` exposes the figures.
// buffers: every figure's (HeatmapFigure), which hears the arrays it reads.
export function createLanes(root, { onPickToken, schemes = SCHEMES.slice(0, 3), onAttention = null, buffers = null }) {
  const lanes = {};
  const pick = (row) => onPickToken(row);

  function attach(scheme, within = root) {
    const name = SCHEME_NAMES[scheme];
    const figure = (part, options) => {
      const slot = within.querySelector(`[data-figure="${scheme}-${part}"]`);
      return slot ? new HeatmapFigure(slot, { ...options, buffers, legendTitle: LEGENDS[part] }) : null;
    };
    lanes[scheme] = {
      input: figure('input', { title: `${name} encoded input`, palette: 'diverging', tokenRows: true, onPick: pick }),
      attention: echoed(onAttention, scheme, figure('attention', { title: `${name} attention`, palette: 'viridis', tokenRows: true, tokenCols: true, onPick: pick })),
      terms: figure('terms', { title: `${name} logit decomposition`, palette: 'diverging', tokenRows: true, tokenCols: true, onPick: pick }),
    };
    return lanes[scheme];
  }
  for (const scheme of schemes) attach(scheme);

  return {
    lanes,
    attach,

    /**
     * view: { result (lab.compare), tokens, heads, causal, dWord, trainedLength,
     * attentionShownElsewhere (a Set of schemes whose attention figure shows another map, the
     * trained heads': not painted over) }. Lanes whose scheme the result lacks are left as they
     * are (the page keeps unchosen lanes detached).
     */
    update({ result, tokens, heads, causal, dWord, trainedLength, attentionShownElsewhere = NONE }) {
      const { n } = result;
      const tokenLabel = (i) => `“${tokens[i]}” (${i})`;
      const words = { n, tokens, tokenLabel, query: (i) => `query ${tokenLabel(i)}`, key: (j) => `key ${tokenLabel(j)}` };
      const headText = heads === 0 ? W_IS_I : `head 1 of ${heads} random heads`;
      for (const scheme of Object.keys(lanes)) {
        const data = result[scheme];
        if (!data) continue;
        const name = SCHEME_NAMES[scheme];
        lanes[scheme].input?.update(inputSpec(scheme, name, data, words, { dWord, trainedLength }));
        const about = `${headText}${scheme === 'alibi' && data.slopes ? `, slope m = ${slopeText(data.slopes[0])}` : ''}`;
        if (!attentionShownElsewhere.has(scheme) && !data.inputOnly) {
          lanes[scheme].attention?.update(attentionSpec(scheme, name, data, words, { causal, about }));
        }
        // An input-only lane (its attention covered, its decomposition folded), or a folded lane
        // whose terms stayed where they were computed (termsFolded), brought no terms: the figure
        // keeps its last picture, stale, until the page asks for them (opening the decomposition).
        if (data.inputOnly || data.termsFolded) {
          lanes[scheme].terms?.stale();
          continue;
        }
        lanes[scheme].terms?.update(termsSpec(name, data, words, about));
      }
    },

    select(index) {
      for (const parts of Object.values(lanes)) for (const figure of Object.values(parts)) figure?.setSelectedToken(index);
    },
  };
}

const maskNote = (i, j) => (j > i ? ' (masked: a later word)' : '');

// The three figures' specs for one lane. words: { n, tokens, tokenLabel, query, key } of the view.

/** The encoded input x (n × width), on a symmetric range. */
function inputSpec(scheme, name, data, { n, tokens, tokenLabel }, { dWord, trainedLength }) {
  const width = data.width;
  // The colour ranges: compare's own maxima when it reports them (xMaxAbs, termMaxAbs), else scans
  // of whole matrices (≈ 2 M values per lane at n = 512) — which wait until a figure reads them to
  // paint, i.e. once on screen: getters compute them then, once.
  const inputRange = once(() => (data.xMaxAbs ?? maxAbs(data.x)) || 1);
  const dimLabel = scheme === 'concatenated'
    ? (j) => `dim ${j} (${j < dWord ? 'word part' : 'position part'})`
    : (j) => `dim ${j}`;
  // A trained table of L rows has nothing for positions ≥ L; the seeded stand-in has rows for
  // every position, so the picture says which of them a real model would lack.
  const untrained = scheme === 'learned' && n > trainedLength ? trainedLength : undefined;
  return {
    tiles: [{ values: data.x, rows: n, cols: width }],
    get min() { return -inputRange(); },
    get max() { return inputRange(); },
    label: `${name} encoded input x: ${n} tokens × ${width} dimensions` +
      (untrained === undefined ? '' : `; rows ${untrained} to ${n - 1} (hatched) are beyond the trained length L = ${trainedLength}`),
    legendTitle: LEGENDS.input,
    rowWords: tokens,
    rowLabel: tokenLabel,
    colLabel: dimLabel,
    flagRowsFrom: untrained,
    note: (t, i) => (untrained !== undefined && i >= untrained ? ` (position ≥ L = ${trainedLength}: a trained table has no row for it)` : ''),
  };
}

/** The attention weights (n × n, 0…1); NoPE's with and without the causal mask side by side. */
function attentionSpec(scheme, name, data, { n, tokens, query, key }, { causal, about }) {
  const tiles = scheme === 'nope' && data.masked && data.unmasked
    ? {
      tiles: [
        { title: 'without a mask', values: data.unmasked, rows: n, cols: n },
        { title: 'with the causal mask', values: data.masked, rows: n, cols: n },
      ],
      note: (t, i, j) => (t === 1 ? maskNote(i, j) : ''),
    }
    : { tiles: [{ values: data.weights, rows: n, cols: n }], note: (t, i, j) => (causal ? maskNote(i, j) : '') };
  return {
    ...tiles,
    min: 0,
    max: 1,
    label: `${name} attention weights (${about}), ${n} × ${n} tokens, rows are queries`,
    legendTitle: LEGENDS.attention,
    rowWords: tokens,
    colWords: tokens,
    rowLabel: query,
    colLabel: key,
  };
}

/** The logit terms (one n × n tile each), on one shared symmetric range. */
function termsSpec(name, data, { n, tokens, query, key }, about) {
  const nn = n * n;
  const names = data.termNames;
  const termMax = names.map((_, t) => once(() => data.termMaxAbs?.[t] ?? maxAbs(data.terms, t * nn, (t + 1) * nn)));
  const termRange = once(() => Math.max(...termMax.map((m) => m())) || 1);
  return {
    tiles: names.map((term, t) => ({
      // Say so when a term is identically zero (concatenated cross terms with W = I).
      get title() { return term + (termMax[t]() === 0 ? ' — exactly 0' : ''); },
      values: data.terms,
      offset: t * nn,
      rows: n,
      cols: n,
    })),
    get min() { return -termRange(); },
    get max() { return termRange(); },
    label: `${name} logit decomposition (${about}, scaled by 1/√d_head, before any mask)`,
    legendTitle: LEGENDS.terms,
    rowWords: tokens,
    colWords: tokens,
    rowLabel: query,
    colLabel: key,
  };
}
