// At most one recompute per animation frame. A control's change asks for the next frame's. A
// keystroke recomputes at once, inside its event, so that the very next frame can paint it
// (waiting for a requestAnimationFrame costs up to a frame more), and then keeps that frame: a
// change that arrives before it waits for it, and the frame's callback sends the newest state.

/**
 * run({ typed }) sends one recompute of the current state, → a promise of its paint; ready()
 * says whether one can be sent yet (the lab has started). → { request(), typed(), now() }:
 * request() for a control's change; typed() for a keystroke, → run's promise, or null when the
 * change waits for the frame (or for the lab); now() sends at once, → run's promise.
 */
export function createFramePacing({ run, ready }) {
  let frameRequested = false;
  let stale = false; // the state changed since the last recompute was sent
  const send = (typed) => {
    stale = false;
    return run({ typed });
  };
  const holdFrame = (typed) => {
    frameRequested = true;
    requestAnimationFrame(() => {
      frameRequested = false;
      if (stale) send(typed);
    });
  };
  return {
    request() {
      stale = true;
      if (!frameRequested && ready()) holdFrame(false);
    },
    typed() {
      if (!ready()) return null;
      if (frameRequested) {
        stale = true;
        return null;
      }
      const painted = send(true);
      holdFrame(true);
      return painted;
    },
    now: () => send(false),
  };
}
