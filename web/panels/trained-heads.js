// Trained heads in the lanes, the page's default: each lane whose scheme has a shipped model
// (lab.pretrained) shows that model's attention on the sentence for the chosen layer and head, and
// under it a surprise strip, −ln p of each next word. "Encoding alone (W = I)" is the toggle's other
// choice. Models load on demand, with progress in the lane, and are abandoned (AbortSignal) if the
// toggle switches back first; meanwhile, or where a model failed to load or none ships, the lane
// shows its identity-head map, labelled as such. Where the browser asks to save data (Save-Data,
// prefers-reduced-data) nothing loads until the reader asks.
//
// Models load and run in the lab worker (web/pipeline/model-host.js, through model-client.js): per
// keystroke and trained lane, the tokens are looked up in the model's vocabulary here (no wasm
// call), and one inspect request (map and strip from one pass; the model recomputes only the rows
// from the first changed word) goes to the worker. Until its answer arrives the lane keeps its
// previous map and strip, dimmed; a newer keystroke's request overtakes an older one, whose answer
// is dropped. A layer or head change with the same words is a request that recomputes no row.
import { HeatmapFigure } from '../figures/heatmap-figure.js';
import { SCHEME_LABELS } from '../posenc.mjs';
import { element, setAttr, setClass, setHidden, setStyle, setText } from '../figures/dom.js';
import { TRAINED_HEADS } from '../pipeline/state.js';
import { clampHead, idsFor, trainedHeadsLabel, vocabularyIndex } from './trained-data.js';

const tokenLabel = (tokens, i) => `“${tokens[i]}” (${i})`;
const percent = (loaded, total) => (total > 0 ? ` ${Math.round((100 * loaded) / total)}%` : '');

/** Whether the browser asks pages to save data: then models load only when the reader asks. */
export function browserSavesData() {
  return globalThis.navigator?.connection?.saveData === true ||
    globalThis.matchMedia?.('(prefers-reduced-data: reduce)').matches === true;
}

/**
 * picker: an empty element for the heads toggle and the layer/head picker above the lanes;
 * onPickHeads(heads) when the reader picks trained heads (TRAINED_HEADS) or the encoding alone (0);
 * onPickHead({ headLayer, headIndex }) when the reader picks a head (1-based, for the state and the
 * URL); requestUpdate() when a model arrives or fails, a lane's first map arrives or a model
 * refuses the words; saveData: load models only on request; models: where the models live and
 * run (the lab worker's model client, web/pipeline/model-client.js).
 */
export function createTrainedHeads({ picker, onPickHeads, onPickHead, requestUpdate, saveData = browserSavesData(), models: client }) {
  if (typeof client?.load !== 'function') throw new TypeError('models must be a model client (web/pipeline/model-client.js)');
  let entries = [];           // lab.pretrained
  const models = new Map();   // scheme → { status: 'loading' | 'ready' | 'failed', model, index, controller, error, progress }
  const boxes = new Map();    // scheme → { slot, box, note, strip, figure, want, shown (with attention, surprise), refused }
  const layerSelect = element('select');
  const headSelect = element('select');
  const toggle = { trained: null, identity: null };
  const loadButton = element('button', { type: 'button', class: 'trained-load', hidden: true });
  let requested = !saveData; // with Save-Data, the first click on loadButton (or an explicit link) asks
  let headGroup = null;
  buildPicker();

  function buildPicker() {
    // The toggle: two radio buttons, so the arrow keys move between them as in any radio group.
    const choices = element('div', { class: 'heads-toggle', role: 'radiogroup', 'aria-label': 'Attention shown in the lanes' });
    const choice = (value, text, key) => {
      const input = element('input', { type: 'radio', name: 'lane-heads', value, id: `lane-heads-${key}` });
      input.addEventListener('change', () => { if (input.checked) onPickHeads(value === TRAINED_HEADS ? TRAINED_HEADS : 0); });
      toggle[key] = input;
      return element('label', { class: 'heads-choice', htmlFor: input.id }, [input, text]);
    };
    choices.append(choice(TRAINED_HEADS, 'Trained heads', 'trained'), choice('0', 'Encoding alone (W = I)', 'identity'));
    loadButton.addEventListener('click', () => { requested = true; setHidden(loadButton, true); requestUpdate(); });
    const group = element('div', { class: 'trained-picker-group' });
    group.setAttribute('role', 'group');
    group.setAttribute('aria-label', 'Trained head shown in the lanes');
    const label = (text, control, id) => {
      control.id = id;
      const l = element('label', { text: text });
      l.htmlFor = id;
      return [l, control];
    };
    group.append(...label('Layer', layerSelect, 'trained-layer'), ...label('Head', headSelect, 'trained-head'));
    const pick = () => onPickHead({ headLayer: Number(layerSelect.value), headIndex: Number(headSelect.value) });
    layerSelect.addEventListener('change', pick);
    headSelect.addEventListener('change', pick);
    headGroup = group;
    picker.replaceChildren(choices, group, loadButton);
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
    client.load(entry.name, {
      signal: controller.signal,
      onProgress: (progress) => {
        record.progress = progress;
        const parts = boxes.get(scheme);
        if (parts && models.get(scheme) === record) setText(parts.note, loadingText(scheme, record));
      },
    }).then((model) => {
      if (models.get(scheme) !== record) return; // abandoned meanwhile; the worker keeps it for a later switch
      Object.assign(record, { status: 'ready', model, index: vocabularyIndex(model.vocab), controller: null });
      requestUpdate();
    }, (error) => {
      if (models.get(scheme) !== record) return;
      if (error?.name === 'AbortError') { models.delete(scheme); return; }
      Object.assign(record, { status: 'failed', error, controller: null });
      requestUpdate();
    });
  }

  function loadingText(scheme, record) {
    const { loaded, total } = record.progress;
    return `Loading the trained ${SCHEME_LABELS[scheme]} model…${percent(loaded, total)} of ${((total || loaded) / 1e6).toFixed(1)} MB; ` +
      'encoding alone (W = I) meanwhile.';
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
    const box = element('div', { class: 'trained-box' });
    const note = element('p', { class: 'lane-note trained-note' });
    note.setAttribute('role', 'status');
    const heading = element('p', { class: 'trained-strip-title', text: 'Surprise: −ln p(next word) under the trained model' });
    const strip = element('div', { class: 'fig-slot trained-strip' });
    box.append(note, heading, strip);
    slot.append(box);
    const figure = new HeatmapFigure(strip, { title: `${SCHEME_LABELS[scheme]} trained model surprise`, palette: 'viridis' });
    parts = { slot, box, note, heading, strip, figure, scratch: null, want: null, asked: null, shown: null, stripShown: null, reservedFor: 0, refused: null };
    boxes.set(scheme, parts);
    return parts;
  }

  // reserve: the strip is not shown but keeps its place (a model still loading), so the map and
  // strip that arrive do not move the page.
  function showStrip(parts, shown, reserve = false) {
    setHidden(parts.heading, !shown && !reserve);
    setHidden(parts.strip, !shown && !reserve);
    setClass(parts.box, 'strip-reserved', !shown && reserve);
  }

  // One lane with a loaded model, inside the keystroke. The ids the sentence asks for become the
  // lane's `want`, and one request to the worker is made for them (none when the lane shows them
  // already or they are asked for); meanwhile the map shows what the model last computed, dimmed.
  // → whether the lane's attention figure shows a trained map (else compare()'s identity map stays).
  function showTrained(scheme, record, parts, tokens) {
    const { model, index } = record;
    const { ids, unknown } = idsFor(tokens, index, model.unknownId, parts.scratch);
    if (ids.buffer !== parts.scratch?.buffer) parts.scratch = new Int32Array(ids.buffer);
    const n = ids.length;
    const { layers, heads } = model.config;
    const { layer, head } = clampHead(state.head, { layers, heads });
    const same = (outputs) => outputs?.model === model && outputs.layer === layer && outputs.head === head && sameIds(outputs.ids, ids);
    if (!same(parts.want)) parts.want = { model, layer, head, ids: ids.slice(), tokens, unknown };
    parts.want.tokens = tokens; // labels: the same ids may come from differently spelled tokens
    if (same(parts.refused)) {
      refuse(scheme, parts);
      return false;
    }
    if (!same(parts.shown) && !same(parts.asked)) requestPass(scheme, parts);
    const V = model.vocab.length;
    setText(parts.note, parts.shown ? `Trained model: layer ${parts.shown.layer + 1} of ${layers}, head ${parts.shown.head + 1} of ${heads}` +
      (unknown ? `; ${unknown} of ${n} words are outside its ${V}-word vocabulary (read as ${model.vocab[model.unknownId]}).` : '.')
      : `Computing the trained ${SCHEME_LABELS[scheme]} model's attention…`);
    if (same(parts.shown)) parts.shown.tokens = tokens;
    if (parts.shown) {
      paintMap(scheme, parts);
      paintStrip(scheme, parts);
    }
    // Until the lane's first answer, the strip keeps its place, as while the model loaded.
    if (parts.shown) showStrip(parts, n > 1);
    else reserveStrip(scheme, parts, model.config.vocab, tokens);
    markPending(parts);
    return parts.shown !== null;
  }

  // The lane's one model request: the chosen head's map and the strip of `want`, painted when the
  // answer comes. The core refuses what a model cannot do (a learned table past its rows): then
  // `refused`, and the lane shows compare()'s identity map after the update that follows.
  function requestPass(scheme, parts) {
    const want = parts.want;
    parts.asked = want;
    want.model.inspect(scheme, want.ids, { layer: want.layer, head: want.head }, (reply) => {
      if (parts.asked === want) parts.asked = null;
      if (reply.error) {
        const record = models.get(scheme);
        if (record?.model === want.model) Object.assign(record, { status: 'failed', error: new Error(reply.error) });
        requestUpdate();
        return;
      }
      if (reply.refused) {
        parts.refused = { ...want, message: reply.refused };
        parts.shown = null;
        requestUpdate();
        return;
      }
      const first = !parts.shown;
      parts.shown = { ...want, attention: reply.attention, surprise: reply.surprise };
      parts.refused = null;
      if (!parts.slot.isConnected || parts.box.hidden) return;
      paintMap(scheme, parts);
      paintStrip(scheme, parts);
      showStrip(parts, parts.shown.ids.length > 1);
      markPending(parts);
      if (first) requestUpdate(); // the note, and the page's covered lanes, follow the first map
    });
  }

  function paintMap(scheme, parts) {
    const { model, attention, tokens, ids, layer, head } = parts.shown;
    const n = ids.length;
    const { layers, heads } = model.config;
    figuresOf(scheme)?.attention?.update({
      tiles: [{ values: attention, rows: n, cols: n }],
      min: 0,
      max: 1,
      label: `${SCHEME_LABELS[scheme]} attention weights of the trained model, layer ${layer + 1} of ${layers}, head ${head + 1} of ${heads}, ` +
        `${n} × ${n} tokens, rows are queries`,
      legendTitle: 'attention weight',
      rowWords: tokens,
      colWords: tokens,
      rowLabel: (i) => `query ${tokenLabel(tokens, i)}`,
      colLabel: (j) => `key ${tokenLabel(tokens, j)}`,
      note: (t, i, j) => (j > i ? ' (masked: a later word)' : ''),
    });
  }

  function paintStrip(scheme, parts) {
    const { model, ids, tokens, surprise } = parts.shown;
    const n = ids.length;
    if (n < 2 || parts.stripShown === parts.shown) return; // one word: nothing is predicted (showStrip hides the strip)
    parts.stripShown = parts.shown;
    parts.figure.update(stripView(scheme, model.vocab.length, surprise, tokens));
    indentStrip(parts, n);
    showStrip(parts, true);
  }

  // Cell j belongs to word j + 1: indented by the map's word gutter and one of its n columns, it
  // sits under that word's column (the gutter's width is styles/lab.css's --axis-side).
  function indentStrip(parts, n) {
    setStyle(parts.figure.tileBox, 'paddingLeft', `calc(var(--axis-side) + (100% - var(--axis-side)) / ${n})`);
  }

  // A lane whose model has not arrived: the strip, not shown, is laid out with zeros for the
  // sentence's words, so it takes the place the real one will (legend, readout and menu included).
  function reserveStrip(scheme, parts, vocabSize, tokens) {
    const n = tokens.length;
    if (!parts.stripShown && n >= 2 && parts.reservedFor !== n) {
      parts.reservedFor = n;
      parts.figure.update(stripView(scheme, vocabSize, new Float32Array(n - 1), tokens));
      indentStrip(parts, n);
    }
    showStrip(parts, false, n >= 2);
  }

  // The core refuses what a model cannot do (a learned table past its rows): a note, not a
  // failure; the lane keeps the identity map compare() paints.
  function refuse(scheme, parts) {
    setText(parts.note, `The trained ${SCHEME_LABELS[scheme]} model cannot read this sentence: ${parts.refused.message}. ` +
      'This lane shows identity heads (W = I).');
    showStrip(parts, false);
    setAttr(parts.box, 'data-state', 'ready');
    setAttr(parts.slot, 'data-trained', 'ready');
  }

  // pending: the lane shows outputs for other words than the sentence's (dimmed by styles/lab.css).
  function markPending(parts) {
    const ready = parts.shown && parts.shown.ids === parts.want.ids;
    setAttr(parts.box, 'data-state', ready ? 'ready' : 'pending');
    setAttr(parts.slot, 'data-trained', parts.shown && parts.shown.ids !== parts.want.ids ? 'pending' : 'ready');
  }

  // What update() was last told: the head to show, and the lanes' figures (createLanes').
  const state = { head: { layer: 1, head: 1 } };
  let figuresOf = () => null;

  return {
    /** Called once the lab has loaded; reads its list of shipped models (the worker loads them). */
    setLab(loaded) {
      entries = loaded.pretrained ?? [];
    },

    /** [[value, label]] for the Heads control: the trained choice when models ship, else none. */
    headOptions() {
      const label = trainedHeadsLabel(entries);
      return label ? [[TRAINED_HEADS, label]] : [];
    },

    /**
     * Whether the lane's attention figure shows a trained map now (the next update keeps one there
     * unless the model refuses the new words): the page then skips that lane's identity map.
     */
    showsTrained(scheme) {
      const parts = boxes.get(scheme);
      return Boolean(parts && parts.shown && parts.slot.isConnected && !parts.box.hidden);
    },

    /** Whether any model ships (a link asking for trained heads falls back to W = I otherwise). */
    get available() {
      return entries.length > 0;
    },

    /** The caption under the lanes while trained heads are on. */
    headsNote() {
      return 'Trained heads: each map is one head of a small language model trained with that lane\'s scheme on public-domain ' +
        'English, GloVe words in; the encoded input and logit decomposition still use W = I.';
    },

    /**
     * view: { active, tokens (the lanes' n tokens), schemes (the lanes'), figures (createLanes'
     * lanes: scheme → { attention, … }), layer, head (1-based, from the state), asked (the link or
     * the Heads control asked for trained heads: with Save-Data, that loads them without the button) }.
     * → the Set of schemes whose attention figure now shows a trained map (createLanes' update
     * leaves those figures alone).
     */
    update({ active, tokens, schemes, figures, layer, head, asked = false }) {
      state.head = { layer, head };
      figuresOf = (scheme) => figures[scheme];
      if (asked) requested = true;
      const trainedMaps = new Set();
      setHidden(picker, entries.length === 0);
      if (toggle.trained.checked !== active) toggle.trained.checked = active;
      if (toggle.identity.checked === active) toggle.identity.checked = !active;
      if (!active) {
        cancelLoads();
        setHidden(headGroup, true);
        setHidden(loadButton, true);
        for (const parts of boxes.values()) setHidden(parts.box, true);
        return trainedMaps;
      }
      let shape = null;
      let waiting = 0; // bytes of the lanes' models not loaded because the reader has not asked yet
      for (const scheme of schemes) {
        const parts = boxFor(scheme);
        if (!parts) continue;
        setHidden(parts.box, false);
        const entry = entryFor(scheme);
        if (!entry) {
          setText(parts.note, `No trained model ships for ${SCHEME_LABELS[scheme]}: this map shows the encoding alone (W = I).`);
          showStrip(parts, false);
          continue;
        }
        shape ??= entry.config;
        if (!models.has(scheme) && !requested) {
          waiting += entry.bytes ?? 0;
          setText(parts.note, `Encoding alone (W = I) until the trained ${SCHEME_LABELS[scheme]} model is loaded: ` +
            'your browser asks to save data, so it loads only when you press the button above the lanes.');
          reserveStrip(scheme, parts, entry.config.vocab, tokens);
          continue;
        }
        if (!models.has(scheme)) startLoad(scheme, entry);
        const record = models.get(scheme);
        if (record.status === 'loading') {
          setText(parts.note, loadingText(scheme, record));
          reserveStrip(scheme, parts, entry.config.vocab, tokens);
        } else if (record.status === 'failed') {
          setText(parts.note, `The trained ${SCHEME_LABELS[scheme]} model could not be loaded (${record.error?.message ?? record.error}); ` +
            'this map shows the encoding alone (W = I).');
          showStrip(parts, false);
        } else if (showTrained(scheme, record, parts, tokens)) {
          trainedMaps.add(scheme);
        }
      }
      setHidden(loadButton, waiting === 0);
      setText(loadButton, `Load the trained models (${(waiting / 1e6).toFixed(1)} MB)`);
      setHidden(headGroup, !shape);
      if (shape) {
        fillSelect(layerSelect, shape.layers, layer);
        fillSelect(headSelect, shape.heads, head);
      }
      return trainedMaps;
    },
  };
}

// The surprise strip's figure options: entry j of `surprise` is −ln p(word j + 1 | words 0 … j)
// under a V-word model, so the first word has none.
function stripView(scheme, V, surprise, tokens) {
  const cells = tokens.length - 1;
  const uniform = Math.log(V);
  return {
    tiles: [{ values: surprise, rows: 1, cols: cells }],
    min: 0,
    max: uniform,
    label: `${SCHEME_LABELS[scheme]} trained model's surprise at each next word, −ln p in nats, words 1 to ${cells} ` +
      `(the first word has no prediction); ln V = ${uniform.toFixed(2)} is a uniform guess over ${V} words`,
    legendTitle: `−ln p (nats; ${uniform.toFixed(1)} = uniform guess)`,
    colWords: tokens.slice(1),
    rowLabel: () => 'surprise',
    colLabel: (j) => `${tokenLabel(tokens, j + 1)} after ${tokenLabel(tokens, j)}`,
  };
}

function sameIds(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
