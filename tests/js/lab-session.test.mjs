// The lab worker's session (web/pipeline/lab-session.js) with the worker's buffer pool: the lanes'
// n×n arrays of a view go to the page as they are, not copied, and whatever the session reads of
// them later (the analyses after typing pauses) it computes again. Each view's buffers are
// transferred here as the worker's postMessage transfers them (structuredClone detaches them).
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../../dist/posenc.mjs';
import { createLabSession, createLabSources } from '../../dist/pipeline/lab-session.js';
import { createBufferPool } from '../../dist/pipeline/buffer-pool.js';
import { DEFAULTS } from '../../dist/pipeline/state.js';

const WORDS = 'the king sat on the throne and the queen smiled at the king while people walked along the river'.split(' ');
// 40 tokens and two heads: every lane's weights (2·40² floats) are over a page, so they go round.
const STATE = { ...DEFAULTS, vectors: 'synthetic', heads: 2, sentence: Array.from({ length: 40 }, (_, i) => WORDS[i % WORDS.length]).join(' ') };
const N_BY_N = ['weights', 'terms', 'masked', 'unmasked'];

/** A session on a pool whose copies are listed (their lengths) in `copied`. */
function pooledSession(lab, sources) {
  const pool = createBufferPool();
  const copied = [];
  const buffers = { ...pool, copy(array, transfer) { copied.push(array.length); return pool.copy(array, transfer); } };
  return { pool, copied, session: createLabSession(lab, sources, { buffers }) };
}

const computeOf = (session, state) => session.compute({ state, trainedAvailable: false, trainedAsked: false, inputOnly: [], shown: {}, summaries: false });

/** The view's arrays as the page receives them: the session's transferred (detached), the page's copies. */
const send = ({ view, transfer }) => structuredClone({ view, transfer }, { transfer });

/** Every analysis the session yields for its last view, run to its end. */
function analysesOf(session) {
  const done = [];
  for (const step of session.analyses()) if (step) done.push(step);
  return done;
}

describe('the lab session on the worker\'s pool', () => {
  let lab;
  let sources;
  before(async () => {
    lab = await load();
    sources = createLabSources(lab);
  });

  it('sends each lane\'s n×n arrays as they are, and writes the next view\'s on the buffers given back', () => {
    const { pool, copied, session } = pooledSession(lab, sources);
    const first = computeOf(session, STATE);
    const schemes = first.view.result.schemes;
    const nByN = schemes.flatMap((scheme) => N_BY_N.map((key) => first.view.result[scheme][key]).filter((a) => a?.length));
    assert.ok(nByN.length >= schemes.length, 'every lane has its weights');
    for (const array of nByN) assert.ok(first.transfer.includes(array.buffer), 'each goes in the transfer list');
    const lengths = new Set(nByN.map((array) => array.length));
    assert.deepEqual(copied.filter((length) => lengths.has(length)), [], `no n×n array is copied (copies: ${copied.join(', ')})`);
    assert.ok(copied.length > 0, 'the lanes\' x are copied (the session reads them again)');

    // The page gives the buffers back; a letter typed at the end leaves 40 tokens.
    const lengthOf = Object.fromEntries(schemes.map((scheme) => [scheme, first.view.result[scheme].weights.length]));
    const received = send(first);
    assert.equal(first.view.result[schemes[0]].weights.length, 0, 'sent: the session\'s own arrays are detached');
    pool.give(received.transfer);
    copied.length = 0;
    const second = computeOf(session, { ...STATE, sentence: `${STATE.sentence}s` });
    for (const scheme of schemes) {
      const { weights } = second.view.result[scheme];
      assert.equal(weights.length, lengthOf[scheme], `${scheme}: the same 40 tokens`);
      assert.ok(received.transfer.includes(weights.buffer), `${scheme}: the weights are written on a buffer the page gave back`);
    }
    assert.deepEqual(copied.filter((length) => lengths.has(length)), [], 'again no n×n array is copied');
  });

  for (const moreOpen of [[], ['additive']]) {
    it(`the analyses after a view sent whole read the same numbers as a session that keeps its arrays (open lanes: ${moreOpen.join(', ') || 'none'})`, () => {
      const state = { ...STATE, moreOpen };
      const { session } = pooledSession(lab, sources);
      const fresh = createLabSession(lab, sources); // no pool: its views are copies, its arrays stay
      send(computeOf(session, state));
      computeOf(fresh, state);
      const sent = analysesOf(session);
      assert.deepEqual(sent.map((step) => step.name), ['retrieval', 'shift', 'orth', 'summaries']);
      assert.deepEqual(sent, analysesOf(fresh));
    });
  }
});
