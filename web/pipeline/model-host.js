// The shipped word-level models inside the lab worker (web/pipeline/lab-worker.js): fetched,
// checked (sha256) and decoded by lab.loadPretrained, then inspected lane by lane. The page's side
// is web/pipeline/model-client.js; the messages are listed there.
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

export function createModelHost(lab, post) {
  const models = new Map();      // name → Promise<Model>
  const controllers = new Map(); // name → AbortController of a load under way
  const pending = new Map();     // lane → the newest inspect request not yet run
  const ready = new Map();       // name → { model, index (token → id) } once loaded
  let draining = false;

  function startLoad(name) {
    if (models.has(name)) {
      models.get(name).then((model) => postLoaded(name, model), () => {});
      return;
    }
    const controller = new AbortController();
    controllers.set(name, controller);
    const loading = lab.then((loaded) => loaded.loadPretrained(name, {
      signal: controller.signal,
      onProgress: ({ loaded: done, total }) => post({ type: 'progress', name, loaded: done, total }),
    }));
    models.set(name, loading);
    loading.then((model) => {
      controllers.delete(name);
      ready.set(name, { model, index: vocabularyIndex(model.vocab) });
      postLoaded(name, model);
    }, (error) => {
      controllers.delete(name);
      models.delete(name); // a later load tries again
      post({ type: 'failed', name, message: error?.message ?? String(error), aborted: error?.name === 'AbortError' });
    });
  }

  function postLoaded(name, model) {
    post({ type: 'loaded', name, config: model.config, vocab: model.vocab, unknownId: model.unknownId });
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
    let model;
    try {
      model = await models.get(name);
    } catch (error) {
      post({ type: 'error', lane, seq, message: `the ${name} model is not loaded: ${error?.message ?? error}` });
      return;
    }
    if (!model) {
      post({ type: 'error', lane, seq, message: `the ${name} model was never asked for (send 'load' first)` });
      return;
    }
    const reply = { lane, seq, name, layer, head };
    const { attention, surprise, refused, error } = run(model, ids, layer, head);
    if (refused !== undefined) post({ type: 'refused', ...reply, message: refused });
    else if (error !== undefined) post({ type: 'error', lane, seq, message: error });
    else post({ type: 'inspected', ...reply, attention, surprise }, [attention.buffer, surprise.buffer]);
  }

  // The keystroke's trained passes, run right after its compute so that the one answer carries
  // every lane's map and strip (no second trip per lane). requests: [{ lane, name, layer, head }]
  // (0-based) for models the page holds as loaded, each with the ids the lane shows for that
  // model and head (shownIds, optional); tokens: the view's n tokens.
  // → { passes: { lane → { name, layer, head, ids: Int32Array(n), then attention: Float32Array(n·n)
  //   and surprise: Float32Array(n − 1), or unchanged: true (the ids are shownIds: no pass run),
  //   or refused: message, or error: message } },
  //   transfer: their buffers (fresh arrays, sent, not copied) }.
  function passes(requests, tokens) {
    const out = {};
    const transfer = [];
    for (const { lane, name, layer, head, shownIds } of requests) {
      const loaded = ready.get(name);
      if (!loaded) {
        out[lane] = { name, layer, head, error: `the ${name} model is not loaded here` };
        continue;
      }
      const { ids } = idsFor(tokens, loaded.index, loaded.model.unknownId);
      if (shownIds && sameIds(ids, shownIds)) {
        out[lane] = { name, layer, head, ids, unchanged: true };
        continue;
      }
      const pass = { name, layer, head, ids, ...run(loaded.model, ids, layer, head) };
      transfer.push(ids.buffer);
      if (pass.attention) transfer.push(pass.attention.buffer, pass.surprise.buffer);
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
