// Near-orthogonality versus d: why adding behaves almost like concatenating in high dimensions.
import { ChartFigure } from '../figures/chart-figure.js';
import { SERIES_COLOURS } from '../pipeline/schemes.js';

const DIMS = [4, 8, 16, 32, 64, 128, 256, 512, 1024];

/** RMS cosine between each row of `a` and the same row of `b` (n×d each). */
function rmsRowCosine(a, b, n, d) {
  let sum = 0;
  for (let p = 0; p < n; p++) {
    let dot = 0; let na = 0; let nb = 0;
    for (let j = p * d; j < (p + 1) * d; j++) { dot += a[j] * b[j]; na += a[j] * a[j]; nb += b[j] * b[j]; }
    const c = na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
    sum += c * c;
  }
  return Math.sqrt(sum / n);
}

export function createOrthogonalityPanel(slot) {
  const chart = new ChartFigure(slot, { title: 'Near-orthogonality versus d' });
  const randomSpread = new Map(); // d → std, the same for every sentence
  return {
    figure: chart,
    /**
     * current: { vectors (n×d word vectors of the chosen source), d, label }. Returns its point.
     * A generator: the random-pair spreads (≈ 35 ms each at d = 1024, once per d) yield between
     * them, so the first run does not hold the page for a third of a second.
     */
    * update({ lab, tokens, base, layout, current }) {
      for (const d of [...DIMS, current.d]) {
        if (randomSpread.has(d)) continue;
        randomSpread.set(d, lab.cosineSpread(d, { pairs: 2000 }).std);
        yield;
      }
      // Long sentences add nothing to an RMS but cost time: 128 words are plenty.
      const words = tokens.slice(0, 128);
      const n = words.length;
      const random = DIMS.map((d) => randomSpread.get(d));
      const wordPosition = DIMS.map((d) => rmsRowCosine(lab.embed(words, d), lab.sinusoidal(n, d, { base, layout }), n, d));
      const point = rmsRowCosine(current.vectors.subarray(0, n * current.d), lab.sinusoidal(n, current.d, { base, layout }), n, current.d);
      chart.update({
        series: [
          { name: 'random vector pairs (std of cosine)', colour: SERIES_COLOURS.other, kind: 'line', x: DIMS, y: random },
          { name: '1/√d', colour: SERIES_COLOURS.reference, kind: 'line', dash: true, x: DIMS, y: DIMS.map((d) => 1 / Math.sqrt(d)) },
          { name: 'synthetic word vs its position, this sentence (RMS cosine)', colour: SERIES_COLOURS.concatenated, kind: 'points', x: DIMS, y: wordPosition },
          { name: `${current.label} word vs its position (RMS cosine)`, colour: SERIES_COLOURS.additive, kind: 'points', x: [current.d], y: [point] },
        ],
        xLabel: 'dimensions d (log scale)',
        yLabel: 'cosine spread',
        logX: true,
        yMin: 0,
        label: 'Spread of the cosine between random vectors, and between each word vector and its position vector, as d grows, with the 1/√d curve',
      });
      return { point, d: current.d, random: randomSpread.get(current.d) };
    },
  };
}
