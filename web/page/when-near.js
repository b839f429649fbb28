// Parts of the page that its first screen does not need (the Train section) are built when the
// reader comes near them (or starts moving by keyboard); their modules are fetched once the page is
// idle after its first view, so they are ready before a reader who scrolls gets there. Neither
// stays in the load's main-thread tasks, and a reader who never goes there never pays for the
// part's style and layout. What a folded box holds (the vector picker) is built when it first opens.

// A screen's height ahead of the view: building starts before the part scrolls in.
const NEAR_MARGIN = '100% 0px';
// The longest wait for an idle moment once the page is ready (ms); a page kept busy loads then.
const IDLE_TIMEOUT_MS = 3000;

const whenIdle = (run) => (typeof globalThis.requestIdleCallback === 'function'
  ? requestIdleCallback(run, { timeout: IDLE_TIMEOUT_MS })
  : setTimeout(run, 0));

/**
 * load(): a promise of what building needs (the part's modules), asked for once, at the first idle
 * moment after `ready` (a promise: the page's first view painted) settles, or when building starts
 * if that is sooner. build(loading): called once, with load's promise, when `element` comes within
 * a screen of the view or at the reader's first Tab key, whichever is first: a keyboard reader
 * would otherwise Tab past the part while the scroll that focus makes is still to bring it near.
 * A failure to load is build's to report.
 */
export function buildWhenNear(element, { load, build }, ready) {
  let loading = null;
  let started = false;
  const loadOnce = () => (loading ??= load());
  const start = () => {
    if (started) return; // an observer's report already queued still comes after disconnect()
    started = true;
    near.disconnect();
    removeEventListener('keydown', onTab, true);
    build(loadOnce());
  };
  const near = new IntersectionObserver((entries) => {
    if (entries.some((entry) => entry.isIntersecting)) start();
  }, { rootMargin: NEAR_MARGIN });
  const onTab = (event) => { if (event.key === 'Tab') start(); };
  near.observe(element);
  addEventListener('keydown', onTab, true);
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
