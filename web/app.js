// PosEnc Lab's page: orchestration only. It keeps the state (mirrored in the URL hash), turns a
// sentence into one lab.compare() per animation frame, hands the results to the panels, and runs
// the expensive analyses (retrieval over the whole vocabulary, shift invariance's extra compares,
// near-orthogonality) a moment after typing pauses, one task at a time, so typing never waits.
import { LIMITS, load } from './posenc.mjs';
import { DEFAULTS, FIELDS, MAX_TOKENS, autoDPos, parseField, readHash, validHeads, writeHash } from './state.js';
import { syntheticSource, vectorSetSource } from './vocab.js';
import { createLanes } from './panels/lanes.js';
import { createTokenList } from './panels/tokens.js';
import { createPeFigure, createSpreadPanel } from './panels/encoding.js';
import { createRetrievalPanel } from './panels/retrieval.js';
import { createShiftPanel } from './panels/shift.js';
import { createDistancePanel } from './panels/distance.js';
import { createOrthogonalityPanel } from './panels/orthogonality.js';
import { rowNorm, scaled } from './math.js';
import { runInTasks } from './tasks.js';

const HEAVY_DELAY_MS = 250; // after the last keystroke
const $ = (id) => document.getElementById(id);

const ui = {
  sentence: $('sentence'),
  vectors: $('vectors'),
  dim: $('dim'),
  dimHint: $('dim-hint'),
  dpos: $('dpos'),
  concat: $('concat'),
  base: $('base'),
  alpha: $('alpha'),
  alphaAuto: $('alpha-auto'),
  normRatio: $('norm-ratio'),
  layout: $('layout'),
  pairing: $('pairing'),
  heads: $('heads'),
  causal: $('causal'),
  controlError: $('control-error'),
  vectorsStatus: $('vectors-status'),
  urlNote: $('url-note'),
  engine: $('engine'),
  failure: $('failure'),
  emptyState: $('empty-state'),
  results: $('results'),
  spreadLength: $('spread-length'),
  spreadLengthValue: $('spread-length-value'),
  spreadFollow: $('spread-follow'),
  shiftK: $('shift-k'),
  maxDistance: $('max-distance'),
  headsNote: $('heads-note'),
};

let lab = null;
let state = { ...DEFAULTS };
let synthetic = null;     // the synthetic source for the current d
let gloveSource = null;   // set once GloVe has loaded
let customSource = null;  // a user's vector file (web/byo-vectors.js)
let view = null;          // what the panels show now (see recompute)
let selected = null;      // selected token position
let frameRequested = false;
let heavyTimer = 0;
let generation = 0;       // bumps on every recompute; stale heavy work checks it and stops
let decoderCache = { key: '', decoder: null };
const spreadCache = new WeakMap();
let lastHeavyMs = null;

const lanes = createLanes(document, { onPickToken: selectToken });
const tokenList = createTokenList({
  list: $('tokens'),
  count: $('token-count'),
  truncation: $('truncation'),
  unknownLegend: $('unknown-legend'),
  neighbors: $('neighbors'),
  onSelect: selectToken,
});
const slot = (name) => document.querySelector(`[data-figure="${name}"]`);
const peFigure = createPeFigure(slot('pe'));
const spreadPanel = createSpreadPanel(slot('spread'));
const retrievalPanel = createRetrievalPanel(slot('retrieval'));
const shiftPanel = createShiftPanel(slot('shift'));
const distancePanel = createDistancePanel(slot('distance'));
const orthogonalityPanel = createOrthogonalityPanel(slot('orth'));
let distanceKey = '';
let spreadKey = '';
let lastSpread = null;

start();

async function start() {
  applyHash({ initial: true });
  wireControls();
  try {
    lab = await load();
  } catch (error) {
    ui.engine.textContent = 'The wasm core could not start.';
    showFailure(`PosEnc Lab could not load its WebAssembly core: ${error.message}`);
    return;
  }
  loadGlove();
  mountVectorPicker();
  recompute();
}

function loadGlove() {
  setStatus('Loading GloVe word vectors… synthetic vectors are shown until they arrive.');
  lab.loadVectors('glove').then((vectors) => {
    const glove = vectorSetSource(lab, vectors);
    // One-off costs (the vocabulary's per-dimension spread, the PCA axes): pay them while the
    // reader reads, not inside the next keystroke.
    setTimeout(() => {
      wordSpread(glove);
      glove.warmUp?.();
      gloveSource = glove;
      setStatus(`Word vectors: ${glove.label}.`);
      requestRecompute();
    }, 50);
  }, (error) => {
    setStatus(`GloVe could not be loaded (${error.message}); showing synthetic vectors.`);
    if (state.vectors === 'glove') state.vectors = 'synthetic';
    requestRecompute();
  });
}

function setStatus(text) {
  ui.vectorsStatus.textContent = text;
}

// ---- State ⇄ controls ⇄ URL -------------------------------------------------------------

function applyHash({ initial = false } = {}) {
  const { state: fromHash, notes } = readHash(location.hash);
  if (initial && !location.hash) fromHash.sentence = ui.sentence.value || DEFAULTS.sentence;
  state = fromHash;
  ui.urlNote.hidden = notes.length === 0;
  ui.urlNote.textContent = notes.length ? `Some values in the link were not understood: ${notes.join(' ')}` : '';
  writeControls();
  if (!initial) requestRecompute();
}

function writeControls() {
  ui.sentence.value = state.sentence;
  ui.vectors.value = state.vectors;
  ui.dim.value = String(state.d);
  ui.concat.value = state.concat;
  ui.base.value = String(state.base);
  ui.layout.value = state.layout;
  ui.pairing.value = state.pairing;
  ui.causal.checked = state.causal;
  ui.shiftK.value = String(state.shiftK);
  ui.maxDistance.value = String(state.maxDistance);
  ui.spreadFollow.checked = state.spreadLength === 0;
  if (state.spreadLength) ui.spreadLength.value = String(state.spreadLength);
  // d_p, α and heads depend on the word vectors; recompute() writes them.
}

function wireControls() {
  ui.sentence.addEventListener('input', () => { state.sentence = ui.sentence.value; requestRecompute(); });
  const choose = (element, name, cast = (v) => v) => element.addEventListener('change', () => {
    state[name] = cast(element.value);
    requestRecompute();
  });
  choose(ui.vectors, 'vectors');
  choose(ui.concat, 'concat');
  choose(ui.layout, 'layout');
  choose(ui.pairing, 'pairing');
  choose(ui.heads, 'heads', Number);
  ui.causal.addEventListener('change', () => { state.causal = ui.causal.checked; requestRecompute(); });
  numberControl(ui.dim, 'd', 'd');
  numberControl(ui.dpos, 'dPos', 'd_p');
  numberControl(ui.base, 'base', 'base');
  numberControl(ui.alpha, 'alpha', 'α');
  numberControl(ui.shiftK, 'shiftK', 'k');
  numberControl(ui.maxDistance, 'maxDistance', 'K');
  ui.alphaAuto.addEventListener('click', () => { state.alpha = 'auto'; requestRecompute(); });
  ui.spreadLength.addEventListener('input', () => {
    state.spreadLength = Number(ui.spreadLength.value);
    ui.spreadFollow.checked = false;
    requestRecompute();
  });
  ui.spreadFollow.addEventListener('change', () => {
    state.spreadLength = ui.spreadFollow.checked ? 0 : Number(ui.spreadLength.value);
    requestRecompute();
  });
  window.addEventListener('hashchange', () => {
    if (location.hash !== writeHash(state)) applyHash();
  });
}

// The bring-your-own picker (web/byo-vectors.js, another module) is optional: without it the
// page works with GloVe and synthetic vectors.
async function mountVectorPicker() {
  let picker;
  try {
    picker = await import('./byo-vectors.js');
  } catch {
    return;
  }
  picker.mountVectorPicker(document.getElementById('byo-vectors'), {
    lab,
    onLoaded(vectors, summary) {
      const previous = customSource;
      const name = summary?.name ?? summary?.fileName ?? 'your file';
      customSource = vectorSetSource(lab, vectors, {
        kind: 'custom',
        label: `${name}: ${vectors.size.toLocaleString('en-US')} words, d = ${vectors.dim}`,
      });
      if (![...ui.vectors.options].some((o) => o.value === 'custom')) ui.vectors.add(new Option('Your vector file', 'custom'));
      state.vectors = 'custom';
      setStatus(`Word vectors: ${customSource.label} (not kept in the link).`);
      requestRecompute();
      previous?.dispose?.();
    },
    onReset() {
      state.vectors = 'glove';
      if (gloveSource) setStatus(`Word vectors: ${gloveSource.label}.`);
      requestRecompute();
    },
  });
}

// A valid value applies at once; the complaint waits for `change`, so typing "1" on the way to
// "128" does not flash an error.
function numberControl(input, name, shown) {
  const apply = (complain) => {
    const value = parseField(name, input.value);
    if (value === undefined || value === 0) {
      if (complain) showControlError(`${shown} must be ${FIELDS[name][2]}; still using the last valid value.`);
      return;
    }
    showControlError('');
    input.removeAttribute('aria-invalid');
    if (value !== state[name]) { state[name] = value; requestRecompute(); }
  };
  input.addEventListener('input', () => apply(false));
  input.addEventListener('change', () => {
    apply(true);
    if (!ui.controlError.hidden) input.setAttribute('aria-invalid', 'true');
  });
}

function showControlError(message) {
  ui.controlError.hidden = message === '';
  ui.controlError.textContent = message;
}

// ---- Recompute (one per frame) -----------------------------------------------------------

function requestRecompute() {
  if (frameRequested || !lab) return;
  frameRequested = true;
  requestAnimationFrame(() => {
    frameRequested = false;
    recompute();
  });
}

function currentSource() {
  if (state.vectors === 'glove' && gloveSource) return gloveSource;
  if (state.vectors === 'custom' && customSource) return customSource;
  if (!synthetic || synthetic.dim !== state.d) synthetic = syntheticSource(lab, state.d);
  return synthetic;
}

/** The parameters actually used, with fallbacks (and notes) where the state cannot apply. */
function effectiveSettings(source) {
  const notes = [];
  const d = source.fixedDim ? source.dim : state.d;
  let dPos = state.dPos || autoDPos(d);
  if (state.concat === 'same-width' && dPos > d - 2) {
    notes.push(`d_p = ${dPos} leaves no room for the word at d = ${d}; using ${autoDPos(d)}.`);
    dPos = autoDPos(d);
  }
  const dWord = state.concat === 'same-width' ? d - dPos : d;
  const concatWidth = state.concat === 'same-width' ? d : d + dPos;
  const heads = validHeads([d, concatWidth]);
  let h = state.heads;
  if (!heads.includes(h)) {
    notes.push(`${h} heads do not divide the widths (${d}, ${concatWidth}) into even parts; using W = I.`);
    h = 0;
  }
  const alpha = state.alpha === 'auto' ? source.defaultAlpha : state.alpha;
  return { d, dPos, dWord, concatWidth, heads: h, headChoices: heads, alpha, notes };
}

function recompute() {
  const started = performance.now();
  generation++;
  const source = currentSource();
  const settings = effectiveSettings(source);
  reflectSettings(source, settings);
  scheduleUrlWrite();

  const textCut = state.sentence.length > LIMITS.maxTextLength;
  const allTokens = source.tokenize(textCut ? state.sentence.slice(0, LIMITS.maxTextLength) : state.sentence);
  if (allTokens.length === 0) {
    showEmptyState();
    ui.engine.textContent = `${engineName()} · nothing to compute`;
    return;
  }
  const tokens = allTokens.slice(0, MAX_TOKENS);
  let result;
  let embedded;
  try {
    embedded = source.embed(tokens);
    result = runCompare(source, settings, tokens, settings.heads, embedded.vectors);
  } catch (error) {
    // Inputs are validated before they reach the lab, so this is a bug: say so rather than
    // leave stale figures looking current.
    showFailure(`Could not compute the encodings: ${error.message}`);
    return;
  }
  ui.failure.hidden = true;
  ui.emptyState.hidden = true;
  ui.results.hidden = false;
  const n = tokens.length;
  if (selected !== null && selected >= n) selected = null;
  view = { source, settings, tokens, unknown: embedded.unknown, E: embedded.vectors, result, n };

  tokenList.render(tokens, embedded.unknown, allTokens.length, textCut);
  lanes.update({ result, tokens, heads: settings.heads, causal: state.causal, dWord: settings.dWord });
  lanes.select(selected);
  peFigure.update({ pe: result.pe, peConcat: result.peConcat, n, d: settings.d, dPos: settings.dPos, layout: state.layout });
  const spread = updateSpread(source, settings, n);
  updateDistance(settings);
  updateNormRatio(result);
  summarise('disturb', disturbSummary(spread, null));

  const elapsed = performance.now() - started;
  view.recomputeMs = elapsed;
  showEngine();
  scheduleHeavy();
}

// Chromium makes history.replaceState cost milliseconds; once typing pauses is soon enough.
let urlTimer = 0;
function scheduleUrlWrite() {
  clearTimeout(urlTimer);
  urlTimer = setTimeout(() => history.replaceState(null, '', writeHash(state) || location.pathname + location.search), 150);
}

function runCompare(source, settings, tokens, heads, E) {
  const n = tokens.length;
  const vectors = E ?? source.embed(tokens).vectors;
  const concatWords = source.concatWords(vectors, n);
  return lab.compare(vectors, n, settings.d, {
    alpha: settings.alpha,
    base: state.base,
    layout: state.layout,
    pairing: state.pairing,
    dPos: settings.dPos,
    concat: state.concat,
    causal: state.causal,
    heads,
    ...(concatWords ? { concatWords } : {}),
  });
}

function engineName() {
  return lab.simd ? 'wasm SIMD' : 'scalar wasm';
}

function showEngine() {
  if (!view) return;
  const heavy = lastHeavyMs === null ? '' : ` · analyses ${lastHeavyMs.toFixed(0)} ms after typing pauses`;
  ui.engine.textContent = `${engineName()} · last recompute ${view.recomputeMs.toFixed(1)} ms ` +
    `(n = ${view.n}, d = ${view.settings.d})${heavy}`;
}

// Controls and captions that follow the source and the settings.
function reflectSettings(source, settings) {
  ui.vectors.value = state.vectors;
  ui.dim.disabled = source.fixedDim;
  ui.dimHint.textContent = source.fixedDim ? `fixed at ${source.dim} by these word vectors` : 'synthetic only, even';
  if (source.fixedDim || document.activeElement !== ui.dim) ui.dim.value = String(settings.d);
  if (document.activeElement !== ui.dpos) ui.dpos.value = String(settings.dPos);
  if (document.activeElement !== ui.alpha) ui.alpha.value = String(Number(settings.alpha.toPrecision(4)));
  ui.alphaAuto.disabled = state.alpha === 'auto';
  ui.alphaAuto.title = source.kind === 'synthetic'
    ? 'α = 1: synthetic components already have RMS 1'
    : `α = 1/RMS of a component (${(1 / source.defaultAlpha).toPrecision(4)}), so αE's components have RMS 1 — the role of ×√d_model`;
  const headLabels = settings.headChoices.map((h) => [h, h === 0 ? 'identity (W = I)' : `${h} random head${h === 1 ? '' : 's'}`]);
  if (ui.heads.options.length !== headLabels.length || [...ui.heads.options].some((o, i) => Number(o.value) !== headLabels[i][0])) {
    ui.heads.replaceChildren(...headLabels.map(([h, label]) => new Option(label, String(h))));
  }
  ui.heads.value = String(settings.heads);
  if (settings.notes.length) showControlError(settings.notes.join(' '));
  else if (ui.controlError.textContent.includes('using W = I') || ui.controlError.textContent.includes('no room')) showControlError('');

  setField('d', String(settings.d));
  setField('dWord', String(settings.dWord));
  setField('dPos', String(settings.dPos));
  setField('layout', state.layout);
  setField('layoutNote', state.layout === 'half' ? ', as in tensor2tensor: sines in the first half, cosines in the second' : ', as in Vaswani et al.');
  setField('pairing', state.pairing === 'half' ? 'half (i, i + d/2), as in GPT-NeoX and LLaMA code' : 'interleaved (2i, 2i+1), as in RoFormer');
  setField('concatMode', state.concat === 'same-width' ? `same total width ${settings.d}` : `widened to ${settings.d + settings.dPos}`);
  setField('reduction', state.concat === 'same-width' ? `Word part: ${source.reductionLabel(settings.dWord)}.` : 'The whole word vector is kept.');
  setField('concatCross', settings.heads === 0
    ? 'With W = I the word and position parts live in separate coordinates, so both cross terms are exactly 0.'
    : `With ${settings.heads} random heads the projections mix word and position coordinates, so the cross terms are no longer zero.`);
  setField('spreadVocab', source.kind === 'synthetic' ? '2,000 hashed filler words' : 'the whole vocabulary');
  ui.headsNote.textContent = settings.heads === 0
    ? 'Projections are the identity (W = I): queries, keys and values are the encoded vectors themselves, so the pictures show what the encoding alone does, with no learned weights in the way.'
    : `${settings.heads} random heads: fixed seeded random projections W_q, W_k, W_v (d_head = ${settings.d / settings.heads}); the maps show head 1.`;
}

function setField(name, text) {
  for (const element of document.querySelectorAll(`[data-field="${name}"]`)) {
    if (element.textContent !== text) element.textContent = text;
  }
}

function showEmptyState() {
  view = null;
  ui.emptyState.hidden = false;
  ui.results.hidden = true;
  ui.failure.hidden = true;
}

function showFailure(message) {
  ui.failure.textContent = message;
  ui.failure.hidden = false;
  ui.results.hidden = true;
}

// ---- Cheap panels (every frame) ----------------------------------------------------------

function wordSpread(source) {
  if (!spreadCache.has(source)) spreadCache.set(source, source.vocabularySpread());
  return spreadCache.get(source);
}

function updateSpread(source, settings, n) {
  const length = state.spreadLength || n;
  if (state.spreadLength === 0) ui.spreadLength.value = String(n);
  ui.spreadLengthValue.textContent = `L = ${length}${state.spreadLength === 0 ? ' (the sentence)' : ''}`;
  // Computed once per source (GloVe's right after loading, before the page switches to it).
  const spread = wordSpread(source);
  // The picture depends on L, not on the words, so most keystrokes leave it as it is.
  const key = [source.kind, settings.d, settings.alpha, state.base, state.layout, length].join('/');
  if (key === spreadKey) return lastSpread;
  spreadKey = key;
  lastSpread = spreadPanel.update({ lab, d: settings.d, base: state.base, layout: state.layout, alpha: settings.alpha, wordSpread: spread, length });
}

function updateDistance(settings) {
  const key = `${settings.d}/${state.base}/${state.maxDistance}`;
  if (key === distanceKey) return;
  distanceKey = key;
  distancePanel.update({ lab, d: settings.d, base: state.base, maxDistance: state.maxDistance });
}

function updateNormRatio(result) {
  const { n, d } = result;
  const add = result.rotary.x; // αE
  let sum = 0;
  for (let p = 0; p < n; p++) sum += rowNorm(result.pe, d, p) / Math.max(1e-12, rowNorm(add, d, p));
  ui.normRatio.textContent = `‖PE‖ / ‖αE‖ = ${(sum / n).toFixed(3)} (mean over tokens)`;
}

// ---- Token selection and nearest words ---------------------------------------------------

function selectToken(index) {
  if (!view) return;
  selected = index === selected ? null : index;
  tokenList.select(selected);
  lanes.select(selected);
  showNeighbors();
}

function currentDecoder() {
  const { source, tokens } = view;
  const key = source.kind === 'synthetic' ? `syn/${source.dim}/${[...new Set(tokens)].join('\u0000')}` : source.kind;
  if (decoderCache.key !== key || (source.kind !== 'synthetic' && decoderCache.source !== source)) {
    decoderCache.decoder?.dispose();
    decoderCache = { key, source, decoder: source.decoder(tokens) };
  }
  return decoderCache.decoder;
}

function showNeighbors() {
  if (selected === null || !view) { tokenList.showNeighbors(null); return; }
  const { result, tokens, E, settings } = view;
  const p = selected;
  const decoder = currentDecoder();
  const d = settings.d;
  const row = (m, width, from = 0, count = width) => m.slice(p * width + from, p * width + from + count);
  const cat = result.concatenated;
  const rows = [
    { name: 'before encoding (αE)', words: decoder.neighbors(row(E, d), 5) },
    { name: 'additive (x = αE + PE)', words: decoder.neighbors(row(result.additive.x, d), 5) },
    { name: `concatenated (word part, ${settings.dWord} dims)`, words: decoder.neighbors(row(cat.x, cat.width, 0, settings.dWord), 5, settings.dWord) },
    { name: 'rotary (x = αE)', words: null, note: 'x is left untouched, so its nearest words are exactly those before encoding.' },
  ];
  tokenList.showNeighbors(tokens[p], p, rows,
    `Cosine similarity; searched among ${decoder.label}. ` +
    (view.unknown[p] ? 'This token is unknown: its vector is hashed, so its neighbours are arbitrary.' : ''));
}

// ---- Expensive analyses (after typing pauses) --------------------------------------------

function scheduleHeavy() {
  clearTimeout(heavyTimer);
  heavyTimer = setTimeout(runHeavy, HEAVY_DELAY_MS);
}

// Each analysis is its own task, and the long ones are generators that yield between their
// expensive parts, so a keystroke arriving in between is handled before the next part.
function runHeavy() {
  const mine = generation;
  const snapshot = view;
  if (!snapshot) return;
  let total = 0;
  const steps = [
    () => { if (selected !== null) showNeighbors(); },
    function* retrieval() { snapshot.identity = yield* runRetrieval(snapshot); },
    function* shift() { snapshot.shift = yield* runShift(snapshot); },
    () => { snapshot.orth = runOrthogonality(snapshot); },
    () => {
      summarise('disturb', disturbSummary(updateSpread(snapshot.source, snapshot.settings, snapshot.n), snapshot.identity));
      summarise('shift', shiftSummary(snapshot));
      summarise('orth', orthSummary(snapshot));
      lastHeavyMs = total;
      showEngine();
    },
  ];
  runInTasks(steps, {
    isCurrent: () => generation === mine,
    onError: (error) => showFailure(`An analysis failed: ${error.message}`),
    onTask: (ms) => { total += ms; },
  });
}

function runRetrieval({ result, tokens, settings, E }) {
  return retrievalPanel.update({ lab, result, tokens, decoder: currentDecoder(), alpha: settings.alpha, dWord: settings.dWord,
    E, base: state.base, layout: state.layout });
}

function runShift({ source, settings, tokens, result }) {
  const random = settings.heads || Math.max(...settings.headChoices.filter((h) => h <= 4));
  const headTypes = random > 0 ? [0, random] : [0];
  const run = (heads, words) => (heads === settings.heads && words === tokens
    ? result
    : runCompare(source, settings, words, heads));
  // n + k must stay within compare's limit of 1024 tokens: n ≤ 512 and k ≤ 64 do.
  return shiftPanel.update({ lab, run, tokens, k: state.shiftK, headTypes });
}

function runOrthogonality({ source, settings, tokens, E }) {
  return orthogonalityPanel.update({
    lab, tokens, base: state.base, layout: state.layout,
    current: { vectors: scaled(E, settings.alpha), d: settings.d, label: source.kind === 'synthetic' ? 'current (synthetic)' : source.kind === 'glove' ? 'GloVe' : 'your vectors' },
  });
}

// ---- The plain-language summary ----------------------------------------------------------

function summarise(which, text) {
  if (text !== null) document.querySelector(`#summary-${which} .summary-text`).textContent = text;
}

function disturbSummary(spread, identity) {
  if (!spread || !view) return null;
  const small = (v) => (v >= 0.01 ? v.toFixed(2) : v.toPrecision(1));
  let text = `additive. After adding PE, an encoded vector's cosine with its own word vector is ${meanOwnCosine(view.result).toFixed(2)} ` +
    'on average (1 = untouched, which is what concatenation keeps for its word part and rotary for all of x). ' +
    `It shakes the first ${spread.tenth} dimensions by ${small(spread.firstTenth)}× the words' own spread and the last ` +
    `${spread.tenth} by ${small(spread.lastTenth)}× (L = ${spread.length}).`;
  if (identity) {
    const pct = (r) => (Number.isFinite(r.top1) ? `${(100 * r.top1).toFixed(0)}%` : '—');
    text += ` Words decoded back from the encoded vectors: additive ${pct(identity.additive)}, ` +
      `concatenated ${pct(identity.concatenated)}${identity.concatenated.top1 < 1 ? ' (lost to its narrower word part, not to position)' : ''}, ` +
      `rotary ${pct(identity.rotary)}.`;
  }
  return text;
}

/** Mean cosine between each additive x_p and its own word vector αE_p (rotary's x). */
function meanOwnCosine(result) {
  const { n, d } = result;
  const x = result.additive.x;
  const e = result.rotary.x;
  let sum = 0;
  for (let p = 0; p < n; p++) {
    let dot = 0; let nx = 0; let ne = 0;
    for (let j = p * d; j < (p + 1) * d; j++) { dot += x[j] * e[j]; nx += x[j] * x[j]; ne += e[j] * e[j]; }
    sum += nx > 0 && ne > 0 ? dot / Math.sqrt(nx * ne) : 1;
  }
  return sum / n;
}

function shiftSummary({ shift }) {
  if (!shift) return null;
  const fmt = (v) => (v === 0 ? '0' : v.toExponential(1));
  const random = Object.keys(shift).map(Number).find((h) => h > 0);
  const both = (scheme) => `${fmt(shift[0][scheme])} with W = I${random ? ` and ${fmt(shift[random][scheme])} with ${random} random heads` : ''}`;
  const words = `${state.shiftK} word${state.shiftK === 1 ? '' : 's'}`;
  let text = `rotary — prepending ${words} changes its attention among the original words by at most ${both('rotary')}: ` +
    `rounding error, whatever the projections. Additive moves by ${both('additive')}.`;
  if (random) {
    text += ` Concatenated moves by ${both('concatenated')}: with W = I its position term PE(i)·PE(j) also depends only on ` +
      'the distance, but projections that mix word and position coordinates break that.';
  }
  return text;
}

function crossTermRatio(result, n) {
  const terms = result.additive.terms;
  const rms = (t) => {
    let s = 0;
    for (let i = t * n * n; i < (t + 1) * n * n; i++) s += terms[i] * terms[i];
    return Math.sqrt(s / (n * n));
  };
  const content = Math.max(rms(0), rms(3));
  const cross = Math.max(rms(1), rms(2));
  return `in the additive lane the cross terms e·p and p·e are ${(cross / content).toFixed(2)}× the size of the larger of e·e and p·p — ` +
    'word and position barely interfere, as if they had separate coordinates.';
}

function orthSummary({ orth, result, n }) {
  if (!orth) return null;
  return `at d = ${orth.d} a word vector and its position vector have cosine ≈ ±${orth.point.toFixed(2)} ` +
    `(random pairs: ${orth.random.toFixed(2)}, 1/√d = ${(1 / Math.sqrt(orth.d)).toFixed(2)}): nearly orthogonal, so ` +
    crossTermRatio(result, n);
}

