#include "encodings/schemes.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "vectors/embedding.hpp"
#include "encodings/rotary.hpp"
#include "base/simd.hpp"

namespace posenc {

namespace {
// Slopes for a power of two p: 2^(−8k/p), k = 1 … p (pow of an exact quotient; exact whenever
// 8k/p is an integer). pow, not exp2/exp: pow is linked already, and each extra libm function
// costs the embedded wasm bundle a few KB.
double power_of_two_slope(std::size_t k, std::size_t p) {
    return std::pow(2.0, -8.0 * static_cast<double>(k) / static_cast<double>(p));
}
}  // namespace

void alibi_slopes(std::size_t h, double* slopes) {
    std::size_t p = 1;
    while (p * 2 <= h) p *= 2;  // 2^⌊log2 h⌋
    for (std::size_t k = 1; k <= p; ++k) slopes[k - 1] = power_of_two_slope(k, p);
    // The 2p-head sequence's 1st, 3rd, 5th … slopes: 2^(−8(2j+1)/(2p)), j = 0 … h − p − 1.
    for (std::size_t j = 0; p + j < h; ++j) slopes[p + j] = power_of_two_slope(2 * j + 1, 2 * p);
}

void alibi_bias(double slope, std::size_t n, bool causal, float* out) {
    const float minus_inf = -std::numeric_limits<float>::infinity();
    for (std::size_t i = 0; i < n; ++i) {
        float* row = out + i * n;
        for (std::size_t j = 0; j < n; ++j) {
            if (j > i && causal) {
                row[j] = minus_inf;
            } else {
                const double distance = j > i ? static_cast<double>(j - i) : static_cast<double>(i - j);
                row[j] = static_cast<float>(-slope * distance);
            }
        }
    }
}

int t5_bucket(std::int64_t relative, bool bidirectional, int num_buckets, int max_distance) {
    int offset = 0;
    std::int64_t distance = 0;
    if (bidirectional) {
        num_buckets /= 2;
        if (relative > 0) offset = num_buckets;
        distance = relative < 0 ? -relative : relative;
    } else {
        distance = relative < 0 ? -relative : 0;
    }
    const int max_exact = num_buckets / 2;
    if (distance < max_exact) return offset + static_cast<int>(distance);
    // Evaluated in double; for every configuration the tests try, the buckets equal those of the
    // exact-arithmetic boundaries max_exact·(max_distance/max_exact)^(k/(b − max_exact)) and of the
    // float32 evaluation of the reference code.
    const double scaled = std::log(static_cast<double>(distance) / max_exact) /
                          std::log(static_cast<double>(max_distance) / max_exact) * (num_buckets - max_exact);
    const double capped = std::min(scaled, static_cast<double>(num_buckets));  // huge distances
    return offset + std::min(max_exact + static_cast<int>(capped), num_buckets - 1);
}

void t5_bucket_values(std::uint64_t seed, int num_buckets, float* values) {
    gaussian_matrix(seed, 1, static_cast<std::size_t>(num_buckets), 1.0, values);
}

void t5_bias(std::size_t n, bool bidirectional, int num_buckets, int max_distance, const float* values,
             float* out, std::int32_t* buckets) {
    // The bucket depends on j − i only: compute the 2n − 1 diagonals once.
    std::vector<std::int32_t> by_offset(2 * n - 1);
    for (std::size_t k = 0; k < by_offset.size(); ++k) {
        const std::int64_t relative = static_cast<std::int64_t>(k) - static_cast<std::int64_t>(n - 1);
        by_offset[k] = t5_bucket(relative, bidirectional, num_buckets, max_distance);
    }
    for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t j = 0; j < n; ++j) {
            const std::int32_t b = by_offset[j + (n - 1) - i];
            out[i * n + j] = values[b];
            if (buckets) buckets[i * n + j] = b;
        }
    }
}

double rope_scale_factor(const RopeScalingConfig& cfg) {
    return std::max(1.0, cfg.eval_length / cfg.trained_length);
}

double yarn_ramp(double r, double alpha, double beta) {
    if (r < alpha) return 0.0;
    if (r > beta) return 1.0;
    return (r - alpha) / (beta - alpha);
}

double yarn_qk_factor(double s) { return s > 1.0 ? 0.1 * std::log(s) + 1.0 : 1.0; }

void rope_frequencies(std::size_t d, double base, const RopeScalingConfig& cfg, double* omega) {
    const std::size_t pairs = d / 2;
    const double s = rope_scale_factor(cfg);
    if (cfg.kind == RopeScaling::ntk) {
        // base' = base·s^(d/(d−2)); for d = 2 the only frequency is base'^0 = 1 whatever the base.
        const double scaled_base = d > 2 ? base * std::pow(s, static_cast<double>(d) / static_cast<double>(d - 2)) : base;
        for (std::size_t i = 0; i < pairs; ++i) omega[i] = frequency(i, d, scaled_base);
        return;
    }
    const double two_pi = 6.283185307179586;
    for (std::size_t i = 0; i < pairs; ++i) {
        const double w = frequency(i, d, base);
        switch (cfg.kind) {
            case RopeScaling::none:
            case RopeScaling::ntk:
                omega[i] = w;
                break;
            case RopeScaling::pi:
                // Position interpolation scales positions by L/L' = 1/s; applied to ω instead
                // (m/s)·ω = m·(ω/s), so rotate keeps its integral positions and exact phases.
                omega[i] = w / s;
                break;
            case RopeScaling::yarn: {
                const double r = cfg.trained_length * w / two_pi;  // L/λ_i, λ_i = 2π/ω_i
                const double g = yarn_ramp(r, cfg.alpha, cfg.beta);
                const double interpolated = w / s;
                omega[i] = interpolated + g * (w - interpolated);
                break;
            }
        }
    }
}

void xpos_zeta(std::size_t d, double gamma, double* zeta) {
    for (std::size_t i = 0; i < d / 2; ++i) {
        zeta[i] = (2.0 * static_cast<double>(i) / static_cast<double>(d) + gamma) / (1.0 + gamma);
    }
}

void xpos_rotate(const float* x, std::size_t n, std::size_t d, double base, double offset, Layout pairing,
                 double gamma, double scale_base, bool key, float* out) {
    rotate(x, n, d, base, offset, pairing, out);
    const std::size_t pairs = d / 2;
    std::vector<double> zeta(pairs), factor(pairs), step(pairs);
    std::vector<float> scale(d);
    xpos_zeta(d, gamma, zeta.data());
    const double sign = key ? -1.0 : 1.0;
    // ζ_i^(±P/λ) for consecutive P by one multiplication per pair instead of a pow per element:
    // factor(P + 1) = factor(P)·ζ_i^(±1/λ). In double the product drifts by about P·2^-53
    // relative (< 1e-11 for every allowed position), far below float32's rounding; P = offset
    // starts from pow itself, so position 0 gets exactly 1.
    for (std::size_t i = 0; i < pairs; ++i) {
        factor[i] = std::pow(zeta[i], sign * offset / scale_base);
        step[i] = std::pow(zeta[i], sign / scale_base);
    }
    for (std::size_t p = 0; p < n; ++p) {
        for (std::size_t j = 0; j < d; ++j) scale[j] = static_cast<float>(factor[pair_of(j, d, pairing)]);
        for (std::size_t i = 0; i < pairs; ++i) factor[i] *= step[i];
        float* row = out + p * d;
        std::size_t j = 0;
#if POSENC_SIMD
        for (; j + kLanes <= d; j += kLanes) store(row + j, load(row + j) * load(scale.data() + j));
#endif
        POSENC_SCALAR_TAIL
        for (; j < d; ++j) row[j] *= scale[j];
    }
}

void learned_table(std::uint64_t seed, std::size_t n, std::size_t d, float* out) {
    gaussian_matrix(seed, n, d, kLearnedTableSigma, out);
}

}  // namespace posenc
