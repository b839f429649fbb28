// The page's side of the shipped models in the lab worker (web/pipeline/model-host.js): handles
// with the model's config, vocab and unknownId, and an inspect that answers later.
//
// Messages, page → worker: { type: 'load', name } (fetch, check and decode one shipped model),
// { type: 'cancel', name } (abandon its load), { type: 'inspect', lane, seq, name, ids:
// Int32Array (transferred), layer, head } (one lane's map and strip; a newer request for the same
// lane that arrives before this one has run replaces it). Worker → page: { type: 'progress', name,
// loaded, total }, { type: 'loaded', name, config, vocab, unknownId, complete } (complete: false
// for a heads-only model, whose output layer is still on its way), { type: 'completed', name } (it
// is in), { type: 'failed', name, message, aborted } (before or after a heads-only 'loaded'),
// { type: 'inspected', lane, seq, name, layer, head, attention: Float32Array(n·n), surprise:
// Float32Array(n − 1), or null from a heads-only model }, { type: 'refused', lane, seq, …, message }
// (the model cannot read these ids), { type: 'superseded', lane, seq }, { type: 'error', lane, seq, message }.
//
// createModelClient(port) → {
//   load(name, { onProgress, signal, onComplete }) → Promise<RemoteModel>   (rejects with an
//     AbortError on abort); when it resolves to a heads-only model, onComplete(RemoteModel) follows
//     with the complete one, or onComplete(null, error) if the rest failed;
//   receive(message) → whether it was a model message, fail(message) (the worker is gone) }
// port: { post(message, transfer) } to the worker (web/pipeline/lab-client.js).
// RemoteModel: { name, config, vocab (token strings in id order), unknownId, complete,
//   inspect(lane, ids: Int32Array(n), { layer, head }, onReply) }: one lane's pass; onReply gets
//   { attention: Float32Array(n·n), surprise: Float32Array(n − 1) or null (heads-only) } or
//   { refused: message }, only for the newest request of that lane (an older one that the worker
//   or a newer reply overtook is dropped), or { error: message }.

// The map's value under key, removed from it.
function take(map, key) {
  const value = map.get(key);
  map.delete(key);
  return value;
}

// An inspect reply ('inspected', 'refused' or 'error') to its lane's newest request; a reply to
// an overtaken request is dropped.
function answer(latest, message) {
  const request = latest.get(message.lane);
  if (!request || request.seq !== message.seq) return;
  latest.delete(message.lane);
  request.onReply(message.type === 'inspected' ? { attention: message.attention, surprise: message.surprise }
    : message.type === 'refused' ? { refused: message.message } : { error: message.message });
}

// A RemoteModel (above) for a 'loaded' message: its inspect requests are numbered from counter and
// registered in latest, the newest per lane.
function remoteModel({ name, config, vocab, unknownId, complete }, port, latest, counter) {
  return Object.freeze({
    name, config, vocab, unknownId, complete,
    inspect(lane, ids, { layer, head }, onReply) {
      if (typeof onReply !== 'function') throw new TypeError('onReply must be a function');
      const request = { seq: ++counter.seq, onReply };
      latest.set(lane, request);
      const copy = Int32Array.from(ids);
      port.post({ type: 'inspect', lane, seq: request.seq, name, ids: copy, layer, head }, [copy.buffer]);
    },
  });
}

export function createModelClient(port) {
  const loads = new Map();   // name → { resolve, reject, onProgress, onComplete, promise }
  const partial = new Map(); // name → { message ('loaded', heads-only), onComplete } until it completes or fails
  const latest = new Map();  // lane → { seq, onReply } of the newest inspect request
  const counter = { seq: 0 }; // the last inspect request's number
  const remote = (message) => remoteModel(message, port, latest, counter);

  function receive(message) {
    switch (message.type) {
      case 'superseded': return true; // the newer request's reply is the one awaited
      case 'progress': loads.get(message.name)?.onProgress?.({ loaded: message.loaded, total: message.total }); break;
      case 'loaded': loaded(message); break;
      case 'completed': {
        const heads = take(partial, message.name);
        heads?.onComplete?.(remote({ ...heads.message, complete: true }));
        break;
      }
      case 'failed':
        take(loads, message.name)?.reject(message.aborted ? new DOMException(message.message, 'AbortError') : new Error(message.message));
        take(partial, message.name)?.onComplete?.(null, new Error(message.message));
        break;
      case 'inspected':
      case 'refused':
      case 'error': answer(latest, message); break;
      default: return false;
    }
    return true;
  }

  function loaded(message) {
    const load = take(loads, message.name);
    if (!load) return;
    if (!message.complete) partial.set(message.name, { message, onComplete: load.onComplete });
    load.resolve(remote(message));
  }

  return {
    load(name, { onProgress, signal, onComplete } = {}) {
      if (typeof name !== 'string') throw new TypeError('name must be a string');
      if (signal?.aborted) return Promise.reject(new DOMException('the load was aborted', 'AbortError'));
      if (loads.has(name)) return loads.get(name).promise;
      let settle;
      const promise = new Promise((resolve, reject) => { settle = { resolve, reject }; });
      loads.set(name, { ...settle, onProgress, onComplete, promise });
      signal?.addEventListener('abort', () => port.post({ type: 'cancel', name }), { once: true });
      port.post({ type: 'load', name });
      return promise;
    },
    receive,
    /** The worker failed: every waiting call hears it. */
    fail(message) {
      for (const load of loads.values()) load.reject(new Error(message));
      for (const heads of partial.values()) heads.onComplete?.(null, new Error(message));
      for (const request of latest.values()) request.onReply({ error: message });
      loads.clear();
      partial.clear();
      latest.clear();
    },
  };
}
