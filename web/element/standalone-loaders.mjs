// posenc-lab-standalone.js's stand-in for web/cores.mjs (scripts/bundle-element.mjs puts it in
// place): as element-loaders.mjs, but the model core and its JS side (model.mjs) are inside the
// one file, so a page with no folder to fetch from (an HTML file opened alone, a notebook's
// output frame) can load a model (model-src).
//
// modelCores (per build) = { simd, scalar: byte sizes; data: base64 of one LZMA stream holding the
// SIMD model core then the scalar one }: a SIMD browser decodes only the stream's first part.
import createModels from 'posenc:model-glue';
import modelCores from 'posenc:model-cores';
import { decodeBase64, decodeLzma } from './lzma.js';

export { coreBeside, gloveBeside, readFileUrl, modelFilesBeside, packedCode, modelFileCode } from './element-loaders.mjs';

/** flavour → Promise of the model core's Emscripten module, from the bytes inside this file. */
export async function modelsBeside(flavour) {
  const simd = flavour === 'simd';
  const stream = decodeBase64(modelCores.data);
  const bytes = simd ? decodeLzma(stream, modelCores.simd)
    : decodeLzma(stream, modelCores.simd + modelCores.scalar).subarray(modelCores.simd);
  // locateFile: nothing is fetched (the bytes are here); the glue would otherwise build a URL.
  return createModels({ wasmBinary: bytes, locateFile: (path) => path });
}

/** The model core's JS side, inside this file. */
export const modelCode = () => import('../model.mjs');
