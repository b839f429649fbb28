// Parts of the page that its first screen does not need (the Train section) are built when the
// reader comes near them, or once the page is idle after its first view, whichever is first: their
// modules and their DOM stay out of the load's main-thread tasks, and are ready before a reader
// who scrolls gets there. What a folded box holds (the vector picker) is built when it first opens.

// A screen's height ahead of the view: building starts before the part scrolls in.
const NEAR_MARGIN = '100% 0px';
// The longest wait for an idle moment once the page is ready (ms); a page kept busy builds then.
const IDLE_TIMEOUT_MS = 3000;

const whenIdle = (run) => (typeof globalThis.requestIdleCallback === 'function'
  ? requestIdleCallback(run, { timeout: IDLE_TIMEOUT_MS })
  : setTimeout(run, 0));

/**
 * Calls build() once: when `element` comes within a screen of the view, or at the first idle
 * moment after `ready` (a promise: the page's first view painted) settles.
 */
export function buildWhenNear(element, build, ready) {
  let built = false;
  const near = new IntersectionObserver((entries) => {
    if (entries.some((entry) => entry.isIntersecting)) run();
  }, { rootMargin: NEAR_MARGIN });
  function run() {
    if (built) return;
    built = true;
    near.disconnect();
    build();
  }
  near.observe(element);
  ready.finally(() => whenIdle(run));
}

/** Calls build() once, the first time `details` (a folded <details>) opens; at once if it is open. */
export function buildWhenOpened(details, build) {
  if (details.open) {
    build();
    return;
  }
  details.addEventListener('toggle', function opened() {
    if (!details.open) return;
    details.removeEventListener('toggle', opened);
    build();
  });
}

/** Resolves in a later task once the document has been parsed (DOMContentLoaded has fired). */
export function documentParsed() {
  if (document.readyState !== 'loading') return new Promise((resolve) => setTimeout(resolve, 0));
  return new Promise((resolve) => addEventListener('DOMContentLoaded', () => setTimeout(resolve, 0), { once: true }));
}
