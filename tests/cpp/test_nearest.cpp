// analyses.hpp's cosine searches against float64 brute force: nearest_by_cosine (argmax, ties,
// ranks) and top_k_by_cosine (order, k = 0, ties by lower index).
#include <catch2/catch.hpp>

#include "analyses_support.hpp"
#include "test_support.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <vector>

#include "analysis/analyses.hpp"

using namespace posenc::test;  // random_values, verbose, and analyses_support.hpp's references

// ---- nearest_by_cosine ------------------------------------------------------------------------

TEST_CASE("nearest_by_cosine agrees with a float64 brute-force argmax and its ranks", "[analyses]") {
    // Float cosines carry ≤ (d + 8)·2^-24 error (see normalize_rows), so the float and float64
    // orders may only disagree between rows whose float64 cosines are that close: kTie.
    std::size_t disagreements = 0, queries_checked = 0;
    for (std::size_t v : {std::size_t{1}, std::size_t{3}, std::size_t{17}, std::size_t{100}}) {
        for (std::size_t d : kSizes) {
            const double kTie = 2.0 * (d + 8) * 0x1p-24;
            const std::size_t n = 7;
            const auto vocab = random_values(v * d, 1000 + 13 * v + d);
            const auto unit = unit_rows(vocab, v, d);
            // Queries: noisy copies of vocabulary rows plus pure noise.
            auto queries = random_values(n * d, 2000 + 13 * v + d, 0.3f);
            std::vector<std::uint32_t> truth(n);
            for (std::size_t i = 0; i < n; ++i) {
                truth[i] = static_cast<std::uint32_t>((i * 7 + 3) % v);
                if (i % 3 != 2)
                    for (std::size_t j = 0; j < d; ++j) queries[i * d + j] += vocab[truth[i] * d + j];
            }
            std::vector<std::uint32_t> best(n, 99999), rank(n, 99999);
            std::vector<float> cosine(n, 9.0f);
            posenc::nearest_by_cosine(queries.data(), n, unit.data(), v, d, truth.data(), best.data(), cosine.data(),
                                      rank.data());
            for (std::size_t i = 0; i < n; ++i) {
                const float* q = &queries[i * d];
                std::vector<double> c(v);
                for (std::size_t r = 0; r < v; ++r) c[r] = cosine64(q, &vocab[r * d], d);
                const std::size_t want = std::max_element(c.begin(), c.end()) - c.begin();  // first max
                CAPTURE(v, d, i, best[i], want, c[want], cosine[i]);
                REQUIRE(best[i] < v);
                if (c[best[i]] < c[want]) ++disagreements;  // float64 exact ties are not disagreements
                CHECK(c[best[i]] >= c[want] - kTie);
                CHECK(std::fabs(cosine[i] - c[best[i]]) <= kTie / 2);
                // Rank: rows clearly better than the truth must be counted, rows clearly worse not.
                const double ct = c[truth[i]];
                std::size_t surely = 0, maybe = 0;
                for (std::size_t r = 0; r < v; ++r) {
                    if (r == truth[i]) continue;
                    if (c[r] > ct + kTie) ++surely;
                    else if (c[r] >= ct - kTie) ++maybe;
                }
                CAPTURE(rank[i], surely, maybe);
                CHECK(rank[i] >= surely + 1);
                CHECK(rank[i] <= surely + maybe + 1);
                // Exactly: rank 1 ⇔ the truth is the decoded row (both use the same float cosines).
                CHECK((rank[i] == 1) == (best[i] == truth[i]));
                ++queries_checked;
            }
        }
    }
    if (verbose()) std::printf("  nearest_by_cosine: %zu of %zu argmaxes differ from float64 (near-ties)\n",
                               disagreements, queries_checked);
    CHECK(disagreements * 20 <= queries_checked);  // near-ties are rare, not the rule
}

TEST_CASE("nearest_by_cosine: exact hand cases for ties, zero queries and rank semantics", "[analyses]") {
    // d = 4, rows: e0, e1, e0 (duplicate of row 0), −e0, (e0 + e1) unnormalised, 0 (zero row).
    const std::size_t v = 6, d = 4;
    const std::vector<float> vocab = {1, 0, 0, 0,  0, 1, 0, 0,  1, 0, 0, 0,  -1, 0, 0, 0,  1, 1, 0, 0,  0, 0, 0, 0};
    const auto unit = unit_rows(vocab, v, d);
    // One query q against the rows with truth t, for each t: best == 0, the cosine expected and
    // rank(t) == ranks[t]. Outputs start at values nearest_by_cosine never writes.
    auto check_each_truth = [&](const std::vector<float>& q, float cosine_want, const std::uint32_t (&ranks)[v]) {
        for (std::uint32_t t = 0; t < v; ++t) {
            std::uint32_t best = 99, rank = 99;
            float cosine = 9;
            posenc::nearest_by_cosine(q.data(), 1, unit.data(), v, d, &t, &best, &cosine, &rank);
            CAPTURE(t);
            CHECK(best == 0);
            CHECK(cosine == cosine_want);
            CHECK(rank == ranks[t]);
        }
    };
    SECTION("ties go to the lower index; rank counts equal rows listed before the truth") {
        // Cosine 1 with rows 0 and 2 (exactly: unit rows are exact). Cosines: 1, 0, 1, −1, 0.7071,
        // 0. Rank = strictly better + equal before + 1.
        check_each_truth({2, 0, 0, 0}, 1.0f, {1, 4, 2, 6, 3, 5});
    }
    SECTION("a zero query has cosine 0 with every row: best is row 0 and rank(t) = t + 1") {
        check_each_truth(std::vector<float>(d, 0.0f), 0.0f, {1, 2, 3, 4, 5, 6});
    }
    SECTION("truth = nullptr: same best and cosine, rank left untouched") {
        const auto q = random_values(5 * d, 77);
        std::vector<std::uint32_t> truth = {0, 1, 2, 3, 4}, best_a(5), best_b(5, 99), rank(5);
        std::vector<float> cos_a(5), cos_b(5);
        posenc::nearest_by_cosine(q.data(), 5, unit.data(), v, d, truth.data(), best_a.data(), cos_a.data(), rank.data());
        posenc::nearest_by_cosine(q.data(), 5, unit.data(), v, d, nullptr, best_b.data(), cos_b.data(), nullptr);
        CHECK(best_a == best_b);
        CHECK(std::memcmp(cos_a.data(), cos_b.data(), 5 * sizeof(float)) == 0);
    }
    SECTION("the query's scale does not matter (cosine)") {
        const auto q = random_values(3 * d, 78);
        auto q_scaled = q;
        for (float& x : q_scaled) x *= 1024.0f;  // a power of two: every product scales exactly
        std::vector<std::uint32_t> b1(3), b2(3);
        std::vector<float> c1(3), c2(3);
        posenc::nearest_by_cosine(q.data(), 3, unit.data(), v, d, nullptr, b1.data(), c1.data(), nullptr);
        posenc::nearest_by_cosine(q_scaled.data(), 3, unit.data(), v, d, nullptr, b2.data(), c2.data(), nullptr);
        CHECK(b1 == b2);
        CHECK(std::memcmp(c1.data(), c2.data(), 3 * sizeof(float)) == 0);
    }
}

// ---- top_k_by_cosine --------------------------------------------------------------------------

TEST_CASE("top_k_by_cosine agrees with a full float64 sort for k = 1, 5, v", "[analyses]") {
    for (std::size_t v : {std::size_t{1}, std::size_t{4}, std::size_t{17}, std::size_t{100}}) {
        for (std::size_t d : kSizes) {
            const double kTie = 2.0 * (d + 8) * 0x1p-24;  // float vs float64 cosine, see above
            const auto vocab = random_values(v * d, 3000 + 7 * v + d);
            const auto unit = unit_rows(vocab, v, d);
            const auto query = random_values(d, 4000 + 7 * v + d);
            std::vector<double> c(v);
            for (std::size_t r = 0; r < v; ++r) c[r] = cosine64(query.data(), &vocab[r * d], d);
            for (std::size_t exclude : {v, v / 2}) {
                const std::size_t candidates = exclude < v ? v - 1 : v;
                std::vector<std::size_t> order;
                for (std::size_t r = 0; r < v; ++r)
                    if (r != exclude) order.push_back(r);
                std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return c[a] > c[b]; });
                for (std::size_t k : {std::size_t{1}, std::size_t{5}, v}) {
                    std::vector<std::uint32_t> rows(k + 1, 77777);
                    std::vector<float> cos(k + 1, 9.0f);
                    const std::size_t got = posenc::top_k_by_cosine(query.data(), unit.data(), v, d, k, exclude,
                                                                    rows.data(), cos.data());
                    CAPTURE(v, d, k, exclude, got);
                    REQUIRE(got == std::min(k, candidates));
                    CHECK(rows[k] == 77777);  // nothing written past k
                    for (std::size_t i = 0; i < got; ++i) {
                        CAPTURE(i, rows[i], order[i]);
                        REQUIRE(rows[i] < v);
                        CHECK(rows[i] != exclude);
                        if (i > 0) CHECK(cos[i - 1] >= cos[i]);  // best first
                        for (std::size_t j = 0; j < i; ++j) CHECK(rows[j] != rows[i]);
                        CHECK(std::fabs(cos[i] - c[rows[i]]) <= kTie / 2);
                        // The i-th returned row is as good as the float64 i-th, up to near-ties.
                        CHECK(std::fabs(c[rows[i]] - c[order[i]]) <= kTie);
                    }
                }
            }
        }
    }
}

TEST_CASE("top_k_by_cosine: k = 0, ties by lower index, agreement with nearest_by_cosine", "[analyses]") {
    const std::size_t d = 5, v = 7;
    auto vocab = random_values(v * d, 91);
    // Rows 2 and 5 duplicate row 4 (scaled by 2: the unit rows are still identical).
    for (std::size_t j = 0; j < d; ++j) {
        vocab[2 * d + j] = vocab[4 * d + j];
        vocab[5 * d + j] = 2.0f * vocab[4 * d + j];
    }
    const auto unit = unit_rows(vocab, v, d);
    std::vector<std::uint32_t> rows(v, 99);
    std::vector<float> cos(v, 9.0f);
    CHECK(posenc::top_k_by_cosine(&vocab[4 * d], unit.data(), v, d, 0, v, rows.data(), cos.data()) == 0);
    CHECK(rows[0] == 99);  // k = 0 writes nothing
    REQUIRE(posenc::top_k_by_cosine(&vocab[4 * d], unit.data(), v, d, 3, v, rows.data(), cos.data()) == 3);
    CHECK(rows[0] == 2);
    CHECK(rows[1] == 4);
    CHECK(rows[2] == 5);
    CHECK(cos[0] == cos[1]);
    CHECK(cos[1] == cos[2]);
    // Excluding 4 keeps the order of the others.
    REQUIRE(posenc::top_k_by_cosine(&vocab[4 * d], unit.data(), v, d, 2, 4, rows.data(), cos.data()) == 2);
    CHECK(rows[0] == 2);
    CHECK(rows[1] == 5);
    // k = 1 and nearest_by_cosine compute the same float cosines: identical row and value.
    for (std::uint64_t seed = 0; seed < 20; ++seed) {
        const auto q = random_values(d, 500 + seed);
        std::uint32_t top = 99, best = 98;
        float top_cos = 0, best_cos = 1;
        posenc::top_k_by_cosine(q.data(), unit.data(), v, d, 1, v, &top, &top_cos);
        posenc::nearest_by_cosine(q.data(), 1, unit.data(), v, d, nullptr, &best, &best_cos, nullptr);
        CAPTURE(seed);
        CHECK(top == best);
        CHECK(top_cos == best_cos);
    }
}
