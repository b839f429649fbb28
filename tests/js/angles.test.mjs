// The rotation-angle panel's flagging (web/pipeline/angle-flags.js) against flag sets computed here
// independently: closed forms for plain RoPE and position interpolation, the frequency formulas
// re-derived in float64 for NTK-aware scaling and YaRN, on the lab's own ropeFrequencies output.
//
// Tolerances: none — flags are booleans. The closed forms avoid ties: no case below puts L·ω_i
// within 1e-6 (relative) of 2π, nor L'·ω'_i of L·ω_i except where they are equal by design (PI,
// s = 1), which angleReach's documented RELATIVE_SLACK (1e-9) must absorb.
import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { load } from '../../dist/posenc.mjs';
import { angleReach, pairRanges, RELATIVE_SLACK, TWO_PI } from '../../web/pipeline/angle-flags.js';

let lab;
before(async () => { lab = await load(); });

const plain = (d, base) => Float64Array.from({ length: d / 2 }, (_, i) => base ** (-2 * i / d));
const count = (flags) => flags.reduce((a, b) => a + b, 0);
const freqs = (d, base, scaling, L, Lp, extra = {}) =>
  lab.ropeFrequencies(d, { base, scaling, trainedLength: L, evalLength: Lp, ...extra }).frequencies;

// d from 2 (one pair) to 256, bases from 100 to 10^6, s from 1.5 to 512.
const CASES = [
  { d: 2, base: 10000, L: 4, Lp: 9 },
  { d: 4, base: 10000, L: 16, Lp: 64 },
  { d: 6, base: 500, L: 100, Lp: 250 },
  { d: 64, base: 10000, L: 2048, Lp: 8192 },
  { d: 100, base: 10000, L: 2048, Lp: 8192 },
  { d: 128, base: 500000, L: 8192, Lp: 131072 },
  { d: 256, base: 100, L: 512, Lp: 768 },
  { d: 100, base: 10000, L: 1024, Lp: 524288 },
];

describe('plain RoPE', () => {
  it('flags exactly the pairs that never completed a turn (L·ω_i < 2π) once L\' > L — closed form', () => {
    for (const { d, base, L, Lp } of CASES) {
      const omega = freqs(d, base, 'none', L, Lp);
      const got = angleReach(omega, omega, L, Lp);
      // L·base^(−2i/d) < 2π  ⇔  i > (d/2)·ln(L/2π)/ln(base).
      const threshold = (d / 2) * Math.log(L / TWO_PI) / Math.log(base);
      const want = Array.from({ length: d / 2 }, (_, i) => (i > threshold ? 1 : 0));
      assert.deepEqual([...got.flagged], want, `d=${d} base=${base} L=${L} L'=${Lp}`);
      assert.equal(got.count, count(want));
      assert.deepEqual([...got.turned], want.map((f) => 1 - f), 'a pair is flagged iff it never turned');
    }
  });

  it('flags nothing when L\' ≤ L, for every variant (s = 1 leaves them all plain)', () => {
    for (const { d, base, L } of CASES) {
      for (const Lp of [1, Math.max(1, L - 1), L]) {
        const omega = plain(d, base);
        for (const scaling of ['none', 'pi', 'ntk', 'yarn']) {
          const got = angleReach(omega, freqs(d, base, scaling, L, Lp), L, Lp);
          assert.equal(got.count, 0, `${scaling} d=${d} L=${L} L'=${Lp}`);
        }
      }
    }
  });

  it('one position past L is a real overshoot even at L = 2^20 (RELATIVE_SLACK stays below 1/L)', () => {
    const L = 2 ** 20;
    const omega = plain(64, 1e12); // base 10^12 leaves the slow pairs unturned even at L = 2^20
    const got = angleReach(omega, omega, L, L + 1);
    assert.ok(got.count > 0);
    assert.ok(RELATIVE_SLACK < 1 / L);
  });

  it('the lab\'s plain frequencies are base^(−2i/d) (the test\'s closed form relies on it)', () => {
    for (const { d, base } of CASES) {
      const omega = freqs(d, base, 'none', 2048, 2048);
      const want = plain(d, base);
      for (let i = 0; i < d / 2; i++) assert.ok(Math.abs(omega[i] - want[i]) <= 4e-16 * want[i], `ω_${i}`);
    }
  });
});

describe('context extension', () => {
  it('position interpolation never reaches a new angle: L\'·ω/s = L·ω', () => {
    for (const { d, base, L, Lp } of CASES) {
      const got = angleReach(plain(d, base), freqs(d, base, 'pi', L, Lp), L, Lp);
      assert.equal(got.count, 0, `d=${d} L=${L} L'=${Lp}`);
      for (let i = 0; i < d / 2; i++) assert.ok(Math.abs(got.reached[i] - got.trained[i]) <= 1e-12 * got.trained[i]);
    }
  });

  it('NTK-aware scaling flags the unturned pairs whose L\'·ω\'_i exceeds L·ω_i (ω\' re-derived here)', () => {
    let someFlagged = false;
    for (const { d, base, L, Lp } of CASES) {
      const s = Lp / L;
      const basePrime = base * s ** (d / (d - 2));
      const want = Array.from({ length: d / 2 }, (_, i) => {
        const w = base ** (-2 * i / d);
        const wp = basePrime ** (-2 * i / d);
        // The last pair ties by design (ω/s): L'·ω' = L·ω to 2e-16, not an overshoot.
        return L * w < TWO_PI && Lp * wp > L * w * (1 + 1e-9) ? 1 : 0;
      });
      const got = angleReach(plain(d, base), freqs(d, base, 'ntk', L, Lp), L, Lp);
      assert.deepEqual([...got.flagged], want, `d=${d} base=${base} L=${L} L'=${Lp}`);
      someFlagged ||= got.count > 0;
      // The lowest frequency is divided by exactly s, like PI: never flagged (d = 2 has only
      // pair 0, whose ω_0 = 1 NTK keeps).
      if (d > 2) assert.equal(got.flagged[d / 2 - 1], 0);
    }
    assert.ok(someFlagged, 'the cases include pairs NTK extrapolates (else this test could not fail)');
  });

  it('YaRN with α = 1 flags nothing; with α < 1 exactly the pairs with α < r_i < 1 (r = L·ω/2π)', () => {
    let someFlagged = false;
    for (const { d, base, L, Lp } of CASES) {
      const omega = plain(d, base);
      assert.equal(angleReach(omega, freqs(d, base, 'yarn', L, Lp), L, Lp).count, 0, `α = 1, d=${d}`);
      const alpha = 0.25;
      const want = Array.from(omega, (w) => { const r = (L * w) / TWO_PI; return r > alpha && r < 1 ? 1 : 0; });
      const got = angleReach(omega, freqs(d, base, 'yarn', L, Lp, { alpha }), L, Lp);
      assert.deepEqual([...got.flagged], want, `α = ${alpha}, d=${d} base=${base} L=${L}`);
      someFlagged ||= got.count > 0;
    }
    assert.ok(someFlagged, 'some case has pairs in the partly extrapolated ramp');
  });
});

describe('helpers', () => {
  it('pairRanges writes runs as ranges', () => {
    assert.equal(pairRanges(Uint8Array.from([0, 1, 1, 1, 0, 1, 0, 0, 1, 1])), '1–3, 5, 8–9');
    assert.equal(pairRanges(Uint8Array.from([1])), '0');
    assert.equal(pairRanges(new Uint8Array(5)), '');
  });

  it('refuses frequency arrays of different lengths', () => {
    assert.throws(() => angleReach(new Float64Array(3), new Float64Array(4), 10, 20), RangeError);
  });
});
