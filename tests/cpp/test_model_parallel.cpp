// Transformer::set_parallel: the batch split into parts (the native trainer runs them on threads).
// The parts run here one after another, in forward and reverse order, since the wasm build of the
// suite has no threads; what is tested is the split and the fixed-order combination.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <vector>

#include "model/transformer.hpp"
#include "model_test_support.hpp"

namespace {
using namespace posenc::model;
using posenc::test::kVariants;

void forward_order(std::size_t count, const std::function<void(std::size_t)>& body) {
    for (std::size_t s = 0; s < count; ++s) body(s);
}
void reverse_order(std::size_t count, const std::function<void(std::size_t)>& body) {
    for (std::size_t s = count; s-- > 0;) body(s);
}

struct Pass {
    double loss;
    std::vector<float> grads;
};

Pass pass(const ModelConfig& cfg, std::size_t shards, const Transformer::ParallelFor& run, std::size_t B,
          std::size_t T, const std::vector<std::int32_t>& tokens, const std::uint8_t* mask) {
    Transformer m(cfg);
    posenc::test::perturb(m, 0.2f, 3);
    if (shards > 1) m.set_parallel(shards, run);
    const double loss = m.gradients(tokens.data(), B, T, mask);
    return {loss, std::vector<float>(m.gradient_buffer(), m.gradient_buffer() + m.parameter_count())};
}

}  // namespace

TEST_CASE("set_parallel: the split batch gives the plain gradient, the same bits in any part order", "[model][parallel]") {
    const std::size_t B = 7, T = 9;  // 7 rows over 2 and 3 parts: unequal parts
    for (const auto& variant : kVariants) {
        CAPTURE(variant.name);
        const ModelConfig cfg = posenc::test::variant_config(variant, 13, 8, 2, 2, T);
        const std::vector<std::int32_t> tokens = posenc::test::random_tokens(B * (T + 1), cfg.vocab, 17);
        // A mask counting unequal numbers of targets per row, so the parts' weights differ.
        std::vector<std::uint8_t> mask(B * T);
        for (std::size_t i = 0; i < mask.size(); ++i) mask[i] = (i % 3 != 0 && i / T != 2) ? 1 : 0;
        for (const std::uint8_t* m : {static_cast<const std::uint8_t*>(nullptr), static_cast<const std::uint8_t*>(mask.data())}) {
            const Pass plain = pass(cfg, 1, forward_order, B, T, tokens, m);
            for (std::size_t shards : {2u, 3u, 16u}) {
                CAPTURE(shards, m != nullptr);
                const Pass split = pass(cfg, shards, forward_order, B, T, tokens, m);
                const Pass reversed = pass(cfg, shards, reverse_order, B, T, tokens, m);
                CHECK(split.loss == reversed.loss);
                CHECK(split.grads == reversed.grads);
                // Float32 sums over other groupings of the rows: 1e-5 relative to the largest entry.
                CHECK(split.loss == Approx(plain.loss).epsilon(1e-6));
                float largest = 0;
                for (float g : plain.grads) largest = std::max(largest, std::abs(g));
                REQUIRE(largest > 0);
                for (std::size_t i = 0; i < plain.grads.size(); ++i)
                    REQUIRE(std::abs(split.grads[i] - plain.grads[i]) <= 1e-5f * largest);
            }
        }
    }
}

TEST_CASE("set_parallel: a part with no counted target adds nothing", "[model][parallel]") {
    const std::size_t B = 4, T = 5;
    const ModelConfig cfg = posenc::test::variant_config(kVariants[1], 11, 8, 1, 2, T);
    const std::vector<std::int32_t> tokens = posenc::test::random_tokens(B * (T + 1), cfg.vocab, 4);
    std::vector<std::uint8_t> mask(B * T, 0);
    for (std::size_t i = 2 * T; i < B * T; ++i) mask[i] = 1;  // rows 0 and 1 (part 0 of 2) count nothing
    const Pass plain = pass(cfg, 1, forward_order, B, T, tokens, mask.data());
    const Pass split = pass(cfg, 2, forward_order, B, T, tokens, mask.data());
    CHECK(std::isfinite(split.loss));
    CHECK(split.loss == Approx(plain.loss).epsilon(1e-6));
}
