// The rules the page and the element both show, in one place: which schemes' position values are
// seeded stand-ins (from the core's scheme table), the words that say so, the engine's name, and
// how many random heads the shift panel compares with W = I. tests/js/shared-rules.test.mjs checks
// that the page and the element take these from here and spell none of them themselves.
import { SCHEME_TABLE } from '../scheme-table.mjs';

/** The schemes whose position values are seeded, not trained (the table's `seeded` column). */
export const SEEDED_SCHEMES = Object.freeze(SCHEME_TABLE.schemes.filter((s) => s.seeded).map((s) => s.name));

/** The words shown beside a seeded scheme's name. */
export const SEEDED_NOTE = 'seeded, not trained';

/** scheme → whether its position values are seeded stand-ins. */
export const isSeeded = (scheme) => SEEDED_SCHEMES.includes(scheme);

/** The core that computes: 'wasm SIMD' or 'scalar wasm'. */
export const engineLabel = (simd) => (simd ? 'wasm SIMD' : 'scalar wasm');

/** Random heads are compared with W = I only up to this many (more need more tokens than n + k allows). */
export const MAX_COMPARED_RANDOM_HEADS = 4;

/**
 * The random-head count the shift panel shows beside W = I: the settings' own heads, or with
 * W = I (heads 0) the largest head choice up to MAX_COMPARED_RANDOM_HEADS (0 when none is).
 */
export function comparedRandomHeads(heads, headChoices) {
  if (heads) return heads;
  const allowed = headChoices.filter((h) => h > 0 && h <= MAX_COMPARED_RANDOM_HEADS);
  return allowed.length ? Math.max(...allowed) : 0;
}
