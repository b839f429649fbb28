// The trained lanes' requests and answers. Per keystroke and trained lane, the tokens are looked
// up in the model's vocabulary here (no wasm call) and become the lane's `want`; one inspect
// request (map and strip from one pass; the model recomputes only the rows from the first changed
// word) goes to the worker unless the lane shows or has asked for those already. Until its answer
// arrives the lane keeps its previous map and strip, dimmed; a newer keystroke's request
// overtakes an older one, whose answer is dropped. A layer or head change with the same words is
// a request that recomputes no row.
import { SCHEME_LABELS } from '../options.mjs';
import { setText } from '../figures/dom.js';
import { clampHead, idsFor } from './trained-data.js';
import { markPending, paintMap, paintStrip, refuse, reserveStrip, showStrip } from './trained-lane.js';

function sameIds(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

// lane: { models (the model records, trained-models.js), requestUpdate() (when an answer changes
// what the page shows), figureOf(scheme) (the lane's attention figure now) }.
function paint(lane, scheme, parts) {
  paintMap(scheme, parts, lane.figureOf(scheme));
  paintStrip(scheme, parts);
}

// The lane's one model request: the chosen head's map and the strip of `want`, painted when the
// answer comes. The core refuses what a model cannot do (a learned table past its rows): then
// `refused`, and the lane shows compare()'s identity map after the update that follows.
function requestPass(lane, scheme, parts) {
  const want = parts.want;
  parts.asked = want;
  want.model.inspect(scheme, want.ids, { layer: want.layer, head: want.head }, (reply) => {
    if (parts.asked === want) parts.asked = null;
    if (reply.error) {
      const record = lane.models.get(scheme);
      if (record?.model === want.model) Object.assign(record, { status: 'failed', error: new Error(reply.error) });
      lane.requestUpdate();
      return;
    }
    if (reply.refused) {
      parts.refused = { ...want, message: reply.refused };
      parts.shown = null;
      lane.requestUpdate();
      return;
    }
    const first = !parts.shown;
    parts.shown = { ...want, attention: reply.attention, surprise: reply.surprise };
    parts.refused = null;
    if (!parts.slot.isConnected || parts.box.hidden) return;
    paint(lane, scheme, parts);
    showStrip(parts, parts.shown.ids.length > 1);
    markPending(parts);
    if (first) lane.requestUpdate(); // the note, and the page's covered lanes, follow the first map
  });
}

function noteText(scheme, parts, model, n, unknown) {
  if (!parts.shown) return `Computing the trained ${SCHEME_LABELS[scheme]} model's attention…`;
  const { layers, heads } = model.config;
  const V = model.vocab.length;
  return `Trained model: layer ${parts.shown.layer + 1} of ${layers}, head ${parts.shown.head + 1} of ${heads}` +
    (unknown ? `; ${unknown} of ${n} words are outside its ${V}-word vocabulary (read as ${model.vocab[model.unknownId]}).` : '.');
}

/**
 * One lane with a loaded model, inside the keystroke. The ids the sentence asks for become the
 * lane's `want`, and one request to the worker is made for them (none when the lane shows them
 * already or they are asked for); meanwhile the map shows what the model last computed, dimmed.
 * lane: as above; record: the scheme's model record (ready); parts: the lane's (trained-lane.js);
 * chosen: { layer, head }, 1-based. → whether the lane's attention figure shows a trained map
 * (else compare()'s identity map stays).
 */
export function showTrained(lane, scheme, record, parts, tokens, chosen) {
  const { model, index } = record;
  const { ids, unknown } = idsFor(tokens, index, model.unknownId, parts.scratch);
  if (ids.buffer !== parts.scratch?.buffer) parts.scratch = new Int32Array(ids.buffer);
  const n = ids.length;
  const { layer, head } = clampHead(chosen, model.config);
  const same = (outputs) => outputs?.model === model && outputs.layer === layer && outputs.head === head && sameIds(outputs.ids, ids);
  if (!same(parts.want)) parts.want = { model, layer, head, ids: ids.slice(), tokens, unknown };
  parts.want.tokens = tokens; // labels: the same ids may come from differently spelled tokens
  if (same(parts.refused)) {
    refuse(scheme, parts);
    return false;
  }
  if (!same(parts.shown) && !same(parts.asked)) requestPass(lane, scheme, parts);
  setText(parts.note, noteText(scheme, parts, model, n, unknown));
  if (same(parts.shown)) parts.shown.tokens = tokens;
  if (parts.shown) paint(lane, scheme, parts);
  // Until the lane's first answer, the strip keeps its place, as while the model loaded.
  if (parts.shown) showStrip(parts, n > 1);
  else reserveStrip(scheme, parts, model.config.vocab, tokens);
  markPending(parts);
  return parts.shown !== null;
}
