// sample_token (model/sampling.hpp): greedy at temperature 0, softmax(logits/temperature)
// frequencies otherwise, the same draws for the same seed.
#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstddef>

#include "model/sampling.hpp"

using posenc::SplitMix64;
using posenc::model::sample_token;

TEST_CASE("sample_token: temperature 0 is the argmax (the first of equal maxima)", "[model]") {
    SplitMix64 rng{1};
    const std::array<float, 5> logits{0.5f, 3.f, -2.f, 3.f, 1.f};
    for (int i = 0; i < 10; ++i) CHECK(sample_token(logits.data(), logits.size(), 0.0, rng) == 1);
    const float one = 7.f;
    CHECK(sample_token(&one, 1, 1.0, rng) == 0);
}

TEST_CASE("sample_token: draws follow softmax(logits / temperature)", "[model]") {
    const std::array<float, 4> logits{0.f, 1.f, 2.f, -1.f};
    for (const double temperature : {1.0, 0.5, 2.0}) {
        std::array<double, 4> p{};
        double sum = 0;
        for (std::size_t i = 0; i < 4; ++i) sum += p[i] = std::exp(logits[i] / temperature);
        SplitMix64 rng{42};
        std::array<int, 4> counts{};
        const int draws = 20000;
        for (int k = 0; k < draws; ++k) ++counts[sample_token(logits.data(), 4, temperature, rng)];
        for (std::size_t i = 0; i < 4; ++i) {
            // Binomial standard deviation √(p(1−p)/N) ≤ 0.0036 at N = 20,000: 0.015 is over 4σ.
            CHECK(std::abs(counts[i] / double(draws) - p[i] / sum) < 0.015);
        }
    }
}

TEST_CASE("sample_token: the same seed gives the same tokens; tiny temperatures stay finite", "[model]") {
    const std::array<float, 3> logits{1e30f, -1e30f, 0.f};
    SplitMix64 a{7}, b{7};
    for (int k = 0; k < 50; ++k) {
        const std::size_t x = sample_token(logits.data(), 3, 1.0, a);
        CHECK(x == sample_token(logits.data(), 3, 1.0, b));
        CHECK(x == 0);  // the others' weights underflow to 0 beside exp(0) = 1
    }
    SplitMix64 rng{3};
    CHECK(sample_token(logits.data(), 3, 1e-6, rng) == 0);
}
