// The page's controls and captions that follow the word vectors and the settings (the values the
// pipeline settled on, its notes, the [data-field] texts in the lanes) and the lanes' numbers in
// words (web/pipeline/prose.js). Each writes only what changed (web/figures/dom.js).
import { CONCAT_MODE, LAYOUT } from '../scheme-table.mjs';
import { TRAINED_HEADS } from '../pipeline/state.js';
import { W_IS_I, laneNotes, nopeText } from '../pipeline/prose.js';
import { setText, setValue } from '../figures/dom.js';

/**
 * ui: the page's controls (web/page/app.js); trainedHeads: web/panels/trained-heads.js;
 * showControlError(message) writes the shared error line. Returns { reflectSettings(source,
 * settings, state), describeLanes(view, state, lab), setField(name, text), forget() }; forget()
 * after the lanes in the document change, so their fields are looked up and written again.
 * source: the word vectors as the lab worker describes them (web/pipeline/lab-session.js's info);
 * lab: what the worker's lab says of itself ({ schemeTable, … }).
 */
export function createCaptions({ ui, trainedHeads, showControlError }) {
  // Controls and captions that follow the source and the settings. The control values and the
  // settings' notes are checked on every call (the control being typed in is skipped, and other
  // messages share the error line); the captions and the heads list only when what they read
  // (reflectedKey's values) changed.
  let lastSettingsNote = '';
  let reflectedKey = '';
  function reflectSettings(source, settings, state) {
    reflectControls(ui, source, settings, state);
    const notes = settings.notes.join(' ');
    if (notes) showControlError(notes);
    else if (ui.controlError.textContent === lastSettingsNote) showControlError('');
    lastSettingsNote = notes;
    // Each view brings its own copy of the source's description: compared by value.
    const key = JSON.stringify([source, settings, state.alpha, state.layout, state.pairing, state.concat, trainedHeads.headOptions()]);
    if (key !== reflectedKey) {
      reflectedKey = key;
      reflectCaptions({ ui, trainedHeads, setField }, source, settings, state);
    }
    setValue(ui.heads, settings.trained ? TRAINED_HEADS : String(settings.heads));
  }

  // The lanes' numbers in words (web/pipeline/prose.js). NoPE's sentence reads the words and their
  // attention, so it is rewritten on every call; the others read only n, the settings and the state
  // besides the sentence (describedKey).
  let describedKey = '';
  function describeLanes({ result, tokens, n, settings }, state, lab) {
    if (result.nope?.masked && !result.nope.inputOnly) setField('nopeNote', nopeText(result.nope, tokens, n));
    const key = JSON.stringify([n, settings, { ...state, sentence: null }]);
    if (key === describedKey) return;
    describedKey = key;
    const rope = lab.schemeTable.params.find((p) => p.name === 'evalLength').schemes;
    for (const [name, text] of Object.entries(laneNotes({ result, n, settings, state, rope }))) setField(name, text);
  }

  // name → the [data-field] elements in the document; forgotten when the page changes the lanes.
  const fields = new Map();
  function setField(name, text) {
    let elements = fields.get(name);
    if (!elements) fields.set(name, elements = [...document.querySelectorAll(`[data-field="${name}"]`)]);
    for (const element of elements) setText(element, text);
  }

  return {
    reflectSettings,
    describeLanes,
    setField,
    forget() {
      fields.clear();
      reflectedKey = '';
      describedKey = '';
    },
  };
}

/** The captions, the hints and the heads menu that follow the source and the settings. */
function reflectCaptions({ ui, trainedHeads, setField }, source, settings, state) {
  ui.dim.disabled = source.fixedDim;
  setText(ui.dimHint, source.fixedDim ? `fixed at ${source.dim} by these word vectors` : 'synthetic only, even');
  ui.alphaAuto.disabled = state.alpha === 'auto';
  ui.alphaAuto.title = alphaTitle(source);
  const headLabels = headOptions(settings).concat(trainedHeads.headOptions()); // trained
  if (ui.heads.options.length !== headLabels.length || [...ui.heads.options].some((o, i) => o.value !== String(headLabels[i][0]))) {
    ui.heads.replaceChildren(...headLabels.map(([h, label]) => new Option(label, String(h))));
  }
  for (const [name, text] of Object.entries(fieldTexts(source, settings, state))) setField(name, text);
  setText(ui.headsNote, settings.trained ? trainedHeads.headsNote() : headsNote(settings));
}

/** The controls' values as the pipeline settled them; the control being typed in is left alone. */
function reflectControls(ui, source, settings, state) {
  setValue(ui.vectors, state.vectors);
  if (source.fixedDim || document.activeElement !== ui.dim) setValue(ui.dim, String(settings.d));
  if (document.activeElement !== ui.dpos) setValue(ui.dpos, String(settings.dPos));
  if (document.activeElement !== ui.alpha) setValue(ui.alpha, String(Number(settings.alpha.toPrecision(4))));
}

/** The α button's tooltip: what "auto" sets α to for these word vectors. */
function alphaTitle(source) {
  return source.kind === 'synthetic'
    ? 'α = 1: synthetic components already have RMS 1'
    : `α = 1/RMS of a component (${(1 / source.defaultAlpha).toPrecision(4)}), so αE's components have RMS 1 — the role of ×√d_model`;
}

/** The heads menu's untrained choices: [[value, label]]. */
function headOptions(settings) {
  return settings.headChoices.map((h) => [h, h === 0 ? `identity (${W_IS_I})` : `${h} random head${h === 1 ? '' : 's'}`]);
}

/** What the untrained heads are, under the heads menu. */
function headsNote(settings) {
  return settings.heads === 0
    ? `Encoding alone (${W_IS_I}): queries, keys and values are the encoded vectors themselves, so each map shows what the position scheme alone does.`
    : `${settings.heads} random heads: fixed seeded random projections W_q, W_k, W_v (d_head = ${settings.d / settings.heads}); the maps show head 1.`;
}

/** The [data-field] texts that follow the source and the settings: field name → text. */
function fieldTexts(source, settings, state) {
  const sameWidth = state.concat === CONCAT_MODE.sameWidth;
  return {
    d: String(settings.d),
    dWord: String(settings.dWord),
    dPos: String(settings.dPos),
    layout: state.layout,
    layoutNote: state.layout === LAYOUT.half ? ', as in tensor2tensor: sines in the first half, cosines in the second' : ', as in Vaswani et al.',
    pairing: state.pairing === LAYOUT.half ? 'half (i, i + d/2), as in GPT-NeoX and LLaMA code' : 'interleaved (2i, 2i+1), as in RoFormer',
    concatMode: sameWidth ? `same total width ${settings.d}` : `widened to ${settings.d + settings.dPos}`,
    reduction: sameWidth ? `Word part: ${source.reduction}.` : 'The whole word vector is kept.',
    concatCross: settings.heads === 0
      ? `With ${W_IS_I} the word and position parts live in separate coordinates, so both cross terms are exactly 0.`
      : `With ${settings.heads} random heads the projections mix word and position coordinates, so the cross terms are no longer zero.`,
    spreadVocab: source.kind === 'synthetic' ? '2,000 hashed filler words' : 'the whole vocabulary',
  };
}
