// A static file server for dist/ on 127.0.0.1 (the demo and the browser tests use it).
// Usage: node scripts/serve.mjs DIR [PORT]   (PORT 0 picks a free one; the URL is printed)
//
// What a good static host does, so the demo and the benchmarks see realistic transfers:
// - brotli or gzip, chosen from Accept-Encoding, for the types in COMPRESSED (the ones that gain:
//   node scripts/transfer-sizes.mjs measures them), with Vary: Accept-Encoding. A compressed body
//   is made once per file, encoding and modification time and kept in memory.
// - Cache-Control: no-cache with an ETag and Last-Modified, so a reload revalidates each file and
//   gets 304 Not Modified for the unchanged ones, and a rebuilt dist/ is picked up at once.
// - Range requests (one range; Accept-Ranges: bytes) answered 206 from the uncompressed file, so a
//   client can read a model's header and then the tensors it needs.
// The benchmarks start it with `precompress`: every compressible file is compressed in both
// encodings before it listens, as a static host serves files compressed ahead of time, so no
// measured load shares the machine's cores with the server's compressor (server.compressions()
// counts the bodies compressed since it started listening, for them to check that it stays 0).
import { createServer } from 'node:http';
import { readdir, readFile, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
};

/**
 * The extensions served compressed: text, and the binary formats that gzip shrinks by MIN_SAVING
 * or more (measured on dist/: wasm code about 58%, the F16 models' tensors and the int8 word
 * vectors about 10%). PNG and WOFF2 are compressed formats already.
 * scripts/transfer-sizes.mjs --check fails when the files in dist/ contradict this list.
 */
export const COMPRESSED = new Set(['.html', '.js', '.mjs', '.css', '.json', '.map', '.txt', '.svg', '.d.mts', '.wasm', '.safetensors', '.i8']);
/** The smallest saving under gzip (a fraction of the bytes) that earns a type its place in COMPRESSED. */
export const MIN_SAVING = 0.05;

/** Whether a file name's type is served compressed (d.mts counts as one extension). */
export const compressible = (name) => COMPRESSED.has(name.endsWith('.d.mts') ? '.d.mts' : extname(name));

// Brotli at quality 5: the demo compresses on a file's first request, and on dist/ quality 11
// was measured 6% smaller in all (9% on the files under 64 KB) but about 90× slower (a minute of
// CPU for the whole folder); a static host precompresses once, at 11 (docs/EMBEDDING.md's table).
const ENCODERS = {
  br: (body) => promisify(brotliCompress)(body, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
  }),
  gzip: (body) => promisify(gzip)(body, { level: 9 }),
};

/**
 * The encoding to send for an Accept-Encoding header: 'br' before 'gzip' when both are
 * acceptable (q > 0), else null (identity). `*` stands for any encoding not named.
 */
export function negotiate(acceptEncoding = '') {
  const q = new Map();
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    q.set(name, qParam ? Number(qParam.slice(2)) : 1);
  }
  const accepted = (name) => (q.has(name) ? q.get(name) : q.get('*') ?? 0) > 0;
  return ['br', 'gzip'].find(accepted) ?? null;
}

/**
 * A Range header against a file of `size` bytes → { start, end } (inclusive), 'unsatisfiable', or
 * null (absent, malformed or several ranges: the whole file is sent, as RFC 9110 allows).
 */
export function parseRange(header, size) {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? '');
  if (!match || (match[1] === '' && match[2] === '')) return null;
  let start, end;
  if (match[1] === '') {  // the last N bytes
    const suffix = Number(match[2]);
    if (suffix === 0) return 'unsatisfiable';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
    if (match[2] !== '' && Number(match[2]) < start) return null;
  }
  return start >= size ? 'unsatisfiable' : { start, end };
}

/**
 * Serves dir on 127.0.0.1:port (0: a free one) → the listening http.Server, with compressions()
 * added: the bodies compressed since it started listening. precompress: first compress every
 * compressible file under dir in each encoding.
 */
export async function serve(dir, port = 0, { precompress = false } = {}) {
  const root = resolve(dir);
  // "file\0encoding" → { mtimeMs, size, body: Promise<Buffer> }: one compression per file version.
  const compressedCache = new Map();
  let compressions = 0;
  const compressed = (file, info, encoding, raw) => {
    const key = `${file}\0${encoding}`;
    const hit = compressedCache.get(key);
    if (hit && hit.mtimeMs === info.mtimeMs && hit.size === info.size) return hit.body;
    compressions++;
    const body = ENCODERS[encoding](raw);
    compressedCache.set(key, { mtimeMs: info.mtimeMs, size: info.size, body });
    body.catch(() => compressedCache.delete(key));
    return body;
  };

  const server = createServer(async (req, res) => {
    try {
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain' });
        res.end('method not allowed');
        return;
      }
      const path = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
      let file = resolve(join(root, path));
      if (file !== root && !file.startsWith(root + sep)) throw new Error('outside root');
      let info = await stat(file);
      if (info.isDirectory()) {
        file = join(file, 'index.html');
        info = await stat(file);
      }
      await send(req, res, file, info, compressed);
    } catch {
      if (res.headersSent) { res.destroy(); return; }
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('not found');
    }
  });
  if (precompress) {
    for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !compressible(entry.name)) continue;
      // The entry's folder: Dirent.parentPath, named Dirent.path on Node releases before 18.20 and 20.12.
      const file = join(entry.parentPath ?? entry.path, entry.name);
      const [info, raw] = await Promise.all([stat(file), readFile(file)]);
      for (const encoding of Object.keys(ENCODERS)) await compressed(file, info, encoding, raw);
    }
  }
  const ahead = compressions;
  server.compressions = () => compressions - ahead;
  return new Promise((ready, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => ready(server));
  });
}

// The validators of one file version. The ETag names the encoding too (a strong validator is
// per representation); If-None-Match matches any of the version's tags.
const versionTag = (info) => `${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}`;
const etagFor = (info, encoding) => `"${versionTag(info)}${encoding ? `-${encoding}` : ''}"`;

function notModified(req, info) {
  const ifNoneMatch = req.headers['if-none-match'];
  if (ifNoneMatch != null) {
    if (ifNoneMatch.trim() === '*') return true;
    return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '').replace(/^"|"$/g, '').replace(/-(br|gzip)$/, '') === versionTag(info));
  }
  const since = Date.parse(req.headers['if-modified-since'] ?? '');
  return Number.isFinite(since) && Math.floor(info.mtimeMs / 1000) * 1000 <= since;
}

async function send(req, res, file, info, compressed) {
  const canCompress = compressible(file);
  const headers = {
    'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
    'Cache-Control': 'no-cache',
    'Last-Modified': new Date(info.mtimeMs).toUTCString(),
    'Accept-Ranges': 'bytes',
    ...(canCompress ? { Vary: 'Accept-Encoding' } : {}),
  };
  const rangeHeader = req.headers.range;
  // If-Range: the range only applies to the version it names; otherwise the whole file is sent.
  const ifRange = req.headers['if-range'];
  const rangeApplies = rangeHeader != null && (ifRange == null || ifRange === etagFor(info, null) || ifRange === headers['Last-Modified']);
  const range = rangeApplies ? parseRange(rangeHeader, info.size) : null;
  const encoding = canCompress && !range ? negotiate(req.headers['accept-encoding']) : null;
  headers.ETag = etagFor(info, encoding);

  if (notModified(req, info)) {
    const { 'Content-Type': _, ...kept } = headers;
    res.writeHead(304, kept);
    res.end();
    return;
  }
  if (range === 'unsatisfiable') {
    res.writeHead(416, { ...headers, 'Content-Range': `bytes */${info.size}`, 'Content-Type': 'text/plain' });
    res.end();
    return;
  }
  const raw = await readFile(file);
  let status = 200, body = raw;
  if (range) {
    status = 206;
    body = raw.subarray(range.start, range.end + 1);
    headers['Content-Range'] = `bytes ${range.start}-${range.end}/${raw.length}`;
  } else if (encoding) {
    body = await compressed(file, info, encoding, raw);
    headers['Content-Encoding'] = encoding;
  }
  headers['Content-Length'] = body.length;
  res.writeHead(status, headers);
  res.end(req.method === 'HEAD' ? undefined : body);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [dir = 'dist', port = '8000'] = process.argv.slice(2);
  const server = await serve(dir, Number(port));
  console.log(`PosEnc Lab is at http://127.0.0.1:${server.address().port}/  (Ctrl+C stops)`);
}
