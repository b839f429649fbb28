// The trained lanes' models in their worker (web/pipeline/model-worker.js) through the page's
// client (model-client.js). Node has no browser Worker, so a stand-in runs the real worker module
// in this thread: messages cross through structuredClone (buffers transferred), each in a task of
// its own, as a browser delivers them. The answers are compared with the same model loaded here.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../../dist/posenc.mjs';
import { createModelClient } from '../../dist/pipeline/model-client.js';

const WORKER_URL = new URL('../../dist/pipeline/model-worker.js', import.meta.url);

// One stand-in worker per test file: `self` is the worker's global, as in a browser.
class StandInWorker extends EventTarget {
  constructor(url) {
    super();
    const page = this;
    const inside = new EventTarget();
    inside.postMessage = (data, transfer = []) => {
      const copy = structuredClone(data, { transfer });
      setTimeout(() => page.dispatchEvent(Object.assign(new Event('message'), { data: copy })), 0);
    };
    this.inside = inside;
    globalThis.self = inside;
    this.ready = import(url.href);
  }

  postMessage(data, transfer = []) {
    const copy = structuredClone(data, { transfer });
    this.ready.then(() => setTimeout(() => this.inside.dispatchEvent(Object.assign(new Event('message'), { data: copy })), 0));
  }

  terminate() {}
}

const ask = (model, lane, ids, head) => new Promise((resolve) => model.inspect(lane, Int32Array.from(ids), head, resolve));

describe('the models worker', () => {
  let lab;
  let client;
  before(async () => {
    globalThis.Worker = StandInWorker;
    lab = await load();
    client = createModelClient({ workerUrl: WORKER_URL });
  });
  after(() => {
    client?.dispose();
    delete globalThis.Worker;
    delete globalThis.self;
  });

  it('loads a shipped model and answers with the same map and strip as the model in this thread', async (t) => {
    if (!lab.pretrained.some((m) => m.name === 'rotary')) return t.skip('this dist/ ships no models');
    const progress = [];
    const remote = await client.load('rotary', { onProgress: (p) => progress.push(p) });
    assert.ok(progress.length > 0, 'progress was reported');
    assert.equal(remote.vocab.length, remote.config.vocab);
    const local = await lab.loadPretrained('rotary');
    const ids = [5, 17, 99, 3, 250, 8, 41];
    const reply = await ask(remote, 'rotary', ids, { layer: 1, head: 2 });
    const expected = local.inspect(Int32Array.from(ids), ids.length, { layer: 1, head: 2 });
    assert.deepEqual(reply.attention, expected.attention);
    assert.deepEqual(reply.surprise, expected.surprise);
    local.dispose();
  });

  it('a newer request for a lane overtakes an older one: only the newest is answered', async (t) => {
    if (!lab.pretrained.some((m) => m.name === 'rotary')) return t.skip('this dist/ ships no models');
    const remote = await client.load('rotary');
    const answers = [];
    remote.inspect('lane', Int32Array.from([1, 2, 3]), { layer: 0, head: 0 }, (reply) => answers.push(['old', reply]));
    const newest = await ask(remote, 'lane', [1, 2, 3, 4, 5], { layer: 0, head: 0 });
    await new Promise((resolve) => setTimeout(resolve, 20)); // an answer to the old one would have come by now
    assert.equal(answers.length, 0, 'the overtaken request got no answer');
    assert.equal(newest.attention.length, 25);
    assert.equal(newest.surprise.length, 4);
  });

  it('what a model cannot read is refused with the core\'s message, and an unknown name fails by name', async (t) => {
    if (!lab.pretrained.some((m) => m.name === 'learned')) return t.skip('this dist/ ships no learned model');
    const remote = await client.load('learned');
    const n = remote.config.context + 1; // a learned table has no row past its context
    const reply = await ask(remote, 'learned', Array.from({ length: n }, (_, i) => i), { layer: 0, head: 0 });
    assert.match(reply.refused, /context|position|rows/i);
    await assert.rejects(client.load('no-such-model'), /name must be one of the pretrained models/);
  });

  it('an aborted load rejects with an AbortError', async (t) => {
    if (!lab.pretrained.some((m) => m.name === 'alibi')) return t.skip('this dist/ ships no alibi model');
    const controller = new AbortController();
    const loading = client.load('alibi', { signal: controller.signal });
    controller.abort();
    await assert.rejects(loading, (error) => error.name === 'AbortError');
  });
});
