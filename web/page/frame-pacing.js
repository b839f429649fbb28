// At most one recompute per animation frame for the controls, and one in flight for typing. A
// control's change asks for the next frame's recompute. A keystroke's goes at once, inside its
// event, so that its view can be painted as soon as it arrives; keys that come while it is in
// flight wait for it, and the newest text is sent once it has settled. Typing asks for no frame
// of its own: a frame asked for at the key would begin at once, before the view could arrive,
// and the view's own frame would then wait for the next vsync.

/**
 * run({ typed }) sends one recompute of the current state, → a promise of its paint (settled once
 * painted, dropped or failed); ready() says whether one can be sent yet (the lab has started).
 * → { request(), typed(), now() }: request() for a control's change; typed() for a keystroke,
 * → run's promise, or null when the change waits (for the frame, the compute in flight or the
 * lab); now() sends at once, → run's promise.
 */
export function createFramePacing({ run, ready }) {
  let frameRequested = false;
  let inFlight = null; // the typed recompute not yet settled
  let stale = false; // the state changed since the last recompute was sent
  const send = (typed) => {
    stale = false;
    return run({ typed });
  };
  const sendTyped = () => {
    const painted = send(true);
    inFlight = painted;
    const settled = () => {
      if (inFlight !== painted) return;
      inFlight = null;
      if (stale && !frameRequested) sendTyped();
    };
    painted.then(settled, settled);
    return painted;
  };
  return {
    request() {
      stale = true;
      if (frameRequested || !ready()) return;
      frameRequested = true;
      requestAnimationFrame(() => {
        frameRequested = false;
        if (stale) send(false);
      });
    },
    typed() {
      if (!ready()) return null;
      if (frameRequested || inFlight) {
        stale = true;
        return null;
      }
      return sendTyped();
    },
    now: () => send(false),
  };
}
