// How the schemes are presented, for every layer above this one (prose, figures, panels, page,
// element, Train section): their names, their series colours and curve styles, and ALiBi's slope
// as text. Names and order come from the core's scheme table (via options.mjs), not retyped here.
import { SCHEMES, SCHEME_LABELS } from '../options.mjs';

export { SCHEMES };

/** scheme id → its human-readable name. */
export const SCHEME_NAMES = SCHEME_LABELS;

/** Okabe–Ito colours: distinguishable with every common colour-vision deficiency. */
export const SERIES_COLOURS = {
  additive: '#E69F00',
  concatenated: '#0072B2',
  rotary: '#009E73',
  reference: '#6F6F6F', // reference lines (RoFormer's bound, the T line, 1/√d): a grey no scheme uses
  other: '#56B4E9',
};

// A colour AND a dash per curve, so each reads in greyscale and for colour-blind readers
// (Okabe–Ito's eight, then three of Paul Tol's muted set; all mid-luminance, for light and dark):
// one style per scheme in SCHEMES order (a new scheme adds one at its place).
const SCHEME_STYLES = [
  { colour: SERIES_COLOURS.additive, dash: null }, // solid
  { colour: SERIES_COLOURS.concatenated, dash: [10, 4] },
  { colour: SERIES_COLOURS.rotary, dash: [2, 3] },
  { colour: '#D55E00', dash: [10, 3, 2, 3] },
  { colour: '#CC79A7', dash: [5, 3] },
  { colour: '#999999', dash: [1, 4] },
  { colour: SERIES_COLOURS.other, dash: [12, 3, 2, 3, 2, 3] },
  { colour: '#999933', dash: [6, 2, 1, 2] },
  { colour: '#AA4499', dash: [3, 2] },
  { colour: '#44AA99', dash: [14, 4, 6, 4] },
  { colour: '#CC6677', dash: [8, 2, 8, 6] },
];
if (SCHEME_STYLES.length !== SCHEMES.length) throw new Error('schemes.js: one curve style per scheme');

/** The reference curve's key in CURVE_STYLE (RoFormer's decay bound; the Train section's T line). */
export const BOUND = 'bound';

/** scheme id (or BOUND) → { colour, dash } of its curve in every chart (dash null: solid). */
export const CURVE_STYLE = Object.freeze({
  ...Object.fromEntries(SCHEMES.map((id, i) => [id, SCHEME_STYLES[i]])),
  [BOUND]: { colour: SERIES_COLOURS.reference, dash: [1, 2] },
});

const SUPERSCRIPT = { '-': '⁻', 0: '⁰', 1: '¹', 2: '²', 3: '³', 4: '⁴', 5: '⁵', 6: '⁶', 7: '⁷', 8: '⁸', 9: '⁹' };

/** An ALiBi slope as text: 2⁻ᵉ exactly when it is a power of two (the usual case), then decimal. */
export function slopeText(m) {
  const e = -Math.log2(m);
  const power = Number.isInteger(e) ? `2${[...String(-e)].map((c) => SUPERSCRIPT[c]).join('')} = ` : '';
  return `${power}${Number(m.toPrecision(4))}`;
}
