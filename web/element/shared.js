// What every <posenc-lab> on a page shares: one lab (the wasm core, the word vectors, the
// computing: in the lab worker, or in this thread where the element must be one file; each element
// talks to it on a channel of its own) and one observer that starts each element the first time it
// comes near the viewport.
import { createElementClient } from 'posenc:element-client';

let client = null;
/**
 * The page's one lab client, started on first use: { start() → Promise<{ simd }>, channel() →
 * { glove(url), compute(request), analyse(gen, onAnalysis, options), close() } } — the lab
 * worker's client (client-worker.js) or the same calls in this thread (client-local.js).
 */
export function sharedClient() {
  client ??= createElementClient();
  return client;
}

/**
 * The URL of the GloVe file for src (relative to the page; '' = beside this file) when it is
 * served over http(s): { url } (absolute, for the worker) or { note } explaining why not.
 */
export function gloveUrl(src) {
  let url;
  try {
    // Beside this script, named statically as in element/element-loaders.mjs: the URL a bundler (webpack,
    // Vite) gives the copy it makes, not a build-time file: URL, which would read as 'no GloVe'.
    url = src ? new URL(src, document.baseURI) : new URL('./glove-6b-100d-20k.i8', import.meta.url);
  } catch {
    // A module loaded from a blob: or data: URL (anywidget's) has no folder; or src is not a URL.
    return { note: `Synthetic word vectors: ${src ? `vectors-src="${src}" is not a URL` : 'this script has no folder to fetch GloVe from; set vectors-src to its URL'}.` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { note: 'Synthetic word vectors: GloVe cannot be fetched by a page opened from a file.' };
  }
  return { url: url.href };
}

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
