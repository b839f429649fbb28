// Module worker: the shipped word-level models (lab.loadPretrained) and their passes, off the
// page's main thread. It holds one lab and its model core; fetching, checking and decoding a model
// and every m.inspect run here, so the page's thread only paints what comes back.
//
// In:  { type: 'load', name }                  fetch, check (sha256) and decode one shipped model
//      { type: 'cancel', name }                abandons that model's load
//      { type: 'inspect', lane, seq, name, ids: Int32Array (transferred), layer, head }
//                                              one lane's map and strip; a newer request for the
//                                              same lane that arrives before this one has run
//                                              replaces it (the older one is answered 'superseded')
// Out: { type: 'progress', name, loaded, total }
//      { type: 'loaded', name, config, vocab, unknownId } | { type: 'failed', name, message, aborted }
//      { type: 'inspected', lane, seq, name, ids, layer, head, attention: Float32Array(n·n),
//        surprise: Float32Array(n − 1) } (buffers transferred)
//      { type: 'refused', lane, seq, name, ids, layer, head, message }   the model cannot read these ids
//      { type: 'superseded', lane } | { type: 'error', lane, message }
import { load } from '../posenc.mjs';

let labPromise = null;
const models = new Map();      // name → Promise<Model>
const controllers = new Map(); // name → AbortController of a load under way
const pending = new Map();     // lane → the newest inspect request not yet run
let draining = false;

const lab = () => (labPromise ??= load());

self.addEventListener('message', (event) => {
  const message = event.data ?? {};
  if (message.type === 'load') startLoad(message.name);
  else if (message.type === 'cancel') controllers.get(message.name)?.abort();
  else if (message.type === 'inspect') queueInspect(message);
});

function startLoad(name) {
  if (models.has(name)) { models.get(name).then((model) => postLoaded(name, model), () => {}); return; }
  const controller = new AbortController();
  controllers.set(name, controller);
  const loading = lab().then((loaded) => loaded.loadPretrained(name, {
    signal: controller.signal,
    onProgress: ({ loaded: done, total }) => self.postMessage({ type: 'progress', name, loaded: done, total }),
  }));
  models.set(name, loading);
  loading.then((model) => {
    controllers.delete(name);
    postLoaded(name, model);
  }, (error) => {
    controllers.delete(name);
    models.delete(name); // a later load tries again
    self.postMessage({ type: 'failed', name, message: error?.message ?? String(error), aborted: error?.name === 'AbortError' });
  });
}

function postLoaded(name, model) {
  self.postMessage({ type: 'loaded', name, config: model.config, vocab: model.vocab, unknownId: model.unknownId });
}

// Requests wait one task, so that a burst of keystrokes queued behind a pass costs one pass per
// lane, for the newest words, not one per keystroke.
function queueInspect(message) {
  const older = pending.get(message.lane);
  if (older) self.postMessage({ type: 'superseded', lane: older.lane });
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
    // Let newer messages in between two lanes' passes.
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  draining = false;
}

async function inspect({ lane, seq, name, ids, layer, head }) {
  const reply = { lane, seq, name, ids, layer, head };
  let model;
  try {
    model = await models.get(name);
  } catch (error) {
    self.postMessage({ type: 'error', lane, message: `the ${name} model is not loaded: ${error?.message ?? error}` });
    return;
  }
  if (!model) {
    self.postMessage({ type: 'error', lane, message: `the ${name} model was never asked for (send 'load' first)` });
    return;
  }
  try {
    const { attention, surprise } = model.inspect(ids, ids.length, { layer, head });
    self.postMessage({ type: 'inspected', ...reply, attention, surprise }, [attention.buffer, surprise.buffer]);
  } catch (error) {
    // The core refuses what a model cannot do (a learned table past its rows): a RangeError.
    if (error instanceof RangeError) self.postMessage({ type: 'refused', ...reply, message: error.message });
    else self.postMessage({ type: 'error', lane, message: error?.message ?? String(error) });
  }
}
