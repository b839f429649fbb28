#include "model/config.hpp"

#include <algorithm>
#include <cmath>

#include "base/limits.hpp"
#include "base/names.hpp"
#include "encodings/scheme_table.hpp"
#include "encodings/schemes.hpp"

namespace posenc::model {

namespace {

bool is_even(std::size_t v) { return v % 2 == 0; }

// "<field> must be an integer from <lo> to <hi>", from the limits.
std::string integer_range(const char* field, std::size_t lo, std::size_t hi) {
    return std::string(field) + " must be an integer from " + std::to_string(lo) + " to " + std::to_string(hi);
}

}  // namespace

const char* trainable_scheme_name(Scheme s) {
    return has(kTrainableSchemes, s) ? scheme_info(s).name : nullptr;
}

const char* trainable_scheme_message() {
    static const std::string message = [] {
        std::string m = "scheme must be one of ";
        const char* separator = "";
        for (const SchemeInfo& info : kSchemeTable)
            if (info.trainable) m += separator + std::string(info.name), separator = ", ";
        return m;
    }();
    return message.c_str();
}

bool trainable_scheme_from_name(std::string_view name, Scheme& out) {
    for (const SchemeInfo& info : kSchemeTable)
        if (info.trainable && name == info.name) return out = info.id, true;
    return false;
}

const char* validate(const ModelConfig& cfg) {
    if (!has(kTrainableSchemes, cfg.scheme)) return trainable_scheme_message();
    static const std::string vocab = integer_range("vocab", 2, kMaxVocab), width = integer_range("d", 2, kMaxWidth),
                             layers = integer_range("layers", 1, kMaxLayers), heads = integer_range("heads", 1, kMaxHeads),
                             context = integer_range("context", 1, kMaxContext),
                             base = "base must be a number above 1 and at most " + number_text(limits::kMaxBase),
                             alpha = "alpha must be a number above 0 and at most " + number_text(limits::kMaxAlpha),
                             pairing = either_of("pairing", kLayoutNames),
                             position_scale = "positionScale must be a number above 0 and at most " + number_text(kMaxPositionScale),
                             word_pca = either_of("wordPca", kWordPcaNames),
                             too_big = "the model has more than 2^" + std::to_string(kMaxParametersLog2) +
                                       " parameters: reduce vocab, d or layers";
    if (cfg.vocab < 2 || cfg.vocab > kMaxVocab) return vocab.c_str();
    if (cfg.d < 2 || cfg.d > kMaxWidth) return width.c_str();
    if (cfg.layers < 1 || cfg.layers > kMaxLayers) return layers.c_str();
    if (cfg.heads < 1 || cfg.heads > kMaxHeads) return heads.c_str();
    if (cfg.d % cfg.heads != 0) return "heads must divide d";
    if (!is_even(cfg.d / cfg.heads)) return "heads must leave an even head width d/heads";
    if (cfg.context < 1 || cfg.context > kMaxContext) return context.c_str();
    if (cfg.scheme == Scheme::concatenated) {
        if (cfg.d_pos < 2 || cfg.d_pos > cfg.d - 2 || cfg.d_pos % 2 != 0)  // d ≥ 2 here: no wrap
            return "dPos must be an even integer from 2 to d − 2 for the concatenated scheme";
    } else if (cfg.d_pos != 0) {
        return "dPos applies to the concatenated scheme only";
    }
    if (!(cfg.base > limits::kMinBase) || !(cfg.base <= limits::kMaxBase)) return base.c_str();
    if (cfg.pairing != Layout::interleaved && cfg.pairing != Layout::half) return pairing.c_str();
    if (!std::isfinite(cfg.alpha) || !(cfg.alpha > 0.0f) || !(cfg.alpha <= limits::kMaxAlpha)) return alpha.c_str();
    if (!std::isfinite(cfg.position_scale) || !(cfg.position_scale > 0.0f) || !(cfg.position_scale <= kMaxPositionScale))
        return position_scale.c_str();
    if (cfg.position_scale != 1.0f && cfg.scheme != Scheme::additive && cfg.scheme != Scheme::concatenated)
        return "positionScale applies to the additive and concatenated schemes only";
    if (cfg.word_pca != WordPca::centred && cfg.word_pca != WordPca::uncentred) return word_pca.c_str();
    if (cfg.word_pca != WordPca::centred && cfg.scheme != Scheme::concatenated)
        return "wordPca applies to the concatenated scheme only";
    if (cfg.scheme == Scheme::t5 && (cfg.t5_buckets != 0 || cfg.t5_max_distance != 0)) {
        const ModelConfig s = settled(cfg);  // 0 = derived; the derived values always pass
        // The scheme table's limits, with causal buckets (a model is always causal).
        if (const char* e = check_param(Param::t5_buckets, s.t5_buckets)) return e;
        if (const char* e = check_param(Param::t5_max_distance, s.t5_max_distance)) return e;
        if (s.t5_max_distance < t5_min_max_distance(s.t5_buckets, true))
            return "t5MaxDistance must exceed the exact buckets (t5Buckets/2 for a causal model)";
    }
    if (parameter_count(cfg) > kMaxParameters) return too_big.c_str();
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

namespace {

// The size of a dimension rule. Guards keep parameter_count's bound meaningful on a config that
// has not passed every check (validate calls it last, but the guards cost nothing).
std::size_t size_of(const ModelConfig& cfg, Dim dim) {
    switch (dim) {
        case Dim::none: return 0;
        case Dim::d: return cfg.d;
        case Dim::d3: return 3 * cfg.d;
        case Dim::d4: return 4 * cfg.d;
        case Dim::vocab: return cfg.vocab;
        case Dim::context: return cfg.context;
        case Dim::wte_cols: return cfg.scheme == Scheme::concatenated && cfg.d_pos < cfg.d ? cfg.d - cfg.d_pos : cfg.d;
        case Dim::t5_buckets: {
            // 0 = derived from the context (settled); the derived count is positive.
            const int buckets = cfg.t5_buckets != 0 ? cfg.t5_buckets : settled(cfg).t5_buckets;
            return buckets > 0 ? static_cast<std::size_t>(buckets) : 0;
        }
        case Dim::heads: return cfg.heads;
    }
    return 0;
}

// visit(rule, layer, rows, cols) for every tensor of cfg in buffer order; layer is the block of a
// per-layer tensor (0 otherwise).
template <class Visit>
void for_each_tensor(const ModelConfig& cfg, Visit visit) {
    auto one = [&](const TensorRule& r, std::size_t layer) {
        if (has(r.schemes, cfg.scheme)) visit(r, layer, size_of(cfg, r.rows), size_of(cfg, r.cols));
    };
    std::size_t i = 0;
    for (; !kTensorTable[i].per_layer; ++i) one(kTensorTable[i], 0);
    const std::size_t first_layer_row = i;
    while (kTensorTable[i].per_layer) ++i;
    for (std::size_t l = 0; l < cfg.layers; ++l)
        for (std::size_t j = first_layer_row; j < i; ++j) one(kTensorTable[j], l);
    for (; i < kTensorCount; ++i) one(kTensorTable[i], 0);
}

std::size_t tensor_size(std::size_t rows, std::size_t cols) { return cols == 0 ? rows : rows * cols; }

}  // namespace

std::vector<TensorSpec> parameter_specs(const ModelConfig& cfg) {
    std::vector<TensorSpec> specs;
    std::size_t offset = 0;
    for_each_tensor(cfg, [&](const TensorRule& r, std::size_t layer, std::size_t rows, std::size_t cols) {
        std::string name = r.per_layer ? "h." + std::to_string(layer) + "." + r.name : std::string(r.name);
        specs.push_back({std::move(name), rows, cols, offset, r.freezable && cfg.frozen_embedding, r.init, r.id});
        offset += specs.back().size();
    });
    return specs;
}

std::size_t trained_offset(const std::vector<TensorSpec>& specs) {
    return !specs.empty() && specs.front().frozen ? specs.front().size() : 0;
}

std::size_t parameter_count(const ModelConfig& cfg) {
    // Without building the specs' names, so validate() can bound it before any allocation.
    std::size_t count = 0;
    for_each_tensor(cfg, [&](const TensorRule&, std::size_t, std::size_t rows, std::size_t cols) {
        count += tensor_size(rows, cols);
    });
    return count;
}

TensorOffsets tensor_offsets(const ModelConfig& cfg) {
    TensorOffsets offsets;
    offsets.layers.resize(cfg.layers);
    std::size_t offset = 0;
    for_each_tensor(cfg, [&](const TensorRule& r, std::size_t layer, std::size_t rows, std::size_t cols) {
        (r.per_layer ? offsets.layers[layer] : offsets.model).at[static_cast<std::size_t>(r.id)] = offset;
        offset += tensor_size(rows, cols);
    });
    return offsets;
}

}  // namespace posenc::model
