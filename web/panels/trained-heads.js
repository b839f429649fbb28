// Trained heads in the lanes: when the Heads control says "trained", each lane whose scheme has a
// shipped model (lab.pretrained) shows that model's attention on the sentence for the chosen layer
// and head, and under it a surprise strip, −ln p of each next word. Models load on demand, with
// progress in the lane, and are abandoned (AbortSignal) if the control switches back first; a lane
// whose model failed to load, or has none, keeps its identity-head map and says why.
//
// Per keystroke and trained lane: the tokens are looked up in the model's vocabulary in JS (no
// wasm call), then one attention call paints the map in the keystroke's frame; the strip's
// m.tokenLosses (a logits call and a log-softmax) runs in a task of its own after that frame. A layer or head change with
// the same words repaints from the last outputs without calling the model.
import { HeatmapFigure } from '../figure.js';
import { SCHEME_LABELS } from '../posenc.mjs';
import { setHidden, setText } from '../dom.js';
import { clampHead, headOffset, idsFor, trainedHeadsLabel, vocabularyIndex } from './trained-data.js';

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

const tokenLabel = (tokens, i) => `“${tokens[i]}” (${i})`;
const percent = (loaded, total) => (total > 0 ? ` ${Math.round((100 * loaded) / total)}%` : '');

/**
 * picker: an empty element for the layer/head picker; onPickHead({ headLayer, headIndex }) when the
 * reader picks one (1-based, for the state and the URL); onLoaded() when a model arrives or fails.
 */
export function createTrainedHeads({ picker, onPickHead, onLoaded }) {
  let lab = null;
  let entries = [];           // lab.pretrained
  const models = new Map();   // scheme → { status: 'loading' | 'ready' | 'failed', model, index, controller, error, progress }
  const boxes = new Map();    // scheme → { slot, box, note, strip, figure, last }
  const layerSelect = element('select');
  const headSelect = element('select');
  buildPicker();

  function buildPicker() {
    const group = element('div', 'trained-picker-group');
    group.setAttribute('role', 'group');
    group.setAttribute('aria-label', 'Trained head shown in the lanes');
    const label = (text, control, id) => {
      control.id = id;
      const l = element('label', '', text);
      l.htmlFor = id;
      return [l, control];
    };
    group.append(element('span', 'trained-picker-title', 'Trained head:'),
      ...label('Layer', layerSelect, 'trained-layer'), ...label('Head', headSelect, 'trained-head'));
    const pick = () => onPickHead({ headLayer: Number(layerSelect.value), headIndex: Number(headSelect.value) });
    layerSelect.addEventListener('change', pick);
    headSelect.addEventListener('change', pick);
    picker.replaceChildren(group);
    picker.hidden = true;
  }

  function fillSelect(select, count, chosen) {
    if (select.options.length !== count) {
      select.replaceChildren(...Array.from({ length: count }, (_, i) => new Option(String(i + 1), String(i + 1))));
    }
    const value = String(Math.min(count, Math.max(1, chosen)));
    if (select.value !== value) select.value = value;
  }

  const entryFor = (scheme) => entries.find((entry) => entry.scheme === scheme || entry.name === scheme);

  function startLoad(scheme, entry) {
    const controller = new AbortController();
    const record = { status: 'loading', controller, progress: { loaded: 0, total: entry.bytes ?? 0 } };
    models.set(scheme, record);
    lab.loadPretrained(entry.name, {
      signal: controller.signal,
      onProgress: (progress) => {
        record.progress = progress;
        const parts = boxes.get(scheme);
        if (parts && models.get(scheme) === record) setText(parts.note, loadingText(scheme, record));
      },
    }).then((model) => {
      if (models.get(scheme) !== record) { model.dispose(); return; }
      Object.assign(record, { status: 'ready', model, index: vocabularyIndex(model.vocabulary), controller: null });
      onLoaded();
    }, (error) => {
      if (models.get(scheme) !== record) return;
      if (error?.name === 'AbortError') { models.delete(scheme); return; }
      Object.assign(record, { status: 'failed', error, controller: null });
      onLoaded();
    });
  }

  function loadingText(scheme, record) {
    const { loaded, total } = record.progress;
    return `Loading the trained ${SCHEME_LABELS[scheme]} model…${percent(loaded, total)} ` +
      `(${(loaded / 1e6).toFixed(1)} of ${((total || loaded) / 1e6).toFixed(1)} MB); identity heads meanwhile.`;
  }

  /**
   * Switching back from trained abandons the loads still under way and forgets failures (the
   * next switch to trained tries those again); loaded models are kept.
   */
  function cancelLoads() {
    for (const [scheme, record] of models) {
      if (record.status === 'ready') continue;
      record.controller?.abort();
      models.delete(scheme);
    }
  }

  // The trained box lives inside the lane's attention slot, after the figure, so the lane keeps
  // its children (and the subgrid rows that line the lanes up).
  function boxFor(scheme) {
    const slot = document.querySelector(`#lanes [data-figure="${scheme}-attention"]`);
    if (!slot) return null;
    let parts = boxes.get(scheme);
    if (parts?.slot === slot) return parts;
    const box = element('div', 'trained-box');
    const note = element('p', 'lane-note trained-note');
    note.setAttribute('role', 'status');
    const heading = element('p', 'trained-strip-title', 'Surprise: −ln p(next word) under the trained model');
    const strip = element('div', 'fig-slot trained-strip');
    box.append(note, heading, strip);
    slot.append(box);
    const figure = new HeatmapFigure(strip, { title: `${SCHEME_LABELS[scheme]} trained model surprise`, palette: 'viridis' });
    parts = { slot, box, note, heading, strip, figure, last: null, scratch: null };
    boxes.set(scheme, parts);
    return parts;
  }

  function showStrip(parts, shown) {
    setHidden(parts.heading, !shown);
    setHidden(parts.strip, !shown);
  }

  // One lane with a loaded model, inside the keystroke: one attention call for these ids (none
  // when only the layer or head changed), the chosen head painted now; the strip follows after
  // the frame (paintStrip), since the logits take a second full pass through the model.
  function paintTrained(scheme, record, figures, parts, tokens) {
    const { model, index } = record;
    const n = tokens.length;
    const { ids, unknown } = idsFor(tokens, index, model.unknownId, parts.scratch);
    if (ids.buffer !== parts.scratch?.buffer) parts.scratch = new Int32Array(ids.buffer);
    const last = parts.last;
    if (!last || last.model !== model || !sameIds(last.ids, ids)) {
      parts.last = { model, ids: ids.slice(), attention: model.attention(ids, n), unknown, stripDone: false, tokens };
    }
    if (!parts.last.stripDone) {
      stripsDue.add(scheme);
      scheduleStrips();
    }
    parts.last.tokens = tokens; // labels: the same ids may come from differently spelled tokens
    const outputs = parts.last;
    const { layers, heads } = model.config;
    const { layer, head } = clampHead(state.head, { layers, heads });
    figures.attention?.update({
      tiles: [{ values: outputs.attention, offset: headOffset(layer, head, heads, n), rows: n, cols: n }],
      min: 0,
      max: 1,
      label: `${SCHEME_LABELS[scheme]} attention weights of the trained model, layer ${layer + 1} of ${layers}, head ${head + 1} of ${heads}, ` +
        `${n} × ${n} tokens, rows are queries`,
      legendTitle: 'attention weight',
      rowLabel: (i) => `query ${tokenLabel(tokens, i)}`,
      colLabel: (j) => `key ${tokenLabel(tokens, j)}`,
      note: (t, i, j) => (j > i ? ' (masked: a later word)' : ''),
    });
    const V = model.vocabulary.length;
    setText(parts.note, `Trained model: layer ${layer + 1} of ${layers}, head ${head + 1} of ${heads}` +
      (unknown ? `; ${unknown} of ${n} words are outside its ${V}-word vocabulary (read as ${model.vocabulary[model.unknownId]}).` : '.'));
    parts.box.dataset.strip = outputs.stripDone ? 'ready' : 'pending';
    showStrip(parts, n > 1);
  }

  // The strips, one lane per task after the keystroke's frame has painted, so typing is not held
  // up by the second pass; a keystroke in between re-marks its lanes and the newest ids win.
  const stripsDue = new Set();
  let stripsScheduled = false;
  function scheduleStrips() {
    if (stripsScheduled) return;
    stripsScheduled = true;
    requestAnimationFrame(() => setTimeout(nextStrip, 0));
  }
  function nextStrip() {
    stripsScheduled = false;
    const [scheme] = stripsDue;
    if (scheme === undefined) return;
    stripsDue.delete(scheme);
    const parts = boxes.get(scheme);
    if (parts?.last && !parts.last.stripDone && !parts.box.hidden) {
      try {
        paintStrip(scheme, parts);
      } catch (error) {
        if (!(error instanceof RangeError)) throw error;
        setText(parts.note, `The trained ${SCHEME_LABELS[scheme]} model could not score this sentence: ${error.message}.`);
        showStrip(parts, false);
      }
    }
    if (stripsDue.size) { stripsScheduled = true; setTimeout(nextStrip, 0); }
  }

  function paintStrip(scheme, parts) {
    const outputs = parts.last;
    const { model, ids, tokens } = outputs;
    const n = ids.length;
    const V = model.vocabulary.length;
    outputs.stripDone = true;
    parts.box.dataset.strip = 'ready';
    if (n < 2) return; // one word: nothing is predicted (showStrip hid the strip)
    // Entry i is −ln p(ids[i + 1] | ids[0 … i]): the first word has none.
    const surprise = model.tokenLosses(ids, n);
    const uniform = Math.log(V);
    parts.figure.update({
      tiles: [{ values: surprise, rows: 1, cols: n - 1 }],
      min: 0,
      max: uniform,
      label: `${SCHEME_LABELS[scheme]} trained model's surprise at each next word, −ln p in nats, words 1 to ${n - 1} ` +
        `(the first word has no prediction); ln V = ${uniform.toFixed(2)} is a uniform guess over ${V} words`,
      legendTitle: `−ln p (nats; ${uniform.toFixed(1)} = uniform guess)`,
      rowLabel: () => 'surprise',
      colLabel: (j) => `${tokenLabel(tokens, j + 1)} after ${tokenLabel(tokens, j)}`,
    });
  }

  // What update() was last told, for the picker's shape and paintTrained's head.
  const state = { head: { layer: 1, head: 1 } };

  return {
    /** Called once the lab has loaded; reads its list of shipped models. */
    setLab(loaded) {
      lab = loaded;
      entries = loaded.pretrained ?? [];
    },

    /** [[value, label]] for the Heads control: the trained choice when models ship, else none. */
    headOptions() {
      const label = trainedHeadsLabel(entries);
      return label ? [['trained', label]] : [];
    },

    /** Whether any model ships (a link asking for trained heads falls back to W = I otherwise). */
    get available() {
      return entries.length > 0;
    },

    /** The caption under the lanes while trained heads are on. */
    headsNote() {
      return `Trained heads: each lane with a shipped model shows one head of that scheme's small language model, trained on ` +
        'public-domain English with the same frozen GloVe vectors as input (choose the layer and head above the lanes); ' +
        'the encoded input and the logit decomposition below still use W = I.';
    },

    /**
     * view: { active, tokens (the lanes' n tokens), schemes (the lanes'), figures (createLanes'
     * lanes: scheme → { attention, … }), layer, head (1-based, from the state) }.
     */
    update({ active, tokens, schemes, figures, layer, head }) {
      state.head = { layer, head };
      if (!active) {
        cancelLoads();
        picker.hidden = true;
        for (const parts of boxes.values()) setHidden(parts.box, true);
        return;
      }
      let shape = null;
      for (const scheme of schemes) {
        const parts = boxFor(scheme);
        if (!parts) continue;
        setHidden(parts.box, false);
        const entry = entryFor(scheme);
        if (!entry) {
          setText(parts.note, `No trained model for ${SCHEME_LABELS[scheme]}: this lane keeps its identity heads (W = I).`);
          showStrip(parts, false);
          continue;
        }
        shape ??= entry.config;
        if (!models.has(scheme)) startLoad(scheme, entry);
        const record = models.get(scheme);
        if (record.status === 'loading') {
          setText(parts.note, loadingText(scheme, record));
          showStrip(parts, false);
        } else if (record.status === 'failed') {
          setText(parts.note, `The trained ${SCHEME_LABELS[scheme]} model could not be loaded (${record.error?.message ?? record.error}); ` +
            'this lane shows identity heads (W = I).');
          showStrip(parts, false);
        } else {
          try {
            paintTrained(scheme, record, figures[scheme] ?? {}, parts, tokens);
          } catch (error) {
            // The core refuses what a model cannot do (a learned table past its rows): a note,
            // not a failure; the lane keeps the identity map compare() just painted.
            if (!(error instanceof RangeError)) throw error;
            parts.last = null;
            setText(parts.note, `The trained ${SCHEME_LABELS[scheme]} model cannot read this sentence: ${error.message}. ` +
              'This lane shows identity heads (W = I).');
            showStrip(parts, false);
          }
        }
      }
      picker.hidden = !shape;
      if (shape) {
        fillSelect(layerSelect, shape.layers, layer);
        fillSelect(headSelect, shape.heads, head);
      }
    },
  };
}

function sameIds(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
