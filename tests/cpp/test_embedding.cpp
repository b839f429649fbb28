// embedding.hpp: FNV-1a hashing, seeded synthetic vectors (deterministic, N(0, 1)), seeded
// projection matrices. (The tokenizer has its own file, test_tokenizer.cpp.)
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "vectors/embedding.hpp"

namespace {
std::vector<float> synthetic(const std::string& token, std::size_t d) {
    std::vector<float> v(d);
    posenc::synthetic_embedding(posenc::hash_token(token), d, v.data());
    return v;
}
}  // namespace

TEST_CASE("hash_token is 64-bit FNV-1a", "[embedding]") {
    // Published FNV-1a 64 test vectors (offset basis for "", "a", "foobar").
    CHECK(posenc::hash_token("") == 14695981039346656037ull);
    CHECK(posenc::hash_token("a") == 0xaf63dc4c8601ec8cull);
    CHECK(posenc::hash_token("b") == 0xaf63df4c8601f1a5ull);
    CHECK(posenc::hash_token("foobar") == 0x85944171f73967e8ull);
    // Bytes, not chars: UTF-8 "café" and the bytes ≥ 0x80 are hashed unsigned.
    CHECK(posenc::hash_token("caf\xc3\xa9") == 0x48e8823acfa40d89ull);
    CHECK(posenc::hash_token("the") != posenc::hash_token("The"));
}

TEST_CASE("synthetic vectors are deterministic and seed-dependent", "[embedding]") {
    const auto a = synthetic("word", 100), b = synthetic("word", 100), c = synthetic("words", 100);
    CHECK(std::memcmp(a.data(), b.data(), 100 * sizeof(float)) == 0);
    CHECK(std::memcmp(a.data(), c.data(), 100 * sizeof(float)) != 0);
    // Components are drawn in order, so a shorter vector is a prefix of a longer one (even d):
    // truncating a synthetic vector (the concatenated scheme's word part) is the same as drawing
    // it at the smaller width.
    const auto prefix = synthetic("word", 40);
    CHECK(std::memcmp(a.data(), prefix.data(), 40 * sizeof(float)) == 0);
    // Odd d writes exactly d values (no write past the end).
    std::vector<float> odd(8, 12345.0f);
    posenc::synthetic_embedding(posenc::hash_token("word"), 7, odd.data());
    CHECK(odd[7] == 12345.0f);
    CHECK(std::memcmp(odd.data(), a.data(), 7 * sizeof(float)) == 0);
    // Pinned values: the same token gives the same vector on every platform (native and wasm run
    // this same check). Values as printed by the native build with %.9g (round-trips a float).
    const auto the = synthetic("the", 4);
    CHECK(the[0] == 0.0432409644f);
    CHECK(the[1] == 0.0454262085f);
    CHECK(the[2] == 0.297684252f);
    CHECK(the[3] == 0.53527391f);
}

TEST_CASE("synthetic components are N(0, 1): mean, variance, and the one-sigma fraction", "[embedding][property]") {
    // 2000 tokens × 100 dims = N = 200000 draws (fixed tokens, so the outcome is fixed too).
    // Standard errors: mean 1/√N = 0.0022, variance √(2/N) = 0.0032, P(|x| < 1) √(p(1−p)/N) = 0.0010
    // with p = 0.6827, fourth moment √(96/N) = 0.022. Tolerances are 5 standard errors: a wrong
    // scale (σ ≠ 1), an offset, or a non-normal shape (e.g. uniform: P = 0.577, E[x⁴] = 1.8) fails.
    const std::size_t tokens = 2000, d = 100;
    double sum = 0.0, sum2 = 0.0, sum4 = 0.0;
    std::size_t within_one = 0, count = 0, non_finite = 0;
    for (std::size_t t = 0; t < tokens; ++t) {
        const auto v = synthetic("token" + std::to_string(t), d);
        for (float x : v) {
            non_finite += !std::isfinite(x);
            sum += x;
            sum2 += static_cast<double>(x) * x;
            sum4 += static_cast<double>(x) * x * x * x;
            within_one += std::fabs(x) < 1.0f;
            ++count;
        }
    }
    const double mean = sum / count, var = sum2 / count - mean * mean, fourth = sum4 / count;
    const double frac = static_cast<double>(within_one) / count;
    CHECK(non_finite == 0);
    CAPTURE(mean, var, frac, fourth);
    CHECK(std::fabs(mean) <= 5 * 0.0022);
    CHECK(std::fabs(var - 1.0) <= 5 * 0.0032);
    CHECK(std::fabs(frac - 0.682689) <= 5 * 0.0010);
    CHECK(std::fabs(fourth - 3.0) <= 5 * 0.022);
    // Neighbouring components are uncorrelated (Box–Muller pairs are independent): the lag-1
    // correlation over the same draws has standard error 1/√N.
    double lag = 0.0;
    std::size_t pairs = 0;
    for (std::size_t t = 0; t < tokens; ++t) {
        const auto v = synthetic("token" + std::to_string(t), d);
        for (std::size_t j = 0; j + 1 < d; ++j, ++pairs) lag += static_cast<double>(v[j]) * v[j + 1];
    }
    CHECK(std::fabs(lag / pairs) <= 5 * 0.0023);
}

TEST_CASE("gaussian_matrix is seeded and scaled by sigma", "[embedding]") {
    const std::size_t rows = 300, cols = 200;
    std::vector<float> m(rows * cols), again(rows * cols), other(rows * cols), unit(rows * cols);
    posenc::gaussian_matrix(42, rows, cols, 0.125, m.data());
    posenc::gaussian_matrix(42, rows, cols, 0.125, again.data());
    posenc::gaussian_matrix(43, rows, cols, 0.125, other.data());
    posenc::gaussian_matrix(42, rows, cols, 1.0, unit.data());
    CHECK(std::memcmp(m.data(), again.data(), m.size() * sizeof(float)) == 0);
    CHECK(std::memcmp(m.data(), other.data(), m.size() * sizeof(float)) != 0);
    double sum2 = 0.0;
    std::size_t bad = 0;
    for (std::size_t i = 0; i < m.size(); ++i) {
        sum2 += static_cast<double>(m[i]) * m[i];
        // σ = 1/8 scales the same draws by an exact power of two.
        if (m[i] != unit[i] * 0.125f) ++bad;
    }
    CHECK(bad == 0);
    // Variance σ² = 1/64 within 5 standard errors (σ²·√(2/N), N = 60000).
    CHECK(std::fabs(sum2 / m.size() - 1.0 / 64) <= 5 * (1.0 / 64) * std::sqrt(2.0 / m.size()));
}
