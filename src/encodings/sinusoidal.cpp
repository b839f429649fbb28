#include "encodings/sinusoidal.hpp"

#include <cstdint>

namespace posenc {

void sinusoidal_table(std::size_t n, std::size_t d, double base, Layout layout, float* out,
                      double first_position) {
    const PhasePlan plan = make_phase_plan(d, base, layout, /*sin*/ 0, /*cos*/ 1);
    const std::size_t vector_end = simd_prefix(d);
    for (std::size_t p = 0; p < n; ++p) {
        const SplitPosition position = split_position(first_position + static_cast<double>(p));
        float* row = out + p * d;
        std::size_t j = 0;
#if POSENC_SIMD
        for (; j < vector_end; j += kLanes) {
            const IntBatch shift = IntBatch::load_unaligned(plan.shift.data() + j);
            store(row + j, phase(position, load(plan.w_hi.data() + j), load(plan.w_lo.data() + j), shift));
        }
#endif
        POSENC_SCALAR_TAIL
        for (; j < d; ++j) {
            row[j] = phase(position, plan.w_hi[j], plan.w_lo[j], plan.shift[j]);
        }
    }
    (void)vector_end;
}

}  // namespace posenc
