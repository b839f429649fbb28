// The wasm cores inside the element's worker bundle (posenc-lab-worker.mjs): installed as the JS
// API's core loader before the worker's lab loads (web/element/lab-worker.js imports this first).
//
// cores (scripts/bundle-element.mjs, per build) = { simd, scalar: byte sizes; data: base64 of an LZMA
// stream; scalarStream? }. Without scalarStream (the one-file builds) the stream holds the SIMD core
// then the scalar one, and the SIMD core needs only its first part. With it (the worker) the stream
// holds the SIMD core alone, and scalarStream() imports the scalar core's own stream from beside
// the worker's file: only a browser without wasm SIMD fetches it.
import { setCoreLoader } from '../posenc.mjs';
import createCore from 'posenc:core-glue';
import cores from 'posenc:cores';
import { decodeBase64, decodeLzma } from './lzma.js';

// async: a damaged stream rejects load() rather than throwing out of it.
setCoreLoader(async (flavour) => {
  const simd = flavour === 'simd';
  let bytes;
  if (simd) bytes = decodeLzma(decodeBase64(cores.data), cores.simd);
  else if (cores.scalarStream) bytes = decodeLzma(decodeBase64((await cores.scalarStream()).default), cores.scalar);
  else bytes = decodeLzma(decodeBase64(cores.data), cores.simd + cores.scalar).subarray(cores.simd);
  // locateFile: the glue would otherwise build the .wasm's URL from import.meta.url, which throws
  // in a worker made from a blob: URL; the bytes are here, nothing is fetched.
  return createCore({ wasmBinary: bytes, locateFile: (path) => path });
});
