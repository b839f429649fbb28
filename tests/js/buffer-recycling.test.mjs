// The views' buffers going round: the worker's pool (web/pipeline/buffer-pool.js), the page's
// count of which arrays its figures show (web/page/view-buffers.js) and the client that carries
// them back with the next compute (web/pipeline/lab-client.js).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MIN_RECYCLED_BYTES, createBufferPool } from '../../web/pipeline/buffer-pool.js';
import { HEADROOM, SPARE_FIT } from '../../web/buffer-room.mjs';
import { createViewBuffers } from '../../web/page/view-buffers.js';
import { createLabClient } from '../../web/pipeline/lab-client.js';

const filled = (n, from = 1) => Float32Array.from({ length: n }, (_, i) => from + i);
const BIG = MIN_RECYCLED_BYTES / 4; // floats in the smallest array that goes round

describe('the worker\'s buffer pool', () => {
  it('copies onto a buffer it was given: the same numbers, the given buffer, sent in transfer', () => {
    const pool = createBufferPool();
    const given = new ArrayBuffer(BIG * 4 + 8); // no size a fresh buffer has (whole 4 KB pages)
    pool.give([given]);
    const transfer = [];
    const source = filled(BIG);
    const copy = pool.copy(source, transfer);
    assert.equal(copy.buffer, given);
    assert.deepEqual(transfer, [given]);
    assert.deepEqual(copy, source);
    assert.equal(copy.length, BIG);
    assert.equal(pool.spare.length, 0, 'a buffer is used once');
  });

  it('lends an array to be written on a kept buffer, else a fresh one (roomy from one page up), sent in transfer', () => {
    const pool = createBufferPool();
    const given = new ArrayBuffer(BIG * 4 + 8);
    pool.give([given]);
    const transfer = [];
    const lent = pool.array(Float32Array, BIG, transfer);
    assert.ok(lent instanceof Float32Array);
    assert.equal(lent.buffer, given);
    assert.equal(lent.length, BIG);
    assert.deepEqual(transfer, [given]);
    assert.equal(pool.spare.length, 0, 'a buffer is used once');
    const fresh = pool.array(Int32Array, BIG + 1, transfer);
    assert.ok(fresh instanceof Int32Array);
    assert.equal(fresh.length, BIG + 1);
    assert.equal(fresh.buffer.byteLength, Math.ceil(((BIG + 1) * 4 * HEADROOM) / 4096) * 4096);
    const small = pool.array(Float32Array, BIG - 1, transfer);
    assert.equal(small.buffer.byteLength, (BIG - 1) * 4, 'under one page: a buffer of its own size');
    assert.deepEqual(transfer, [given, fresh.buffer, small.buffer]);
  });

  it('a buffer put back is the one the next array is lent, as if never taken; one given back waits its turn', () => {
    const pool = createBufferPool();
    const [a, b] = [new ArrayBuffer(BIG * 4 + 8), new ArrayBuffer(BIG * 4 + 16)];
    pool.give([a, b]);
    const taken = pool.array(Float32Array, BIG, []);
    assert.equal(taken.buffer, a);
    pool.putBack([taken.buffer, new ArrayBuffer(8)]);
    assert.deepEqual(pool.spare, [a, b], 'first again; a buffer under a page is not kept');
    pool.give([pool.array(Float32Array, BIG, []).buffer]);
    assert.deepEqual(pool.spare, [b, a], 'given back: after the ones kept');
  });

  it('a fresh buffer has headroom in whole pages; the copy keeps the array\'s type and length', () => {
    const pool = createBufferPool();
    const transfer = [];
    const source = Int32Array.from({ length: BIG + 1 }, (_, i) => i - 5);
    const copy = pool.copy(source, transfer);
    assert.ok(copy instanceof Int32Array);
    assert.deepEqual(copy, source);
    assert.equal(copy.buffer.byteLength, Math.ceil(((BIG + 1) * 4 * HEADROOM) / 4096) * 4096);
    assert.deepEqual(transfer, [copy.buffer]);
    const big = pool.copy(filled(100_000), []);
    assert.equal(big.buffer.byteLength % 4096, 0);
    assert.ok(big.buffer.byteLength >= 400_000 * HEADROOM && big.buffer.byteLength < 400_000 * HEADROOM + 4096);
  });

  it('serves an array up to SPARE_FIT× smaller than a kept buffer, and no smaller; never one too small', () => {
    const pool = createBufferPool();
    const size = 4 * MIN_RECYCLED_BYTES;
    const kept = new ArrayBuffer(size);
    pool.give([kept]);
    assert.notEqual(pool.copy(filled(size / 4 + 1), []).buffer, kept, 'too small');
    assert.notEqual(pool.copy(new Uint8Array(Math.floor(size / SPARE_FIT)), []).buffer, kept, 'at 1/SPARE_FIT the buffer would waste too much');
    assert.equal(pool.copy(new Uint8Array(Math.floor(size / SPARE_FIT) + 1), []).buffer, kept);
  });

  it('skips small, detached and empty buffers and what is not an ArrayBuffer; keeps at most maxBytes, dropping the oldest', () => {
    const pool = createBufferPool({ maxBytes: 2.5 * MIN_RECYCLED_BYTES });
    const detached = new ArrayBuffer(MIN_RECYCLED_BYTES);
    structuredClone(detached, { transfer: [detached] });
    pool.give([detached, new ArrayBuffer(0), new ArrayBuffer(MIN_RECYCLED_BYTES - 4), new Float32Array(BIG), null]);
    assert.equal(pool.spare.length, 0);
    const [a, b, c] = [1, 1, 1].map(() => new ArrayBuffer(MIN_RECYCLED_BYTES));
    pool.give([a, b]);
    pool.give([c]);
    assert.deepEqual(pool.spare, [b, c]);
    const empty = pool.copy(new Float32Array(0), []);
    assert.equal(empty.length, 0);
  });

  it('an array under MIN_RECYCLED_BYTES gets a fresh buffer of its own size, whatever is kept', () => {
    const pool = createBufferPool();
    const kept = new ArrayBuffer(MIN_RECYCLED_BYTES);
    pool.give([kept]);
    const source = filled(BIG - 1);
    const copy = pool.copy(source, []);
    assert.notEqual(copy.buffer, kept);
    assert.equal(copy.buffer.byteLength, source.byteLength);
    assert.deepEqual(copy, source);
    assert.deepEqual(pool.spare, [kept]);
  });
});

describe('the page\'s view buffers', () => {
  it('a lent array goes back once its last holder releases it, and once only', () => {
    const buffers = createViewBuffers();
    const weights = filled(BIG);
    const x = filled(BIG + 8);
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

  it('an array never lent (a trained map, the PE table) or too small never goes back, whoever holds and releases it', () => {
    const buffers = createViewBuffers();
    const trained = filled(BIG);
    buffers.hold(trained);
    buffers.release(trained);
    const lentNeverHeld = filled(BIG);
    buffers.lend([lentNeverHeld]);
    buffers.release(lentNeverHeld);
    const small = filled(BIG - 1); // fewer bytes than go round
    buffers.lend([small]);
    buffers.hold(small);
    buffers.release(small);
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
  it('with the next compute: those the caller no longer reads, and those of views it dropped as overtaken; not the small ones', async () => {
    const worker = fakeWorker();
    const client = createLabClient({ worker });
    const request = { state: {}, trainedAvailable: false, trainedAsked: false, inputOnly: [] };
    const older = client.compute({ ...request, gen: 1 });
    const newer = client.compute({ ...request, gen: 2 });
    const stale = { n: 2, result: { additive: { x: filled(BIG), weights: filled(BIG), slopes: filled(2) } }, pe: filled(BIG), trained: { 0: { ids: new Int32Array(BIG) } } };
    worker.answer({ type: 'view', channel: 0, gen: 1, view: stale });
    assert.equal(await older, null);
    worker.answer({ type: 'view', channel: 0, gen: 2, view: { n: 0, result: null } });
    await newer;
    const painted = filled(BIG);
    client.compute({ ...request, gen: 3, recycle: [painted.buffer, painted.buffer, filled(BIG - 1).buffer] });
    const { message, transfer } = worker.posted.at(-1);
    const expected = [stale.result.additive.x, stale.result.additive.weights, stale.pe, stale.trained[0].ids, painted].map((a) => a.buffer);
    assert.deepEqual(new Set(message.recycle), new Set(expected));
    assert.equal(message.recycle.length, expected.length, 'each buffer once');
    assert.deepEqual(transfer, message.recycle, 'transferred, not copied');
    client.compute({ ...request, gen: 4 });
    assert.deepEqual(worker.posted.at(-1).message.recycle, [], 'given back once');
  });
});
