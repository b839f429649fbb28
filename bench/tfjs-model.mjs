// docs/ARCHITECTURE.md's model ("The trained model") written a second time, independently, with TensorFlow.js
// ops and autodiff: the training benchmark's peer (bench/tfjs-train.mjs) and the test that the
// core's weights file alone rebuilds the same model (tests/js/model-peer.test.mjs).
//
// Shapes: tokens B×(T+1) int32; x B·T×d; q, k, v B×h×T×d_h; scores B×h×T×T; logits B·T×V.
// Every weight is nn.Linear's [out, in]: y = x·Wᵀ + b.
import * as tf from '@tensorflow/tfjs';
import { LAYOUT } from '../dist/scheme-table.mjs';

// PE_width(p), interleaved: [2i] = sin(p·ω_i), [2i+1] = cos(p·ω_i), ω_i = base^(−2i/width).
function sinusoidal(T, width, base) {
  const pe = new Float32Array(T * width);
  for (let p = 0; p < T; p++) {
    for (let i = 0; i < width / 2; i++) {
      const angle = p * base ** (-2 * i / width);
      pe[p * width + 2 * i] = Math.sin(angle);
      pe[p * width + 2 * i + 1] = Math.cos(angle);
    }
  }
  return tf.tensor2d(pe, [T, width]);
}

// ALiBi slopes for a power-of-two head count: head k (1-based) gets 2^(−8k/h).
function alibiSlopes(h) {
  if ((h & (h - 1)) !== 0) throw new RangeError('this peer implements ALiBi for power-of-two head counts only');
  return Array.from({ length: h }, (_, k) => 2 ** (-8 * (k + 1) / h));
}

// T5's causal bucket of relative = j − i (keys after the query share bucket 0).
function t5Bucket(relative, buckets, maxDistance) {
  const r = Math.max(-relative, 0);
  const exact = buckets / 2;
  if (r < exact) return r;
  const large = exact + Math.floor(Math.log(r / exact) / Math.log(maxDistance / exact) * (buckets - exact));
  return Math.min(large, buckets - 1);
}

// The position-dependent logit bias B×h×T×T (0 for schemes without one) plus the causal mask.
function logitBias(config, params, T) {
  const { scheme, heads } = config;
  const causal = tf.linalg.bandPart(tf.ones([T, T]), -1, 0).sub(1).mul(1e9);
  if (scheme === 'alibi') {
    const distance = tf.tensor2d(Array.from({ length: T * T }, (_, x) => Math.floor(x / T) - (x % T)), [T, T]);
    const slopes = tf.tensor(alibiSlopes(heads)).reshape([heads, 1, 1]);
    return distance.expandDims(0).mul(slopes).neg().add(causal);
  }
  if (scheme === 't5') {
    const buckets = Int32Array.from({ length: T * T }, (_, x) =>
      t5Bucket((x % T) - Math.floor(x / T), config.t5Buckets, config.t5MaxDistance));
    const table = tf.gather(params['t5_bias.weight'], tf.tensor1d(buckets, 'int32'));  // T·T × h
    return table.transpose().reshape([heads, T, T]).add(causal);
  }
  return causal;
}

// Pair i of each head rotated by p·ω_i, ω_i = base^(−2i/d_h): (2i, 2i+1) or (i, i + d_h/2).
function rotate(x, T, dh, base, pairing) {
  const half = dh / 2;
  const angles = Array.from({ length: T * half }, (_, k) => Math.floor(k / half) * base ** (-2 * (k % half) / dh));
  const cos = tf.tensor2d(angles.map(Math.cos), [T, half]);
  const sin = tf.tensor2d(angles.map(Math.sin), [T, half]);
  const [B, h] = x.shape;
  let a, b;
  if (pairing === LAYOUT.half) {
    [a, b] = tf.split(x, 2, 3);
  } else {
    const pairs = x.reshape([B, h, T, half, 2]);
    [a, b] = tf.split(pairs, 2, 4).map((t) => t.reshape([B, h, T, half]));
  }
  const a2 = a.mul(cos).sub(b.mul(sin));
  const b2 = a.mul(sin).add(b.mul(cos));
  return pairing === LAYOUT.half ? tf.concat([a2, b2], 3) : tf.stack([a2, b2], 4).reshape([B, h, T, dh]);
}

function layerNorm(x, weight, bias) {
  const { mean, variance } = tf.moments(x, -1, true);
  return x.sub(mean).div(variance.add(1e-5).sqrt()).mul(weight).add(bias);
}

const linear = (x, w, b) => tf.matMul(x, w, false, true).add(b);

function gelu(x) {
  const inner = x.add(x.pow(3).mul(0.044715)).mul(Math.sqrt(2 / Math.PI));
  return x.mul(0.5).mul(inner.tanh().add(1));
}

// The layer-0 input x (B·T × d) of docs/ARCHITECTURE.md, "The trained model", Input.
function input(config, params, inputs, B, T) {
  const { scheme, d, vocab, alpha = 1, base = 10000 } = config;
  const wte = params['wte.weight'];
  const width = wte.shape[1];
  // One-hot times wte instead of tf.gather: the wasm backend has no UnsortedSegmentSum (the
  // gather's gradient).
  const words = tf.matMul(tf.oneHot(inputs.reshape([B * T]), vocab), wte).mul(alpha).reshape([B, T, width]);
  if (scheme === 'additive') return words.add(sinusoidal(T, d, base)).reshape([B * T, d]);
  if (scheme === 'learned') return words.add(params['wpe.weight'].slice([0, 0], [T, d])).reshape([B * T, d]);
  if (scheme === 'concatenated') {
    const pe = sinusoidal(T, config.dPos, base).expandDims(0).tile([B, 1, 1]);
    return tf.concat([words, pe], 2).reshape([B * T, d]);
  }
  return words.reshape([B * T, d]);
}

function attention(u, params, l, config, B, T, bias) {
  const { d, heads, scheme, base = 10000, pairing = LAYOUT.interleaved } = config;
  const dh = d / heads;
  const p = (name) => params[`h.${l}.attn.${name}`];
  const qkv = linear(u, p('c_attn.weight'), p('c_attn.bias'));
  const split = (part) => qkv.slice([0, part * d], [B * T, d]).reshape([B, T, heads, dh]).transpose([0, 2, 1, 3]);
  let [q, k] = [split(0), split(1)];
  if (scheme === 'rotary') [q, k] = [rotate(q, T, dh, base, pairing), rotate(k, T, dh, base, pairing)];
  const scores = tf.matMul(q, k, false, true).mul(1 / Math.sqrt(dh)).add(bias);
  const mixed = tf.matMul(tf.softmax(scores), split(2)).transpose([0, 2, 1, 3]).reshape([B * T, d]);
  return linear(mixed, p('c_proj.weight'), p('c_proj.bias'));
}

/** Mean masked next-token cross-entropy (a scalar tensor) of docs/ARCHITECTURE.md's model. */
export function meanLoss(config, params, tokens, B, T, mask) {
  const rows = tf.tensor2d(tokens, [B, T + 1], 'int32');
  const inputs = rows.slice([0, 0], [B, T]);
  const targets = rows.slice([0, 1], [B, T]).reshape([B * T]);
  const bias = logitBias(config, params, T);
  let x = input(config, params, inputs, B, T);
  for (let l = 0; l < config.layers; l++) {
    const p = (name) => params[`h.${l}.${name}`];
    x = x.add(attention(layerNorm(x, p('ln_1.weight'), p('ln_1.bias')), params, l, config, B, T, bias));
    const hidden = gelu(linear(layerNorm(x, p('ln_2.weight'), p('ln_2.bias')), p('mlp.c_fc.weight'), p('mlp.c_fc.bias')));
    x = x.add(linear(hidden, p('mlp.c_proj.weight'), p('mlp.c_proj.bias')));
  }
  const logits = tf.matMul(layerNorm(x, params['ln_f.weight'], params['ln_f.bias']), params['lm_head.weight'], false, true);
  const nll = tf.sum(tf.logSoftmax(logits).mul(tf.oneHot(targets, config.vocab)), 1).neg();
  const counted = mask ? tf.tensor1d(Float32Array.from(mask)) : tf.onesLike(nll);
  return tf.sum(nll.mul(counted)).div(tf.sum(counted));
}

/** Trainable variables from a name → tensor map (TF.js names them itself: names are global). */
export function variablesFrom(tensors) {
  return Object.fromEntries(Object.entries(tensors).map(([name, tensor]) => [name, tf.variable(tensor)]));
}

/** docs/ARCHITECTURE.md's initialisation ("Output, loss and initialisation"), in TF.js's own random stream (the same distributions, not the same draws). */
export function initialTensors(config, seed = 1) {
  const { vocab, d, layers, scheme, dPos, context } = config;
  const normal = (shape, std) => tf.randomNormal(shape, 0, std, 'float32', seed++);
  const residual = 0.02 / Math.sqrt(2 * layers);
  const t = { 'wte.weight': normal([vocab, scheme === 'concatenated' ? d - dPos : d], 0.02) };
  if (scheme === 'learned') t['wpe.weight'] = normal([context, d], 0.02);
  if (scheme === 't5') t['t5_bias.weight'] = tf.zeros([config.t5Buckets, config.heads]);
  for (let l = 0; l < layers; l++) {
    const p = `h.${l}.`;
    Object.assign(t, {
      [`${p}ln_1.weight`]: tf.ones([d]), [`${p}ln_1.bias`]: tf.zeros([d]),
      [`${p}attn.c_attn.weight`]: normal([3 * d, d], 0.02), [`${p}attn.c_attn.bias`]: tf.zeros([3 * d]),
      [`${p}attn.c_proj.weight`]: normal([d, d], residual), [`${p}attn.c_proj.bias`]: tf.zeros([d]),
      [`${p}ln_2.weight`]: tf.ones([d]), [`${p}ln_2.bias`]: tf.zeros([d]),
      [`${p}mlp.c_fc.weight`]: normal([4 * d, d], 0.02), [`${p}mlp.c_fc.bias`]: tf.zeros([4 * d]),
      [`${p}mlp.c_proj.weight`]: normal([d, 4 * d], residual), [`${p}mlp.c_proj.bias`]: tf.zeros([d]),
    });
  }
  return Object.assign(t, { 'ln_f.weight': tf.ones([d]), 'ln_f.bias': tf.zeros([d]), 'lm_head.weight': normal([vocab, d], 0.02) });
}

export { tf };
