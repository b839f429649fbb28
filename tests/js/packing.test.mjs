// The shipped models' wire format (web/packed-weights.mjs, scripts/pack-models.mjs): binary16
// rounding exhaustively; a packed file expands to its source's metadata (the vocabulary from
// GloVe's words) and tensors, in order, vectors bit for bit, matrices within half a quantisation
// step, frozen PCA rows bit for bit; malformed files are
// refused by name; the build's packed files are what pack-models makes from data/models/ (so the
// recorded measurement, data/models/packing.json, is of these files) and the three default models
// travel in half their source bytes or fewer; each packed model stays within the recorded and the
// stated tolerance of its F16 source in both builds; and the file m.save() gives (what a download
// holds) is complete and rebuilds the page's model exactly. The output layer comes last, so a
// file's first headsBytes (the manifest's heads) expand, headsOnly, to the same tensors with a
// zero lm_head, and to a model whose attention is the complete one's bit for bit.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { load } from '../../dist/posenc.mjs';
import {
  AFTER_HEADS, PACKING, PACKING_KEY, expandWeights, f16Bits, headsBytes, f16Value, packedFile, readSafetensors, tensorView, tensorsOf, writeSafetensors,
} from '../../web/packed-weights.mjs';
import { packWeights } from '../../scripts/pack-models.mjs';
import { TOLERANCE, compareModels, heldOutLoss, windowsFor } from '../../scripts/measure-packing.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BUILT = JSON.parse(readFileSync(join(ROOT, 'dist/models/manifest.json'), 'utf8'));
const RECORD = JSON.parse(readFileSync(join(ROOT, 'data/models/packing.json'), 'utf8'));
const GLOVE = new Uint8Array(readFileSync(join(ROOT, BUILT.corpus.vectors)));
const HELD_OUT = readFileSync(join(ROOT, BUILT.corpus.heldOut), 'utf8');
const DEFAULTS = ['additive', 'concatenated', 'rotary'];
const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');
const source = (name) => new Uint8Array(readFileSync(join(ROOT, 'data/models', `${name}.safetensors`)));
const packed = (name) => new Uint8Array(readFileSync(join(ROOT, 'dist/models', packedFile(name))));

// A small F16 file of the trainer's kind: a matrix, a vector, and the metadata pack-models reads.
function smallFile(seed) {
  let s = seed;
  const next = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32 - 0.5) * 4;
  const f16 = (count) => new Uint8Array(Uint16Array.from({ length: count }, () => f16Bits(next())).buffer);
  const matrix = f16(7 * 5);
  matrix.set([0, 0, 0, 0, 0, 0, 0, 0, 0, 0], 0);  // an all-zero row: scale 0
  return writeSafetensors([
    ['h.0.attn.c_attn.weight', { dtype: 'F16', shape: [7, 5], bytes: matrix }],
    ['h.0.ln_1.bias', { dtype: 'F16', shape: [5], bytes: f16(5) }],
  ], { posenc: '{}', vocab: '["<unk>","the","king"]' });
}

describe('packed weights: the format', () => {
  it('f16Bits rounds every binary16 value, midpoint (to even) and near-midpoint correctly', () => {
    for (let bits = 0; bits < 0x7bff; bits++) {
      const [v, w] = [f16Value(bits), f16Value(bits + 1)];
      const mid = (v + w) / 2;
      for (const sign of [0, 0x8000]) {
        const s = sign ? -1 : 1;
        assert.equal(f16Bits(s * v), sign | bits);
        assert.equal(f16Bits(s * mid), sign | (bits & 1 ? bits + 1 : bits));
        assert.equal(f16Bits(s * (mid + (w - v) * 1e-6)), sign | (bits + 1));
        assert.equal(f16Bits(s * (mid - (w - v) * 1e-6)), sign | bits);
      }
    }
    assert.equal(f16Bits(65519.99), 0x7bff);
    assert.equal(f16Bits(65520), 0x7c00);
    assert.equal(f16Bits(-Infinity), 0xfc00);
    assert.equal(f16Bits(-0), 0x8000);
    assert.ok(Number.isNaN(f16Value(f16Bits(NaN))));
  });

  it('a packed file expands to its source: same tensors in order, vectors bit for bit, matrices within half a step', () => {
    for (const seed of [1, 2, 3]) {
      const file = smallFile(seed);
      const wire = packWeights(file, GLOVE);
      const out = readSafetensors(expandWeights(wire, { vectors: GLOVE }));
      const src = readSafetensors(file);
      assert.deepEqual(out.header.__metadata__, src.header.__metadata__);
      assert.deepEqual(tensorsOf(out.header).map(([n, t]) => [n, t.shape]), tensorsOf(src.header).map(([n, t]) => [n, t.shape]));
      const [[, mOut], [, vOut]] = tensorsOf(out.header);
      const [[, mSrc], [, vSrc]] = tensorsOf(src.header);
      assert.deepEqual(tensorView(out.data, vOut), tensorView(src.data, vSrc));
      const [a, b] = [tensorView(src.data, mSrc), tensorView(out.data, mOut)];
      for (let r = 0; r < 7; r++) {
        const row = Array.from(a.subarray(r * 5, r * 5 + 5), f16Value);
        const step = Math.max(...row.map(Math.abs)) / 127;
        // Half a step, plus the binary16 rounding of the result (half an ulp, at most 2^-11 relative).
        row.forEach((v, c) => assert.ok(Math.abs(f16Value(b[r * 5 + c]) - v) <= step / 2 * 1.0001 + Math.abs(v) * 2 ** -11,
          `seed ${seed} row ${r} col ${c}`));
      }
      assert.ok(Array.from(b.subarray(0, 5)).every((x) => x === 0), 'an all-zero row stays zero');
    }
  });

  it('refuses a file that is not packed, a missing part and frozen rows without vectors, by name', () => {
    assert.throws(() => expandWeights(smallFile(1)), (e) => e instanceof RangeError && e.message.includes(PACKING_KEY));
    assert.throws(() => expandWeights(new Uint8Array(4)), RangeError);
    assert.throws(() => expandWeights('file'), TypeError);
    const { header, data } = readSafetensors(packWeights(smallFile(1), GLOVE));
    const kept = tensorsOf(header).filter(([name]) => !name.endsWith('/scale'))
      .map(([name, t]) => [name, { dtype: t.dtype, shape: t.shape, bytes: data.subarray(...t.data_offsets) }]);
    assert.throws(() => expandWeights(writeSafetensors(kept, header.__metadata__), { vectors: GLOVE }), /h\.0\.attn\.c_attn\.weight has no scale/);
    assert.throws(() => expandWeights(packed('rotary')), /vocabulary is rows of word vectors: pass options\.vectors/);
    assert.throws(() => expandWeights(packed('concatenated'), { vectors: new Uint8Array(64) }), /PELVEC01/);
  });
});

describe('packed weights: the heads first', () => {
  it('every tensor but the output layer comes before it; headsBytes ends where its first piece starts', () => {
    for (const entry of BUILT.models) {
      const wire = packed(entry.name);
      const { header, data } = readSafetensors(wire);
      const start = wire.length - data.length;
      const late = tensorsOf(header).filter(([key]) => AFTER_HEADS.includes(key.split('/')[0]));
      assert.deepEqual(late.map(([key]) => key), ['lm_head.weight', 'lm_head.weight/scale'], entry.name);
      assert.equal(headsBytes(wire), start + late[0][1].data_offsets[0], entry.name);
      assert.deepEqual(entry.heads, { bytes: headsBytes(wire), sha256: sha256(wire.subarray(0, headsBytes(wire))) }, entry.name);
    }
  });

  it("the first headsBytes expand (headsOnly) to the whole file's tensors with lm_head zero; fewer bytes, or no headsOnly, are refused by name", () => {
    for (const name of DEFAULTS) {
      const wire = packed(name);
      const cut = headsBytes(wire);
      const whole = readSafetensors(expandWeights(wire, { vectors: GLOVE }));
      for (const end of [cut, cut + 1000]) {  // also cut inside lm_head: still heads-only
        const early = readSafetensors(expandWeights(wire.subarray(0, end), { vectors: GLOVE, headsOnly: true }));
        assert.deepEqual(early.header, whole.header, `${name}: the same tensors, shapes and metadata`);
        for (const [key, spec] of tensorsOf(whole.header)) {
          const values = tensorView(early.data, spec);
          if (key === 'lm_head.weight') assert.ok(values.every((v) => v === 0), `${name}: lm_head is zero`);
          else assert.deepEqual(values, tensorView(whole.data, spec), `${name}: ${key}`);
        }
      }
      assert.throws(() => expandWeights(wire.subarray(0, cut), { vectors: GLOVE }), /tensor lm_head\.weight runs past the end of the file/);
      assert.throws(() => expandWeights(wire.subarray(0, cut - 1), { vectors: GLOVE, headsOnly: true }), /tensor ln_f\.bias runs past the end of the file/);
    }
  });

  it('a file whose output layer is not last has no heads prefix: headsBytes refuses it by name', () => {
    const { header, data } = readSafetensors(packed('rotary'));
    const tensors = tensorsOf(header).map(([key, t]) => [key, { dtype: t.dtype, shape: t.shape, bytes: data.subarray(...t.data_offsets) }]);
    const moved = [...tensors.slice(-2), ...tensors.slice(0, -2)];
    assert.throws(() => headsBytes(writeSafetensors(moved, header.__metadata__)), (e) => e instanceof RangeError && /vocab\/rows comes after the output layer/.test(e.message));
  });
});

describe('packed weights: the built files', () => {
  it("dist/'s packed files are pack-models' output from data/models/, as measured in data/models/packing.json", () => {
    assert.equal(BUILT.models.length, RECORD.models.length);
    for (const [i, entry] of BUILT.models.entries()) {
      const wire = packed(entry.name);
      assert.equal(wire.length, entry.bytes, entry.name);
      assert.equal(sha256(wire), entry.sha256, entry.name);
      assert.equal(sha256(packWeights(source(entry.name), GLOVE)), entry.sha256, `${entry.name}: packing is deterministic`);
      assert.equal(readSafetensors(wire).header.__metadata__[PACKING_KEY], PACKING);
      const record = RECORD.models[i];
      assert.equal(record.name, entry.name);
      assert.equal(record.sha256.packed, entry.sha256, `${entry.name}: data/models/packing.json measured another file (rerun scripts/measure-packing.mjs)`);
      assert.equal(sha256(expandWeights(wire, { vectors: GLOVE })), record.sha256.expanded, entry.name);
    }
  });

  it('the three default models travel in half their source bytes or fewer', () => {
    const sum = (key) => DEFAULTS.reduce((total, name) => {
      const entry = BUILT.models.find((m) => m.name === name);
      return total + (key === 'packed' ? entry.bytes : entry.source.bytes);
    }, 0);
    assert.ok(sum('packed') <= sum('source') / 2, `${sum('source')} → ${sum('packed')} bytes`);
  });

  it("concatenated's frozen PCA rows are rebuilt from GloVe bit for bit", () => {
    const src = readSafetensors(source('concatenated'));
    const out = readSafetensors(expandWeights(packed('concatenated'), { vectors: GLOVE }));
    assert.deepEqual(tensorView(out.data, out.header['wte.weight']), tensorView(src.data, src.header['wte.weight']));
  });

  // expandWeights keeps the rows it rebuilt last for a vector file (the page expands each model
  // twice); a file whose rebuilding inputs differ in one byte must not get them.
  it('rows rebuilt again are the same, and a file differing in one fix entry gets its own', () => {
    const file = packed('concatenated');
    const wte = (bytes) => { const out = readSafetensors(expandWeights(bytes, { vectors: GLOVE })); return tensorView(out.data, out.header['wte.weight']); };
    const first = wte(file);
    const { header, data } = readSafetensors(file);
    const at = tensorView(data, header['wte.weight/fixAt'])[0];
    const changed = file.slice();
    // The first fix entry's F16 bits, one bit flipped: the row entry it sets must follow.
    const fixStart = file.length - data.length + header['wte.weight/fix'].data_offsets[0];
    changed[fixStart] ^= 1;
    const other = wte(changed);
    assert.equal(other[at], first[at] ^ 1);
    assert.deepEqual([...other.subarray(0, at)], [...first.subarray(0, at)]);
    assert.deepEqual(wte(file), first);
  });

  // expandWeights also keeps the int8 matrices it made F16 (the whole file's are its heads'
  // again); a matrix whose int8 value or row scale differs must not get them.
  it('int8 matrices expanded again are the same, and a file differing in one value or scale gets its own', () => {
    const file = packed('additive');
    const name = 'h.0.attn.c_attn.weight';
    const matrix = (bytes, headsOnly = false) => {
      const out = readSafetensors(expandWeights(headsOnly ? bytes.subarray(0, headsBytes(bytes)) : bytes, { vectors: GLOVE, headsOnly }));
      return tensorView(out.data, out.header[name]);
    };
    const first = matrix(file, true);
    assert.deepEqual(matrix(file), first, 'the whole file gives its heads\' matrix');
    const { header, data } = readSafetensors(file);
    const start = file.length - data.length;
    const q = tensorView(data, header[name]);
    const scale = tensorView(data, header[`${name}/scale`])[0];
    const value = q.subarray(0, header[name].shape[1]).findIndex((v) => v !== 0 && v !== -128 && v !== 127);  // in the first row
    assert.ok(value >= 0);
    const changedValue = file.slice();
    changedValue[start + header[name].data_offsets[0] + value] += 1;  // one int8 value, one step
    assert.equal(matrix(changedValue, true)[value], f16Bits((q[value] + 1) * scale));
    const changedScale = file.slice();
    changedScale[start + header[`${name}/scale`].data_offsets[0] + 3] ^= 0x80;  // the first row's scale, negated
    assert.equal(matrix(changedScale, true)[value], f16Bits(-q[value] * scale));
    assert.deepEqual(matrix(file, true), first);
  });
});

for (const simd of [true, false]) {
  describe(`packed models against their F16 sources, ${simd ? 'SIMD' : 'scalar'} build`, () => {
    let lab;
    before(async () => {
      lab = await load({ simd });
      await lab.loadModels();
    });

    // The record is the SIMD build's; the scalar build sums in another order, which moves
    // probabilities and surprises by float32 ulps (≈ 1e-7 of values ≤ 1 and ≈ 1e-6 of values
    // ≤ 10 nats): 1e-5 absolute covers that and nothing a change of the packing could hide in.
    const MARGIN = 1e-5;
    // The SIMD build runs all six models over all the recorded windows, with the held-out loss.
    // The scalar build, about ten times slower, runs the three the page loads by default over the
    // first tenth of the windows (a subset's largest |Δ| is at most the whole's, so the recorded
    // bound still applies) and no loss.
    for (const name of simd ? BUILT.models.map((m) => m.name) : DEFAULTS) {
      it(`${name}: attention, surprise${simd ? ' and held-out loss' : ''} within the recorded and stated tolerance`, async () => {
        const record = RECORD.models.find((m) => m.name === name);
        const reference = lab.loadModel(source(name), { vectors: GLOVE });
        const model = await lab.loadPretrained(name);
        try {
          const delta = compareModels(reference, model, windowsFor(reference, HELD_OUT, simd ? {} : { short: 26, long: 2 }));
          assert.ok(delta.attention <= record.maxAttentionDelta + MARGIN, `attention ${delta.attention} > recorded ${record.maxAttentionDelta}`);
          assert.ok(delta.surprise <= record.maxSurpriseDelta + MARGIN, `surprise ${delta.surprise} > recorded ${record.maxSurpriseDelta}`);
          assert.ok(delta.attention <= TOLERANCE.attention && delta.surprise <= TOLERANCE.surprise);
          // Also not far below: a comparison that compared nothing would pass the bounds above.
          assert.ok(delta.attention > 0 && delta.surprise > 0, 'the packed model differs from its source somewhere');
          if (!simd) return;
          const loss = heldOutLoss(model, HELD_OUT, BUILT.evaluation);
          assert.ok(Math.abs(loss - record.heldOutLoss.packed) <= 1e-3, `${loss} vs recorded ${record.heldOutLoss.packed}`);
          assert.ok(Math.abs(loss - heldOutLoss(reference, HELD_OUT, BUILT.evaluation)) <= TOLERANCE.heldOutLoss);
        } finally {
          reference.dispose();
          model.dispose();
        }
      });
    }

    it("a heads-only model (the first headsBytes) gives the complete model's attention bit for bit", async () => {
      const models = await lab.loadModels();
      for (const name of DEFAULTS) {
        const wire = packed(name);
        const early = models.loadModel(expandWeights(wire.subarray(0, headsBytes(wire)), { vectors: GLOVE, headsOnly: true }), { vectors: GLOVE });
        const model = await lab.loadPretrained(name);
        const tokens = model.tokenize(HELD_OUT.slice(0, 400)).subarray(0, 40);
        assert.deepEqual(early.attention(tokens, tokens.length), model.attention(tokens, tokens.length), name);
        early.dispose();
        model.dispose();
      }
    });

    it("the downloaded file (m.save, F32 or F16) is complete and rebuilds the page's model exactly", async () => {
      for (const name of DEFAULTS) {
        const model = await lab.loadPretrained(name);
        const tokens = model.tokenize(HELD_OUT.slice(0, 400)).subarray(0, 40);
        const shown = model.inspect(tokens, tokens.length);
        for (const dtype of ['f32', 'f16']) {
          const file = model.save({ dtype });
          assert.ok('wte.weight' in readSafetensors(file).header, `${name} ${dtype}: the file holds wte`);
          const rebuilt = lab.loadModel(file);  // no word vectors: the file is complete
          const again = rebuilt.inspect(tokens, tokens.length);
          assert.deepEqual(again.attention, shown.attention, `${name} ${dtype}`);
          assert.deepEqual(again.surprise, shown.surprise, `${name} ${dtype}`);
          rebuilt.dispose();
        }
        model.dispose();
      }
    });
  });
}
