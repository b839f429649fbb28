// Long work split into tasks, so that a keystroke arriving in between is handled first.

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
