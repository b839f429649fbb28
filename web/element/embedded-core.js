// The wasm cores inside the element's worker bundle (posenc-lab-worker.mjs): installed as the JS
// API's core loader before the worker's lab loads (web/element/lab-worker.js imports this first).
//
// cores = { simd, scalar, data }: byte sizes, and base64 of one LZMA stream holding the SIMD
// core then the scalar one (scripts/bundle-element.mjs); the SIMD core needs only the stream's
// first part.
import { setCoreLoader } from '../posenc.mjs';
import createCore from 'posenc:core-glue';
import cores from 'posenc:cores';
import { decodeLzma } from './lzma.js';

function decodeBase64(text) {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

// async: a damaged stream rejects load() rather than throwing out of it.
setCoreLoader(async (flavour) => {
  const simd = flavour === 'simd';
  const bytes = decodeLzma(decodeBase64(cores.data), cores.simd + (simd ? 0 : cores.scalar));
  // locateFile: the glue would otherwise build the .wasm's URL from import.meta.url, which throws
  // in a worker made from a blob: URL; the bytes are here, nothing is fetched.
  return createCore({ wasmBinary: simd ? bytes : bytes.subarray(cores.simd), locateFile: (path) => path });
});
