// How much of the analyses after a typing pause, or of a trained model's pass over a pasted text,
// one of the lab worker's tasks does. The worker runs one task at a time, so a key pressed
// meanwhile waits for the task under way: the bounds here are that wait. Smaller bounds make more
// tasks of the same work (each core call has a fixed cost too); `node bench/analysis-slices.mjs`
// times the analyses' slices, on a first visit and warm, and `node bench/paste.mjs` a paste.

/**
 * Attention cells (n² per head, at least one head counted) one compare of the analyses may form:
 * about one 512-token scheme's with no random heads, so that a task never holds a keystroke long.
 */
const CELLS_PER_COMPARE = 1 << 18;

/** How many schemes one compare takes at n tokens and `heads` random heads (at least one). */
export function schemesPerCompare(n, heads) {
  return Math.max(1, Math.floor(CELLS_PER_COMPARE / (n * n * Math.max(1, heads))));
}

/** Queries one decode call ranks against the whole vocabulary (the retrieval analysis). */
export const DECODE_CHUNK = 32;

/**
 * Positions added per call of the cached identity decode of a new text (the retrieval analysis),
 * after the first token alone: a text's first decode is a slice per IDENTITY_CHUNK positions.
 */
export const IDENTITY_CHUNK = 16;

/**
 * Rows a trained model's pass adds in one task. A keystroke's own pass adds one row, or a few;
 * a lane whose pass would add more (a paste) is left out of the keystroke's answer, and its own
 * request adds them PASS_ROWS rows a task (web/pipeline/model-host.js).
 */
export const PASS_ROWS = 32;
