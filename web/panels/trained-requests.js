// The trained lanes' requests and answers. Per keystroke and trained lane, the tokens are looked
// up in the model's vocabulary here (no wasm call) and become the lane's `want`; one inspect
// request (map and strip from one pass; the model recomputes only the rows from the first changed
// word) goes to the worker unless the lane shows or has asked for those already. Until its answer
// arrives the lane keeps its previous map and strip, dimmed; a newer keystroke's request
// overtakes an older one, whose answer is dropped. A layer or head change with the same words is
// a request that recomputes no row.
import { SCHEME_LABELS } from '../options.mjs';
import { clampHead, idsFor, sameIds, sharedIds } from '../pipeline/model-ids.js';
import { completedRows } from './trained-data.js';
import { markPending, paintMap, paintStrip, refuse, reserveStrip, showShownStrip, writeNote } from './trained-lane.js';

// lane: { models (the model records, trained-models.js), requestUpdate() (when an answer changes
// what the page shows), figureOf(scheme) (the lane's attention figure now), buffers (the page's
// view buffers, web/page/view-buffers.js, or null) }.
function paint(lane, scheme, parts) {
  paintMap(scheme, parts, lane.figureOf(scheme));
  paintStrip(scheme, parts);
}

// The lane's shown outputs become `shown` (or null). The lane holds its shown map (view-buffers.js)
// as its figure does: the lane paints it again after the figure showed another (identity heads
// and back), so its buffer goes back to the worker only once neither reads it.
function setShown(lane, parts, shown) {
  lane.buffers?.hold(shown?.attention);
  lane.buffers?.release(parts.shown?.attention);
  parts.shown = shown;
}

// The lane's one model request: the chosen head's map and the strip of `want`, painted when the
// answer comes. The core refuses what a model cannot do (a learned table past its rows): then
// `refused`, and the lane shows compare()'s identity map after the update that follows.
function requestPass(lane, scheme, parts) {
  const want = parts.want;
  parts.asked = want;
  want.model.inspect(scheme, want.ids, { layer: want.layer, head: want.head }, (reply) => {
    // A keystroke's own pass (showTrained's `pass`) may have brought newer outputs meanwhile.
    if (parts.asked !== want) return;
    parts.asked = null;
    if (reply.error) {
      const record = lane.models.get(scheme);
      if (record?.model === want.model) Object.assign(record, { status: 'failed', error: new Error(reply.error) });
      lane.requestUpdate();
      return;
    }
    if (reply.refused) {
      parts.refused = { ...want, message: reply.refused };
      setShown(lane, parts, null);
      lane.requestUpdate();
      return;
    }
    const first = !parts.shown;
    setShown(lane, parts, { ...want, attention: reply.attention, surprise: reply.surprise });
    parts.refused = null;
    if (!parts.slot.isConnected || parts.box.hidden) return;
    paint(lane, scheme, parts);
    showShownStrip(parts);
    markPending(parts);
    if (first) lane.requestUpdate(); // the note, and the page's covered lanes, follow the first map
  });
}

// The lane's note (trained-lane.js' writeNote): what the map shows, then the words read as unknown.
function noteParts(scheme, parts, model, n, unknown) {
  if (!parts.shown) return { head: `Computing the trained ${SCHEME_LABELS[scheme]} model's attention…`, tail: '' };
  const { layers, heads } = model.config;
  const V = model.vocab.length;
  return {
    head: `Trained model: layer ${parts.shown.layer + 1} of ${layers}, head ${parts.shown.head + 1} of ${heads}`,
    tail: unknown ? `; ${unknown} of ${n} words are outside its ${V}-word vocabulary (read as ${model.vocab[model.unknownId]}).` : '.',
  };
}

// The map a pass of rows fromRow … n − 1 completes: the lane's shown map with those rows, on its
// own buffer where it has room (completedRows), when it is the same model's, layer's and head's on
// ids that share their first fromRow with the pass's (the rows before are then the same: row i
// reads ids 0 … i alone); else null, and the lane asks for the whole map. A pass from row 0 is
// the whole map.
function completedMap(shown, want, pass) {
  if (!pass.fromRow) return pass.attention;
  if (shown?.model !== want.model || shown.layer !== pass.layer || shown.head !== pass.head ||
    sharedIds(shown.ids, pass.ids) < pass.fromRow) return null;
  return completedRows(shown.attention, shown.ids.length, pass.ids.length, pass.fromRow, pass.attention);
}

// The lane's pass that came with the keystroke's view (web/pipeline/model-host.js: passes), taken
// when it is for exactly the outputs the lane wants; a request sent earlier is then overtaken.
function takePass(lane, scheme, record, parts, pass) {
  const want = parts.want;
  // unchanged: the worker skipped the pass, the ids being those the lane showed when it asked.
  if (!pass || pass.unchanged || pass.name !== want.model.name || pass.layer !== want.layer || pass.head !== want.head || !sameIds(pass.ids, want.ids)) return;
  parts.asked = null;
  if (pass.error !== undefined) {
    Object.assign(record, { status: 'failed', error: new Error(pass.error) });
    lane.requestUpdate();
  } else if (pass.refused !== undefined) {
    parts.refused = { ...want, message: pass.refused };
    setShown(lane, parts, null);
  } else {
    const attention = completedMap(parts.shown, want, pass);
    if (!attention) return;
    setShown(lane, parts, { ...want, attention, surprise: pass.surprise });
    parts.refused = null;
  }
}

/**
 * The pass the lab worker is to run with the keystroke's compute for this lane (the client's
 * `trained` entry): its loaded model and chosen head, and the ids the lane shows for them
 * (shownIds), with which the worker skips a pass that would bring the same map (a letter typed
 * into a word the model reads as unknown); null while the model is not ready.
 * chosen: { layer, head }, 1-based; parts: the lane's, or undefined.
 */
export function passRequest(scheme, record, chosen, parts) {
  if (record?.status !== 'ready') return null;
  const request = { lane: scheme, name: record.model.name, ...clampHead(chosen, record.model.config) };
  const shown = parts?.shown;
  if (shown?.model === record.model && shown.layer === request.layer && shown.head === request.head) request.shownIds = shown.ids;
  return request;
}

/**
 * One lane with a loaded model, inside the keystroke. The ids the sentence asks for become the
 * lane's `want`. The keystroke's view usually carries the lane's pass for them (`pass`, see
 * passRequest); otherwise one request to the worker is made (none when the lane shows them already
 * or they are asked for), and meanwhile the map shows what the model last computed, dimmed.
 * lane: as above; record: the scheme's model record (ready); parts: the lane's (trained-lane.js);
 * chosen: { layer, head }, 1-based; pass: the view's pass for this lane, or undefined; typed: typing
 * has not paused since a key (the note's count then waits for the pause, writeNote).
 * → whether the lane's attention figure shows a trained map (else compare()'s identity map stays).
 */
export function showTrained(lane, scheme, record, parts, tokens, chosen, pass, typed = false) {
  const { model, index } = record;
  const { ids, unknown } = idsFor(tokens, index, model.unknownId, parts.scratch);
  if (ids.buffer !== parts.scratch?.buffer) parts.scratch = new Int32Array(ids.buffer);
  const n = ids.length;
  const { layer, head } = clampHead(chosen, model.config);
  const same = (outputs) => outputs?.model === model && outputs.layer === layer && outputs.head === head && sameIds(outputs.ids, ids);
  if (!same(parts.want)) {
    // The complete model taking over from its heads-only one changes no word: the map shown stays
    // current (not dimmed) while the strip is asked for.
    const kept = parts.want && parts.want.layer === layer && parts.want.head === head && sameIds(parts.want.ids, ids);
    parts.want = { model, layer, head, ids: kept ? parts.want.ids : ids.slice(), tokens, unknown };
  }
  parts.want.tokens = tokens; // labels: the same ids may come from differently spelled tokens
  if (!same(parts.shown) && !same(parts.refused)) takePass(lane, scheme, record, parts, pass);
  if (record.status === 'failed') return false;
  if (same(parts.refused)) {
    refuse(scheme, parts);
    return false;
  }
  if (!same(parts.shown) && !same(parts.asked)) requestPass(lane, scheme, parts);
  writeNote(parts, noteParts(scheme, parts, model, n, unknown), typed);
  if (same(parts.shown)) parts.shown.tokens = tokens;
  if (parts.shown) paint(lane, scheme, parts);
  // Until the lane's first answer, the strip keeps its place, as while the model loaded.
  if (parts.shown) showShownStrip(parts);
  else reserveStrip(scheme, parts, model.config.vocab, tokens);
  markPending(parts);
  return parts.shown !== null;
}
