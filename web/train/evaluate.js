// A run's evaluations, shared by the Train section's workers (web/train/worker.js) and the
// element's live Train panel (web/element/train-live.js): the held-out loss at the training length,
// the length-generalisation curves (rotary: also with each RoPE scaling at the core's s = L′/L) and the
// held-out loss by position inside the longest windows. scripts/experiments.mjs spreads its
// windows with windowStarts too. No import of the JS API: the element's live trainer, a file of
// its own (posenc-train-live.mjs), bundles this module without one.
import { ROPE_SCALING, SCHEME_TABLE } from '../scheme-table.mjs';
import { EVAL_BATCHES as EVAL, POSITION_WINDOWS } from './config.js';

// The core's scalings (generated into scheme-table.mjs) other than none.
const ROPE_SCALINGS = SCHEME_TABLE.ropeScalings.filter((type) => type !== ROPE_SCALING.none);

/** { loss, accuracy } over the held-out batches at length T. */
export function heldoutAt(model, task, T) {
  return model.evaluate(task, { lengths: [T], ...EVAL })[0];
}

/** { none: [{ loss, accuracy } per multiple], pi, ntk, yarn (rotary only) } at lengths k·T. */
export function lengthCurves(model, task, T, multiples) {
  const all = multiples.map((k) => k * T);
  const curves = { none: model.evaluate(task, { lengths: all, ...EVAL }) };
  if (model.config.scheme === 'rotary') {
    for (const type of ROPE_SCALINGS) {
      curves[type] = all.map((length) =>
        model.evaluate(task, { lengths: [length], ...EVAL, ropeScaling: { type } })[0]);
    }
  }
  return curves;
}

/**
 * The held-out ids of a text task made from `text`: the last ⌊n·percent/100⌋ of its n characters
 * (the core's split, model/tasks.cpp; percent: the task's heldOutPercent), one id per character.
 */
export function heldOutIds(task, text, percent) {
  const chars = Array.from(text);
  return task.encode(chars.slice(chars.length - Math.floor((chars.length * percent) / 100)).join(''));
}

/**
 * Starts of `count` windows of span + 1 ids spread evenly over ids [from, to): the first at
 * `from`, the last ending at `to` (one window: at `from`); null when one window does not fit.
 */
export function windowStarts(from, to, span, count) {
  const room = to - from - span - 1;
  if (room < 0) return null;
  return Array.from({ length: count }, (_, w) => from + Math.floor((w * room) / Math.max(1, count - 1)));
}

/**
 * Held-out loss by position: Float64Array(span), entry p the mean over `windows` windows of `ids`
 * (windowStarts) of −ln p(id p + 1 | ids 0 … p); null when the ids hold no window of span + 1 or
 * the model cannot run that long (a learned table past its context). One model pass per window.
 */
export function positionLosses(model, ids, span, windows = POSITION_WINDOWS) {
  const starts = windowStarts(0, ids.length, span, windows);
  if (!starts || (model.config.scheme === 'learned' && span > model.config.context)) return null;
  const sum = new Float64Array(span);
  for (const start of starts) {
    const losses = model.tokenLosses(ids.subarray(start, start + span + 1), span + 1);
    for (let p = 0; p < span; p++) sum[p] += losses[p];
  }
  for (let p = 0; p < span; p++) sum[p] /= starts.length;
  return sum;
}
