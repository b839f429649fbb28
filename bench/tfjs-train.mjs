// The training benchmark's peer: docs/ARCHITECTURE.md's model in TensorFlow.js (bench/tfjs-model.mjs) with
// clip_grad_norm_ then AdamW written out in tensor ops (TF.js's own Adam has no decoupled decay),
// one thread, timed on the batch shape of the core's benchmark step.
//
//   node bench/tfjs-train.mjs [--backend wasm|cpu] [--steps N] [--json]
import { setThreadsCount, setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import { fileURLToPath } from 'node:url';
import { load } from '../dist/posenc.mjs';
import { BENCH_MODEL } from './grid.mjs';
import { initialTensors, meanLoss, tf, variablesFrom } from './tfjs-model.mjs';

export { BENCH_MODEL };
// The core's AdamW defaults (docs/ARCHITECTURE.md, "Training step"), so the peer trains with the same options.
const lab = await load();
await lab.loadModels?.();  // a lazily loaded model core, where the build has one
const ADAMW = lab.modelLimits.adamw;

// tfjs's wasm files live in its package; one thread, as the core's step runs on one.
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

// clip_grad_norm_ then AdamW (docs/ARCHITECTURE.md, "Training step"); 2-D tensors decay.
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

/** A trainer for `config`; step(tokens) returns the loss before the update. */
export function createTrainer(config = BENCH_MODEL, seed = 1) {
  const params = variablesFrom(initialTensors(config, seed));
  const variables = Object.values(params);
  const zeros = () => variables.map((v) => tf.variable(tf.zerosLike(v)));
  const state = { t: 0, m: zeros(), v: zeros() };
  const { batch: B, context: T } = config;
  return {
    step(tokens) {
      return tf.tidy(() => {
        const { value, grads } = tf.variableGrads(() => meanLoss(config, params, tokens, B, T), variables);
        adamW(variables, grads, state, ADAMW);
        return value.dataSync()[0];
      });
    },
  };
}

// The fixed batch of the benchmark (seeded LCG over the vocabulary).
export function benchBatch({ vocab, context, batch } = BENCH_MODEL, seed = 1) {
  const tokens = new Int32Array(batch * (context + 1));
  let s = seed >>> 0;
  for (let i = 0; i < tokens.length; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    tokens[i] = s % vocab;
  }
  return tokens;
}

/**
 * One step function per backend, for the interleaved harness (bench/wasm-harness.mjs): each has
 * its own trainer on the benchmark batch and selects its backend before stepping — synchronous
 * once the backend has started, and each trainer's tensors live on their own backend, so no data
 * moves between them.
 */
export async function stepFunctions(backends = ['wasm', 'cpu']) {
  const variants = [];
  for (const name of backends) {
    await useBackend(name);
    const trainer = createTrainer();
    const tokens = benchBatch();
    variants.push({
      name: `tfjs_${name}`,
      fn: () => {
        tf.setBackend(name);
        if (tf.getBackend() !== name) throw new Error(`TensorFlow.js backend ${name} was not selected synchronously`);
        return trainer.step(tokens);
      },
    });
  }
  return variants;
}

/** Tokens per second over `steps` timed steps after `warmUp` untimed ones. */
export async function measure(backend, { steps = 20, warmUp = 3 } = {}) {
  await useBackend(backend);
  const trainer = createTrainer();
  const tokens = benchBatch();
  const losses = [];
  for (let i = 0; i < warmUp; i++) losses.push(trainer.step(tokens));
  const start = performance.now();
  for (let i = 0; i < steps; i++) losses.push(trainer.step(tokens));
  const seconds = (performance.now() - start) / 1000;
  const { batch, context } = BENCH_MODEL;
  return { backend, steps, seconds, tokensPerSecond: (batch * context * steps) / seconds, firstLoss: losses[0], lastLoss: losses.at(-1) };
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
