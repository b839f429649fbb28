// The page's side of the lab worker (web/pipeline/lab-worker.js): one module worker holds the wasm
// cores, the word vectors and the shipped models, and this client sends it one message per user
// action and hands back plain data to paint. Answers to superseded work never reach the caller.
//
// Messages, page → worker (each may name a channel; 0 when it does not):
//   { type: 'start' }                            → { type: 'started', simd, pretrained, schemeTable } | { type: 'start-failed', message }
//   { type: 'compute', channel, gen, repeatOf, state, trainedAvailable, trainedAsked, inputOnly, figures, trained, shown, summaries, recycle }
//                                                → { type: 'view', channel, gen, view } | { …, error }   (lab-session.js: view,
//                                                  plus view.trained: the passes of model-host.js; or a repeat's { repeated: true })
//   { type: 'analyse', channel, gen, options }   → { type: 'analysis', channel, gen, name, data }… then { type: 'analysed', channel, gen, ms }
//   { type: 'glove' (url, warm) | 'custom' | 'neighbors', id, channel, … }   → { type: 'reply', id, value } | { …, error }
//   { type: 'close', channel }                   (no answer: the channel's session is dropped)
//   and the models' messages (web/pipeline/model-client.js).
//
// createLabClient({ workerUrl, worker }) → { start(), glove(url), custom(bytes, name),
//   compute(request), analyse(gen, onAnalysis, options), neighbors(selected), channel(), models,
//   terminate() }:
// compute resolves with the view, or null when a newer compute was sent meanwhile; its `trained`
// ([{ lane, name, layer, head, shownIds? }], loaded models only) asks for those lanes' passes on the view's
// tokens, which come back in view.trained (model-host.js: passes); its `shown` is the shownKeys of
// the last view the caller painted (lab-session.js), and its `repeatOf` that view's gen, for a
// caller that takes { repeated: true } for "the view you show stands" (lab-session.js); its `recycle` (ArrayBuffers) gives back the
// buffers of earlier views' arrays that nothing reads any more, for the worker to send the next views
// on (buffer-pool.js; they are detached here; those under its MIN_RECYCLED_BYTES stay) — with them
// go those of the views this client dropped as overtaken, which nobody saw; analyse calls
// onAnalysis(name, data) as each analysis ends and resolves with { ms } (the worker's busy time),
// or null when a compute overtook it. channel() → { glove, compute, analyse, neighbors, close() }:
// the same calls on a session of their own in the same worker, for another figure of the page
// (each <posenc-lab>), whose computes and analyses neither overtake nor are overtaken by others'.
// worker: a Worker already made (else a module worker from workerUrl, default lab-worker.js beside this file).
import { createModelClient } from './model-client.js';
import { defaultWorkerUrl } from './lab-worker-url.js';
import { MIN_RECYCLED_BYTES } from './buffer-pool.js';

// The newest call of a kind wins: the one it overtakes resolves with null.
function newest(previous, gen) {
  previous?.resolve(null);
  let settle;
  const promise = new Promise((resolve, reject) => { settle = { resolve, reject }; });
  return [{ gen, ...settle }, promise];
}

// Every ArrayBuffer under value (a view: plain objects, arrays and typed arrays), into `into`.
function buffersOf(value, into) {
  if (ArrayBuffer.isView(value)) into.push(value.buffer);
  else if (value && typeof value === 'object') for (const part of Object.values(value)) buffersOf(part, into);
  return into;
}

// A channel's answer ('view', 'analysis', 'analysed') to its newest call; open: the channel's
// { compute, analysis, spare }. An answer to an overtaken call is dropped (a view's buffers go to
// spare, given back with the next compute).
function channelAnswer(open, message) {
  const error = message.error !== undefined ? new Error(message.error) : null;
  if (message.type === 'view') {
    if (open.compute?.gen !== message.gen) { // overtaken: nobody saw its arrays
      if (message.view) buffersOf(message.view, open.spare);
      return;
    }
    if (error) open.compute.reject(error);
    else open.compute.resolve(message.view);
    open.compute = null;
  } else if (message.type === 'analysis' || message.type === 'analysed') {
    if (open.analysis?.gen !== message.gen) return;
    if (message.type === 'analysis' && !error) { open.analysis.onAnalysis(message.name, message.data); return; }
    if (error) open.analysis.reject(error);
    else open.analysis.resolve({ ms: message.ms });
    open.analysis = null;
  }
}

// The calls of one channel (a session of its own in the worker). open: its newest { compute,
// analysis } and its spare buffers; post and request: the client's; forget(): drop the channel from the client.
function channelCalls(channel, open, { post, request, forget }) {
  return {
    glove: (url, { warm = true } = {}) => request('glove', { channel, url, warm }),
    neighbors: (selected) => request('neighbors', { channel, selected }),
    compute({ gen, repeatOf = null, state, trainedAvailable, trainedAsked, inputOnly, figures, trained = [], shown = {}, summaries = true, recycle = [] }) {
      let promise;
      [open.compute, promise] = newest(open.compute, gen);
      if (open.analysis) { open.analysis.resolve(null); open.analysis = null; }
      const given = [...new Set([...open.spare.splice(0), ...recycle])].filter((buffer) => buffer.byteLength >= MIN_RECYCLED_BYTES);
      post({ type: 'compute', channel, gen, repeatOf, state, trainedAvailable, trainedAsked, inputOnly, figures, trained, shown, summaries, recycle: given }, given);
      return promise;
    },
    analyse(gen, onAnalysis, options) {
      let promise;
      [open.analysis, promise] = newest(open.analysis, gen);
      open.analysis.onAnalysis = onAnalysis;
      post({ type: 'analyse', channel, gen, options });
      return promise;
    },
    close() {
      open.compute?.resolve(null);
      open.analysis?.resolve(null);
      forget();
      post({ type: 'close', channel });
    },
  };
}

// The client's waiting calls: { models, replies (id → { resolve, reject }), channels (channel →
// { compute, analysis, spare }: the newest of each, { gen, resolve, reject, … }, and the buffers to
// give back), started (the start
// call's { resolve, reject, promise }, or null) }.

// A message from the worker, to the call that waits for it.
function receive(client, message) {
  if (client.models.receive(message)) return;
  if (message.type === 'started') client.started?.resolve({ simd: message.simd, pretrained: message.pretrained, schemeTable: message.schemeTable });
  else if (message.type === 'start-failed') client.started?.reject(new Error(message.message));
  else if (message.type === 'reply') {
    const waiting = client.replies.get(message.id);
    client.replies.delete(message.id);
    if (message.error !== undefined) waiting?.reject(new Error(message.error));
    else waiting?.resolve(message.value);
  } else {
    const open = client.channels.get(message.channel ?? 0);
    if (open) channelAnswer(open, message);
  }
}

// The worker is gone: every waiting call hears why.
function fail(client, message) {
  client.started?.reject(new Error(message));
  for (const waiting of client.replies.values()) waiting.reject(new Error(message));
  client.replies.clear();
  for (const open of client.channels.values()) {
    open.compute?.reject(new Error(message));
    open.analysis?.reject(new Error(message));
    open.compute = open.analysis = null;
  }
  client.models.fail(message);
}

export function createLabClient({ workerUrl, worker } = {}) {
  worker ??= new Worker(workerUrl ?? defaultWorkerUrl(), { type: 'module' });
  const post = (message, transfer = []) => worker.postMessage(message, transfer);
  const client = { models: createModelClient({ post }), replies: new Map(), channels: new Map(), started: null };
  let nextId = 0;
  let nextChannel = 0;

  worker.addEventListener('message', (event) => receive(client, event.data));
  worker.addEventListener('error', (event) => fail(client, `the lab worker failed: ${event.message || 'it could not start'}`));

  function request(type, fields = {}, transfer = []) {
    const id = ++nextId;
    return new Promise((resolve, reject) => {
      client.replies.set(id, { resolve, reject });
      post({ type, id, ...fields }, transfer);
    });
  }

  function openChannel(channel) {
    const open = { compute: null, analysis: null, spare: [] };
    client.channels.set(channel, open);
    return channelCalls(channel, open, { post, request, forget: () => client.channels.delete(channel) });
  }

  const { glove, neighbors, compute, analyse } = openChannel(nextChannel++); // the page's
  return {
    start() {
      if (!client.started) {
        let settle;
        const promise = new Promise((resolve, reject) => { settle = { resolve, reject }; });
        client.started = { ...settle, promise };
        post({ type: 'start' });
      }
      return client.started.promise;
    },
    glove,
    neighbors,
    compute,
    analyse,
    custom: (bytes, name) => request('custom', { bytes, name }, [bytes.buffer]),
    channel: () => openChannel(nextChannel++),
    models: client.models,
    terminate() {
      fail(client, 'the lab worker was stopped');
      worker.terminate();
    },
  };
}
