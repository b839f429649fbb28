// T5's buckets at the training length (model/config.hpp, t5_defaults): with the derived settings
// every bucket of t5_bias receives a gradient from one batch at T, so none stays at its initial 0
// for the distances past T that fall into it.
#include <catch2/catch.hpp>

#include <cstddef>
#include <vector>

#include "model/config.hpp"
#include "model/transformer.hpp"
#include "model_test_support.hpp"

namespace {
using posenc::Scheme;
using namespace posenc::model;

// Buckets whose rows of t5_bias's gradient are all zero after one gradient pass on B rows of T.
// Parameters perturbed so every path carries a gradient of ordinary size.
std::vector<int> untrained_buckets(ModelConfig cfg, std::size_t T) {
    cfg.scheme = Scheme::t5;
    cfg.vocab = 11;
    cfg.d = 8;
    cfg.layers = 1;
    cfg.heads = 2;
    cfg.context = T;
    Transformer m(cfg);
    posenc::test::perturb(m, 0.3f, 5);
    const std::size_t B = 2;
    const std::vector<std::int32_t> tokens = posenc::test::random_tokens(B * (T + 1), cfg.vocab, 9);
    m.gradients(tokens.data(), B, T, nullptr);
    const TensorSpec* bias = nullptr;
    for (const TensorSpec& s : m.specs()) if (s.name == "t5_bias.weight") bias = &s;
    REQUIRE(bias != nullptr);
    std::vector<int> zero;
    for (std::size_t b = 0; b < bias->rows; ++b) {
        bool any = false;
        for (std::size_t h = 0; h < bias->cols; ++h) any = any || m.gradient_buffer()[bias->offset + b * bias->cols + h] != 0.0f;
        if (!any) zero.push_back(static_cast<int>(b));
    }
    return zero;
}

}  // namespace

TEST_CASE("t5_defaults: the rule's values at this lab's lengths", "[model][config][t5]") {
    // T = 32 cannot reach 32 buckets at any max distance (the first logarithmic buckets are
    // narrower than one distance); 30 is the most it reaches, at max distance 32.
    CHECK(t5_defaults(32).buckets == 30);
    CHECK(t5_defaults(32).max_distance == 32);
    CHECK(t5_buckets_reached(32, 32, 128) == 22);  // the old default: buckets 22–31 unreached
    for (int distance = 17; distance <= 600; ++distance) CHECK(t5_buckets_reached(32, 32, distance) < 32);
    CHECK(t5_defaults(64).buckets == 32);
    CHECK(t5_defaults(64).max_distance == 64);
    CHECK(t5_defaults(512).buckets == 32);  // T5's own length: 32 buckets as in the paper
    CHECK(t5_defaults(2).buckets == 4);     // too short for any count: the least, still valid
    CHECK(t5_defaults(32, 8).max_distance == 32);
    CHECK(t5_defaults(4, 16).max_distance == 9);  // at least buckets/2 + 1 (t5_bucket's precondition)
}

TEST_CASE("derived T5 settings: every bucket gets a gradient at the training length", "[model][t5]") {
    for (std::size_t T : {8u, 16u, 32u, 48u, 64u}) {
        CAPTURE(T);
        const ModelConfig cfg = settled([&] { ModelConfig c; c.scheme = Scheme::t5; c.context = T; return c; }());
        CHECK(t5_buckets_reached(T, cfg.t5_buckets, cfg.t5_max_distance) == cfg.t5_buckets);
        CHECK(untrained_buckets(ModelConfig{}, T).empty());
    }
    // The control: T5's 512-token settings at T = 32 leave buckets 22–31 without a gradient, so
    // the check above can fail.
    ModelConfig old;
    old.t5_buckets = 32;
    old.t5_max_distance = 128;
    const std::vector<int> zero = untrained_buckets(old, 32);
    REQUIRE(zero.size() == 10);
    CHECK(zero.front() == 22);
    CHECK(zero.back() == 31);
}

TEST_CASE("settled: a stated T5 setting is kept, other schemes keep the file's old numbers", "[model][config][t5]") {
    ModelConfig cfg;
    cfg.scheme = Scheme::t5;
    cfg.context = 32;
    cfg.t5_buckets = 32;
    cfg.t5_max_distance = 128;
    CHECK(settled(cfg).t5_buckets == 32);
    CHECK(settled(cfg).t5_max_distance == 128);
    cfg.scheme = Scheme::rotary;
    cfg.t5_buckets = 0;
    cfg.t5_max_distance = 0;
    CHECK(settled(cfg).t5_buckets == 32);
    CHECK(settled(cfg).t5_max_distance == 128);
}
