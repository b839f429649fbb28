// The first page: a sentence box and the three schemes' attention maps, recomputed as you type.
import { load } from './posenc.mjs';
import { paintHeatmap, paintLegend } from './heatmap.js';

// Beyond this a map has more cells than a phone has pixels, and typing would lag.
const MAX_TOKENS = 512;
const DIM_MIN = 8;
const DIM_MAX = 256;
const DEFAULT_DPOS = 16;
const SCHEME_NAMES = { additive: 'Additive', concatenated: 'Concatenated', rotary: 'Rotary' };
const NUMBER_FORMAT = new Intl.NumberFormat('en-US');

const ui = {
  sentence: document.getElementById('sentence'),
  dim: document.getElementById('dim'),
  dimError: document.getElementById('dim-error'),
  causal: document.getElementById('causal'),
  engine: document.getElementById('engine'),
  failure: document.getElementById('failure'),
  emptyState: document.getElementById('empty-state'),
  tokensPanel: document.getElementById('tokens-panel'),
  tokenCount: document.getElementById('token-count'),
  truncation: document.getElementById('truncation'),
  tokens: document.getElementById('tokens'),
  mapsPanel: document.getElementById('maps-panel'),
  legend: document.getElementById('legend'),
  announcer: document.getElementById('cell-announcer'),
};

const maps = [...document.querySelectorAll('figure.map')].map((figure) => ({
  scheme: figure.dataset.scheme,
  canvas: figure.querySelector('canvas'),
  cursor: figure.querySelector('.cell-cursor'),
  readout: figure.querySelector('.cell-readout'),
}));

let lab = null;
let validDim = Number(ui.dim.value);
let frameRequested = false;
// What the maps currently show; the selected cell is shared so the three can be compared.
let shown = null; // what computeMaps returned
let selectedCell = null; // { row, col }

start();

async function start() {
  paintLegend(ui.legend);
  wireInputs();
  maps.forEach(wireMap);
  try {
    lab = await load();
  } catch (error) {
    ui.engine.textContent = 'The wasm core could not start.';
    showFailure(`PosEnc Lab could not load its WebAssembly core: ${error.message}`);
    return;
  }
  recompute();
}

function wireInputs() {
  ui.sentence.addEventListener('input', requestRecompute);
  ui.causal.addEventListener('change', requestRecompute);
  // A valid d applies at once; the complaint waits for `change`, so typing "1" on the way to
  // "128" does not flash an error.
  ui.dim.addEventListener('input', () => applyDim({ complain: false }));
  ui.dim.addEventListener('change', () => applyDim({ complain: true }));
}

function applyDim({ complain }) {
  const dim = parseDim(ui.dim.value);
  if (dim === null) {
    if (complain) showDimError(`d must be an even whole number from ${DIM_MIN} to ${DIM_MAX}; the maps still use d = ${validDim}.`);
    return;
  }
  showDimError('');
  if (dim !== validDim) {
    validDim = dim;
    requestRecompute();
  }
}

function showDimError(message) {
  ui.dim.setAttribute('aria-invalid', String(message !== ''));
  ui.dimError.hidden = message === '';
  ui.dimError.textContent = message;
}

function parseDim(text) {
  const dim = Number(text);
  const ok = text.trim() !== '' && Number.isInteger(dim) && dim % 2 === 0 && dim >= DIM_MIN && dim <= DIM_MAX;
  return ok ? dim : null;
}

// Typing fires faster than the screen refreshes; one recompute per frame is all anyone can see.
function requestRecompute() {
  if (frameRequested || !lab) return;
  frameRequested = true;
  requestAnimationFrame(() => {
    frameRequested = false;
    recompute();
  });
}

function recompute() {
  const started = performance.now();
  const settings = { d: validDim, dPos: positionDims(validDim), causal: ui.causal.checked };
  let computed;
  try {
    computed = computeMaps(ui.sentence.value, settings);
  } catch (error) {
    // Every input is validated before it reaches the lab, so this is a bug: say so rather than
    // leave stale maps looking current.
    showFailure(`Could not compute the attention maps: ${error.message}`);
    return;
  }
  ui.failure.hidden = true;
  if (!computed) {
    showEmptyState();
    ui.engine.textContent = `${engineName()} · nothing to compute`;
    return;
  }
  shown = computed;
  renderTokens(computed.tokens, computed.totalTokens);
  renderMaps(settings);
  const elapsed = performance.now() - started;
  ui.engine.textContent = `${engineName()} · last recompute ${elapsed.toFixed(1)} ms (n = ${computed.n}, d = ${settings.d})`;
}

// null for a sentence without tokens.
function computeMaps(text, { d, dPos, causal }) {
  const allTokens = lab.tokenize(text);
  if (allTokens.length === 0) return null;
  const tokens = allTokens.slice(0, MAX_TOKENS);
  const embeddings = lab.embed(tokens, d);
  const result = lab.compare(embeddings, tokens.length, d, { alpha: 1, dPos, causal });
  return {
    tokens,
    totalTokens: allTokens.length,
    n: tokens.length,
    causal,
    weights: {
      additive: result.additive.weights,
      concatenated: result.concatenated.weights,
      rotary: result.rotary.weights,
    },
  };
}

// Same-width concatenation needs d_pos < d; keep 16 where it fits and stay even.
function positionDims(d) {
  return Math.min(DEFAULT_DPOS, 2 * Math.floor(d / 4));
}

function engineName() {
  return lab.simd ? 'wasm SIMD' : 'scalar wasm';
}

function showEmptyState() {
  shown = null;
  selectedCell = null;
  ui.emptyState.hidden = false;
  ui.tokensPanel.hidden = true;
  ui.mapsPanel.hidden = true;
  ui.tokens.replaceChildren();
}

function showFailure(message) {
  ui.failure.textContent = message;
  ui.failure.hidden = false;
  ui.mapsPanel.hidden = true;
}

function renderTokens(tokens, total) {
  ui.emptyState.hidden = true;
  ui.tokensPanel.hidden = false;
  ui.tokenCount.textContent = `(${NUMBER_FORMAT.format(tokens.length)})`;
  const cut = total > tokens.length;
  ui.truncation.hidden = !cut;
  ui.truncation.textContent = cut
    ? `The sentence was cut: showing the first ${NUMBER_FORMAT.format(tokens.length)} of ${NUMBER_FORMAT.format(total)} tokens.`
    : '';
  const items = tokens.map((token, position) => {
    const item = document.createElement('li');
    item.className = 'token';
    item.dataset.position = String(position);
    item.title = `position ${position}`;
    const text = document.createElement('span');
    text.className = 'token-text';
    text.textContent = token;
    item.append(text);
    return item;
  });
  ui.tokens.replaceChildren(...items);
}

function renderMaps({ d, dPos }) {
  ui.mapsPanel.hidden = false;
  setField('d', d);
  setField('dWord', d - dPos);
  setField('dPos', dPos);
  const { n } = shown;
  for (const map of maps) {
    paintHeatmap(map.canvas, shown.weights[map.scheme], n);
    map.canvas.setAttribute('aria-label', `${SCHEME_NAMES[map.scheme]} attention map, ${n} × ${n} tokens`);
  }
  if (selectedCell) selectCell(Math.min(selectedCell.row, n - 1), Math.min(selectedCell.col, n - 1));
  else showCell(null);
}

function setField(name, value) {
  for (const element of document.querySelectorAll(`[data-field="${name}"]`)) element.textContent = String(value);
}

// Reading cells: pointer (hover or tap) and keyboard select the same cell in all three maps.

function wireMap(map) {
  const { canvas } = map;
  const pick = (event) => {
    if (!shown) return;
    const cell = cellAt(canvas, event.clientX, event.clientY);
    if (cell) selectCell(cell.row, cell.col);
  };
  canvas.addEventListener('pointermove', pick);
  canvas.addEventListener('pointerdown', pick);
  canvas.addEventListener('pointerleave', () => {
    if (!maps.some((m) => m.canvas === document.activeElement)) selectCell(null);
  });
  canvas.addEventListener('focus', () => {
    if (shown && !selectedCell) selectCell(0, 0);
  });
  // Tabbing from one map to the next keeps the cell; leaving the maps clears it.
  canvas.addEventListener('blur', (event) => {
    if (!maps.some((m) => m.canvas === event.relatedTarget)) selectCell(null);
  });
  canvas.addEventListener('keydown', moveWithKey);
}

function cellAt(canvas, clientX, clientY) {
  const box = canvas.getBoundingClientRect();
  const { n } = shown;
  const col = Math.floor(((clientX - box.left) / box.width) * n);
  const row = Math.floor(((clientY - box.top) / box.height) * n);
  if (row < 0 || col < 0 || row >= n || col >= n) return null;
  return { row, col };
}

const KEY_MOVES = {
  ArrowUp: (c) => ({ row: c.row - 1, col: c.col }),
  ArrowDown: (c) => ({ row: c.row + 1, col: c.col }),
  ArrowLeft: (c) => ({ row: c.row, col: c.col - 1 }),
  ArrowRight: (c) => ({ row: c.row, col: c.col + 1 }),
  Home: (c) => ({ row: c.row, col: 0 }),
  End: (c, n) => ({ row: c.row, col: n - 1 }),
  PageUp: (c) => ({ row: 0, col: c.col }),
  PageDown: (c, n) => ({ row: n - 1, col: c.col }),
};

function moveWithKey(event) {
  const move = KEY_MOVES[event.key];
  if (!move || !shown) return;
  event.preventDefault(); // arrows would otherwise scroll the page
  const { n } = shown;
  const next = move(selectedCell ?? { row: 0, col: 0 }, n);
  const row = clamp(next.row, 0, n - 1);
  const col = clamp(next.col, 0, n - 1);
  selectCell(row, col);
  announceCell(row, col);
}

function clamp(value, low, high) {
  return Math.max(low, Math.min(high, value));
}

function selectCell(row, col) {
  selectedCell = row === null ? null : { row, col };
  showCell(selectedCell);
}

function showCell(cell) {
  for (const map of maps) {
    map.cursor.hidden = !cell;
    map.readout.textContent = cell
      ? `${describeCell(cell.row, cell.col)}: ${cellValueText(cell.row, cell.col, map.scheme)}`
      : 'Point at a cell to read its weight.';
    if (cell) placeCursor(map.cursor, cell, shown.n);
  }
  highlightTokens(cell);
}

// Percentages keep the outline on its cell whatever size CSS gives the canvas.
function placeCursor(cursor, cell, n) {
  const size = 100 / n;
  cursor.style.left = `${cell.col * size}%`;
  cursor.style.top = `${cell.row * size}%`;
  cursor.style.width = `${size}%`;
  cursor.style.height = `${size}%`;
}

function highlightTokens(cell) {
  for (const item of ui.tokens.children) {
    const position = Number(item.dataset.position);
    item.classList.toggle('is-query', cell !== null && position === cell.row);
    item.classList.toggle('is-key', cell !== null && position === cell.col);
  }
}

function describeCell(row, col) {
  const { tokens } = shown;
  return `query “${tokens[row]}” (${row}) → key “${tokens[col]}” (${col})`;
}

function cellValueText(row, col, scheme) {
  const { n, causal, weights } = shown;
  const masked = causal && col > row ? ' (masked: a later word)' : '';
  return `${formatWeight(weights[scheme][row * n + col])}${masked}`;
}

function announceCell(row, col) {
  const values = maps.map((map) => `${SCHEME_NAMES[map.scheme]} ${cellValueText(row, col, map.scheme)}`);
  ui.announcer.textContent = `${describeCell(row, col)}: ${values.join(', ')}`;
}

function formatWeight(value) {
  if (value === 0) return '0';
  return value >= 1e-4 ? value.toFixed(6) : value.toExponential(3);
}
