// A shipped model's packed file read over HTTP with what its attention maps need first (the
// output layer comes last in it: web/packed-weights.mjs, headsBytes), and the sha256 checks its
// parts must pass. Loaded with the first pretrained model (web/cores.mjs, modelFileCode), so pages
// and bundles that show no model do not carry it.
import { readFileUrl } from './cores.mjs';
import { fetchAsset, readAsset, readBody, throwIfAborted } from './assets.mjs';

/**
 * A shipped model's packed file (entry: its lab.pretrained entry) from url, its sha256 checked:
 * readModelFile with the entry's heads, the first bytes checked against heads.sha256 before
 * onHeads(them). → the whole file's bytes; an Error naming the file or its first bytes.
 */
export async function readPretrained(url, entry, { onHeads, onProgress, signal }) {
  const heads = onHeads && entry.heads && (async (prefix) => {
    await checkSha256(`${url}'s first ${prefix.length} bytes`, prefix, entry.heads.sha256, signal);
    await onHeads(prefix);
  });
  const packed = await readModelFile(url, { heads: entry.heads, onHeads: heads, onProgress, signal, total: entry.bytes }).catch((error) => {
    if (!/HTTP 404|ENOENT/.test(error.message)) throw error;
    throw new Error(`${error.message}: the npm package ships the additive, concatenated and rotary models only; ` +
      'for the others serve a built dist/ (its models/ folder) and pass load({ assetsUrl }) naming that folder');
  });
  await checkSha256(url, packed, entry.sha256, signal);
  return packed;
}

/**
 * A shipped model's packed file, read so that what its attention maps need arrives first:
 * heads: { bytes, sha256 } of the file's first bytes (the manifest's; web/packed-weights.mjs,
 * headsBytes), onHeads(those bytes) called once they are in, awaited, before the rest is read.
 * Over HTTP the first bytes are one Range request and the rest another, so files asked for
 * meanwhile are not queued behind the output layer. A server that ignores Range answers 200 with
 * the whole file, and a Range refused outright (a network error: e.g. a cross-origin host that
 * does not allow the header) is asked again without it; either way the whole file is read as it
 * streams and onHeads gets its first bytes at the same point. Without heads or onHeads, and for
 * file: URLs in Node, it is readAsset. Options as readAsset's. → the whole file's bytes.
 */
export async function readModelFile(url, { heads, onHeads, onProgress, signal, total } = {}) {
  if (!heads || !onHeads || (readFileUrl && url.protocol === 'file:')) return readAsset(url, { onProgress, signal, total });
  const at = { bytes: heads.bytes, fn: onHeads };
  let first;
  try {
    first = await fetch(url, { signal, headers: { Range: `bytes=0-${heads.bytes - 1}` } });
  } catch (error) {
    if (error.name === 'AbortError') throw error;
    first = await fetchAsset(url, { signal });
  }
  if (first.status === 200) return readBody(first, { onProgress, total, at });
  if (first.status !== 206) throw new Error(`could not load ${url.href}: HTTP ${first.status}`);
  const prefix = await readBody(first, { onProgress, total });
  const range = first.headers.get('content-range');  // unreadable cross-origin unless exposed
  if (prefix.length !== heads.bytes || (range && !range.startsWith(`bytes 0-${heads.bytes - 1}/`))) {
    throw new Error(`${url.href}: asked for its first ${heads.bytes} bytes, got ${range ?? `${prefix.length} bytes`}`);
  }
  await onHeads(prefix);
  // If-Range: should the file have changed in between, the server sends the whole new one.
  const etag = first.headers.get('etag');
  const rest = await fetchAsset(url, { signal, headers: { Range: `bytes=${heads.bytes}-`, ...(etag ? { 'If-Range': etag } : {}) } });
  if (rest.status === 200) return readBody(rest, { onProgress, total });
  if (rest.status !== 206) throw new Error(`could not load ${url.href}: HTTP ${rest.status}`);
  const tail = await readBody(rest, { onProgress, total, offset: prefix.length });
  const bytes = new Uint8Array(prefix.length + tail.length);
  bytes.set(prefix);
  bytes.set(tail, prefix.length);
  return bytes;
}

async function sha256Hex(bytes) {
  if (!globalThis.crypto?.subtle) throw new Error('loadPretrained checks each file\'s sha256 with crypto.subtle, which only a secure context (https or localhost) has');
  const digest = new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Throws an Error naming `what` (a file, or its first bytes) unless bytes' sha256 is `expected`; an AbortError if aborted meanwhile. */
async function checkSha256(what, bytes, expected, signal) {
  const sha256 = await sha256Hex(bytes);
  throwIfAborted(signal);
  if (sha256 !== expected) throw new Error(`${what} has sha256 ${sha256}, but the manifest says ${expected}`);
}
