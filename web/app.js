// PosEnc Lab's page: orchestration only. It keeps the state (mirrored in the URL hash), turns a
// sentence into one lab.compare() per animation frame, hands the results to the panels, and runs
// the expensive analyses (retrieval over the whole vocabulary, shift invariance's extra compares,
// near-orthogonality) a moment after typing pauses, one task at a time, so typing never waits.
import { LIMITS, load } from './posenc.mjs';
import {
  DEFAULTS, FIELDS, LANES_NARROW, MAX_LANES, MAX_TOKENS, SCHEME_IDS, TRAINED_HEADS, WIDE_SCREEN_PX, autoDPos, parseField, readHash, validHeads, writeHash,
} from './state.js';
import { syntheticSource, vectorSetSource } from './vocab.js';
import { SCHEME_NAMES, createLanes, slopeText } from './panels/lanes.js';
import { createTokenList } from './panels/tokens.js';
import { createPeFigure, createSpreadPanel } from './panels/encoding.js';
import { createRetrievalPanel } from './panels/retrieval.js';
import { createShiftPanel } from './panels/shift.js';
import { createDistancePanel } from './panels/distance.js';
import { createOrthogonalityPanel } from './panels/orthogonality.js';
import { createAnglesPanel } from './panels/angles.js';
import { createTrainedHeads } from './panels/trained-heads.js';
import { createResultsTable } from './panels/results-table.js';
import { rowNorm, scaled } from './math.js';
import { runInTasks } from './tasks.js';
import { setHidden, setText, setValue } from './dom.js';

const HEAVY_DELAY_MS = 250; // after the last keystroke
const $ = (id) => document.getElementById(id);

// The scheme picker: one box per scheme, in the table's order, labelled as the lanes are.
$('scheme-boxes').replaceChildren(...SCHEME_IDS.map((id) => {
  const label = document.createElement('label');
  const box = document.createElement('input');
  Object.assign(box, { type: 'checkbox', name: 'scheme', value: id });
  label.append(box, ` ${SCHEME_NAMES[id]}`);
  return label;
}));

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
  lanesBox: $('lanes'),
  schemeBoxes: [...document.querySelectorAll('#scheme-boxes input[name="scheme"]')],
  schemeCount: $('scheme-count'),
  schemeWhy: $('scheme-why'),
};

// Scheme parameters: inputs marked data-param="<state field>" (the settings box and some lanes
// hold one each, kept in step), named in error messages by the core's table's label.
const paramLabel = (name) => lab?.schemeTable.params.find((p) => p.name === name)?.label ?? name;
const wideScreen = matchMedia(`(min-width: ${WIDE_SCREEN_PX}px)`);
const laneLimit = () => (wideScreen.matches ? MAX_LANES : LANES_NARROW);

let lab = null;
let state = { ...DEFAULTS };
let synthetic = null;     // the synthetic source for the current d
let gloveSource = null;   // set once GloVe has loaded
let customSource = null;  // a user's vector file (web/byo-vectors.js)
let view = null;          // what the panels show now (see recompute)
let lanesComparer = null; // lab.comparer() for the lanes' keystroke compares (row reuse)
let selected = null;      // selected token position
let frameRequested = false;
let stale = false;        // the state changed since the last recompute
let heavyTimer = 0;
let generation = 0;       // bumps on every recompute; stale heavy work checks it and stops
let decoderCache = { key: '', decoder: null };
const spreadCache = new WeakMap();
let lastHeavyMs = null;

const lanes = createLanes(document, { onPickToken: selectToken, schemes: [] });
const laneArticles = {}; // scheme → its lane, cloned from its template when first chosen
let lanesShown = '';
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
const anglesPanel = createAnglesPanel(slot('angles'));
// Trained heads in the lanes and the trained models' results (issue #17): hooks marked "trained".
const trainedHeads = createTrainedHeads({
  picker: $('trained-picker'),
  onPickHead: (pick) => { Object.assign(state, pick); requestRecompute(); },
  requestUpdate: requestRecompute,
});
const resultsTable = createResultsTable({
  panel: $('panel-trained-results'), slot: slot('trained-results'), summary: $('trained-results-summary'),
});
let distanceKey = '';
let anglesKey = '';
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
  trainedHeads.setLab(lab); // trained: the shipped models' list, and their results if any ship
  if (trainedHeads.available) resultsTable.watch();
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
  writeParams();
  syncPicker();
  // d_p, α and heads depend on the word vectors; recompute() writes them.
}

/** Every scheme-parameter input shows the state's value, except one being typed in. */
function writeParams(except = null) {
  for (const input of document.querySelectorAll('[data-param]')) {
    if (input === except || input === document.activeElement) continue;
    input.value = String(state[input.dataset.param]);
    input.removeAttribute('aria-invalid');
  }
}

/** Boxes follow state.schemes; at the limit the others are disabled, and the hint says why. */
function syncPicker() {
  const chosen = state.schemes;
  const limit = laneLimit();
  for (const box of ui.schemeBoxes) {
    box.checked = chosen.includes(box.value);
    box.disabled = box.checked ? chosen.length === 1 : chosen.length >= limit;
  }
  ui.schemeCount.textContent = `(${chosen.length} of at most ${limit})`;
  ui.schemeWhy.textContent = chosen.length > limit
    ? `${chosen.length} lanes are chosen, more than fit side by side at this width, so they wrap into rows; uncheck some to choose others.`
    : chosen.length === limit ? `${limit} chosen — the most for this screen width: uncheck one to choose another.`
      : chosen.length === 1 ? 'At least one scheme stays chosen.' : '';
}

/** Puts the chosen schemes' lanes in #lanes, cloning a lane's template the first time. */
function showLanes(schemes) {
  const key = schemes.join(',');
  if (key === lanesShown) return;
  lanesShown = key;
  for (const scheme of schemes) {
    if (laneArticles[scheme]) continue;
    const article = document.importNode(document.getElementById(`lane-${scheme}`).content, true).firstElementChild;
    lanes.attach(scheme, article);
    laneArticles[scheme] = article;
  }
  ui.lanesBox.replaceChildren(...schemes.map((scheme) => laneArticles[scheme]));
  ui.lanesBox.dataset.count = String(schemes.length);
  // Other [data-field] elements are in the document now, some holding text from when their lane
  // was last shown: look them up again and rewrite them all.
  fields.clear();
  reflectedKey = '';
  describedKey = '';
  writeParams();
}

function wireControls() {
  ui.sentence.addEventListener('input', () => { state.sentence = ui.sentence.value; recomputeForTyping(); });
  const choose = (element, name, cast = (v) => v) => element.addEventListener('change', () => {
    state[name] = cast(element.value);
    requestRecompute();
  });
  choose(ui.vectors, 'vectors');
  choose(ui.concat, 'concat');
  choose(ui.layout, 'layout');
  choose(ui.pairing, 'pairing');
  choose(ui.heads, 'heads', (value) => parseField('heads', value)); // a number, or trained
  ui.causal.addEventListener('change', () => { state.causal = ui.causal.checked; requestRecompute(); });
  numberControl(ui.dim, 'd', 'd');
  numberControl(ui.dpos, 'dPos', 'd_p');
  numberControl(ui.base, 'base', 'base');
  numberControl(ui.alpha, 'alpha', 'α');
  numberControl(ui.shiftK, 'shiftK', 'k');
  numberControl(ui.maxDistance, 'maxDistance', 'K');
  for (const box of ui.schemeBoxes) {
    box.addEventListener('change', () => {
      state.schemes = SCHEME_IDS.filter((id) => ui.schemeBoxes.some((b) => b.value === id && b.checked));
      syncPicker();
      requestRecompute();
    });
  }
  wideScreen.addEventListener('change', syncPicker);
  // Scheme parameters live in the settings box and inside lanes cloned later: one listener each.
  document.addEventListener('input', (event) => paramControl(event.target, false));
  document.addEventListener('change', (event) => paramControl(event.target, true));
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

// As numberControl, for the data-param inputs; a valid value also updates their twins.
function paramControl(input, complain) {
  const name = input.dataset?.param;
  if (!name) return;
  const value = parseField(name, input.value);
  if (value === undefined) {
    if (complain) {
      showControlError(`${paramLabel(name)} must be ${FIELDS[name][2]}; still using the last valid value.`);
      input.setAttribute('aria-invalid', 'true');
    }
    return;
  }
  if (ui.controlError.textContent.startsWith(`${paramLabel(name)} must be`)) showControlError('');
  input.removeAttribute('aria-invalid');
  if (value === state[name]) return;
  state[name] = value;
  writeParams(input);
  requestRecompute();
}

function showControlError(message) {
  setHidden(ui.controlError, message === '');
  setText(ui.controlError, message);
}

// ---- Recompute (one per frame) -----------------------------------------------------------

function requestRecompute() {
  stale = true;
  if (frameRequested || !lab) return;
  frameRequested = true;
  requestAnimationFrame(() => {
    frameRequested = false;
    if (stale) recompute();
  });
}

// Typing recomputes inside the input event, so the very next frame paints it (waiting for a
// requestAnimationFrame costs up to a frame more). At most one recompute per frame: a change
// that arrives before that frame waits for it, and the frame's callback takes the newest text.
function recomputeForTyping() {
  if (!lab) return;
  if (frameRequested) { stale = true; return; }
  recompute({ typed: true });
  frameRequested = true;
  requestAnimationFrame(() => {
    frameRequested = false;
    if (stale) recompute({ typed: true });
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
  // trained: the lanes' compare keeps W = I; the trained lanes repaint their attention.
  const trained = state.heads === TRAINED_HEADS && trainedHeads.available;
  if (state.heads === TRAINED_HEADS && !trained) notes.push('No trained models ship with this copy of the page; using W = I.');
  let h = state.heads === TRAINED_HEADS ? 0 : state.heads;
  if (!heads.includes(h)) {
    notes.push(`${h} heads do not divide the widths (${d}, ${concatWidth}) into even parts; using W = I.`);
    h = 0;
  }
  const alpha = state.alpha === 'auto' ? source.defaultAlpha : state.alpha;
  return { d, dPos, dWord, concatWidth, heads: h, trained, headChoices: heads, alpha, notes, ...schemeSettings(notes) };
}

/**
 * The scheme parameters, settled by the core's rules between them (lab.settleSchemeOptions: the
 * same fallbacks and notes as the element's): every option compare() takes, by name.
 */
function schemeSettings(notes) {
  const given = Object.fromEntries(lab.schemeTable.params.map(({ name }) => [name, state[name]]));
  const { options, notes: settled } = lab.settleSchemeOptions(given, { causal: state.causal });
  notes.push(...settled);
  return { ...options, scale: Math.max(1, state.evalLength / state.trainedLength) };
}

function recompute({ typed = false } = {}) {
  stale = false;
  const started = performance.now();
  generation++;
  const source = currentSource();
  const settings = effectiveSettings(source);
  reflectSettings(source, settings);
  scheduleUrlWrite(typed ? URL_DELAY_TYPING_MS : URL_DELAY_MS);

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
  showLanes(state.schemes);
  try {
    embedded = source.embed(tokens);
    // Only the lanes' schemes: the summary's other numbers wait for the pause after typing.
    // The last keystroke's arrays are overwritten in place (≈ 16 MB not allocated per keystroke at
    // 512 tokens). The analyses after a pause read them too, but only within their tasks, which
    // stop at the first task after a new keystroke (runInTasks' isCurrent), and their panels keep
    // numbers, not these arrays. The lanes' own comparer: the analyses' compares in between do not
    // make it forget the rows the next keystroke shares with this one.
    const reuse = view?.result;
    lanesComparer ??= lab.comparer();
    result = runCompare(source, settings, tokens, settings.heads, embedded.vectors, state.schemes,
      { reuse, comparer: lanesComparer });
  } catch (error) {
    // Inputs are validated before they reach the lab, so this is a bug: say so rather than
    // leave stale figures looking current.
    showFailure(`Could not compute the encodings: ${error.message}`);
    return;
  }
  setHidden(ui.failure, true);
  setHidden(ui.emptyState, true);
  setHidden(ui.results, false);
  const n = tokens.length;
  if (selected !== null && selected >= n) selected = null;
  const { pe, peConcat } = peTables(result, settings, n);
  view = { source, settings, tokens, unknown: embedded.unknown, E: embedded.vectors, result, n, pe, peConcat };

  tokenList.render(tokens, embedded.unknown, allTokens.length, textCut);
  lanes.update({ result, tokens, heads: settings.heads, causal: state.causal, dWord: settings.dWord, trainedLength: state.trainedLength });
  trainedHeads.update({ active: settings.trained, tokens, schemes: state.schemes, figures: lanes.lanes, layer: state.headLayer, head: state.headIndex });
  if (settings.trained) resultsTable.load();
  lanes.select(selected);
  describeLanes(view);
  peFigure.update({ pe, peConcat, n, d: settings.d, dPos: settings.dPos, layout: state.layout });
  const spread = updateSpread(source, settings, n);
  updateDistance(settings);
  updateNormRatio(view);
  summarise('disturb', disturbSummary(spread, null));

  const elapsed = performance.now() - started;
  view.recomputeMs = elapsed;
  showEngine();
  scheduleHeavy();
}

// Chromium makes history.replaceState cost milliseconds (and re-reads the favicon), so the link
// is written once changes pause: 150 ms after a control, 1 s after typing (keys often come
// 150–200 ms apart, and each write would land between two of them). Leaving the page writes it.
const URL_DELAY_MS = 150;
const URL_DELAY_TYPING_MS = 1000;
let urlTimer = 0;
function writeUrl() {
  clearTimeout(urlTimer);
  urlTimer = 0;
  // The Train section's keys ("t.…", web/train/config.js) ride along unchanged.
  const params = new URLSearchParams(writeHash(state).slice(1));
  for (const [key, value] of new URLSearchParams(location.hash.slice(1))) if (key.startsWith('t.')) params.set(key, value);
  const hash = params.toString();
  history.replaceState(null, '', hash ? `#${hash}` : location.pathname + location.search);
}
function scheduleUrlWrite(delay = URL_DELAY_MS) {
  clearTimeout(urlTimer);
  urlTimer = setTimeout(writeUrl, delay);
}
addEventListener('pagehide', () => { if (urlTimer) writeUrl(); });

/**
 * lab.compare for these tokens with the page's settings. schemes: which to compute (default the
 * lanes'); only the concatenated scheme needs the PCA coordinates, so they are skipped otherwise.
 */
function runCompare(source, settings, tokens, heads, E, schemes = state.schemes, { reuse, comparer } = {}) {
  const n = tokens.length;
  const vectors = E ?? source.embed(tokens).vectors;
  const concatWords = schemes.includes('concatenated') ? source.concatWords(vectors, n) : null;
  return (comparer ?? lab).compare(vectors, n, settings.d, {
    ...schemeOptions(settings, schemes),
    alpha: settings.alpha,
    base: state.base,
    layout: state.layout,
    pairing: state.pairing,
    dPos: settings.dPos,
    concat: state.concat,
    causal: state.causal,
    heads,
    ...(concatWords ? { concatWords } : {}),
    ...(reuse ? { reuse } : {}),
  });
}

/** compare()'s options for the further schemes, from the settled settings. */
function schemeOptions(settings, schemes) {
  return { schemes, ...Object.fromEntries(lab.schemeTable.params.map(({ name }) => [name, settings[name]])) };
}

// The PE tables for the PE figure and the ‖PE‖/‖αE‖ readout: compare's when additive and
// concatenated are lanes, otherwise computed here (bit-identical), once per size and setting.
let peCache = { key: '', pe: null, peConcat: null };
function peTables(result, settings, n) {
  if (result.pe && result.peConcat) return { pe: result.pe, peConcat: result.peConcat };
  const key = [n, settings.d, settings.dPos, state.base, state.layout].join('/');
  if (peCache.key !== key) {
    const options = { base: state.base, layout: state.layout };
    peCache = { key, pe: lab.sinusoidal(n, settings.d, options), peConcat: lab.sinusoidal(n, settings.dPos, options) };
  }
  return { pe: result.pe ?? peCache.pe, peConcat: result.peConcat ?? peCache.peConcat };
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

// Controls and captions that follow the source and the settings. The control values and the
// settings' notes are checked on every call (the control being typed in is skipped, and other
// messages share the error line); the captions and the heads list only when what they read — the
// source and reflectedKey's values — changed.
let lastSettingsNote = '';
let reflectedKey = '';
let reflectedSource = null;
function reflectSettings(source, settings) {
  setValue(ui.vectors, state.vectors);
  if (source.fixedDim || document.activeElement !== ui.dim) setValue(ui.dim, String(settings.d));
  if (document.activeElement !== ui.dpos) setValue(ui.dpos, String(settings.dPos));
  if (document.activeElement !== ui.alpha) setValue(ui.alpha, String(Number(settings.alpha.toPrecision(4))));
  const notes = settings.notes.join(' ');
  if (notes) showControlError(notes);
  else if (ui.controlError.textContent === lastSettingsNote) showControlError('');
  lastSettingsNote = notes;
  const key = JSON.stringify([settings, state.alpha, state.layout, state.pairing, state.concat]);
  if (source !== reflectedSource || key !== reflectedKey) {
    reflectedSource = source;
    reflectedKey = key;
    reflectCaptions(source, settings);
  }
  setValue(ui.heads, settings.trained ? TRAINED_HEADS : String(settings.heads));
}

function reflectCaptions(source, settings) {
  ui.dim.disabled = source.fixedDim;
  setText(ui.dimHint, source.fixedDim ? `fixed at ${source.dim} by these word vectors` : 'synthetic only, even');
  ui.alphaAuto.disabled = state.alpha === 'auto';
  ui.alphaAuto.title = source.kind === 'synthetic'
    ? 'α = 1: synthetic components already have RMS 1'
    : `α = 1/RMS of a component (${(1 / source.defaultAlpha).toPrecision(4)}), so αE's components have RMS 1 — the role of ×√d_model`;
  const headLabels = settings.headChoices.map((h) => [h, h === 0 ? 'identity (W = I)' : `${h} random head${h === 1 ? '' : 's'}`])
    .concat(trainedHeads.headOptions()); // trained
  if (ui.heads.options.length !== headLabels.length || [...ui.heads.options].some((o, i) => o.value !== String(headLabels[i][0]))) {
    ui.heads.replaceChildren(...headLabels.map(([h, label]) => new Option(label, String(h))));
  }

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
  setText(ui.headsNote, settings.trained ? trainedHeads.headsNote() : settings.heads === 0
    ? 'Projections are the identity (W = I): queries, keys and values are the encoded vectors themselves, so the pictures show what the encoding alone does, with no learned weights in the way.'
    : `${settings.heads} random heads: fixed seeded random projections W_q, W_k, W_v (d_head = ${settings.d / settings.heads}); the maps show head 1.`);
}

// One formatter each, made once: toLocaleString with options builds a new one per call.
const NUMBERS = {
  plain: new Intl.NumberFormat('en-US'),
  3: new Intl.NumberFormat('en-US', { maximumSignificantDigits: 3 }),
  4: new Intl.NumberFormat('en-US', { maximumSignificantDigits: 4 }),
};

// The lanes' numbers in words: what each scheme uses for this sentence and these settings.
// NoPE's sentence reads the words and their attention, so it is rewritten on every call; the
// others read only n, the settings and the state besides the sentence (describedKey).
let describedKey = '';
function describeLanes({ result, tokens, n, settings }) {
  if (result.nope?.masked) setField('nopeNote', nopeText(result.nope, tokens, n));
  const key = JSON.stringify([n, settings, { ...state, sentence: null }]);
  if (key === describedKey) return;
  describedKey = key;
  const fmt = (v, digits = 4) => NUMBERS[digits].format(Number(v.toPrecision(digits)));
  const { trainedLength: L, evalLength: L2 } = state;
  const s = settings.scale;
  setField('scaleFactor', `s = max(1, L′/L) = ${fmt(s)}`);
  setField('scaleNote', `L = ${NUMBERS.plain.format(L)}, L′ = ${NUMBERS.plain.format(L2)}, so s = ${fmt(s)}${s === 1 ? ': plain RoPE' : ''}.`);
  setField('trainedLength', NUMBERS.plain.format(L));
  setField('learnedNote', n <= L
    ? `All ${n} positions are within the table's L = ${NUMBERS.plain.format(L)} rows.`
    : `Positions ${L}–${n - 1} (${n - L} of ${n}) are at or beyond L = ${L}: a trained table has no row for these — ` +
      'they are hatched in the input map; this stand-in simply draws more seeded rows.');
  const alibi = result.alibi;
  if (alibi?.slopes) {
    setField('alibiSlope', settings.heads === 0
      ? `Head ${settings.alibiHead} of ${state.alibiHeads}: m = ${slopeText(alibi.slopes[0])}.`
      : `With ${settings.heads} random heads each head has its own slope (those of a ${settings.heads}-head model, k and H aside): ` +
        `the maps show head 1, m = ${slopeText(alibi.slopes[0])}.`);
  }
  const t5 = result.t5;
  if (t5?.buckets) {
    const seen = new Uint8Array(state.t5Buckets);
    for (const b of t5.buckets) seen[b] = 1;
    const used = seen.reduce((sum, v) => sum + v, 0);
    setField('t5Note', `${state.causal ? 'Causal' : 'Bidirectional'} buckets (the causal mask is ${state.causal ? 'on' : 'off'}): ` +
      `${state.t5Buckets} buckets, max distance ${settings.t5MaxDistance}; this sentence uses ${used} of them.`);
  }
  const xposText = () => {
    const zeta0 = state.xposGamma / (1 + state.xposGamma);
    return `γ = ${state.xposGamma}, λ = ${fmt(state.xposScaleBase)}: ζ runs from ${fmt(zeta0, 3)} (pair 0) towards 1; across this ` +
      `sentence's largest distance, ${n - 1}, pair 0's logit factor is ζ₀^(${n - 1}/λ) = ${fmt(zeta0 ** ((n - 1) / state.xposScaleBase), 3)}.`;
  };
  if (result.xpos) setField('xposNote', xposText());
  // The RoPE extensions: the lanes that read L′.
  const rope = scaledRope().map((name) => result[name]).find(Boolean);
  if (rope?.frequencies) {
    const f = rope.frequencies;
    const dh = 2 * f.length;
    setField('piNote', s === 1 ? 'L′ ≤ L: nothing to stretch, the lane equals plain RoPE.'
      : `Neighbouring tokens are 1/s = ${fmt(1 / s)} trained positions apart: every pair turns ${fmt(s)}× slower.`);
    setField('ntkNote', s === 1 ? 'L′ ≤ L: base′ = base, the lane equals plain RoPE.'
      : `base′ = ${fmt(state.base)} · ${fmt(s)}^(${dh}/${dh - 2}) = ${fmt(state.base * s ** (dh / (dh - 2)))}; the fastest pair keeps ω₀ = 1.`);
  }
  if (result.yarn) {
    const q = result.yarn.qkFactor ?? 1;
    setField('yarnNote', `s = ${fmt(s)}, α = ${settings.yarnAlpha}, β = ${settings.yarnBeta}; logits × (0.1 ln s + 1)² = ${fmt(q * q)}.`);
  }
}

/** The RoPE extensions (position interpolation, NTK-aware, YaRN): the schemes whose L′ is a parameter. */
function scaledRope() {
  return lab.schemeTable.params.find((p) => p.name === 'evalLength').schemes;
}

/** What the causal mask changes for NoPE, measured on this sentence's repeated words. */
function nopeText({ masked, unmasked }, tokens, n) {
  const rowGap = (m, i, j) => {
    let gap = 0;
    for (let k = 0; k < n; k++) gap = Math.max(gap, Math.abs(m[i * n + k] - m[j * n + k]));
    return gap;
  };
  const seen = new Map();
  let pair = null;
  for (let j = 0; j < n && !pair; j++) {
    if (seen.has(tokens[j])) pair = [seen.get(tokens[j]), j];
    else seen.set(tokens[j], j);
  }
  if (!pair) {
    return 'No word repeats in this sentence: type one twice to see that, without a mask, identical words get identical rows. ' +
      'Without the mask, reordering the words only reorders the rows and columns.';
  }
  const [i, j] = pair;
  const fmt = (v) => (v === 0 ? '0' : v.toPrecision(2));
  const same = rowGap(unmasked, i, j);
  return `Without a mask, “${tokens[i]}” (${i}) and “${tokens[j]}” (${j}) have ${same < 1e-6 ? 'identical' : 'nearly identical'} attention rows (largest difference ` +
    `${fmt(same)}): attention cannot tell them apart. With the causal mask their rows differ by up to ` +
    `${fmt(rowGap(masked, i, j))} — they see different numbers of earlier words, the only source of order here.`;
}

// name → the [data-field] elements in the document; cleared when showLanes changes the lanes.
const fields = new Map();
function setField(name, text) {
  let elements = fields.get(name);
  if (!elements) fields.set(name, elements = [...document.querySelectorAll(`[data-field="${name}"]`)]);
  for (const element of elements) setText(element, text);
}

function showEmptyState() {
  view = null;
  setHidden(ui.emptyState, false);
  setHidden(ui.results, true);
  setHidden(ui.failure, true);
}

function showFailure(message) {
  setText(ui.failure, message);
  setHidden(ui.failure, false);
  setHidden(ui.results, true);
}

// ---- Cheap panels (every frame) ----------------------------------------------------------

function wordSpread(source) {
  if (!spreadCache.has(source)) spreadCache.set(source, source.vocabularySpread());
  return spreadCache.get(source);
}

function updateSpread(source, settings, n) {
  const length = state.spreadLength || n;
  if (state.spreadLength === 0) setValue(ui.spreadLength, String(n));
  setText(ui.spreadLengthValue, `L = ${length}${state.spreadLength === 0 ? ' (the sentence)' : ''}`);
  // Computed once per source (GloVe's right after loading, before the page switches to it).
  const spread = wordSpread(source);
  // The picture depends on L, not on the words, so most keystrokes leave it as it is.
  const key = [source.kind, settings.d, settings.alpha, state.base, state.layout, length].join('/');
  if (key === spreadKey) return lastSpread;
  spreadKey = key;
  lastSpread = spreadPanel.update({ lab, d: settings.d, base: state.base, layout: state.layout, alpha: settings.alpha, wordSpread: spread, length });
}

// Score versus distance and the rotation angles depend on the settings, not on the words: most
// keystrokes leave both as they are.
function updateDistance(settings) {
  updateAngles(settings);
  // schemeOptions without schemes: the panel draws every scheme (it drops undefined options).
  const options = { dPos: settings.dPos, concat: state.concat, causal: state.causal, ...schemeOptions(settings) };
  const key = JSON.stringify([settings.d, state.base, state.maxDistance, state.schemes, options]);
  if (key === distanceKey) return;
  distanceKey = key;
  distancePanel.update({ lab, d: settings.d, base: state.base, maxDistance: state.maxDistance, lanes: state.schemes, options });
}

function updateAngles(settings) {
  // RoPE rotates each head's d_head = d/h coordinates (d with W = I).
  const dHead = settings.heads ? settings.d / settings.heads : settings.d;
  const options = { lab, dHead, base: state.base, trainedLength: state.trainedLength, evalLength: state.evalLength,
    yarnAlpha: settings.yarnAlpha, yarnBeta: settings.yarnBeta };
  const key = JSON.stringify({ ...options, lab: 0 });
  if (key === anglesKey) return;
  anglesKey = key;
  anglesPanel.update(options);
}

function updateNormRatio({ n, E, pe, settings }) {
  const { d, alpha } = settings;
  let sum = 0;
  for (let p = 0; p < n; p++) sum += rowNorm(pe, d, p) / Math.max(1e-12, alpha * rowNorm(E, d, p));
  setText(ui.normRatio, `‖PE‖ / ‖αE‖ = ${(sum / n).toFixed(3)} (mean over tokens)`);
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
  // One row per lane: the schemes that change x decode their x; the others leave x = αE.
  const rows = [{ name: 'before encoding (αE)', words: decoder.neighbors(row(E, d), 5) }];
  for (const scheme of result.schemes ?? ['additive', 'concatenated', 'rotary']) {
    const lane = result[scheme];
    if (scheme === 'additive') rows.push({ name: 'additive (x = αE + PE)', words: decoder.neighbors(row(lane.x, d), 5) });
    else if (scheme === 'learned') rows.push({ name: 'learned-style (x = αE + L(p))', words: decoder.neighbors(row(lane.x, d), 5) });
    else if (scheme === 'concatenated') {
      rows.push({ name: `concatenated (word part, ${settings.dWord} dims)`, words: decoder.neighbors(row(lane.x, lane.width, 0, settings.dWord), 5, settings.dWord) });
    } else {
      rows.push({ name: `${SCHEME_NAMES[scheme]} (x = αE)`, words: null, note: 'x is left untouched, so its nearest words are exactly those before encoding.' });
    }
  }
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
    function* orthogonality() { snapshot.orth = yield* runOrthogonality(snapshot); },
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

// Compares for the analyses. For the sentence itself they are cached per snapshot and heads and
// merged scheme by scheme, so each scheme is computed once per pause (the keystroke's own result
// serves the lanes' schemes; the retrieval's compare of the others serves the shift panel's
// unshifted side); only x and the weights are kept (≈ 12 MB at n = 512), not the n×n terms.
// Shifted sentences are used once and not kept.
function analysisCompare(snapshot) {
  snapshot.compares ??= new Map();
  const { source, settings, tokens, result } = snapshot;
  return (heads, words, schemes) => {
    if (words !== tokens) return runCompare(source, settings, words, heads, undefined, schemes);
    let entry = snapshot.compares.get(heads) ?? (heads === settings.heads ? result : null);
    const missing = schemes.filter((scheme) => !entry?.[scheme]);
    if (missing.length) {
      const fresh = runCompare(source, settings, words, heads, snapshot.E, missing);
      for (const scheme of missing) fresh[scheme] = { width: fresh[scheme].width, x: fresh[scheme].x, weights: fresh[scheme].weights };
      entry = entry ? { ...fresh, ...entry, schemes: lab.SCHEMES.filter((s) => entry[s] || fresh[s]) } : fresh;
      snapshot.compares.set(heads, entry);
    }
    return entry;
  };
}

// About one 512-token scheme's attention per compare, so a task never holds a keystroke long.
const CELLS_PER_COMPARE = 1 << 18;

function* runRetrieval(snapshot) {
  const { tokens, settings, E, n } = snapshot;
  const compare = analysisCompare(snapshot);
  const schemes = lab.SCHEMES;
  const perCompare = Math.max(1, Math.floor(CELLS_PER_COMPARE / (n * n * Math.max(1, settings.heads))));
  for (let from = 0; from < schemes.length; from += perCompare) {
    compare(settings.heads, tokens, schemes.slice(from, from + perCompare));
    yield;
  }
  return yield* retrievalPanel.update({ lab, result: compare(settings.heads, tokens, schemes), tokens, decoder: currentDecoder(),
    alpha: settings.alpha, dWord: settings.dWord, E, base: state.base, layout: state.layout });
}

function runShift(snapshot) {
  const { settings, tokens } = snapshot;
  const random = settings.heads || Math.max(...settings.headChoices.filter((h) => h <= 4));
  const headTypes = random > 0 ? [0, random] : [0];
  // n + k must stay within compare's limit of 1024 tokens: n ≤ 512 and k ≤ 64 do.
  return shiftPanel.update({ lab, run: analysisCompare(snapshot), tokens, k: state.shiftK, headTypes, schemes: lab.SCHEMES });
}

function runOrthogonality({ source, settings, tokens, E }) {
  return orthogonalityPanel.update({
    lab, tokens, base: state.base, layout: state.layout,
    current: { vectors: scaled(E, settings.alpha), d: settings.d, label: source.kind === 'synthetic' ? 'current (synthetic)' : source.kind === 'glove' ? 'GloVe' : 'your vectors' },
  });
}

// ---- The plain-language summary ----------------------------------------------------------

function summarise(which, text) {
  if (text !== null) setText(document.querySelector(`#summary-${which} .summary-text`), text);
}

function disturbSummary(spread, identity) {
  if (!spread || !view) return null;
  const small = (v) => (v >= 0.01 ? v.toFixed(2) : v.toPrecision(1));
  let text = `additive. After adding PE, an encoded vector's cosine with its own word vector is ${meanOwnCosine(view).toFixed(2)} ` +
    'on average (1 = untouched, which is what concatenation keeps for its word part and rotary for all of x). ' +
    `It shakes the first ${spread.tenth} dimensions by ${small(spread.firstTenth)}× the words' own spread and the last ` +
    `${spread.tenth} by ${small(spread.lastTenth)}× (L = ${spread.length}).`;
  // The heavy phase decodes the lanes' schemes (and, for this summary, the original three).
  const decoded = ['additive', 'concatenated', 'rotary'].filter((scheme) => Number.isFinite(identity?.[scheme]?.top1));
  if (decoded.length) {
    const pct = (r) => `${(100 * r.top1).toFixed(0)}%`;
    text += ` Words decoded back from the encoded vectors: ${decoded.map((scheme) => `${scheme} ${pct(identity[scheme])}` +
      (scheme === 'concatenated' && identity.concatenated.top1 < 1 ? ' (lost to its narrower word part, not to position)' : '')).join(', ')}.`;
  }
  return text;
}

/** Mean cosine between each additive x_p = αE_p + PE(p) and its own word vector αE_p. */
function meanOwnCosine({ n, E, pe, settings }) {
  const { d, alpha } = settings;
  let sum = 0;
  for (let p = 0; p < n; p++) {
    let dot = 0; let nx = 0; let ne = 0;
    for (let j = p * d; j < (p + 1) * d; j++) {
      const e = alpha * E[j];
      const x = e + pe[j];
      dot += x * e; nx += x * x; ne += e * e;
    }
    sum += nx > 0 && ne > 0 ? dot / Math.sqrt(nx * ne) : 1;
  }
  return sum / n;
}

function shiftSummary({ shift }) {
  if (!shift) return null;
  const fmt = (v) => (v === 0 ? '0' : v.toExponential(1));
  const random = Object.keys(shift).map(Number).find((h) => h > 0);
  // The largest change over a group of schemes, with W = I and with random heads.
  const worst = (ids, h) => Math.max(...ids.map((id) => shift[h][id]));
  const both = (ids) => `${fmt(worst(ids, 0))} with W = I${random ? ` and ${fmt(worst(ids, random))} with ${random} random heads` : ''}`;
  const relative = ['rotation', 'logit bias', 'none']
    .flatMap((family) => lab.schemeTable.schemes.filter((s) => s.family === family).map((s) => s.name))
    .filter((id) => id in shift[0]);
  const words = `${state.shiftK} word${state.shiftK === 1 ? '' : 's'}`;
  let text = `the relative schemes (${relative.map((id) => SCHEME_NAMES[id]).join(', ')}) — prepending ${words} changes their ` +
    `attention among the original words by at most ${both(relative)}: rounding error, whatever the projections. ` +
    `The absolute ones move: additive by ${both(['additive'])}${'learned' in shift[0] ? `, the learned-style table by ${both(['learned'])}` : ''}.`;
  if (random) {
    text += ` Concatenated stays at ${fmt(worst(['concatenated'], 0))} with W = I — its position term PE(i)·PE(j) also depends ` +
      `only on the distance — but moves by ${fmt(worst(['concatenated'], random))} with ${random} random heads, whose projections mix ` +
      'word and position coordinates.';
  }
  return text;
}

/**
 * The additive lane's logit terms: the lanes' own, or (additive not a lane) one additive-only
 * compare after typing pauses — the analyses' cached compares keep no terms.
 */
function additiveTerms({ result, source, settings, tokens, E }) {
  return (result.additive ?? runCompare(source, settings, tokens, settings.heads, E, ['additive']).additive).terms;
}

function crossTermRatio(terms, n) {
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

function orthSummary(snapshot) {
  const { orth, n } = snapshot;
  if (!orth) return null;
  return `at d = ${orth.d} a word vector and its position vector have cosine ≈ ±${orth.point.toFixed(2)} ` +
    `(random pairs: ${orth.random.toFixed(2)}, 1/√d = ${(1 / Math.sqrt(orth.d)).toFixed(2)}): nearly orthogonal, so ` +
    crossTermRatio(additiveTerms(snapshot), n);
}

