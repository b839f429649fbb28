// The <posenc-lab> element's worker (bundled alone into posenc-lab-worker.mjs): the page's lab
// worker (web/pipeline/lab-worker.js, one session per element) over the cores inside this bundle.
// Module order matters: the core loader is installed before the worker's lab starts loading.
import './embedded-core.js';
import '../pipeline/lab-worker.js';
