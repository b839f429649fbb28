// Shared by the [model] suites: the trainable schemes, small configurations per scheme, seeded
// batches and parameters.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "vectors/embedding.hpp"
#include "model/config.hpp"
#include "model/transformer.hpp"

namespace posenc::test {

inline constexpr Scheme kTrainableSchemeList[] = {Scheme::nope,   Scheme::additive, Scheme::learned, Scheme::concatenated,
                                                  Scheme::rotary, Scheme::alibi,    Scheme::t5};

// V 11, d 8, L 2, h 2 (d_h 4), T 5; dPos 2 for concatenated; the other fields at their defaults.
inline model::ModelConfig small_model_config(Scheme scheme) {
    model::ModelConfig cfg;
    cfg.scheme = scheme;
    cfg.vocab = 11;
    cfg.d = 8;
    cfg.layers = 2;
    cfg.heads = 2;
    cfg.context = 5;
    if (scheme == Scheme::concatenated) cfg.d_pos = 2;
    return cfg;
}

// The eight trainable variants: the seven schemes, rotary with both pairings.
struct Variant {
    Scheme scheme;
    Layout pairing;
    const char* name;
};
inline constexpr Variant kVariants[] = {
    {Scheme::nope, Layout::interleaved, "nope"},
    {Scheme::additive, Layout::interleaved, "additive"},
    {Scheme::learned, Layout::interleaved, "learned"},
    {Scheme::concatenated, Layout::interleaved, "concatenated"},
    {Scheme::rotary, Layout::interleaved, "rotary interleaved"},
    {Scheme::rotary, Layout::half, "rotary half"},
    {Scheme::alibi, Layout::interleaved, "alibi"},
    {Scheme::t5, Layout::interleaved, "t5"},
};

inline model::ModelConfig variant_config(const Variant& v, std::size_t vocab, std::size_t d, std::size_t layers,
                                         std::size_t heads, std::size_t context, std::uint64_t seed = 7) {
    model::ModelConfig cfg;
    cfg.scheme = v.scheme;
    cfg.pairing = v.pairing;
    cfg.vocab = vocab;
    cfg.d = d;
    cfg.layers = layers;
    cfg.heads = heads;
    cfg.context = context;
    cfg.seed = seed;
    if (v.scheme == Scheme::concatenated) cfg.d_pos = 2;
    if (v.scheme == Scheme::t5) {
        cfg.t5_buckets = 6;  // 3 exact distances, 3 logarithmic buckets up to distance 8: n = 17 uses all
        cfg.t5_max_distance = 8;
    }
    return cfg;
}

// Seeded ids in [0, vocab).
inline std::vector<std::int32_t> random_tokens(std::size_t count, std::size_t vocab, std::uint64_t seed) {
    std::vector<float> u(count);
    uniform_values(seed, count, 1.0f, u.data());
    std::vector<std::int32_t> out(count);
    for (std::size_t i = 0; i < count; ++i)
        out[i] = static_cast<std::int32_t>((u[i] * 0.5f + 0.5f) * static_cast<float>(vocab)) % static_cast<std::int32_t>(vocab);
    return out;
}

// Parameters far from the initialisation (every entry moved by up to ±scale, LayerNorm weights
// around 1), so every path carries a gradient of ordinary size.
inline void perturb(model::Transformer& m, float scale, std::uint64_t seed) {
    std::vector<float> noise(m.parameter_count());
    uniform_values(seed, noise.size(), scale, noise.data());
    for (std::size_t i = 0; i < noise.size(); ++i) m.parameters()[i] += noise[i];
}

}  // namespace posenc::test
