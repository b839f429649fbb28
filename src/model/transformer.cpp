#include "model/transformer.hpp"

#include <algorithm>
#include <cmath>

#include "base/names.hpp"
#include "vectors/embedding.hpp"

namespace posenc::model {

namespace {

const char* check_tokens(const ModelConfig& cfg, const std::int32_t* tokens, std::size_t count) {
    if (!tokens && count) return "tokens must be an Int32Array";
    for (std::size_t i = 0; i < count; ++i)
        if (tokens[i] < 0 || static_cast<std::size_t>(tokens[i]) >= cfg.vocab)
            return "tokens must be integers from 0 to vocab − 1";
    return nullptr;
}

const char* check_length(const ModelConfig& cfg, std::size_t length, std::size_t B, bool training, const char* name,
                         const char* too_long_learned, const char* too_big) {
    if (length < 1 || length > kMaxSequence) return name;
    if (cfg.scheme == Scheme::learned && length > cfg.context) return too_long_learned;
    if (workspace_sizes(cfg, B, length, training).total() > kMaxWorkspaceFloats) return too_big;
    return nullptr;
}

}  // namespace

std::string workspace_message(const char* what, const char* reduce) {
    return std::string(what) + " needs more than " + power_of_two_text(kMaxWorkspaceFloats) +
           " floats of workspace: reduce " + reduce;
}

const char* validate_shape(const ModelConfig& cfg, std::size_t B, std::size_t T, bool training) {
    static const std::string batch = "B must be an integer from 1 to " + std::to_string(kMaxBatch),
                             length = "T must be an integer from 1 to " + std::to_string(kMaxSequence),
                             too_big = workspace_message("B·T", "B or T");
    if (B < 1 || B > kMaxBatch) return batch.c_str();
    return check_length(cfg, T, B, training, length.c_str(),
                        "T must be at most context for the learned scheme (its position table has context rows)",
                        too_big.c_str());
}

const char* validate_batch(const ModelConfig& cfg, const std::int32_t* tokens, std::size_t token_count, std::size_t B,
                           std::size_t T, const std::uint8_t* mask, std::size_t mask_count, bool training) {
    if (const char* e = validate_shape(cfg, B, T, training)) return e;
    if (token_count != B * (T + 1)) return "tokens must hold B·(T + 1) ids";
    if (const char* e = check_tokens(cfg, tokens, token_count)) return e;
    if (!mask) return nullptr;
    if (mask_count != B * T) return "mask must hold B·T values";
    bool any = false;
    for (std::size_t i = 0; i < mask_count; ++i) {
        if (mask[i] > 1) return "mask values must be 0 or 1";
        any = any || mask[i] == 1;
    }
    return any ? nullptr : "mask must count at least one target";
}

const char* validate_sequence(const ModelConfig& cfg, const std::int32_t* tokens, std::size_t token_count,
                              std::size_t n) {
    static const std::string length = "n must be an integer from 1 to " + std::to_string(kMaxSequence),
                             too_big = workspace_message("n", "n");
    if (const char* e = check_length(cfg, n, 1, false, length.c_str(),
                                     "n must be at most context for the learned scheme (its position table has context rows)",
                                     too_big.c_str()))
        return e;
    if (token_count != n) return "tokens must hold n ids";
    return check_tokens(cfg, tokens, token_count);
}

const char* validate_inspect(const ModelConfig& cfg, std::size_t n, std::size_t map, std::size_t from_row) {
    if (map != kEveryMap && map >= cfg.layers * cfg.heads)
        return "options.layer and options.head must be from 0 to layers − 1 and from 0 to heads − 1";
    if (from_row >= n) return "options.fromRow must be from 0 to n − 1";
    static const std::string too_big =
        "n needs more than " + power_of_two_text(kMaxWorkspaceFloats) + " floats for every layer's rows (inspect): reduce n";
    return inspect_floats(cfg, n) > kMaxWorkspaceFloats ? too_big.c_str() : nullptr;
}

const char* validate(const ModelConfig& cfg, const EvalOptions& eval) {
    if (eval.rope == RopeScaling::none) return nullptr;
    if (cfg.scheme != Scheme::rotary) return "ropeScaling applies to the rotary scheme only";
    static const std::string factor = "ropeScaling.factor must be a number from 1 to " + number_text(kMaxContextLength) +
                                      ", or left out for max(1, length / context)";
    if (eval.factor_from_length) return nullptr;
    if (!std::isfinite(eval.factor) || eval.factor < 1.0 || eval.factor > kMaxContextLength) return factor.c_str();
    return nullptr;
}

Transformer::Transformer(const ModelConfig& cfg)
    : cfg_(settled(cfg)), specs_(parameter_specs(cfg_)), offsets_(tensor_offsets(cfg_)) {
    params_.assign(model::parameter_count(cfg_), 0.0f);
    init();
}

Transformer::Transformer(const ModelConfig& cfg, std::vector<float>&& params)
    : cfg_(settled(cfg)), specs_(parameter_specs(cfg_)), offsets_(tensor_offsets(cfg_)), params_(std::move(params)) {}

std::size_t Transformer::training_floats(bool optimizer) const {
    const std::size_t count = params_.size();
    return (grads_.empty() ? count : 0) + (optimizer && m_.empty() ? 2 * count : 0);
}

void Transformer::init() {
    cache_.forget();
    const double sigma = 0.02, residual_sigma = 0.02 / std::sqrt(2.0 * static_cast<double>(cfg_.layers));
    for (std::size_t i = 0; i < specs_.size(); ++i) {
        const TensorSpec& s = specs_[i];
        float* at = params_.data() + s.offset;
        if (s.init == Init::ones || s.init == Init::zeros) {
            std::fill(at, at + s.size(), s.init == Init::ones ? 1.0f : 0.0f);
        } else {
            // One seeded stream per tensor, so a tensor's values do not depend on the ones before it.
            const std::uint64_t seed = cfg_.seed ^ (0x9E3779B97F4A7C15ull * (i + 1));
            gaussian_matrix(seed, s.rows, s.cols, s.init == Init::residual ? residual_sigma : sigma, at);
        }
    }
    reset_optimizer();
}

const char* Transformer::set_parameters(const float* values, std::size_t count) {
    if (count != params_.size()) return "weights must hold exactly the model's parameter count";
    for (std::size_t i = 0; i < count; ++i)
        if (!std::isfinite(values[i])) return "weights must be finite numbers";
    std::copy(values, values + count, params_.begin());
    cache_.forget();
    reset_optimizer();
    return nullptr;
}

void Transformer::reset_optimizer() {
    std::fill(m_.begin(), m_.end(), 0.0f);
    std::fill(v_.begin(), v_.end(), 0.0f);
    step_ = 0;
}

double Transformer::loss(const std::int32_t* tokens, std::size_t B, std::size_t T, const std::uint8_t* mask,
                         const EvalOptions& eval) {
    prepare_workspace(cfg_, B, T, false, eval, ws_);
    return run_pass<float>(cfg_, offsets_, params_.data(), tokens, T + 1, true, mask, ws_, nullptr, nullptr);
}

void Transformer::set_parallel(std::size_t shards, ParallelFor run) {
    shards_ = std::max<std::size_t>(1, shards);
    run_ = std::move(run);
    shard_ws_.resize(shards_);
    shard_grads_.assign(shards_, std::vector<float>(shards_ > 1 ? params_.size() : 0));
    shard_loss_.assign(shards_, 0.0);
    shard_count_.assign(shards_, 0.0);
}

double Transformer::sharded_gradients(const std::int32_t* tokens, std::size_t B, std::size_t T,
                                      const std::uint8_t* mask) {
    const std::size_t S = std::min(shards_, B);
    run_(S, [&](std::size_t s) {
        const std::size_t first = B * s / S, rows = B * (s + 1) / S - first;
        const std::uint8_t* part_mask = mask ? mask + first * T : nullptr;
        prepare_workspace(cfg_, rows, T, true, EvalOptions{}, shard_ws_[s]);
        std::fill(shard_grads_[s].begin(), shard_grads_[s].end(), 0.0f);
        shard_count_[s] = static_cast<double>(counted_targets(part_mask, rows * T));
        shard_loss_[s] = shard_count_[s] == 0 ? 0.0
            : run_pass<float>(cfg_, offsets_, params_.data(), tokens + first * (T + 1), T + 1, true, part_mask,
                              shard_ws_[s], shard_grads_[s].data(), nullptr);
    });
    double total = 0;
    for (std::size_t s = 0; s < S; ++s) total += shard_count_[s];
    grads_.assign(params_.size(), 0.0f);
    double loss = 0;
    for (std::size_t s = 0; s < S; ++s) {  // part order: the bits do not depend on the threads' timing
        if (shard_count_[s] == 0) continue;
        const double w = shard_count_[s] / total;
        loss += w * shard_loss_[s];
        const float wf = static_cast<float>(w);
        const float* g = shard_grads_[s].data();
        for (std::size_t i = 0; i < grads_.size(); ++i) grads_[i] += wf * g[i];
    }
    return loss;
}

double Transformer::gradients(const std::int32_t* tokens, std::size_t B, std::size_t T, const std::uint8_t* mask) {
    // No counted target anywhere: the plain pass says what the loss of nothing is.
    if (shards_ > 1 && B > 1 && counted_targets(mask, B * T) > 0) return sharded_gradients(tokens, B, T, mask);
    prepare_workspace(cfg_, B, T, true, EvalOptions{}, ws_);
    grads_.assign(params_.size(), 0.0f);
    return run_pass<float>(cfg_, offsets_, params_.data(), tokens, T + 1, true, mask, ws_, grads_.data(), nullptr);
}

double Transformer::train_step(const std::int32_t* tokens, std::size_t B, std::size_t T, const std::uint8_t* mask,
                               const AdamWOptions& options) {
    const double before = gradients(tokens, B, T, mask);
    // A frozen wte's gradient stays reported but, as in PyTorch, counts in no norm and no update.
    const std::size_t trained = trained_offset(specs_);
    const double norm = clip_gradients(grads_.data() + trained, grads_.size() - trained, options.clip);
    // A diverged step (NaN or infinite loss or gradient) would make every weight NaN for good:
    // it is not applied, and t stays, so the caller sees steps() unchanged and can stop or retry.
    if (!std::isfinite(before) || !std::isfinite(norm)) return before;
    ++step_;
    cache_.forget();
    if (m_.empty()) {  // first step since construction: AdamW's moments start at zero
        m_.assign(params_.size(), 0.0f);
        v_.assign(params_.size(), 0.0f);
    }
    adamw_update(specs_, params_.data(), grads_.data(), m_.data(), v_.data(), step_, options);
    return before;
}

void Transformer::attention(const std::int32_t* tokens, std::size_t n, float* out, const EvalOptions& eval) {
    prepare_workspace(cfg_, 1, n, false, eval, ws_);
    forward_blocks<float>(cfg_, offsets_, params_.data(), tokens, n, ws_, out);
}

void Transformer::inspect(const std::int32_t* tokens, std::size_t n, float* attention_out, float* surprise_out,
                          const EvalOptions& eval, std::size_t map, std::size_t from_row) {
    prepare_row_workspace(cfg_, n, eval, ws_);
    inspect_pass(cfg_, offsets_, params_.data(), tokens, n, eval, ws_, cache_, attention_out, surprise_out, map, from_row);
}

void Transformer::logits(const std::int32_t* tokens, std::size_t n, float* out, const EvalOptions& eval) {
    prepare_workspace(cfg_, 1, n, false, eval, ws_);
    run_pass<float>(cfg_, offsets_, params_.data(), tokens, n, false, nullptr, ws_, nullptr, nullptr);
    std::copy_n(ws_.data(Act::logits), n * cfg_.vocab, out);
}

}  // namespace posenc::model
