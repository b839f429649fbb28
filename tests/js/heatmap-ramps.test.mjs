// The heatmap's ramps against d3-scale-chromatic's own interpolators, entry for entry: viridis is
// its table read directly; RdBu is the B-spline heatmap.js draws through Brewer's 11 classes, which
// must be the curve d3's interpolateRdBu draws (d3-interpolate's rgb basis spline).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { interpolateRdBu, interpolateViridis } from 'd3-scale-chromatic';
import { rgb } from 'd3-color';
import { colourOf } from '../../web/figures/heatmap.js';

const SIZE = 256;
const d3Rgb = (colour) => { const { r, g, b } = rgb(colour); return [r, g, b]; };

test('the viridis ramp is d3-scale-chromatic\'s viridis table, entry for entry', () => {
  for (let i = 0; i < SIZE; i++) assert.deepEqual(colourOf('viridis', i, 0, SIZE - 1), d3Rgb(interpolateViridis(i / (SIZE - 1))), `entry ${i}`);
});

test('the diverging ramp is d3\'s interpolateRdBu reversed (blue low, red high), entry for entry', () => {
  for (let i = 0; i < SIZE; i++) assert.deepEqual(colourOf('diverging', i, 0, SIZE - 1), d3Rgb(interpolateRdBu(1 - i / (SIZE - 1))), `entry ${i}`);
});

test('the diverging ramp is blue at the low end, near white in the middle and red at the high end', () => {
  const [low, middle, high] = [0, 127.5, 255].map((v) => colourOf('diverging', v, 0, 255));
  assert.ok(low[2] > low[0], `low end ${low} is blue`);
  assert.ok(high[0] > high[2], `high end ${high} is red`);
  assert.ok(middle.every((c) => c > 230), `middle ${middle} is near white`);
});
