// PosEnc Lab's page: orchestration only. It keeps the state (mirrored in the URL hash), sends it
// to the lab worker once per user action (web/pipeline/lab-client.js: the wasm core, the word
// vectors and the models live there), hands the view that comes back to the panels, and asks for
// the expensive analyses (retrieval over the whole vocabulary, shift invariance's extra compares,
// near-orthogonality) a moment after typing pauses; the worker drops them for a newer keystroke.
// The main thread only lays out and paints; the load builds the page a few parts per task (nextTask
// below), so no task of it blocks input for long, and the Train section waits until it is near.
import { client, gloveLoaded } from './lab-start.js';
import {
  DEFAULTS, FIELDS, LANES_NARROW, MAX_LANES, SCHEME_IDS, TRAINED_HEADS, WIDE_SCREEN_PX, parseField, readHash, writeHash,
} from '../pipeline/state.js';
import { createLanes } from '../panels/lanes.js';
import { SCHEME_NAMES } from '../pipeline/schemes.js';
import { engineLabel } from '../pipeline/shared-rules.js';
import { createTokenList } from '../panels/tokens.js';
import { createPeFigure, createSpreadPanel } from '../panels/encoding.js';
import { createRetrievalPanel } from '../panels/retrieval.js';
import { createShiftPanel } from '../panels/shift.js';
import { createDistancePanel } from '../panels/distance.js';
import { createOrthogonalityPanel } from '../panels/orthogonality.js';
import { createAnglesPanel } from '../panels/angles.js';
import { createTrainedHeads } from '../panels/trained-heads.js';
import { createResultsTable } from '../panels/results-table.js';
import { afterNextFrame, createDelay, createGenerations, nextTask } from '../pipeline/tasks.js';
import { createCaptions } from './captions.js';
import { createSettingsFigures } from './settings-figures.js';
import { createLinkWriter } from './link.js';
import { laneArticle } from './lane-article.js';
import { createDisclosures } from './disclosures.js';
import { createLaneColumns } from './lane-columns.js';
import { createLaneTabs } from './lane-tabs.js';
import { createMeasureTabs } from './measure-tabs.js';
import { createNumberInputs } from './number-inputs.js';
import { applyInputRanges, buildSchemeBoxes, syncSchemeBoxes, writeControls } from './controls.js';
import { buildWhenNear, buildWhenOpened, documentParsed } from './when-near.js';
import { vectorFileLabel } from '../formats/vector-file-rules.js';
import { followTyping } from './typed-text.js';
import { createFramePacing } from './frame-pacing.js';
import { createViewBuffers } from './view-buffers.js';
import { setAttr, setHidden, setText } from '../figures/dom.js';

const HEAVY_DELAY_MS = 250; // after the last keystroke
const $ = (id) => document.getElementById(id);

// index.html loads this module async (preloaded, it is often ready before the parser finishes, and
// would otherwise run inside the parser's last task, with the page's first layout): the page is
// built once the document is parsed, a task later at least.
await documentParsed();

buildSchemeBoxes($('scheme-boxes'));

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

const wideScreen = matchMedia(`(min-width: ${WIDE_SCREEN_PX}px)`);
const laneLimit = () => (wideScreen.matches ? MAX_LANES : LANES_NARROW);

// The worker loads its core while the page builds its parts.
const starting = client.start();
starting.catch(() => {}); // start() below shows a failure; meanwhile it is not an unhandled one
let lab = null;           // what the worker's lab says of itself once started: { simd, pretrained, schemeTable }
let state = { ...DEFAULTS };
const link = createLinkWriter(() => state); // the URL's hash follows the state (link.js)
let trainedAsked = false; // the link or the Heads control asked for trained heads (Save-Data then loads them)
let gloveLabel = null;    // set once GloVe has loaded in the worker
let customLabel = null;   // a user's vector file (web/page/byo-vectors.js), loaded in the worker
let view = null;          // what the panels show now (see recompute)
let selected = null;      // selected token position
const work = createGenerations(); // a new generation per recompute; answers to older ones are dropped
const pacing = createFramePacing({ run: recompute, ready: () => lab !== null });
let typing = { flush() {} }; // the sentence box's held edit (typed-text.js), once wired
let typedSincePause = false; // a key was typed since typing last paused (runHeavy)
let lastHeavyMs = null;
let shownKeys = {};       // what the painted tables and settings figures are keyed by (the worker's shownKeys)
let shownGen = null;      // the generation of the view the lanes show (a typed key's repeatOf)

// The lanes' arrays go back to the worker once no figure shows them (view-buffers.js).
const viewBuffers = createViewBuffers();
const lanes = createLanes(document, { onPickToken: selectToken, schemes: [], onAttention: (scheme, spec) => laneTabs.attention(scheme, spec), buffers: viewBuffers });
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
await nextTask();
const peFigure = createPeFigure(slot('pe'));
const spreadPanel = createSpreadPanel(slot('spread'));
const retrievalPanel = createRetrievalPanel(slot('retrieval'));
const shiftPanel = createShiftPanel(slot('shift'));
const distancePanel = createDistancePanel(slot('distance'));
const orthogonalityPanel = createOrthogonalityPanel(slot('orth'));
const anglesPanel = createAnglesPanel(slot('angles'));
await nextTask();
// Trained heads in the lanes: the shipped models, run in the lab worker.
const trainedHeads = createTrainedHeads({
  picker: $('trained-picker'),
  models: client.models,
  onPickHeads: (heads) => { state.heads = heads; requestRecompute(); },
  onPickHead: (pick) => { Object.assign(state, pick); requestRecompute(); },
  requestUpdate: requestRecompute,
  buffers: viewBuffers,
});
const captions = createCaptions({ ui, trainedHeads, showControlError });
// Scheme parameters: inputs marked data-param="<state field>" (the settings box and some lanes
// hold one each, kept in step), named in error messages by the core's table's label.
const numbers = createNumberInputs({
  state: () => state,
  paramLabel: (name) => lab?.schemeTable.params.find((p) => p.name === name)?.label ?? name,
  errorBox: ui.controlError,
  showError: showControlError,
  onChange: requestRecompute,
});
const resultsTable = createResultsTable({
  panel: $('panel-trained-results'), slot: slot('trained-results'), summary: $('trained-results-summary'),
  positions: slot('trained-positions'),
});
const settingsFigures = createSettingsFigures({ ui, spreadPanel, distancePanel, anglesPanel });
// Finding one's way: what is folded and which Measurements tab shows live in the state
// (and so in the URL) but change no figure, so they only schedule a URL write.
const disclosures = createDisclosures({
  settings: $('settings'),
  lanesBox: ui.lanesBox,
  state: () => state,
  onToggle: (patch) => {
    Object.assign(state, patch);
    link.schedule();
    // A lane unfolded while its terms were skipped (coveredLanes) or left in the worker gets them now.
    if (patch.moreOpen?.some((scheme) => view?.result?.[scheme]?.inputOnly || view?.result?.[scheme]?.termsFolded)) requestRecompute();
  },
});
const laneTabs = createLaneTabs({ list: $('lane-tabs'), names: SCHEME_NAMES, buffers: viewBuffers });
const laneColumns = createLaneColumns(ui.lanesBox);
const measureTabs = createMeasureTabs({
  list: $('measure-tabs'),
  panelOf: (name) => $(`panel-${name}`),
  selected: () => state.measurement,
  onSelect: (name) => { state.measurement = name; link.schedule(); },
});

let firstView;
const firstPainted = new Promise((resolve) => { firstView = resolve; });
let gloveSettled;
const gloveIn = new Promise((resolve) => { gloveSettled = resolve; });
let trainedSettled; // once a view is painted with no trained model on its way (paint)
const trainedIn = new Promise((resolve) => { trainedSettled = resolve; });
start();
// The Train section's modules are fetched once the first view is painted, GloVe and the lanes'
// trained models are in (they would wait behind those on a slow link, hold a connection they need,
// and share the cores with the worker decoding them) and the page idles; the
// section is built when the reader nears it: once in the document, its form controls have
// Chromium's autofill bring the whole page's style and layout up to date in a task of its own,
// which a reader who never goes there should not wait for. It does not wait for the lab
// otherwise: its workers load their own core.
if ($('train-root')) {
  buildWhenNear($('train'), {
    load: () => import('../train/panel.js'),
    async build(loading) {
      try {
        const { mountTrain } = await loading;
        await nextTask();
        mountTrain($('train-root'));
      } catch (error) {
        $('train-root').textContent = `The Train section could not be loaded: ${error.message}`;
        throw error;
      }
    },
  }, Promise.all([firstPainted, gloveIn, trainedIn]));
}

async function start() {
  applyInputRanges(ui);
  applyHash({ initial: true });
  wireControls();
  // Shown as soon as it is in (page/lab-start.js asked for it): the worker fetches it while its core starts.
  loadGlove();
  try {
    lab = await starting;
  } catch (error) {
    writeEngine('The wasm core could not start.', { now: true });
    showFailure(`PosEnc Lab could not load its WebAssembly core: ${error.message}`);
    firstView();
    return;
  }
  trainedHeads.setLab(lab); // trained: the shipped models' list, and their results if any ship
  if (trainedHeads.available) resultsTable.watch();
  // The vector picker's code is fetched when its folded box first opens.
  buildWhenOpened($('byo-vectors').closest('details'), mountVectorPicker);
  pacing.now();
  // While the worker computes the first view, the chosen lanes are built, one per task (detached
  // until showLanes puts them in), so that the first paint only fills them.
  for (const scheme of state.schemes) {
    await nextTask();
    buildLane(scheme);
  }
}

// The worker fetches and decodes GloVe. Its one-off costs (the vocabulary's spread and the PCA
// axes, tens of milliseconds of the worker's time) are left to the first compute on it
// (lab-start.js asks so), and the page asks for one once the frame it is painting is out: paid in
// the worker as GloVe came in, they shared the two cores with the first view's frame and
// lengthened its task (docs/BENCHMARKS.md, round 40).
function loadGlove() {
  setStatus('Loading GloVe word vectors… synthetic vectors are shown until they arrive.');
  gloveLoaded.then(async ({ label }) => {
    await afterNextFrame();
    gloveLabel = label;
    setStatus(`Word vectors: ${label}.`);
    requestRecompute();
  }, (error) => {
    setStatus(`GloVe could not be loaded (${error.message}); showing synthetic vectors.`);
    if (state.vectors === 'glove') state.vectors = 'synthetic';
    requestRecompute();
  }).finally(gloveSettled);
}

function setStatus(text) {
  ui.vectorsStatus.textContent = text;
}

// ---- State ⇄ controls ⇄ URL -------------------------------------------------------------

function applyHash({ initial = false } = {}) {
  const { state: fromHash, notes } = readHash(location.hash);
  if (initial && !location.hash) fromHash.sentence = ui.sentence.value || DEFAULTS.sentence;
  state = fromHash;
  trainedAsked = new URLSearchParams(location.hash.slice(1)).get(FIELDS.heads[0]) === TRAINED_HEADS;
  ui.urlNote.hidden = notes.length === 0;
  ui.urlNote.textContent = notes.length ? `Some values in the link were not understood: ${notes.join(' ')}` : '';
  writeControls(ui, state, { numbers, disclosures, measureTabs, limit: laneLimit() });
  if (!initial) requestRecompute();
}

// The scheme picker's boxes and hint, for the chosen schemes and this screen's width.
function syncPicker() {
  syncSchemeBoxes(ui, state.schemes, laneLimit());
}

/** A scheme's lane with its figures, cloned from its template the first time. */
function buildLane(scheme) {
  if (laneArticles[scheme]) return;
  const article = laneArticle(lab, scheme);
  lanes.attach(scheme, article);
  laneArticles[scheme] = article;
}

/** Puts the chosen schemes' lanes in #lanes (buildLane). */
function showLanes(schemes) {
  const key = schemes.join(',');
  if (key === lanesShown) return;
  lanesShown = key;
  for (const scheme of schemes) buildLane(scheme);
  ui.lanesBox.replaceChildren(...schemes.map((scheme) => laneArticles[scheme]));
  ui.lanesBox.dataset.count = String(schemes.length);
  disclosures.apply(state); // a lane shown again opens as the link says
  laneTabs.show(schemes);
  // Other [data-field] elements are in the document now, some holding text from when their lane
  // was last shown: look them up again and rewrite them all.
  captions.forget();
  numbers.writeParams();
}

function wireControls() {
  // The keystroke's compute leaves at beforeinput with the text the edit will make, and the edit
  // waits for its view, to be painted with it (typed-text.js).
  typing = followTyping(ui.sentence, (text) => { state.sentence = text; return pacing.typed(); });
  const choose = (element, name, cast = (v) => v) => element.addEventListener('change', () => {
    state[name] = cast(element.value);
    requestRecompute();
  });
  choose(ui.vectors, 'vectors');
  choose(ui.concat, 'concat');
  choose(ui.layout, 'layout');
  choose(ui.pairing, 'pairing');
  choose(ui.heads, 'heads', (value) => parseField('heads', value)); // a number, or trained
  ui.heads.addEventListener('change', () => { trainedAsked ||= state.heads === TRAINED_HEADS; });
  ui.causal.addEventListener('change', () => { state.causal = ui.causal.checked; requestRecompute(); });
  numbers.number(ui.dim, 'd', 'd');
  numbers.number(ui.dpos, 'dPos', 'd_p');
  numbers.number(ui.base, 'base', 'base');
  numbers.number(ui.alpha, 'alpha', 'α');
  numbers.number(ui.shiftK, 'shiftK', 'k');
  numbers.number(ui.maxDistance, 'maxDistance', 'K');
  for (const box of ui.schemeBoxes) {
    box.addEventListener('change', () => {
      state.schemes = SCHEME_IDS.filter((id) => ui.schemeBoxes.some((b) => b.value === id && b.checked));
      syncPicker();
      requestRecompute();
    });
  }
  wideScreen.addEventListener('change', syncPicker);
  // Scheme parameters live in the settings box and inside lanes cloned later: one listener each.
  document.addEventListener('input', (event) => numbers.param(event.target, false));
  document.addEventListener('change', (event) => numbers.param(event.target, true));
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
  window.addEventListener('hashchange', (event) => {
    // A place on the page (#train, #measurements: the section navigation, the skip link, an old
    // link) is not a state: the browser has gone there, and the link says the state again.
    if (/^#[\w-]+$/.test(location.hash) && document.getElementById(location.hash.slice(1))) {
      history.replaceState(null, '', new URL(event.oldURL).hash || location.pathname + location.search);
      return;
    }
    if (location.hash !== writeHash(state)) applyHash();
  });
}

// The bring-your-own picker (web/page/byo-vectors.js, another module) is optional: without it the
// page works with GloVe and synthetic vectors.
async function mountVectorPicker() {
  let picker;
  try {
    picker = await import('./byo-vectors.js');
  } catch {
    return;
  }
  // The picker parses the file in its own worker; the bytes it makes go to the lab worker.
  const workerLab = {
    loadVectors: (bytes) => client.custom(bytes, 'your vector file').then(({ size, dim }) => ({ size, dim, dispose() {} })),
  };
  picker.mountVectorPicker(document.getElementById('byo-vectors'), {
    lab: workerLab,
    onLoaded(vectors, summary) {
      const name = summary?.name ?? summary?.fileName ?? 'your file';
      customLabel = vectorFileLabel(name, vectors);
      if (![...ui.vectors.options].some((o) => o.value === 'custom')) ui.vectors.add(new Option('Your vector file', 'custom'));
      state.vectors = 'custom';
      setStatus(`Word vectors: ${customLabel} (not kept in the link).`);
      requestRecompute();
    },
    onReset() {
      state.vectors = 'glove';
      if (gloveLabel) setStatus(`Word vectors: ${gloveLabel}.`);
      requestRecompute();
    },
  });
}

function showControlError(message) {
  setHidden(ui.controlError, message === '');
  setText(ui.controlError, message);
}

// ---- Recompute (paced: frame-pacing.js) ---------------------------------------------------

function requestRecompute() {
  pacing.request();
}

// The lanes whose n×n parts no figure shows this keystroke: a trained map covers the attention
// and the decomposition is folded (compare's inputOnly). Opening one asks for them (onToggle).
function coveredLanes() {
  if (state.heads !== TRAINED_HEADS || !trainedHeads.available) return [];
  return state.schemes.filter((scheme) => !state.moreOpen.includes(scheme) && trainedHeads.showsTrained(scheme));
}

// One message per action: the state goes to the worker, and its view is painted when it comes
// back, unless a newer recompute was sent meanwhile (then the client drops it). → a promise
// settled once that view is painted, dropped or failed.
function recompute({ typed = false } = {}) {
  const started = performance.now();
  if (typed) typedSincePause = true;
  const mine = work.next();
  const sent = { ...state };
  // The trained lanes' passes run in the same trip, on the tokens the worker finds.
  const trained = state.heads === TRAINED_HEADS
    ? trainedHeads.passRequests({ schemes: state.schemes, layer: state.headLayer, head: state.headIndex }) : [];
  // A typed key's view leaves the summary as it reads (summarise), so the worker writes none.
  // A typed key whose tokens are those shown (a space, say) comes back as { repeated: true }.
  const painted = client.compute({ gen: mine, repeatOf: typed ? shownGen : null, state: sent, trainedAvailable: trainedHeads.available, trainedAsked,
    inputOnly: coveredLanes(), trained, shown: shownKeys, summaries: !typed, recycle: viewBuffers.take() })
    .then((next) => {
      // A typed edit waiting for this view is made after the view's writes: the editing command
      // brings layout up to date for both, and the frame after has none left to do.
      if (next && work.isCurrent(mine)) {
        if (next.repeated) keep(sent, started, mine);
        else paint(next, sent, started, mine);
      }
      typing.flush();
    }, (error) => {
      typing.flush();
      // Inputs are validated before they reach the lab, so this is a bug: say so rather than
      // leave stale figures looking current.
      if (work.isCurrent(mine)) showFailure(`Could not compute the encodings: ${error.message}`);
    });
  // The bookkeeping waits until the message has left: the worker starts meanwhile.
  heavy.cancel();
  link.schedule(typed);
  return painted;
}

// The worker computed nothing: every figure shows this text already, and the readout says so.
function keep(sent, started, gen) {
  view.state = sent;
  view.recomputeMs = performance.now() - started;
  shownGen = gen;
  showEngine();
  scheduleHeavy();
}

function paint(next, sent, started, gen) {
  shownGen = null; // until the lanes show this view
  firstView();
  const { settings, source } = next;
  // The lanes first: the captions write their numbers into the lanes in the document, so a lane
  // shown for the first time arrives with them, not blank until the next view.
  if (next.n > 0) showLanes(state.schemes);
  captions.reflectSettings(source, settings, state);
  settingsFigures.show(next.figures, state, next.n);
  const { pe: peKey, ...figureKeys } = next.shownKeys;
  shownKeys = { ...shownKeys, ...figureKeys };
  if (next.n === 0) {
    if (!trainedHeads.loading) trainedSettled(); // no lanes, so no model is asked for
    showEmptyState();
    writeEngine(`${engineLabel(lab.simd)} · nothing to compute`, { now: true }); // no pause follows an empty box
    return;
  }
  setHidden(ui.failure, true);
  setHidden(ui.emptyState, true);
  setHidden(ui.results, false);
  const { n, tokens } = next;
  if (selected !== null && selected >= n) selected = null;
  view = { ...next, state: sent };

  tokenList.render(tokens, next.unknown, next.total, next.textCut);
  // Trained maps first: the identity maps they cover are then not painted at all.
  viewBuffers.lend(Object.values(next.trained ?? {}).map((pass) => pass.attention));
  const trainedMaps = trainedHeads.update({ active: settings.trained, tokens, schemes: state.schemes, figures: lanes.lanes,
    layer: state.headLayer, head: state.headIndex, asked: trainedAsked, passes: next.trained, typed: typedSincePause });
  if (!trainedHeads.loading) trainedSettled();
  // A covered lane whose model refused these words shows its identity map after all: rare (a
  // learned table past its rows), so the keystroke is asked for again, with that lane's weights.
  if (state.schemes.some((scheme) => next.result[scheme]?.inputOnly && !trainedMaps.has(scheme))) {
    requestRecompute();
    return;
  }
  viewBuffers.lend(laneArrays(next.result));
  lanes.update({ result: next.result, tokens, heads: settings.heads, causal: state.causal, dWord: settings.dWord, trainedLength: state.trainedLength,
    attentionShownElsewhere: trainedMaps });
  lanes.select(selected);
  laneColumns.fit(n);
  captions.describeLanes(view, state, lab);
  // The tables come only when they changed (the worker's shownKeys).
  const { pe, peConcat } = next;
  if (pe) peFigure.update({ pe, peConcat, n, d: settings.d, dPos: settings.dPos, layout: state.layout });
  shownKeys.pe = peKey;
  setText(ui.normRatio, `‖PE‖ / ‖αE‖ = ${next.normRatio.toFixed(3)} (mean over tokens)`);
  summarise(next.summaries, true);
  view.recomputeMs = performance.now() - started;
  shownGen = gen;
  showEngine();
  scheduleHeavy();
}

// Every typed array of a view's lanes: the figures that show one say when they stop
// (view-buffers.js); one no figure shows stays with the page.
function laneArrays(result) {
  return Object.values(result).flatMap((lane) => (lane && typeof lane === 'object' ? Object.values(lane).filter((v) => ArrayBuffer.isView(v)) : []));
}

// Each view's engine line is on #engine's data-view at once (no rule styles it: no layout), and on
// screen once typing pauses (runHeavy), as the notes are: its time changes at every key, and its
// text's rewrite lays the whole document out. Each view writes data-view, for whoever times views.
function showEngine() {
  if (!view) return;
  const heavy = lastHeavyMs === null ? '' : ` · analyses ${lastHeavyMs.toFixed(0)} ms after typing pauses`;
  writeEngine(`${engineLabel(lab.simd)} · last recompute ${view.recomputeMs.toFixed(1)} ms ` +
    `(n = ${view.n}, d = ${view.settings.d})${heavy}`);
}
function writeEngine(line, { now = false } = {}) {
  ui.engine.dataset.view = line;
  if (now || !typedSincePause) setText(ui.engine, line);
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

// ---- Token selection and nearest words ---------------------------------------------------

function selectToken(index) {
  if (!view) return;
  selected = index === selected ? null : index;
  tokenList.select(selected);
  lanes.select(selected);
  showNeighbors();
}

function showNeighbors() {
  const asked = view;
  const p = selected;
  if (p === null || !asked) { tokenList.showNeighbors(null); return; }
  client.neighbors(p).then((found) => {
    if (view !== asked || selected !== p || !found) return;
    tokenList.showNeighbors(found.token, found.position, found.rows, found.caption);
  }, (error) => showFailure(`Could not find the nearest words: ${error.message}`));
}

// ---- Expensive analyses (after typing pauses) --------------------------------------------

const heavy = createDelay(runHeavy);
function scheduleHeavy() {
  heavy.after(HEAVY_DELAY_MS);
}

// The worker runs the analyses of the last view in slices, each panel painted as its data comes;
// a keystroke in between makes the worker stop them and the client drop what was under way.
// They leave once the view's frame is out: on two cores, a worker busy with them makes that frame's
// style and layout take several times their CPU time (the load's first view, most of all, when
// Chromium holds the page's first frames back).
const ANALYSIS_PANELS = { retrieval: retrievalPanel, shift: shiftPanel, orth: orthogonalityPanel };
function runHeavy() {
  const mine = work.current;
  typedSincePause = false;
  if (!view) return;
  trainedHeads.settleNotes(); // the counts in the lanes' notes that typing held back
  if (ui.engine.dataset.view) setText(ui.engine, ui.engine.dataset.view); // and the engine line
  afterNextFrame().then(() => {
    if (work.isCurrent(mine)) analyse(mine);
  });
}
function analyse(mine) {
  if (selected !== null) showNeighbors();
  client.analyse(mine, (name, data) => {
    if (!work.isCurrent(mine)) return;
    if (name === 'summaries') summarise(data, false);
    else ANALYSIS_PANELS[name]?.render(data);
  }).then((done) => {
    if (!done || !work.isCurrent(mine)) return;
    lastHeavyMs = done.ms;
    showEngine();
  }, (error) => showFailure(`An analysis failed: ${error.message}`));
}

// ---- The plain-language summary ----------------------------------------------------------

// Written whole once the analyses are done. A view of other settings (the first, a control's)
// writes it first with stand-ins for the analyses' numbers (prose.js): the same lines both times.
// A typed key's view brings none (texts null) and leaves the sentences as they read, so that
// typing does not lay the three paragraphs out at every key. aria-busy says which it is.
function summarise(texts, pending) {
  for (const which of ['disturb', 'shift', 'orth']) {
    if (texts && texts[which] !== null) setText(document.querySelector(`#summary-${which} .summary-text`), texts[which]);
  }
  setAttr($('summary'), 'aria-busy', String(pending));
}
