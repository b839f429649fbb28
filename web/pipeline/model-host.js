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
//   passes(requests, tokens, buffers) → the keystroke's trained passes (below),
//   scoreAhead(requests, stale) → a Promise, settled once done: after a key that left the words
//   as they were (below) }.
// lab: a Promise of the worker's lab; post(message, transfer) sends to the page.
import { idsFor, sameIds, sharedIds, vocabularyIndex } from './model-ids.js';
import { PASS_ROWS } from './slices.js';
import { MAX_TOKENS } from './state.js';

// The ids each model last ran on: its core keeps their rows, and a pass computes only the rows
// from the first id that differs (model/inspect.hpp).
const lastIds = new WeakMap(); // Model → Int32Array

/** Rows a pass of `model` on `ids` computes: those after the prefix it shares with the last run. */
function newRows(model, ids) {
  const last = lastIds.get(model);
  return ids.length - (last ? sharedIds(ids, last) : 0);
}

// What a model cannot do (a learned table past its rows) the core refuses with a RangeError: the
// lane says so and shows its identity map. Anything else is an error.
// into, fromRow: inspect's (a Float32Array the map's rows are written into, and the first of
// them), or undefined.
function run(model, ids, layer, head, into, fromRow) {
  lastIds.delete(model); // until this run has succeeded
  try {
    const outputs = model.inspect(ids, ids.length, { layer, head, into, fromRow });
    lastIds.set(model, ids.slice());
    return outputs;
  } catch (error) {
    if (error instanceof RangeError) return { refused: error.message };
    return { error: error?.message ?? String(error) };
  }
}

// Resolves in a later task, behind the messages already queued (a key's compute among them). A
// message, not a zero-delay timer: timers nested five deep wait 4 ms each, and a paste's rows take
// dozens of tasks; nor tasks.js's nextTask, whose scheduler.yield() keeps the work ahead of them.
const yielded = () => new Promise((resolve) => {
  const { port1, port2 } = new MessageChannel();
  port1.onmessage = () => { port1.close(); resolve(); };
  port2.postMessage(null);
});

// The rows of `ids` but the last PASS_ROWS (or fewer), PASS_ROWS rows a task, scored without a
// map, so that the pass after them is one task's work. → false when stale() says a newer request
// for the lane came meanwhile (the rows done stay with the model for it).
async function leadingRows(model, ids, stale) {
  for (let end = ids.length - newRows(model, ids) + PASS_ROWS; end < ids.length; end += PASS_ROWS) {
    const lead = ids.subarray(0, end);
    lastIds.delete(model);
    try {
      model.tokenLosses(lead, end);
    } catch {
      return true; // the whole pass meets it again and says what went wrong
    }
    lastIds.set(model, lead.slice());
    await yielded();
    if (stale()) return false;
  }
  return true;
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

// Every lane's heads before any output layer: a load that has its heads waits (its rest neither
// asked for nor decoded) until no load under way still waits for its own.
class HeadsGate {
  #due = new Set();   // names of loads under way whose heads have not come
  #waiting = [];      // resolvers of loads waiting for every other load's heads

  expect(name) { this.#due.add(name); }

  settled(name) {
    this.#due.delete(name);
    if (this.#due.size > 0) return;
    this.#waiting.forEach((resolve) => resolve());
    this.#waiting = [];
  }

  allIn() {
    return this.#due.size === 0 ? Promise.resolve() : new Promise((resolve) => this.#waiting.push(resolve));
  }
}

// The models by name: each load's heads-only model until its complete one is in.
class ModelLoads {
  #lab;
  #post;
  #gate = new HeadsGate();
  #loading = new Map();     // name → Promise<Model>, the complete model
  #complete = new Map();    // name → the complete Model, once in
  #heads = new Map();       // name → its heads-only Model (lab.loadPretrained's onHeads) until then
  #indexes = new Map();     // name → its vocabulary's token → id, once its heads are in
  #controllers = new Map(); // name → AbortController of a load under way

  constructor(lab, post) {
    this.#lab = lab;
    this.#post = post;
  }

  /** The model to inspect now (complete, else heads-only), or undefined. */
  usable(name) { return this.#complete.get(name) ?? this.#heads.get(name); }
  isComplete(name, model) { return this.#complete.get(name) === model; }
  indexOf(name) { return this.#indexes.get(name); }
  /** A Promise of the complete model, or undefined when it was never asked for. */
  whenLoaded(name) { return this.#loading.get(name); }
  cancel(name) { this.#controllers.get(name)?.abort(); }

  start(name) {
    if (this.#loading.has(name)) {
      const early = this.#heads.get(name);
      if (early) this.#posted(name, early, false);
      else this.#loading.get(name).then((model) => this.#posted(name, model, true), () => {});
      return;
    }
    const controller = new AbortController();
    this.#controllers.set(name, controller);
    this.#gate.expect(name);
    const loading = this.#lab.then((loaded) => loaded.loadPretrained(name, {
      signal: controller.signal,
      onProgress: ({ loaded: done, total }) => this.#post({ type: 'progress', name, loaded: done, total }),
      onHeads: (model) => this.#headsIn(name, model),
    }));
    this.#loading.set(name, loading);
    loading.then((model) => this.#completeIn(name, model), (error) => this.#failed(name, error));
  }

  #headsIn(name, model) {
    this.#heads.set(name, model);
    this.#indexes.set(name, vocabularyIndex(model.vocab));
    this.#gate.settled(name);
    this.#posted(name, model, false);
    return this.#gate.allIn();
  }

  #completeIn(name, model) {
    this.#controllers.delete(name);
    this.#gate.settled(name);
    this.#complete.set(name, model);
    if (!this.#indexes.has(name)) this.#indexes.set(name, vocabularyIndex(model.vocab));
    const early = take(this.#heads, name);
    early?.dispose();
    if (early) this.#post({ type: 'completed', name });
    else this.#posted(name, model, true);
  }

  #failed(name, error) {
    this.#controllers.delete(name);
    this.#gate.settled(name);
    take(this.#heads, name)?.dispose();
    this.#loading.delete(name); // a later load tries again
    this.#post({ type: 'failed', name, message: error?.message ?? String(error), aborted: error?.name === 'AbortError' });
  }

  // complete: false while the model is heads-only (its inspect answers have no surprise).
  #posted(name, model, whole) {
    this.#post({ type: 'loaded', name, config: model.config, vocab: model.vocab, unknownId: model.unknownId, complete: whole });
  }
}

// Inspect requests wait one task, so that a burst of keystrokes queued behind a pass costs one
// pass per lane, for the newest words, not one per keystroke.
class InspectQueue {
  #pending = new Map(); // lane → the newest inspect request not yet run
  #draining = false;
  #run;
  #post;

  constructor(run, post) {
    this.#run = run;
    this.#post = post;
  }

  /** Whether a request for `lane` waits to run. */
  has(lane) { return this.#pending.has(lane); }

  add(message) {
    const older = this.#pending.get(message.lane);
    if (older) this.#post({ type: 'superseded', lane: older.lane, seq: older.seq });
    this.#pending.set(message.lane, message);
    if (!this.#draining) {
      this.#draining = true;
      setTimeout(() => this.#drain(), 0);
    }
  }

  async #drain() {
    while (this.#pending.size > 0) {
      const [lane, request] = this.#pending.entries().next().value;
      this.#pending.delete(lane);
      await this.#run(request);
      await new Promise((resolve) => setTimeout(resolve, 0)); // newer messages first
    }
    this.#draining = false;
  }
}

// One lane's inspect request, answered with its map and strip ('inspected'), 'refused' or 'error',
// or 'superseded' when a newer one for the lane came while its leading rows were computed
// (stale() says whether one has).
async function inspect(loads, post, { lane, seq, name, ids, layer, head }, stale) {
  let model = loads.usable(name);
  try {
    model ??= await loads.whenLoaded(name);
  } catch (error) {
    post({ type: 'error', lane, seq, message: `the ${name} model is not loaded: ${error?.message ?? error}` });
    return;
  }
  if (!model) {
    post({ type: 'error', lane, seq, message: `the ${name} model was never asked for (send 'load' first)` });
    return;
  }
  if (!(await leadingRows(model, ids, stale))) {
    post({ type: 'superseded', lane, seq });
    return;
  }
  const reply = { lane, seq, name, layer, head };
  // A heads-only model's surprise is not the model's (its output layer is zero): none is sent.
  const whole = loads.isComplete(name, model);
  const { attention, surprise, refused, error } = run(model, ids, layer, head);
  if (refused !== undefined) post({ type: 'refused', ...reply, message: refused });
  else if (error !== undefined) post({ type: 'error', lane, seq, message: error });
  else post({ type: 'inspected', ...reply, attention, surprise: whole ? surprise : null }, whole ? [attention.buffer, surprise.buffer] : [attention.buffer]);
}

// The keystroke's trained passes, run right after its compute so that the one answer carries every
// lane's map and strip (no second trip per lane); a lane whose pass would add more than PASS_ROWS
// rows (a paste) is left out, and the page asks for it on its own (inspect, above).
// requests: [{ lane, name, layer, head }] (0-based) for models the page holds as loaded, each with
// the ids the lane shows for that model and head (shownIds, optional); tokens: the view's n
// tokens; buffers: the worker's pool (buffer-pool.js), whose buffers the page gives back once no
// lane shows their map.
// → { passes: { lane → { name, layer, head, ids: Int32Array(n), then fromRow, attention:
//   Float32Array((n − fromRow)·n), the map's rows fromRow … n − 1, and surprise: Float32Array(n − 1)
//   (null from a heads-only model), or unchanged: true (the ids are shownIds: no pass run), or
//   refused: message, or error: message } }, transfer: their buffers (sent, not copied) }.
//   fromRow is where the ids first differ from shownIds (at most n − 1), else 0: the causal map's
//   rows before it are those the lane shows, at the new row length, so a letter typed into the last
//   word, a word added or one deleted sends one row, not n² floats copied twice (out of the model's
//   cache and out of the wasm heap) on a cold cache after the pause's analyses. Each map is written
//   onto a buffer from the pool: a fresh 1 MB one (n = 512) costs milliseconds of page faults
//   (web/buffer-room.mjs).
function passes(loads, requests, tokens, buffers) {
  const out = {};
  const transfer = [];
  for (const { lane, name, layer, head, shownIds } of requests) {
    const model = loads.usable(name);
    if (!model) {
      out[lane] = { name, layer, head, error: `the ${name} model is not loaded here` };
      continue;
    }
    const { ids } = idsFor(tokens, loads.indexOf(name), model.unknownId);
    if (shownIds && sameIds(ids, shownIds)) {
      out[lane] = { name, layer, head, ids, unchanged: true };
      continue;
    }
    if (newRows(model, ids) > PASS_ROWS) continue;
    const n = ids.length;
    const fromRow = shownIds ? Math.min(sharedIds(ids, shownIds), n - 1) : 0;
    // The map's buffer is sent below with the map; a pass without one (refused, failed) puts it back.
    const into = buffers.array(Float32Array, (n - fromRow) * n, []);
    const pass = { name, layer, head, ids, fromRow, ...run(model, ids, layer, head, into, fromRow) };
    if (pass.surprise && !loads.isComplete(name, model)) pass.surprise = null;
    transfer.push(ids.buffer);
    if (pass.attention) transfer.push(pass.attention.buffer);
    else buffers.putBack([into.buffer]);
    if (pass.surprise) transfer.push(pass.surprise.buffer);
    out[lane] = pass;
  }
  return { passes: out, transfer };
}

// After a key that left the words as they were (a space that ends a word), the next key most
// likely adds a word, and that word's surprise reads the output layer's scores on the row of the
// word just ended: a d·V product per model (V = 4,096: 1.6 MB of weights, cold after a pause) and
// that row in the layers above the map's, which a typed letter leaves out (model/inspect.hpp).
// Scored now, with any id after it (the unknown word's), the model's cache holds that row scored,
// and the pass of a key that adds a word computes its own row and one dot product; its outputs
// are those of a fresh pass, bit for bit (inspect.hpp). Only where the model's cache holds the
// ids the lane shows, for a complete model (a heads-only one has no output layer), and below the
// page's cut at MAX_TOKENS tokens (a word past it is not read). One lane a task, behind the
// messages queued meanwhile; stale() (a newer compute came) stops it.
// requests: passes' requests (shownIds: the ids the lane shows).
async function scoreAhead(loads, requests, stale) {
  for (const { name, shownIds } of requests) {
    await yielded();
    if (stale()) return;
    const model = loads.usable(name);
    const last = model ? lastIds.get(model) : undefined;
    if (!shownIds || shownIds.length >= MAX_TOKENS || !last || !sameIds(last, shownIds) || !loads.isComplete(name, model)) continue;
    const next = new Int32Array(shownIds.length + 1);
    next.set(shownIds);
    next[shownIds.length] = model.unknownId;
    try {
      model.tokenLosses(next, next.length);
      lastIds.set(model, next);
    } catch (error) {
      // A refusal (a learned table past its rows) leaves the cache as it was; anything else may not.
      if (!(error instanceof RangeError)) lastIds.delete(model);
    }
  }
}

export function createModelHost(lab, post) {
  const loads = new ModelLoads(lab, post);
  const queue = new InspectQueue((request) => inspect(loads, post, request, () => queue.has(request.lane)), post);
  return {
    passes: (requests, tokens, buffers) => passes(loads, requests, tokens, buffers),
    scoreAhead: (requests, stale) => scoreAhead(loads, requests, stale),
    handle(message) {
      if (message.type === 'load') loads.start(message.name);
      else if (message.type === 'cancel') loads.cancel(message.name);
      else if (message.type === 'inspect') queue.add(message);
      else return false;
      return true;
    },
  };
}
