// The page's side of web/pipeline/model-worker.js: shipped models that live in the worker, as
// handles with the model's config, vocab and unknownId, and an inspect that answers later.
//
// createModelClient() → {
//   load(name, { onProgress, signal }) → Promise<RemoteModel>   (rejects with an AbortError on abort),
//   dispose() }
// RemoteModel: { name, config, vocab (token strings in id order), unknownId,
//   inspect(lane, ids: Int32Array(n), { layer, head }, onReply) }: one lane's pass; onReply gets
//   { attention: Float32Array(n·n), surprise: Float32Array(n − 1) } or { refused: message }, only
//   for the newest request of that lane (an older one that the worker or a newer reply overtook is
//   dropped), or { error: message }.

export function createModelClient({ workerUrl = new URL('./model-worker.js', import.meta.url) } = {}) {
  let worker = null;
  const loads = new Map();   // name → { resolve, reject, onProgress, promise }
  const latest = new Map();  // lane → { seq, onReply } of the newest inspect request
  let seq = 0;

  function start() {
    if (worker) return worker;
    worker = new Worker(workerUrl, { type: 'module' });
    worker.addEventListener('message', (event) => receive(event.data));
    worker.addEventListener('error', (event) => {
      // A worker that failed to start (a missing file, a syntax error): every waiting call hears it.
      const message = `the model worker failed: ${event.message || 'it could not start'}`;
      for (const [name, load] of loads) { load.reject(new Error(message)); loads.delete(name); }
      for (const [lane, request] of latest) { request.onReply({ error: message }); latest.delete(lane); }
    });
    return worker;
  }

  function receive(message) {
    switch (message.type) {
      case 'progress': loads.get(message.name)?.onProgress?.({ loaded: message.loaded, total: message.total }); break;
      case 'loaded': {
        const load = loads.get(message.name);
        loads.delete(message.name);
        load?.resolve(remoteModel(message));
        break;
      }
      case 'failed': {
        const load = loads.get(message.name);
        loads.delete(message.name);
        load?.reject(message.aborted ? new DOMException(message.message, 'AbortError') : new Error(message.message));
        break;
      }
      case 'inspected':
      case 'refused':
      case 'error': {
        const request = latest.get(message.lane);
        if (!request || (message.type !== 'error' && request.seq !== message.seq)) break; // overtaken
        latest.delete(message.lane);
        request.onReply(message.type === 'inspected' ? { attention: message.attention, surprise: message.surprise }
          : message.type === 'refused' ? { refused: message.message } : { error: message.message });
        break;
      }
      default: break; // 'superseded': the newer request's reply is the one awaited
    }
  }

  function remoteModel({ name, config, vocab, unknownId }) {
    return Object.freeze({
      name, config, vocab, unknownId,
      inspect(lane, ids, { layer, head }, onReply) {
        if (typeof onReply !== 'function') throw new TypeError('onReply must be a function');
        const request = { seq: ++seq, onReply };
        latest.set(lane, request);
        const copy = Int32Array.from(ids);
        start().postMessage({ type: 'inspect', lane, seq: request.seq, name, ids: copy, layer, head }, [copy.buffer]);
      },
    });
  }

  return {
    load(name, { onProgress, signal } = {}) {
      if (typeof name !== 'string') throw new TypeError('name must be a string');
      if (signal?.aborted) return Promise.reject(new DOMException('the load was aborted', 'AbortError'));
      if (loads.has(name)) return loads.get(name).promise;
      let settle;
      const promise = new Promise((resolve, reject) => { settle = { resolve, reject }; });
      loads.set(name, { ...settle, onProgress, promise });
      signal?.addEventListener('abort', () => worker?.postMessage({ type: 'cancel', name }), { once: true });
      start().postMessage({ type: 'load', name });
      return promise;
    },
    dispose() {
      worker?.terminate();
      worker = null;
      loads.clear();
      latest.clear();
    },
  };
}
