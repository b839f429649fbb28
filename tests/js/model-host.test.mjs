// The models' side of the lab worker (web/pipeline/model-host.js) with a stand-in model that
// records each call: how much of a trained pass one worker task does. A keystroke's passes add at
// most PASS_ROWS rows to what a model last ran on; a lane's own request for more (a paste) makes
// its leading rows PASS_ROWS a task, and a newer request for the lane stops it between tasks and
// takes up the rows made.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createModelHost } from '../../dist/pipeline/model-host.js';
import { createBufferPool } from '../../dist/pipeline/buffer-pool.js';
import { PASS_ROWS } from '../../dist/pipeline/slices.js';
import { MAX_TOKENS } from '../../dist/pipeline/state.js';

const WORDS = ['<unk>', 'the', 'king', 'sat', 'on', 'a', 'throne', 'queen'];

// A model that answers every pass with zeros and records [kind, n]: 'map' for inspect (map and
// strip), 'rows' for tokenLosses (rows scored, no map). onRows runs inside each tokenLosses call.
function standInModel(calls, hooks = {}) {
  return {
    vocab: WORDS,
    unknownId: 0,
    config: { layers: 2, heads: 2, vocab: WORDS.length },
    inspect(ids, n, { fromRow = 0 } = {}) {
      calls.push(['map', n]);
      return { attention: new Float32Array((n - fromRow) * n), surprise: new Float32Array(n - 1) };
    },
    tokenLosses(ids, n) {
      calls.push(['rows', n]);
      hooks.onRows?.(n, ids);
      return new Float32Array(n - 1);
    },
    dispose() {},
  };
}

// A host with one loaded stand-in model named 'm'; posts are kept, and until(test) resolves once
// a post passes test. headsOnly: the load stops at its heads (the model has no output layer yet).
async function loadedHost(hooks, { headsOnly = false } = {}) {
  const calls = [];
  const posts = [];
  const waiting = [];
  const post = (message) => {
    posts.push(message);
    for (let i = waiting.length - 1; i >= 0; i--) if (waiting[i].test(message)) waiting.splice(i, 1)[0].resolve(message);
  };
  const lab = Promise.resolve({
    loadPretrained: async (name, { onHeads }) => {
      if (!headsOnly) return standInModel(calls, hooks);
      onHeads(standInModel(calls, hooks));
      return new Promise(() => {});
    },
  });
  const host = createModelHost(lab, post);
  const until = (test) => {
    const seen = posts.find(test);
    return seen ? Promise.resolve(seen) : new Promise((resolve) => waiting.push({ test, resolve }));
  };
  host.handle({ type: 'load', name: 'm' });
  await until((m) => m.type === 'loaded');
  return { host, calls, posts, until };
}

const tokens = (n, seed = 0) => Array.from({ length: n }, (_, i) => WORDS[1 + ((i * 5 + seed) % (WORDS.length - 1))]);
const ids = (words) => Int32Array.from(words, (w) => WORDS.indexOf(w));
const request = [{ lane: 'm', name: 'm', layer: 0, head: 0 }];

describe('the models in the lab worker', () => {
  it('a keystroke\'s pass adds at most PASS_ROWS rows to the model\'s last ones; a lane that needs more is left out', async () => {
    const { host, calls } = await loadedHost();
    const pool = createBufferPool();
    const words = tokens(PASS_ROWS + 1);
    assert.equal(host.passes(request, words, pool).passes.m, undefined, `${PASS_ROWS + 1} rows from none: left out`);
    assert.deepEqual(calls, []);
    assert.equal(host.passes(request, words.slice(0, PASS_ROWS), pool).passes.m.attention.length, PASS_ROWS ** 2);
    // PASS_ROWS more rows after those: run; one more than that: left out.
    const longer = [...words.slice(0, PASS_ROWS), ...tokens(PASS_ROWS, 3)];
    assert.ok(host.passes(request, longer, pool).passes.m.attention);
    assert.equal(host.passes(request, [...longer, ...tokens(PASS_ROWS + 1, 1)], pool).passes.m, undefined);
    // A word changed at the start: every row is new again.
    assert.equal(host.passes(request, ['queen', ...longer.slice(1)], pool).passes.m, undefined);
    assert.deepEqual(calls, [['map', PASS_ROWS], ['map', 2 * PASS_ROWS]]);
  });

  it('a keystroke\'s pass sends the map\'s rows from the first id that differs from those the lane shows (at least the last row)', async () => {
    const { host } = await loadedHost();
    const pool = createBufferPool();
    const words = tokens(9);
    const pass = (shownIds, typed) => host.passes([{ ...request[0], shownIds }], typed, pool).passes.m;
    const first = pass(undefined, words);
    assert.deepEqual([first.fromRow, first.attention.length], [0, 81], 'no map shown: the whole map');
    const other = (word) => WORDS.find((w) => w !== '<unk>' && w !== word);
    const last = [...words.slice(0, 8), other(words[8])];
    const typed = pass(first.ids, last);
    assert.deepEqual([typed.fromRow, typed.attention.length], [8, 9], 'the last word changed: its row alone');
    const middle = [...words];
    middle[3] = other(words[3]);
    const changed = pass(first.ids, middle);
    assert.deepEqual([changed.fromRow, changed.attention.length], [3, 6 * 9], 'rows from the changed word');
    const longer = pass(first.ids, [...words, 'the']);
    assert.deepEqual([longer.fromRow, longer.attention.length], [9, 10], 'one word more: its row');
    const shorter = pass(first.ids, words.slice(0, 7));
    assert.deepEqual([shorter.fromRow, shorter.attention.length], [6, 7], 'two words fewer: the last row');
    assert.equal(pass(first.ids, words).unchanged, true, 'the ids shown: no pass');
  });

  it('a lane\'s own request makes its leading rows PASS_ROWS a task, then its map from them', async () => {
    const { host, calls, until } = await loadedHost();
    const n = 3 * PASS_ROWS + 5;
    host.handle({ type: 'inspect', lane: 'm', seq: 1, name: 'm', ids: ids(tokens(n)), layer: 0, head: 0 });
    const answer = await until((m) => m.type === 'inspected' && m.seq === 1);
    assert.equal(answer.attention.length, n * n);
    assert.deepEqual(calls, [['rows', PASS_ROWS], ['rows', 2 * PASS_ROWS], ['rows', 3 * PASS_ROWS], ['map', n]]);
  });

  it('a newer request for the lane stops one between its tasks and takes up the rows it made', async () => {
    const newer = ids(tokens(4 * PASS_ROWS));
    let sent = false;
    const { host, calls, posts, until } = await loadedHost({
      // While the older request makes its first rows, the newer one arrives.
      onRows: () => {
        if (sent) return;
        sent = true;
        host.handle({ type: 'inspect', lane: 'm', seq: 2, name: 'm', ids: newer, layer: 0, head: 0 });
      },
    });
    host.handle({ type: 'inspect', lane: 'm', seq: 1, name: 'm', ids: ids(tokens(4 * PASS_ROWS)), layer: 0, head: 0 });
    await until((m) => m.type === 'inspected' && m.seq === 2);
    assert.ok(posts.some((m) => m.type === 'superseded' && m.seq === 1), 'the older one is superseded');
    assert.ok(!posts.some((m) => m.type === 'inspected' && m.seq === 1), 'and never answered');
    // The same words: the newer request goes on from the first PASS_ROWS rows the older one made.
    assert.deepEqual(calls, [['rows', PASS_ROWS], ['rows', 2 * PASS_ROWS], ['rows', 3 * PASS_ROWS], ['map', 4 * PASS_ROWS]]);
  });

  it('after a key that leaves the words, the model scores the row of the last one with any next id; the key that adds a word then adds one row', async () => {
    const scored = [];
    const { host, calls } = await loadedHost({ onRows: (n, rowIds) => scored.push([...rowIds]) });
    const pool = createBufferPool();
    const words = tokens(2 * PASS_ROWS);
    host.passes(request, words.slice(0, PASS_ROWS), pool);
    const shown = host.passes(request, words, pool).passes.m;
    const ahead = (requests, stale = () => false) => host.scoreAhead(requests, stale);
    await ahead([{ ...request[0], shownIds: shown.ids }]);
    assert.deepEqual(scored, [[...shown.ids, 0]], 'the ids shown, then the unknown id');
    assert.deepEqual(calls.at(-1), ['rows', 2 * PASS_ROWS + 1]);
    await ahead([{ ...request[0], shownIds: shown.ids }]);
    assert.equal(scored.length, 1, 'scored once: the model\'s cache holds one id more than those shown now');
    // The model's cache holds the ids shown and one more: a word added is one new row, run.
    const added = host.passes([{ ...request[0], shownIds: shown.ids }], [...words, 'queen'], pool).passes.m;
    assert.deepEqual([added.fromRow, added.attention.length], [2 * PASS_ROWS, 2 * PASS_ROWS + 1]);
    const before = calls.length;
    await ahead([{ ...request[0], shownIds: shown.ids }]);
    assert.equal(calls.length, before, 'the cache holds other ids than those shown: nothing scored');
    await ahead([{ ...request[0], shownIds: added.ids }], () => true);
    assert.equal(calls.length, before, 'a newer compute came: nothing scored');
    await ahead([{ ...request[0] }]);
    assert.equal(calls.length, before, 'no map shown: nothing scored');
  });

  it('scoring ahead skips a heads-only model, a sentence at the page\'s cut, and keeps the cache a refusal left', async () => {
    const heads = await loadedHost(undefined, { headsOnly: true });
    const pool = createBufferPool();
    const shown = heads.host.passes(request, tokens(5), pool).passes.m;
    await heads.host.scoreAhead([{ ...request[0], shownIds: shown.ids }], () => false);
    assert.deepEqual(heads.calls, [['map', 5]], 'no output layer yet: nothing scored');
    let refuse = false;
    const { host, calls } = await loadedHost({ onRows: () => { if (refuse) throw new RangeError('past the table'); } });
    let words = tokens(PASS_ROWS);
    let ids = host.passes(request, words, pool).passes.m.ids;
    for (let more = 1; words.length < MAX_TOKENS; more++) {
      words = [...words, ...tokens(Math.min(PASS_ROWS, MAX_TOKENS - words.length), more)];
      ids = host.passes(request, words, pool).passes.m.ids;
    }
    const before = calls.length;
    await host.scoreAhead([{ ...request[0], shownIds: ids }], () => false);
    assert.equal(calls.length, before, `${MAX_TOKENS} tokens: no word after them is read`);
    const shorter = host.passes(request, words.slice(0, MAX_TOKENS - 2), pool).passes.m;
    refuse = true;
    await host.scoreAhead([{ ...request[0], shownIds: shorter.ids }], () => false);
    assert.deepEqual(calls.at(-1), ['rows', MAX_TOKENS - 1], 'asked, and refused');
    // The refusal left the cache on the ids shown: a word added is one row, not a pass past PASS_ROWS.
    const added = host.passes([{ ...request[0], shownIds: shorter.ids }], words.slice(0, MAX_TOKENS - 1), pool).passes.m;
    assert.deepEqual([added.fromRow, added.attention.length], [MAX_TOKENS - 2, MAX_TOKENS - 1]);
  });
});
