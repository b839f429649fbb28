// Node driver: loads the two bench modules from build-bench/wasm/ and writes the suite's results
// (with TF.js as the peer of the training step).
//   node bench/node-run.mjs OUT.json [kernel-filter-regexp]
import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { PEAK_KERNELS, bestRoofline, measureRoofline, rooflineVariant } from './roofline.mjs';
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
// The SIMD128 peak this engine attains (bench/roofline.mjs), in CPU time as the kernels are:
// measured alone before and after the suite, and its best shape timed inside the suite beside
// the kernels reported against it.
const roofline = () => measureRoofline({
  elapsedMs: (fn) => {
    const c0 = cpuMicros();
    fn();
    return (cpuMicros() - c0) / 1000;
  },
});
const rooflineBefore = await roofline();
const interleaved = await rooflineVariant(rooflineBefore);
// The training step's peers: TF.js on its wasm and its cpu backend, one thread, same batch.
const peers = async (kernel) => [
  ...(kernel === 'train' ? await (await import('./tfjs-train.mjs')).stepFunctions() : []),
  ...(PEAK_KERNELS.includes(kernel) ? [interleaved.variant] : []),
];
const results = await runSuite({
  cores, glove, cpuMicros, peers, filter: (k, n, d) => regexp.test(`${k}/${n}/${d}`),
  log: (line) => process.stderr.write(`node: ${line}\n`),
});
const peak = { ...bestRoofline(rooflineBefore, await roofline()), callFlops: interleaved.callFlops };
if (!interleaved.finite()) throw new Error('roofline kernel: its accumulators overflowed');
process.stderr.write(`node: roofline ${peak.gflops.toFixed(1)} GFLOP/s (${peak.kind}, ${peak.chains} chains; runs ${peak.runs.map((g) => g.toFixed(1)).join(', ')})\n`);
// The CPU as the kernel states it: model name and clock (os.cpus() reads 0 MHz where the VM
// exposes no cpufreq, so /proc/cpuinfo's "cpu MHz" first).
const cpuinfo = (() => {
  try {
    return readFileSync('/proc/cpuinfo', 'utf8');
  } catch {
    return '';
  }
})();
const cpu = {
  model: /^model name\s*:\s*(.*)$/m.exec(cpuinfo)?.[1] ?? cpus()[0]?.model ?? null,
  mhz: Number(/^cpu MHz\s*:\s*(.*)$/m.exec(cpuinfo)?.[1]) || cpus()[0]?.speed || null,
};
await writeFile(out, JSON.stringify({ runtime: `Node ${process.versions.node} (V8 ${process.versions.v8})`, cpu, roofline: peak, results }, null, 1));
