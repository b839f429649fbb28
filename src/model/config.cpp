#include "model/config.hpp"

#include <algorithm>
#include <cmath>

#include "scheme_table.hpp"
#include "schemes.hpp"

namespace posenc::model {

namespace {

bool is_even(std::size_t v) { return v % 2 == 0; }

}  // namespace

const char* trainable_scheme_name(Scheme s) {
    return has(kTrainableSchemes, s) ? scheme_info(s).name : nullptr;
}

bool trainable_scheme_from_name(std::string_view name, Scheme& out) {
    for (const SchemeInfo& info : kSchemeTable)
        if (info.trainable && name == info.name) return out = info.id, true;
    return false;
}

const char* validate(const ModelConfig& cfg) {
    if (!has(kTrainableSchemes, cfg.scheme))
        return "scheme must be one of nope, additive, learned, concatenated, rotary, alibi, t5";
    if (cfg.vocab < 2 || cfg.vocab > kMaxVocab) return "vocab must be an integer from 2 to 65536";
    if (cfg.d < 2 || cfg.d > kMaxWidth) return "d must be an integer from 2 to 1024";
    if (cfg.layers < 1 || cfg.layers > kMaxLayers) return "layers must be an integer from 1 to 16";
    if (cfg.heads < 1 || cfg.heads > kMaxHeads) return "heads must be an integer from 1 to 64";
    if (cfg.d % cfg.heads != 0) return "heads must divide d";
    if (!is_even(cfg.d / cfg.heads)) return "heads must leave an even head width d/heads";
    if (cfg.context < 1 || cfg.context > kMaxContext) return "context must be an integer from 1 to 4096";
    if (cfg.scheme == Scheme::concatenated) {
        if (cfg.d_pos < 2 || cfg.d_pos > cfg.d - 2 || cfg.d_pos % 2 != 0)  // d ≥ 2 here: no wrap
            return "dPos must be an even integer from 2 to d − 2 for the concatenated scheme";
    } else if (cfg.d_pos != 0) {
        return "dPos applies to the concatenated scheme only";
    }
    if (!(cfg.base > 1.0) || !(cfg.base <= 1e12)) return "base must be a number above 1 and at most 1e12";
    if (cfg.pairing != Layout::interleaved && cfg.pairing != Layout::half)
        return "pairing must be 'interleaved' or 'half'";
    if (!std::isfinite(cfg.alpha) || !(cfg.alpha > 0.0f) || cfg.alpha > 1e6f)
        return "alpha must be a number above 0 and at most 1e6";
    if (cfg.scheme == Scheme::t5 && (cfg.t5_buckets != 0 || cfg.t5_max_distance != 0)) {
        const ModelConfig s = settled(cfg);  // 0 = derived; the derived values always pass
        // The scheme table's limits, with causal buckets (a model is always causal).
        if (const char* e = check_param(Param::t5_buckets, s.t5_buckets)) return e;
        if (const char* e = check_param(Param::t5_max_distance, s.t5_max_distance)) return e;
        if (s.t5_max_distance < t5_min_max_distance(s.t5_buckets, true))
            return "t5MaxDistance must exceed the exact buckets (t5Buckets/2 for a causal model)";
    }
    if (parameter_count(cfg) > kMaxParameters) return "the model has more than 2^24 parameters: reduce vocab, d or layers";
    return nullptr;
}

int t5_buckets_reached(std::size_t context, int buckets, int max_distance) {
    std::vector<bool> seen(static_cast<std::size_t>(buckets), false);
    for (std::size_t k = 0; k < context; ++k)
        seen[static_cast<std::size_t>(t5_bucket(-static_cast<std::int64_t>(k), false, buckets, max_distance))] = true;
    return static_cast<int>(std::count(seen.begin(), seen.end(), true));
}

T5Settings t5_defaults(std::size_t context, int given_buckets) {
    constexpr int kMostBuckets = 32;  // T5's count
    constexpr int kFewestBuckets = 4; // the scheme table's least
    const int longest = static_cast<int>(std::min<std::size_t>(context, kMaxContext));
    const auto distance_for = [&](int buckets) { return std::max(longest, t5_min_max_distance(buckets, true)); };
    if (given_buckets != 0) return {given_buckets, distance_for(given_buckets)};
    for (int buckets = kMostBuckets; buckets > kFewestBuckets; buckets -= 2)
        if (t5_buckets_reached(context, buckets, distance_for(buckets)) == buckets) return {buckets, distance_for(buckets)};
    return {kFewestBuckets, distance_for(kFewestBuckets)};
}

ModelConfig settled(ModelConfig cfg) {
    if (cfg.scheme != Scheme::t5) {
        if (cfg.t5_buckets == 0) cfg.t5_buckets = 32;
        if (cfg.t5_max_distance == 0) cfg.t5_max_distance = 128;
        return cfg;
    }
    const T5Settings derived = t5_defaults(cfg.context, cfg.t5_buckets);
    if (cfg.t5_buckets == 0) cfg.t5_buckets = derived.buckets;
    if (cfg.t5_max_distance == 0) cfg.t5_max_distance = derived.max_distance;
    return cfg;
}

std::vector<TensorSpec> parameter_specs(const ModelConfig& cfg) {
    std::vector<TensorSpec> specs;
    std::size_t offset = 0;
    auto add = [&](std::string name, std::size_t rows, std::size_t cols) {
        specs.push_back({std::move(name), rows, cols, offset});
        offset += specs.back().size();
    };
    const std::size_t d = cfg.d;
    add("wte.weight", cfg.vocab, cfg.scheme == Scheme::concatenated ? d - cfg.d_pos : d);
    specs.back().frozen = cfg.frozen_embedding;
    if (cfg.scheme == Scheme::learned) add("wpe.weight", cfg.context, d);
    if (cfg.scheme == Scheme::t5) add("t5_bias.weight", static_cast<std::size_t>(settled(cfg).t5_buckets), cfg.heads);
    for (std::size_t l = 0; l < cfg.layers; ++l) {
        const std::string p = "h." + std::to_string(l) + ".";
        add(p + "ln_1.weight", d, 0);
        add(p + "ln_1.bias", d, 0);
        add(p + "attn.c_attn.weight", 3 * d, d);
        add(p + "attn.c_attn.bias", 3 * d, 0);
        add(p + "attn.c_proj.weight", d, d);
        add(p + "attn.c_proj.bias", d, 0);
        add(p + "ln_2.weight", d, 0);
        add(p + "ln_2.bias", d, 0);
        add(p + "mlp.c_fc.weight", 4 * d, d);
        add(p + "mlp.c_fc.bias", 4 * d, 0);
        add(p + "mlp.c_proj.weight", d, 4 * d);
        add(p + "mlp.c_proj.bias", d, 0);
    }
    add("ln_f.weight", d, 0);
    add("ln_f.bias", d, 0);
    add("lm_head.weight", cfg.vocab, d);
    return specs;
}

std::size_t trained_offset(const std::vector<TensorSpec>& specs) {
    return !specs.empty() && specs.front().frozen ? specs.front().size() : 0;
}

std::size_t parameter_count(const ModelConfig& cfg) {
    // Computed without building the specs, so validate() can bound it before any allocation.
    const std::size_t d = cfg.d;
    const std::size_t wte_cols = cfg.scheme == Scheme::concatenated && cfg.d_pos < d ? d - cfg.d_pos : d;
    std::size_t count = cfg.vocab * wte_cols + cfg.vocab * d + 2 * d;
    if (cfg.scheme == Scheme::learned) count += cfg.context * d;
    if (cfg.scheme == Scheme::t5) {
        const int buckets = cfg.t5_buckets != 0 ? cfg.t5_buckets : settled(cfg).t5_buckets;
        if (buckets > 0) count += static_cast<std::size_t>(buckets) * cfg.heads;
    }
    const std::size_t per_layer = 4 * d + (3 * d * d + 3 * d) + (d * d + d) + (4 * d * d + 4 * d) + (4 * d * d + d);
    return count + cfg.layers * per_layer;
}

}  // namespace posenc::model
