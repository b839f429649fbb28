// The element's stand-in for web/cores.mjs (scripts/bundle-element.mjs puts it in place): the core
// travels inside the bundle (element.js installs its loader with setCoreLoader), and the model
// core and its JS side (model.mjs) are fetched from beside the element's file the first time a
// reader presses Train.
//
// POSENC_CLASSIC_SCRIPT (defined per build): in the classic script (posenc-lab.js) a relative
// import() would resolve against the page, so the glue's URL is made from the script's own;
// the ES module (posenc-lab.mjs) names each file statically, so bundlers copy them.

/** Never used: element.js installs the core inside the bundle before any load(). */
export async function coreBeside() {
  throw new Error('the <posenc-lab> element carries its core inside');
}

/** flavour → Promise of the model core's Emscripten module, fetched beside this file. */
export async function modelsBeside(flavour) {
  const simd = flavour === 'simd';
  const wasmUrl = simd ? new URL('./posenc-models-simd.wasm', import.meta.url) : new URL('./posenc-models-scalar.wasm', import.meta.url);
  /* global POSENC_CLASSIC_SCRIPT */
  const glue = POSENC_CLASSIC_SCRIPT
    ? await import(new URL(simd ? './posenc-models-simd.mjs' : './posenc-models-scalar.mjs', import.meta.url).href)
    : simd ? await import('./posenc-models-simd.mjs') : await import('./posenc-models-scalar.mjs');
  return glue.default({ locateFile: () => wasmUrl.href });
}

/** The word-vector file beside this file; null when there is no folder (anywidget's blob: URL). */
export function gloveBeside() {
  try {
    return new URL('./glove-6b-100d-20k.i8', import.meta.url);
  } catch {
    return null;
  }
}

/** None: the element runs in browsers, and a node: import would stop bundlers (webpack) for them. */
export const readFileUrl = null;

/** None: the element reads no models manifest (setCoreLoader's pretrained: false). */
export const modelFilesBeside = () => null;

/** The model core's JS side (model.mjs, beside this file), loaded with it. */
export const modelCode = () => (POSENC_CLASSIC_SCRIPT ? import(new URL('./model.mjs', import.meta.url).href) : import('./model.mjs'));

/** Never used: the element lists no pretrained models (setCoreLoader's pretrained: false), so it unpacks none. */
export async function packedCode() {
  throw new Error('the <posenc-lab> element ships no pretrained models');
}

/** Never used, as packedCode. */
export const modelFileCode = packedCode;
