#include "model/forward_backward.hpp"

#include <algorithm>

namespace posenc::model {

TensorOffsets tensor_offsets(const ModelConfig& cfg) {
    // parameter_specs fixes the order: wte, [wpe | t5_bias], 12 tensors per layer, ln_f, lm_head.
    const std::vector<TensorSpec> specs = parameter_specs(cfg);
    TensorOffsets at;
    std::size_t i = 0;
    at.wte = specs[i++].offset;
    if (cfg.scheme == Scheme::learned) at.wpe = specs[i++].offset;
    if (cfg.scheme == Scheme::t5) at.t5 = specs[i++].offset;
    for (std::size_t l = 0; l < cfg.layers; ++l) {
        TensorOffsets::Layer layer;
        for (std::size_t* field : {&layer.ln1_w, &layer.ln1_b, &layer.attn_w, &layer.attn_b, &layer.proj_w,
                                   &layer.proj_b, &layer.ln2_w, &layer.ln2_b, &layer.fc_w, &layer.fc_b,
                                   &layer.mlp_proj_w, &layer.mlp_proj_b})
            *field = specs[i++].offset;
        at.layers.push_back(layer);
    }
    at.lnf_w = specs[i++].offset;
    at.lnf_b = specs[i++].offset;
    at.head = specs[i++].offset;
    return at;
}

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
