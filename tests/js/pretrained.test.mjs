// The pretrained word-level models (data/models/, scripts/train-models) through the JS API in both
// builds: every F16 source file matches its manifest entry and opens with its config; each source
// model's held-out loss is the manifest's (computed natively by posenc-train) to float tolerance,
// and it saves the trainer's complete file; lab.pretrained lists the built manifest (the packed
// files, scripts/pack-models.mjs; how close they stay: tests/js/packing.test.mjs); natural
// held-out text scores better than the same words shuffled; m.tokenize keeps lab.tokenize's
// tokens one for one; loadPretrained's refusals. Plus frozenEmbedding through createModel, and
// the reduced determinism check (scripts/train-models --check --quick).
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { load } from '../../dist/posenc.mjs';
import { packedFile } from '../../dist/packed-weights.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MANIFEST = JSON.parse(readFileSync(join(ROOT, 'data/models/manifest.json'), 'utf8'));
const BUILT = JSON.parse(readFileSync(join(ROOT, 'dist/models/manifest.json'), 'utf8'));
const GLOVE = readFileSync(join(ROOT, MANIFEST.corpus.vectors));
const NAMES = ['additive', 'concatenated', 'rotary', 'nope', 'alibi', 'learned'];
const HELD_OUT = readFileSync(join(ROOT, MANIFEST.corpus.heldOut), 'utf8');
const TEXTS = [
  '', 'Call me Ishmael.', "The whale-ship's captain didn't say: “Mr. Starbuck, 3.14 × 1,000!”",
  'state-of-the-art co-operate e-mail Zürich naïve 👍🏽 ... ?!', 'The   Union\tis\nstrong', '<unk> <UNK>',
];

// The held-out windows the manifest's loss covers (posenc-train's evaluate: window w is held-out
// ids [w·T, w·T + T], B rows per batch, the loss a mean of batch means).
function heldOutBatches(ids, { B, T, batches }) {
  return Array.from({ length: batches }, (_, k) => {
    const tokens = new Int32Array(B * (T + 1));
    for (let b = 0; b < B; b++) tokens.set(ids.subarray((k * B + b) * T, (k * B + b) * T + T + 1), b * (T + 1));
    return tokens;
  });
}

// A seeded permutation of each row's T + 1 tokens (the same words, their order lost).
function shuffled(tokens, T, seed) {
  const out = Int32Array.from(tokens);
  let s = seed >>> 0;
  const next = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0);
  for (let row = 0; row < out.length; row += T + 1) {
    for (let i = T; i > 0; i--) {
      const j = next() % (i + 1);
      [out[row + i], out[row + j]] = [out[row + j], out[row + i]];
    }
  }
  return out;
}

describe('pretrained models: files and manifest', () => {
  it('one F16 file per scheme, each ≤ 2.5 MB, with the manifest size, sha256 and config; wte left out where it is GloVe unreduced', () => {
    assert.deepEqual(MANIFEST.models.map((m) => m.name), NAMES);
    for (const entry of MANIFEST.models) {
      const bytes = readFileSync(join(ROOT, 'data/models', `${entry.name}.safetensors`));
      assert.equal(bytes.length, entry.bytes, entry.name);
      assert.ok(bytes.length <= 2.5e6, `${entry.name}: ${bytes.length} bytes`);
      assert.equal(createHash('sha256').update(bytes).digest('hex'), entry.sha256, entry.name);
      const header = JSON.parse(bytes.subarray(8, 8 + Number(bytes.readBigUInt64LE(0))).toString('utf8'));
      assert.deepEqual(JSON.parse(header.__metadata__.posenc), entry.config, entry.name);
      const slim = entry.scheme !== 'concatenated';  // its wte is PCA coordinates (scripts/train-models.mjs, slimWeights)
      assert.equal('wte.weight' in header, !slim, entry.name);
      assert.equal(header['h.0.ln_1.weight'].dtype, 'F16');
      // The wte rows (V × d, F16) and their header entry (under 200 bytes).
      const saved = entry.fullBytes - entry.bytes - (slim ? entry.vocabSize * entry.config.d * 2 : 0);
      assert.ok(saved >= 0 && saved < (slim ? 200 : 1), `${entry.name}: ${entry.fullBytes} → ${entry.bytes} bytes`);
      if (!slim) assert.equal(entry.fullSha256, entry.sha256);
      assert.equal(entry.config.frozenEmbedding, true);
      assert.equal(entry.config.scheme, entry.name);
      assert.equal(JSON.parse(header.__metadata__.vocab).length, entry.vocabSize);
    }
  });
});

for (const simd of [true, false]) {
  describe(`pretrained models, ${simd ? 'SIMD' : 'scalar'} build`, () => {
    let lab;
    const models = {};   // as the page loads them: packed, expanded
    const sources = {};  // the trainer's F16 files
    before(async () => {
      lab = await load({ simd });
      await lab.loadModels();
      for (const name of NAMES) {
        models[name] = await lab.loadPretrained(name);
        sources[name] = lab.loadModel(readFileSync(join(ROOT, 'data/models', `${name}.safetensors`)), { vectors: GLOVE });
      }
    });

    it('lab.pretrained lists the manifest, frozen, with labels', () => {
      assert.ok(Object.isFrozen(lab.pretrained) && lab.pretrained.every(Object.isFrozen));
      assert.deepEqual(lab.pretrained.map((m) => m.name), NAMES);
      for (const [i, entry] of lab.pretrained.entries()) {
        const { name, scheme, config, vocabSize, heldOutLoss, heldOutPerplexity, heldOutTokens, bytes, sha256, heads } = BUILT.models[i];
        // The built manifest is the data one with bytes and sha256 those of the packed file (heads:
        // its first bytes', tests/js/packing.test.mjs).
        const source = MANIFEST.models[i];
        for (const key of ['name', 'scheme', 'config', 'vocabSize', 'heldOutLoss', 'heldOutPerplexity', 'heldOutTokens']) {
          assert.deepEqual(BUILT.models[i][key], source[key], `${name} ${key}`);
        }
        assert.deepEqual(BUILT.models[i].source, { file: `${name}.safetensors`, bytes: source.bytes, sha256: source.sha256,
          fullBytes: source.fullBytes, fullSha256: source.fullSha256 });
        assert.equal(BUILT.models[i].file, packedFile(name));
        assert.deepEqual({ ...entry }, { name, scheme, config, vocabSize, heldOutLoss, heldOutPerplexity, heldOutTokens, bytes, sha256, heads, label: lab.SCHEME_LABELS?.[scheme] ?? entry.label });
        assert.equal(typeof entry.label, 'string');
      }
    });

    it("each source model, its wte rebuilt from GloVe, saves the trainer's complete file bit for bit (manifest fullSha256)", () => {
      for (const entry of lab.pretrained) {
        const full = sources[entry.name].save({ dtype: 'f16' });
        const { fullSha256, fullBytes } = MANIFEST.models.find((m) => m.name === entry.name);
        assert.equal(full.length, fullBytes, entry.name);
        assert.equal(createHash('sha256').update(full).digest('hex'), fullSha256, entry.name);
      }
    });

    it('a file without wte is refused without the word vectors, naming wte and the fix', () => {
      const bytes = readFileSync(join(ROOT, 'data/models/rotary.safetensors'));
      assert.throws(() => lab.loadModel(bytes), /wte\.weight is left out.*vectors/);
      assert.throws(() => lab.loadModel(bytes, { vectors: new Uint8Array(16) }), /^RangeError: word vectors: /);
      assert.throws(() => lab.loadModel(bytes, { vectors: 'glove' }), TypeError);
    });

    // The model core keeps the vector file it parsed last (the page loads each model twice
    // against GloVe): a file differing in one byte must be parsed anew.
    it('a vector file differing in one byte gives its own rows, not the last file\'s', () => {
      const bytes = readFileSync(join(ROOT, 'data/models/rotary.safetensors'));
      const changed = new Uint8Array(GLOVE);  // a copy (a Buffer's slice() would share GLOVE's bytes)
      const view = new DataView(changed.buffer);
      const [count, wordBytes] = [view.getUint32(8, true), view.getUint32(16, true)];
      changed[24 + Math.ceil(wordBytes / 4) * 4 + 4 * count] ^= 1;  // row 0 ('the'), its first value
      const saved = (vectors) => {
        const m = lab.loadModel(bytes, { vectors });
        try { return createHash('sha256').update(m.save()).digest('hex'); } finally { m.dispose(); }
      };
      const glove = saved(GLOVE);
      assert.notEqual(saved(changed), glove);
      assert.equal(saved(GLOVE), glove);
    });

    it('each model opens with its manifest config, its vocabulary and <unk>', () => {
      for (const entry of lab.pretrained) {
        const m = models[entry.name];
        assert.deepEqual(m.config, entry.config);
        assert.equal(m.vocab.length, entry.vocabSize);
        assert.equal(m.vocab[m.unknownId], '<unk>');
      }
    });

    it("each source model's held-out loss is the manifest's (native posenc-train) to float tolerance", () => {
      // Native SSE and wasm (SIMD or scalar) sum in different orders; the logits and the per-row
      // log-sum-exp are float, so batch losses differ by a few float ulps of values ≈ 5 (measured
      // under 2e-6); 1e-4 nats is far below any difference between two schemes.
      const { B, T, batches } = MANIFEST.evaluation;
      for (const entry of lab.pretrained) {
        const m = sources[entry.name];
        const ids = m.tokenize(HELD_OUT);
        const losses = heldOutBatches(ids, { B, T, batches }).map((tokens) => m.loss(tokens, B, T));
        const mean = losses.reduce((a, b) => a + b, 0) / batches;
        assert.ok(Math.abs(mean - entry.heldOutLoss) < 1e-4, `${entry.name}: ${mean} vs ${entry.heldOutLoss}`);
        assert.equal(B * T * batches, entry.heldOutTokens);
      }
    });

    it('each model scores natural held-out text better than the same words shuffled', () => {
      const { B, T } = MANIFEST.evaluation;
      for (const entry of lab.pretrained) {
        const m = models[entry.name];
        const [natural] = heldOutBatches(m.tokenize(HELD_OUT), { B, T, batches: 1 });
        const mixed = shuffled(natural, T, 7);
        assert.ok(m.loss(natural, B, T) < m.loss(mixed, B, T) - 0.1, entry.name);
      }
    });

    it('m.tokenize gives one id per lab.tokenize token, in order, <unk> for the rest', () => {
      const m = models.rotary;
      for (const text of [...TEXTS, HELD_OUT.slice(0, 5000)]) {
        const tokens = lab.tokenize(text);
        const ids = m.tokenize(text);
        assert.ok(ids instanceof Int32Array);
        assert.equal(ids.length, tokens.length, JSON.stringify(text));
        tokens.forEach((token, i) => {
          const id = m.vocab.indexOf(token);
          assert.equal(ids[i], id >= 0 ? id : m.unknownId, `${JSON.stringify(token)} in ${JSON.stringify(text)}`);
        });
      }
      assert.throws(() => m.tokenize(5), TypeError);
      assert.throws(() => m.tokenize('x'.repeat(lab.limits.maxTextLength + 1)), /text/);
      const plain = lab.createModel({ scheme: 'nope', vocab: 4 });
      assert.equal(plain.vocab, null);
      assert.equal(plain.unknownId, null);
      assert.throws(() => plain.tokenize('a'), RangeError);
      plain.dispose();
    });

    it('refuses unknown names, bad options and aborted loads', async () => {
      await assert.rejects(lab.loadPretrained('rope'), (e) => e instanceof RangeError && /name/.test(e.message) && /'rotary'/.test(e.message));
      await assert.rejects(lab.loadPretrained('rotary', { colour: 1 }), TypeError);
      await assert.rejects(lab.loadPretrained('rotary', { onProgress: 1 }), /onProgress/);
      const controller = new AbortController();
      controller.abort();
      await assert.rejects(lab.loadPretrained('rotary', { signal: controller.signal }), { name: 'AbortError' });
      const seen = [];
      const m = await lab.loadPretrained('nope', { onProgress: (p) => seen.push(p) });
      const { bytes } = lab.pretrained.find((e) => e.name === 'nope');
      assert.deepEqual(seen.at(-1), { loaded: bytes, total: bytes });
      m.dispose();
    });
  });
}

describe('pretrained models: a copy of dist/ with a bad or missing file', () => {
  // A module copy in its own folder is its own instance, with its own models/ beside it.
  function copyDist(edit) {
    const dir = mkdtempSync(join(tmpdir(), 'posenc-pretrained-'));
    // Every module the package ships at dist/'s top (package.json's dist/*.mjs: the API's modules,
    // the cores' glue), the cores and GloVe.
    const modules = readdirSync(join(ROOT, 'dist')).filter((file) => file.endsWith('.mjs'));
    for (const file of [...modules, 'posenc-core-simd.wasm', 'posenc-core-scalar.wasm', 'glove-6b-100d-20k.i8',
      'posenc-models-simd.wasm', 'posenc-models-scalar.wasm']) cpSync(join(ROOT, 'dist', file), join(dir, file));
    cpSync(join(ROOT, 'dist/models'), join(dir, 'models'), { recursive: true });
    edit(dir);
    return dir;
  }

  it("a file whose sha256 is not the manifest's is refused", async () => {
    const dir = copyDist((d) => {
      const file = join(d, 'models', packedFile('alibi'));
      const bytes = readFileSync(file);
      bytes[bytes.length - 1] ^= 1;
      writeFileSync(file, bytes);
    });
    try {
      const { load: loadCopy } = await import(join(dir, 'posenc.mjs'));
      const lab = await loadCopy({ simd: true });
      await assert.rejects(lab.loadPretrained('alibi'), /sha256/);
      (await lab.loadPretrained('additive')).dispose();
    } finally {
      rmSync(dir, { recursive: true });
    }
  });

  it('without a manifest, lab.pretrained is [] and loadPretrained says so', async () => {
    const dir = copyDist((d) => rmSync(join(d, 'models'), { recursive: true }));
    try {
      const { load: loadCopy } = await import(join(dir, 'posenc.mjs'));
      const lab = await loadCopy({ simd: true });
      assert.deepEqual(lab.pretrained, []);
      await assert.rejects(lab.loadPretrained('rotary'), /no manifest/);
    } finally {
      rmSync(dir, { recursive: true });
    }
  });
});

describe('frozenEmbedding through the JS API', () => {
  it('wte stays bit-identical over trainStep, every other tensor moves, gradients() still reports it', async () => {
    const lab = await load({ simd: true });
    await lab.loadModels();
    for (const scheme of ['additive', 'concatenated']) {
      const m = lab.createModel({ scheme, vocab: 12, d: 16, layers: 1, heads: 2, context: 8, seed: 3, frozenEmbedding: true,
        ...(scheme === 'concatenated' ? { dPos: 4 } : {}) });
      assert.equal(m.config.frozenEmbedding, true);
      const tokens = Int32Array.from({ length: 4 * 9 }, (_, i) => (i * 7) % 12);
      const before = m.parameters();
      assert.ok(m.gradients(tokens, 4, 8).grads['wte.weight'].some((g) => g !== 0));
      for (let i = 0; i < 3; i++) m.trainStep(tokens, 4, 8, { lr: 1e-2 });
      const after = m.parameters();
      for (const name of Object.keys(before)) {
        const same = before[name].every((v, i) => Object.is(v, after[name][i]));
        assert.equal(same, name === 'wte.weight', `${scheme} ${name}`);
      }
      m.dispose();
    }
    assert.throws(() => lab.createModel({ scheme: 'nope', vocab: 4, frozenEmbedding: 1 }), (e) => e instanceof TypeError && /frozenEmbedding/.test(e.message));
  });
});

describe('scripts/train-models --check --quick', () => {
  it("retrains one scheme for a few steps on the committed texts and gets the manifest's sha256", () => {
    const trainer = join(ROOT, 'build-native/posenc-train');
    assert.ok(existsSync(trainer), `${trainer} is missing: scripts/test's first layer builds it`);
    const output = execFileSync('node', [join(ROOT, 'scripts/train-models.mjs'), '--check', '--quick'], { encoding: 'utf8' });
    assert.match(output, /quick check reproduced/);
  });
});
