// Score against distance, per scheme (compare.hpp, CurveConfig): closed forms in float64.
#include <cmath>
#include <vector>

#include "compare.hpp"
#include "compare_lanes.hpp"
#include "schemes.hpp"

namespace posenc {

namespace {
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
}  // namespace

POSENC_COLD void distance_curves(const CurveConfig& cfg, float* out) {
    const std::size_t d = cfg.d, K = cfg.max_distance, row = K + 1;
    const SchemeOptions& o = cfg.options;
    const double inv_sqrt_d = 1.0 / std::sqrt(static_cast<double>(d));
    std::vector<double> omega(d / 2);
    for (unsigned index = 0; index < kSchemeCount; ++index) {
        const Scheme scheme = static_cast<Scheme>(index);
        if (!has(cfg.schemes, scheme)) continue;
        switch (scheme) {
            case Scheme::additive:
                rope_frequencies(d, cfg.base, RopeScalingConfig{}, omega.data());
                cosine_sum_curve(omega, nullptr, 1.0, inv_sqrt_d, K, out);
                break;
            case Scheme::concatenated: {
                const std::size_t w = cfg.concat_mode == ConcatMode::same_width ? d : d + cfg.d_pos;
                std::vector<double> omega_pos(cfg.d_pos / 2);
                rope_frequencies(cfg.d_pos, cfg.base, RopeScalingConfig{}, omega_pos.data());
                cosine_sum_curve(omega_pos, nullptr, 1.0, 1.0 / std::sqrt(static_cast<double>(w)), K, out);
                break;
            }
            case Scheme::learned: {
                std::vector<float> table(row * d);
                learned_table(kLearnedSeed, row, d, table.data());
                for (std::size_t k = 0; k < row; ++k) {
                    double sum = 0.0;
                    for (std::size_t j = 0; j < d; ++j) sum += static_cast<double>(table[k * d + j]) * table[j];
                    out[k] = static_cast<float>(sum * inv_sqrt_d);
                }
                break;
            }
            case Scheme::alibi: {
                std::vector<double> slopes(o.alibi_heads);
                alibi_slopes(o.alibi_heads, slopes.data());
                // 0 − m·k, not −(m·k): +0 at k = 0.
                for (std::size_t k = 0; k < row; ++k) out[k] = static_cast<float>(0.0 - slopes[o.alibi_head - 1] * static_cast<double>(k));
                break;
            }
            case Scheme::t5: {
                std::vector<float> values(static_cast<std::size_t>(o.t5_buckets));
                t5_bucket_values(kT5Seed, o.t5_buckets, values.data());
                for (std::size_t k = 0; k < row; ++k) {
                    out[k] = values[t5_bucket(-static_cast<std::int64_t>(k), !cfg.causal, o.t5_buckets, o.t5_max_distance)];
                }
                break;
            }
            case Scheme::nope:
                std::fill(out, out + row, 0.0f);
                break;
            default: {  // rope family
                const RopeScalingConfig rope = detail::rope_config(scheme, o);
                rope_frequencies(d, cfg.base, rope, omega.data());
                double factor = 2.0 * inv_sqrt_d;
                if (scheme == Scheme::yarn) {
                    const double qk = yarn_qk_factor(rope_scale_factor(rope));
                    factor *= qk * qk;
                }
                std::vector<double> zeta;
                if (scheme == Scheme::xpos) {
                    zeta.resize(d / 2);
                    xpos_zeta(d, o.xpos_gamma, zeta.data());
                }
                cosine_sum_curve(omega, zeta.empty() ? nullptr : zeta.data(), o.xpos_scale_base, factor, K, out);
                break;
            }
        }
        out += row;
    }
}

}  // namespace posenc
