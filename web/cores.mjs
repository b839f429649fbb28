// Where the JS API's wasm modules come from by default: beside this file, as Emscripten's
// .mjs glue and .wasm pairs: the core (posenc-core-<flavour>, loaded by load()) and the model core
// (posenc-models-<flavour>, loaded the first time a model is needed: loadModels(), with its JS
// side, model.mjs).
//
// Every file is named by a static string, import('./file') or new URL('./file', import.meta.url),
// never a template: bundlers (Vite, webpack, Rollup) then copy each one beside their output.
// Bundles that carry their cores inside (the <posenc-lab> element) install their own loaders
// (setCoreLoader in posenc.mjs) or replace this module (scripts/bundle-element.mjs).
const IS_NODE = typeof process === 'object' && typeof process.versions?.node === 'string';

/** flavour ('simd' | 'scalar') → Promise of the core's Emscripten module. */
export async function coreBeside(flavour) {
  const simd = flavour === 'simd';
  const wasm = simd ? new URL('./posenc-core-simd.wasm', import.meta.url) : new URL('./posenc-core-scalar.wasm', import.meta.url);
  const compiling = compileBeside(wasm);
  const { default: create } = simd ? await import('./posenc-core-simd.mjs') : await import('./posenc-core-scalar.mjs');
  return start(create, wasm, compiling);
}

/** flavour → Promise of the model core's Emscripten module. */
export async function modelsBeside(flavour) {
  const simd = flavour === 'simd';
  const wasm = simd ? new URL('./posenc-models-simd.wasm', import.meta.url) : new URL('./posenc-models-scalar.wasm', import.meta.url);
  const compiling = compileBeside(wasm);
  const { default: create } = simd ? await import('./posenc-models-simd.mjs') : await import('./posenc-models-scalar.mjs');
  return start(create, wasm, compiling);
}

/** The word-vector file beside this module (GloVe 6B 100-d, 20k words); null when there is no folder (blob:). */
export function gloveBeside() {
  try {
    return new URL('./glove-6b-100d-20k.i8', import.meta.url);
  } catch {
    return null;
  }
}

/**
 * The shipped models' manifest and the three default models' packed files beside this module, each named
 * statically so bundlers copy them (the npm package ships these; the other schemes' models are
 * on a host of the whole dist/, through load({ assetsUrl })); null when there is no folder.
 */
export function modelFilesBeside() {
  try {
    return {
      manifest: new URL('./models/manifest.json', import.meta.url),
      additive: new URL('./models/additive.q8.safetensors', import.meta.url),
      concatenated: new URL('./models/concatenated.q8.safetensors', import.meta.url),
      rotary: new URL('./models/rotary.q8.safetensors', import.meta.url),
    };
  } catch {
    return null;
  }
}

/** The model core's JS side (web/model.mjs), loaded with it. */
export const modelCode = () => import('./model.mjs');

/** The shipped models' wire format (web/packed-weights.mjs), loaded with the first pretrained model. */
export const packedCode = () => import('./packed-weights.mjs');

/** How a shipped model's file is read, its heads first (web/model-file.mjs), loaded with it too. */
export const modelFileCode = () => import('./model-file.mjs');

/**
 * A file: URL's bytes in Node (posenc.mjs reads data files with it); null where there is no disk.
 * webpackIgnore: webpack bundles for the browser, where node: modules do not resolve and this
 * branch never runs, so the import is left to Node. The element's stand-in (element/element-loaders.mjs)
 * has none, so its minified bundle, which loses this comment, names no node: module at all.
 */
export const readFileUrl = IS_NODE
  ? async (url, signal) => new Uint8Array(await (await import(/* webpackIgnore: true */ 'node:fs/promises')).readFile(url, { signal }))
  : null;

// The wasm file fetched and compiled while its glue is still on the way (the glue would ask for it
// only once it has run: one more round trip): a Promise of the WebAssembly.Module, or null for a
// file: URL in Node, whose bytes start() reads. compileStreaming needs the application/wasm type;
// from a host that sends another the bytes are compiled once they are all in.
function compileBeside(wasmUrl) {
  if (readFileUrl && wasmUrl.protocol === 'file:') return null;
  const compiling = fetch(wasmUrl, { credentials: 'same-origin' }).then((response) => {
    if (!response.ok) throw new Error(`could not load ${wasmUrl.href}: HTTP ${response.status}`);
    if (/^application\/wasm\b/.test(response.headers.get('content-type') ?? '')) return WebAssembly.compileStreaming(response);
    return response.arrayBuffer().then((bytes) => WebAssembly.compile(bytes));
  });
  compiling.catch(() => {}); // reported by start, where it is awaited
  return compiling;
}

// Emscripten 3.1.6's Node branch would fetch() a file path, so in Node the bytes are handed over;
// elsewhere the glue instantiates the module compileBeside compiled (its instantiateWasm hook),
// and a failure there rejects, since the glue's own promise would never settle.
async function start(create, wasmUrl, compiling) {
  if (!compiling) return create({ wasmBinary: await readFileUrl(wasmUrl) });
  let fail;
  const failed = new Promise((_, reject) => { fail = reject; });
  const ready = create({
    locateFile: () => wasmUrl.href,
    instantiateWasm(imports, receive) {
      compiling.then((module) => WebAssembly.instantiate(module, imports)).then((instance) => receive(instance), fail);
      return {}; // the exports arrive through receive
    },
  });
  return Promise.race([ready, failed]);
}
