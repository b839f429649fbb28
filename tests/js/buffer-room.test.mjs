// web/buffer-room.mjs: which buffer serves an array, a fresh one's room, and copyInto, which
// compare()'s reuse and the lab worker's buffer pool both follow.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { HEADROOM, PAGE_BYTES, SPARE_FIT, copyInto, fits, roomyBuffer } from '../../web/buffer-room.mjs';

const filled = (Type, n, from = 1) => Type.from({ length: n }, (_, i) => from + i);

describe('buffer room', () => {
  it('a buffer serves an array it holds, under SPARE_FIT× its size or no bigger than a fresh one for it', () => {
    const big = 40 * PAGE_BYTES;
    assert.equal(fits(new ArrayBuffer(big), big), true);
    assert.equal(fits(new ArrayBuffer(big), big + 1), false, 'too small');
    assert.equal(fits(new ArrayBuffer(big), Math.ceil(big / SPARE_FIT) + 1), true);
    assert.equal(fits(new ArrayBuffer(big), Math.floor(big / SPARE_FIT)), false, 'wastes a third of itself');
    // Small arrays: a fresh buffer is at least a page.
    assert.equal(fits(new ArrayBuffer(PAGE_BYTES), 1), true);
    assert.equal(fits(new ArrayBuffer(2 * PAGE_BYTES), PAGE_BYTES + 1), true);
    assert.equal(fits(new ArrayBuffer(2 * PAGE_BYTES), PAGE_BYTES), true, 'a fresh buffer for a page has two');
    assert.equal(fits(new ArrayBuffer(3 * PAGE_BYTES), PAGE_BYTES), false);
    assert.equal(fits(new ArrayBuffer(0), 0), true);
  });

  it('a fresh buffer has HEADROOM over the array in whole pages, and serves the array and a few more tokens\' worth', () => {
    for (const bytes of [1, 4, 4095, 4096, 4097, 16_900, 1_048_576, 1_052_676]) {
      const buffer = roomyBuffer(bytes);
      assert.equal(buffer.byteLength % PAGE_BYTES, 0, `${bytes}`);
      assert.ok(buffer.byteLength >= bytes * HEADROOM && buffer.byteLength < bytes * HEADROOM + PAGE_BYTES, `${bytes}`);
      assert.ok(fits(buffer, bytes), `${bytes}: a fresh buffer serves its own array`);
    }
    // n×n floats: from 512 tokens a fresh buffer serves 527 tokens, not 544.
    const at512 = roomyBuffer(512 * 512 * 4);
    assert.ok(fits(at512, 527 * 527 * 4));
    assert.ok(!fits(at512, 544 * 544 * 4));
    assert.equal(roomyBuffer(0).byteLength, 0);
  });

  it('copyInto: no old array, a plain copy; the old array itself at its length; its buffer where it has room', () => {
    const source = filled(Float32Array, 300);
    const plain = copyInto(source, undefined);
    assert.deepEqual(plain, source);
    assert.equal(plain.buffer.byteLength, source.byteLength);

    const same = new Float32Array(300).fill(-7);
    assert.equal(copyInto(source, same), same);
    assert.deepEqual(same, source);

    const roomy = new Float32Array(roomyBuffer(1200 * 4), 0, 1200).fill(-7);
    const longer = filled(Float32Array, 1250, 5);
    const onRoomy = copyInto(longer, roomy);
    assert.equal(onRoomy.buffer, roomy.buffer);
    assert.equal(onRoomy.length, 1250);
    assert.deepEqual(onRoomy, longer);
    const shorter = filled(Float32Array, 1100, 9);
    const shrunk = copyInto(shorter, onRoomy);
    assert.equal(shrunk.buffer, roomy.buffer);
    assert.deepEqual(shrunk, shorter);
  });

  it('copyInto: a fresh roomy buffer when the old one is too small, far too big, detached, offset or of another type', () => {
    const source = filled(Float32Array, 2000);
    const cases = {
      'too small': new Float32Array(1999),
      'far too big': new Float32Array(4000),
      detached: (() => { const a = new Float32Array(2000); structuredClone(a.buffer, { transfer: [a.buffer] }); return a; })(),
      offset: new Float32Array(new ArrayBuffer(8200 + 64), 64, 10),
      'another type': new Int32Array(2000),
    };
    for (const [label, old] of Object.entries(cases)) {
      const before = old.buffer.byteLength ? Array.from(old) : [];
      const copy = copyInto(source, old);
      assert.notEqual(copy.buffer, old.buffer, label);
      assert.ok(copy instanceof Float32Array, label);
      assert.deepEqual(copy, source, label);
      assert.equal(copy.buffer.byteLength, roomyBuffer(source.byteLength).byteLength, label);
      assert.deepEqual(old.buffer.byteLength ? Array.from(old) : [], before, `${label}: the old array is left as it was`);
    }
  });
});
