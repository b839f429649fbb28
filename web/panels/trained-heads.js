// Trained heads in the lanes, the page's default: each lane whose scheme has a shipped model
// (lab.pretrained) shows that model's attention on the sentence for the chosen layer and head, and
// under it a surprise strip, −ln p of each next word. "Encoding alone (W = I)" is the toggle's other
// choice. Models load on demand, with progress in the lane, and are abandoned (AbortSignal) if the
// toggle switches back first; meanwhile, or where a model failed to load or none ships, the lane
// shows its identity-head map, labelled as such. Where the browser asks to save data (Save-Data,
// prefers-reduced-data) nothing loads until the reader asks.
//
// Models load and run in the lab worker (web/pipeline/model-host.js, through model-client.js).
// The parts: the controls (trained-picker.js), the model records (trained-models.js), each lane's
// box and strip (trained-lane.js), and the per-keystroke requests and answers (trained-requests.js).
import { SCHEME_LABELS } from '../options.mjs';
import { setHidden, setText } from '../figures/dom.js';
import { TRAINED_HEADS } from '../pipeline/state.js';
import { trainedHeadsLabel } from './trained-data.js';
import { laneBox, reserveStrip, settleNote, showStrip } from './trained-lane.js';
import { createModelRecords, loadingText } from './trained-models.js';
import { createTrainedPicker } from './trained-picker.js';
import { passRequest, showTrained } from './trained-requests.js';
import { W_IS_I } from '../pipeline/prose.js';

/** Whether the browser asks pages to save data: then models load only when the reader asks. */
export function browserSavesData() {
  return globalThis.navigator?.connection?.saveData === true ||
    globalThis.matchMedia?.('(prefers-reduced-data: reduce)').matches === true;
}

const HEADS_NOTE = 'Trained heads: each map is one head of a small language model trained with that lane\'s scheme on public-domain ' +
  `English, GloVe words in; the encoded input and logit decomposition still use ${W_IS_I}.`;

// heads: the state createTrainedHeads keeps — { entries (lab.pretrained), boxes (scheme → the
// lane's parts, trained-lane.js), requested (the reader asked for the models), figures (the lanes'
// at the last update, createLanes'), lane (trained-requests.js' lane), models, controls }.

// One lane of an update with trained heads on (typed: see update). → 'trained' (its figure
// shows a trained map), or the bytes its model waits with for the reader to ask (0 when it does not wait).
function updateLane(heads, scheme, parts, entry, tokens, head, pass, typed) {
  const { models } = heads;
  if (!models.has(scheme) && !heads.requested) {
    setText(parts.note, `Encoding alone (${W_IS_I}) until the trained ${SCHEME_LABELS[scheme]} model is loaded: ` +
      'your browser asks to save data, so it loads only when you press the button above the lanes.');
    reserveStrip(scheme, parts, entry.config.vocab, tokens);
    return entry.bytes ?? 0;
  }
  const record = models.ensure(scheme, entry);
  if (record.status === 'loading') {
    setText(parts.note, loadingText(scheme, record));
    reserveStrip(scheme, parts, entry.config.vocab, tokens);
  } else if (record.status === 'failed') {
    setText(parts.note, `The trained ${SCHEME_LABELS[scheme]} model could not be loaded (${record.error?.message ?? record.error}); ` +
      `this map shows the encoding alone (${W_IS_I}).`);
    showStrip(parts, false);
  } else if (showTrained(heads.lane, scheme, record, parts, tokens, head, pass, typed)) {
    return 'trained';
  }
  return 0;
}

// Every lane with trained heads on. → the Set of schemes whose figure shows a trained map.
function updateLanes(heads, tokens, schemes, head, passes, typed) {
  const trainedMaps = new Set();
  let shape = null;
  let waiting = 0; // bytes of the lanes' models not loaded because the reader has not asked yet
  for (const scheme of schemes) {
    const parts = laneBox(scheme, heads.boxes);
    if (!parts) continue;
    setHidden(parts.box, false);
    const entry = heads.entries.find((e) => e.scheme === scheme || e.name === scheme);
    if (!entry) {
      setText(parts.note, `No trained model ships for ${SCHEME_LABELS[scheme]}: this map shows the encoding alone (${W_IS_I}).`);
      showStrip(parts, false);
      continue;
    }
    shape ??= entry.config;
    const result = updateLane(heads, scheme, parts, entry, tokens, head, passes[scheme], typed);
    if (result === 'trained') trainedMaps.add(scheme);
    else waiting += result;
  }
  heads.controls.showLoad(waiting);
  heads.controls.showHeads(shape, head.layer, head.head);
  return trainedMaps;
}

// Trained heads off: loads under way abandoned, the picker and every trained box hidden.
function hideLanes(heads) {
  heads.models.cancel();
  heads.controls.showHeads(null);
  heads.controls.showLoad(0);
  for (const parts of heads.boxes.values()) setHidden(parts.box, true);
  return new Set();
}

/**
 * picker: an empty element for the heads toggle and the layer/head picker above the lanes;
 * onPickHeads(heads) when the reader picks trained heads (TRAINED_HEADS) or the encoding alone (0);
 * onPickHead({ headLayer, headIndex }) when the reader picks a head (1-based, for the state and the
 * URL); requestUpdate() when a model arrives or fails, a lane's first map arrives or a model
 * refuses the words; saveData: load models only on request; models: where the models live and
 * run (the lab worker's model client, web/pipeline/model-client.js); buffers: the page's view
 * buffers (web/page/view-buffers.js), which hear which maps a lane still holds, or null.
 */
export function createTrainedHeads({ picker, onPickHeads, onPickHead, requestUpdate, saveData = browserSavesData(), models: client, buffers = null }) {
  if (typeof client?.load !== 'function') throw new TypeError('models must be a model client (web/pipeline/model-client.js)');
  // With Save-Data, nothing is requested until the load button (or an explicit link) asks.
  const heads = { entries: [], boxes: new Map(), requested: !saveData, figures: {} };
  heads.controls = createTrainedPicker({ picker, onPickHeads, onPickHead, onLoad: () => { heads.requested = true; requestUpdate(); } });
  heads.models = createModelRecords({
    client,
    requestUpdate,
    onProgress: (scheme, record) => { const parts = heads.boxes.get(scheme); if (parts) setText(parts.note, loadingText(scheme, record)); },
  });
  heads.lane = { models: heads.models, requestUpdate, figureOf: (scheme) => heads.figures[scheme]?.attention, buffers };
  return {
    /** Called once the lab has loaded; reads its list of shipped models (the worker loads them). */
    setLab(loaded) { heads.entries = loaded.pretrained ?? []; },
    /** [[value, label]] for the Heads control: the trained choice when models ship, else none. */
    headOptions() {
      const label = trainedHeadsLabel(heads.entries);
      return label ? [[TRAINED_HEADS, label]] : [];
    },
    /**
     * Whether the lane's attention figure shows a trained map now (the next update keeps one there
     * unless the model refuses the new words): the page then skips that lane's identity map.
     */
    showsTrained(scheme) {
      const parts = heads.boxes.get(scheme);
      return Boolean(parts && parts.shown && parts.slot.isConnected && !parts.box.hidden);
    },
    /** Whether any model ships (a link asking for trained heads falls back to W = I otherwise). */
    get available() { return heads.entries.length > 0; },
    /** Whether a model a lane asked for is still loading (its heads, or the rest of its file). */
    get loading() { return heads.models.busy; },
    /** The caption under the lanes while trained heads are on. */
    headsNote: () => HEADS_NOTE,
    /**
     * The lanes' passes for the lab worker to run with the keystroke's compute (the lab client's
     * `trained`): one per lane among `schemes` whose model is loaded. layer, head: 1-based.
     */
    passRequests({ schemes, layer, head }) {
      return schemes.map((scheme) => passRequest(scheme, heads.models.get(scheme), { layer, head }, heads.boxes.get(scheme))).filter(Boolean);
    },
    /**
     * view: { active, tokens (the lanes' n tokens), schemes (the lanes'), figures (createLanes'
     * lanes: scheme → { attention, … }), layer, head (1-based, from the state), asked (the link or
     * the Heads control asked for trained heads: with Save-Data, that loads them without the button),
     * passes (the view's trained passes, lane → pass, web/pipeline/model-host.js), typed (a key was
     * typed and typing has not paused since: each note's count of unknown words waits for settleNotes) }.
     * → the Set of schemes whose attention figure now shows a trained map (createLanes' update
     * leaves those figures alone).
     */
    update({ active, tokens, schemes, figures, layer, head, asked = false, passes = {}, typed = false }) {
      heads.figures = figures;
      if (asked) heads.requested = true;
      heads.controls.showToggle(heads.entries.length > 0, active);
      return active ? updateLanes(heads, tokens, schemes, { layer, head }, passes, typed) : hideLanes(heads);
    },
    /** Typing paused: the notes typing held back are written (settleNote). */
    settleNotes() { for (const parts of heads.boxes.values()) settleNote(parts); },
  };
}
