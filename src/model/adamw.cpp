#include "model/adamw.hpp"

#include <cmath>

namespace posenc::model {

namespace {
bool finite_in(float x, float lo, float hi) { return std::isfinite(x) && x >= lo && x <= hi; }
}  // namespace

const char* validate(const AdamWOptions& o) {
    if (!finite_in(o.lr, 0.0f, 1.0f)) return "lr must be a finite number from 0 to 1";
    if (!finite_in(o.beta1, 0.0f, 1.0f) || o.beta1 == 1.0f) return "beta1 must be a number from 0 to below 1";
    if (!finite_in(o.beta2, 0.0f, 1.0f) || o.beta2 == 1.0f) return "beta2 must be a number from 0 to below 1";
    if (!finite_in(o.eps, 0.0f, 1.0f) || o.eps == 0.0f) return "eps must be a number above 0 and at most 1";
    if (!finite_in(o.weight_decay, 0.0f, 1e6f) || static_cast<double>(o.lr) * o.weight_decay > 1.0)
        return "weightDecay must be a finite number ≥ 0 with lr·weightDecay ≤ 1";
    if (!finite_in(o.clip, 0.0f, 1e30f)) return "clip must be a finite number ≥ 0 (0 turns clipping off)";
    return nullptr;
}

double clip_gradients(float* grads, std::size_t count, float clip) {
    double sum = 0.0;
    for (std::size_t i = 0; i < count; ++i) sum += static_cast<double>(grads[i]) * grads[i];
    const double norm = std::sqrt(sum);
    if (clip > 0.0f && norm > clip) {
        const float factor = static_cast<float>(clip / (norm + 1e-6));
        for (std::size_t i = 0; i < count; ++i) grads[i] = grads[i] * factor;
    }
    return norm;
}

void adamw_update(const std::vector<TensorSpec>& specs, float* params, const float* grads, float* m, float* v,
                  std::uint64_t t, const AdamWOptions& o) {
    const double steps = static_cast<double>(t);
    const float decay = static_cast<float>(1.0 - static_cast<double>(o.lr) * o.weight_decay);
    const float b1 = o.beta1, b2 = o.beta2;
    const float one_minus_b1 = static_cast<float>(1.0 - b1), one_minus_b2 = static_cast<float>(1.0 - b2);
    const float step_size = static_cast<float>(o.lr / (1.0 - std::pow(static_cast<double>(b1), steps)));
    const float bc2_sqrt = static_cast<float>(std::sqrt(1.0 - std::pow(static_cast<double>(b2), steps)));
    for (const TensorSpec& spec : specs) {
        const std::size_t begin = spec.offset, end = spec.offset + spec.size();
        const float keep = spec.decayed() ? decay : 1.0f;
        for (std::size_t i = begin; i < end; ++i) {
            const float g = grads[i];
            m[i] = b1 * m[i] + one_minus_b1 * g;
            v[i] = b2 * v[i] + one_minus_b2 * (g * g);
            const float denom = std::sqrt(v[i]) / bc2_sqrt + o.eps;
            params[i] = params[i] * keep - step_size * (m[i] / denom);
        }
    }
}

}  // namespace posenc::model
