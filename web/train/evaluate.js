// A run's evaluations, shared by the Train section's workers (web/train/worker.js) and the
// element's live Train panel (web/element/train-live.js): the held-out loss at the training length
// and the length-generalisation curves (rotary: also with each RoPE scaling at s = L′/L).
import { ROPE_SCALINGS as SCALINGS } from '../posenc.mjs';
import { EVAL_BATCHES as EVAL } from './config.js';

// The core's scalings (generated into scheme-table.mjs) other than none.
const ROPE_SCALINGS = SCALINGS.filter((type) => type !== 'none');

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
        model.evaluate(task, { lengths: [length], ...EVAL, ropeScaling: { type, factor: Math.max(1, length / T) } })[0]);
    }
  }
  return curves;
}
