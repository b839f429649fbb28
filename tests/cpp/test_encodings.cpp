// encodings.hpp (additive and concatenated inputs) and products.hpp's logit decomposition (Ke et al., TUPE)
// on its own and as compare() uses it (heads = 0, W = I): additive terms add up to the full
// logits, concatenation's cross terms are exactly zero, the rotary term is the rotated q·k; the
// terms summed without being formed (sum_identity_terms), restride, and all_finite.
#include <catch2/catch.hpp>

#include "test_support.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "attention/attention.hpp"
#include "attention/products.hpp"
#include "compare/compare.hpp"
#include "encodings/encodings.hpp"
#include "reference.hpp"
#include "encodings/sinusoidal.hpp"

namespace {

using namespace posenc::test;

using posenc::Layout;

posenc::CompareConfig config(std::size_t n, std::size_t d, std::size_t d_pos) {
    posenc::CompareConfig cfg;
    cfg.n = n;
    cfg.d = d;
    cfg.d_pos = d_pos;
    cfg.alpha = 0.75f;
    return cfg;
}

}  // namespace

TEST_CASE("add_encoding is alpha·e + pe elementwise for every tail length", "[encodings]") {
    for (std::size_t count : kTailSizes) {
        const auto e = random_values(count, 1 + count, 2.0f), pe = random_values(count, 2 + count);
        std::vector<float> out(count + 1, 12345.0f);  // one guard element past the end
        posenc::add_encoding(e.data(), 1.7f, pe.data(), count, out.data());
        for (std::size_t j = 0; j < count; ++j) {
            // One multiply and one add, rounded separately (no contraction): exactly these bits.
            const float want = 1.7f * e[j] + pe[j];
            CAPTURE(count, j);
            CHECK(out[j] == want);
            CHECK(std::fabs(out[j] - (1.7 * static_cast<double>(e[j]) + pe[j])) <= 2 * 0x1p-24 * 5.0);
        }
        CHECK(out[count] == 12345.0f);
    }
}

TEST_CASE("concatenate_encoding lays out [alpha·e[0 … d_word) ; pe]", "[encodings]") {
    struct Shape {
        std::size_t n, d_src, d_word, d_pos;
    };
    const Shape shapes[] = {{1, 4, 4, 2}, {3, 10, 7, 4}, {5, 64, 48, 16}, {4, 16, 16, 16}, {2, 100, 1, 98}};
    for (const Shape& sh : shapes) {
        const auto e = random_values(sh.n * sh.d_src, 10 + sh.d_src), pe = random_values(sh.n * sh.d_pos, 20 + sh.d_pos);
        const std::size_t w = sh.d_word + sh.d_pos;
        std::vector<float> out(sh.n * w + 1, 999.0f);
        posenc::concatenate_encoding(e.data(), sh.n, sh.d_src, sh.d_word, 0.5f, pe.data(), sh.d_pos, out.data());
        CAPTURE(sh.n, sh.d_src, sh.d_word, sh.d_pos);
        std::size_t mismatches = 0;
        for (std::size_t p = 0; p < sh.n; ++p) {
            for (std::size_t j = 0; j < sh.d_word; ++j)
                if (out[p * w + j] != 0.5f * e[p * sh.d_src + j]) ++mismatches;
            for (std::size_t j = 0; j < sh.d_pos; ++j)
                if (out[p * w + sh.d_word + j] != pe[p * sh.d_pos + j]) ++mismatches;
        }
        CHECK(mismatches == 0);
        CHECK(out[sh.n * w] == 999.0f);
    }
}

TEST_CASE("logit_terms add up to the logits of q = a + b, k = a' + b'", "[encodings][property]") {
    for (std::size_t d : {std::size_t{2}, std::size_t{5}, std::size_t{16}, std::size_t{63}, std::size_t{100}}) {
        for (std::size_t n : {std::size_t{1}, std::size_t{3}, std::size_t{8}, std::size_t{17}}) {
            const auto qa = random_values(n * d, 1 + d), qb = random_values(n * d, 2 + d);
            const auto ka = random_values(n * d, 3 + d), kb = random_values(n * d, 4 + d);
            const float scale = 1.0f / std::sqrt(static_cast<float>(d));
            std::vector<float> terms(4 * n * n);
            posenc::logit_terms(qa.data(), qb.data(), ka.data(), kb.data(), n, d, scale, terms.data());
            const std::vector<const float*> qs = {qa.data(), qa.data(), qb.data(), qb.data()};
            const std::vector<const float*> ks = {ka.data(), kb.data(), ka.data(), kb.data()};
            CAPTURE(d, n);
            for (std::size_t i = 0; i < n; ++i) {
                for (std::size_t j = 0; j < n; ++j) {
                    double full = 0.0, bound = 0.0, sum = 0.0;
                    for (std::size_t c = 0; c < d; ++c) {
                        const double q = static_cast<double>(qa[i * d + c]) + qb[i * d + c];
                        const double k = static_cast<double>(ka[j * d + c]) + kb[j * d + c];
                        full += q * k;
                        bound += (std::fabs(qa[i * d + c]) + std::fabs(qb[i * d + c])) *
                                 (std::fabs(ka[j * d + c]) + std::fabs(kb[j * d + c]));
                    }
                    for (std::size_t t = 0; t < 4; ++t) {
                        // Each term is its own (a|b)·(a|b) product, in order [aa, ab, ba, bb].
                        double term = 0.0, term_bound = 0.0;
                        for (std::size_t c = 0; c < d; ++c) {
                            term += static_cast<double>(qs[t][i * d + c]) * ks[t][j * d + c];
                            term_bound += std::fabs(static_cast<double>(qs[t][i * d + c]) * ks[t][j * d + c]);
                        }
                        // One float dot (d·2^-24·Σ|terms|) then ×scale (2^-24).
                        CHECK(std::fabs(terms[t * n * n + i * n + j] - scale * term) <= (d + 1) * 0x1p-24 * scale * term_bound);
                        sum += terms[t * n * n + i * n + j];
                    }
                    // The four float terms, each within (d + 1)·2^-24·scale·its Σ|products| of
                    // exact, add up to the exact full logit within (d + 1)·2^-24·scale·Σ(|a|+|b|)(|a'|+|b'|).
                    CHECK(std::fabs(sum - scale * full) <= (d + 1) * 0x1p-24 * scale * bound);
                }
            }
        }
    }
}

TEST_CASE("compare, heads = 0: concatenated cross terms are exactly zero", "[encodings][compare][property]") {
    for (posenc::ConcatMode mode : {posenc::ConcatMode::same_width, posenc::ConcatMode::widened}) {
        for (std::size_t d : {std::size_t{8}, std::size_t{14}, std::size_t{64}}) {
            for (std::size_t n : {std::size_t{1}, std::size_t{5}, std::size_t{17}}) {
                posenc::CompareConfig cfg = config(n, d, 6);
                cfg.concat_mode = mode;
                const auto e = random_values(n * d, 77 + n + d, 1.7f);
                posenc::CompareResult r;
                REQUIRE(posenc::validate(cfg) == nullptr);
                posenc::compare(cfg, e.data(), r);
                REQUIRE(r.concatenated.term_count == 4);
                const std::size_t nn = n * n;
                std::size_t nonzero = 0, zero_diagonal = 0;
                for (std::size_t i = 0; i < nn; ++i) {
                    // Word and position parts live in disjoint dimensions: every product is ±0.
                    if (r.concatenated.terms[nn + i] != 0.0f) ++nonzero;
                    if (r.concatenated.terms[2 * nn + i] != 0.0f) ++nonzero;
                }
                // The other two terms are real: the diagonal of content·content and
                // position·position is a squared norm, > 0.
                for (std::size_t i = 0; i < n; ++i) {
                    if (!(r.concatenated.terms[i * n + i] > 0.0f)) ++zero_diagonal;
                    if (!(r.concatenated.terms[3 * nn + i * n + i] > 0.0f)) ++zero_diagonal;
                }
                CAPTURE(mode == posenc::ConcatMode::widened, d, n);
                CHECK(nonzero == 0);
                CHECK(zero_diagonal == 0);
                // The additive cross terms are not zero (same dimensions): the contrast is real.
                bool additive_cross_nonzero = n == 1 ? true : false;
                for (std::size_t i = 0; i < nn; ++i) additive_cross_nonzero |= r.additive.terms[nn + i] != 0.0f;
                CHECK(additive_cross_nonzero);
            }
        }
    }
}

TEST_CASE("compare, heads = 0: additive terms add up to the pre-softmax logits", "[encodings][compare][property]") {
    for (bool causal : {false, true}) {
        for (std::size_t d : {std::size_t{6}, std::size_t{16}, std::size_t{100}}) {
            const std::size_t n = 13;
            posenc::CompareConfig cfg = config(n, d, 4);
            cfg.causal = causal;
            const auto e = random_values(n * d, 500 + d, 1.7f);
            posenc::CompareResult r;
            REQUIRE(posenc::validate(cfg) == nullptr);
            posenc::compare(cfg, e.data(), r);
            const std::size_t nn = n * n;
            // compare()'s default scale, 1/√d_head evaluated in float.
            const float scale = 1.0f / std::sqrt(static_cast<float>(d));
            // The logits the weights were computed from: scale·x_i·x_j with x = αE + PE.
            std::vector<float> logits(nn);
            posenc::attention_scores(r.additive.x.data(), r.additive.x.data(), n, n, d, scale, false,
                                     logits.data());
            std::vector<double> sum(nn);
            double worst = 0.0, worst_bound_ratio = 0.0;
            for (std::size_t i = 0; i < n; ++i) {
                for (std::size_t j = 0; j < n; ++j) {
                    double s = 0.0, bound = 0.0;
                    for (std::size_t t = 0; t < 4; ++t) s += r.additive.terms[t * nn + i * n + j];
                    for (std::size_t c = 0; c < d; ++c) {
                        const double a_i = std::fabs(r.rotary.x[i * d + c]) + std::fabs(r.pe[i * d + c]);
                        const double a_j = std::fabs(r.rotary.x[j * d + c]) + std::fabs(r.pe[j * d + c]);
                        bound += a_i * a_j;
                    }
                    sum[i * n + j] = s;
                    // Both sides approximate scale·(a+b)_i·(a+b)_j: the terms within (d + 1)·2^-24·
                    // scale·bound (previous test); the logit also rounds x = a + b (2^-24 each side)
                    // and its own dot ((d + 1)·2^-24): total ≤ (2d + 5)·2^-24·scale·bound.
                    const double diff = std::fabs(s - logits[i * n + j]);
                    worst = std::fmax(worst, diff);
                    worst_bound_ratio = std::fmax(worst_bound_ratio, diff / ((2 * d + 5) * 0x1p-24 * scale * bound));
                }
            }
            CAPTURE(causal, d, worst);
            CHECK(worst_bound_ratio <= 1.0);
            // And the weights are the softmax of that sum: a logit error δ moves a weight by ≤ 2δ.
            const auto w = posenc::reference::softmax_rows(sum, n, n, causal);
            double max_w = 0.0;
            for (std::size_t i = 0; i < nn; ++i) max_w = std::fmax(max_w, std::fabs(r.additive.weights[i] - w[i]));
            CHECK(max_w <= 2.0 * worst + 1e-6);
            // Content·content is (αE)·(αE) and position·position is PE·PE, each × scale.
            std::vector<float> cc(nn);
            posenc::attention_scores(r.rotary.x.data(), r.rotary.x.data(), n, n, d, scale, false, cc.data());
            CHECK(std::memcmp(cc.data(), r.additive.terms.data(), nn * sizeof(float)) == 0);
            // position·position is built from the n offsets (it depends only on |i − j|), summed
            // in double and rounded once: within float rounding of the table entries (each PE
            // value within 2.5e-7 of sin/cos, d products of magnitude ≤ 1 → 4·d·2.5e-7 after the
            // cross terms) plus the final rounding (2^-24·|v|) of scale·PE_i·PE_j in double.
            double worst_pp = 0.0;
            for (std::size_t i = 0; i < n; ++i) {
                for (std::size_t j = 0; j < n; ++j) {
                    double exact = 0.0;
                    for (std::size_t c = 0; c < d; ++c) exact += double(r.pe[i * d + c]) * r.pe[j * d + c];
                    exact *= scale;
                    const double got = r.additive.terms[3 * nn + i * n + j];
                    const double bound = scale * 4.0 * d * 2.5e-7 + 0x1p-24 * std::fabs(exact);
                    worst_pp = std::fmax(worst_pp, std::fabs(got - exact) / bound);
                }
            }
            CAPTURE(worst_pp);
            CHECK(worst_pp <= 1.0);
        }
    }
}

TEST_CASE("compare, heads = 0: the rotary term is the rotated q·k", "[encodings][compare]") {
    for (Layout pairing : {Layout::interleaved, Layout::half}) {
        for (std::size_t d : {std::size_t{2}, std::size_t{6}, std::size_t{16}, std::size_t{66}}) {
            const std::size_t n = 11;
            posenc::CompareConfig cfg = config(n, d, 2);
            cfg.pairing = pairing;
            cfg.concat_mode = posenc::ConcatMode::widened;  // lets d_pos = d = 2 pass validate()
            const auto e = random_values(n * d, 900 + d, 1.7f);
            posenc::CompareResult r;
            REQUIRE(posenc::validate(cfg) == nullptr);
            posenc::compare(cfg, e.data(), r);
            REQUIRE(r.rotary.term_count == 1);
            // Independent float64 path: rotate αE with reference::rotate, dot in double.
            std::vector<float> x(n * d);
            for (std::size_t i = 0; i < n * d; ++i) x[i] = cfg.alpha * e[i];
            const auto rot = posenc::reference::rotate(x.data(), n, d, cfg.base, 0.0, pairing);
            const double scale = 1.0f / std::sqrt(static_cast<float>(d));  // compare()'s default, in float
            double worst_ratio = 0.0;
            for (std::size_t i = 0; i < n; ++i) {
                for (std::size_t j = 0; j < n; ++j) {
                    double want = 0.0, bound = 0.0;
                    for (std::size_t c = 0; c < d; ++c) {
                        want += rot[i * d + c] * rot[j * d + c];
                        // Each rotated entry is within tol·(|x_c| + |x_partner|), tol = 3.7e-7
                        // (test_rotary.cpp), and |rotated entry| ≤ |x_c| + |x_partner|, so one
                        // product is off by ≤ 2·tol·(…)_i·(…)_j < 8e-7·(…)_i·(…)_j; the float dot
                        // adds (d + 1)·2^-24·Σ|q'_c·k'_c|.
                        const std::size_t pc = pairing == Layout::interleaved ? (c ^ 1u) : (c < d / 2 ? c + d / 2 : c - d / 2);
                        bound += 8e-7 * (std::fabs(x[i * d + c]) + std::fabs(x[i * d + pc])) *
                                     (std::fabs(x[j * d + c]) + std::fabs(x[j * d + pc])) +
                                 (d + 1) * 0x1p-24 * std::fabs(rot[i * d + c] * rot[j * d + c]);
                    }
                    const double got = r.rotary.terms[i * n + j];
                    worst_ratio = std::fmax(worst_ratio, std::fabs(got - scale * want) / (scale * bound + 1e-30));
                }
            }
            CAPTURE(pairing == Layout::half, d, worst_ratio);
            CHECK(worst_ratio <= 1.0);
            // Non-causal rotary weights are the softmax of exactly this term.
            const std::size_t nn = n * n;
            std::vector<float> w(nn);
            posenc::softmax_rows(r.rotary.terms.data(), n, n, false, w.data());
            CHECK(std::memcmp(w.data(), r.rotary.weights.data(), nn * sizeof(float)) == 0);
            // The diagonal q_i·k_i = ‖x_i‖²·scale: rotation by the same angle cancels.
            for (std::size_t i = 0; i < n; ++i) {
                double norm2 = 0.0;
                for (std::size_t c = 0; c < d; ++c) norm2 += static_cast<double>(x[i * d + c]) * x[i * d + c];
                CHECK(std::fabs(r.rotary.terms[i * n + i] - scale * norm2) <= 1e-5 * scale * norm2);
            }
        }
    }
}

TEST_CASE("sum_identity_terms gives sum_terms' bits for the four terms it is handed as sources", "[encodings][property]") {
    // n across the 16×16 tiles and the batch width (tails 1 … 15 of a tile, several tiles); the
    // sources hold −0 (term 0 at every position, term 3 at one), tiny and large values, so every
    // rounding and signed zero is exercised; without cross terms, term 3 holds no −0 (the
    // kernel's precondition there). Tolerance: none (the same float adds in the same order,
    // contraction off).
    for (std::size_t n : {1, 2, 3, 4, 5, 7, 15, 16, 17, 31, 33, 40}) {
        const std::size_t nn = n * n;
        std::vector<float> m = random_values(nn, 300 + n, 3.0f), c = random_values(nn, 400 + n, 2.0f);
        const std::vector<float> p_plain = random_values(nn, 500 + n, 1.0f), by_offset = random_values(2 * n - 1, 600 + n, 1.0f);
        for (std::size_t k = 0; k < nn; k += 3) m[k] = -0.0f;
        if (nn > 2) {
            m[nn / 2 + 1] = 1e-30f;
            c[nn - 1] = -3e30f;
        }
        for (const float a : {1.0f, 0.37f}) {
            for (const bool cross : {true, false}) {
                for (const bool offsets : {true, false}) {
                    INFO("n = " << n << ", a = " << a << ", cross " << cross << ", by offset " << offsets);
                    std::vector<float> p = p_plain;
                    if (cross) p[0] = -0.0f;  // against term 0's −0 there
                    std::vector<float> terms(4 * nn, 0.0f);
                    for (std::size_t k = 0; k < nn; ++k) terms[k] = a * m[k];
                    for (std::size_t i = 0; i < n; ++i) {
                        for (std::size_t j = 0; j < n; ++j) {
                            terms[nn + i * n + j] = cross ? c[i * n + j] : 0.0f;
                            terms[2 * nn + i * n + j] = cross ? c[j * n + i] : 0.0f;
                            terms[3 * nn + i * n + j] = offsets ? by_offset[j - i + n - 1] : p[i * n + j];
                        }
                    }
                    std::vector<float> want(nn), got(nn, 99.0f);
                    posenc::sum_terms(terms.data(), nn, want.data());
                    const float* rows = offsets ? by_offset.data() + (n - 1) : p.data();
                    posenc::sum_identity_terms(m.data(), a, cross ? c.data() : nullptr, rows,
                                               offsets ? -1 : static_cast<std::ptrdiff_t>(n), n, 0, got.data());
                    CHECK(std::memcmp(got.data(), want.data(), nn * sizeof(float)) == 0);
                    // A kept leading block (as a key leaves it): only the rest is made, with the
                    // same bits; the block's sentinel values stand.
                    for (std::size_t keep : {std::size_t{1}, n / 2, n - 1, n}) {
                        if (keep == 0) continue;
                        std::vector<float> part = want;
                        for (std::size_t i = 0; i < n; ++i)
                            for (std::size_t j = 0; j < n; ++j) part[i * n + j] = i < keep && j < keep ? 7.0f + i : 99.0f;
                        posenc::sum_identity_terms(m.data(), a, cross ? c.data() : nullptr, rows,
                                                   offsets ? -1 : static_cast<std::ptrdiff_t>(n), n, keep, part.data());
                        for (std::size_t i = 0; i < n; ++i) {
                            for (std::size_t j = 0; j < n; ++j) {
                                CAPTURE(keep, i, j);
                                if (i < keep && j < keep) CHECK(part[i * n + j] == 7.0f + i);
                                else CHECK(std::memcmp(&part[i * n + j], &want[i * n + j], sizeof(float)) == 0);
                            }
                        }
                    }
                }
            }
        }
    }
}

TEST_CASE("restride keeps the leading block of an n×n matrix as n grows, shrinks or stays", "[encodings][property]") {
    // Every pair of sizes from 1 to 9 (the same n included: a changed last word), every block
    // size the pair allows: the block's values land at the new stride, and the matrix is n×n.
    for (std::size_t old_n = 1; old_n <= 9; ++old_n) {
        for (std::size_t n = 1; n <= 9; ++n) {
            for (std::size_t keep = 0; keep <= std::min(old_n, n); ++keep) {
                std::vector<float> m(old_n * old_n);
                for (std::size_t k = 0; k < m.size(); ++k) m[k] = static_cast<float>(k) + 0.5f;
                posenc::restride(m, old_n, keep, n);
                CAPTURE(old_n, n, keep);
                REQUIRE(m.size() == n * n);
                for (std::size_t i = 0; i < keep; ++i)
                    for (std::size_t j = 0; j < keep; ++j) CHECK(m[i * n + j] == static_cast<float>(i * old_n + j) + 0.5f);
            }
        }
    }
}

TEST_CASE("all_finite: false for one ±∞ or NaN at any place of any tail, true otherwise", "[encodings][property]") {
    const float bad[] = {std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                         std::numeric_limits<float>::quiet_NaN()};
    for (std::size_t count = 0; count <= 19; ++count) {
        std::vector<float> v = random_values(count, 700 + count, 1e38f);
        if (count > 0) v[0] = std::numeric_limits<float>::max();  // finite, however large
        if (count > 1) v[1] = -0.0f;
        INFO("count = " << count);
        CHECK(posenc::all_finite(v.data(), count));
        for (std::size_t at = 0; at < count; ++at) {
            for (const float x : bad) {
                std::vector<float> w = v;
                w[at] = x;
                INFO("at " << at << ": " << x);
                CHECK_FALSE(posenc::all_finite(w.data(), count));
            }
        }
    }
}
