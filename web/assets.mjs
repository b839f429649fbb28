// The data files beside the JS API: where they are (load's assetsUrl), how their bytes are read
// (from disk in Node, fetched elsewhere, with progress and abort), the shipped models' manifest
// and the sha256 a pretrained file must match.
import { readFileUrl } from './cores.mjs';
import { SCHEME_LABELS } from './options.mjs';

export const GLOVE_FILE = 'glove-6b-100d-20k.i8';

// assetsUrl as a folder URL: relative ones resolve against the page (or, in Node, this module).
// null when unset and this module has no folder: loaded from a blob: or data: URL, as anywidget
// loads a notebook widget's module.
export function assetsFolder(assetsUrl) {
  if (assetsUrl === undefined) {
    try {
      return new URL('./', import.meta.url);
    } catch {
      return null; // URL.canParse would say so, but is missing before 2023's browsers
    }
  }
  if (typeof assetsUrl !== 'string' && !(assetsUrl instanceof URL)) throw new TypeError('assetsUrl must be a string or a URL');
  const base = typeof document === 'object' ? document.baseURI : import.meta.url;
  let url;
  try {
    url = new URL(assetsUrl, base);
  } catch {
    throw new RangeError(`assetsUrl must be a URL (got '${assetsUrl}')`);
  }
  // A folder: "…/assets" and "…/assets/" both mean the files inside it.
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url;
}

// Bytes of a data file: read from disk for file: URLs in Node, fetched otherwise. A fetch refused
// by CORS only says "Failed to fetch", so the message names the likely cause. onProgress({ loaded,
// total }) after each piece (total: the expected size, if known); signal aborts with an AbortError.
export async function readAsset(url, { onProgress, signal, total } = {}) {
  if (readFileUrl && url.protocol === 'file:') {
    let bytes;
    try {
      bytes = await readFileUrl(url, signal);
    } catch (error) {
      if (error.name === 'AbortError') throw error;
      throw new Error(`could not load ${url.href}: ${error.code ?? error.message}`);
    }
    onProgress?.({ loaded: bytes.length, total: bytes.length });
    return bytes;
  }
  const response = await fetchAsset(url, { signal });
  if (!response.ok) throw new Error(`could not load ${url.href}: HTTP ${response.status}`);
  if (!onProgress || !response.body) return new Uint8Array(await response.arrayBuffer());
  return readBody(response, { onProgress, total: total ?? (Number(response.headers.get('content-length')) || undefined) });
}

// fetch, with "Failed to fetch" explained (a file on another origin without CORS headers).
export async function fetchAsset(url, init) {
  try {
    return await fetch(url, init);
  } catch (error) {
    if (error.name === 'AbortError') throw error;
    throw new Error(`could not fetch ${url.href} (${error.message}; a file on another origin must be served with Access-Control-Allow-Origin)`);
  }
}

// A response's bytes, read piece by piece: onProgress({ loaded: offset + read so far, total })
// after each; at.fn(first at.bytes bytes) once that many have been read (awaited: reading waits).
export async function readBody(response, { onProgress, total, offset = 0, at = null }) {
  const pieces = [];
  let loaded = 0;
  let called = false;
  const joined = () => {
    const bytes = new Uint8Array(loaded);
    pieces.reduce((into, piece) => (bytes.set(piece, into), into + piece.length), 0);
    return bytes;
  };
  for (const reader = response.body.getReader(); ;) {
    const { done, value } = await reader.read();
    if (done) break;
    pieces.push(value);
    loaded += value.length;
    onProgress?.({ loaded: offset + loaded, total: total ?? offset + loaded });
    if (at && !called && loaded >= at.bytes) {
      called = true;
      await at.fn(joined().subarray(0, at.bytes));
    }
  }
  return joined();
}

// The pretrained word-level models (data/models/, scripts/train-models), shipped in the data
// folder as models/: their manifest, or none when it is missing or unreadable (or no folder is known).
export const MODELS_DIR = 'models/';
const PRETRAINED_KEYS = ['name', 'scheme', 'config', 'vocabSize', 'heldOutLoss', 'heldOutPerplexity', 'heldOutTokens', 'bytes', 'sha256', 'heads'];

export async function readManifest(assets, url = assets && new URL(`${MODELS_DIR}manifest.json`, assets)) {
  if (!assets) return Object.freeze([]);
  try {
    const manifest = JSON.parse(new TextDecoder().decode(await readAsset(url)));
    return Object.freeze(manifest.models.map((entry) => {
      const picked = Object.fromEntries(PRETRAINED_KEYS.map((key) => [key, entry[key]]));
      return Object.freeze({ ...picked, label: SCHEME_LABELS[entry.scheme], config: Object.freeze({ ...entry.config }) });
    }));
  } catch {
    return Object.freeze([]);
  }
}

export function throwIfAborted(signal) {
  if (signal?.aborted) throw signal.reason ?? new DOMException('loadPretrained was aborted', 'AbortError');
}
