// The page's lab client (web/pipeline/lab-client.js), made by the page's first module script
// (index.html), so that its worker fetches its code and the wasm core while the rest of the page's
// code is still on the way; web/page/app.js imports it.
import { createLabClient } from '../pipeline/lab-client.js';

export const client = createLabClient();
