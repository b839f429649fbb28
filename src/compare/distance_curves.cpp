// Score against distance, per scheme (compare.hpp, CurveConfig): closed forms in float64.
#include <algorithm>
#include <cmath>
#include <vector>

#include "compare/compare.hpp"
#include "compare/lanes.hpp"
#include "encodings/schemes.hpp"

namespace posenc {

namespace detail {
// out[k] = factor·Σ_i cos(k·ω_i)·(zeta ? ζ_i^(k/λ) : 1), k = 0 … K, in double (pow, not exp:
// pow is linked already).
POSENC_COLD void cosine_sum_curve(const std::vector<double>& omega, const double* zeta, double scale_base, double factor,
                                  std::size_t max_distance, float* out) {
    for (std::size_t k = 0; k <= max_distance; ++k) {
        const double position = static_cast<double>(k);
        double sum = 0.0;
        for (std::size_t i = 0; i < omega.size(); ++i) {
            const double c = std::cos(position * omega[i]);
            sum += zeta ? c * std::pow(zeta[i], position / scale_base) : c;
        }
        out[k] = static_cast<float>(factor * sum);
    }
}
}  // namespace detail

// One row per requested scheme, in table order, from its family's closed form.
POSENC_COLD void distance_curves(const CurveConfig& cfg, float* out) {
    const std::size_t row = cfg.max_distance + 1;
    for (const SchemeInfo& s : kSchemeTable) {
        if (!has(cfg.schemes, s.id)) continue;
        switch (s.family) {
            case Family::absolute:
            case Family::concatenated: detail::absolute_curve(cfg, s.id, out); break;
            case Family::rotation: detail::rotation_curve(cfg, s.id, out); break;
            case Family::logit_bias: detail::bias_curve(cfg, s.id, out); break;
            case Family::none: std::fill(out, out + row, 0.0f); break;
        }
        out += row;
    }
}

}  // namespace posenc
