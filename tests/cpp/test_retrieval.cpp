// IdentityRetriever (src/analysis/retrieval.hpp): the int8 first pass and its error bound, and the decoded
// answers against a float reference path that scores every row exactly (sequential float dot
// products, the blocked QKᵀ kernel's rounding) and decodes by straight loops. Every field must
// be equal — best row, cosine (bit for bit) and rank — on random vocabularies of every tail size,
// on adversarial near-ties, on inputs that force the exact fallback, and on GloVe itself.
#include <catch2/catch.hpp>

#include "test_support.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "analysis/analyses.hpp"
#include "attention/attention.hpp"
#include "analysis/retrieval.hpp"
#include "encodings/sinusoidal.hpp"
#include "vectors/vectors.hpp"

namespace {

using posenc::Retrieved;
using posenc::test::random_values;

// Σ a[j]·b[j] in float, in order: written here independently of the core.
float seq_dot(const float* a, const float* b, std::size_t d) {
    float s = 0.0f;
    for (std::size_t j = 0; j < d; ++j) s = s + a[j] * b[j];
    return s;
}

// The float reference path: every row scored exactly, s_r = α·c_r + q_r (q = 0 without pe), then
// first largest score, rank = rows scoring higher + equal rows before the truth + 1.
Retrieved reference(const std::vector<float>& unit, std::size_t v, std::size_t d, const float* e, const float* pe,
                    float alpha, std::uint32_t truth) {
    std::vector<float> s(v), x(d);
    for (std::size_t r = 0; r < v; ++r) {
        const float c = seq_dot(e, &unit[r * d], d);
        const float q = pe ? seq_dot(pe, &unit[r * d], d) : 0.0f;
        s[r] = alpha * c + q;
    }
    for (std::size_t j = 0; j < d; ++j) x[j] = pe ? alpha * e[j] + pe[j] : alpha * e[j];
    const float x_norm = std::sqrt(posenc::dot(x.data(), x.data(), d));
    Retrieved out;
    for (std::size_t r = 1; r < v; ++r) {
        if (s[r] > s[out.best]) out.best = static_cast<std::uint32_t>(r);
    }
    out.cosine = x_norm > 0.0f ? s[out.best] / x_norm : 0.0f;
    if (truth < v) {
        std::uint32_t better = 0;
        for (std::size_t r = 0; r < v; ++r) better += s[r] > s[truth] || (s[r] == s[truth] && r < truth);
        out.rank = better + 1;
    }
    return out;
}

bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// A sentence for a vocabulary: token vectors, keys and truths.
struct Sentence {
    std::vector<float> e;
    std::vector<std::uint64_t> keys;
    std::vector<std::uint32_t> truth;
};

// Runs retrieve() and checks every field of every token against the reference.
void check_against_reference(posenc::IdentityRetriever& retriever, const std::vector<float>& unit, std::size_t v,
                             std::size_t d, const Sentence& s, float alpha, bool additive, double base = 10000.0,
                             posenc::Layout layout = posenc::Layout::interleaved) {
    const std::size_t n = s.keys.size();
    std::vector<Retrieved> got(n);
    retriever.retrieve(s.e.data(), s.keys.data(), s.truth.data(), n, alpha, additive, base, layout, got.data());
    std::vector<float> pe(n * d);
    if (additive) posenc::sinusoidal_table(n, d, base, layout, pe.data());
    for (std::size_t p = 0; p < n; ++p) {
        const Retrieved want = reference(unit, v, d, &s.e[p * d], additive ? &pe[p * d] : nullptr, alpha, s.truth[p]);
        INFO("v=" << v << " d=" << d << " n=" << n << " p=" << p << " alpha=" << alpha << " additive=" << additive
                  << " truth=" << s.truth[p] << " cosine " << got[p].cosine << " vs " << want.cosine);
        REQUIRE(got[p].best == want.best);
        REQUIRE(same_bits(got[p].cosine, want.cosine));
        REQUIRE(got[p].rank == want.rank);
    }
}

std::vector<float> unit_rows(const std::vector<float>& raw, std::size_t v, std::size_t d) {
    std::vector<float> unit(v * d);
    posenc::normalize_rows(raw.data(), v, d, unit.data());
    return unit;
}

// Rows stored like a PELVEC01 file: scale·code, codes in [−127, 127] reaching ±127.
std::vector<float> int8_rows(std::size_t v, std::size_t d, std::uint64_t seed) {
    std::vector<float> raw = random_values(v * d, seed);
    for (std::size_t r = 0; r < v; ++r) {
        float largest = 0.0f;
        for (std::size_t j = 0; j < d; ++j) largest = std::fmax(largest, std::fabs(raw[r * d + j]));
        const float scale = largest / 127.0f * 0.05f;
        for (std::size_t j = 0; j < d; ++j) {
            const float code = std::round(raw[r * d + j] / largest * 127.0f);
            raw[r * d + j] = scale * code;
        }
    }
    return raw;
}

}  // namespace

// ---- the int8 pass -------------------------------------------------------------------------

TEST_CASE("approximate_scores: SIMD rows and scalar tail equal an int64 reference bit for bit", "[retrieval]") {
    for (std::size_t d : {std::size_t{2}, std::size_t{4}, std::size_t{6}, std::size_t{17}, std::size_t{100}, std::size_t{128}}) {
        for (std::size_t v : {std::size_t{1}, std::size_t{3}, std::size_t{5}, std::size_t{17}, std::size_t{100}}) {
            const auto unit = unit_rows(random_values(v * d, 7 * v + d), v, d);
            posenc::QuantizedRows rows;
            posenc::quantize_rows(unit.data(), v, d, rows);
            REQUIRE(rows.stride % 8 == 0);
            REQUIRE(rows.stride >= d);
            const auto x = random_values(d, 3 * d + v, 4.0f);
            posenc::QuantizedQuery q;
            posenc::quantize_query(x.data(), rows, q);
            // Ranges that start off the 4-row grid too.
            for (std::size_t r0 : {std::size_t{0}, std::size_t{1}, std::size_t{3}}) {
                if (r0 >= v) continue;
                std::vector<float> got(v - r0, -1.0f);
                posenc::approximate_scores(rows, q, r0, v, got.data());
                for (std::size_t r = r0; r < v; ++r) {
                    std::int64_t sum = 0;
                    for (std::size_t j = 0; j < rows.stride; ++j) sum += std::int64_t{q.codes[j]} * rows.codes[r * rows.stride + j];
                    REQUIRE(std::llabs(sum) < (std::int64_t{1} << 31));
                    const float want = (static_cast<float>(static_cast<std::int32_t>(sum)) * rows.scales[r]) * q.scale;
                    CAPTURE(d, v, r0, r);
                    REQUIRE(same_bits(got[r - r0], want));
                }
            }
        }
    }
}

TEST_CASE("quantize_rows and quantize_query give PELVEC01 vectors back exactly", "[retrieval]") {
    // û = raw/‖raw‖ with raw = scale·code: requantising finds the same codes, so the residual is
    // only float rounding (≤ a few 2^-24 of a unit row) — the reason GloVe needs few exact rows.
    const std::size_t v = 37, d = 100;
    const auto raw = int8_rows(v, d, 11);
    const auto unit = unit_rows(raw, v, d);
    posenc::QuantizedRows rows;
    posenc::quantize_rows(unit.data(), v, d, rows);
    // The norm bound covers a float sum of d squares: ≤ 1 + (d + 1)·2^-24/2 for unit rows.
    CHECK(rows.residual <= 1e-6);
    CHECK(rows.norm >= 1.0);
    CHECK(rows.norm <= 1.0 + (d + 2.0) * 0x1p-24);
    for (std::size_t r = 0; r < v; ++r) {
        // raw/scale_r is an integer code; the unit row's code must be that integer.
        float largest = 0.0f;
        for (std::size_t k = 0; k < d; ++k) largest = std::fmax(largest, std::fabs(raw[r * d + k]));
        for (std::size_t j = 0; j < d; ++j) {
            const float want = std::round(raw[r * d + j] / largest * 127.0f);
            CAPTURE(r, j);
            REQUIRE(rows.codes[r * rows.stride + j] == static_cast<std::int8_t>(want));
        }
        for (std::size_t j = d; j < rows.stride; ++j) REQUIRE(rows.codes[r * rows.stride + j] == 0);
    }
    posenc::QuantizedQuery q;
    posenc::quantize_query(raw.data() + 5 * d, rows, q);
    CHECK(q.residual <= 1e-6 * q.norm);
    const std::int32_t limit = posenc::query_code_limit(rows.stride);
    CHECK(limit % 127 == 0);
    // The int32 sums cannot overflow at the largest width either.
    CHECK(std::int64_t{posenc::query_code_limit(4096)} * 127 * 4096 < (std::int64_t{1} << 31));
}

TEST_CASE("approximate_score_bound holds for every row: random, int8, tiny, huge and zero queries", "[retrieval]") {
    // Property: |sequential_dot(x, û_r) − approximate_r| ≤ bound for all r. Also the bound must be
    // useful: for int8-stored vectors it is float rounding only (≤ 2·d·2^-24·‖x‖).
    double worst_ratio = 0.0;
    for (std::size_t d : {std::size_t{2}, std::size_t{6}, std::size_t{100}, std::size_t{128}}) {
        const std::size_t v = 300;
        for (bool int8_vocab : {false, true}) {
            const auto raw = int8_vocab ? int8_rows(v, d, 5 + d) : random_values(v * d, 5 + d);
            const auto unit = unit_rows(raw, v, d);
            posenc::QuantizedRows rows;
            posenc::quantize_rows(unit.data(), v, d, rows);
            std::vector<std::vector<float>> queries = {random_values(d, 1, 3.0f), random_values(d, 2, 1e-30f),
                                                       random_values(d, 3, 1e25f), std::vector<float>(d, 0.0f),
                                                       std::vector<float>(raw.begin() + 7 * d, raw.begin() + 8 * d)};
            queries.push_back(random_values(d, 4, 1e-41f));  // subnormal components
            for (const auto& x : queries) {
                posenc::QuantizedQuery q;
                posenc::quantize_query(x.data(), rows, q);
                const double bound = posenc::approximate_score_bound(rows, q);
                REQUIRE(std::isfinite(bound));
                std::vector<float> approx(v);
                posenc::approximate_scores(rows, q, 0, v, approx.data());
                for (std::size_t r = 0; r < v; ++r) {
                    const double err = std::fabs(static_cast<double>(seq_dot(x.data(), &unit[r * d], d)) - approx[r]);
                    CAPTURE(d, int8_vocab, r, err, bound, q.norm);
                    REQUIRE(err <= bound);
                    // Subnormal queries quantise to zero codes: the bound is then Cauchy–Schwarz
                    // itself, which a nearly parallel row almost reaches.
                    if (bound > 0.0) worst_ratio = std::fmax(worst_ratio, err / bound);
                }
                // γ_d·‖x‖ from the float sum, 3.01u·‖x‖ from the int8 pass's own roundings and
                // ‖x‖·δ from the unit rows' own rounding (≈ √d·u): within (2d + 8)·u·‖x‖.
                if (int8_vocab && &x == &queries[4]) CHECK(bound <= (2.0 * d + 8.0) * 0x1p-24 * q.norm);
            }
        }
    }
    if (posenc::test::verbose()) std::printf("  approximate scores: worst error / bound %.3g\n", worst_ratio);
    // Beyond float range the bound refuses (the retriever then scores exactly).
    const std::size_t d = 4, v = 2;
    const std::vector<float> unit = {1, 0, 0, 0, 0, 1, 0, 0};
    posenc::QuantizedRows rows;
    posenc::quantize_rows(unit.data(), v, d, rows);
    const std::vector<float> huge = {3e38f, -3e38f, 3e38f, 3e38f};
    posenc::QuantizedQuery q;
    posenc::quantize_query(huge.data(), rows, q);
    CHECK(std::isinf(posenc::approximate_score_bound(rows, q)));
}

// ---- decoded answers -------------------------------------------------------------------------

TEST_CASE("IdentityRetriever equals the float reference path on random vocabularies of every tail size",
          "[retrieval]") {
    for (std::size_t d : {std::size_t{2}, std::size_t{4}, std::size_t{6}, std::size_t{100}, std::size_t{128}}) {
        for (std::size_t v : {std::size_t{1}, std::size_t{3}, std::size_t{5}, std::size_t{17}, std::size_t{100}}) {
            const auto raw = random_values(v * d, 100 * v + d);
            const auto unit = unit_rows(raw, v, d);
            // Tokens: vocabulary rows scaled like GloVe (repeats share a cached row), an unknown
            // random vector, a zero vector.
            const std::size_t n = 9;
            Sentence s;
            s.e.assign(n * d, 0.0f);
            for (std::size_t p = 0; p < n; ++p) {
                const std::uint32_t row = static_cast<std::uint32_t>((p * 7) % v);
                s.truth.push_back(p == 6 ? posenc::kNoTruth : row);
                s.keys.push_back(p == 6 ? 1000 : p == 7 ? 2000 : row);
                for (std::size_t j = 0; j < d; ++j) s.e[p * d + j] = p == 7 ? 0.0f : 3.0f * raw[row * d + j];
            }
            const auto unknown = random_values(d, 9 + d, 2.0f);
            std::copy(unknown.begin(), unknown.end(), s.e.begin() + 6 * d);
            posenc::IdentityRetriever retriever;
            retriever.set_vocabulary(unit.data(), v, d);
            for (float alpha : {1.0f, 0.3f, -0.7f, 0.0f, 40.0f}) {
                for (bool additive : {true, false}) check_against_reference(retriever, unit, v, d, s, alpha, additive);
            }
            check_against_reference(retriever, unit, v, d, s, 1.0f, true, 500.0, posenc::Layout::half);
        }
    }
}

TEST_CASE("IdentityRetriever on adversarial near-ties: duplicates, rows an ulp apart, a direction's cone",
          "[retrieval]") {
    // Rows b + ε_r·w_r (ε from 0 to 1e-4, several exact duplicates) around one direction b: their
    // cosines with a query near b differ by ~ε², far below the int8 pass's resolution, so almost
    // every row is undecided and the exact scores must settle best and rank (ties to the lower row).
    for (std::size_t d : {std::size_t{4}, std::size_t{6}, std::size_t{100}}) {
        const std::size_t v = 517;
        const auto b = random_values(d, 77 + d);
        std::vector<float> raw(v * d);
        for (std::size_t r = 0; r < v; ++r) {
            const auto w = random_values(d, 1000 + r);
            const float eps = r % 5 == 0 ? 0.0f : static_cast<float>(std::pow(10.0, -7.0 + static_cast<double>(r % 4)));
            for (std::size_t j = 0; j < d; ++j) raw[r * d + j] = b[j] + eps * w[j];
        }
        // One row an ulp away from another in one component.
        raw[3 * d] = std::nextafter(raw[2 * d], 10.0f);
        for (std::size_t j = 1; j < d; ++j) raw[3 * d + j] = raw[2 * d + j];
        const auto unit = unit_rows(raw, v, d);
        Sentence s;
        const std::size_t n = 6;
        for (std::size_t p = 0; p < n; ++p) {
            const std::uint32_t row = static_cast<std::uint32_t>(p * 97 % v);
            s.truth.push_back(row);
            s.keys.push_back(row);
            for (std::size_t j = 0; j < d; ++j) s.e.push_back(2.0f * raw[row * d + j]);
        }
        posenc::IdentityRetriever retriever;
        retriever.set_vocabulary(unit.data(), v, d);
        for (float alpha : {1.0f, 1e-3f}) {
            check_against_reference(retriever, unit, v, d, s, alpha, false);
            // The test only means something if exact scoring actually ran on many rows.
            CHECK(retriever.last_exact_rows() >= n * v / 10);
            check_against_reference(retriever, unit, v, d, s, alpha, true);
        }
    }
}

TEST_CASE("IdentityRetriever falls back to exact scores when bounds are not finite (huge α or vectors)",
          "[retrieval]") {
    const std::size_t v = 23, d = 6, n = 4;
    const auto raw = random_values(v * d, 5);
    const auto unit = unit_rows(raw, v, d);
    Sentence s;
    for (std::size_t p = 0; p < n; ++p) {
        s.truth.push_back(static_cast<std::uint32_t>(p));
        s.keys.push_back(p);
        for (std::size_t j = 0; j < d; ++j) s.e.push_back((p == 3 ? 1e33f : 1.0f) * raw[p * d + j]);
    }
    posenc::IdentityRetriever retriever;
    retriever.set_vocabulary(unit.data(), v, d);
    check_against_reference(retriever, unit, v, d, s, 1e36f, false);
    CHECK(retriever.last_exact_rows() == n * v);  // every token decoded exactly
    check_against_reference(retriever, unit, v, d, s, 1.0f, true);
    CHECK(retriever.last_exact_rows() >= v);  // token 3 (1e33) at least
}

TEST_CASE("IdentityRetriever across calls: typing, evictions past the cache bound, clear, a new vocabulary",
          "[retrieval]") {
    const std::size_t v = 17, d = 4;
    const auto raw = random_values(v * d, 21);
    const auto unit = unit_rows(raw, v, d);
    posenc::IdentityRetriever retriever;
    retriever.set_vocabulary(unit.data(), v, d);
    const std::size_t limit = retriever.max_cached_tokens();
    REQUIRE(limit == posenc::IdentityRetriever::kMaxCachedTokens);
    // Keystrokes: the last token is new every call (a fresh key and vector), 1,100 times: the
    // cache fills past its bound and evicts, answers stay equal to the reference.
    Sentence s;
    const std::size_t n = 5;
    for (std::size_t p = 0; p < n; ++p) {
        s.truth.push_back(static_cast<std::uint32_t>(p));
        s.keys.push_back(p);
        for (std::size_t j = 0; j < d; ++j) s.e.push_back(raw[p * d + j]);
    }
    for (std::size_t call = 0; call < limit + 76; ++call) {
        s.keys[n - 1] = 1000 + call;
        s.e[(n - 1) * d] = 0.001f * static_cast<float>(call);
        if (call % 97 == 0 || call + 3 > limit) {
            check_against_reference(retriever, unit, v, d, s, 1.5f, call % 2 == 0);
        } else {
            std::vector<Retrieved> got(n);
            retriever.retrieve(s.e.data(), s.keys.data(), s.truth.data(), n, 1.5f, call % 2 == 0, 10000.0,
                               posenc::Layout::interleaved, got.data());
        }
        REQUIRE(retriever.cached_tokens() <= limit);
    }
    // One call with more distinct tokens than the bound keeps them all, and decodes them right.
    Sentence big;
    const std::size_t m = limit + 6;
    for (std::size_t p = 0; p < m; ++p) {
        big.truth.push_back(static_cast<std::uint32_t>(p % v));
        big.keys.push_back(50000 + p);
        for (std::size_t j = 0; j < d; ++j) big.e.push_back(raw[(p % v) * d + j] + 1e-3f * static_cast<float>(p));
    }
    check_against_reference(retriever, unit, v, d, big, 2.0f, false);
    CHECK(retriever.cached_tokens() == m);
    check_against_reference(retriever, unit, v, d, s, 2.0f, true);
    CHECK(retriever.cached_tokens() <= limit);
    retriever.clear();
    CHECK(retriever.cached_tokens() == 0);
    CHECK(retriever.cached_positions() == 0);
    check_against_reference(retriever, unit, v, d, s, 2.0f, true);
    // Another vocabulary (other v and d) starts afresh.
    const std::size_t v2 = 5, d2 = 6;
    const auto raw2 = random_values(v2 * d2, 22);
    const auto unit2 = unit_rows(raw2, v2, d2);
    retriever.set_vocabulary(unit2.data(), v2, d2);
    Sentence t;
    for (std::size_t p = 0; p < 3; ++p) {
        t.truth.push_back(static_cast<std::uint32_t>(p));
        t.keys.push_back(p);  // keys reused from the old vocabulary: no stale rows may be served
        for (std::size_t j = 0; j < d2; ++j) t.e.push_back(raw2[p * d2 + j]);
    }
    check_against_reference(retriever, unit2, v2, d2, t, 1.0f, true);
}


TEST_CASE("IdentityRetriever on GloVe and v = 20,000: equal to the reference, few rows scored exactly",
          "[retrieval]") {
    std::string path;
    std::vector<std::uint8_t> bytes;
    posenc::test::read_repo_file("data/glove-6b-100d-20k.i8", bytes, &path);
#ifdef __EMSCRIPTEN__
    if (bytes.empty()) {
        WARN("no file system access under this runtime; skipping " << path << " (tests/js/identity.test.mjs covers it)");
        return;
    }
#endif
    INFO(path);
    REQUIRE(!bytes.empty());
    posenc::VectorSet set;
    REQUIRE(posenc::parse_packed_vectors(bytes.data(), bytes.size(), set) == nullptr);
    const std::size_t v = set.count, d = set.dim;
    const auto unit = unit_rows(set.rows, v, d);
    // Frequent words, some rarer ones, an unknown word's hashed-style vector.
    Sentence s;
    const std::uint32_t rows[] = {0, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233, 377, 610, 987, 1597, 2584, 4181, 6765, 10946, 17711, 19999, 0, 2};
    for (std::uint32_t row : rows) {
        s.truth.push_back(row);
        s.keys.push_back(row);
        s.e.insert(s.e.end(), set.rows.begin() + row * d, set.rows.begin() + (row + 1) * d);
    }
    const auto unknown = random_values(d, 99, set.component_rms * 1.7f);
    s.truth.push_back(posenc::kNoTruth);
    s.keys.push_back(1u << 30);
    s.e.insert(s.e.end(), unknown.begin(), unknown.end());
    posenc::IdentityRetriever retriever;
    retriever.set_vocabulary(unit.data(), v, d);
    const float rms_alpha = 1.0f / set.component_rms;
    std::size_t exact = 0, decodes = 0;
    for (float alpha : {rms_alpha, 1.0f, 0.25f * rms_alpha}) {
        for (bool additive : {true, false}) {
            check_against_reference(retriever, unit, v, d, s, alpha, additive);
            exact += retriever.last_exact_rows();
            decodes += s.keys.size();
        }
    }
    check_against_reference(retriever, unit, v, d, s, rms_alpha, true, 500.0, posenc::Layout::half);
    // The point of the int8 pass: GloVe's codes come back exactly, so only near-ties are scored
    // exactly (a handful per token; the brute force would score 20,000).
    const double per_decode = static_cast<double>(exact) / static_cast<double>(decodes);
    if (posenc::test::verbose()) std::printf("  GloVe: %.2f rows scored exactly per decoded token\n", per_decode);
    CHECK(per_decode < 20.0);
}
