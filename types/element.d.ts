// Declarations for the <posenc-lab> element (web/element/element.js): `posenc-lab/element.mjs` (the
// ES-module build, which exports the class) and, through element-script.d.ts, the classic
// script `posenc-lab/element`. Both define the tag when loaded.
//
// Properties mirror the attributes (camelCase ↔ kebab-case: evalLength ↔ eval-length): numbers
// and booleans read as such, lists as comma-separated text; setting null or undefined removes
// the attribute (its default applies). Invalid values fall back to the default with one console
// warning, as attributes do.
import type { Layout, Scheme } from './posenc.js';

/**
 * Panel names (attribute `panel`); decomposition, logits, encoding, spread and orth are aliases.
 * `train` is a read-only replay of the page's default Train run (loss curves, length
 * generalisation, the run's sentence) from numbers shipped inside the element: no model, no training.
 */
export type PosencPanel =
  | 'attention' | 'input' | 'terms' | 'pe' | 'disturbance' | 'retrieval' | 'shift' | 'distance'
  | 'orthogonality' | 'angles' | 'train';

/** Controls a reader may use (attribute `controls`; also `none` and `all`). */
export type PosencControl = 'vectors' | 'd' | 'base' | 'scale' | 'layout' | 'pairing' | 'causal' | 'export';

/** The settings in use: element.state, and the detail of a `posenc-change` event. */
export interface PosencLabState {
  sentence: string;
  schemes: Scheme[];
  panel: PosencPanel[];
  /** The width in use (GloVe fixes 100). */
  d: number;
  base: number;
  scale: number | 'auto';
  layout: Layout;
  pairing: Layout;
  causal: boolean;
  trainedLength: number;
  evalLength: number;
  alibiHeads: number;
  alibiHead: number;
  vectors: 'glove' | 'synthetic';
  /** Where GloVe is fetched from ('' for beside the script). */
  vectorsSrc: string;
  controls: PosencControl[];
  editable: boolean;
  /** The weights file whose heads the attention panel shows ('' for none: the schemes' lanes). */
  modelSrc: string;
}

/** Fired (bubbling, composed) after a reader edits the sentence or a control. */
export type PosencChangeEvent = CustomEvent<PosencLabState>;

export interface PosencLabElementEventMap extends HTMLElementEventMap {
  'posenc-change': PosencChangeEvent;
}

type List<T extends string> = string | readonly T[] | null | undefined;

export declare class PosencLabElement extends HTMLElement {
  /** The package version this element was built from ("MAJOR.MINOR.PATCH"). */
  static readonly version: string;
  static readonly observedAttributes: string[];

  /** Resolves once the first figure has been computed and handed to its canvas. */
  readonly ready: Promise<void>;
  /** The settings in use. */
  readonly state: PosencLabState;
  /** The current figure as a PNG: a panel's (default: the first) and, for lane panels, one scheme's. */
  toPNG(options?: { panel?: PosencPanel; scheme?: Scheme }): Promise<Blob>;
  /** The same figure as an SVG (text and paths); fetches posenc-svg.mjs beside the script on first use. */
  toSVG(options?: { panel?: PosencPanel; scheme?: Scheme }): Promise<Blob>;

  get sentence(): string;
  set sentence(value: string | null | undefined);
  /** Comma-separated scheme names. */
  get schemes(): string;
  set schemes(value: List<Scheme>);
  /** Comma-separated panel names. */
  get panel(): string;
  set panel(value: List<PosencPanel>);
  get d(): number;
  set d(value: number | string | null | undefined);
  get base(): number;
  set base(value: number | string | null | undefined);
  get scale(): number | 'auto';
  set scale(value: number | 'auto' | null | undefined);
  get layout(): Layout;
  set layout(value: Layout | null | undefined);
  get pairing(): Layout;
  set pairing(value: Layout | null | undefined);
  get causal(): boolean;
  set causal(value: boolean | null | undefined);
  get trainedLength(): number;
  set trainedLength(value: number | string | null | undefined);
  get evalLength(): number;
  set evalLength(value: number | string | null | undefined);
  get alibiHeads(): number;
  set alibiHeads(value: number | string | null | undefined);
  get alibiHead(): number;
  set alibiHead(value: number | string | null | undefined);
  get vectors(): 'glove' | 'synthetic';
  set vectors(value: 'glove' | 'synthetic' | null | undefined);
  /** The URL of the GloVe file ('' for beside the script); the vectors-src attribute. */
  get vectorsSrc(): string;
  set vectorsSrc(value: string | URL | null | undefined);
  /** Comma-separated control names ('' for none). */
  get controls(): string;
  set controls(value: List<PosencControl | 'none' | 'all'>);
  get editable(): boolean;
  set editable(value: boolean | null | undefined);
  /** The URL of a weights file whose learned heads the attention panel shows ('' for none); the model-src attribute. */
  get modelSrc(): string;
  set modelSrc(value: string | URL | null | undefined);

  addEventListener<K extends keyof PosencLabElementEventMap>(
    type: K,
    listener: (this: PosencLabElement, event: PosencLabElementEventMap[K]) => unknown,
    options?: boolean | AddEventListenerOptions,
  ): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;
  removeEventListener<K extends keyof PosencLabElementEventMap>(
    type: K,
    listener: (this: PosencLabElement, event: PosencLabElementEventMap[K]) => unknown,
    options?: boolean | EventListenerOptions,
  ): void;
  removeEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | EventListenerOptions): void;
}

declare global {
  interface HTMLElementTagNameMap {
    'posenc-lab': PosencLabElement;
  }
}
