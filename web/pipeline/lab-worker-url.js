// Where the page's lab worker is: web/pipeline/lab-worker.js, beside this file. A module of its own
// so that bundles which bring their own worker (the <posenc-lab> element's, scripts/bundle-element.mjs)
// leave this URL out: a bundler given it would look for a lab-worker.js beside them.
export const defaultWorkerUrl = () => new URL('./lab-worker.js', import.meta.url);
