// The shipped word-level models inside the lab worker (web/pipeline/lab-worker.js): fetched,
// checked (sha256) and decoded by lab.loadPretrained, then inspected lane by lane. The page's side
// is web/pipeline/model-client.js; the messages are listed there.
//
// A load's first bytes make a heads-only model (lab.loadPretrained's onHeads: its attention is the
// model's), which answers inspect requests and the keystroke's passes (attention only, no
// surprise) until the complete model is in; each load's rest waits until every load under way has
// its heads, so all lanes' maps come first.
//
// createModelHost(lab, post) → { handle(message) → whether the message was a model message,
//   passes(requests, tokens) → the keystroke's trained passes (below) }.
// lab: a Promise of the worker's lab; post(message, transfer) sends to the page.
import { idsFor, sameIds, vocabularyIndex } from './model-ids.js';

// What a model cannot do (a learned table past its rows) the core refuses with a RangeError: the
// lane says so and shows its identity map. Anything else is an error.
function run(model, ids, layer, head) {
  try {
    return model.inspect(ids, ids.length, { layer, head });
  } catch (error) {
    if (error instanceof RangeError) return { refused: error.message };
    return { error: error?.message ?? String(error) };
  }
}

// How a model file is read (lab.loadPretrained imports it on demand) comes with the worker: asked
// for only when the first model is, it would wait on the link behind GloVe, and every model's
// first Range request behind it.
import '../model-file.mjs';

// The map's value under key, removed from it.
function take(map, key) {
  const value = map.get(key);
  map.delete(key);
  return value;
}

export function createModelHost(lab, post) {
  const models = new Map();      // name → Promise<Model>, the complete model
  const complete = new Map();    // name → the complete Model, once in
  const heads = new Map();       // name → its heads-only Model (lab.loadPretrained's onHeads) until then
  const controllers = new Map(); // name → AbortController of a load under way
  const pending = new Map();     // lane → the newest inspect request not yet run
  const indexes = new Map();     // name → its vocabulary's token → id, once its heads are in
  const headsDue = new Set();    // names of loads under way whose heads have not come
  let headsWaiting = [];         // resolvers of loads waiting for every other load's heads
  let draining = false;

  // Every lane's heads before any output layer: a load that has its heads waits (its rest neither
  // asked for nor decoded) until no other load still waits for its own.
  function headsSettled(name) {
    headsDue.delete(name);
    if (headsDue.size > 0) return;
    headsWaiting.forEach((resolve) => resolve());
    headsWaiting = [];
  }
  const everyHeadsIn = () => (headsDue.size === 0 ? Promise.resolve() : new Promise((resolve) => headsWaiting.push(resolve)));

  function startLoad(name) {
    if (models.has(name)) {
      const early = heads.get(name);
      if (early) postLoaded(name, early, false);
      else models.get(name).then((model) => postLoaded(name, model, true), () => {});
      return;
    }
    const controller = new AbortController();
    controllers.set(name, controller);
    headsDue.add(name);
    const loading = lab.then((loaded) => loaded.loadPretrained(name, {
      signal: controller.signal,
      onProgress: ({ loaded: done, total }) => post({ type: 'progress', name, loaded: done, total }),
      onHeads: (model) => {
        heads.set(name, model);
        indexes.set(name, vocabularyIndex(model.vocab));
        headsSettled(name);
        postLoaded(name, model, false);
        return everyHeadsIn();
      },
    }));
    models.set(name, loading);
    loading.then((model) => {
      controllers.delete(name);
      headsSettled(name);
      complete.set(name, model);
      if (!indexes.has(name)) indexes.set(name, vocabularyIndex(model.vocab));
      const early = take(heads, name);
      early?.dispose();
      if (early) post({ type: 'completed', name });
      else postLoaded(name, model, true);
    }, (error) => {
      controllers.delete(name);
      headsSettled(name);
      take(heads, name)?.dispose();
      models.delete(name); // a later load tries again
      post({ type: 'failed', name, message: error?.message ?? String(error), aborted: error?.name === 'AbortError' });
    });
  }

  // complete: false while the model is heads-only (its inspect answers have no surprise).
  function postLoaded(name, model, whole) {
    post({ type: 'loaded', name, config: model.config, vocab: model.vocab, unknownId: model.unknownId, complete: whole });
  }

  // Requests wait one task, so that a burst of keystrokes queued behind a pass costs one pass per
  // lane, for the newest words, not one per keystroke.
  function queueInspect(message) {
    const older = pending.get(message.lane);
    if (older) post({ type: 'superseded', lane: older.lane, seq: older.seq });
    pending.set(message.lane, message);
    if (!draining) {
      draining = true;
      setTimeout(drain, 0);
    }
  }

  async function drain() {
    while (pending.size > 0) {
      const [lane, request] = pending.entries().next().value;
      pending.delete(lane);
      await inspect(request);
      await new Promise((resolve) => setTimeout(resolve, 0)); // newer messages first
    }
    draining = false;
  }

  async function inspect({ lane, seq, name, ids, layer, head }) {
    let model = complete.get(name) ?? heads.get(name);
    try {
      model ??= await models.get(name);
    } catch (error) {
      post({ type: 'error', lane, seq, message: `the ${name} model is not loaded: ${error?.message ?? error}` });
      return;
    }
    if (!model) {
      post({ type: 'error', lane, seq, message: `the ${name} model was never asked for (send 'load' first)` });
      return;
    }
    const reply = { lane, seq, name, layer, head };
    // A heads-only model's surprise is not the model's (its output layer is zero): none is sent.
    const whole = complete.get(name) === model;
    const { attention, surprise, refused, error } = run(model, ids, layer, head);
    if (refused !== undefined) post({ type: 'refused', ...reply, message: refused });
    else if (error !== undefined) post({ type: 'error', lane, seq, message: error });
    else post({ type: 'inspected', ...reply, attention, surprise: whole ? surprise : null }, whole ? [attention.buffer, surprise.buffer] : [attention.buffer]);
  }

  // The keystroke's trained passes, run right after its compute so that the one answer carries
  // every lane's map and strip (no second trip per lane). requests: [{ lane, name, layer, head }]
  // (0-based) for models the page holds as loaded, each with the ids the lane shows for that
  // model and head (shownIds, optional); tokens: the view's n tokens.
  // → { passes: { lane → { name, layer, head, ids: Int32Array(n), then attention: Float32Array(n·n)
  //   and surprise: Float32Array(n − 1) (null from a heads-only model), or unchanged: true (the ids
  //   are shownIds: no pass run), or refused: message, or error: message } },
  //   transfer: their buffers (fresh arrays, sent, not copied) }.
  function passes(requests, tokens) {
    const out = {};
    const transfer = [];
    for (const { lane, name, layer, head, shownIds } of requests) {
      const model = complete.get(name) ?? heads.get(name);
      if (!model) {
        out[lane] = { name, layer, head, error: `the ${name} model is not loaded here` };
        continue;
      }
      const { ids } = idsFor(tokens, indexes.get(name), model.unknownId);
      if (shownIds && sameIds(ids, shownIds)) {
        out[lane] = { name, layer, head, ids, unchanged: true };
        continue;
      }
      const pass = { name, layer, head, ids, ...run(model, ids, layer, head) };
      if (pass.surprise && complete.get(name) !== model) pass.surprise = null;
      transfer.push(ids.buffer);
      if (pass.attention) transfer.push(pass.attention.buffer);
      if (pass.surprise) transfer.push(pass.surprise.buffer);
      out[lane] = pass;
    }
    return { passes: out, transfer };
  }

  return {
    passes,
    handle(message) {
      if (message.type === 'load') startLoad(message.name);
      else if (message.type === 'cancel') controllers.get(message.name)?.abort();
      else if (message.type === 'inspect') queueInspect(message);
      else return false;
      return true;
    },
  };
}
