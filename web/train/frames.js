// While training, the frames of each second set the workers' share of the CPU for the next
// (config.js: nextShare): the page keeps its 60 fps, the workers take what is left.
import { nextShare } from './config.js';
import { toTrained } from './runs.js';

const VSYNC_MS = 1000 / 60;

/** Watches the frames while the session plays (once: a second call while watching does nothing). */
export function watchFrames(session) {
  if (session.watching) return;
  session.watching = true;
  let last = 0, frames = 0, missed = 0, since = performance.now();
  const tick = (now) => {
    if (!session.playing) { session.watching = false; return; }
    if (last && !document.hidden) {
      frames++;
      if (now - last > 1.5 * VSYNC_MS) missed++;
    }
    last = now;
    if (now - since >= 1000 && frames) {
      const next = nextShare(session.share, missed / frames);
      if (next !== session.share) {
        session.share = next;
        toTrained(session, { type: 'share', share: next });
      }
      frames = missed = 0;
      since = now;
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}
