// Trainable models of docs/ARCHITECTURE.md ("The trained model"): the JS side of the core's TrainableModel.
// lab.createModel / lab.loadModel (web/posenc.mjs) hand out Model objects; every method checks its
// arguments' types here and their values in the core, which refuses before it allocates.
//
// Shapes: tokens B·(T+1) ids (row b feeds [0, T) and predicts [1, T]); mask B·T of 0/1;
// attention L·h·n·n; logits n·V; grads one Float32Array per tensor, named as in the file.
// Tasks (lab.createTask) live in the core and generate their own batches, so train / evaluate
// cross the wasm boundary once per call, however many steps or lengths they cover.
import { checkBoolean, checkEnum, checkFinite, checkInt, checkNumber, checkOptions } from './checks.mjs';
import { LIMITS } from './options.mjs';

const CONFIG_KEYS = [
  'scheme', 'vocab', 'd', 'layers', 'heads', 'context', 'dPos', 'seed', 'base', 'pairing', 'alpha', 'positionScale',
  'wordPca', 't5Buckets', 't5MaxDistance', 'frozenEmbedding',
];
const INTEGER_KEYS = ['vocab', 'd', 'layers', 'heads', 'context', 'dPos', 'seed', 't5Buckets', 't5MaxDistance'];
// Enum names (RoPE scalings, synthetic kinds) and trainStep's AdamW defaults are the core's
// (lab.modelLimits: adamw, syntheticKinds); the core maps names to its enums and names a wrong one.
const WEIGHT_DTYPES = ['f32', 'f16'];
// Evaluation batches are drawn from their own seed, so they never replay the training stream.
const EVALUATION_SEED = 0x5eed;
// The core's handle behind each Task, for Model.train / evaluate (not public).
const taskHandles = new WeakMap();

/**
 * A training task in the core (lab.createTask): { kind: 'text', text, heldOutPercent = 10 }
 * (character-level language model; vocabulary = the text's distinct code points, sorted) or
 * { kind: 'copy' | 'reverse' | 'sort', symbols = 10 } (rows x_1 … x_n SEP y_1 … y_n with
 * n = ⌊T/2⌋ at length T, only the answer counted).
 */
export class Task {
  #handle;
  #codePoints;

  /** Not for direct use: lab.createTask(spec). */
  constructor(handle, kind) {
    this.#handle = handle;
    taskHandles.set(this, () => this.#live());
    this.kind = kind;
    this.vocab = Object.freeze(handle.vocab());
    this.vocabSize = this.vocab.length;
    this.#codePoints = kind === 'text' ? this.vocab.map((t) => t.codePointAt(0)) : null;
    Object.freeze(this);
  }

  /** Token ids of a text (text tasks: one per character) or of whitespace-separated token names. */
  encode(text) {
    if (typeof text !== 'string') throw new TypeError('text must be a string');
    const pieces = this.#codePoints ? Array.from(text) : text.split(/\s+/).filter(Boolean);
    return Int32Array.from(pieces, (piece, i) => {
      const id = this.#codePoints ? this.#codePoints.indexOf(piece.codePointAt(0)) : this.vocab.indexOf(piece);
      if (id < 0) throw new RangeError(`text has ${JSON.stringify(piece)} (piece ${i}), which is not in the task's vocabulary`);
      return id;
    });
  }

  /** The text of token ids (text tasks: concatenated characters; others: names joined by spaces). */
  decode(ids) {
    const pieces = Array.from(ids, (id) => {
      if (!Number.isInteger(id) || id < 0 || id >= this.vocabSize) throw new RangeError(`ids must be token ids from 0 to ${this.vocabSize - 1}`);
      return this.vocab[id];
    });
    return pieces.join(this.#codePoints ? '' : ' ');
  }

  dispose() {
    if (!this.#handle) return;
    this.#handle.delete();
    this.#handle = null;
  }

  #live() {
    if (!this.#handle) throw new RangeError('this task has been disposed');
    return this.#handle;
  }
}

/** A Task from its spec (see Task), built in the core once. */
function createTask(core, limits, spec, withBytes) {
  checkOptions('spec', spec, ['kind', 'text', 'heldOutPercent', 'symbols']);
  const kinds = ['text', ...limits.syntheticKinds];
  const kind = kinds[checkEnum('kind', spec.kind, kinds)];
  const handle = new core.TrainingTask();
  try {
    let error;
    if (kind === 'text') {
      if (spec.symbols !== undefined) throw new TypeError(`symbols is for ${limits.syntheticKinds.map((k) => `'${k}'`).join(', ')} tasks`);
      const bytes = typeof spec.text === 'string' ? new TextEncoder().encode(spec.text) : spec.text;
      if (!(bytes instanceof Uint8Array)) throw new TypeError('text must be a string or a Uint8Array of UTF-8');
      const percent = checkInt('heldOutPercent', spec.heldOutPercent ?? limits.defaultHeldOutPercent, 0, limits.maxHeldOutPercent);
      error = withBytes(bytes, (address) => handle.fromText(address, bytes.length, percent));
    } else {
      if (spec.text !== undefined || spec.heldOutPercent !== undefined) throw new TypeError("text and heldOutPercent are for 'text' tasks");
      error = handle.fromSynthetic(kind, checkInt('symbols', spec.symbols ?? 10, 2, limits.maxSymbols));
    }
    if (error) throw new RangeError(error);
  } catch (failure) {
    handle.delete();
    throw failure;
  }
  return new Task(handle, kind);
}

/**
 * The model core (posenc-models-<flavour>, its own wasm module and heap, loaded on demand by
 * loadModels() in posenc.mjs): makes models and tasks, which live in its heap.
 */
export class Models {
  #core;
  #text;
  #buffer = 0;    // heap address of the scratch buffer, reused by every model of this core
  #capacity = 0;  // in floats

  /** Not for direct use: loadModels() or lab.loadModels(). */
  constructor(core, simd, text) {
    this.#core = core;
    this.#text = text;
    this.simd = simd;
    /** The core's model limits (src/model/config.hpp, transformer.hpp): one home. */
    this.modelLimits = Object.freeze(core.modelLimits());
    Object.freeze(this);
  }

  /** A trainable model of docs/ARCHITECTURE.md ("The trained model"), seeded from config.seed. */
  createModel(config) {
    const json = configJson(config);
    return this.#adopt((handle) => handle.create(json));
  }

  /** A training task in the core for model.train / evaluate (Task). */
  createTask(spec) {
    return createTask(this.#core, this.modelLimits, spec, (bytes, fn) => this.#withBytes(bytes, 'text', fn));
  }

  /**
   * A model from its safetensors weights file; a bad file is refused and nothing else changes.
   * options.vectors: the bytes of the word-vector file a frozen word model was trained on, for a
   * file that leaves its wte rows out (the shipped models: lab.loadPretrained passes GloVe's).
   */
  loadModel(bytes, options = {}) {
    checkOptions('options', options, ['vectors']);
    bytes = asBytes('bytes', bytes);
    const vectors = options.vectors === undefined ? new Uint8Array(0) : asBytes('vectors', options.vectors);
    return this.#withBytes(bytes, 'weights file', (address) => this.#withBytes(vectors, 'word-vector file', (at) =>
      this.#adopt((handle) => handle.load(address, bytes.length, at, vectors.length))));
  }

  #adopt(start) {
    const handle = new this.#core.TrainableModel();
    const error = start(handle);
    if (error) {
      handle.delete();
      throw new RangeError(error);
    }
    return new Model(this.#core, handle, (floats, fn) => this.#scratch(floats, fn), this.modelLimits, this.#text);
  }

  // Runs fn(address) with a heap copy of bytes, freed afterwards.
  #withBytes(bytes, what, fn) {
    const address = this.#core._malloc(Math.max(1, bytes.length));
    if (!address) throw new RangeError(`not enough wasm memory for a ${bytes.length}-byte ${what}`);
    try {
      this.#core.HEAPU8.set(bytes, address);
      return fn(address);
    } finally {
      this.#core._free(address);
    }
  }

  // Runs fn(address) with `floats` floats of scratch heap, one allocation grown as needed.
  #scratch(floats, fn) {
    if (floats > this.#capacity) {
      if (this.#buffer) this.#core._free(this.#buffer);
      this.#buffer = 0;
      this.#capacity = 0;
      const address = this.#core._malloc(floats * 4);
      if (!address) throw new RangeError(`not enough wasm memory for ${floats} floats of scratch`);
      this.#buffer = address;
      this.#capacity = floats;
    }
    return fn(this.#buffer);
  }
}

function asBytes(name, bytes) {
  if (bytes instanceof ArrayBuffer) return new Uint8Array(bytes);
  if (!(bytes instanceof Uint8Array)) throw new TypeError(`${name} must be a Uint8Array or an ArrayBuffer`);
  return bytes;
}

/** The config as the core's JSON: types checked here, values (limits, dependent rules) in the core. */
export function configJson(config) {
  checkOptions('config', config, CONFIG_KEYS);
  if (config.scheme === undefined) throw new TypeError('scheme is required');
  if (config.vocab === undefined) throw new TypeError('vocab is required');
  if (typeof config.scheme !== 'string') throw new TypeError('scheme must be a string');
  for (const key of ['pairing', 'wordPca']) {
    if (config[key] !== undefined && typeof config[key] !== 'string') throw new TypeError(`${key} must be a string`);
  }
  for (const key of INTEGER_KEYS) {
    if (config[key] !== undefined) checkInt(key, config[key], 0, LIMITS.maxSeed);
  }
  for (const key of ['base', 'alpha', 'positionScale']) {
    if (config[key] !== undefined) checkFinite(key, config[key]);
  }
  if (config.frozenEmbedding !== undefined) checkBoolean('frozenEmbedding', config.frozenEmbedding);
  return JSON.stringify(config);
}

/**
 * Thrown by trainStep and train when a step diverged: its loss or its gradient norm was not
 * finite (NaN or ±Infinity). That step was not applied — the weights, AdamW's state and m.steps
 * are those of the last good step — so the run can go on with a lower lr or clipping.
 * step: the diverged step (1-based, = m.steps + 1); loss: its loss (NaN, ±Infinity, or finite
 * when only a gradient overflowed); losses: the losses of the steps train applied before it.
 */
export class TrainingDivergedError extends Error {
  constructor(step, loss, losses = new Float32Array(0)) {
    super(`step ${step} diverged (loss ${loss}${Number.isFinite(loss) ? ', a gradient not finite' : ''}): ` +
      `it was not applied, the weights are those after step ${step - 1}; lower lr or set clip`);
    this.name = 'TrainingDivergedError';
    this.step = step;
    this.loss = loss;
    this.losses = losses;
  }
}

export class Model {
  #core;
  #handle;
  #scratch;
  #limits;  // lab.modelLimits: the core's own, one home
  #text;    // lab.tokenize's argument check, returning the text as the core may take it

  /** Not for direct use: lab.createModel(config), lab.loadModel(bytes) or lab.loadPretrained(name). */
  constructor(core, handle, scratch, limits, text) {
    this.#core = core;
    this.#handle = handle;
    this.#scratch = scratch;
    this.#limits = limits;
    this.#text = text;
    this.config = Object.freeze(JSON.parse(handle.config()));
    this.parameterCount = handle.parameterCount();
    this.tensors = Object.freeze(JSON.parse(handle.tensors()).map(([name, rows, cols, offset]) =>
      Object.freeze({ name, shape: Object.freeze(cols ? [rows, cols] : [rows]), offset })));
    /** The token strings stored in the weights file, in id order (a word-level model's '<unk>' at unknownId), or null. */
    this.vocab = handle.hasVocab() ? Object.freeze(handle.vocab()) : null;
    const unknownId = handle.unknownId();
    /** The id every token outside the vocabulary maps to (word-level models, e.g. lab.loadPretrained), else null. */
    this.unknownId = unknownId >= 0 ? unknownId : null;
    Object.freeze(this);
  }

  /**
   * Word-level models: the ids of lab.tokenize(text)'s tokens, one per token in the same order
   * (a token outside the vocabulary → unknownId), from one call into the core.
   */
  tokenize(text) {
    if (this.unknownId === null) throw new RangeError('this model has no word vocabulary (only word-level models, e.g. lab.loadPretrained, tokenize)');
    return this.#live().tokenize(this.#text(text));
  }

  /** Training steps taken (AdamW's t). */
  get steps() {
    return this.#live().steps();
  }

  /** Mean next-token cross-entropy over the counted targets; no update. */
  loss(tokens, B, T, options = {}) {
    checkOptions('options', options, ['mask', 'ropeScaling']);
    const [rope, factor] = ropeScaling(options.ropeScaling);
    return this.#batchCall(tokens, B, T, options.mask, 0, (t, count, m, mCount, _, out) =>
      this.#live().loss(t, count, B, T, m, mCount, rope, factor, out));
  }

  /** { loss, grads: { [tensorName]: Float32Array } }; no update. */
  gradients(tokens, B, T, options = {}) {
    checkOptions('options', options, ['mask']);
    const loss = this.#batchCall(tokens, B, T, options.mask, 0, (t, count, m, mCount, _, out) =>
      this.#live().gradients(t, count, B, T, m, mCount, out));
    const all = this.#heapF32(this.#live().gradientsAddress(), this.parameterCount);
    const grads = {};
    for (const { name, offset, shape } of this.tensors) grads[name] = all.slice(offset, offset + size(shape));
    return { loss, grads };
  }

  /**
   * clip_grad_norm_ then AdamW (docs/ARCHITECTURE.md, "Training step"); returns the loss before the update. A diverged step
   * (loss or gradient norm not finite) is not applied: TrainingDivergedError.
   */
  trainStep(tokens, B, T, options = {}) {
    checkOptions('options', options, ['mask', ...Object.keys(this.#limits.adamw)]);
    const adamw = this.#adamw(options);
    const before = this.steps;
    const loss = this.#batchCall(tokens, B, T, options.mask, adamw.length * 2, (t, count, m, mCount, extra, out) => {
      this.#core.HEAPF64.set(adamw, extra / 8);
      return this.#live().trainStep(t, count, B, T, m, mCount, extra, out);
    });
    if (this.steps === before) throw new TrainingDivergedError(before + 1, loss);
    return loss;
  }

  /** Every layer's and head's attention weights on one sequence: Float32Array(L·h·n·n). */
  attention(tokens, n, options = {}) {
    checkOptions('options', options, ['ropeScaling']);
    const { layers, heads } = this.config;
    return this.#sequenceCall('attention', tokens, n, layers * heads * n * n, options);
  }

  /** Next-token logits at every position of one sequence: Float32Array(n·V). */
  logits(tokens, n, options = {}) {
    checkOptions('options', options, ['ropeScaling']);
    return this.#sequenceCall('logits', tokens, n, n * this.config.vocab, options);
  }

  /**
   * `steps` training steps on the task's batches `start`, `start` + 1, … (default: this.steps, so
   * successive calls continue one deterministic stream); returns each step's loss before its
   * update. Stops at a diverged step (not applied): TrainingDivergedError, whose losses are
   * those of the steps applied before it. Options: steps = 1, B = 16, T = config.context, seed = 1, start, and AdamW's options.
   */
  train(task, options = {}) {
    const handle = taskHandle(task);
    checkOptions('options', options, ['steps', 'B', 'T', 'seed', 'start', ...Object.keys(this.#limits.adamw)]);
    const steps = checkInt('steps', options.steps ?? 1, 1, this.#limits.maxTrainSteps);
    const B = checkInt('B', options.B ?? 16, 1, this.#limits.maxBatch);
    const T = checkInt('T', options.T ?? this.config.context, 2, this.#limits.maxSequence);
    const seed = checkInt('seed', options.seed ?? 1, 0, LIMITS.maxSeed);
    const start = checkInt('start', options.start ?? this.steps, 0, Number.MAX_SAFE_INTEGER);
    const adamw = this.#adamw(options);
    return this.#scratch(2 * adamw.length + 2 + steps, (address) => {
      const optionsAt = align8(address);
      const lossesAt = optionsAt + 8 * adamw.length;
      this.#core.HEAPF64.set(adamw, optionsAt / 8);
      const before = this.steps;
      const error = this.#live().train(handle, B, T, seed, start, steps, optionsAt, lossesAt);
      if (error) throw new RangeError(error);
      // The core stops after a diverged step (not applied); its loss is the last one written.
      const applied = this.steps - before;
      const losses = this.#core.HEAPF32.slice(lossesAt / 4, lossesAt / 4 + Math.min(steps, applied + 1));
      if (applied < steps) throw new TrainingDivergedError(before + applied + 1, losses[applied], losses.subarray(0, applied));
      return losses;
    });
  }

  /**
   * Loss (and for copy/reverse/sort the answer accuracy) at each evaluation length, on held-out
   * text or freshly seeded examples: [{ length, loss, accuracy, exactMatch }] (accuracy and
   * exactMatch NaN for text; all three NaN where a length cannot be evaluated: beyond a learned
   * table, or longer than the held-out text). Options: lengths = [config.context], B = 8,
   * batches = 2, seed, ropeScaling.
   */
  evaluate(task, options = {}) {
    const handle = taskHandle(task);
    checkOptions('options', options, ['lengths', 'B', 'batches', 'seed', 'ropeScaling']);
    const lengths = options.lengths ?? [this.config.context];
    if (!Array.isArray(lengths)) throw new TypeError('lengths must be an array of integers');
    const maxLengths = this.#limits.maxEvalLengths;
    if (lengths.length < 1 || lengths.length > maxLengths) throw new RangeError(`lengths must hold 1 to ${maxLengths} lengths`);
    lengths.forEach((length, i) => checkInt(`lengths[${i}]`, length, 2, this.#limits.maxSequence));
    const B = checkInt('B', options.B ?? 8, 1, this.#limits.maxBatch);
    const batches = checkInt('batches', options.batches ?? 2, 1, this.#limits.maxEvalBatches);
    const seed = checkInt('seed', options.seed ?? EVALUATION_SEED, 0, LIMITS.maxSeed);
    const [rope, factor] = ropeScaling(options.ropeScaling);
    return this.#scratch(2 * lengths.length * 4 + 2, (address) => {
      const lengthsAt = align8(address);
      const outAt = lengthsAt + 8 * lengths.length;
      this.#core.HEAPF64.set(lengths, lengthsAt / 8);
      const error = this.#live().evaluate(handle, B, batches, seed, lengthsAt, lengths.length, rope, factor, outAt);
      if (error) throw new RangeError(error);
      const out = this.#core.HEAPF64.slice(outAt / 8, outAt / 8 + 3 * lengths.length);
      return lengths.map((length, i) => ({ length, loss: out[3 * i], accuracy: out[3 * i + 1], exactMatch: out[3 * i + 2] }));
    });
  }

  /**
   * What the lanes draw, from one pass through the model (one wasm call): { attention:
   * Float32Array(L·h·n·n), as attention() gives it, surprise: Float32Array(n − 1), entry i =
   * −ln p(tokens[i + 1] | tokens[0 … i]) }. The model keeps the rows of its previous inspect call
   * and recomputes only those from the first id that differs (the model is causal), so typing at
   * the end of a sentence costs about one row; the values equal a fresh pass bit for bit.
   * options.layer and options.head (0-based, both or neither): attention is that head's n×n map
   * alone (what one figure shows; a keystroke then copies n² floats, not L·h·n²).
   * options.fromRow (an integer from 0 to n − 1, default 0): each map's rows fromRow … n − 1 alone,
   * (n − fromRow)·n floats a map, for a caller that holds the map of ids sharing their first
   * fromRow with these (row i reads ids 0 … i only): typing inside the last word then copies one
   * row, not n².
   * options.into: a Float32Array of exactly attention's length, which receives the map and is
   * returned as attention, so that a caller who keeps its arrays (a worker whose buffers the page
   * gives back) makes no fresh one per call.
   */
  inspect(tokens, n, options = {}) {
    checkOptions('options', options, ['ropeScaling', 'layer', 'head', 'fromRow', 'into']);
    return this.#inspect(tokens, n, options.ropeScaling, oneMap(options, this.config.layers, this.config.heads), options.into, options.fromRow ?? 0);
  }

  /** Float32Array(n − 1): entry i is −ln p(tokens[i + 1] | tokens[0 … i]) (inspect's surprise). */
  tokenLosses(tokens, n, options = {}) {
    checkInt('n', n, 2, 2 ** 31 - 1);
    checkOptions('options', options, ['ropeScaling']);
    return this.#inspect(tokens, n, options.ropeScaling, null, undefined, 0).surprise;
  }

  // The core's inspect. map: layer·heads + head, −1 for every map, or null for none (the core is
  // given no attention buffer and copies none; attention is then null). into, fromRow: inspect's.
  #inspect(tokens, n, scaling, map, into, fromRow) {
    checkInt('n', n, 1, 2 ** 31 - 1);
    checkIds('tokens', tokens, n, '(n)');
    checkInt('options.fromRow', fromRow, 0, n - 1);
    const [rope, factor] = ropeScaling(scaling);
    const { layers, heads } = this.config;
    const mapFloats = map === null ? 0 : (map < 0 ? layers * heads : 1) * (n - fromRow) * n;
    if (into !== undefined) checkInto(into, mapFloats);
    return this.#scratch(n + mapFloats + n, (address) => {
      const attentionAt = address + 4 * n;
      const surpriseAt = attentionAt + 4 * mapFloats;
      this.#core.HEAP32.set(tokens, address / 4);
      const error = this.#live().inspect(address, n, rope, factor, map ?? -1, fromRow, map === null ? 0 : attentionAt, surpriseAt);
      if (error) throw new RangeError(error);
      return {
        attention: map === null ? null : heapFloats(this.#core.HEAPF32, attentionAt / 4, mapFloats, into),
        surprise: this.#core.HEAPF32.slice(surpriseAt / 4, surpriseAt / 4 + n - 1),
      };
    });
  }

  /**
   * `length` tokens continuing `prompt` (ids), each predicted from at most the last config.context
   * tokens: greedy at temperature 0 (the default), else drawn from softmax(logits/temperature)
   * with `seed`. Returns Int32Array(length).
   */
  generate(prompt, length, options = {}) {
    checkOptions('options', options, ['temperature', 'seed']);
    if (!isArrayLike(prompt)) throw new TypeError('prompt must be an Int32Array or an array of integers');
    checkIds('prompt', prompt, prompt.length, '');
    if (prompt.length < 1) throw new RangeError('prompt must hold at least one token');
    checkInt('length', length, 1, this.#limits.maxGenerate);
    const temperature = checkFinite('temperature', options.temperature ?? 0);
    const seed = checkInt('seed', options.seed ?? 1, 0, LIMITS.maxSeed);
    return this.#scratch(prompt.length + length, (address) => {
      const out = address + 4 * prompt.length;
      this.#core.HEAP32.set(prompt, address / 4);
      const error = this.#live().generate(address, prompt.length, length, temperature, seed, out);
      if (error) throw new RangeError(error);
      return this.#core.HEAP32.slice(out / 4, out / 4 + length);
    });
  }

  /** { [tensorName]: Float32Array }: copies of the current parameters. */
  parameters() {
    const all = this.#heapF32(this.#live().parameters(), this.parameterCount);
    return Object.fromEntries(this.tensors.map(({ name, offset, shape }) => [name, all.slice(offset, offset + size(shape))]));
  }

  /** The safetensors weights file (docs/ARCHITECTURE.md), F32 by default or { dtype: 'f16' }. */
  save(options = {}) {
    checkOptions('options', options, ['dtype']);
    const dtype = checkEnum('dtype', options.dtype ?? 'f32', WEIGHT_DTYPES);
    const handle = this.#live();
    const error = handle.save(dtype === 1);
    if (error) throw new RangeError(error);
    try {
      return this.#core.HEAPU8.slice(handle.savedAddress(), handle.savedAddress() + handle.savedSize());
    } finally {
      handle.releaseSaved();
    }
  }

  dispose() {
    if (!this.#handle) return;
    this.#handle.delete();
    this.#handle = null;
  }

  #live() {
    if (!this.#handle) throw new RangeError('this model has been disposed');
    return this.#handle;
  }

  #heapF32(address, length) {
    return new Float32Array(this.#core.HEAPF32.buffer, address, length);
  }

  // AdamW's options in the core's order, its defaults for the missing ones. Numbers only: their
  // ranges are the core's (model/adamw.cpp, validate), checked there once.
  #adamw(options) {
    return Object.entries(this.#limits.adamw).map(([name, fallback]) => checkNumber(name, options[name] ?? fallback));
  }

  // Scratch layout (bytes): tokens int32 | mask bytes (rounded up to 8) | extra doubles | loss double.
  #batchCall(tokens, B, T, mask, extraFloats, call) {
    checkInt('B', B, 1, 2 ** 31 - 1);
    checkInt('T', T, 1, 2 ** 31 - 1);
    checkIds('tokens', tokens, B * (T + 1), '(B·(T + 1))');
    if (mask !== undefined) checkMask(mask, B * T);
    const maskBytes = mask === undefined ? 0 : Math.ceil(mask.length / 8) * 8;
    const floats = tokens.length + maskBytes / 4 + extraFloats + 2 + 2;
    return this.#scratch(floats, (address) => {
      const tokenAt = align8(address);
      const maskAt = tokenAt + 4 * tokens.length + (tokens.length % 2) * 4;
      const extraAt = maskAt + maskBytes;
      const lossAt = extraAt + 4 * extraFloats;
      this.#core.HEAP32.set(tokens, tokenAt / 4);
      if (mask !== undefined) this.#core.HEAPU8.set(mask, maskAt);
      const error = call(tokenAt, tokens.length, mask === undefined ? 0 : maskAt, mask?.length ?? 0, extraAt, lossAt);
      if (error) throw new RangeError(error);
      return this.#core.HEAPF64[lossAt / 8];
    });
  }

  #sequenceCall(method, tokens, n, outFloats, options) {
    checkInt('n', n, 1, 2 ** 31 - 1);
    checkIds('tokens', tokens, n, '(n)');
    const [rope, factor] = ropeScaling(options.ropeScaling);
    return this.#scratch(tokens.length + outFloats, (address) => {
      const out = address + 4 * tokens.length;
      this.#core.HEAP32.set(tokens, address / 4);
      const error = this.#live()[method](address, n, rope, factor, out);
      if (error) throw new RangeError(error);
      return this.#core.HEAPF32.slice(out / 4, out / 4 + outFloats);
    });
  }
}

function taskHandle(task) {
  const live = taskHandles.get(task);
  if (!live) throw new TypeError('task must be a Task from lab.createTask');
  return live();
}

function size(shape) {
  return shape.reduce((a, b) => a * b, 1);
}

function align8(address) {
  return (address + 7) & ~7;
}

// { type, factor } → [type, factor] for the core, which checks the type's name and the factor's
// range; undefined → none. factor left out: the core's s = max(1, length / context) at each length.
function ropeScaling(value) {
  if (value === undefined) return ['none', undefined];
  checkOptions('ropeScaling', value, ['type', 'factor']);
  if (typeof value.type !== 'string') throw new TypeError('ropeScaling.type must be a string');
  return [value.type, value.factor === undefined ? undefined : checkFinite('ropeScaling.factor', value.factor)];
}

// inspect's map: layer·heads + head for options.layer/options.head, −1 (every map) when neither.
function oneMap({ layer, head }, layers, heads) {
  if (layer === undefined && head === undefined) return -1;
  if (layer === undefined || head === undefined) throw new TypeError('options.layer and options.head go together: give both or neither');
  return checkInt('options.layer', layer, 0, layers - 1) * heads + checkInt('options.head', head, 0, heads - 1);
}

// inspect's options.into: a Float32Array of the map's `floats` floats.
function checkInto(into, floats) {
  if (!(into instanceof Float32Array)) throw new TypeError('options.into must be a Float32Array');
  if (into.length !== floats) throw new RangeError(`options.into holds ${into.length} floats; the map has ${floats}`);
}

// `floats` floats of the heap from index `at`: written into `into` when given, else a fresh copy.
function heapFloats(heap, at, floats, into) {
  if (!into) return heap.slice(at, at + floats);
  into.set(heap.subarray(at, at + floats));
  return into;
}

function isArrayLike(values) {
  return Array.isArray(values) || (ArrayBuffer.isView(values) && !(values instanceof DataView));
}

// Integers that survive the copy into an Int32Array unchanged; the core checks them against the
// vocabulary.
function checkIds(name, values, length, what) {
  if (!isArrayLike(values)) throw new TypeError(`${name} must be an Int32Array or an array of integers`);
  if (values.length !== length) throw new RangeError(`${name} must have ${length} elements ${what}, got ${values.length}`);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (!Number.isInteger(v)) throw new TypeError(`${name}[${i}] must be an integer`);
    if (v < 0 || v > 0x7fffffff) throw new RangeError(`${name}[${i}] must be a token id from 0 to vocab − 1 (got ${v})`);
  }
}

function checkMask(mask, length) {
  if (!isArrayLike(mask)) throw new TypeError('mask must be a Uint8Array or an array of 0 and 1');
  if (mask.length !== length) throw new RangeError(`mask must have ${length} elements (B·T), got ${mask.length}`);
  for (let i = 0; i < mask.length; i++) {
    if (mask[i] !== 0 && mask[i] !== 1 && mask[i] !== true && mask[i] !== false) {
      throw new RangeError(`mask[${i}] must be 0 or 1`);
    }
  }
}

