// scripts/serve.mjs, the demo's and the browser tests' static server, over real HTTP on a free
// port with a folder of its own: content negotiation (brotli, gzip, identity) with Vary,
// revalidation (ETag, Last-Modified → 304, and a changed file is sent again), Range requests
// (206 from the uncompressed bytes, 416, If-Range), 404s and refused path traversal; and
// precompress, after which serving compresses nothing more.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { mkdtemp, mkdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { negotiate, parseRange, serve, compressible } from '../../scripts/serve.mjs';

let outer, dir, server, port;
// A text file that compresses well, and bytes that do not (a fixed-seed LCG: no pattern to find).
const SCRIPT = Buffer.from('export const words = [' + Array.from({ length: 400 }, (_, i) => `'word${i % 37}'`).join(', ') + '];\n');
const NOISE = Buffer.alloc(4096);
for (let i = 0, x = 12345; i < NOISE.length; i++) { x = (x * 1103515245 + 12345) >>> 0; NOISE[i] = x >>> 24; }

before(async () => {
  // The served folder sits inside another that holds a file it must never hand out.
  outer = await mkdtemp(join(tmpdir(), 'posenc-serve-'));
  dir = join(outer, 'root');
  await mkdir(join(dir, 'sub'), { recursive: true });
  await writeFile(join(dir, 'index.html'), '<!doctype html><title>t</title>');
  await writeFile(join(dir, 'app.js'), SCRIPT);
  await writeFile(join(dir, 'noise.png'), NOISE);
  await writeFile(join(dir, 'sub', 'model.safetensors'), NOISE);
  await writeFile(join(outer, 'posenc-serve-secret.txt'), 'secret');
  server = await serve(dir, 0);
  port = server.address().port;
});
after(async () => {
  await new Promise((done) => server.close(done));
  await rm(outer, { recursive: true, force: true });
});

/**
 * One raw request (no client-side decoding or path normalising) → { status, headers, body }; to
 * the shared server unless `to` names another's port.
 */
function get(path, headers = {}, method = 'GET', to = port) {
  return new Promise((done, fail) => {
    const req = request({ host: '127.0.0.1', port: to, path, method, headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => done({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', fail);
    req.end();
  });
}

test('negotiate prefers brotli, then gzip, honours q=0 and *', () => {
  assert.equal(negotiate('gzip, deflate, br'), 'br');
  assert.equal(negotiate('gzip, deflate'), 'gzip');
  assert.equal(negotiate('br;q=0, gzip;q=0.5'), 'gzip');
  assert.equal(negotiate('*'), 'br');
  assert.equal(negotiate('*, br;q=0'), 'gzip');
  assert.equal(negotiate('identity'), null);
  assert.equal(negotiate(''), null);
  assert.equal(negotiate(undefined), null);
});

test('parseRange reads one byte range and refuses what cannot be met', () => {
  assert.deepEqual(parseRange('bytes=0-9', 100), { start: 0, end: 9 });
  assert.deepEqual(parseRange('bytes=90-', 100), { start: 90, end: 99 });
  assert.deepEqual(parseRange('bytes=-10', 100), { start: 90, end: 99 });
  assert.deepEqual(parseRange('bytes=-500', 100), { start: 0, end: 99 });
  assert.deepEqual(parseRange('bytes=50-500', 100), { start: 50, end: 99 });
  assert.equal(parseRange('bytes=100-', 100), 'unsatisfiable');
  assert.equal(parseRange('bytes=-0', 100), 'unsatisfiable');
  assert.equal(parseRange('bytes=0-1,5-6', 100), null);  // several ranges: the whole file
  assert.equal(parseRange('bytes=9-1', 100), null);
  assert.equal(parseRange('items=0-1', 100), null);
  assert.equal(parseRange(undefined, 100), null);
});

test('compressible: text, wasm, safetensors and the int8 vectors; not PNG nor unknown types', () => {
  for (const name of ['a.js', 'a.mjs', 'a.css', 'a.html', 'a.json', 'a.js.map', 'a.wasm', 'a.safetensors', 'a.i8', 'a.d.mts', 'a.svg', 'a.txt']) assert.ok(compressible(name), name);
  for (const name of ['a.png', 'a.woff2', 'a.bin', 'a']) assert.ok(!compressible(name), name);
});

test('a text file is sent as brotli, gzip or as is, by Accept-Encoding, with Vary', async () => {
  const br = await get('/app.js', { 'accept-encoding': 'gzip, deflate, br' });
  assert.equal(br.status, 200);
  assert.equal(br.headers['content-encoding'], 'br');
  assert.equal(br.headers.vary, 'Accept-Encoding');
  assert.equal(br.headers['content-type'], 'text/javascript; charset=utf-8');
  assert.equal(Number(br.headers['content-length']), br.body.length);
  assert.ok(br.body.length < SCRIPT.length / 4, `${br.body.length} of ${SCRIPT.length}`);
  assert.deepEqual(brotliDecompressSync(br.body), SCRIPT);

  const gz = await get('/app.js', { 'accept-encoding': 'gzip' });
  assert.equal(gz.headers['content-encoding'], 'gzip');
  assert.deepEqual(gunzipSync(gz.body), SCRIPT);
  assert.notEqual(gz.headers.etag, br.headers.etag, 'each representation has its own strong ETag');

  const plain = await get('/app.js');
  assert.equal(plain.headers['content-encoding'], undefined);
  assert.equal(plain.headers.vary, 'Accept-Encoding');
  assert.deepEqual(plain.body, SCRIPT);

  // A second request gets the same bytes (from the cache of compressed bodies).
  const again = await get('/app.js', { 'accept-encoding': 'br' });
  assert.deepEqual(again.body, br.body);
});

test('a PNG is never compressed and names no Vary; HEAD sends headers only', async () => {
  const png = await get('/noise.png', { 'accept-encoding': 'gzip, br' });
  assert.equal(png.status, 200);
  assert.equal(png.headers['content-encoding'], undefined);
  assert.equal(png.headers.vary, undefined);
  assert.deepEqual(png.body, NOISE);
  const head = await get('/app.js', { 'accept-encoding': 'gzip' }, 'HEAD');
  assert.equal(head.status, 200);
  assert.equal(head.body.length, 0);
  assert.ok(Number(head.headers['content-length']) > 0);
  assert.equal((await get('/app.js', {}, 'POST')).status, 405);
});

test('a reload revalidates: 304 on a matching ETag or date, 200 once the file changes', async () => {
  const first = await get('/app.js', { 'accept-encoding': 'gzip' });
  assert.equal(first.headers['cache-control'], 'no-cache');
  assert.ok(first.headers.etag && first.headers['last-modified']);
  const byTag = await get('/app.js', { 'accept-encoding': 'gzip', 'if-none-match': first.headers.etag });
  assert.equal(byTag.status, 304);
  assert.equal(byTag.body.length, 0);
  assert.equal(byTag.headers.etag, first.headers.etag);
  assert.equal(byTag.headers.vary, 'Accept-Encoding');
  // The same version asked for in another encoding is still not modified.
  assert.equal((await get('/app.js', { 'accept-encoding': 'br', 'if-none-match': first.headers.etag })).status, 304);
  assert.equal((await get('/app.js', { 'if-none-match': '"0-0", W/' + first.headers.etag })).status, 304);
  assert.equal((await get('/app.js', { 'if-modified-since': first.headers['last-modified'] })).status, 304);
  assert.equal((await get('/app.js', { 'if-none-match': '"other"' })).status, 200);

  // A rebuilt file (new bytes, a later time) is sent whole, and compressed anew.
  const changed = Buffer.concat([SCRIPT, Buffer.from('export const more = 1;\n')]);
  await writeFile(join(dir, 'app.js'), changed);
  const later = new Date(Date.now() + 5000);
  await utimes(join(dir, 'app.js'), later, later);
  const fresh = await get('/app.js', { 'accept-encoding': 'gzip', 'if-none-match': first.headers.etag, 'if-modified-since': first.headers['last-modified'] });
  assert.equal(fresh.status, 200);
  assert.notEqual(fresh.headers.etag, first.headers.etag);
  assert.deepEqual(gunzipSync(fresh.body), changed);
  assert.equal((await get('/app.js', { 'if-modified-since': first.headers['last-modified'] })).status, 200);
});

test('Range requests get 206 from the uncompressed bytes; 416 past the end; If-Range', async () => {
  const path = '/sub/model.safetensors';
  const whole = await get(path, { 'accept-encoding': 'identity' });
  assert.equal(whole.headers['accept-ranges'], 'bytes');
  const part = await get(path, { range: 'bytes=100-199', 'accept-encoding': 'gzip, br' });
  assert.equal(part.status, 206);
  assert.equal(part.headers['content-encoding'], undefined);
  assert.equal(part.headers['content-range'], `bytes 100-199/${NOISE.length}`);
  assert.equal(Number(part.headers['content-length']), 100);
  assert.deepEqual(part.body, NOISE.subarray(100, 200));
  const tail = await get(path, { range: 'bytes=-8' });
  assert.deepEqual(tail.body, NOISE.subarray(NOISE.length - 8));
  const past = await get(path, { range: `bytes=${NOISE.length}-` });
  assert.equal(past.status, 416);
  assert.equal(past.headers['content-range'], `bytes */${NOISE.length}`);
  // If-Range names this version: the range applies; an old version's tag: the whole file.
  assert.equal((await get(path, { range: 'bytes=0-3', 'if-range': whole.headers.etag })).status, 206);
  const stale = await get(path, { range: 'bytes=0-3', 'if-range': '"0-0"' });
  assert.equal(stale.status, 200);
  assert.deepEqual(stale.body, NOISE);
  // Several ranges at once: the whole file (allowed, and simpler for every client).
  assert.equal((await get(path, { range: 'bytes=0-1,4-5' })).status, 200);
});

test('a folder serves its index.html; a missing file is 404; nothing outside the folder is served', async () => {
  const index = await get('/');
  assert.equal(index.status, 200);
  assert.match(index.body.toString(), /<title>t<\/title>/);
  assert.equal((await get('/sub')).status, 404, 'a folder without index.html');
  assert.equal((await get('/missing.js')).status, 404);
  for (const path of ['/../posenc-serve-secret.txt', '/..%2fposenc-serve-secret.txt', '/%2e%2e/posenc-serve-secret.txt',
    '/sub/..%2f..%2fposenc-serve-secret.txt', '/%00', '/%E0%A4%A']) {
    const res = await get(path);
    assert.equal(res.status, 404, path);
    assert.doesNotMatch(res.body.toString(), /secret/, path);
  }
});

test('precompress compresses every compressible file in each encoding before listening, and serving then compresses nothing', async () => {
  assert.ok(server.compressions() > 0, 'the tests above made the server without precompress compress');
  const ahead = await serve(dir, 0, { precompress: true });
  try {
    const decode = { br: brotliDecompressSync, gzip: gunzipSync };
    for (const path of ['index.html', 'app.js', 'sub/model.safetensors']) {
      for (const encoding of ['br', 'gzip']) {
        const got = await get(`/${path}`, { 'accept-encoding': encoding }, 'GET', ahead.address().port);
        assert.equal(got.headers['content-encoding'], encoding, path);
        assert.deepEqual(decode[encoding](got.body), await readFile(join(dir, path)), `${path} as it is now (a test above changed app.js)`);
      }
    }
    assert.equal(ahead.compressions(), 0, 'every body was compressed before the server listened');
  } finally {
    await new Promise((done) => ahead.close(done));
  }
});
