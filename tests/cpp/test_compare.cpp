// compare.hpp: validate() messages, shapes and layouts of every scheme, weights per head,
// projection heads, determinism.
#include <catch2/catch.hpp>

#include "test_support.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "compare/compare.hpp"
#include "reference.hpp"
#include "encodings/sinusoidal.hpp"

namespace {

using namespace posenc::test;

using Catch::Matchers::Contains;
using posenc::ConcatMode;
using posenc::Layout;

// A valid config for the classic lanes (the sizes are the default case; the tests vary them).
posenc::CompareConfig valid_config(std::size_t n = 9, std::size_t d = 16, std::size_t d_pos = 6) {
    posenc::CompareConfig cfg = posenc::test::compare_config(n, d, d_pos);
    cfg.alpha = 1.25f;
    return cfg;
}

std::string message(const posenc::CompareConfig& cfg) {
    const char* m = posenc::validate(cfg);
    return m ? m : "(valid)";
}

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
}

// Rows of every h'×n×n block sum to 1 (within (n + 8)·2^-24, see test_attention.cpp) and causal
// blocks are exactly 0 above the diagonal. Returns the number of violations.
std::size_t weight_violations(const std::vector<float>& weights, std::size_t blocks, std::size_t n, bool causal) {
    std::size_t bad = 0;
    if (weights.size() != blocks * n * n) return 1;
    for (std::size_t b = 0; b < blocks; ++b) {
        for (std::size_t i = 0; i < n; ++i) {
            double sum = 0.0;
            for (std::size_t j = 0; j < n; ++j) {
                const float w = weights[b * n * n + i * n + j];
                if (!(w >= 0.0f && w <= 1.0f)) ++bad;
                if (causal && j > i && w != 0.0f) ++bad;
                sum += w;
            }
            if (std::fabs(sum - 1.0) > (n + 8) * 0x1p-24) ++bad;
        }
    }
    return bad;
}

}  // namespace

TEST_CASE("validate accepts a valid config and names the offending field otherwise", "[compare]") {
    CHECK(posenc::validate(valid_config()) == nullptr);

    auto with = [](auto change) {
        posenc::CompareConfig cfg = valid_config();
        change(cfg);
        return message(cfg);
    };
    CHECK_THAT(with([](auto& c) { c.d = 15; }), Contains("d must be even"));
    CHECK_THAT(with([](auto& c) { c.n = 0; }), Contains("n must be at least 1"));
    CHECK_THAT(with([](auto& c) { c.n = 1025; }), Contains("n must be at most 1024"));
    CHECK(with([](auto& c) { c.n = 1024; }) == "(valid)");
    CHECK_THAT(with([](auto& c) { c.d = 0; }), Contains("d must be at least 1"));
    CHECK_THAT(with([](auto& c) { c.d = 4098; }), Contains("d must be at most 4096"));
    CHECK_THAT(with([](auto& c) { c.base = 1.0; }), Contains("base"));
    CHECK_THAT(with([](auto& c) { c.base = std::numeric_limits<double>::quiet_NaN(); }), Contains("base"));
    CHECK_THAT(with([](auto& c) { c.alpha = std::numeric_limits<float>::infinity(); }), Contains("alpha"));
    CHECK_THAT(with([](auto& c) { c.scale = -1.0f; }), Contains("scale"));
    CHECK_THAT(with([](auto& c) { c.scale = std::numeric_limits<float>::quiet_NaN(); }), Contains("scale"));
    CHECK(with([](auto& c) { c.scale = 0.25f; }) == "(valid)");
    CHECK_THAT(with([](auto& c) { c.d_pos = 0; }), Contains("d_pos must be an even number"));
    CHECK_THAT(with([](auto& c) { c.d_pos = 5; }), Contains("d_pos must be an even number"));
    // Same width: d_pos must leave room for the word part.
    CHECK_THAT(with([](auto& c) { c.d_pos = 16; }), Contains("d_pos must be smaller than d"));
    CHECK_THAT(with([](auto& c) { c.d_pos = 18; }), Contains("d_pos must be smaller than d"));
    CHECK(with([](auto& c) { c.d_pos = 14; }) == "(valid)");
    // Widened: any even d_pos up to 4096.
    CHECK(with([](auto& c) { c.d_pos = 16; c.concat_mode = ConcatMode::widened; }) == "(valid)");
    CHECK(with([](auto& c) { c.d_pos = 4096; c.concat_mode = ConcatMode::widened; }) == "(valid)");
    CHECK_THAT(with([](auto& c) { c.d_pos = 4098; c.concat_mode = ConcatMode::widened; }), Contains("d_pos must be at most 4096"));
    // Heads.
    CHECK(with([](auto& c) { c.heads = 2; }) == "(valid)");
    CHECK(with([](auto& c) { c.heads = 8; }) == "(valid)");  // d_head = 2
    CHECK_THAT(with([](auto& c) { c.heads = 3; }), Contains("heads must divide"));
    CHECK_THAT(with([](auto& c) { c.heads = 16; }), Contains("d / heads must be even"));  // d_head = 1
    // Widened: d + d_pos = 22 must also divide by heads.
    CHECK_THAT(with([](auto& c) { c.heads = 4; c.concat_mode = ConcatMode::widened; }), Contains("heads must divide"));
    CHECK(with([](auto& c) { c.heads = 2; c.concat_mode = ConcatMode::widened; }) == "(valid)");
    CHECK_THAT(with([](auto& c) { c.heads = 65; }), Contains("heads must be at most 64"));
    CHECK_THAT(with([](auto& c) { c.d = 128; c.n = 1024; c.heads = 64; }), Contains("heads·n²"));
}

TEST_CASE("compare: shapes, tables and the layout of each scheme's input", "[compare]") {
    for (ConcatMode mode : {ConcatMode::same_width, ConcatMode::widened}) {
        for (Layout layout : {Layout::interleaved, Layout::half}) {
            posenc::CompareConfig cfg = valid_config();
            cfg.concat_mode = mode;
            cfg.layout = layout;
            const std::size_t n = cfg.n, d = cfg.d, d_pos = cfg.d_pos;
            const auto e = random_values(n * d, 3, 2.0f);
            posenc::CompareResult r;
            REQUIRE(posenc::validate(cfg) == nullptr);
            posenc::compare(cfg, e.data(), r);
            CAPTURE(mode == ConcatMode::widened, layout == Layout::half);

            // Tables: the sinusoidal kernel at d and at d_pos, chosen layout.
            std::vector<float> pe(n * d), pe_concat(n * d_pos);
            posenc::sinusoidal_table(n, d, cfg.base, layout, pe.data());
            posenc::sinusoidal_table(n, d_pos, cfg.base, layout, pe_concat.data());
            CHECK(same_bits(r.pe, pe));
            CHECK(same_bits(r.pe_concat, pe_concat));

            // Rotary: x = α·E exactly (one float multiply), width d.
            CHECK(r.rotary.width == d);
            REQUIRE(r.rotary.x.size() == n * d);
            std::size_t bad = 0;
            for (std::size_t i = 0; i < n * d; ++i)
                if (r.rotary.x[i] != cfg.alpha * e[i]) ++bad;
            CHECK(bad == 0);

            // Additive: x = α·E + PE, width d.
            CHECK(r.additive.width == d);
            REQUIRE(r.additive.x.size() == n * d);
            bad = 0;
            for (std::size_t i = 0; i < n * d; ++i)
                if (r.additive.x[i] != cfg.alpha * e[i] + pe[i]) ++bad;
            CHECK(bad == 0);

            // Concatenated: [α·E[0 … d_word) ; PE_{d_pos}], d_word = d − d_pos or d.
            const std::size_t d_word = mode == ConcatMode::widened ? d : d - d_pos;
            const std::size_t w = d_word + d_pos;
            CHECK(r.concatenated.width == (mode == ConcatMode::widened ? d + d_pos : d));
            REQUIRE(r.concatenated.x.size() == n * w);
            bad = 0;
            for (std::size_t p = 0; p < n; ++p) {
                for (std::size_t j = 0; j < d_word; ++j)
                    if (r.concatenated.x[p * w + j] != cfg.alpha * e[p * d + j]) ++bad;
                for (std::size_t j = 0; j < d_pos; ++j)
                    if (r.concatenated.x[p * w + d_word + j] != pe_concat[p * d_pos + j]) ++bad;
            }
            CHECK(bad == 0);

            // Terms: 4 blocks for additive and concatenated, 1 for rotary; one weight block (heads = 0).
            CHECK(r.additive.term_count == 4);
            CHECK(r.concatenated.term_count == 4);
            CHECK(r.rotary.term_count == 1);
            CHECK(r.additive.terms.size() == 4 * n * n);
            CHECK(r.concatenated.terms.size() == 4 * n * n);
            CHECK(r.rotary.terms.size() == n * n);
        }
    }
}

TEST_CASE("compare: every scheme's and head's weight rows sum to 1; causal blocks are zero above the diagonal",
          "[compare][property]") {
    for (bool causal : {false, true}) {
        for (std::size_t heads : {std::size_t{0}, std::size_t{1}, std::size_t{2}, std::size_t{4}}) {
            for (ConcatMode mode : {ConcatMode::same_width, ConcatMode::widened}) {
                posenc::CompareConfig cfg = valid_config(17, 24, 8);  // widened: 32, divisible by 1, 2, 4
                cfg.causal = causal;
                cfg.heads = heads;
                cfg.concat_mode = mode;
                REQUIRE(posenc::validate(cfg) == nullptr);
                const auto e = random_values(cfg.n * cfg.d, 44, 2.0f);
                posenc::CompareResult r;
                posenc::compare(cfg, e.data(), r);
                const std::size_t blocks = heads == 0 ? 1 : heads;
                CAPTURE(causal, heads, mode == ConcatMode::widened);
                CHECK(weight_violations(r.additive.weights, blocks, cfg.n, causal) == 0);
                CHECK(weight_violations(r.concatenated.weights, blocks, cfg.n, causal) == 0);
                CHECK(weight_violations(r.rotary.weights, blocks, cfg.n, causal) == 0);
            }
        }
    }
}

TEST_CASE("compare with projection heads: heads differ, head 0's terms explain head 0's weights", "[compare]") {
    for (bool causal : {false, true}) {
        posenc::CompareConfig cfg = valid_config(12, 32, 8);
        cfg.heads = 4;
        cfg.causal = causal;
        REQUIRE(posenc::validate(cfg) == nullptr);
        const std::size_t n = cfg.n, nn = n * n;
        const auto e = random_values(n * cfg.d, 99, 2.0f);
        posenc::CompareResult r;
        posenc::compare(cfg, e.data(), r);
        CAPTURE(causal);
        REQUIRE(r.additive.weights.size() == 4 * nn);
        // Seeded random projections: no two heads give the same weights.
        for (std::size_t a = 0; a < 4; ++a)
            for (std::size_t b = a + 1; b < 4; ++b)
                CHECK(std::memcmp(r.additive.weights.data() + a * nn, r.additive.weights.data() + b * nn, nn * sizeof(float)) != 0);
        // With W ≠ I the heads do not see raw similarity: head 0 differs from the W = I result.
        posenc::CompareConfig identity = cfg;
        identity.heads = 0;
        posenc::CompareResult r0;
        posenc::compare(identity, e.data(), r0);
        CHECK(std::memcmp(r.additive.weights.data(), r0.additive.weights.data(), nn * sizeof(float)) != 0);

        // Head 0's four terms are the projected content/position products; their sum is head 0's
        // logit matrix, whose softmax is head 0's weights. The weights' logits come from x·W and
        // the terms from a·W and b·W: each side is within ~(w + d_head)·2^-24 ≈ 2.4e-6 relative of
        // the exact logit, and |logits| ≲ 4 here, so δ ≤ 1e-5 and a weight moves by ≤ 2δ = 2e-5
        // (measured 3.4e-7).
        for (const posenc::SchemeResult* s : {&r.additive, &r.concatenated}) {
            std::vector<double> sum(nn, 0.0);
            for (std::size_t t = 0; t < 4; ++t)
                for (std::size_t i = 0; i < nn; ++i) sum[i] += s->terms[t * nn + i];
            const auto w = posenc::reference::softmax_rows(sum, n, n, causal);
            double worst = 0.0;
            for (std::size_t i = 0; i < nn; ++i) worst = std::fmax(worst, std::fabs(s->weights[i] - w[i]));
            CHECK(worst <= 2e-5);
        }
        // With projections, the concatenated cross terms are no longer zero (W mixes the blocks).
        bool cross_nonzero = false;
        for (std::size_t i = 0; i < nn; ++i) cross_nonzero |= r.concatenated.terms[nn + i] != 0.0f;
        CHECK(cross_nonzero);
    }
}

TEST_CASE("compare is deterministic, also when its buffers are reused", "[compare]") {
    posenc::CompareConfig cfg = valid_config(10, 20, 4);
    cfg.heads = 2;
    cfg.causal = true;
    cfg.pairing = Layout::half;
    const auto e = random_values(cfg.n * cfg.d, 5, 2.0f);
    posenc::CompareResult a, b;
    posenc::compare(cfg, e.data(), a);
    posenc::compare(cfg, e.data(), b);
    auto all_same = [](const posenc::CompareResult& x, const posenc::CompareResult& y) {
        for (auto member : {&posenc::SchemeResult::x, &posenc::SchemeResult::weights, &posenc::SchemeResult::terms}) {
            if (!same_bits(x.additive.*member, y.additive.*member)) return false;
            if (!same_bits(x.concatenated.*member, y.concatenated.*member)) return false;
            if (!same_bits(x.rotary.*member, y.rotary.*member)) return false;
        }
        return same_bits(x.pe, y.pe) && same_bits(x.pe_concat, y.pe_concat);
    };
    CHECK(all_same(a, b));

    // Reuse b for a different, larger config, then the original again: same result as fresh.
    posenc::CompareConfig other = cfg;
    other.n = 30;
    other.heads = 0;
    other.concat_mode = ConcatMode::widened;
    const auto e2 = random_values(other.n * other.d, 6);
    posenc::compare(other, e2.data(), b);
    posenc::compare(cfg, e.data(), b);
    CHECK(all_same(a, b));

    // The head seed matters: another seed, other projections.
    posenc::CompareConfig reseeded = cfg;
    reseeded.head_seed = 2;
    posenc::CompareResult c;
    posenc::compare(reseeded, e.data(), c);
    CHECK_FALSE(same_bits(a.additive.weights, c.additive.weights));
    CHECK(same_bits(a.additive.x, c.additive.x));  // inputs do not depend on the seed
}

TEST_CASE("compare: an explicit scale is used instead of 1/sqrt(d_head)", "[compare]") {
    posenc::CompareConfig cfg = valid_config();
    const auto e = random_values(cfg.n * cfg.d, 8);
    posenc::CompareResult def, half;
    posenc::compare(cfg, e.data(), def);
    cfg.scale = 0.5f;
    posenc::compare(cfg, e.data(), half);
    // The default is 1/√16 = 0.25, so every term doubles: exactly, as scale enters as one multiply
    // by a power of two.
    REQUIRE(def.rotary.terms.size() == half.rotary.terms.size());
    std::size_t bad = 0;
    for (std::size_t i = 0; i < def.rotary.terms.size(); ++i)
        if (half.rotary.terms[i] != 2.0f * def.rotary.terms[i]) ++bad;
    for (std::size_t i = 0; i < def.additive.terms.size(); ++i)
        if (half.additive.terms[i] != 2.0f * def.additive.terms[i]) ++bad;
    CHECK(bad == 0);
}

namespace {
// out[i][j] = scale·Σ_c a_i[c]·b_j[c] in double (a, b: n rows of d floats at row strides sa, sb).
std::vector<double> products(const float* a, std::size_t sa, const float* b, std::size_t sb, std::size_t n, std::size_t d,
                             double scale) {
    std::vector<double> out(n * n);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) {
            double s = 0.0;
            for (std::size_t c = 0; c < d; ++c) s += static_cast<double>(a[i * sa + c]) * b[j * sb + c];
            out[i * n + j] = s * scale;
        }
    return out;
}

// max |got − want| / (1 + |want|).
double max_rel_diff(const float* got, const std::vector<double>& want) {
    double m = 0.0;
    for (std::size_t i = 0; i < want.size(); ++i) m = std::fmax(m, std::fabs(got[i] - want[i]) / (1.0 + std::fabs(want[i])));
    return m;
}

// Pairs (i, j), j < i, whose entries differ in any bit.
std::size_t asymmetric(const float* m, std::size_t n) {
    std::size_t bad = 0;
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < i; ++j)
            if (std::memcmp(m + i * n + j, m + j * n + i, sizeof(float)) != 0) ++bad;
    return bad;
}

// Entries that differ from the entry at the same |i − j| in row 0.
std::size_t not_by_distance(const float* m, std::size_t n) {
    std::size_t bad = 0;
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) {
            const std::size_t k = i > j ? i - j : j - i;
            if (std::memcmp(m + i * n + j, m + k, sizeof(float)) != 0) ++bad;
        }
    return bad;
}
}  // namespace

// W = I computes each term from its structure (compare.cpp, identity_terms): symmetric products
// from one triangle, sinusoidal position products from the n offsets, exact zeros for the
// concatenated cross terms, one content product shared by the lanes. These are the properties
// the shortcuts rely on, checked on every tail of the 4-row / 8-key blocks and against float64.
//
// Tolerances: content and rotated terms are float32 dot products (≤ 100 terms, |x| ≤ 1.5·α):
// 1e-5·(1 + |v|) as in test_compare_schemes.cpp. Position·position: both the float64 product of
// the float32 table rows and the offset form scale·PE(|i − j|)·PE(0) are within 2·d·ε_t of
// scale·Σ_k cos((i − j)ω_k), ε_t = 2.5e-7 the table's entry error for positions ≤ 8192
// (test_sinusoidal.cpp), plus one float rounding: |Δ| ≤ scale·4·d·ε_t + 2^-24·|v|.
TEST_CASE("compare, W = I: symmetric, offset-built and zero terms against float64", "[compare][property]") {
    for (std::size_t n : {1, 3, 4, 5, 7, 8, 9, 15, 16, 17, 63, 100}) {
        for (ConcatMode mode : {ConcatMode::same_width, ConcatMode::widened}) {
            for (Layout layout : {Layout::interleaved, Layout::half}) {
                posenc::CompareConfig cfg;
                cfg.n = n;
                cfg.d = n == 100 ? 100 : 22;
                cfg.d_pos = n == 100 ? 26 : 6;
                cfg.alpha = 1.5f;
                cfg.layout = layout;
                cfg.concat_mode = mode;
                cfg.schemes = posenc::kAllSchemes;
                cfg.causal = n % 2 == 1;
                REQUIRE(posenc::validate(cfg) == nullptr);
                const std::size_t d = cfg.d, nn = n * n;
                const auto e = random_values(n * d, 7000 + n, 1.0f);
                posenc::CompareResult r;
                posenc::compare(cfg, e.data(), r);
                CAPTURE(n, mode == ConcatMode::widened, layout == Layout::half);
                const float* content = r.nope.x.data();  // αE

                // Content·content: float64 agreement, bit symmetry, one product shared by every
                // lane of width d (same scale, so the same bits).
                const double scale_d = 1.0 / std::sqrt(static_cast<double>(d));
                const auto cc = products(content, d, content, d, n, d, scale_d);
                CHECK(max_rel_diff(r.additive.terms.data(), cc) <= 1e-5);
                CHECK(asymmetric(r.additive.terms.data(), n) == 0);
                for (posenc::Scheme s : {posenc::Scheme::learned, posenc::Scheme::alibi, posenc::Scheme::t5,
                                         posenc::Scheme::nope})
                    CHECK(std::memcmp(r.lane(s).terms.data(), r.additive.terms.data(), nn * sizeof(float)) == 0);

                // Rotated terms (all but xPos) are bit-symmetric.
                for (posenc::Scheme s : {posenc::Scheme::rotary, posenc::Scheme::rope_pi, posenc::Scheme::rope_ntk,
                                         posenc::Scheme::yarn})
                    CHECK(asymmetric(r.lane(s).terms.data(), n) == 0);
                // xPos scales queries and keys differently: not symmetric, computed in full.
                if (n > 1) CHECK(asymmetric(r.xpos.terms.data(), n) > 0);

                // Additive: cross terms are a·bᵀ and its exact transpose; position·position
                // depends on |i − j| only, exactly, and matches the float64 table product.
                const auto cp = products(content, d, r.pe.data(), d, n, d, scale_d);
                CHECK(max_rel_diff(r.additive.terms.data() + nn, cp) <= 1e-5);
                std::size_t bad = 0;
                for (std::size_t i = 0; i < n; ++i)
                    for (std::size_t j = 0; j < n; ++j)
                        if (r.additive.terms[2 * nn + i * n + j] != r.additive.terms[nn + j * n + i]) ++bad;
                CHECK(bad == 0);
                auto check_positions = [&](const float* got, const std::vector<float>& table, std::size_t dt, double scale) {
                    const auto want = products(table.data(), dt, table.data(), dt, n, dt, scale);
                    double worst_ratio = 0.0;
                    for (std::size_t i = 0; i < nn; ++i) {
                        const double bound = scale * 4.0 * dt * 2.5e-7 + 0x1p-24 * std::fabs(want[i]);
                        worst_ratio = std::fmax(worst_ratio, std::fabs(got[i] - want[i]) / bound);
                    }
                    CAPTURE(worst_ratio);
                    CHECK(worst_ratio <= 1.0);
                    CHECK(max_rel_diff(got, want) <= 1e-5);
                    CHECK(not_by_distance(got, n) == 0);
                };
                check_positions(r.additive.terms.data() + 3 * nn, r.pe, d, scale_d);

                // Concatenated: cross terms exactly +0; word·word over the d_word coordinates.
                const std::size_t w = r.concatenated.width, d_word = w - cfg.d_pos;
                const double scale_w = 1.0 / std::sqrt(static_cast<double>(w));
                bad = 0;
                for (std::size_t i = nn; i < 3 * nn; ++i)
                    if (r.concatenated.terms[i] != 0.0f || std::signbit(r.concatenated.terms[i])) ++bad;
                CHECK(bad == 0);
                const auto ww = products(r.concatenated.x.data(), w, r.concatenated.x.data(), w, n, d_word, scale_w);
                CHECK(max_rel_diff(r.concatenated.terms.data(), ww) <= 1e-5);
                CHECK(asymmetric(r.concatenated.terms.data(), n) == 0);
                check_positions(r.concatenated.terms.data() + 3 * nn, r.pe_concat, cfg.d_pos, scale_w);

                // Learned: L·Lᵀ is bit-symmetric.
                CHECK(asymmetric(r.learned.terms.data() + 3 * nn, n) == 0);

                // The weights are the softmax of the terms' sum (the invariant the derivation keeps).
                for (const posenc::SchemeResult* s : {&r.additive, &r.concatenated, &r.learned}) {
                    std::vector<double> sum(nn, 0.0);
                    for (std::size_t t = 0; t < 4; ++t)
                        for (std::size_t i = 0; i < nn; ++i) sum[i] += s->terms[t * nn + i];
                    const auto want = posenc::reference::softmax_rows(sum, n, n, cfg.causal);
                    CHECK(max_abs_diff(s->weights.data(), want.data(), nn) <= 1e-5);
                }
            }
        }
    }
}

TEST_CASE("compare, W = I: a concatenation basis gives the same structure; widened without one shares αE·αEᵀ",
          "[compare]") {
    posenc::CompareConfig cfg = valid_config(17, 20, 6);
    cfg.concat_mode = ConcatMode::widened;
    const std::size_t n = cfg.n, d = cfg.d, nn = n * n;
    const auto e = random_values(n * d, 31, 1.5f);
    const auto basis = random_values(n * d, 32, 1.5f);
    posenc::CompareResult plain, with_basis;
    posenc::compare(cfg, e.data(), plain);
    posenc::compare(cfg, e.data(), with_basis, basis.data());
    // Without a basis the word block is αE: its product is the shared αE·αEᵀ times 1/√(d + d_pos).
    const float scale_w = 1.0f / std::sqrt(static_cast<float>(d + cfg.d_pos));
    const auto ww = products(plain.rotary.x.data(), d, plain.rotary.x.data(), d, n, d, scale_w);
    CHECK(max_rel_diff(plain.concatenated.terms.data(), ww) <= 1e-5);
    // With a basis: the word block is α·basis, products over it, not over αE.
    const auto wb = products(with_basis.concatenated.x.data(), d + cfg.d_pos, with_basis.concatenated.x.data(),
                             d + cfg.d_pos, n, d, scale_w);
    CHECK(max_rel_diff(with_basis.concatenated.terms.data(), wb) <= 1e-5);
    CHECK(max_rel_diff(plain.concatenated.terms.data(), wb) > 1e-2);  // the basis matters
    // Position terms and zeros do not depend on the basis.
    CHECK(std::memcmp(plain.concatenated.terms.data() + nn, with_basis.concatenated.terms.data() + nn,
                      3 * nn * sizeof(float)) == 0);
}

TEST_CASE("compare: sinusoidal tables kept between calls equal fresh ones as n, d, base and layout change",
          "[compare]") {
    posenc::CompareResult reused;
    struct Step { std::size_t n, d; double base; Layout layout; };
    const Step steps[] = {{9, 16, 10000.0, Layout::interleaved}, {20, 16, 10000.0, Layout::interleaved},
                          {5, 16, 10000.0, Layout::interleaved}, {30, 16, 10000.0, Layout::interleaved},
                          {30, 16, 500.0, Layout::interleaved},  {30, 16, 500.0, Layout::half},
                          {12, 20, 500.0, Layout::half},         {40, 20, 500.0, Layout::half}};
    const auto e = random_values(40 * 20, 77, 1.5f);
    for (const Step& st : steps) {
        posenc::CompareConfig cfg = valid_config();
        cfg.n = st.n;
        cfg.d = st.d;
        cfg.base = st.base;
        cfg.layout = st.layout;
        posenc::compare(cfg, e.data(), reused);
        posenc::CompareResult fresh;
        posenc::compare(cfg, e.data(), fresh);
        std::vector<float> pe(st.n * st.d);
        posenc::sinusoidal_table(st.n, st.d, st.base, st.layout, pe.data());
        CAPTURE(st.n, st.d, st.base);
        CHECK(same_bits(reused.pe, pe));
        CHECK(same_bits(reused.pe_concat, fresh.pe_concat));
        CHECK(same_bits(reused.additive.terms, fresh.additive.terms));
        CHECK(same_bits(reused.concatenated.weights, fresh.concatenated.weights));
    }
    // A lane dropped and requested again starts from nothing.
    posenc::CompareConfig cfg = valid_config();
    cfg.schemes = posenc::scheme_bit(posenc::Scheme::rotary);
    posenc::compare(cfg, e.data(), reused);
    CHECK(reused.pe.empty());
    cfg.schemes = posenc::kClassicSchemes;
    posenc::compare(cfg, e.data(), reused);
    std::vector<float> pe(cfg.n * cfg.d);
    posenc::sinusoidal_table(cfg.n, cfg.d, cfg.base, cfg.layout, pe.data());
    CHECK(same_bits(reused.pe, pe));
}
