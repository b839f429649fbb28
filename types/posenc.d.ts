// Declarations for the JS API, `posenc-lab` (dist/posenc.mjs, web/posenc.mjs, web/model.mjs).
// Hand-written from docs/API.md and docs/MODELS.md, but for the unions of scheme names, families,
// RoPE scalings, layouts and concatenation modes and the SchemeParameters options, which the build generates from the core's table (dist/scheme-table.d.mts, shipped
// in the package beside this folder); tests/js/package.test.mjs type-checks a consumer against
// them with `tsc --strict`, and checks that a wrong call fails to.
//
// Shapes: every matrix is row-major; an n×d matrix is a Float32Array(n*d) whose row p starts at
// p*d. Inputs may be any numeric typed array or a plain array of numbers (`Matrix`).

/** A row-major matrix as input: any numeric typed array or a plain array of numbers. */
export type Matrix = ArrayLike<number>;

// The scheme names, families, RoPE scalings, layouts and concatenation modes are the core's (src/encodings/scheme_table.hpp, beside the enums), as
// the build writes them beside the module (scripts/scheme-module.mjs → dist/scheme-table.d.mts).
import type {
  ConcatMode, Layout, RopeScalingType, Scheme, SchemeFamily, SchemeParameters, SyntheticKind, TrainableScheme, WordPca,
} from '../dist/scheme-table.mjs';
/** Scheme: the eleven positional schemes, in display order; SchemeFamily: where a scheme puts position;
 * RopeScalingType: 'none' (plain RoPE) or an extension; Layout: sinusoidal layout and RoPE pairing,
 * components (2i, 2i+1) or (i, i + d/2); ConcatMode: the concatenated scheme's width. */
export type { ConcatMode, Layout, RopeScalingType, Scheme, SchemeFamily, SyntheticKind, WordPca } from '../dist/scheme-table.mjs';
/** compare()'s, distanceCurves' and settleSchemeOptions' scheme parameters (the core's table, generated). */
export type { SchemeParameters } from '../dist/scheme-table.mjs';

export declare const SCHEMES: readonly Scheme[];
/** Each scheme's short display name, in display order (the core's scheme table). */
export declare const SCHEME_LABELS: Readonly<Record<Scheme, string>>;
/** The RoPE extensions: scheme → the ropeScaling type a rotary model takes for it. */
/** The RoPE scaling types ('none' first), the core's names. */
export declare const ROPE_SCALINGS: readonly RopeScalingType[];
export declare const SCHEME_ROPE_SCALING: Readonly<Partial<Record<Scheme, Exclude<RopeScalingType, 'none'>>>>;

/** One row of the core's scheme table (lab.schemeTable.schemes). */
export interface SchemeInfo {
  readonly name: Scheme;
  readonly label: string;
  readonly family: SchemeFamily;
  readonly trainable: boolean;
  readonly seeded: boolean;
  readonly terms: readonly string[];
  readonly paper: string;
  /** Rotation family only. */
  readonly ropeScaling?: RopeScalingType;
}

/** One scheme parameter of the core's table (lab.schemeTable.params). */
export interface SchemeParameterInfo {
  readonly name: keyof SchemeParameters;
  readonly label: string;
  readonly default: number;
  readonly min: number;
  readonly max: number;
  readonly minOpen: boolean;
  readonly integer: boolean;
  readonly even: boolean;
  readonly pageMin: number;
  readonly pageMax: number;
  readonly schemes: readonly Scheme[];
}

export interface SchemeTable {
  readonly schemes: readonly SchemeInfo[];
  readonly params: readonly SchemeParameterInfo[];
  readonly trainable: readonly Scheme[];
}

export interface Limits {
  readonly maxRows: number;
  readonly maxAttentionRows: number;
  readonly maxDim: number;
  readonly maxElements: number;
  readonly maxCompareTokens: number;
  readonly maxHeads: number;
  readonly maxBase: number;
  readonly maxOffset: number;
  readonly maxTextLength: number;
  readonly maxBuckets: number;
  readonly maxT5Distance: number;
  /** 2^20: every context length (trainedLength, evalLength, ropeFrequencies') and a model's ropeScaling.factor. */
  readonly maxContextLength: number;
  readonly maxCompareBuckets: number;
  readonly maxDistance: number;
  /** α scaling word vectors: a model's config.alpha, the page's α (above 0). */
  readonly maxAlpha: number;
  /** AdamW's learning rate range, [minLr, maxLr] (trainStep's and train's lr). */
  readonly minLr: number;
  readonly maxLr: number;
  /** Seeds are integers from 0 to maxSeed (2^32 − 1). */
  readonly maxSeed: number;
  /** Words in one vector file (lab.loadVectors; the page's own-vectors parser keeps at most this). */
  readonly maxVectorWords: number;
}
export declare const LIMITS: Limits;

export interface LoadOptions {
  /** false forces the scalar build; true requires wasm SIMD (RangeError where missing). */
  simd?: boolean;
  /**
   * The folder holding the data files (glove-6b-100d-20k.i8) when they are not beside the module;
   * relative to the page. Another origin must send Access-Control-Allow-Origin.
   */
  assetsUrl?: string | URL;
  /**
   * Start fetching the GloVe file now, beside the core, rather than at the first
   * lab.loadVectors('glove') or lab.loadPretrained, which then use those bytes (default false).
   */
  prefetch?: boolean;
}

/** Resolves once the wasm core is ready; one instance per flavour and assets folder, cached. */
export declare function load(options?: LoadOptions): Promise<Lab>;
/** Whether this engine runs wasm SIMD128. */
export declare function wasmSimdSupported(): boolean;
/** For bundles that carry the cores themselves (as the element does); not for pages. */
export declare function setCoreLoader(loader: (flavour: 'simd' | 'scalar') => Promise<unknown>,
  options?: { models?: (flavour: 'simd' | 'scalar') => Promise<unknown>; pretrained?: boolean }): void;
/** The model core (posenc-models-<flavour>: its own wasm module), fetched on first use; cached per flavour. */
export declare function loadModels(options?: { simd?: boolean }): Promise<Models>;

/** The model core: makes models and tasks, which live in its own heap (a type only). */
export interface Models {
  readonly simd: boolean;
  readonly modelLimits: ModelLimits;
  createTask(spec: TaskSpec): Task;
  createModel(config: ModelConfig): Model;
  loadModel(bytes: Uint8Array | ArrayBuffer): Model;
}

// ---- Options ------------------------------------------------------------------------------

/** The schemes' own parameters, shared by compare() and distanceCurves(). */
export interface CompareOptions extends SchemeParameters {
  schemes?: readonly Scheme[];
  alpha?: number;
  base?: number;
  layout?: Layout;
  pairing?: Layout;
  /** Even; default d/4 rounded to an even number. */
  dPos?: number;
  concat?: ConcatMode;
  causal?: boolean;
  /** 0: W = I ("raw similarity"); otherwise seeded random projections. */
  heads?: number;
  seed?: number;
  scale?: number;
  /** The same words in the basis whose leading coordinates the concatenated scheme keeps. */
  concatWords?: Matrix;
  /** A previous result whose arrays of the same length, or whose buffers where they have room, may be overwritten. */
  reuse?: CompareResult;
  /**
   * Schemes (among `schemes`) whose lanes bring x alone: weights, terms, masked and unmasked come
   * back empty, termMaxAbs too, and the lane says inputOnly. For lanes no figure shows this call.
   */
  inputOnly?: readonly Scheme[];
  /**
   * Schemes (among `schemes`) whose terms nobody will read this call: their weights are the same
   * bits, but the terms are not formed where the weights can do without them, nor copied out, so
   * their lanes' terms and termMaxAbs come back empty.
   */
  skipTerms?: readonly Scheme[];
}

export interface DistanceCurvesOptions extends SchemeParameters {
  d: number;
  maxDistance: number;
  schemes?: readonly Scheme[];
  base?: number;
  dPos?: number;
  concat?: ConcatMode;
  causal?: boolean;
}

// ---- Results ------------------------------------------------------------------------------

/** One scheme's lane of compare(). */
export interface Lane {
  /** Width of the encoded input (d, or d + dPos when widened). */
  width: number;
  /** Encoded input, n × width. */
  x: Float32Array;
  /** Attention weights, heads × n × n (empty when inputOnly). */
  weights: Float32Array;
  /** Logit terms, termNames.length × heads × n × n (empty when inputOnly or named in skipTerms). */
  terms: Float32Array;
  termNames: string[];
  /** Asked for with options.inputOnly: only x, width and the scheme's parameters were computed. */
  inputOnly?: true;
  xMaxAbs: number;
  /** max|term t| per term; empty when the lane brings no terms (inputOnly, skipTerms). */
  termMaxAbs: number[];
  /** alibi: the slopes. */
  slopes?: Float64Array;
  /** t5: the bucket of each (query, key). */
  buckets?: Int32Array;
  /** learned: rows at or past it are untrained. */
  trainedLength?: number;
  /** nope: attention with and without the causal mask. */
  masked?: Float32Array;
  unmasked?: Float32Array;
  /** The RoPE family: ω_i, the scale s and (yarn) the q·k factor. */
  frequencies?: Float64Array;
  scaleFactor?: number;
  qkFactor?: number;
}

export type CompareResult = {
  n: number;
  d: number;
  dPos: number;
  heads: number;
  schemes: Scheme[];
  /** The sinusoidal table of the additive lane, n × d. */
  pe?: Float32Array;
  /** The concatenated lane's table, n × dPos. */
  peConcat?: Float32Array;
} & { [S in Scheme]?: Lane };

export interface AnalysisOptions extends Omit<CompareOptions, 'concatWords'> {
  /** Tokens kept (the rest only counted in total); default limits.maxCompareTokens. */
  maxTokens?: number;
  /** Also return the sinusoidal tables pe (n × d) and peConcat (n × dPos). */
  peTables?: boolean;
  /** A previous update's vectors, overwritten in place or on their buffer where it has room. */
  reuseVectors?: Float32Array;
  /**
   * Options as the last successful update's and the text giving its tokens and total again:
   * nothing is computed or copied, and the update is { repeated: true } (the last arrays stand).
   */
  skipRepeat?: boolean;
}

export interface AnalysisUpdate {
  repeated?: undefined;
  tokens: string[];
  /** Tokens in the text before the cut to maxTokens. */
  total: number;
  /** true for a token outside the word-vector set (always false for synthetic vectors). */
  unknown: boolean[];
  /** The unscaled word vectors, n × d. */
  vectors: Float32Array;
  /** null when the text has no tokens. */
  result: CompareResult | null;
  /** With peTables (and tokens): n × d and n × dPos; otherwise null. */
  pe: Float32Array | null;
  peConcat: Float32Array | null;
}

/** What update gives with skipRepeat when nothing changed: the last update's arrays stand. */
export interface AnalysisRepeat {
  repeated: true;
}

/** One keystroke in one wasm call: see Lab.analysis. */
export interface Analysis {
  update(text: string, options: AnalysisOptions & { skipRepeat: true }): AnalysisUpdate | AnalysisRepeat;
  update(text: string, options?: AnalysisOptions): AnalysisUpdate;
  dispose(): void;
}

export interface NearestResult {
  best: Uint32Array;
  cosine: Float32Array;
  /** 1-based rank of the true row; present when options.truth was given. */
  rank?: Uint32Array;
}

export interface Vocabulary {
  readonly size: number;
  readonly dim: number;
  nearest(queries: Matrix, n: number, options?: { truth?: ArrayLike<number> }): NearestResult;
  neighbors(query: Matrix, k?: number): { row: number; cosine: number }[];
  dispose(): void;
}

export interface WordVectorSet {
  readonly name: 'glove' | 'custom';
  readonly dim: number;
  readonly size: number;
  readonly componentRms: number;
  tokenize(text: string): string[];
  has(word: string): boolean;
  indexOf(word: string): number;
  word(index: number): string;
  vector(word: string): Float32Array;
  neighbors(wordOrVector: string | Matrix, k?: number): { word: string; cosine: number }[];
  embed(tokens: readonly string[]): { vectors: Float32Array; unknown: boolean[] };
  nearest(queries: Matrix, n: number, options?: { truth?: ArrayLike<number> }): NearestResult;
  identity(
    tokens: readonly string[],
    vectors: Matrix,
    options?: { alpha?: number; additive?: boolean; base?: number; layout?: Layout },
  ): { best: Uint32Array; cosine: Float32Array; rank: Uint32Array };
  rows(): Float32Array;
  columnSpread(): Float32Array;
  retained(k: number): number;
  reduce(x: Matrix, n: number, k: number): Float32Array;
  reducedVocabulary(k: number): Vocabulary;
  /**
   * reducedVocabulary(k) a slice at a time: yields after each core call (a few thousand rows
   * projected, then the vocabulary made of them) and returns the same, cached vocabulary.
   */
  reducing(k: number): Generator<undefined, Vocabulary, undefined>;
  dispose(): void;
}

// ---- Trained models (docs/ARCHITECTURE.md, "The trained model"; web/model.mjs) ----

/** The schemes a model is built with (the core's table: lab.schemeTable.trainable). */
export type ModelScheme = TrainableScheme;

export interface ModelConfig {
  scheme: ModelScheme;
  vocab: number;
  d?: number;
  layers?: number;
  heads?: number;
  /** The training length T. */
  context?: number;
  /** concatenated only. */
  dPos?: number;
  seed?: number;
  base?: number;
  pairing?: Layout;
  alpha?: number;
  /** additive, concatenated: the sinusoidal input table is positionScale·PE (default 1). */
  positionScale?: number;
  /** concatenated word models: the axes wte's rows were reduced on ('centred' PCA, the default, or 'uncentred'). */
  wordPca?: WordPca;
  t5Buckets?: number;
  t5MaxDistance?: number;
  /** wte.weight stays fixed (no AdamW update, no decay, outside gradient clipping); its gradient is still reported. */
  frozenEmbedding?: boolean;
}

/** A model's config as the core states it: every key, but positionScale and wordPca only when not their defaults. */
export type SettledModelConfig = Required<Omit<ModelConfig, 'positionScale' | 'wordPca'>> & Pick<ModelConfig, 'positionScale' | 'wordPca'>;

/** One shipped word-level model (lab.pretrained). */
export interface PretrainedModelInfo {
  /** The scheme's name: 'additive', 'concatenated', 'rotary', 'nope', 'alibi' or 'learned'. */
  readonly name: string;
  readonly scheme: ModelScheme;
  /** The scheme's label (lab.SCHEME_LABELS). */
  readonly label: string;
  readonly config: Readonly<SettledModelConfig>;
  readonly vocabSize: number;
  /** Mean next-token cross-entropy (nats) over heldOutTokens held-out targets at the training length (the trainer's F16 model; the packed one the page runs is within 0.002 nats: data/README.md). */
  readonly heldOutLoss: number;
  readonly heldOutPerplexity: number;
  readonly heldOutTokens: number;
  /** The packed file's size and sha256 (hex): what travels (models/<name>.q8.safetensors; expanded before loadModel). */
  readonly bytes: number;
  readonly sha256: string;
  /** The packed file's first bytes: its header and every tensor the attention maps need (the output layer comes last); loadPretrained's onHeads gets a model of them. */
  readonly heads: { readonly bytes: number; readonly sha256: string };
}

export interface ModelLimits {
  readonly maxVocab: number;
  readonly maxWidth: number;
  readonly maxLayers: number;
  readonly maxHeads: number;
  readonly maxContext: number;
  readonly maxParameters: number;
  readonly maxBatch: number;
  readonly maxSequence: number;
  readonly maxWorkspaceFloats: number;
  /** Tasks and training in one call: symbols, held-out share, steps per train(), lengths and batches per evaluate(), generated tokens. */
  readonly maxSymbols: number;
  readonly maxHeldOutPercent: number;
  /** createTask's heldOutPercent when not given (the core's kDefaultHeldOutPercent). */
  readonly defaultHeldOutPercent: number;
  readonly maxTrainSteps: number;
  readonly maxEvalLengths: number;
  readonly maxEvalBatches: number;
  readonly maxGenerate: number;
  /** trainStep's and train's AdamW defaults (the core's, docs/ARCHITECTURE.md, "Training step"). */
  readonly adamw: {
    readonly lr: number;
    readonly beta1: number;
    readonly beta2: number;
    readonly eps: number;
    readonly weightDecay: number;
    readonly clip: number;
  };
  /** createTask's kinds besides 'text', in the core's order. */
  readonly syntheticKinds: readonly string[];
}

/** Rotary models at evaluation: position interpolation, NTK-aware or YaRN with factor s. */
export interface RopeScaling {
  type: RopeScalingType;
  /** s, from 1 to LIMITS.maxContextLength (2^20); left out: max(1, length / context) at each evaluated length. */
  factor?: number;
}

export interface AdamWOptions {
  lr?: number;
  beta1?: number;
  beta2?: number;
  eps?: number;
  weightDecay?: number;
  /** Global gradient-norm clip; 0 turns it off. */
  clip?: number;
}

/** Token ids: an Int32Array or an array of integers. */
export type Tokens = ArrayLike<number>;
/** 1 where a target counts: a Uint8Array or an array of 0/1. */
export type Mask = ArrayLike<number | boolean>;

export interface ModelTensor {
  readonly name: string;
  readonly shape: readonly number[];
  readonly offset: number;
}

/** A trainable model: from lab.createModel(config) or lab.loadModel(bytes) (a type only). */
/**
 * Thrown by trainStep and train when a step's loss or gradient norm is not finite. That step was
 * not applied: the weights, AdamW's state and steps are those of the last good step.
 */
export declare class TrainingDivergedError extends Error {
  readonly name: 'TrainingDivergedError';
  /** The diverged step, 1-based (steps + 1). */
  readonly step: number;
  /** Its loss: NaN or ±Infinity, or finite when only a gradient overflowed. */
  readonly loss: number;
  /** train: the losses of the steps applied before it (empty for trainStep). */
  readonly losses: Float32Array;
}

export interface Model {
  /** The full config, defaults filled in. */
  readonly config: Readonly<SettledModelConfig>;
  readonly parameterCount: number;
  readonly tensors: readonly ModelTensor[];
  /** The token strings stored in the weights file, in id order (a word-level model's '<unk>' at unknownId), or null. */
  readonly vocab: readonly string[] | null;
  /** Word-level models (e.g. lab.loadPretrained): the id of every token outside the vocabulary; else null. */
  readonly unknownId: number | null;
  /** Word-level models: one id per lab.tokenize(text) token, same order (RangeError for other models). */
  tokenize(text: string): Int32Array;
  /** Training steps taken (AdamW's t). */
  readonly steps: number;
  /** Mean next-token cross-entropy; tokens has B·(T+1) ids, mask B·T. */
  loss(tokens: Tokens, B: number, T: number, options?: { mask?: Mask; ropeScaling?: RopeScaling }): number;
  gradients(tokens: Tokens, B: number, T: number, options?: { mask?: Mask }): {
    loss: number;
    grads: Record<string, Float32Array>;
  };
  /** clip_grad_norm_ then AdamW; the loss before the update. A diverged step is not applied: TrainingDivergedError. */
  trainStep(tokens: Tokens, B: number, T: number, options?: AdamWOptions & { mask?: Mask }): number;
  /** Every layer's and head's weights on one sequence: Float32Array(L·h·n·n). */
  attention(tokens: Tokens, n: number, options?: { ropeScaling?: RopeScaling }): Float32Array;
  /** Next-token logits at every position: Float32Array(n·V). */
  logits(tokens: Tokens, n: number, options?: { ropeScaling?: RopeScaling }): Float32Array;
  /** Copies of the current parameters, by tensor name. */
  parameters(): Record<string, Float32Array>;
  /** Steps on the task's training batches start, start + 1, …: each step's loss before its update. Stops at a diverged step (not applied): TrainingDivergedError. */
  train(task: Task, options?: AdamWOptions & { steps?: number; B?: number; T?: number; seed?: number; start?: number }): Float32Array;
  /** Held-out loss (and accuracy for copy, reverse, sort) at each length. */
  evaluate(task: Task, options?: { lengths?: readonly number[]; B?: number; batches?: number; seed?: number; ropeScaling?: RopeScaling }): Evaluation[];
  /**
   * One pass, one wasm call: attention() and tokenLosses() together. The model keeps the rows of
   * its previous inspect call and recomputes only those from the first id that differs (bit for
   * bit what a fresh pass gives). attention is Float32Array(L·h·n·n), or with layer and head
   * (0-based) that one head's Float32Array(n·n). fromRow (0 … n − 1, default 0): each map's rows
   * fromRow … n − 1 alone, (n − fromRow)·n floats a map, for a caller holding the map of ids that
   * share their first fromRow with these. into: a Float32Array of exactly that length, which
   * receives the map and is returned as attention.
   */
  inspect(tokens: Tokens, n: number, options?: { ropeScaling?: RopeScaling; fromRow?: number; into?: Float32Array } & ({ layer?: undefined; head?: undefined } | { layer: number; head: number })):
    { attention: Float32Array; surprise: Float32Array };
  /** −ln p(tokens[i+1] | tokens[0…i]): Float32Array(n − 1) (inspect's surprise). */
  tokenLosses(tokens: Tokens, n: number, options?: { ropeScaling?: RopeScaling }): Float32Array;
  /** length tokens continuing the prompt; greedy at temperature 0. */
  generate(prompt: Tokens, length: number, options?: { temperature?: number; seed?: number }): Int32Array;
  /** The safetensors weights file. */
  save(options?: { dtype?: 'f32' | 'f16' }): Uint8Array;
  dispose(): void;
}

/** A training task living in the core: lab.createTask(spec) (a type only). */
export interface Task {
  readonly kind: 'text' | SyntheticKind;
  /** The token strings: a text's characters, or '<pad>', '<sep>', '0', '1', … */
  readonly vocab: readonly string[];
  readonly vocabSize: number;
  encode(text: string): Int32Array;
  decode(ids: Tokens): string;
  dispose(): void;
}

export type TaskSpec =
  | { kind: 'text'; text: string | Uint8Array; heldOutPercent?: number }
  | { kind: SyntheticKind; symbols?: number };

export interface Evaluation {
  readonly length: number;
  readonly loss: number;
  /** Fraction of answer tokens right (NaN for text tasks). */
  readonly accuracy: number;
  /** Fraction of rows entirely right (NaN for text tasks). */
  readonly exactMatch: number;
}

// ---- The lab ------------------------------------------------------------------------------

export interface Lab {
  /** "MAJOR.MINOR.PATCH", the package's version. */
  readonly version: string;
  /** true when the SIMD build runs. */
  readonly simd: boolean;
  readonly SCHEMES: readonly Scheme[];
  readonly limits: Limits;
  /** Current wasm memory size in bytes. */
  readonly heapBytes: number;
  /** The trained models' limits once the model core is loaded (lab.loadModels()), else null. */
  readonly modelLimits: ModelLimits | null;
  /** The shipped word-level models (data/models/manifest.json); [] without a manifest. */
  readonly pretrained: readonly PretrainedModelInfo[];

  sinusoidal(n: number, d: number, options?: { base?: number; layout?: Layout }): Float32Array;
  rotate(x: Matrix, n: number, d: number, options?: { base?: number; offset?: number; pairing?: Layout }): Float32Array;
  attention(
    q: Matrix, k: Matrix, v: Matrix, n: number, d: number,
    options?: { causal?: boolean; scale?: number },
  ): { weights: Float32Array; output: Float32Array };
  tokenize(text: string): string[];
  embed(tokens: readonly string[], d: number): Float32Array;
  compare(embeddings: Matrix, n: number, d: number, options?: CompareOptions): CompareResult;
  /** Text → tokens, word vectors, the PCA word part and the lanes in one wasm call per update. */
  analysis(vectors: WordVectorSet | { synthetic: number }): Analysis;
  distanceCurves(options: DistanceCurvesOptions): { maxDistance: number; curves: { [S in Scheme]?: Float32Array } };

  columnSpread(m: Matrix, n: number, d: number): Float32Array;
  vocabulary(rows: Matrix, v: number, d: number): Vocabulary;
  shiftChange(base: Matrix, shifted: Matrix, n: number, k: number): number;
  offsetCurves(maxOffset: number, d: number, options?: { base?: number }): { score: Float32Array; bound: Float32Array };
  cosineSpread(d: number, options?: { pairs?: number; seed?: number }): { mean: number; std: number };

  loadVectors(source?: 'glove' | URL | ArrayBuffer | Uint8Array): Promise<WordVectorSet>;

  alibiSlopes(heads: number): Float64Array;
  alibiBias(n: number, options?: { heads?: number; head?: number; causal?: boolean }): Float32Array;
  t5Bias(
    n: number,
    options?: { bidirectional?: boolean; numBuckets?: number; maxDistance?: number; seed?: number },
  ): { bias: Float32Array; buckets: Int32Array; values: Float32Array };
  ropeFrequencies(
    d: number,
    options?: {
      base?: number; scaling?: RopeScalingType; trainedLength?: number; evalLength?: number;
      alpha?: number; beta?: number;
    },
  ): { frequencies: Float64Array; scale: number; qkFactor: number };
  rotateWith(x: Matrix, n: number, d: number, frequencies: Matrix, options?: { offset?: number; pairing?: Layout }): Float32Array;
  xpos(
    x: Matrix, n: number, d: number,
    options?: {
      base?: number; offset?: number; pairing?: Layout; role?: 'query' | 'key'; gamma?: number; scaleBase?: number;
    },
  ): Float32Array;
  learnedTable(n: number, d: number, options?: { seed?: number }): Float32Array;

  /** The core's scheme table: schemes, scheme parameters, trainable schemes. */
  readonly schemeTable: SchemeTable;
  /** The scheme parameters with the dependent rules applied (page and element share it), and one note per rule applied. */
  settleSchemeOptions(options: SchemeParameters, context?: { causal?: boolean }): { options: Required<SchemeParameters>; notes: string[]; scaleFactor: number };
  /** Fetches the model core the first time (cached); createTask, createModel and loadModel need it. */
  loadModels(): Promise<Models>;
  /** A training task in the model core (after lab.loadModels()). */
  createTask(spec: TaskSpec): Task;
  /** A trainable model, seeded from config.seed (after lab.loadModels()). */
  createModel(config: ModelConfig): Model;
  /** A model from its safetensors weights file; a bad file is refused with a RangeError. */
  loadModel(bytes: Uint8Array | ArrayBuffer): Model;
  /**
   * A shipped model by name, fetched on demand (sha256 checked); AbortError when signal aborts.
   * onHeads: called at most once, before the output layer has arrived, with a model whose
   * attention is the complete model's (its lm_head is zero: its logits and surprise mean
   * nothing); the caller disposes it; a promise it returns is awaited before the rest is decoded.
   */
  loadPretrained(name: string, options?: { onProgress?: (progress: { loaded: number; total: number }) => void; signal?: AbortSignal; onHeads?: (model: Model) => void | Promise<void> }): Promise<Model>;
}
