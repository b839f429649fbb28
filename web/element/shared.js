// What every <posenc-lab> on a page shares: one wasm instance, one GloVe set per file, the
// synthetic vectors per d, the vocabulary spreads, and one observer that starts each element the
// first time it comes near the viewport.
import { load } from '../posenc.mjs';
import { syntheticSource, vectorSetSource } from '../pipeline/vocab.js';

let labPromise = null;
export const sharedLab = () => (labPromise ??= load());
const vectorFiles = new Map(); // GloVe file URL → Promise of { source } or { note }
const synthetics = new Map();

/**
 * GloVe from src (relative to the page; '' = beside this file) when it is served over http(s):
 * { source } or { note } explaining why not.
 */
export function sharedGlove(lab, src) {
  let url;
  try {
    // Beside this script, named statically as in element/cores.mjs: the URL a bundler (webpack,
    // Vite) gives the copy it makes, not a build-time file: URL, which would read as 'no GloVe'.
    url = src ? new URL(src, document.baseURI) : new URL('./glove-6b-100d-20k.i8', import.meta.url);
  } catch {
    // A module loaded from a blob: or data: URL (anywidget's) has no folder; or src is not a URL.
    return Promise.resolve({ note: `Synthetic word vectors: ${src ? `vectors-src="${src}" is not a URL` : 'this script has no folder to fetch GloVe from; set vectors-src to its URL'}.` });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return Promise.resolve({ note: 'Synthetic word vectors: GloVe cannot be fetched by a page opened from a file.' });
  }
  if (!vectorFiles.has(url.href)) {
    vectorFiles.set(url.href, lab.loadVectors(src ? url : 'glove').then(
      (vectors) => ({ source: vectorSetSource(lab, vectors) }),
      (error) => ({ note: `Synthetic word vectors: GloVe could not be loaded (${error.message}).` }),
    ));
  }
  return vectorFiles.get(url.href);
}

export function syntheticFor(lab, d) {
  if (!synthetics.has(d)) synthetics.set(d, syntheticSource(lab, d));
  return synthetics.get(d);
}

// The vocabulary spreads are cached where the page's are, once per source.
export { wordSpreadOf as wordSpread } from '../pipeline/measures/spread.js';

// One observer for every element: each starts the first time it comes near the viewport.
const waiting = new WeakMap();
let visibility = null;
export function whenVisible(element, start) {
  visibility ??= new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      visibility.unobserve(entry.target);
      waiting.get(entry.target)?.();
      waiting.delete(entry.target);
    }
  }, { rootMargin: '100px' });
  waiting.set(element, start);
  visibility.observe(element);
}

/** Stops waiting for `element` to come into view (it started another way). */
export function unwatch(element) {
  visibility?.unobserve(element);
}
