// The page's link (its URL's hash) follows the state, written once changes pause and only when it
// changes: Chromium makes history.replaceState cost milliseconds of the page's thread (and re-read
// the favicon). 150 ms after a control, 1 s after typing (keys often come 150–200 ms apart, and
// each write would land between two of them); leaving the page writes it at once. A link without
// a hash says the defaults, so it is left bare while they are shown: writing the sentence into it
// at load blocked the page's thread for 25–35 ms (2.1 GHz EPYC, Chromium 156).
import { DEFAULTS, writeHash } from '../pipeline/state.js';
import { createDelay } from '../pipeline/tasks.js';

const DELAY_MS = 150;
const DELAY_TYPING_MS = 1000;
const DEFAULT_LINK = writeHash(DEFAULTS);

/** state(): the page's state. → { schedule(typed) }: the link is written once changes pause. */
export function createLinkWriter(state) {
  function write() {
    delay.cancel();
    // The Train section's keys ("t.…", web/train/config.js) ride along unchanged.
    const params = new URLSearchParams(writeHash(state()).slice(1));
    for (const [key, value] of new URLSearchParams(location.hash.slice(1))) if (key.startsWith('t.')) params.set(key, value);
    const hash = params.toString();
    if ((hash ? `#${hash}` : '') === location.hash) return; // unchanged: replaceState would still cost its milliseconds
    if (!location.hash && `#${hash}` === DEFAULT_LINK) return;
    history.replaceState(null, '', hash ? `#${hash}` : location.pathname + location.search);
  }
  const delay = createDelay(write);
  addEventListener('pagehide', () => { if (delay.pending) write(); });
  return { schedule: (typed = false) => delay.after(typed ? DELAY_TYPING_MS : DELAY_MS) };
}
