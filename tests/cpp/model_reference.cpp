#include "model_reference.hpp"

#include <cmath>

namespace posenc::test {

using namespace posenc::model;

ReferenceModel::ReferenceModel(const ModelConfig& cfg) : cfg_(cfg), at_(tensor_offsets(cfg)) {}

double ReferenceModel::loss(const std::vector<double>& params, const std::int32_t* tokens, std::size_t B,
                            std::size_t T, const std::uint8_t* mask, std::vector<double>* grads,
                            const EvalOptions& eval) {
    prepare_workspace(cfg_, B, T, grads != nullptr, eval, ws_);
    if (grads) grads->assign(params.size(), 0.0);
    return run_pass<double>(cfg_, at_, params.data(), tokens, T + 1, true, mask, ws_, grads ? grads->data() : nullptr,
                            nullptr);
}

void ReferenceModel::evaluate(const std::vector<double>& params, const std::int32_t* tokens, std::size_t n,
                              std::vector<double>& attention, std::vector<double>& logits, const EvalOptions& eval) {
    prepare_workspace(cfg_, 1, n, false, eval, ws_);
    attention.assign(cfg_.layers * cfg_.heads * n * n, 0.0);
    run_pass<double>(cfg_, at_, params.data(), tokens, n, false, nullptr, ws_, nullptr, attention.data());
    logits.assign(ws_.data(Act::logits), ws_.data(Act::logits) + n * cfg_.vocab);
}

std::vector<double> to_double(const float* values, std::size_t count) { return {values, values + count}; }

void ReferenceAdamW::step(const std::vector<TensorSpec>& specs, std::vector<double>& params, std::vector<double> g,
                          const AdamWOptions& o) {
    if (m.empty()) m.assign(params.size(), 0.0), v.assign(params.size(), 0.0);
    double sum = 0.0;
    for (double x : g) sum += x * x;
    const double norm = std::sqrt(sum);
    if (o.clip > 0 && norm > o.clip)
        for (double& x : g) x *= o.clip / (norm + 1e-6);
    ++t;
    const double lr = o.lr, b1 = o.beta1, b2 = o.beta2;
    for (const TensorSpec& s : specs) {
        for (std::size_t i = s.offset; i < s.offset + s.size(); ++i) {
            if (s.decayed()) params[i] *= 1.0 - lr * o.weight_decay;
            m[i] = b1 * m[i] + (1.0 - b1) * g[i];
            v[i] = b2 * v[i] + (1.0 - b2) * g[i] * g[i];
            const double m_hat = m[i] / (1.0 - std::pow(b1, static_cast<double>(t)));
            const double v_hat = v[i] / (1.0 - std::pow(b2, static_cast<double>(t)));
            params[i] -= lr * m_hat / (std::sqrt(v_hat) + o.eps);
        }
    }
}

}  // namespace posenc::test
