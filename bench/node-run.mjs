// Node driver: loads the two bench modules from build-bench/wasm/ and writes the suite's results
// (with TF.js as the peer of the training step).
//   node bench/node-run.mjs OUT.json [kernel-filter-regexp]
import { readFile, writeFile } from 'node:fs/promises';
import { runSuite } from './wasm-harness.mjs';

const [out = 'build-bench/node.json', pattern = ''] = process.argv.slice(2);
const dir = new URL('../build-bench/wasm/', import.meta.url);
const cores = {};
for (const flavour of ['simd', 'scalar']) {
  const { default: create } = await import(new URL(`bench-${flavour}.mjs`, dir));
  cores[flavour] = await create({ wasmBinary: await readFile(new URL(`bench-${flavour}.wasm`, dir)) });
}
const glove = new Uint8Array(await readFile(new URL('../data/glove-6b-100d-20k.i8', import.meta.url)));
const regexp = new RegExp(pattern);
const cpuMicros = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};
// The training step's peers: TF.js on its wasm and its cpu backend, one thread, same batch.
const peers = async (kernel) => (kernel === 'train' ? (await import('./tfjs-train.mjs')).stepFunctions() : []);
const results = await runSuite({
  cores, glove, cpuMicros, peers, filter: (k, n, d) => regexp.test(`${k}/${n}/${d}`),
  log: (line) => process.stderr.write(`node: ${line}\n`),
});
await writeFile(out, JSON.stringify({ runtime: `Node ${process.versions.node} (V8 ${process.versions.v8})`, results }, null, 1));
