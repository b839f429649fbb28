#include "model/position_tables.hpp"

#include "encodings/phases.hpp"

namespace posenc::model {

void sin_cos_table(const double* omega, std::size_t pairs, std::size_t n, float* out) {
    const std::size_t width = 2 * pairs;
    const PhasePlan plan = make_phase_plan(omega, width, Layout::interleaved, /*sin*/ 0, /*cos*/ 1);
    for (std::size_t p = 0; p < n; ++p) {
        const SplitPosition position = split_position(static_cast<double>(p));
        for (std::size_t j = 0; j < width; ++j)
            out[p * width + j] = phase(position, plan.w_hi[j], plan.w_lo[j], plan.shift[j]);
    }
}

}  // namespace posenc::model
