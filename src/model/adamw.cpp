#include "model/adamw.hpp"

#include <cmath>
#include <string>

#include "base/names.hpp"
#include "base/simd.hpp"

namespace posenc::model {

namespace {
bool finite_in(float x, float lo, float hi) { return std::isfinite(x) && x >= lo && x <= hi; }

// Correctly rounded in both forms (sqrtss / sqrtps, f32x4.sqrt), so batch and tail agree bit for bit.
inline float square_root(float x) { return std::sqrt(x); }
#if POSENC_SIMD
inline Batch square_root(Batch x) { return xsimd::sqrt(x); }
#endif

// AdamW's per-step scalars, each rounded once to float.
struct AdamWConstants {
    float keep, b1, b2, one_minus_b1, one_minus_b2, step_size, bc2_sqrt, eps;
};

// One element (or one batch of them): the batch loop and the scalar tail run this same sequence.
template <class F>
inline void adamw_lane(F& param, F& m, F& v, F g, const AdamWConstants& k) {
    m = F(k.b1) * m + F(k.one_minus_b1) * g;
    v = F(k.b2) * v + F(k.one_minus_b2) * (g * g);
    const F denom = square_root(v) / F(k.bc2_sqrt) + F(k.eps);
    param = param * F(k.keep) - F(k.step_size) * (m / denom);
}
}  // namespace

const char* validate(const AdamWOptions& o) {
    static const std::string lr_range =
        "lr must be a finite number from " + number_text(kMinLr) + " to " + number_text(kMaxLr);
    if (!finite_in(o.lr, static_cast<float>(kMinLr), static_cast<float>(kMaxLr))) return lr_range.c_str();
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
        if (spec.frozen) continue;
        const AdamWConstants k{spec.decayed() ? decay : 1.0f, b1, b2, one_minus_b1, one_minus_b2, step_size, bc2_sqrt,
                               o.eps};
        std::size_t i = spec.offset;
        const std::size_t end = spec.offset + spec.size();
#if POSENC_SIMD
        for (; i + kLanes <= end; i += kLanes) {
            Batch p = load(params + i), mi = load(m + i), vi = load(v + i);
            adamw_lane(p, mi, vi, load(grads + i), k);
            store(params + i, p);
            store(m + i, mi);
            store(v + i, vi);
        }
#endif
        POSENC_SCALAR_TAIL
        for (; i < end; ++i) adamw_lane(params[i], m[i], v[i], grads[i], k);
    }
}

}  // namespace posenc::model
