// The page's lab worker (web/pipeline/lab-worker.js) through its client (lab-client.js): the
// trained lanes' models and the keystroke's compute. Node has no browser Worker, so a stand-in runs the real worker module
// in this thread: messages cross through structuredClone (buffers transferred), each in a task of
// its own, as a browser delivers them. The answers are compared with the same model loaded here.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../../dist/posenc.mjs';
import { createLabClient } from '../../dist/pipeline/lab-client.js';
import { DEFAULTS } from '../../dist/pipeline/state.js';
import { createPipeline, settleSettings } from '../../dist/pipeline/pipeline.js';
import { syntheticSource } from '../../dist/pipeline/vocab.js';
import { idsFor, vocabularyIndex } from '../../dist/pipeline/model-ids.js';
import { PASS_ROWS } from '../../dist/pipeline/slices.js';
import { SCORE_AHEAD_MS } from '../../dist/pipeline/lab-serve.js';

const WORKER_URL = new URL('../../dist/pipeline/lab-worker.js', import.meta.url);

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

describe('the lab worker', () => {
  let lab;
  let labClient;
  let client;
  before(async () => {
    globalThis.Worker = StandInWorker;
    lab = await load();
    labClient = createLabClient({ workerUrl: WORKER_URL });
    client = labClient.models;
  });
  after(() => {
    labClient?.terminate();
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

  const compute = (gen, state, inputOnly = [], shown = {}) => labClient.compute({ gen, state, trainedAvailable: false, trainedAsked: false, inputOnly, shown });
  const STATE = { ...DEFAULTS, sentence: 'The king sat on the throne, and the queen smiled.', vectors: 'synthetic', heads: 0 };

  it('a compute answers with the view the pipeline makes in this thread; a newer one overtakes an older', async () => {
    const older = compute(1, { ...STATE, sentence: 'a b c' });
    const newer = compute(2, STATE);
    assert.equal(await older, null, 'the overtaken compute resolves with null');
    const view = await newer;
    const source = syntheticSource(lab, STATE.d);
    const settings = settleSettings(lab, STATE, source);
    const local = createPipeline(lab).run(STATE, source, settings);
    assert.deepEqual(view.tokens, local.tokens);
    assert.equal(view.n, local.n);
    for (const scheme of STATE.schemes) {
      assert.deepEqual(view.result[scheme].x, local.result[scheme].x, scheme);
      assert.deepEqual(view.result[scheme].weights, local.result[scheme].weights, scheme);
    }
    assert.equal(view.source.kind, 'synthetic');
    // A folded lane's logit terms stay in the worker; an unfolded one's come along.
    assert.equal(view.result.additive.terms, undefined);
    assert.equal(view.result.additive.termsFolded, true);
    const unfolded = await compute(6, { ...STATE, moreOpen: ['additive'] });
    assert.deepEqual(unfolded.result.additive.terms, local.result.additive.terms);
    assert.equal(unfolded.result.rotary.termsFolded, true);
    assert.ok(view.figures.spread && view.figures.distance && view.figures.angles, 'the settings figures come with the first view');
    assert.ok(view.pe && view.peConcat, 'the sinusoidal tables come with the first view');
    assert.equal(view.E, undefined, 'the word vectors stay in the worker');
    assert.equal(view.result.pe, undefined, 'the tables come once, as the view\'s pe and peConcat');
    const again = await compute(7, STATE, [], view.shownKeys);
    assert.deepEqual(again.figures, { spread: null, distance: null, angles: null, spreadLength: view.figures.spreadLength },
      'what the page shows already is not sent again');
    assert.equal(again.pe, null);
    assert.deepEqual(again.shownKeys, view.shownKeys);
  });

  it('buffers given back carry the next view: the same numbers as on fresh buffers, on the buffers given', async () => {
    // 160 tokens: each lane's weights (160² floats) are big enough to go round (buffer-pool.js).
    const long = { ...STATE, sentence: Array.from({ length: 160 }, (_, i) => ['the', 'king', 'sat', 'on', 'a', 'throne'][i % 6]).join(' ') };
    const fresh = await compute(11, long);
    const expected = Object.fromEntries(STATE.schemes.map((scheme) => [scheme, fresh.result[scheme].weights.slice()]));
    // Buffers of sizes no fresh one has (those are whole 4 KB pages), one per lane, filled with junk.
    const given = STATE.schemes.map((scheme) => new Float32Array(fresh.result[scheme].weights.length + 3).fill(-7).buffer);
    const sizes = given.map((buffer) => buffer.byteLength);
    const view = await labClient.compute({ gen: 12, state: long, trainedAvailable: false, trainedAsked: false, inputOnly: [], recycle: given });
    assert.equal(view.n, 160);
    assert.ok(given.every((buffer) => buffer.byteLength === 0), 'given back, not copied: detached here');
    for (const scheme of STATE.schemes) {
      assert.deepEqual(view.result[scheme].weights, expected[scheme], scheme);
      assert.equal(view.result[scheme].weights.byteOffset, 0);
    }
    const used = STATE.schemes.map((scheme) => view.result[scheme].weights.buffer.byteLength);
    assert.equal(used.filter((size) => sizes.includes(size)).length, STATE.schemes.length, 'every lane\'s weights came on a buffer given');
  });

  it('what the page has not painted is sent again: a view it dropped as stale does not count as shown', async () => {
    const first = await compute(8, STATE);
    // The page painted `first`; the view of a longer sentence came back but was not painted (a
    // newer keystroke made it stale), so the page still shows `first`'s tables and figures and
    // says so with the next compute.
    const longer = { ...STATE, sentence: `${STATE.sentence} And then some more words.`, base: 500 };
    const unpainted = await compute(9, longer, [], first.shownKeys);
    assert.ok(unpainted.pe && unpainted.figures.distance);
    const newest = await compute(10, longer, [], first.shownKeys);
    assert.ok(newest.pe, 'the tables for the new length come again');
    assert.equal(newest.pe.length, newest.n * newest.settings.d);
    assert.ok(newest.figures.distance && newest.figures.angles, 'the figures for the new base come again');
    assert.notEqual(newest.shownKeys.pe, first.shownKeys.pe);
  });

  it('a typed key that leaves the tokens as the client shows them is answered { repeated: true }, anything else in full', async () => {
    const typed = (gen, repeatOf, state, more = {}) => labClient.compute({ gen, repeatOf, state, trainedAvailable: false, trainedAsked: false, inputOnly: [], ...more });
    const shown = await typed(40, null, STATE);
    assert.ok(shown.result, 'no repeat asked: a full view');
    const spaced = { ...STATE, sentence: `${STATE.sentence}  ` };
    assert.deepEqual(await typed(41, 40, spaced), { repeated: true }, 'a space: the view shown stands');
    assert.deepEqual(await typed(42, 41, spaced), { repeated: true }, 'a repeat of a repeat');
    // Anything but the same tokens under the same settings, shown, is computed and sent whole.
    const full = [
      ['the client shows an older view (it dropped the last as stale)', 40, spaced],
      ['no repeatOf (another action than typing)', null, spaced],
      ['another token', 42, { ...spaced, sentence: `${spaced.sentence}and` }],
    ];
    let gen = 43;
    for (const [why, repeatOf, state] of full) {
      const view = await typed(gen, repeatOf, state);
      assert.equal(view.repeated, undefined, why);
      assert.ok(view.result, why);
      gen++;
    }
    // Settings the text does not carry: the view changes although the tokens do not.
    const base = await typed(gen, gen - 1, { ...STATE, sentence: `${STATE.sentence} and`, base: 500 });
    assert.equal(base.repeated, undefined, 'another base');
    const summaries = await typed(gen + 1, gen, { ...STATE, sentence: `${STATE.sentence} and `, base: 500 }, { summaries: false });
    assert.equal(summaries.repeated, undefined, 'no summaries asked, where the last compute asked for them');
    assert.deepEqual(await typed(gen + 2, gen + 1, { ...STATE, sentence: `${STATE.sentence} and  `, base: 500 }, { summaries: false }), { repeated: true });
  });

  it('a compute brings the trained lanes\' passes on its own tokens, and skips one whose ids the lane shows', async (t) => {
    if (!lab.pretrained.some((m) => m.name === 'rotary')) return t.skip('this dist/ ships no models');
    await client.load('rotary');
    const request = { lane: 'rotary', name: 'rotary', layer: 1, head: 2 };
    const withPasses = (gen, trained) => labClient.compute({ gen, state: STATE, trainedAvailable: true, trainedAsked: false, inputOnly: [], trained });
    const view = await withPasses(30, [request]);
    const local = await lab.loadPretrained('rotary');
    const { ids } = idsFor(view.tokens, vocabularyIndex(local.vocab), local.unknownId);
    const expected = local.inspect(ids, ids.length, { layer: 1, head: 2 });
    const pass = view.trained.rotary;
    assert.deepEqual(pass.ids, ids, 'the view\'s tokens as the model\'s ids');
    assert.deepEqual(pass.attention, expected.attention);
    assert.deepEqual(pass.surprise, expected.surprise);
    local.dispose();
    const same = (await withPasses(31, [{ ...request, shownIds: pass.ids }])).trained.rotary;
    assert.equal(same.unchanged, true, 'the lane shows these ids already: no pass');
    assert.equal(same.attention, undefined);
    const other = Int32Array.from(pass.ids, (id, i) => (i === 0 ? id + 1 : id));
    const rerun = (await withPasses(32, [{ ...request, shownIds: other }])).trained.rotary;
    assert.deepEqual(rerun.attention, expected.attention, 'other ids shown: the pass runs');
  });

  it('a typed key that leaves the words, then one that adds a word: the pass brings a fresh model\'s row and strip', async (t) => {
    // After the space, the worker's model scores the last word's row ahead with another id after
    // it (model-host.js, scoreAhead; tests/js/model-host.test.mjs); the pass that adds the word
    // reuses that row, and must bring what a model that never scored ahead brings.
    if (!lab.pretrained.some((m) => m.name === 'rotary')) return t.skip('this dist/ ships no models');
    await client.load('rotary');
    const local = await lab.loadPretrained('rotary');
    t.after(() => local.dispose());
    const request = { lane: 'rotary', name: 'rotary', layer: 1, head: 2 };
    const typed = (gen, repeatOf, sentence, shownIds) => labClient.compute({ gen, repeatOf, state: { ...STATE, sentence },
      trainedAvailable: true, trainedAsked: false, inputOnly: [], trained: [{ ...request, shownIds }] });
    const shown = (await typed(60, null, STATE.sentence)).trained.rotary;
    assert.deepEqual(await typed(61, 60, `${STATE.sentence} `, shown.ids), { repeated: true }, 'a space: the words stand');
    await new Promise((resolve) => setTimeout(resolve, SCORE_AHEAD_MS + 30)); // the scoring's tasks
    const pass = (await typed(62, 61, `${STATE.sentence} king`, shown.ids)).trained.rotary;
    const n = shown.ids.length;
    assert.equal(pass.fromRow, n, 'one word added: its row');
    const whole = local.inspect(pass.ids, n + 1, { layer: 1, head: 2 });
    assert.deepEqual(pass.attention, whole.attention.subarray(n * (n + 1)));
    assert.deepEqual(pass.surprise, whole.surprise);
  });

  it('a trained lane\'s map comes on a buffer given back: the same numbers as the model\'s own, its rows made in slices first', async (t) => {
    if (!lab.pretrained.some((m) => m.name === 'rotary')) return t.skip('this dist/ ships no models');
    await client.load('rotary');
    // 96 tokens: the map (96² floats) is big enough to go round (buffer-pool.js).
    const long = { ...STATE, sentence: Array.from({ length: 96 }, (_, i) => ['the', 'king', 'sat', 'on', 'a', 'throne'][i % 6]).join(' ') };
    const request = { lane: 'rotary', name: 'rotary', layer: 0, head: 1 };
    const local = await lab.loadPretrained('rotary');
    const expected = (view) => {
      const { ids } = idsFor(view.tokens, vocabularyIndex(local.vocab), local.unknownId);
      return local.inspect(ids, ids.length, { layer: 0, head: 1 }).attention;
    };
    // A buffer of a size no fresh one has (those are whole 4 KB pages), filled with junk. Every
    // lane input only (its maps covered), so no identity map takes the buffer first.
    const given = new Float32Array(96 * 96 + 3).fill(-7).buffer;
    const size = given.byteLength;
    // 96 rows are more than a keystroke's pass adds (PASS_ROWS): the lane's own request makes them
    // first, PASS_ROWS a task, and answers with the bits of one whole pass.
    const tokens = (await compute(49, long)).tokens;
    const { ids } = idsFor(tokens, vocabularyIndex(local.vocab), local.unknownId);
    assert.ok(ids.length > 2 * PASS_ROWS);
    const asked = await ask(await client.load('rotary'), 'rotary', ids, { layer: 0, head: 1 });
    const whole = local.inspect(ids, ids.length, { layer: 0, head: 1 });
    assert.deepEqual(asked.attention, whole.attention);
    assert.deepEqual(asked.surprise, whole.surprise);
    const view = await labClient.compute({ gen: 50, state: long, trainedAvailable: true, trainedAsked: false, inputOnly: STATE.schemes, trained: [request], recycle: [given] });
    assert.equal(view.n, 96);
    assert.equal(given.byteLength, 0, 'given back, not copied: detached here');
    const pass = view.trained.rotary;
    assert.equal(pass.attention.buffer.byteLength, size, 'the map came on the buffer given');
    assert.equal(pass.attention.length, 96 * 96);
    assert.deepEqual(pass.attention, expected(view));
    local.dispose();
  });

  it('a refused trained pass leaves the buffer it was given to the next map', async (t) => {
    if (!['learned', 'rotary'].every((name) => lab.pretrained.some((m) => m.name === name))) return t.skip('this dist/ ships no models');
    const [learned] = await Promise.all([client.load('learned'), client.load('rotary')]);
    // PASS_ROWS tokens past the learned table's rows (so refused; 64 with the shipped models), and a
    // map (n² floats) big enough to go round (buffer-pool.js). A buffer of a size no fresh one
    // has; every lane input only, so no identity map takes it, and vectors of 32 dimensions, so
    // no n×d array does.
    const n = learned.config.context + PASS_ROWS;
    const long = { ...STATE, d: 32, sentence: Array.from({ length: n }, (_, i) => ['the', 'king', 'sat', 'on', 'a', 'throne'][i % 6]).join(' ') };
    const given = new Float32Array(n * n + 3).buffer;
    const size = given.byteLength;
    const passOf = async (gen, name, recycle) => (await labClient.compute({ gen, state: long, trainedAvailable: true, trainedAsked: false,
      inputOnly: STATE.schemes, trained: [{ lane: name, name, layer: 0, head: 0 }], recycle })).trained[name];
    // Each model's rows but the last PASS_ROWS first (the lanes' own requests; the learned model
    // reads them all), so that the keystroke's passes run.
    const tokens = (await compute(59, long)).tokens;
    assert.equal(tokens.length, n);
    for (const name of ['learned', 'rotary']) {
      const local = await lab.loadPretrained(name);
      const { ids } = idsFor(tokens, vocabularyIndex(local.vocab), local.unknownId);
      const lead = await ask(await client.load(name), name, ids.subarray(0, n - PASS_ROWS), { layer: 0, head: 0 });
      assert.equal(lead.attention.length, (n - PASS_ROWS) ** 2, `${name} read the first ${n - PASS_ROWS} words`);
      local.dispose();
    }
    const refused = await passOf(60, 'learned', [given]);
    assert.match(refused.refused, /context|position|rows/i);
    assert.equal(refused.attention, undefined);
    const next = await passOf(61, 'rotary', []);
    assert.equal(next.attention.buffer.byteLength, size, 'the next map came on the buffer the refused pass was given');
  });

  it('the summary comes whole with each view, placeholders where the analyses\' numbers go, each as wide as its number', async () => {
    for (const [gen, state] of [[40, STATE], [42, { ...STATE, heads: 2, shiftK: 1 }]]) {
      const pending = (await compute(gen, state)).summaries;
      let analysed = null;
      await labClient.analyse(gen, (name, data) => { if (name === 'summaries') analysed = data; });
      for (const which of ['disturb', 'shift', 'orth']) {
        assert.match(pending[which], /\u2012/, `${which}: stand-ins before the analyses`);
        assert.doesNotMatch(analysed[which], /[\u2012\u2060]/, `${which}: none after`);
        // Each stand-in has its number's shape (numbers.js, standIn): without its joiners, the same
        // length, so the same lines, and the summary does not move what is below it.
        const shown = pending[which].replaceAll('\u2060', '');
        assert.equal(shown.length, analysed[which].length, `${which}: ${shown} | ${analysed[which]}`);
      }
    }
  });

  it('a compute asked for no summaries (a typed key\'s, which the page leaves as it reads) brings none; the analyses still write them', async () => {
    const view = await labClient.compute({ gen: 44, state: STATE, trainedAvailable: false, trainedAsked: false, inputOnly: [], shown: {}, summaries: false });
    assert.ok(view.n > 0);
    assert.equal(view.summaries, null);
    let analysed = null;
    await labClient.analyse(44, (name, data) => { if (name === 'summaries') analysed = data; });
    assert.ok(['disturb', 'shift', 'orth'].every((which) => typeof analysed?.[which] === 'string'), JSON.stringify(analysed));
  });

  it('the summary\'s cross-term ratio is the same whether the additive lane\'s terms were skipped (folded) or sent', async () => {
    const orth = async (gen, state) => {
      const view = await compute(gen, state);
      let analysed = null;
      await labClient.analyse(gen, (name, data) => { if (name === 'summaries') analysed = data; });
      return [view, analysed.orth];
    };
    const [folded, fromSkipped] = await orth(50, STATE);
    const [open, fromOwn] = await orth(51, { ...STATE, moreOpen: ['additive'] });
    assert.equal(folded.result.additive.termsFolded, true);
    assert.ok(open.result.additive.terms.length > 0);
    assert.match(fromOwn, /cross terms e·p and p·e are \d/);
    assert.equal(fromSkipped, fromOwn);
  });

  it('the analyses after a pause send each panel its data, and stop once a newer compute comes', async () => {
    await compute(4, STATE);
    const names = [];
    const done = await labClient.analyse(4, (name) => names.push(name));
    assert.deepEqual(names, ['retrieval', 'shift', 'orth', 'summaries']);
    assert.ok(done.ms > 0);
    const cut = [];
    const stopped = labClient.analyse(4, (name) => cut.push(name));
    const view = await compute(5, { ...STATE, sentence: 'A newer sentence.' });
    assert.equal(await stopped, null, 'the overtaken analyses resolve with null');
    assert.ok(cut.length < 4, `the worker stopped before the end (${cut.join(', ')})`);
    assert.equal(view.tokens.length, 4);
  });

  it('channels (each <posenc-lab>) keep their own views: neither overtakes the other, and each sees its own sentence', async () => {
    const one = labClient.channel();
    const two = labClient.channel();
    const first = one.compute({ gen: 1, state: { ...STATE, sentence: 'one two three' } });
    const second = two.compute({ gen: 1, state: { ...STATE, sentence: 'four five', schemes: ['rotary'] } });
    const page = compute(6, STATE);
    const [a, b, c] = await Promise.all([first, second, page]);
    assert.deepEqual(a.tokens, ['one', 'two', 'three']);
    assert.deepEqual(b.tokens, ['four', 'five']);
    assert.deepEqual(b.result.schemes, ['rotary']);
    assert.ok(c.tokens.includes('queen'), 'the page\'s channel keeps its own sentence');
    // Each channel has its own figures' keys: its first view brings them all.
    assert.ok(b.figures.distance && b.figures.angles, 'a new channel gets every settings figure');
    // A compute on one channel leaves another's analyses running; `lanes` keeps them to its schemes.
    const names = [];
    const analysed = two.analyse(1, (name, data) => names.push([name, data]), { only: ['retrieval', 'shift'], lanes: true, summaries: false });
    await one.compute({ gen: 2, state: { ...STATE, sentence: 'six seven' } });
    assert.ok(await analysed, 'another channel\'s compute did not stop these analyses');
    assert.deepEqual(names.map(([name]) => name), ['retrieval', 'shift']);
    assert.deepEqual(names[0][1].schemes, ['rotary']);
    two.close();
    one.close();
  });
});

