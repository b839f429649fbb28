// The peer for the training benchmark: DESIGN.md's model (pre-LN GPT-2, additive sinusoidal
// positions, GELU tanh, untied head, clip_grad_norm_ then AdamW) written with TensorFlow.js ops,
// one thread, timed on the same batch shape as the core's step.
//
//   node bench/tfjs-train.mjs [--backend wasm|cpu] [--steps N] [--json]
//
// Shapes: tokens B×(T+1) int32; x B·T×d; qkv B·T×3d; heads B×h×T×d_h; scores B×h×T×T.
// The gradients come from tf.variableGrads (autodiff); the update is written out with tensor ops
// so that both sides do the same arithmetic per step (TF.js's own Adam has no decoupled decay).
import * as tf from '@tensorflow/tfjs';
import { setThreadsCount, setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import { fileURLToPath } from 'node:url';

export const BENCH_MODEL = Object.freeze({ V: 96, d: 64, layers: 2, heads: 4, T: 64, B: 16 });
const ADAMW = { lr: 1e-3, beta1: 0.9, beta2: 0.95, eps: 1e-8, weightDecay: 0.1, clip: 1 };

// tfjs's wasm files live in its package; Node reads them from disk (one thread: the core's step
// runs on one).
export async function useBackend(name) {
  if (name === 'wasm') {
    const dist = new URL('../node_modules/@tensorflow/tfjs-backend-wasm/dist/', import.meta.url);
    setWasmPaths(fileURLToPath(dist) + '/');
    setThreadsCount(1);
  }
  if (!(await tf.setBackend(name))) throw new Error(`TensorFlow.js backend ${name} did not start`);
  await tf.ready();
  tf.enableProdMode();  // no per-op NaN checks: fair to the peer
}

// PE_d(p), interleaved: [2i] = sin(p·ω_i), [2i+1] = cos(p·ω_i), ω_i = 10000^(−2i/d).
function sinusoidal(T, d) {
  const pe = new Float32Array(T * d);
  for (let p = 0; p < T; p++) {
    for (let i = 0; i < d / 2; i++) {
      const angle = p * 10000 ** (-2 * i / d);
      pe[p * d + 2 * i] = Math.sin(angle);
      pe[p * d + 2 * i + 1] = Math.cos(angle);
    }
  }
  return tf.tensor2d(pe, [T, d]);
}

function createParameters({ V, d, layers }, seed) {
  const normal = (shape, std) => tf.variable(tf.randomNormal(shape, 0, std, 'float32', seed++));
  const zeros = (n) => tf.variable(tf.zeros([n]));
  const ones = (n) => tf.variable(tf.ones([n]));
  const residualStd = 0.02 / Math.sqrt(2 * layers);
  const blocks = [];
  for (let l = 0; l < layers; l++) {
    blocks.push({
      ln1w: ones(d), ln1b: zeros(d),
      attnW: normal([3 * d, d], 0.02), attnB: zeros(3 * d),
      projW: normal([d, d], residualStd), projB: zeros(d),
      ln2w: ones(d), ln2b: zeros(d),
      fcW: normal([4 * d, d], 0.02), fcB: zeros(4 * d),
      mlpW: normal([d, 4 * d], residualStd), mlpB: zeros(d),
    });
  }
  return { wte: normal([V, d], 0.02), blocks, lnfw: ones(d), lnfb: zeros(d), head: normal([V, d], 0.02) };
}

function layerNorm(x, weight, bias) {
  const { mean, variance } = tf.moments(x, -1, true);
  return x.sub(mean).div(variance.add(1e-5).sqrt()).mul(weight).add(bias);
}

// y = x·Wᵀ + b, nn.Linear's layout.
const linear = (x, w, b) => tf.matMul(x, w, false, true).add(b);

function gelu(x) {
  const inner = x.add(x.pow(3).mul(0.044715)).mul(Math.sqrt(2 / Math.PI));
  return x.mul(0.5).mul(inner.tanh().add(1));
}

function attention(u, block, { B, T, d, heads }, causalBias) {
  const dh = d / heads;
  const qkv = linear(u, block.attnW, block.attnB);                       // B·T × 3d
  const split = (part) => qkv.slice([0, part * d], [B * T, d]).reshape([B, T, heads, dh]).transpose([0, 2, 1, 3]);
  const scores = tf.matMul(split(0), split(1), false, true).mul(1 / Math.sqrt(dh)).add(causalBias);
  const mixed = tf.matMul(tf.softmax(scores), split(2));                 // B × h × T × d_h
  return linear(mixed.transpose([0, 2, 1, 3]).reshape([B * T, d]), block.projW, block.projB);
}

function meanLoss(params, inputs, targets, shape, pe, causalBias) {
  const { B, T, d, V } = shape;
  // One-hot times wte rather than tf.gather: the wasm backend has no UnsortedSegmentSum, the
  // gather's gradient (12.6 MFLOP more, under 2% of the step).
  const embedded = tf.matMul(tf.oneHot(inputs.reshape([B * T]), V), params.wte).reshape([B, T, d]);
  let x = embedded.add(pe).reshape([B * T, d]);
  for (const block of params.blocks) {
    x = x.add(attention(layerNorm(x, block.ln1w, block.ln1b), block, shape, causalBias));
    const hidden = gelu(linear(layerNorm(x, block.ln2w, block.ln2b), block.fcW, block.fcB));
    x = x.add(linear(hidden, block.mlpW, block.mlpB));
  }
  const logits = tf.matMul(layerNorm(x, params.lnfw, params.lnfb), params.head, false, true);
  const logProbabilities = tf.logSoftmax(logits);
  return tf.neg(tf.sum(logProbabilities.mul(tf.oneHot(targets, V)))).div(B * T);
}

function variablesOf(params) {
  return [params.wte, ...params.blocks.flatMap((b) => Object.values(b)), params.lnfw, params.lnfb, params.head];
}

// clip_grad_norm_ then AdamW (DESIGN.md, "Training step").
function adamW(variables, grads, state, { lr, beta1, beta2, eps, weightDecay, clip }) {
  state.t += 1;
  const list = variables.map((v) => grads[v.name]);
  const norm = tf.sqrt(tf.addN(list.map((g) => tf.sum(g.square()))));
  const factor = tf.minimum(tf.scalar(1), tf.scalar(clip).div(norm.add(1e-6)));
  const c1 = 1 - beta1 ** state.t, c2 = 1 - beta2 ** state.t;
  variables.forEach((variable, i) => {
    const g = list[i].mul(factor);
    const m = state.m[i].mul(beta1).add(g.mul(1 - beta1));
    const v = state.v[i].mul(beta2).add(g.square().mul(1 - beta2));
    state.m[i].assign(m);
    state.v[i].assign(v);
    const decayed = variable.shape.length === 2 ? variable.mul(1 - lr * weightDecay) : variable;
    variable.assign(decayed.sub(m.div(c1).div(v.div(c2).sqrt().add(eps)).mul(lr)));
  });
}

/** A trainer over `batch` (Int32Array B·(T+1)); step() returns the loss before the update. */
export function createTrainer(shape = BENCH_MODEL, seed = 1) {
  const { B, T, d } = shape;
  const params = createParameters(shape, seed);
  const variables = variablesOf(params);
  const state = { t: 0, m: variables.map((v) => tf.variable(tf.zerosLike(v))), v: variables.map((v) => tf.variable(tf.zerosLike(v))) };
  const pe = sinusoidal(T, d);
  const causalBias = tf.linalg.bandPart(tf.ones([T, T]), -1, 0).sub(1).mul(1e9);
  return {
    step(batch) {
      return tf.tidy(() => {
        const rows = tf.tensor2d(batch, [B, T + 1], 'int32');
        const inputs = rows.slice([0, 0], [B, T]);
        const targets = rows.slice([0, 1], [B, T]).reshape([B * T]);
        const { value, grads } = tf.variableGrads(() => meanLoss(params, inputs, targets, shape, pe, causalBias), variables);
        adamW(variables, grads, state, ADAMW);
        return value.dataSync()[0];
      });
    },
  };
}

// A fixed batch: the same bytes the core's benchmark step trains on (seeded LCG over the vocabulary).
export function benchBatch({ V, T, B } = BENCH_MODEL, seed = 1) {
  const tokens = new Int32Array(B * (T + 1));
  let s = seed >>> 0;
  for (let i = 0; i < tokens.length; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    tokens[i] = s % V;
  }
  return tokens;
}

/** Tokens per second over `steps` timed steps after `warmUp` untimed ones. */
export async function measure(backend, { steps = 20, warmUp = 3 } = {}) {
  await useBackend(backend);
  const trainer = createTrainer();
  const batch = benchBatch();
  const losses = [];
  for (let i = 0; i < warmUp; i++) losses.push(trainer.step(batch));
  const start = performance.now();
  for (let i = 0; i < steps; i++) losses.push(trainer.step(batch));
  const seconds = (performance.now() - start) / 1000;
  const { B, T } = BENCH_MODEL;
  return { backend, steps, seconds, tokensPerSecond: (B * T * steps) / seconds, firstLoss: losses[0], lastLoss: losses.at(-1) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const arg = (name, fallback) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? process.argv[i + 1] : fallback;
  };
  const result = await measure(arg('--backend', 'wasm'), { steps: Number(arg('--steps', 20)) });
  console.log(process.argv.includes('--json') ? JSON.stringify(result) :
    `${result.backend}: ${result.tokensPerSecond.toFixed(0)} tokens/s over ${result.steps} steps ` +
    `(loss ${result.firstLoss.toFixed(4)} → ${result.lastLoss.toFixed(4)})`);
}
