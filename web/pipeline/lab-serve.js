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
import { createBufferPool } from './buffer-pool.js';
import { vectorFileLabel } from '../formats/vector-file-rules.js';

/**
 * How long after answering a key that left the words the worker waits before the trained lanes'
 * models score ahead (model-host.js, scoreAhead): the page paints that key meanwhile. Scored at
 * once, the worker held a core while the page painted, and the key's frame came about 3 ms later
 * at 512 tokens on a 2-core machine (docs/BENCHMARKS.md, round 53); a reader's next key comes later.
 */
export const SCORE_AHEAD_MS = 50;

/** Answers the lab client's messages arriving on scope ({ addEventListener, postMessage }). */
export function serveLab(scope) {
  const post = (message, transfer = []) => scope.postMessage(message, transfer);
  const lab = load();
  const models = createModelHost(lab, post);
  const channels = new LabChannels(lab, post, models);
  scope.addEventListener('message', (event) => {
    const message = event.data ?? {};
    if (!models.handle(message)) channels.handle(message);
  });
}

// The sessions, one per channel, and the newest compute of each.
class LabChannels {
  #lab;
  #post;
  #models;
  #sources;
  #buffers = createBufferPool(); // what the page gives back, for the views' arrays (buffer-pool.js)
  #sessions = new Map(); // channel → Promise of its session
  #latest = new Map();   // channel → its newest compute's generation
  #waiting = new Map();  // channel → its newest compute not yet run

  constructor(lab, post, models) {
    this.#lab = lab;
    this.#post = post;
    this.#models = models;
    this.#sources = lab.then(createLabSources);
  }

  handle(message) {
    const channel = message.channel ?? 0;
    switch (message.type) {
      case 'start':
        this.#lab.then((loaded) => this.#post({ type: 'started', simd: loaded.simd, pretrained: loaded.pretrained, schemeTable: loaded.schemeTable }),
          (error) => this.#post({ type: 'start-failed', message: error?.message ?? String(error) }));
        break;
      case 'glove':
        // The lab's own GloVe file is fetched now, not once the core has compiled (load's prefetch).
        if (!message.url) load({ prefetch: true }).catch(() => {}); // 'started' reports a failed load
        this.#answer(message, (s) => s.loadGlove(message.url, message.warm ?? true));
        break;
      case 'custom': this.#answer(message, (s) => s.loadCustom(message.bytes, (v) => vectorFileLabel(message.name, v))); break;
      case 'compute':
        this.#buffers.give(message.recycle);
        this.#latest.set(channel, message.gen);
        // One task later, so computes queued behind a busy worker collapse into the newest. A timer
        // set from a message handler is not clamped (no nesting).
        if (!this.#waiting.has(channel)) setTimeout(() => this.#runCompute(channel), 0);
        this.#waiting.set(channel, message);
        break;
      case 'analyse': this.#analyse(channel, message.gen, message.options); break;
      case 'neighbors': this.#answer(message, (s) => s.neighbors(message.selected)); break;
      case 'close':
        // The channel's client is gone: its session (last view, caches) goes; its analyses stop.
        this.#sessions.delete(channel);
        this.#latest.delete(channel);
        this.#waiting.delete(channel);
        break;
      default: this.#post({ type: 'reply', id: message.id, error: `unknown message type '${message.type}'` });
    }
  }

  #sessionOf(channel) {
    if (!this.#sessions.has(channel)) {
      this.#sessions.set(channel, Promise.all([this.#lab, this.#sources]).then(([lab, sources]) => createLabSession(lab, sources, { buffers: this.#buffers })));
    }
    return this.#sessions.get(channel);
  }

  // A request answered once: { type: 'reply', id, value } or { …, error }.
  #answer({ id, channel = 0 }, work) {
    this.#sessionOf(channel).then(work).then((value) => this.#post({ type: 'reply', id, value }),
      (error) => this.#post({ type: 'reply', id, error: error?.message ?? String(error) }));
  }

  async #runCompute(channel) {
    const message = this.#waiting.get(channel);
    this.#waiting.delete(channel);
    if (!message) return;
    const session = await this.#sessionOf(channel).catch(() => null);
    if (!session) return; // 'started' says why
    try {
      const { view, transfer } = session.compute(message);
      // A repeat's trained lanes show its tokens' passes already.
      if (view.repeated) {
        this.#post({ type: 'view', channel, gen: message.gen, view });
        // The words stand (a space ended one): the next key most likely adds one, and the trained
        // lanes' models score its context ahead, once the page has painted this key (model-host.js).
        const stale = () => this.#latest.get(channel) !== message.gen;
        setTimeout(() => this.#models.scoreAhead(message.trained ?? [], stale), SCORE_AHEAD_MS);
        return;
      }
      // The trained lanes' passes ride along: one answer per keystroke, every array transferred.
      const trained = this.#models.passes(view.n > 0 ? message.trained ?? [] : [], view.tokens, this.#buffers);
      view.trained = trained.passes;
      this.#post({ type: 'view', channel, gen: message.gen, view }, [...transfer, ...trained.transfer]);
    } catch (error) {
      this.#post({ type: 'view', channel, gen: message.gen, error: error?.message ?? String(error) });
    }
  }

  // The analyses of the channel's newest view, one slice per task; they stop once a newer compute
  // came on that channel.
  async #analyse(channel, gen, options) {
    const steps = (await this.#sessionOf(channel)).analyses(options);
    const started = performance.now();
    let busy = 0;
    while (gen === this.#latest.get(channel)) {
      const sliceStart = performance.now();
      let step;
      try {
        step = steps.next();
      } catch (error) {
        this.#post({ type: 'analysis', channel, gen, error: error?.message ?? String(error) });
        return;
      }
      busy += performance.now() - sliceStart;
      if (step.done) {
        this.#post({ type: 'analysed', channel, gen, ms: busy, wallMs: performance.now() - started });
        return;
      }
      if (step.value) this.#post({ type: 'analysis', channel, gen, name: step.value.name, data: step.value.data });
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  }
}
