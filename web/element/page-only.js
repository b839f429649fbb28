// What the page's lab worker and client hold that the element never asks for: the shipped models
// (the element's heads are W = I), the summary's sentences and numbers (the element shows no
// summary) and the selected token's nearest words. scripts/bundle-element.mjs puts this module in
// place of web/pipeline/model-client.js, model-host.js, lab-summaries.js, statistics.js,
// measures/neighbors.js and lab-worker-url.js (the page's worker) where the lab's client, worker, session and measures import them, so
// neither the element's script nor its worker carries them.

/** No models: no message is a model message; a load is refused, naming why. */
export function createModelClient() {
  return {
    load: () => Promise.reject(new Error('the <posenc-lab> element loads no shipped models')),
    receive: () => false,
    fail() {},
  };
}

/** No models in the element's worker: no message is a model message, no lane has passes, and nothing is scored ahead. */
export function createModelHost() {
  return { handle: () => false, passes: () => ({ passes: [], transfer: [] }), scoreAhead: async () => {} };
}

/** No summary sentences: the element shows none. */
export const pendingSummaries = () => null;
export const analysisSummaries = () => null;

/** The element always passes its own worker (web/element/client-worker.js). */
export function defaultWorkerUrl() {
  throw new Error('the <posenc-lab> element starts its own lab worker');
}

/** No mean-norm ratio: the element shows no summary. */
export const meanNormRatio = () => null;

/** The retrieval's decoder cache is shared with the nearest words, which the element never shows. */
export { createDecoderCache } from '../pipeline/measures/neighbors.js';
export const neighborsMeasure = () => null;
