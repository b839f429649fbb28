// The next token from one position's logits, for generating text from a trained model: the argmax
// at temperature 0, else a seeded draw from softmax(logits / temperature).
//
// Shapes: logits — V floats (the scores of the V tokens at one position), V ≥ 1.
// Invariant: the exponentials are taken relative to the maximum, so none overflows and the sum is
// at least 1 (the maximum's own term), whatever the temperature above 0.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>

#include "base/splitmix.hpp"

namespace posenc::model {

inline std::size_t sample_token(const float* logits, std::size_t V, double temperature, SplitMix64& rng) {
    const std::size_t best = static_cast<std::size_t>(std::max_element(logits, logits + V) - logits);
    if (temperature == 0) return best;
    double total = 0;
    for (std::size_t i = 0; i < V; ++i) total += std::exp((logits[i] - logits[best]) / temperature);
    double pick = rng.uniform_open_zero() * total;
    for (std::size_t i = 0; i < V; ++i) {
        pick -= std::exp((logits[i] - logits[best]) / temperature);
        if (pick <= 0) return i;
    }
    return best;  // rounding left a sliver of `pick`: the likeliest token takes it
}

}  // namespace posenc::model
