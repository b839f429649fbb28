// The views' buffers going round: the worker's pool (web/pipeline/buffer-pool.js), the page's
// count of which arrays its figures show (web/page/view-buffers.js) and the client that carries
// them back with the next compute (web/pipeline/lab-client.js).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { HEADROOM, SPARE_FIT, createBufferPool } from '../../web/pipeline/buffer-pool.js';
import { createViewBuffers } from '../../web/page/view-buffers.js';
import { createLabClient } from '../../web/pipeline/lab-client.js';

const filled = (n, from = 1) => Float32Array.from({ length: n }, (_, i) => from + i);

describe('the worker\'s buffer pool', () => {
  it('copies onto a buffer it was given: the same numbers, the given buffer, sent in transfer', () => {
    const pool = createBufferPool();
    const given = new ArrayBuffer(1000 * 4 + 8); // no size a fresh buffer has (whole 4 KB pages)
    pool.give([given]);
    const transfer = [];
    const source = filled(1000);
    const copy = pool.copy(source, transfer);
    assert.equal(copy.buffer, given);
    assert.deepEqual(transfer, [given]);
    assert.deepEqual(copy, source);
    assert.equal(copy.length, 1000);
    assert.equal(pool.spare.length, 0, 'a buffer is used once');
  });

  it('a fresh buffer has headroom in whole pages; the copy keeps the array\'s type and length', () => {
    const pool = createBufferPool();
    const transfer = [];
    const source = Int32Array.from([3, -1, 4, 1, 5]);
    const copy = pool.copy(source, transfer);
    assert.ok(copy instanceof Int32Array);
    assert.deepEqual(copy, source);
    assert.equal(copy.buffer.byteLength, 4096);
    const big = pool.copy(filled(100_000), []);
    assert.equal(big.buffer.byteLength % 4096, 0);
    assert.ok(big.buffer.byteLength >= 400_000 * HEADROOM && big.buffer.byteLength < 400_000 * HEADROOM + 4096);
  });

  it('serves an array up to SPARE_FIT× smaller than a kept buffer, and no smaller; never one too small', () => {
    const pool = createBufferPool();
    const size = 4000;
    const kept = new ArrayBuffer(size);
    pool.give([kept]);
    assert.notEqual(pool.copy(filled(size / 4 + 1), []).buffer, kept, 'too small');
    assert.notEqual(pool.copy(new Uint8Array(Math.floor(size / SPARE_FIT)), []).buffer, kept, 'at 1/SPARE_FIT the buffer would waste too much');
    assert.equal(pool.copy(new Uint8Array(Math.floor(size / SPARE_FIT) + 1), []).buffer, kept);
  });

  it('skips detached and empty buffers and what is not an ArrayBuffer; keeps at most maxBytes, dropping the oldest', () => {
    const pool = createBufferPool({ maxBytes: 10_000 });
    const detached = new ArrayBuffer(64);
    structuredClone(detached, { transfer: [detached] });
    pool.give([detached, new ArrayBuffer(0), new Float32Array(4), null]);
    assert.equal(pool.spare.length, 0);
    const [a, b, c] = [4000, 4000, 4000].map((n) => new ArrayBuffer(n));
    pool.give([a, b]);
    pool.give([c]);
    assert.deepEqual(pool.spare, [b, c]);
    const empty = pool.copy(new Float32Array(0), []);
    assert.equal(empty.length, 0);
  });
});

describe('the page\'s view buffers', () => {
  it('a lent array goes back once its last holder releases it, and once only', () => {
    const buffers = createViewBuffers();
    const weights = filled(16);
    const x = filled(8);
    buffers.lend([weights, x]);
    buffers.hold(weights); // the lane's attention figure
    buffers.hold(weights); // the phone tab's thumbnail of it
    buffers.hold(x);
    buffers.release(weights);
    assert.deepEqual(buffers.take(), [], 'the thumbnail still shows it');
    buffers.release(weights);
    assert.deepEqual(buffers.take(), [weights.buffer]);
    buffers.release(weights);
    buffers.hold(weights);
    buffers.release(weights);
    assert.deepEqual(buffers.take(), [], 'given back once');
    buffers.release(x);
    assert.deepEqual(buffers.take(), [x.buffer]);
  });

  it('an array never lent (a trained map, the PE table) never goes back, whoever holds and releases it', () => {
    const buffers = createViewBuffers();
    const trained = filled(16);
    buffers.hold(trained);
    buffers.release(trained);
    const lentNeverHeld = filled(4);
    buffers.lend([lentNeverHeld]);
    buffers.release(lentNeverHeld);
    assert.deepEqual(buffers.take(), []);
  });
});

// A worker stand-in that records what the client posts and answers when told to.
function fakeWorker() {
  const worker = new EventTarget();
  worker.posted = [];
  worker.postMessage = (message, transfer = []) => worker.posted.push({ message, transfer });
  worker.answer = (data) => worker.dispatchEvent(Object.assign(new Event('message'), { data }));
  worker.terminate = () => {};
  return worker;
}

describe('the lab client gives buffers back', () => {
  it('with the next compute: those the caller no longer reads, and those of views it dropped as overtaken', async () => {
    const worker = fakeWorker();
    const client = createLabClient({ worker });
    const request = { state: {}, trainedAvailable: false, trainedAsked: false, inputOnly: [] };
    const older = client.compute({ ...request, gen: 1 });
    const newer = client.compute({ ...request, gen: 2 });
    const stale = { n: 2, result: { additive: { x: filled(4), weights: filled(4) } }, pe: filled(2), trained: { 0: { ids: Int32Array.of(1, 2) } } };
    worker.answer({ type: 'view', channel: 0, gen: 1, view: stale });
    assert.equal(await older, null);
    worker.answer({ type: 'view', channel: 0, gen: 2, view: { n: 0, result: null } });
    await newer;
    const painted = filled(9);
    client.compute({ ...request, gen: 3, recycle: [painted.buffer, painted.buffer] });
    const { message, transfer } = worker.posted.at(-1);
    const expected = [stale.result.additive.x, stale.result.additive.weights, stale.pe, stale.trained[0].ids, painted].map((a) => a.buffer);
    assert.deepEqual(new Set(message.recycle), new Set(expected));
    assert.equal(message.recycle.length, expected.length, 'each buffer once');
    assert.deepEqual(transfer, message.recycle, 'transferred, not copied');
    client.compute({ ...request, gen: 4 });
    assert.deepEqual(worker.posted.at(-1).message.recycle, [], 'given back once');
  });
});
