// A slow link in front of a local server, for first-load measurements: a TCP proxy on loopback
// whose downstream is one shared pipe of `downloadMbit`, each piece delivered `latencyMs` after it
// left the server at the earliest. Unlike DevTools' network emulation, which throttles only the
// page's own requests, it slows every request the browser makes — a module worker's fetches of the
// wasm cores, the word vectors and the models too — as a real link does.
//
// throttledLink(port, { downloadMbit, latencyMs }) → Promise<{ port, deliveries, requests, close() }>;
// deliveries: [{ at (performance.now() when delivered), bytes, path (the request it answers),
// request (that request's index in requests) }],
// bytes as they went over the wire (compressed where the server compressed them); requests:
// [{ at (when the request line reached the link), path, range (its Range header, or null) }].
import { createServer, connect } from 'node:net';
import { performance } from 'node:perf_hooks';

const PIECE = 16 * 1024;

export function throttledLink(port, { downloadMbit, latencyMs }) {
  const bytesPerMs = (downloadMbit * 1e6) / 8 / 1000;
  const deliveries = [];
  const requests = [];
  const sockets = new Set();
  let linkFreeAt = 0; // when the shared pipe has sent everything queued so far

  // The piece leaves after the latency and once the pieces before it (any connection) have gone.
  function send(client, piece, path, request) {
    const now = performance.now();
    linkFreeAt = Math.max(now + latencyMs, linkFreeAt) + piece.length / bytesPerMs;
    setTimeout(() => {
      if (client.destroyed) return;
      client.write(piece);
      deliveries.push({ at: performance.now(), bytes: piece.length, path, request });
    }, linkFreeAt - now);
  }

  const server = createServer((client) => {
    const upstream = connect(port, '127.0.0.1');
    sockets.add(client).add(upstream);
    let path = ''; // the last request line's path on this connection: HTTP/1.1 answers in order
    let request = -1; // and its index in requests
    client.on('data', (data) => {
      const text = data.toString('latin1');
      const line = /^(?:GET|HEAD|POST) (\S+) HTTP/m.exec(text);
      if (line) {
        path = line[1];
        request = requests.push({ at: performance.now(), path, range: /^range: *(\S+)/im.exec(text)?.[1] ?? null }) - 1;
      }
      upstream.write(data);
    });
    upstream.on('data', (data) => {
      for (let at = 0; at < data.length; at += PIECE) send(client, data.subarray(at, at + PIECE), path, request);
    });
    const end = () => { client.destroy(); upstream.destroy(); sockets.delete(client); sockets.delete(upstream); };
    client.on('close', end).on('error', end);
    upstream.on('close', () => setTimeout(end, Math.max(0, linkFreeAt - performance.now()) + 1)).on('error', end);
  });
  return new Promise((ready, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => ready({
      port: server.address().port,
      deliveries,
      requests,
      close: () => new Promise((done) => { for (const s of sockets) s.destroy(); server.close(done); }),
    }));
  });
}
