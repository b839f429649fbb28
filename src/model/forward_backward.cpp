#include "model/forward_backward.hpp"

#include <algorithm>

namespace posenc::model {

namespace {

// Floats of one copy under an ActSize rule.
std::uint64_t one_copy_floats(ActSize size, const ModelConfig& cfg, std::uint64_t B, std::uint64_t T) {
    const std::uint64_t d = cfg.d, N = B * T, dh = cfg.d / cfg.heads, V = cfg.vocab;
    switch (size) {
        case ActSize::nd: return N * d;
        case ActSize::nd3: return 3 * N * d;
        case ActSize::nd4: return 4 * N * d;
        case ActSize::stats: return 2 * N;
        case ActSize::probs: return B * cfg.heads * T * T;
        case ActSize::logits: return N * V;
        case ActSize::weight_t: return std::max<std::uint64_t>(4 * d * d, V * d);
        case ActSize::head_t: return dh * T;
        case ActSize::t2: break;
    }
    return T * T;
}

std::uint64_t copies(ActCopies copies, std::uint64_t layers, bool training) {
    switch (copies) {
        case ActCopies::pass: return 1;
        case ActCopies::slot: return training ? layers : 1;
        case ActCopies::stream: return training ? layers + 1 : 1;
        case ActCopies::training: break;
    }
    return training ? 1 : 0;
}

}  // namespace

WorkspaceSizes workspace_sizes(const ModelConfig& cfg, std::uint64_t B, std::uint64_t T, bool training) {
    WorkspaceSizes s;
    s.slots = training ? cfg.layers : 1;
    for (const ActivationRule& rule : kActivationTable) {
        const auto a = static_cast<std::size_t>(rule.id);
        s.one_copy[a] = one_copy_floats(rule.size, cfg, B, T);
        s.floats[a] = copies(rule.copies, cfg.layers, training) * s.one_copy[a];
    }
    return s;
}

std::uint64_t row_workspace_floats(const ModelConfig& cfg, std::uint64_t T) {
    return workspace_sizes(cfg, 1, T, false).floats[static_cast<std::size_t>(Act::head_t)];
}

}  // namespace posenc::model
