// The register-blocked kernels (attention.cpp's packed-key QKᵀ and two-row A·V, retrieval.cpp's
// cached identity retrieval) against straight float64 loops, on shapes that cross every block,
// tile and lane boundary: keys per tile depend on d (16384/d), so large d gives many tiles.
#include <catch2/catch.hpp>

#include "test_support.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "analysis/analyses.hpp"
#include "attention/attention.hpp"
#include "analysis/retrieval.hpp"
#include "encodings/sinusoidal.hpp"

namespace {

using posenc::test::random_values;

struct Shape {
    std::size_t n_q, n_k, d;
};
// Query blocks of 4, key blocks of 8, tiles of 16384/d keys (≥ 8, ≤ 256), column blocks of 16.
const Shape kShapes[] = {{1, 1, 1},   {3, 5, 2},    {4, 8, 4},     {5, 9, 3},    {7, 17, 64},
                         {13, 300, 64}, {9, 70, 1000}, {33, 65, 100}, {6, 41, 2050}, {64, 257, 128},
                         {2, 3, 17},  {17, 33, 36}};

}  // namespace

TEST_CASE("blocked attention_scores matches float64 on tile-crossing shapes", "[attention][blocked]") {
    // Tolerance: a float dot product of d terms with |q|, |k| ≤ 1 errs by ≤ d·2^-24·Σ|q_c k_c|
    // (sequential sum) ≤ d²·2^-24·scale; checked relative to that bound.
    for (const Shape& s : kShapes) {
        for (bool causal : {false, true}) {
            const auto q = random_values(s.n_q * s.d, 3 * s.n_q + s.d), k = random_values(s.n_k * s.d, 5 * s.n_k + s.d);
            const float scale = 0.37f;
            std::vector<float> got(s.n_q * s.n_k, 123.0f);
            posenc::attention_scores(q.data(), k.data(), s.n_q, s.n_k, s.d, scale, causal, got.data());
            const double bound = static_cast<double>(s.d) * s.d * 0x1p-24 * scale + 1e-7;
            for (std::size_t i = 0; i < s.n_q; ++i) {
                for (std::size_t j = 0; j < s.n_k; ++j) {
                    const float g = got[i * s.n_k + j];
                    if (causal && j > i) {
                        REQUIRE(g == -std::numeric_limits<float>::infinity());
                        continue;
                    }
                    double want = 0.0;
                    for (std::size_t c = 0; c < s.d; ++c) want += static_cast<double>(q[i * s.d + c]) * k[j * s.d + c];
                    INFO("n_q=" << s.n_q << " n_k=" << s.n_k << " d=" << s.d << " i=" << i << " j=" << j);
                    REQUIRE(std::fabs(g - scale * want) <= bound);
                }
            }
        }
    }
}

TEST_CASE("blocked weighted_sum matches float64 on odd shapes, causal pairs included", "[attention][blocked]") {
    // Tolerance: n_k products of weights in [0, 1) with |v| ≤ 1, summed in float: ≤ n_k²·2^-24.
    for (const Shape& s : kShapes) {
        if (s.d > 200) continue;
        for (bool causal : {false, true}) {
            const auto w = random_values(s.n_q * s.n_k, 7 * s.n_q + s.n_k, 0.5f);
            const auto v = random_values(s.n_k * s.d, 11 * s.n_k + s.d);
            std::vector<float> got(s.n_q * s.d, 99.0f);
            posenc::weighted_sum(w.data(), v.data(), s.n_q, s.n_k, s.d, causal, got.data());
            const double bound = static_cast<double>(s.n_k) * s.n_k * 0x1p-24 + 1e-7;
            for (std::size_t i = 0; i < s.n_q; ++i) {
                const std::size_t visible = causal ? std::min(i + 1, s.n_k) : s.n_k;
                for (std::size_t c = 0; c < s.d; ++c) {
                    double want = 0.0;
                    for (std::size_t j = 0; j < visible; ++j) want += static_cast<double>(w[i * s.n_k + j]) * v[j * s.d + c];
                    INFO("n_q=" << s.n_q << " n_k=" << s.n_k << " d=" << s.d << " i=" << i << " c=" << c);
                    REQUIRE(std::fabs(got[i * s.d + c] - want) <= bound);
                }
            }
        }
    }
}

TEST_CASE("decode_scores: argmax with ties to the lower row and nearest_by_cosine's rank rule", "[retrieval]") {
    // Hand case: scores 1, 3, 3, 2, 3 (alpha = 1, no position): best row 1; truth 2 ties row 1
    // (before it, counted) and row 4 (after it, not counted) → rank 2; truth 3 → rank 4.
    const float content[] = {1, 3, 3, 2, 3};
    posenc::Retrieved r = posenc::decode_scores(content, 1.0f, nullptr, 5, 2.0f, 2);
    REQUIRE(r.best == 1);
    REQUIRE(r.rank == 2);
    REQUIRE(r.cosine == 1.5f);
    REQUIRE(posenc::decode_scores(content, 1.0f, nullptr, 5, 2.0f, 3).rank == 4);
    REQUIRE(posenc::decode_scores(content, 1.0f, nullptr, 5, 2.0f, posenc::kNoTruth).rank == 0);
    // Every length through the lane tails, with a position row: compare to straight loops.
    for (std::size_t v = 1; v <= 40; ++v) {
        const auto c = random_values(v, v), p = random_values(v, 100 + v);
        for (std::uint32_t truth = 0; truth < v; truth += 3) {
            const posenc::Retrieved got = posenc::decode_scores(c.data(), 0.7f, p.data(), v, 1.0f, truth);
            std::uint32_t best = 0, better = 0;
            const float st = 0.7f * c[truth] + p[truth];
            for (std::uint32_t i = 0; i < v; ++i) {
                const float s = 0.7f * c[i] + p[i];
                if (s > 0.7f * c[best] + p[best]) best = i;
                better += s > st || (s == st && i < truth);
            }
            REQUIRE(got.best == best);
            REQUIRE(got.rank == better + 1);
        }
    }
}

TEST_CASE("IdentityRetriever agrees with brute-force nearest_by_cosine on additive and plain queries",
          "[retrieval]") {
    const std::size_t v = 517, d = 36, n = 23;
    const auto vocab = random_values(v * d, 42);
    std::vector<float> unit(v * d);
    posenc::normalize_rows(vocab.data(), v, d, unit.data());
    // Tokens: vocabulary rows (some repeated, so the cache is shared) scaled like GloVe (|e| ~ 3).
    std::vector<std::uint32_t> truth(n);
    std::vector<std::uint64_t> keys(n);
    std::vector<float> e(n * d);
    for (std::size_t p = 0; p < n; ++p) {
        truth[p] = static_cast<std::uint32_t>((p * 37) % 11 * 41 % v);
        keys[p] = truth[p];
        for (std::size_t j = 0; j < d; ++j) e[p * d + j] = vocab[truth[p] * d + j];
    }
    posenc::IdentityRetriever retriever;
    retriever.set_vocabulary(unit.data(), v, d);
    for (float alpha : {1.0f, 0.3f}) {
        for (bool additive : {true, false}) {
            for (int pass = 0; pass < 2; ++pass) {  // the second pass runs on warm caches
                std::vector<posenc::Retrieved> got(n);
                retriever.retrieve(e.data(), keys.data(), truth.data(), n, alpha, additive, 10000.0,
                                   posenc::Layout::interleaved, got.data());
                std::vector<float> x(n * d), pe(n * d);
                posenc::sinusoidal_table(n, d, 10000.0, posenc::Layout::interleaved, pe.data());
                for (std::size_t i = 0; i < n * d; ++i) x[i] = alpha * e[i] + (additive ? pe[i] : 0.0f);
                std::vector<std::uint32_t> best(n), rank(n);
                std::vector<float> cosine(n);
                posenc::nearest_by_cosine(x.data(), n, unit.data(), v, d, truth.data(), best.data(), cosine.data(),
                                          rank.data());
                for (std::size_t p = 0; p < n; ++p) {
                    INFO("alpha=" << alpha << " additive=" << additive << " p=" << p);
                    // Tolerance: the two forms round differently (~1e-6 in a cosine); rows that
                    // close may swap, so compare cosines and allow rank to move by near-ties.
                    REQUIRE(std::fabs(got[p].cosine - cosine[p]) <= 2e-6f);
                    if (got[p].best != best[p]) {
                        const float other = posenc::dot(x.data() + p * d, unit.data() + got[p].best * d, d) /
                                            std::sqrt(posenc::dot(x.data() + p * d, x.data() + p * d, d));
                        REQUIRE(std::fabs(other - cosine[p]) <= 2e-6f);
                    }
                    REQUIRE(std::abs(static_cast<long>(got[p].rank) - static_cast<long>(rank[p])) <= 2);
                }
            }
        }
    }
    REQUIRE(retriever.cached_tokens() == 11);
    REQUIRE(retriever.cached_positions() == n);
}
