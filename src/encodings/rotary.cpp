#include "encodings/rotary.hpp"

#include <cstdint>

namespace posenc {

namespace {
// out[j] = x[j]·cos θ_j + x[partner(j)]·(±sin θ_j): the first member of a pair takes −sin
// (shift 2), the second +sin (shift 0); cos is shift 1 for both.
template <class F, class I>
inline F rotate_lane(const SplitPosition& position, F value, F partner, F w_hi, F w_lo, I sin_shift) {
    const F cos_theta = phase(position, w_hi, w_lo, I(1));
    const F signed_sin = phase(position, w_hi, w_lo, sin_shift);
    return value * cos_theta + partner * signed_sin;
}

// Rotates dims [begin, end) of one row; partner_delta is partner(j) − j for the half pairing,
// unused (pairs are swapped lanes) for the interleaved one.
void rotate_span(const float* x, float* out, const PhasePlan& plan, const SplitPosition& position,
                 std::size_t begin, std::size_t end, Layout pairing, std::ptrdiff_t partner_delta) {
    std::size_t j = begin;
#if POSENC_SIMD
    for (; j + kLanes <= end; j += kLanes) {
        const Batch value = load(x + j);
        const Batch partner = pairing == Layout::interleaved ? swap_adjacent(value) : load(x + j + partner_delta);
        const IntBatch shift = IntBatch::load_unaligned(plan.shift.data() + j);
        store(out + j, rotate_lane(position, value, partner, load(plan.w_hi.data() + j),
                                   load(plan.w_lo.data() + j), shift));
    }
#endif
    POSENC_SCALAR_TAIL
    for (; j < end; ++j) {
        const std::size_t partner = pairing == Layout::interleaved ? (j ^ 1u) : j + partner_delta;
        out[j] = rotate_lane(position, x[j], x[partner], plan.w_hi[j], plan.w_lo[j], plan.shift[j]);
    }
}

void rotate_rows(const float* x, std::size_t n, std::size_t d, const PhasePlan& plan, double offset,
                 Layout pairing, float* out) {
    const std::size_t half = d / 2;
    for (std::size_t p = 0; p < n; ++p) {
        const SplitPosition position = split_position(offset + static_cast<double>(p));
        const float* row = x + p * d;
        float* out_row = out + p * d;
        if (pairing == Layout::interleaved) {
            rotate_span(row, out_row, plan, position, 0, d, pairing, 0);
        } else {
            rotate_span(row, out_row, plan, position, 0, half, pairing, static_cast<std::ptrdiff_t>(half));
            rotate_span(row, out_row, plan, position, half, d, pairing, -static_cast<std::ptrdiff_t>(half));
        }
    }
}
}  // namespace

void rotate(const float* x, std::size_t n, std::size_t d, double base, double offset,
            Layout pairing, float* out) {
    rotate_rows(x, n, d, make_phase_plan(d, base, pairing, /*−sin*/ 2, /*+sin*/ 0), offset, pairing, out);
}

void rotate_with_frequencies(const float* x, std::size_t n, std::size_t d, const double* omega, double offset,
                             Layout pairing, float* out) {
    rotate_rows(x, n, d, make_phase_plan(omega, d, pairing, /*−sin*/ 2, /*+sin*/ 0), offset, pairing, out);
}

}  // namespace posenc
