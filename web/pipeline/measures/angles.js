// Rotation angles per frequency for the RoPE variants: for each pair i, the largest angle the
// evaluation length reaches (L'·ω'_i, the variant's own ω') against the range plain RoPE swept in
// training (L·ω_i). Plain data out, so a worker can run it.
import { FAMILY, ROPE_SCALING, SCHEME_TABLE } from '../../scheme-table.mjs';
import { angleReach } from '../angle-flags.js';

// The variants' names by their RoPE scaling (the core's table gives each rotation scheme one).
const SCALING_NAMES = {
  [ROPE_SCALING.none]: { name: 'plain RoPE (and xPos)', short: 'plain RoPE' },
  [ROPE_SCALING.pi]: { name: 'position interpolation', short: 'PI' },
  [ROPE_SCALING.ntk]: { name: 'NTK-aware', short: 'NTK-aware' },
  [ROPE_SCALING.yarn]: { name: 'YaRN', short: 'YaRN' },
};

/** Plain RoPE (the first rotation scheme without rescaling), then each rescaling scheme: [{ id, scaling, name, short }]. */
export function ropeVariants() {
  const rotations = SCHEME_TABLE.schemes.filter((s) => s.family === FAMILY.rotation);
  const plain = rotations.find((s) => s.ropeScaling === ROPE_SCALING.none);
  return [plain, ...rotations.filter((s) => s.ropeScaling !== ROPE_SCALING.none)]
    .map((s) => ({ id: s.name, scaling: s.ropeScaling, ...SCALING_NAMES[s.ropeScaling] }));
}

/**
 * args: { dHead (the rotated width: d with W = I, d/h with h heads), base, trainedLength,
 * evalLength, yarnAlpha, yarnBeta }.
 * → { pairs (dHead/2), s (the core's max(1, L′/L)), trainedLength, evalLength, results: one per
 *     ropeVariants() entry, plain RoPE first: { id, scaling, name, short, ...angleReach(…) }
 *     (trained, reached: Float64Array[pairs]; turned, flagged: Uint8Array[pairs]; count) }.
 */
export function anglesMeasure(lab, { dHead, base, trainedLength, evalLength, yarnAlpha, yarnBeta }) {
  const ask = (scaling) => lab.ropeFrequencies(dHead, { base, scaling, trainedLength, evalLength, alpha: yarnAlpha, beta: yarnBeta });
  const plain = ask('none');
  const results = ropeVariants().map((variant) => ({
    ...variant, ...angleReach(plain.frequencies, ask(variant.scaling).frequencies, trainedLength, evalLength),
  }));
  return { pairs: dHead / 2, s: plain.scale, trainedLength, evalLength, results };
}

/** anglesMeasure's args for the page's state and settings: RoPE rotates each head's d_head = d/h coordinates (d with W = I). */
export function anglesArgs(state, settings) {
  const dHead = settings.heads ? settings.d / settings.heads : settings.d;
  return { dHead, base: state.base, trainedLength: state.trainedLength, evalLength: state.evalLength,
    yarnAlpha: settings.yarnAlpha, yarnBeta: settings.yarnBeta };
}
