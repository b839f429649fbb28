// The page's side of the lab worker (web/pipeline/lab-worker.js): one module worker holds the wasm
// cores, the word vectors and the shipped models, and this client sends it one message per user
// action and hands back plain data to paint. Answers to superseded work never reach the caller.
//
// Messages, page → worker (each may name a channel; 0 when it does not):
//   { type: 'start' }                            → { type: 'started', simd, pretrained, schemeTable } | { type: 'start-failed', message }
//   { type: 'compute', channel, gen, state, trainedAvailable, trainedAsked, inputOnly, figures, trained, shown }
//                                                → { type: 'view', channel, gen, view } | { …, error }   (lab-session.js: view,
//                                                  plus view.trained: the passes of model-host.js)
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
// the last view the caller painted (lab-session.js); analyse calls
// onAnalysis(name, data) as each analysis ends and resolves with { ms } (the worker's busy time),
// or null when a compute overtook it. channel() → { glove, compute, analyse, neighbors, close() }:
// the same calls on a session of their own in the same worker, for another figure of the page
// (each <posenc-lab>), whose computes and analyses neither overtake nor are overtaken by others'.
// worker: a Worker already made (else a module worker from workerUrl, default lab-worker.js beside this file).
import { createModelClient } from './model-client.js';
import { defaultWorkerUrl } from './lab-worker-url.js';

export function createLabClient({ workerUrl, worker } = {}) {
  worker ??= new Worker(workerUrl ?? defaultWorkerUrl(), { type: 'module' });
  const post = (message, transfer = []) => worker.postMessage(message, transfer);
  const models = createModelClient({ post });
  const replies = new Map(); // id → { resolve, reject }
  const channels = new Map(); // channel → { compute, analysis }: the newest of each, { gen, resolve, reject, … }
  let nextId = 0;
  let nextChannel = 0;
  let started = null;

  worker.addEventListener('message', (event) => receive(event.data));
  worker.addEventListener('error', (event) => fail(`the lab worker failed: ${event.message || 'it could not start'}`));

  function receive(message) {
    if (models.receive(message)) return;
    const open = channels.get(message.channel ?? 0);
    switch (message.type) {
      case 'started': started?.resolve({ simd: message.simd, pretrained: message.pretrained, schemeTable: message.schemeTable }); break;
      case 'start-failed': started?.reject(new Error(message.message)); break;
      case 'reply': {
        const waiting = replies.get(message.id);
        replies.delete(message.id);
        if (message.error !== undefined) waiting?.reject(new Error(message.error));
        else waiting?.resolve(message.value);
        break;
      }
      case 'view':
        if (!open || open.compute?.gen !== message.gen) break; // overtaken
        if (message.error !== undefined) open.compute.reject(new Error(message.error));
        else open.compute.resolve(message.view);
        open.compute = null;
        break;
      case 'analysis':
        if (!open || open.analysis?.gen !== message.gen) break;
        if (message.error !== undefined) { open.analysis.reject(new Error(message.error)); open.analysis = null; } else open.analysis.onAnalysis(message.name, message.data);
        break;
      case 'analysed':
        if (!open || open.analysis?.gen !== message.gen) break;
        open.analysis.resolve({ ms: message.ms });
        open.analysis = null;
        break;
      default: break;
    }
  }

  function fail(message) {
    started?.reject(new Error(message));
    for (const waiting of replies.values()) waiting.reject(new Error(message));
    replies.clear();
    for (const open of channels.values()) {
      open.compute?.reject(new Error(message));
      open.analysis?.reject(new Error(message));
      open.compute = open.analysis = null;
    }
    models.fail(message);
  }

  function request(type, fields = {}, transfer = []) {
    const id = ++nextId;
    return new Promise((resolve, reject) => {
      replies.set(id, { resolve, reject });
      post({ type, id, ...fields }, transfer);
    });
  }

  // The newest call of a kind wins: the one it overtakes resolves with null.
  function newest(previous, gen) {
    previous?.resolve(null);
    let settle;
    const promise = new Promise((resolve, reject) => { settle = { resolve, reject }; });
    return [{ gen, ...settle }, promise];
  }

  // The calls of one channel (a session of its own in the worker).
  function openChannel(channel) {
    const open = { compute: null, analysis: null };
    channels.set(channel, open);
    return {
      glove: (url, { warm = true } = {}) => request('glove', { channel, url, warm }),
      neighbors: (selected) => request('neighbors', { channel, selected }),
      compute({ gen, state, trainedAvailable, trainedAsked, inputOnly, figures, trained = [], shown = {} }) {
        let promise;
        [open.compute, promise] = newest(open.compute, gen);
        if (open.analysis) { open.analysis.resolve(null); open.analysis = null; }
        post({ type: 'compute', channel, gen, state, trainedAvailable, trainedAsked, inputOnly, figures, trained, shown });
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
        channels.delete(channel);
        post({ type: 'close', channel });
      },
    };
  }

  const { glove, neighbors, compute, analyse } = openChannel(nextChannel++); // the page's
  return {
    start() {
      if (!started) {
        let settle;
        const promise = new Promise((resolve, reject) => { settle = { resolve, reject }; });
        started = { ...settle, promise };
        post({ type: 'start' });
      }
      return started.promise;
    },
    glove,
    neighbors,
    compute,
    analyse,
    custom: (bytes, name) => request('custom', { bytes, name }, [bytes.buffer]),
    channel: () => openChannel(nextChannel++),
    models,
    terminate() {
      fail('the lab worker was stopped');
      worker.terminate();
    },
  };
}
