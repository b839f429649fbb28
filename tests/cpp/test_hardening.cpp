// Regression tests for what the fuzzers (fuzz/) found in the kernels; the sanitizer layer of
// ./scripts/test (ASan + UBSan) is what turns a reintroduced bug here into a failure.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <vector>

#include "analysis/analyses.hpp"
#include "attention/attention.hpp"
#include "compare/compare.hpp"

// fuzz_compare, UBSan: a finite but huge alpha (3e38) makes α·E infinite, the logits NaN or ∞,
// and exp_nonpositive's scalar tail then shifted an out-of-range int left by 23 (undefined).
// The shift now wraps like the SIMD one.
TEST_CASE("softmax and compare: non-finite logits run without undefined behaviour", "[hardening][fuzz]") {
    const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
    for (std::size_t n_k : {std::size_t{3}, std::size_t{5}, std::size_t{9}}) {
        std::vector<float> scores(2 * n_k, 1.0f), weights(2 * n_k);
        scores[0] = inf;
        scores[1] = nan;
        scores[n_k] = -inf;
        scores[2 * n_k - 1] = inf;
        posenc::softmax_rows(scores.data(), 2, n_k, false, weights.data());
        posenc::softmax_rows(scores.data(), 2, n_k, true, weights.data());
    }
    posenc::CompareConfig cfg;
    cfg.n = 3;
    cfg.d = 44;
    cfg.d_pos = 4;
    cfg.alpha = 3e38f;
    REQUIRE(posenc::validate(cfg) == nullptr);
    const std::vector<float> embeddings(cfg.n * cfg.d, 2.0f);
    posenc::CompareResult result;
    posenc::compare(cfg, embeddings.data(), result);
    // Whether the weights come out finite depends on how softmax treats infinite logits; the
    // bindings turn non-finite weights into an error. What matters here is no UB under UBSan.
    CHECK(result.additive.weights.size() == cfg.n * cfg.n);
}

// fuzz_vectors: the query norm was a float dot product divided out afterwards, so queries of
// tiny components (squares below FLT_MIN) gave cosines far beyond 1, and huge ones gave 0.
TEST_CASE("top_k_by_cosine and nearest_by_cosine: tiny and huge queries give cosines within ±1", "[hardening][fuzz]") {
    const std::size_t v = 3, d = 4;
    const std::vector<float> rows = {1, 0, 0, 0, 0, 1, 0, 0, 1, 1, 1, 1};
    std::vector<float> unit(v * d);
    posenc::normalize_rows(rows.data(), v, d, unit.data());
    for (float magnitude : {1e-30f, 1e-42f, 1.0f, 1e30f, 3e38f}) {
        CAPTURE(magnitude);
        const std::vector<float> query = {magnitude, 0.5f * magnitude, 0.0f, 0.0f};
        std::uint32_t top[3];
        float cosines[3];
        REQUIRE(posenc::top_k_by_cosine(query.data(), unit.data(), v, d, 3, v, top, cosines) == 3);
        CHECK(top[0] == 0);
        CHECK(cosines[0] == Approx(2.0 / std::sqrt(5.0)).epsilon(1e-5));
        for (float c : cosines) CHECK(std::fabs(c) <= 1.0f + 1e-6f);
        std::uint32_t best, rank, truth = 2;
        float cosine;
        posenc::nearest_by_cosine(query.data(), 1, unit.data(), v, d, &truth, &best, &cosine, &rank);
        CHECK(best == 0);
        CHECK(cosine == Approx(2.0 / std::sqrt(5.0)).epsilon(1e-5));
        CHECK(rank == 2);
    }
}
