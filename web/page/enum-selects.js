// The Settings' <select>s whose values are the core's enum names: the concatenation mode, the
// sinusoid layout and RoPE's pairing. Their options are made here, in the generated lists' order
// (scheme-table.mjs), each name with the page's wording beside it, so index.html spells no enum.
import { CONCAT_MODE, LAYOUT, SCHEME_TABLE } from '../scheme-table.mjs';

const WORDING = {
  concat: { [CONCAT_MODE.sameWidth]: 'same width (d = d_t + d_p)', [CONCAT_MODE.widened]: 'widened (d + d_p)' },
  layout: { [LAYOUT.interleaved]: 'interleaved (sin, cos, sin, …)', [LAYOUT.half]: 'half (all sin, then all cos)' },
  pairing: { [LAYOUT.interleaved]: 'interleaved (2i, 2i+1) — RoFormer', [LAYOUT.half]: 'half (i, i + d/2) — GPT-NeoX, LLaMA' },
};
const NAMES = { concat: SCHEME_TABLE.concatModes, layout: SCHEME_TABLE.layouts, pairing: SCHEME_TABLE.layouts };

/** Fills selects { concat, layout, pairing } (empty in the HTML) with one option per name. */
export function fillEnumSelects(selects) {
  for (const [key, select] of Object.entries(selects)) {
    // A name the core gained and the page has no words for yet still shows (as itself); the
    // page's e2e test fails until it has them.
    select.replaceChildren(...NAMES[key].map((name) => new Option(WORDING[key][name] ?? name, name)));
  }
}
