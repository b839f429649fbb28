// A small safetensors reader written from the format's description alone (8-byte little-endian
// header length, a JSON header of { dtype, shape, data_offsets } per tensor plus __metadata__,
// then little-endian data), independent of the core's reader: what any other tool would see.
import assert from 'node:assert/strict';

export function readSafetensors(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLength = Number(view.getBigUint64(0, true));
  const header = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(8, 8 + headerLength)));
  const dataStart = 8 + headerLength;
  const tensors = {};
  let covered = 0;
  for (const [name, info] of Object.entries(header)) {
    if (name === '__metadata__') continue;
    assert.equal(info.dtype, 'F32', name);
    const [begin, end] = info.data_offsets;
    const values = new Float32Array(bytes.slice(dataStart + begin, dataStart + end).buffer);
    assert.equal(values.length, info.shape.reduce((a, b) => a * b, 1), `${name} size`);
    covered += end - begin;
    tensors[name] = { shape: info.shape, values };
  }
  assert.equal(covered, bytes.length - dataStart, 'the tensors tile the data section');
  return { headerLength, metadata: header.__metadata__, tensors };
}
