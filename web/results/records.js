// The results store's vocabulary (data/experiments/<table>.json, written by scripts/experiments.mjs):
// one home for the order its schemes are listed in, the multiples of T every record is evaluated
// at, and the variant name of a plain run. Read by the scripts that write and summarise records
// (scripts/experiment-tables.mjs, experiments-docs.mjs, model-results.mjs) and by the results'
// report the page's panel shows (web/results/report.js); no DOM.

/** The trainable schemes in the results' order: no position, absolute, then relative. */
export const RESULT_SCHEMES = Object.freeze(['nope', 'additive', 'learned', 'concatenated', 'rotary', 'alibi', 't5']);
/** Every record holds heldOut at these multiples of T (a learned table: 1 only); byPosition at the last. */
export const RESULT_MULTIPLES = Object.freeze([1, 2, 4, 8]);
/** A record's variant when it is its scheme's plain run (no RoPE extension, no changed setting). */
export const PLAIN = 'none';
