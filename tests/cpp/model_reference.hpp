// Float64 reference of the trainable model for the tests: the same forward/backward templates
// (model/forward_backward.hpp) instantiated with double, plus a float64 AdamW written straight
// from docs/ARCHITECTURE.md. Never linked into the shipped cores.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "model/adamw.hpp"
#include "model/forward_backward.hpp"

namespace posenc::test {

class ReferenceModel {
public:
    explicit ReferenceModel(const model::ModelConfig& cfg);
    const model::ModelConfig& config() const { return cfg_; }
    // Mean masked loss of B rows of T + 1 tokens; grads (resized, zeroed) gets the gradient when non-null.
    double loss(const std::vector<double>& params, const std::int32_t* tokens, std::size_t B, std::size_t T,
                const std::uint8_t* mask, std::vector<double>* grads, const model::EvalOptions& eval = {});
    // Attention weights (L·h·n·n) and logits (n·V) of one sequence.
    void evaluate(const std::vector<double>& params, const std::int32_t* tokens, std::size_t n,
                  std::vector<double>& attention, std::vector<double>& logits, const model::EvalOptions& eval = {});

private:
    model::ModelConfig cfg_;
    model::TensorOffsets at_;
    model::Workspace<double> ws_;
};

std::vector<double> to_double(const float* values, std::size_t count);

// docs/ARCHITECTURE.md's clip and AdamW ("Training step") in double, state in double.
struct ReferenceAdamW {
    std::vector<double> m, v;
    std::uint64_t t = 0;
    void step(const std::vector<model::TensorSpec>& specs, std::vector<double>& params, std::vector<double> grads,
              const model::AdamWOptions& o);
};

}  // namespace posenc::test
