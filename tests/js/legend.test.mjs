// The heatmap legend's strip (web/figures/heatmap.js, legendGradient): a CSS gradient whose stops
// are the palette's own colours, in order, from its low end at 0% to its high end at 100%, for both
// palettes. Read back from the string, so a stop out of order, a wrong end or another palette's
// colour fails.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { colourOf, legendGradient, PALETTE_NAMES } from '../../web/figures/heatmap.js';

const stopsOf = (css) => [...css.matchAll(/rgb\((\d+),(\d+),(\d+)\) ([\d.]+)%/g)]
  .map(([, r, g, b, at]) => ({ rgb: [Number(r), Number(g), Number(b)], at: Number(at) }));

for (const palette of Object.keys(PALETTE_NAMES)) {
  test(`${palette}: the legend runs through the palette's colours from its low end to its high end`, () => {
    const css = legendGradient(palette);
    assert.match(css, /^linear-gradient\(to right,rgb/);
    const stops = stopsOf(css);
    assert.ok(stops.length >= 17, `${stops.length} stops`);
    assert.deepEqual(stops[0], { rgb: colourOf(palette, 0, 0, 1), at: 0 });
    assert.deepEqual(stops.at(-1), { rgb: colourOf(palette, 1, 0, 1), at: 100 });
    for (let i = 1; i < stops.length; i++) assert.ok(stops[i].at > stops[i - 1].at, `stop ${i} after stop ${i - 1}`);
    // Each stop is the palette's colour at its place (the ramp entry nearest to at/100).
    for (const { rgb, at } of stops) assert.deepEqual(rgb, colourOf(palette, at / 100, 0, 1), `stop at ${at}%`);
  });
}

test('the two palettes\' legends differ', () => {
  assert.notEqual(legendGradient('viridis'), legendGradient('diverging'));
});
