// Parts of the page that its first screen does not need (the Train section) are built when the
// reader comes near them; their modules are fetched once the page is idle after its first view, so
// they are ready before a reader who scrolls gets there. Neither stays in the load's main-thread
// tasks, and a reader who never goes there never pays for the part's style and layout. What a
// folded box holds (the vector picker) is built when it first opens.

// A screen's height ahead of the view: building starts before the part scrolls in.
const NEAR_MARGIN = '100% 0px';
// The longest wait for an idle moment once the page is ready (ms); a page kept busy loads then.
const IDLE_TIMEOUT_MS = 3000;

const whenIdle = (run) => (typeof globalThis.requestIdleCallback === 'function'
  ? requestIdleCallback(run, { timeout: IDLE_TIMEOUT_MS })
  : setTimeout(run, 0));

/**
 * load(): a promise of what building needs (the part's modules), asked for once, at the first idle
 * moment after `ready` (a promise: the page's first view painted) settles, or when `element` comes
 * within a screen of the view if that is sooner. build(loading): called once, when `element` comes
 * near, with load's promise; a failure to load is build's to report.
 */
export function buildWhenNear(element, { load, build }, ready) {
  let loading = null;
  const loadOnce = () => (loading ??= load());
  const near = new IntersectionObserver((entries) => {
    if (!entries.some((entry) => entry.isIntersecting)) return;
    near.disconnect();
    build(loadOnce());
  }, { rootMargin: NEAR_MARGIN });
  near.observe(element);
  ready.finally(() => whenIdle(() => loadOnce().catch(() => {})));
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
