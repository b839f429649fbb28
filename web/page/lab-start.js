// The page's lab client (web/pipeline/lab-client.js), made by the page's first module script
// (index.html), so that its worker fetches its code and the wasm core while the rest of the page's
// code is still on the way; web/page/app.js imports it. The page always switches to GloVe once it
// is in, so it is asked for here too: the worker fetches it right after its core's files.
import { createLabClient } from '../pipeline/lab-client.js';

export const client = createLabClient();
/**
 * The worker's answer to the page's GloVe request: { label }, or a rejection that app.js shows.
 * Not warmed up (warm: false): app.js's loadGlove says when those costs are paid.
 */
export const gloveLoaded = client.glove(undefined, { warm: false });
gloveLoaded.catch(() => {}); // reported where app.js awaits it
