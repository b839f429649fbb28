// How posenc-lab.mjs runs its lab (scripts/bundle-element.mjs picks this file or client-local.js
// per build): in the lab worker, posenc-lab-worker.mjs beside the script, named statically so
// bundlers copy it as an asset. A script from another origin cannot start a worker from its own
// URL (workers are same-origin): there a module worker made from a blob: URL imports it, which
// needs CORS on the file and the page's CSP to allow blob: workers (worker-src).
import { createLabClient } from '../pipeline/lab-client.js';

/** The lab client (web/pipeline/lab-client.js) over a new worker. */
export function createElementClient() {
  const url = new URL('./posenc-lab-worker.mjs', import.meta.url);
  if (url.origin === location.origin) return createLabClient({ worker: new Worker(url, { type: 'module' }) });
  const stub = new Blob([`import ${JSON.stringify(url.href)};`], { type: 'text/javascript' });
  return createLabClient({ worker: new Worker(URL.createObjectURL(stub), { type: 'module' }) });
}
