// Long work split into tasks, so that a keystroke arriving in between is handled first.

/**
 * Resolves in a later task, so that the browser may handle input and paint in between: the page's
 * load builds its parts a few at a time after it. scheduler.yield() where the browser has it (the
 * rest of the work keeps its place ahead of other queued tasks), else a zero-delay timer.
 */
export function nextTask() {
  if (typeof globalThis.scheduler?.yield === 'function') return globalThis.scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Resolves in the task after the next animation frame's, that is once the frame that carries the
 * current task's DOM writes has been laid out and painted; after fallbackMs where no frame comes
 * (a hidden page gets none, and Chromium often gives an iframe out of view none). For work in
 * another thread that would share the cores with that frame. The fallback is long because a
 * visible page's frames can be held back for a second: Chromium gives a page whose first frames
 * went undrawn one frame a second (bench/lighthouse.mjs says when), and work let go on a shorter
 * timer would land on the frame that ends the wait, which lays out all that the page built
 * meanwhile.
 */
export function afterNextFrame(fallbackMs = 2000) {
  return new Promise((resolve) => {
    const fallback = setTimeout(resolve, fallbackMs);
    requestAnimationFrame(() => setTimeout(() => {
      clearTimeout(fallback);
      resolve();
    }, 0));
  });
}

/**
 * Runs steps one task at a time. A step is a function; when it returns a generator, the
 * generator is advanced one `yield` per task. Stops as soon as isCurrent() is false (newer input
 * made the work stale) or a step throws (onError). onTask(ms) hears each task's duration.
 * The first task runs now; the rest are queued with setTimeout(…, 0).
 */
export function runInTasks(steps, { isCurrent, onError, onTask = () => {} }) {
  const queue = [...steps];
  let running = null; // the generator of a step in progress
  const next = () => {
    if (!isCurrent()) return;
    const started = performance.now();
    try {
      if (running) {
        if (running.next().done) running = null;
      } else if (queue.length) {
        const out = queue.shift()();
        if (out && typeof out.next === 'function') running = out;
      } else {
        return;
      }
    } catch (error) {
      onError(error);
      return;
    }
    onTask(performance.now() - started);
    setTimeout(next, 0);
  };
  next();
}

/**
 * The generation counter of one view (the page, or one <posenc-lab>): each recompute starts a
 * new generation, and work started under an older one stops at its next task, as does all of it
 * once isAlive() is false (an element that left the document).
 */
export function createGenerations(isAlive = () => true) {
  let current = 0;
  const isCurrent = (mine) => mine === current && isAlive();
  return {
    /** Starts a new generation and returns it. */
    next: () => ++current,
    get current() { return current; },
    isCurrent,
    /** runInTasks(steps) under generation `mine`, its first task after delayMs (default: the next task). */
    runLater(mine, steps, { delayMs = 0, onError, onTask } = {}) {
      return setTimeout(() => runInTasks(steps, { isCurrent: () => isCurrent(mine), onError, onTask }), delayMs);
    },
  };
}

/**
 * run() once changes pause: after(ms) (re)starts the wait, so a burst of calls runs it once, ms
 * after the last; pending says whether a run is waiting (e.g. to run it now when the page hides).
 */
export function createDelay(run) {
  let timer = 0;
  return {
    after(ms) {
      clearTimeout(timer);
      timer = setTimeout(() => { timer = 0; run(); }, ms);
    },
    cancel() {
      clearTimeout(timer);
      timer = 0;
    },
    get pending() { return timer !== 0; },
  };
}
