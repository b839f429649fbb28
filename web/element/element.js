// <posenc-lab>: one live figure of PosEnc Lab inside someone else's page.
//
//   <script src="…/posenc-lab.js"></script>   (or type="module")
//   <posenc-lab sentence="the cat sat on the mat" schemes="additive,rotary" panel="attention"></posenc-lab>
//
// scripts/bundle-element.mjs bundles this module with the page's own panel and figure modules into
// dist/posenc-lab.js; the computing runs in the lab worker (the page's web/pipeline/lab-worker.js
// with both wasm cores inside, posenc-lab-worker.mjs), so this thread only lays out and paints.
// Every element on a page shares that one worker (a channel each) and one GloVe set; each starts
// only when it first scrolls into view. Everything lives in a shadow root: host styles do not
// reach in, ours do not leak out.
// Bad attribute values fall back to their defaults with one console warning each.
import { SCHEME_TABLE } from '../scheme-table.mjs';
import { ATTRIBUTES, DEFAULTS, OPTION_OF, PANELS, PANEL_ALIASES, PARSERS, TAG, attributeOf, parseAttribute, warnOnce } from './attributes.js';
import { gloveUrl, sharedClient, unwatch, whenVisible } from './shared.js';
import { adoptStyles } from './styles.js';
import { DEFAULTS as PAGE_DEFAULTS, INPUT_RANGES } from '../pipeline/state.js';
import { createLanes } from '../panels/lanes.js';
import { engineLabel } from '../pipeline/shared-rules.js';
import { createTokenList } from '../panels/tokens.js';
import { laneFigures, panelFigure } from './panel-figures.js';
import { element } from '../figures/dom.js';
import { createGenerations } from '../pipeline/tasks.js';
// The package's version (package.json, the one source); the bundler keeps only this field.
import { version as VERSION } from '../../package.json';

// The analyses the worker runs after the keystroke's figures, and the panel each one paints.
const ANALYSIS_PANELS = { retrieval: 'retrieval', shift: 'shift', orth: 'orthogonality' };
// The figures that follow the settings (lab-session.js's view.figures), and the panel of each.
const SETTINGS_PANELS = { spread: 'disturbance', distance: 'distance', angles: 'angles' };

let nextId = 0;

// ---- The element --------------------------------------------------------------------------

/**
 * One live PosEnc Lab figure: a sentence's attention maps, encoded inputs, logit terms or one of
 * the analyses, computed by the WebAssembly core in the element's worker.
 *
 * Light-DOM children are never shown once the element runs (its shadow root has no slot), so a
 * child `<img>` is a fallback for readers without JavaScript, feed readers and print.
 *
 * @summary An embeddable figure comparing positional encodings of Transformers.
 * @tagname posenc-lab
 *
 * @attr {string} [sentence=The king sat on the throne, and the queen smiled at the king.] - The words to show: any text up to {page:MAX_SENTENCE} characters; the first {page:MAX_TOKENS} tokens are analysed.
 * @attr {string} [schemes=additive,concatenated,rotary] - The schemes the per-scheme panels show, in this order: a comma-separated list of the core's scheme names (`SCHEMES`). One lane each in `attention`, `input` and `terms`, one row each in `retrieval` and `shift`; `distance` draws every scheme and marks these. Only these are computed. `learned` (a learned-style absolute table) and `t5` (T5's relative bias) use seeded random values, not trained ones, and say so under their figures; `nope`'s attention shows two maps, without and with the causal mask.
 * @attr {string} [panel=attention] - One or more of `attention`, `input`, `terms`, `pe`, `disturbance`, `retrieval`, `shift`, `distance`, `orthogonality`, `angles`, `train`, shown in this order. `train` shows the page's default Train run (loss curves, length generalisation, the run's sentence) from numbers shipped inside the element, and trains it live when the reader presses Train live (fetching posenc-models-simd.wasm or -scalar.wasm, their .mjs and moby-dick.txt from beside the script). `distance`, `angles` and `train` do not read the sentence: alone, they show no sentence box.
 * @attr {number} [d=64] - Width of synthetic word vectors, an even number {range} (GloVe fixes d = {page:GLOVE_DIM}).
 * @attr {number} [base=10000] - Base of the frequencies ωᵢ = base^(−2i/d): a number above 1, at most {limit:maxBase}.
 * @attr {string} [scale=auto] - Embedding scale α: `auto` (the RMS of a component of αE is 1) or a number above 0.
 * @attr {Layout} [layout] - Sinusoidal layout: sin/cos interleaved (Vaswani et al.) or halves (tensor2tensor).
 * @attr {Layout} [pairing] - RoPE pairing: (2i, 2i+1) as RoFormer, or (i, i + d/2) as GPT-NeoX and LLaMA.
 * @attr {boolean} [causal=false] - Causal mask (the bare attribute, `true` or `false`): each word attends only to itself and earlier words.
 * @attr {number} [trained-length] - L, the trained context, a whole number {range}: the learned-style table has rows only below it, and the RoPE extensions stretch by s = max(1, L′/L).
 * @attr {number} [eval-length] - L′, the context the model is evaluated at, a whole number {range} (the RoPE extensions and the `angles` panel).
 * @attr {number} [alibi-heads] - H, a whole number {range}: ALiBi's slopes are those of an H-head model.
 * @attr {number} [alibi-head] - The head k (1 to H) whose slope m = 2^(−8k/H) the `alibi` figures use; a k above H becomes H, with a note under the figure.
 * @attr {'glove' | 'synthetic'} [vectors=glove] - Word vectors: GloVe 6B 100-d (2.2 MB, fetched once per page from `vectors-src`), or synthetic ones seeded by each word. When GloVe cannot be fetched (a `file://` page, a missing file, another origin without CORS), synthetic vectors are used and a note says why.
 * @attr {string} [vectors-src] - The URL of `glove-6b-100d-20k.i8`, relative to the page, for hosts that copy only the script (default: beside `posenc-lab.js`). Another origin must send `Access-Control-Allow-Origin`.
 * @attr {string} [controls=none] - Settings readers may change: `none`, `all`, or a list of `vectors`, `d`, `base`, `scale`, `layout`, `pairing`, `causal`, `export` (an Export menu on each figure: PNG, SVG, CSV, JSON).
 * @attr {boolean} [editable=true] - Whether readers may type their own sentence (`true` or `false`).
 * @attr {string} [model-src] - The URL of a PosEnc Lab weights file (`.safetensors`, as the page's Train section and the PyTorch twin write; relative to the page, http(s), `blob:` or `data:`): the `attention` panel then shows that model's learned heads on the sentence, one map per layer and head, the sentence read by the model's own vocabulary (a character model per character, a word model per word, an unknown word as `<unk>`). The model core and posenc-model-heads.mjs are fetched from beside the script the first time (posenc-lab-standalone.js carries them inside). What cannot be shown (a file that does not load or is refused, a sentence the model cannot read) is said in the panel.
 *
 * @fires {CustomEvent} posenc-change - A reader edited the sentence or a control; `detail` is the element's `state`.
 * @csspart container - The box around the sentence, tokens and figures.
 * @cssprop --posenc-font - Font family.
 * @cssprop --posenc-font-size - Base font size.
 * @cssprop --posenc-max-width - The element's width.
 * @cssprop --posenc-figure-width - Each figure's width.
 * @cssprop --posenc-color - Text colour.
 * @cssprop --posenc-muted - Caption colour.
 * @cssprop --posenc-background - Background.
 * @cssprop --posenc-border - Border colour.
 * @cssprop --posenc-accent - Focus ring and links.
 * @cssprop --posenc-token-background - Token chips.
 * @cssprop --posenc-highlight - The selected token.
 * @cssprop --posenc-radius - Corner radius.
 */
export class PosencLabElement extends HTMLElement {
  static get observedAttributes() { return ATTRIBUTES.map(attributeOf); }

  /** The package version this element was built from ("MAJOR.MINOR.PATCH"). */
  static get version() { return VERSION; }

  #root;
  #options = { ...DEFAULTS };
  #layoutKey = '';
  #ui = null;          // the built skeleton and its figures
  #started = false;    // scrolled into view at least once
  #engine = null;      // the worker's { simd } once it started
  #running = false;    // started, and the lab (where a panel needs it) is up
  #channel = null;     // this element's channel of the shared lab client; closed when disconnected
  #glove = null;       // { channel, url, promise } of the GloVe file asked for on #channel
  #figures = {};       // the settings figures' latest data (the worker sends each only when it changed)
  #pe = null;          // the sinusoidal tables' latest { pe, peConcat } (sent likewise)
  #shown = {};         // the shownKeys of the last view painted: what the worker need not send again
  #source = null;
  #note = '';
  #frame = 0;
  #work = createGenerations(() => this.isConnected);
  #view = null;
  #selected = null;
  #readyResolve;
  #reflecting = false;

  constructor() {
    super();
    this.#root = this.attachShadow({ mode: 'open' });
    this.#id = `pl${nextId++}`;
    /** Resolves once the first figure has been computed and handed to its canvas. */
    this.ready = new Promise((resolve) => { this.#readyResolve = resolve; });
  }

  #id;

  disconnectedCallback() {
    // The worker drops this element's session; a reconnected element opens another channel.
    this.#channel?.close();
    this.#channel = null;
    this.#glove = null;
  }

  connectedCallback() {
    this.#readAll();
    this.#build();
    if (!this.#started) whenVisible(this, () => this.#start());
  }

  attributeChangedCallback(attribute, before, after) {
    if (before === after) return;
    const name = OPTION_OF[attribute];
    this.#options[name] = parseAttribute(name, after);
    if (!this.isConnected) return;
    if (!this.#reflecting) this.#build();
    this.#request();
  }

  /** The settings in use: { sentence, schemes, panel, d, base, scale, layout, pairing, causal, trainedLength, evalLength, alibiHeads, alibiHead, vectors, vectorsSrc, controls, editable, modelSrc }. */
  get state() {
    const o = this.#options;
    return { ...o, schemes: [...o.schemes], panel: [...o.panel], controls: [...o.controls], d: this.#view?.d ?? o.d };
  }

  /**
   * The current figure as a PNG Blob: a panel's figure (default: the first panel) and, for the
   * lane panels (attention, input, terms), one scheme's (default: the first).
   */
  async toPNG(options) {
    return (await this.#figureOf(options)).toPng();
  }

  /**
   * The same figure as an SVG Blob: its words as text, its curves as paths. The SVG writer,
   * posenc-svg.mjs, is fetched from beside the element's script on first use.
   */
  async toSVG(options) {
    return (await this.#figureOf(options)).toSvg();
  }

  async #figureOf({ panel, scheme } = {}) {
    this.#start();
    await this.ready;
    const name = panel === undefined ? this.#options.panel[0] : (PANEL_ALIASES[panel] ?? panel);
    if (!this.#options.panel.includes(name)) throw new RangeError(`panel must be one of ${this.#options.panel.join(', ')} (got ${panel})`);
    let figure;
    if (PANELS[name].lane && !this.#ui.panels[name]) {
      const s = scheme ?? this.#options.schemes[0];
      figure = this.#ui.lanes?.lanes[s]?.[name];
      if (!figure) throw new RangeError(`scheme must be one of ${this.#options.schemes.join(', ')} (got ${scheme})`);
    } else {
      figure = this.#ui.panels[name].figure;
    }
    return figure;
  }

  // -- attributes ⇄ options --------------------------------------------------------------

  // The panels the lab computes: all but the model's attention (model-src), which the model core draws.
  #labPanels() {
    const o = this.#options;
    return o.panel.filter((name) => !(name === 'attention' && o.modelSrc));
  }

  #readAll() {
    for (const name of ATTRIBUTES) this.#options[name] = parseAttribute(name, this.getAttribute(attributeOf(name)));
  }

  /** A reader's edit: reflected into the attribute, re-rendered, announced. */
  #edit(name, value) {
    this.#reflecting = true;
    try {
      const attribute = attributeOf(name);
      if (typeof value === 'boolean') this.setAttribute(attribute, String(value));
      else if (Array.isArray(value)) this.setAttribute(attribute, value.join(','));
      else this.setAttribute(attribute, String(value));
    } finally {
      this.#reflecting = false;
    }
    this.#request();
    this.dispatchEvent(new CustomEvent('posenc-change', { bubbles: true, composed: true, detail: this.state }));
  }

  // -- skeleton ----------------------------------------------------------------------------

  /** (Re)builds the shadow tree when the panels, schemes, controls or editability change. */
  #build() {
    const o = this.#options;
    const key = JSON.stringify([o.panel, o.schemes, o.controls, o.editable, Boolean(o.modelSrc)]);
    if (key === this.#layoutKey && this.#ui) { this.#syncControls(); return; }
    this.#layoutKey = key;
    const id = (part) => `${this.#id}-${part}`;
    const box = element('div', { class: `pl${o.controls.includes('export') ? '' : ' no-export'}` });
    box.setAttribute('part', 'container');

    const ui = { panels: {}, controls: {} };
    const edit = element('div', { class: 'pl-edit' });
    // Panels that never read the sentence (sentence: false) show neither its box nor its tokens.
    const usesSentence = o.panel.some((name) => PANELS[name].sentence !== false);
    if (usesSentence) edit.append(this.#buildSentence(ui, id));
    const controls = this.#buildControls(ui, id);
    if (controls) edit.append(controls);
    const tokenParts = this.#buildTokens(ui, id);
    const panels = this.#buildPanels(ui, id);
    ui.status = element('p', { class: 'pl-status', text: this.#started ? '' : 'The figure starts when it scrolls into view.' });
    ui.status.setAttribute('aria-live', 'polite');
    box.append(edit, ...(usesSentence ? tokenParts : []), ui.note, panels, ui.status);
    this.#root.replaceChildren(box);
    adoptStyles(this.#root);

    // Figures (they need their slots in place).
    const laneParts = this.#labPanels().filter((name) => PANELS[name].lane);
    ui.lanes = laneParts.length ? createLanes(panels, { schemes: o.schemes, onPickToken: (row) => this.#select(row) }) : null;
    for (const [name, panel] of Object.entries(ui.panels)) {
      const made = panelFigure(name, panel.slot);
      panel.update = made.update?.bind(made);
      panel.render = made.render?.bind(made);
      panel.figure = made.figure;
      panel.show = made.show;
    }
    this.#ui = ui;
    this.#selected = null;
    this.#syncControls();
    if (this.#view) this.#request();
  }

  /** The sentence: a text box when editable (ui.sentence), else the sentence as text (ui.sentenceText). */
  #buildSentence(ui, id) {
    const o = this.#options;
    if (!o.editable) {
      // Readers see the sentence as text; the tokens below follow once the core has run.
      ui.sentenceText = element('p', { class: 'pl-sentence-text', text: o.sentence });
      return ui.sentenceText;
    }
    const label = element('label', { class: 'pl-label', text: 'Sentence' });
    label.htmlFor = id('sentence');
    const area = element('textarea');
    area.id = id('sentence');
    area.rows = 2;
    area.spellcheck = false;
    area.setAttribute('autocomplete', 'off');
    area.setAttribute('autocapitalize', 'off');
    area.value = o.sentence;
    area.addEventListener('input', () => this.#edit('sentence', area.value));
    ui.sentence = area;
    const fragment = document.createDocumentFragment();
    fragment.append(label, area);
    return fragment;
  }

  /** The token list and its notes (ui.tokens, ui.note) → the nodes shown under the sentence. */
  #buildTokens(ui, id) {
    const tokenLabel = element('span', { class: 'visually-hidden', text: 'Tokens' });
    tokenLabel.id = id('tokens');
    const tokens = element('ol', { class: 'tokens' });
    tokens.setAttribute('aria-labelledby', id('tokens'));
    const count = element('span');
    const truncation = element('p', { class: 'notice pl-note' });
    truncation.hidden = true;
    const unknownLegend = element('span');
    unknownLegend.hidden = true;
    ui.note = element('p', { class: 'notice pl-note' });
    ui.note.setAttribute('role', 'status');
    ui.note.hidden = true;
    ui.tokens = createTokenList({
      list: tokens, count, truncation, unknownLegend, neighbors: element('div'),
      onSelect: (index) => this.#select(index),
    });
    return [tokenLabel, tokens, truncation];
  }

  /** One section per panel, in order (ui.panelBox; ui.panels[name].slot for the one-figure panels). */
  #buildPanels(ui, id) {
    const o = this.#options;
    const panels = element('div', { class: 'pl-panels is-pending' });
    ui.panelBox = panels;
    for (const name of o.panel) {
      const spec = PANELS[name];
      const section = element('section', { class: 'pl-panel' });
      const title = element('div', { class: 'pl-title', text: spec.title });
      title.id = id(`title-${name}`);
      section.setAttribute('aria-labelledby', title.id);
      section.append(title);
      if (spec.lane && this.#labPanels().includes(name)) {
        section.append(laneFigures(name, spec.title, o.schemes));
      } else {
        const figure = element('figure', { class: 'pl-figure' });
        figure.setAttribute('aria-labelledby', title.id);
        const slot = element('div');
        slot.dataset.figure = name;
        figure.append(slot);
        section.append(figure);
        ui.panels[name] = { slot };
      }
      panels.append(section);
    }
    return panels;
  }

  #buildControls(ui, id) {
    const shown = this.#options.controls.filter((c) => c !== 'export');
    if (!shown.length) return null;
    const box = element('div', { class: 'pl-controls' });
    box.setAttribute('role', 'group');
    box.setAttribute('aria-label', 'Settings');
    const select = (name, label, options) => {
      const wrap = element('label', { text: `${label} ` });
      const input = element('select');
      for (const [value, text] of options) input.add(new Option(text, value));
      input.addEventListener('change', () => this.#edit(name, input.value));
      wrap.append(input);
      ui.controls[name] = input;
      return wrap;
    };
    const number = (name, label, attributes) => {
      const wrap = element('label', { text: `${label} ` });
      const input = element('input');
      input.type = 'number';
      Object.assign(input, attributes);
      input.addEventListener('change', () => {
        const text = input.value.trim() === '' && name === 'scale' ? 'auto' : input.value;
        const ok = PARSERS[name][0](text) !== undefined;
        input.toggleAttribute('aria-invalid', !ok);
        if (ok) this.#edit(name, text);
      });
      wrap.append(input);
      ui.controls[name] = input;
      return wrap;
    };
    const make = {
      vectors: () => select('vectors', 'Word vectors', [['glove', 'GloVe 100-d'], ['synthetic', 'Synthetic']]),
      d: () => number('d', 'd', INPUT_RANGES.d),
      base: () => number('base', 'Base', { min: 1.0001, step: 'any' }),
      scale: () => number('scale', 'Scale α', { min: 0, step: 'any', placeholder: 'auto' }),
      layout: () => select('layout', 'PE layout', SCHEME_TABLE.layouts.map((name) => [name, name])),
      pairing: () => select('pairing', 'RoPE pairing', SCHEME_TABLE.layouts.map((name) => [name, name])),
      causal: () => {
        const wrap = element('label');
        const input = element('input');
        input.type = 'checkbox';
        input.addEventListener('change', () => this.#edit('causal', input.checked));
        wrap.append(input, document.createTextNode(' causal mask'));
        ui.controls.causal = input;
        return wrap;
      },
    };
    for (const name of shown) box.append(make[name]());
    return box;
  }

  #syncControls() {
    const ui = this.#ui;
    const o = this.#options;
    if (!ui) return;
    if (ui.sentence && ui.sentence.value !== o.sentence) ui.sentence.value = o.sentence;
    if (ui.sentenceText) ui.sentenceText.textContent = o.sentence;
    const c = ui.controls;
    if (c.vectors) c.vectors.value = o.vectors;
    if (c.layout) c.layout.value = o.layout;
    if (c.pairing) c.pairing.value = o.pairing;
    if (c.causal) c.causal.checked = o.causal;
    if (c.base) c.base.value = String(o.base);
    if (c.scale) c.scale.value = o.scale === 'auto' ? '' : String(o.scale);
    if (c.d) {
      const fixed = this.#source?.fixedDim;
      c.d.disabled = Boolean(fixed);
      c.d.value = String(fixed ? this.#source.dim : o.d);
      c.d.title = fixed ? `fixed at ${this.#source.dim} by the word vectors` : 'even, synthetic vectors';
    }
  }

  // -- running ---------------------------------------------------------------------------

  async #start() {
    if (this.#started) return;
    this.#started = true;
    unwatch(this);
    this.#setStatus('Loading…');
    // An element showing only a model's heads needs the model core alone.
    if (this.#labPanels().length && !(await this.#labStarted())) return;
    this.#running = true;
    await this.#recompute();
  }

  /** The lab (its wasm core), started once; → whether it runs (if not, the status line says why). */
  async #labStarted() {
    if (this.#engine) return true;
    try {
      this.#engine = await sharedClient().start();
      return true;
    } catch (error) {
      this.#setStatus(`PosEnc Lab could not start its WebAssembly core: ${error.message}`);
      return false;
    }
  }

  #setStatus(text) {
    if (this.#ui) this.#ui.status.textContent = text;
  }

  #request() {
    if (!this.#running || this.#frame) return;
    this.#frame = requestAnimationFrame(() => {
      this.#frame = 0;
      this.#recompute();
    });
  }

  /** The word vectors the worker is to use: 'glove' once its file loaded on this channel, else 'synthetic' and a note saying why. */
  async #vectorsFor() {
    const o = this.#options;
    if (o.vectors !== 'glove') return { vectors: 'synthetic', note: '' };
    const { url, note } = gloveUrl(o.vectorsSrc);
    if (!url) return { vectors: 'synthetic', note };
    const channel = this.#channel;
    if (this.#glove?.channel !== channel || this.#glove.url !== url) {
      // Not warmed up: the first view that needs the vocabulary's spread or PCA axes pays for them.
      this.#glove = { channel, url, promise: channel.glove(url, { warm: false }).then(() => ({ vectors: 'glove', note: '' }),
        (error) => ({ vectors: 'synthetic', note: `Synthetic word vectors: GloVe could not be loaded (${error.message}).` })) };
    }
    return this.#glove.promise;
  }

  async #recompute() {
    const mine = this.#work.next();
    if (this.#ui.panels.attention?.show) this.#showModel(mine);
    if (!this.#labPanels().length || !(await this.#labStarted())) return;
    this.#channel ??= sharedClient().channel();
    const { vectors, note } = await this.#vectorsFor();
    if (!this.#work.isCurrent(mine)) return;
    const o = this.#options;
    const started = performance.now();
    let view;
    try {
      // The same settings, rules and notes as the page's (web/pipeline/pipeline.js, in the worker).
      // Only the settings figures this element shows.
      const figures = Object.keys(SETTINGS_PANELS).filter((name) => this.#ui.panels[SETTINGS_PANELS[name]]);
      view = await this.#channel.compute({ gen: mine, state: this.#state(vectors), figures, shown: this.#shown });
    } catch (error) {
      this.#setStatus(`Could not compute this figure: ${error.message}`);
      warnOnce(`could not compute the figure: ${error.message}`);
      return;
    }
    if (!view || !this.#work.isCurrent(mine)) return;
    const { settings, source } = view;
    this.#source = source;
    this.#syncControls();
    if (vectors === 'glove' && source.fixedDim && this.hasAttribute('d') && o.d !== source.dim) {
      warnOnce(`d="${o.d}" applies to synthetic vectors; GloVe fixes d = ${source.dim}.`);
    }
    if (settings.alibiHead !== o.alibiHead) {
      warnOnce(`alibi-head="${o.alibiHead}" exceeds alibi-heads="${o.alibiHeads}": ${settings.notes.join(' ')}`);
    }
    this.#paint(view, note, started);
    if (view.n > 0) this.#analyse(mine);
  }

  /** The model's heads (model-src) on the sentence; with no other panel, its tokens and status line too. */
  async #showModel(mine) {
    const started = performance.now();
    const shown = await this.#ui.panels.attention.show({ src: this.#options.modelSrc, sentence: this.#options.sentence, isCurrent: () => this.#work.isCurrent(mine) });
    if (this.#labPanels().length || !this.#work.isCurrent(mine)) return;
    if (!shown) { this.#setStatus('The model could not be shown.'); return; }
    const { n, pieces, unknown, config, simd } = shown;
    this.#ui.tokens.render(pieces, unknown, n);
    this.#ui.panelBox.classList.remove('is-pending');
    const count = (k, what) => `${k} ${what}${k === 1 ? '' : 's'}`;
    const shape = `${count(config.layers, 'layer')} × ${count(config.heads, 'head')}`;
    this.#setStatus(`${count(n, 'token')}, ${config.scheme} model of ${shape} · ${engineLabel(simd)} · ${(performance.now() - started).toFixed(0)} ms`);
    this.#readyResolve();
  }

  /** Lays out and paints one view of the worker's (lab-session.js's compute). */
  #paint(view, note, started) {
    const ui = this.#ui;
    const o = this.#options;
    const { settings, source } = view;
    const { d, dPos, dWord } = settings;
    // The same note as the page's (shown, and said once on the console).
    const shown = [note, ...settings.notes].filter(Boolean).join(' ');
    ui.note.hidden = !shown;
    ui.note.textContent = shown;
    for (const [name, data] of Object.entries(view.figures)) if (data && SETTINGS_PANELS[name]) this.#figures[name] = data;
    if (view.pe) this.#pe = { pe: view.pe, peConcat: view.peConcat };
    this.#shown = view.shownKeys;
    if (view.n === 0) {
      ui.tokens.render([], [], 0);
      ui.panelBox.hidden = true;
      this.#setStatus('Type a sentence to see its figure.');
      this.#view = null;
      return;
    }
    ui.panelBox.hidden = false;
    const { n, tokens, result } = view;
    this.#view = { d, n, tokens };
    if (this.#selected !== null && this.#selected >= n) this.#selected = null;
    ui.tokens.render(tokens, view.unknown, view.total, view.textCut);
    ui.lanes?.update({ result, tokens, heads: 0, causal: o.causal, dWord, trainedLength: o.trainedLength });
    ui.lanes?.select(this.#selected);
    const p = ui.panels;
    p.pe?.update({ ...this.#pe, n, d, dPos, layout: o.layout });
    // A settings figure is drawn when its data changed, or when its panel is new (rebuilt).
    for (const [name, panel] of Object.entries(SETTINGS_PANELS)) {
      const data = this.#figures[name];
      if (p[panel] && data && (view.figures[name] || p[panel].drawn !== data)) {
        p[panel].render(data);
        p[panel].drawn = data;
      }
    }
    ui.panelBox.classList.remove('is-pending');
    const engine = engineLabel(this.#engine.simd);
    this.#setStatus(`${n} token${n === 1 ? '' : 's'}, d = ${d}, ${source.kind === 'glove' ? 'GloVe' : 'synthetic'} vectors · ${engine} · ${(performance.now() - started).toFixed(0)} ms`);
    this.#readyResolve();
  }

  /** The slower panels, computed in the worker after the figure; a newer edit stops them there. */
  #analyse(mine) {
    const p = this.#ui.panels;
    const only = Object.keys(ANALYSIS_PANELS).filter((name) => p[ANALYSIS_PANELS[name]]);
    if (only.length === 0) return;
    const onAnalysis = (name, data) => {
      if (this.#work.isCurrent(mine)) this.#ui.panels[ANALYSIS_PANELS[name]]?.render(data);
    };
    // Over this element's schemes only (one row each in retrieval and shift).
    this.#channel.analyse(mine, onAnalysis, { only, lanes: true, summaries: false })
      .catch((error) => warnOnce(`an analysis failed: ${error.message}`));
  }

  // The attributes as the pipeline's settings (the page's state shape); what the element does not
  // expose keeps the page's default (d_p automatic, same-width concatenation); its heads are W = I (no models ship in it).
  // moreOpen: the lanes whose logit terms come back, every lane's when the terms panel is shown.
  #state(vectors) {
    const o = this.#options;
    return {
      ...PAGE_DEFAULTS, heads: 0, vectors, sentence: o.sentence, schemes: o.schemes, d: o.d, base: o.base, alpha: o.scale, layout: o.layout,
      moreOpen: o.panel.includes('terms') ? o.schemes : [],
      pairing: o.pairing, causal: o.causal, trainedLength: o.trainedLength, evalLength: o.evalLength,
      alibiHeads: o.alibiHeads, alibiHead: o.alibiHead,
    };
  }

  #select(index) {
    if (!this.#view) return;
    this.#selected = index === this.#selected ? null : index;
    this.#ui.tokens.select(this.#selected);
    this.#ui.lanes?.select(this.#selected);
  }
}

// Properties mirror attributes: numbers and booleans as such, lists as comma-separated text.
for (const name of ATTRIBUTES) {
  Object.defineProperty(PosencLabElement.prototype, name, {
    configurable: true,
    enumerable: true,
    get() {
      const value = parseAttribute(name, this.getAttribute(attributeOf(name)));
      return Array.isArray(value) ? value.join(',') : value;
    },
    set(value) {
      if (value === null || value === undefined) this.removeAttribute(attributeOf(name));
      else this.setAttribute(attributeOf(name), Array.isArray(value) ? value.join(',') : String(value));
    },
  });
}

// Both builds define the tag on load; the ES-module build (posenc-lab.mjs) also exports the class.
if (!customElements.get(TAG)) customElements.define(TAG, PosencLabElement);
else warnOnce('posenc-lab.js was loaded twice; the first definition stays.');
