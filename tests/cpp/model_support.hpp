// Helpers shared by the trainable-model suites (model/): a small config that validates for every
// trainable scheme, and the list of those schemes.
#pragma once

#include "model/config.hpp"

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

}  // namespace posenc::test
