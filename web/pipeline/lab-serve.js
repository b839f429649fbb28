// The lab's side of web/pipeline/lab-client.js: one lab (the wasm core, and the model core once a
// model is asked for) and everything computed with it, answering the client's messages on `scope`
// (a worker's global: web/pipeline/lab-worker.js; or a stand-in in the page's own thread). The
// client lists the messages.
//
// Each message names its channel (default 0): one session each (lab-session.js), sharing the lab
// and the word vectors, so several clients of one lab (the page, each <posenc-lab>) keep their
// own views. Within a channel a newer 'compute' supersedes older work: computes waiting behind a
// busy lab are dropped for the newest, and the analyses after a pause stop at their next slice
// once a compute arrives.
import { load } from '../posenc.mjs';
import { createLabSession, createLabSources } from './lab-session.js';
import { createModelHost } from './model-host.js';

/** Answers the lab client's messages arriving on scope ({ addEventListener, postMessage }). */
export function serveLab(scope) {
  const post = (message, transfer = []) => scope.postMessage(message, transfer);
  const lab = load();
  const sources = lab.then(createLabSources);
  const models = createModelHost(lab, post);
  const sessions = new Map(); // channel → Promise of its session
  const latest = new Map();   // channel → its newest compute's generation
  const waiting = new Map();  // channel → its newest compute not yet run

  function sessionOf(channel) {
    if (!sessions.has(channel)) sessions.set(channel, Promise.all([lab, sources]).then(([l, s]) => createLabSession(l, s)));
    return sessions.get(channel);
  }

  scope.addEventListener('message', (event) => {
    const message = event.data ?? {};
    if (models.handle(message)) return;
    const channel = message.channel ?? 0;
    switch (message.type) {
      case 'start':
        lab.then((loaded) => post({ type: 'started', simd: loaded.simd, pretrained: loaded.pretrained, schemeTable: loaded.schemeTable }),
          (error) => post({ type: 'start-failed', message: error?.message ?? String(error) }));
        break;
      case 'glove': answer(message, (s) => s.loadGlove(message.url)); break;
      case 'custom': answer(message, (s) => s.loadCustom(message.bytes, (v) => `${message.name}: ${v.size.toLocaleString('en-US')} words, d = ${v.dim}`)); break;
      case 'drop-custom': answer(message, (s) => s.dropCustom()); break;
      case 'compute':
        latest.set(channel, message.gen);
        // One task later, so computes queued behind a busy worker collapse into the newest. A timer
        // set from a message handler is not clamped (no nesting).
        if (!waiting.has(channel)) setTimeout(() => runCompute(channel), 0);
        waiting.set(channel, message);
        break;
      case 'analyse': analyse(channel, message.gen, message.options); break;
      case 'neighbors': answer(message, (s) => s.neighbors(message.selected)); break;
      case 'close':
        // The channel's client is gone: its session (last view, caches) goes; its analyses stop.
        sessions.delete(channel);
        latest.delete(channel);
        waiting.delete(channel);
        break;
      default: post({ type: 'reply', id: message.id, error: `unknown message type '${message.type}'` });
    }
  });

  // A request answered once: { type: 'reply', id, value } or { …, error }.
  function answer({ id, channel = 0 }, work) {
    sessionOf(channel).then(work).then((value) => post({ type: 'reply', id, value }),
      (error) => post({ type: 'reply', id, error: error?.message ?? String(error) }));
  }

  async function runCompute(channel) {
    const message = waiting.get(channel);
    waiting.delete(channel);
    if (!message) return;
    const s = await sessionOf(channel).catch(() => null);
    if (!s) return; // 'started' says why
    try {
      const view = s.compute(message);
      post({ type: 'view', channel, gen: message.gen, view });
    } catch (error) {
      post({ type: 'view', channel, gen: message.gen, error: error?.message ?? String(error) });
    }
  }

  // The analyses of the channel's newest view, one slice per task; they stop once a newer compute
  // came on that channel.
  async function analyse(channel, gen, options) {
    const s = await sessionOf(channel);
    const started = performance.now();
    let busy = 0;
    const steps = s.analyses(options);
    while (gen === latest.get(channel)) {
      const sliceStart = performance.now();
      let step;
      try {
        step = steps.next();
      } catch (error) {
        post({ type: 'analysis', channel, gen, error: error?.message ?? String(error) });
        return;
      }
      busy += performance.now() - sliceStart;
      if (step.done) {
        post({ type: 'analysed', channel, gen, ms: busy, wallMs: performance.now() - started });
        return;
      }
      if (step.value) post({ type: 'analysis', channel, gen, name: step.value.name, data: step.value.data });
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  }
}
