#include "model/forward_backward.hpp"

#include <algorithm>

namespace posenc::model {

WorkspaceSizes workspace_sizes(const ModelConfig& cfg, std::uint64_t B, std::uint64_t T, bool training) {
    const std::uint64_t d = cfg.d, N = B * T, dh = cfg.d / cfg.heads;
    WorkspaceSizes s;
    s.slots = training ? cfg.layers : 1;
    s.stream = (training ? cfg.layers + 1 : 1) * N * d;
    s.per_slot_d = N * d;
    s.qkv = 3 * N * d;
    s.probs = B * cfg.heads * T * T;
    s.hidden = 4 * N * d;
    s.stats = 2 * N;
    s.logits = N * cfg.vocab;
    s.weight_t = std::max<std::uint64_t>(4 * d * d, cfg.vocab * d);
    s.head_t = dh * T;
    s.dprobs = training ? T * T : 0;
    s.grads_stream = training ? 3 * N * d + s.qkv + s.hidden : 0;  // d_stream, d_u, d_att; d_qkv; d_hidden
    return s;
}

}  // namespace posenc::model
