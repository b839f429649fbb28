// How far the packed models (scripts/pack-models.mjs, the files the page downloads) stray from
// the trainer's F16 models (data/models/<name>.safetensors): for every shipped model, the largest
// |Δ| of each head's attention probabilities and of the per-token surprise (−ln p of the next
// word, the lanes' strip) over fixed held-out windows, and the held-out loss of both. Writes
// data/models/packing.json, which tests/js/packing.test.mjs holds the build to. Needs a built
// dist/ (its JS API, its model core and its models/ folder).
//
//   node scripts/measure-packing.mjs            print and write data/models/packing.json
//   node scripts/measure-packing.mjs --check    print only
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const RECORD = path.join(ROOT, 'data/models/packing.json');
const sha256 = (bytes) => crypto.createHash('sha256').update(bytes).digest('hex');

// The inputs, fixed: held-out windows of the training length T (the manifest's evaluation
// windows, where every scheme runs) and longer ones, where the lanes show extrapolation (every
// scheme but learned, whose table ends at T).
export const WINDOWS = Object.freeze({ short: { n: 32, count: 256 }, long: { n: 128, count: 16 } });
// The tolerance promised for a packed model against its F16 source, over WINDOWS (largest |Δ| of
// any entry). Attention probabilities run from 0 to 1: 0.05 is a twentieth of a map's colour
// ramp, so which words a head looks at stays as it was. Surprise is in nats: 0.15 nats is a
// factor of 1.16 in a word's probability, small against the 1-to-10-nat range the strip colours.
// The held-out loss: 0.002 nats, a fifth of the smallest gap between the three default models'
// losses (0.010, additive and concatenated: data/models/manifest.json).
export const TOLERANCE = Object.freeze({ attention: 0.05, surprise: 0.15, heldOutLoss: 0.002 });

/**
 * The windows' token ids for a model: [{ n, tokens: Int32Array(n) }], short ones first; counts
 * ({ short, long }) takes the first so many of each (a subset: its largest |Δ| is at most the whole's).
 */
export function windowsFor(model, heldOutText, counts = {}) {
  const ids = model.tokenize(heldOutText);
  const out = [];
  for (const [kind, { n, count }] of Object.entries(WINDOWS)) {
    if (kind === 'long' && model.config.scheme === 'learned') continue;
    for (let w = 0; w < Math.min(count, counts[kind] ?? count); w++) out.push({ n, tokens: ids.subarray(w * n, w * n + n) });
  }
  return out;
}

/**
 * Largest |Δ| between two models over the windows: { attention: per head [layer][head] and max,
 * surprise: max }.
 */
export function compareModels(reference, packed, windows) {
  const { layers, heads } = reference.config;
  const byHead = Array.from({ length: layers }, () => new Array(heads).fill(0));
  let surprise = 0;
  for (const { n, tokens } of windows) {
    const a = reference.inspect(tokens, n);
    const b = packed.inspect(tokens, n);
    for (let l = 0; l < layers; l++) {
      for (let h = 0; h < heads; h++) {
        const at = (l * heads + h) * n * n;
        for (let k = at; k < at + n * n; k++) byHead[l][h] = Math.max(byHead[l][h], Math.abs(a.attention[k] - b.attention[k]));
      }
    }
    for (let i = 0; i < n - 1; i++) surprise = Math.max(surprise, Math.abs(a.surprise[i] - b.surprise[i]));
  }
  return { attention: Math.max(...byHead.flat()), attentionByHead: byHead, surprise };
}

/** The manifest's held-out loss (posenc-train's evaluate windows) of a model. */
export function heldOutLoss(model, heldOutText, { B, T, batches }) {
  const ids = model.tokenize(heldOutText);
  let sum = 0;
  for (let k = 0; k < batches; k++) {
    const tokens = new Int32Array(B * (T + 1));
    for (let b = 0; b < B; b++) tokens.set(ids.subarray((k * B + b) * T, (k * B + b) * T + T + 1), b * (T + 1));
    sum += model.loss(tokens, B, T);
  }
  return sum / batches;
}

async function main(argv) {
  const { load } = await import(path.join(ROOT, 'dist/posenc.mjs'));
  const { expandWeights, readSafetensors } = await import(path.join(ROOT, 'dist/packed-weights.mjs'));
  const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'dist/models/manifest.json'), 'utf8'));
  const heldOut = fs.readFileSync(path.join(ROOT, manifest.corpus.heldOut), 'utf8');
  const glove = new Uint8Array(fs.readFileSync(path.join(ROOT, manifest.corpus.vectors)));
  const lab = await load({ simd: true });
  await lab.loadModels();
  const models = [];
  for (const entry of manifest.models) {
    const packedBytes = new Uint8Array(fs.readFileSync(path.join(ROOT, 'dist/models', entry.file)));
    const expanded = expandWeights(packedBytes, { vectors: glove });
    const reference = lab.loadModel(fs.readFileSync(path.join(ROOT, 'data/models', entry.source.file)), { vectors: glove });
    const packed = await lab.loadPretrained(entry.name);
    const delta = compareModels(reference, packed, windowsFor(reference, heldOut));
    const loss = { reference: heldOutLoss(reference, heldOut, manifest.evaluation), packed: heldOutLoss(packed, heldOut, manifest.evaluation) };
    const round = (v) => Number(v.toPrecision(4));
    const nats = (v) => Number(v.toFixed(6));
    // Entries of rebuilt frozen rows that travel as they are (the rebuild rounds them otherwise).
    const fixes = readSafetensors(packedBytes).header['wte.weight/fixAt']?.shape[0] ?? null;
    models.push({
      name: entry.name,
      bytes: { source: entry.source.bytes, packed: entry.bytes },
      rebuiltRowFixes: fixes,
      sha256: { packed: entry.sha256, expanded: sha256(expanded) },
      maxAttentionDelta: round(delta.attention),
      maxAttentionDeltaByHead: delta.attentionByHead.map((row) => row.map(round)),
      maxSurpriseDelta: round(delta.surprise),
      heldOutLoss: { reference: nats(loss.reference), packed: nats(loss.packed), delta: nats(loss.packed - loss.reference) },
    });
    console.log(`${entry.name.padEnd(13)} ${entry.source.bytes} → ${entry.bytes} bytes; max |Δ attention| ${delta.attention.toExponential(2)}, ` +
      `max |Δ surprise| ${delta.surprise.toExponential(2)} nats, held-out loss ${loss.reference.toFixed(4)} → ${loss.packed.toFixed(4)}`);
    reference.dispose();
    packed.dispose();
  }
  const record = {
    about: 'The packed models (scripts/pack-models.mjs) against their F16 sources (data/models/): largest |Δ| over the windows, SIMD build.',
    script: 'scripts/measure-packing.mjs',
    packing: manifest.packing,
    windows: { ...WINDOWS, text: manifest.corpus.heldOut, note: 'consecutive held-out windows from the start; long ones skip learned (its table ends at T)' },
    tolerance: TOLERANCE,
    models,
  };
  if (!argv.includes('--check')) fs.writeFileSync(RECORD, `${JSON.stringify(record, null, 2)}\n`);
}

if (process.argv[1] === new URL(import.meta.url).pathname) await main(process.argv.slice(2));
