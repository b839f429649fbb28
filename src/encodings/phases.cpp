#include "encodings/phases.hpp"

#include <cmath>

namespace posenc {

double frequency(std::size_t i, std::size_t d, double base) {
    return std::pow(base, -2.0 * static_cast<double>(i) / static_cast<double>(d));
}

namespace {
// ω rounded to 12 significant bits: its product with a 12-bit integer is exact in float.
float high_part(double omega) {
    int exponent = 0;
    const double mantissa = std::frexp(omega, &exponent);
    return static_cast<float>(std::ldexp(std::nearbyint(mantissa * 4096.0) / 4096.0, exponent));
}
}  // namespace

PhasePlan make_phase_plan(std::size_t d, double base, Layout layout, std::int32_t shift_first,
                          std::int32_t shift_second) {
    std::vector<double> omega(d / 2);
    for (std::size_t i = 0; i < omega.size(); ++i) omega[i] = frequency(i, d, base);
    return make_phase_plan(omega.data(), d, layout, shift_first, shift_second);
}

PhasePlan make_phase_plan(const double* omegas, std::size_t d, Layout layout, std::int32_t shift_first,
                          std::int32_t shift_second) {
    PhasePlan plan{std::vector<float>(d), std::vector<float>(d), std::vector<std::int32_t>(d)};
    for (std::size_t j = 0; j < d; ++j) {
        const double omega = omegas[pair_of(j, d, layout)];
        plan.w_hi[j] = high_part(omega);
        plan.w_lo[j] = static_cast<float>(omega - plan.w_hi[j]);
        plan.shift[j] = second_of_pair(j, d, layout) ? shift_second : shift_first;
    }
    return plan;
}

SplitPosition split_position(double position) {
    const double high = std::trunc(position / 4096.0) * 4096.0;
    return {static_cast<float>(position), static_cast<float>(high),
            static_cast<float>(position - high)};
}

}  // namespace posenc
