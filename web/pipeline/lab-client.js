// The page's side of the lab worker (web/pipeline/lab-worker.js): one module worker holds the wasm
// cores, the word vectors and the shipped models, and this client sends it one message per user
// action and hands back plain data to paint. Answers to superseded work never reach the caller.
//
// Messages, page → worker:
//   { type: 'start' }                            → { type: 'started', simd, pretrained, schemeTable } | { type: 'start-failed', message }
//   { type: 'compute', gen, state, trainedAvailable, trainedAsked, inputOnly, trained, shown }
//                                                → { type: 'view', gen, view } | { …, error }   (lab-session.js: view,
//                                                  plus view.trained: the passes of model-host.js)
//   { type: 'analyse', gen }                     → { type: 'analysis', gen, name, data }… then { type: 'analysed', gen, ms }
//   { type: 'glove' | 'custom' | 'neighbors', id, … }   → { type: 'reply', id, value } | { …, error }
//   and the models' messages (web/pipeline/model-client.js).
//
// createLabClient() → { start(), glove(), custom(bytes, name), compute(request),
//   analyse(gen, onAnalysis), neighbors(selected), models, terminate() }:
// compute resolves with the view, or null when a newer compute was sent meanwhile; its `trained`
// ([{ lane, name, layer, head }], loaded models only) asks for those lanes' passes on the view's
// tokens, which come back in view.trained (model-host.js: passes); its `shown` is the shownKeys of
// the last view the caller painted (lab-session.js); analyse calls
// onAnalysis(name, data) as each analysis ends and resolves with { ms } (the worker's busy time),
// or null when a compute overtook it.
import { createModelClient } from './model-client.js';

export function createLabClient({ workerUrl = new URL('./lab-worker.js', import.meta.url) } = {}) {
  const worker = new Worker(workerUrl, { type: 'module' });
  const post = (message, transfer = []) => worker.postMessage(message, transfer);
  const models = createModelClient({ post });
  const replies = new Map(); // id → { resolve, reject }
  let nextId = 0;
  let started = null;
  let compute = null;        // { gen, resolve } of the newest compute
  let analysis = null;       // { gen, onAnalysis, resolve, reject } of the newest analyse

  worker.addEventListener('message', (event) => receive(event.data));
  worker.addEventListener('error', (event) => fail(`the lab worker failed: ${event.message || 'it could not start'}`));

  function receive(message) {
    if (models.receive(message)) return;
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
        if (compute?.gen !== message.gen) break; // overtaken
        if (message.error !== undefined) compute.reject(new Error(message.error));
        else compute.resolve(message.view);
        compute = null;
        break;
      case 'analysis':
        if (analysis?.gen !== message.gen) break;
        if (message.error !== undefined) { analysis.reject(new Error(message.error)); analysis = null; } else analysis.onAnalysis(message.name, message.data);
        break;
      case 'analysed':
        if (analysis?.gen !== message.gen) break;
        analysis.resolve({ ms: message.ms });
        analysis = null;
        break;
      default: break;
    }
  }

  function fail(message) {
    started?.reject(new Error(message));
    for (const waiting of replies.values()) waiting.reject(new Error(message));
    replies.clear();
    compute?.reject(new Error(message));
    analysis?.reject(new Error(message));
    compute = analysis = null;
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
    glove: () => request('glove'),
    custom: (bytes, name) => request('custom', { bytes, name }, [bytes.buffer]),
    neighbors: (selected) => request('neighbors', { selected }),
    compute({ gen, state, trainedAvailable, trainedAsked, inputOnly, trained = [], shown = {} }) {
      let promise;
      [compute, promise] = newest(compute, gen);
      if (analysis) { analysis.resolve(null); analysis = null; }
      post({ type: 'compute', gen, state, trainedAvailable, trainedAsked, inputOnly, trained, shown });
      return promise;
    },
    analyse(gen, onAnalysis) {
      let promise;
      [analysis, promise] = newest(analysis, gen);
      analysis.onAnalysis = onAnalysis;
      post({ type: 'analyse', gen });
      return promise;
    },
    models,
    terminate() {
      fail('the lab worker was stopped');
      worker.terminate();
    },
  };
}
