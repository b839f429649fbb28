// Loss by position as lines to draw: per-position values (a model's held-out loss at each
// position of a window) averaged over rows and over bins of neighbouring positions. Shared by the
// results' report for the page (web/results/report.js) and the Train section (web/train/figures.js); no DOM.

/** Positions averaged in bins of this many (one position alone is too noisy to read a trend from). */
export const POSITION_BIN = 8;

/**
 * Rows of per-position values (equal lengths n) as one line: { x: the bins' first positions,
 * y: the mean over the rows and over each `bin` consecutive positions } (⌈n/bin⌉ points each).
 */
export function binPositions(rows, bin = POSITION_BIN) {
  const n = rows[0].length;
  const y = new Float64Array(Math.ceil(n / bin));
  const per = new Float64Array(y.length);
  for (const row of rows) row.forEach((v, p) => { y[Math.floor(p / bin)] += v; per[Math.floor(p / bin)] += 1; });
  return { x: Array.from(y, (_, i) => i * bin), y: Array.from(y, (v, i) => v / per[i]) };
}
