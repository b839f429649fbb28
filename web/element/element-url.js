// The URL posenc-lab.js was loaded from. The bundle is a classic script, where import.meta does
// not exist; scripts/bundle-element.mjs injects this module and maps import.meta.url onto it, so
// the JS API finds glove-6b-100d-20k.i8 beside posenc-lab.js wherever it is hosted.
function ownUrl() {
  if (typeof document !== 'object') return '';
  // <script src="…/posenc-lab.js">: the running classic script.
  if (document.currentScript?.src) return document.currentScript.src;
  // <script type="module" src="…">: no currentScript; the first frame of a stack names this file.
  const frame = /(?:https?|file):\/\/[^\s()@]+?(?=:\d+:\d+)/.exec(new Error().stack ?? '');
  if (frame) return frame[0];
  return document.querySelector('script[src*="posenc-lab"]')?.src ?? document.baseURI;
}

export const posencScriptUrl = ownUrl();
