// A trainable model of docs/ARCHITECTURE.md ("The trained model"): parameters, gradients, AdamW state and the
// activation workspace, with the operations of the JS contract (loss, gradients, trainStep,
// attention, logits).
//
// Shapes (V vocabulary, d width, L layers, h heads):
//   parameters, gradients, AdamW m and v — parameter_count(cfg) floats each, parameter_specs order
//   tokens (loss, gradients, train_step) — B rows of T + 1 ids: row b feeds [0, T), predicts [1, T]
//   mask — B·T bytes (1 where a target counts) or null (every target counts)
//   tokens (attention, logits, inspect) — n ids;  attention out — L·h·n·n;  logits out — n·V;
//   surprise out — n − 1 (entry p: −ln p(token p + 1 | tokens 0 … p))
// Every operation assumes inputs that passed the validate_* functions below (the bindings call
// them first); the workspace grows, if it must, before the pass, never inside it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "model/adamw.hpp"
#include "model/config.hpp"
#include "model/forward_backward.hpp"
#include "model/inspect.hpp"

namespace posenc::model {

inline constexpr std::size_t kMaxBatch = 1024;                      // B
inline constexpr std::size_t kMaxSequence = kMaxContext;            // T and n (evaluation may exceed context)
inline constexpr std::uint64_t kMaxWorkspaceFloats = std::uint64_t{1} << 26;  // 256 MiB of activations

// "<what> needs more than 2^26 floats of workspace: reduce <reduce>", from kMaxWorkspaceFloats.
std::string workspace_message(const char* what, const char* reduce);

// nullptr or a message naming the argument (tokens, B, T, mask, ropeScaling). token_count and
// mask_count are the lengths the caller holds (mask_count ignored when mask is null).
const char* validate_batch(const ModelConfig& cfg, const std::int32_t* tokens, std::size_t token_count, std::size_t B,
                           std::size_t T, const std::uint8_t* mask, std::size_t mask_count, bool training);
// The shape checks of validate_batch alone (B, T), for callers that have not made the batch yet.
const char* validate_shape(const ModelConfig& cfg, std::size_t B, std::size_t T, bool training);
// The same for attention/logits over one sequence of n ids.
const char* validate_sequence(const ModelConfig& cfg, const std::int32_t* tokens, std::size_t token_count,
                              std::size_t n);
// inspect's extra checks after validate_sequence: its cache of every layer's rows fits the limit,
// map is kEveryMap or names one of the L·h maps, and from_row names one of the n rows.
const char* validate_inspect(const ModelConfig& cfg, std::size_t n, std::size_t map, std::size_t from_row = 0);
// ropeScaling: rotary models only; factor finite in [1, kMaxContextLength], or factor_from_length.
const char* validate(const ModelConfig& cfg, const EvalOptions& eval);

class Transformer {
public:
    // cfg must pass validate(cfg); calls init(). The gradient and AdamW's m and v are allocated
    // by the first pass that needs them (training_floats), so a model only run for its attention
    // and logits holds its parameters alone.
    explicit Transformer(const ModelConfig& cfg);
    // The same with params taken over as they are, not copied or checked (a weights file's, read
    // by read_weights): the caller sees that they are parameter_count(cfg) floats in
    // parameter_specs order.
    Transformer(const ModelConfig& cfg, std::vector<float>&& params);

    const ModelConfig& config() const { return cfg_; }
    const std::vector<TensorSpec>& specs() const { return specs_; }
    std::size_t parameter_count() const { return params_.size(); }
    // The flat parameter buffer, writable (the weights file fills it in parameter_specs order).
    float* parameters() {
        cache_.forget();  // the caller may write: inspect's rows are stale
        return params_.data();
    }
    const float* parameters() const { return params_.data(); }
    // Copies a whole parameter buffer in (a weights file's tensors in parameter_specs order) and
    // resets the optimiser; nullptr, or a message when count differs from parameter_count() or a
    // value is not finite (nothing is changed then).
    const char* set_parameters(const float* values, std::size_t count);
    // The last gradients()'s or train_step()'s gradient (parameter layout); null before the first.
    const float* gradient_buffer() const { return grads_.data(); }
    // Floats the next gradients() (optimizer false) or train_step() (true) allocates first: the
    // gradient, and for a step also m and v; 0 once they are held.
    std::size_t training_floats(bool optimizer) const;
    std::uint64_t steps() const { return step_; }

    // Runs body(0 … count − 1), each index once, possibly at the same time; returns when all are
    // done. The caller's threads (cli/posenc_train.cpp): the core starts none, so wasm stays
    // single-threaded.
    using ParallelFor = std::function<void(std::size_t count, const std::function<void(std::size_t)>& body)>;
    // From now on every gradient pass splits its B rows into min(shards, B) contiguous parts of
    // ⌊B/shards⌋ or ⌈B/shards⌉ rows, runs them through `run`, each with its own workspace and
    // gradient buffer, and combines them in part order, weighted by their counted targets: the
    // same mean loss and gradient up to float rounding, and the same bits for the same shard
    // count whatever order the parts run in. shards 1 (the default) is the plain pass.
    void set_parallel(std::size_t shards, ParallelFor run);

    // Seeded initialisation (docs/ARCHITECTURE.md, "Output, loss and initialisation") and a fresh optimiser.
    void init();
    // AdamW's m, v and t back to zero.
    void reset_optimizer();

    double loss(const std::int32_t* tokens, std::size_t B, std::size_t T, const std::uint8_t* mask,
                const EvalOptions& eval = {});
    // Loss, and gradient_buffer() holds its gradient.
    double gradients(const std::int32_t* tokens, std::size_t B, std::size_t T, const std::uint8_t* mask);
    // gradients, clip, AdamW; returns the loss before the update. A step whose loss or gradient
    // norm is not finite (the run diverged) changes nothing but the gradient buffer: parameters,
    // m, v and steps() stay as they were.
    double train_step(const std::int32_t* tokens, std::size_t B, std::size_t T, const std::uint8_t* mask,
                      const AdamWOptions& options);
    // The blocks alone (no ln_f, no lm_head).
    void attention(const std::int32_t* tokens, std::size_t n, float* out, const EvalOptions& eval = {});
    // attention's weights (every map, or map = layer·h + head alone; each map's rows from_row … n − 1)
    // and the surprise at every position from one pass (inspect.hpp), rows before the first id that
    // differs from the previous inspect call reused. Either output nullable.
    void inspect(const std::int32_t* tokens, std::size_t n, float* attention_out, float* surprise_out,
                 const EvalOptions& eval = {}, std::size_t map = kEveryMap, std::size_t from_row = 0);
    void logits(const std::int32_t* tokens, std::size_t n, float* out, const EvalOptions& eval = {});

    // Floats the workspace holds now (capacity): constant across calls of the same or a smaller shape.
    std::size_t workspace_capacity() const { return ws_.capacity_floats(); }
    // The same for inspect's cache.
    std::size_t inspect_capacity() const { return cache_.capacity_floats(); }

private:
    ModelConfig cfg_;
    std::vector<TensorSpec> specs_;
    TensorOffsets offsets_;
    std::vector<float> params_, grads_, m_, v_;
    std::uint64_t step_ = 0;
    Workspace<float> ws_;
    PrefixCache cache_;  // forgotten whenever the parameters may change
    // set_parallel's parts: workspace, gradient (parameter layout), loss and counted targets each.
    std::size_t shards_ = 1;
    ParallelFor run_;
    std::vector<Workspace<float>> shard_ws_;
    std::vector<std::vector<float>> shard_grads_;
    std::vector<double> shard_loss_, shard_count_;

    double sharded_gradients(const std::int32_t* tokens, std::size_t B, std::size_t T, const std::uint8_t* mask);
};

}  // namespace posenc::model
