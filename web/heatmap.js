// Heatmap painting with a viridis-like palette.
//
// Viridis is perceptually uniform and stays readable in greyscale and for the common colour
// vision deficiencies; ten anchors (matplotlib's viridis at t = 0, 1/9, …, 1) interpolated
// linearly are indistinguishable from the full 256-entry table at these sizes, and keep the page
// free of a colour-scale dependency.
const VIRIDIS_ANCHORS = [
  '#440154', '#482878', '#3e4989', '#31688e', '#26828e',
  '#1f9e89', '#35b779', '#6ece58', '#b5de2b', '#fde725',
];

const RAMP_SIZE = 256;
const RAMP = buildRamp(VIRIDIS_ANCHORS, RAMP_SIZE);

function hexToRgb(hex) {
  const value = Number.parseInt(hex.slice(1), 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
}

function buildRamp(anchors, size) {
  const rgb = anchors.map(hexToRgb);
  const ramp = new Uint8ClampedArray(size * 3);
  for (let i = 0; i < size; i++) {
    const position = (i / (size - 1)) * (rgb.length - 1);
    const lower = Math.min(Math.floor(position), rgb.length - 2);
    const fraction = position - lower;
    for (let channel = 0; channel < 3; channel++) {
      const a = rgb[lower][channel];
      const b = rgb[lower + 1][channel];
      ramp[i * 3 + channel] = Math.round(a + (b - a) * fraction);
    }
  }
  return ramp;
}

function rampIndex(value, min, max) {
  const t = (value - min) / (max - min);
  // NaN lands on the low end rather than poisoning the image.
  if (!(t > 0)) return 0;
  if (t >= 1) return RAMP_SIZE - 1;
  return Math.round(t * (RAMP_SIZE - 1));
}

/**
 * Paints an n×n row-major matrix one canvas pixel per cell; CSS scales it up (pixelated), so the
 * canvas's intrinsic size is the matrix size and a pointer position maps straight to a cell.
 */
export function paintHeatmap(canvas, values, n, { min = 0, max = 1 } = {}) {
  canvas.width = n;
  canvas.height = n;
  const context = canvas.getContext('2d');
  const image = context.createImageData(n, n);
  const pixels = image.data;
  for (let cell = 0; cell < n * n; cell++) {
    const index = rampIndex(values[cell], min, max) * 3;
    pixels[cell * 4] = RAMP[index];
    pixels[cell * 4 + 1] = RAMP[index + 1];
    pixels[cell * 4 + 2] = RAMP[index + 2];
    pixels[cell * 4 + 3] = 255;
  }
  context.putImageData(image, 0, 0);
}

/** A horizontal strip of the whole palette, low values on the left. */
export function paintLegend(canvas) {
  canvas.width = RAMP_SIZE;
  canvas.height = 1;
  const context = canvas.getContext('2d');
  const image = context.createImageData(RAMP_SIZE, 1);
  for (let i = 0; i < RAMP_SIZE; i++) {
    image.data.set([RAMP[i * 3], RAMP[i * 3 + 1], RAMP[i * 3 + 2], 255], i * 4);
  }
  context.putImageData(image, 0, 0);
}
