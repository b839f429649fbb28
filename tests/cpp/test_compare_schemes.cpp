// compare.hpp with the further schemes (learned, alibi, nope, t5, xpos, rope_pi, rope_ntk, yarn)
// and distance_curves: validation, lanes against float64 references written from the formulas
// (tests/reference/reference.hpp plus the per-scheme formulas below), the papers' reductions and the
// relative-position property.
//
// Tolerances (inputs uniform in [−1.5, 1.5), so |logit| ≲ 10 for d ≤ 32):
//   logits   1e-5·(1 + |v|): float32 dot products of ≤ 32 terms, ~6e-8 relative per rounding
//   rotated  3e-5·(1 + |v|): the same after a float32 rotation (a few ulps per component)
//   weights  1e-5 absolute: the contract's attention tolerance
//   curves   1e-6·(1 + |v|): float64 sums rounded once to float32
#include <catch2/catch.hpp>

#include "test_support.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "analysis/analyses.hpp"
#include "compare/compare.hpp"
#include "reference.hpp"
#include "encodings/scheme_table.hpp"
#include "encodings/schemes.hpp"

namespace {

using namespace posenc::test;
using posenc::CompareConfig;
using posenc::CompareResult;
using posenc::Scheme;
using posenc::scheme_bit;

constexpr Scheme kNew[] = {Scheme::learned, Scheme::alibi, Scheme::nope, Scheme::t5,
                           Scheme::xpos, Scheme::rope_pi, Scheme::rope_ntk, Scheme::yarn};

CompareConfig config(std::size_t n, std::size_t d, posenc::SchemeSet schemes, bool causal = false) {
    CompareConfig cfg;
    cfg.n = n;
    cfg.d = d;
    cfg.d_pos = 2;
    cfg.alpha = 1.0f;
    cfg.causal = causal;
    cfg.schemes = schemes;
    return cfg;
}

std::string message(const CompareConfig& cfg) {
    const char* m = posenc::validate(cfg);
    return m ? m : "(valid)";
}

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
}

double max_rel(const float* got, const std::vector<double>& want) {
    double m = 0.0;
    for (std::size_t i = 0; i < want.size(); ++i) m = std::fmax(m, std::fabs(got[i] - want[i]) / (1.0 + std::fabs(want[i])));
    return m;
}

// (key − query) → value, as an n×n map.
template <class F>
std::vector<double> by_offset(std::size_t n, F f) {
    std::vector<double> out(n * n);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) out[i * n + j] = f(static_cast<long>(j) - static_cast<long>(i));
    return out;
}

// W = I pre-mask logit terms of a scheme from the formulas; x holds α·E (α = 1 here).
std::vector<std::vector<double>> reference_terms(Scheme s, const CompareConfig& cfg, const std::vector<float>& x) {
    const std::size_t n = cfg.n, d = cfg.d;
    const double scale = 1.0 / std::sqrt(static_cast<double>(d));
    const std::vector<double> e(x.begin(), x.end());
    const auto cc = posenc::reference::logits(e, e, n, d, scale);
    const posenc::SchemeOptions& o = cfg.options;
    switch (s) {
        case Scheme::learned: {
            std::vector<float> table(n * d);
            posenc::learned_table(posenc::kLearnedSeed, n, d, table.data());
            const std::vector<double> l(table.begin(), table.end());
            return {cc, posenc::reference::logits(e, l, n, d, scale), posenc::reference::logits(l, e, n, d, scale),
                    posenc::reference::logits(l, l, n, d, scale)};
        }
        case Scheme::alibi: {
            std::vector<double> slopes(o.alibi_heads);
            posenc::alibi_slopes(o.alibi_heads, slopes.data());
            const double m = slopes[o.alibi_head - 1];
            return {cc, by_offset(n, [m](long r) { return -m * std::abs(r); })};
        }
        case Scheme::t5: {
            std::vector<float> values(o.t5_buckets);
            posenc::t5_bucket_values(posenc::kT5Seed, o.t5_buckets, values.data());
            return {cc, by_offset(n, [&](long r) { return values[posenc::t5_bucket(r, !cfg.causal, o.t5_buckets, o.t5_max_distance)]; })};
        }
        case Scheme::nope:
            return {cc};
        default: break;
    }
    // Rope family: ω from the papers' formulas, written out here.
    const double s_factor = std::max(1.0, o.eval_length / o.trained_length);
    std::vector<double> omega(d / 2);
    for (std::size_t i = 0; i < d / 2; ++i) {
        const double w = std::pow(cfg.base, -2.0 * i / d);
        if (s == Scheme::rope_pi) {
            omega[i] = w / s_factor;
        } else if (s == Scheme::rope_ntk) {
            omega[i] = std::pow(cfg.base * std::pow(s_factor, d / (d - 2.0)), -2.0 * i / d);
        } else if (s == Scheme::yarn) {
            const double r = o.trained_length * w / (2.0 * M_PI);
            const double g = r < o.yarn_alpha ? 0.0 : r > o.yarn_beta ? 1.0 : (r - o.yarn_alpha) / (o.yarn_beta - o.yarn_alpha);
            omega[i] = (1.0 - g) * w / s_factor + g * w;
        } else {
            omega[i] = w;
        }
    }
    auto q = posenc::reference::rotate_with_frequencies(x.data(), n, d, omega.data(), cfg.pairing);
    auto k = q;
    double factor = 1.0;
    if (s == Scheme::xpos) {
        for (std::size_t p = 0; p < n; ++p) {
            for (std::size_t j = 0; j < d; ++j) {
                const std::size_t i = posenc::pair_of(j, d, cfg.pairing);
                const double zeta = (2.0 * i / d + o.xpos_gamma) / (1.0 + o.xpos_gamma);
                q[p * d + j] *= std::pow(zeta, p / o.xpos_scale_base);
                k[p * d + j] *= std::pow(zeta, -(p / o.xpos_scale_base));
            }
        }
    }
    if (s == Scheme::yarn && s_factor > 1.0) factor = std::pow(0.1 * std::log(s_factor) + 1.0, 2.0);
    return {posenc::reference::logits(q, k, n, d, scale * factor)};
}

}  // namespace

TEST_CASE("validate: the further schemes' options, each message naming its option", "[compare][schemes]") {
    CompareConfig cfg = config(9, 16, posenc::kAllSchemes);
    CHECK(message(cfg) == "(valid)");
    auto with = [&](auto change) {
        CompareConfig c = cfg;
        change(c);
        return message(c);
    };
    CHECK_THAT(with([](CompareConfig& c) { c.schemes = 0; }), Catch::Contains("schemes"));
    CHECK_THAT(with([](CompareConfig& c) { c.schemes = 1u << 11; }), Catch::Contains("schemes"));
    CHECK_THAT(with([](CompareConfig& c) { c.options.trained_length = 0; }), Catch::Contains("trainedLength"));
    CHECK_THAT(with([](CompareConfig& c) { c.options.eval_length = 1048577; }), Catch::Contains("evalLength"));
    CHECK_THAT(with([](CompareConfig& c) { c.options.eval_length = 2.5; }), Catch::Contains("evalLength"));
    CHECK_THAT(with([](CompareConfig& c) { c.options.alibi_heads = 65; }), Catch::Contains("alibiHeads"));
    CHECK_THAT(with([](CompareConfig& c) { c.options.alibi_head = 9; }), Catch::Contains("alibiHead"));
    CHECK_THAT(with([](CompareConfig& c) { c.options.alibi_head = 0; }), Catch::Contains("alibiHead"));
    CHECK_THAT(with([](CompareConfig& c) { c.options.t5_buckets = 258; }), Catch::Contains("t5Buckets"));
    CHECK_THAT(with([](CompareConfig& c) { c.options.t5_buckets = 7; }), Catch::Contains("t5Buckets"));
    CHECK_THAT(with([](CompareConfig& c) { c.options.t5_max_distance = 8; }), Catch::Contains("t5MaxDistance"));
    CHECK(with([](CompareConfig& c) { c.options.t5_max_distance = 9; }) == "(valid)");
    // Causal buckets: 32 buckets for one direction, 16 exact.
    CHECK_THAT(with([](CompareConfig& c) { c.causal = true; c.options.t5_max_distance = 16; }), Catch::Contains("t5MaxDistance"));
    CHECK_THAT(with([](CompareConfig& c) { c.options.xpos_gamma = 0.0; }), Catch::Contains("xposGamma"));
    CHECK_THAT(with([](CompareConfig& c) { c.options.xpos_gamma = 10.5; }), Catch::Contains("xposGamma"));
    CHECK_THAT(with([](CompareConfig& c) { c.options.xpos_scale_base = 0.0; }), Catch::Contains("xposScaleBase"));
    CHECK_THAT(with([](CompareConfig& c) { c.options.yarn_alpha = 32.0; }), Catch::Contains("yarnAlpha"));
    CHECK_THAT(with([](CompareConfig& c) { c.options.yarn_beta = NAN; }), Catch::Contains("yarnBeta"));
    // ζ^(±(n−1)/λ) must stay far inside float32: 1023·ln(3.5)/λ ≤ 40 needs λ ≥ 32.04.
    CHECK_THAT(with([](CompareConfig& c) { c.n = 1024; c.options.xpos_scale_base = 32.0; }), Catch::Contains("xposScaleBase"));
    CHECK(with([](CompareConfig& c) { c.n = 1024; c.options.xpos_scale_base = 32.1; }) == "(valid)");
    CHECK(with([](CompareConfig& c) { c.n = 1024; c.options.xpos_scale_base = 1.0; c.schemes = scheme_bit(Scheme::rotary); }) == "(valid)");
    // d_pos only matters when concatenated is computed.
    CHECK(with([](CompareConfig& c) { c.d = 2; c.d_pos = 0; c.schemes = scheme_bit(Scheme::nope); }) == "(valid)");
    CHECK_THAT(with([](CompareConfig& c) { c.d = 2; c.schemes = scheme_bit(Scheme::concatenated); }), Catch::Contains("d_pos"));
    // All lanes together get at most what the three original ones could: 3·2^24 weights.
    const posenc::SchemeSet six = posenc::kClassicSchemes | scheme_bit(Scheme::nope) | scheme_bit(Scheme::t5) | scheme_bit(Scheme::xpos);
    CHECK(with([&](CompareConfig& c) { c.n = 1024; c.heads = 8; c.schemes = six; }) == "(valid)");  // 6·8·2^20 = 3·2^24
    CHECK_THAT(with([&](CompareConfig& c) { c.n = 1024; c.heads = 8; c.schemes = six | scheme_bit(Scheme::yarn); }),
               Catch::Contains("number of schemes"));
}

TEST_CASE("compare: only the requested lanes are filled; the others are emptied", "[compare][schemes]") {
    const auto e = random_values(5 * 8, 3, 1.5f);
    CompareResult r;
    posenc::compare(config(5, 8, posenc::kAllSchemes), e.data(), r);
    for (unsigned s = 0; s < posenc::kSchemeCount; ++s) CHECK(r.lane(static_cast<Scheme>(s)).weights.size() == 25);
    posenc::compare(config(5, 8, scheme_bit(Scheme::t5) | scheme_bit(Scheme::yarn)), e.data(), r);
    for (unsigned s = 0; s < posenc::kSchemeCount; ++s) {
        const bool wanted = s == static_cast<unsigned>(Scheme::t5) || s == static_cast<unsigned>(Scheme::yarn);
        CHECK(r.lane(static_cast<Scheme>(s)).weights.empty() == !wanted);
    }
    CHECK(r.pe.empty());
    CHECK(r.pe_concat.empty());
    CHECK(r.t5.buckets.size() == 25);
    CHECK(r.yarn.frequencies.size() == 4);
}

TEST_CASE("compare: every new lane with W = I against float64 references", "[compare][schemes]") {
    for (bool causal : {false, true}) {
        for (posenc::Layout pairing : {posenc::Layout::interleaved, posenc::Layout::half}) {
            for (std::size_t n : {1, 3, 5, 8, 17, 64}) {
                const std::size_t d = n == 64 ? 16 : 12;
                CompareConfig cfg = config(n, d, posenc::kAllSchemes, causal);
                cfg.pairing = pairing;
                cfg.options.alibi_heads = 12;
                cfg.options.alibi_head = 11;
                cfg.options.t5_buckets = 16;
                cfg.options.t5_max_distance = 20;
                cfg.options.trained_length = 512;
                cfg.options.eval_length = 2000;
                const auto e = random_values(n * d, 100 + n, 1.5f);
                CompareResult r;
                posenc::compare(cfg, e.data(), r);
                const std::vector<float>& content = r.nope.x;  // α·E
                for (Scheme s : kNew) {
                    const posenc::SchemeResult& lane = r.lane(s);
                    const auto terms = reference_terms(s, cfg, content);
                    const std::size_t nn = n * n;
                    CAPTURE(causal, n, static_cast<unsigned>(s));
                    REQUIRE(lane.term_count == terms.size());
                    REQUIRE(lane.terms.size() == terms.size() * nn);
                    REQUIRE(lane.weights.size() == nn);
                    const bool rotated = posenc::scheme_info(s).family == posenc::Family::rotation;
                    std::vector<double> sum(nn, 0.0);
                    for (std::size_t t = 0; t < terms.size(); ++t) {
                        const double err = max_rel(lane.terms.data() + t * nn, terms[t]);
                        CAPTURE(t, err);
                        CHECK(err <= (rotated ? 3e-5 : 1e-5));
                        for (std::size_t i = 0; i < nn; ++i) sum[i] += terms[t][i];
                    }
                    const auto want = posenc::reference::softmax_rows(sum, n, n, causal);
                    CHECK(max_abs_diff(lane.weights.data(), want.data(), nn) <= 1e-5);
                }
                // NoPE's two maps; T5's buckets; the extras.
                const auto cc = reference_terms(Scheme::nope, cfg, content)[0];
                const auto masked = posenc::reference::softmax_rows(cc, n, n, true);
                const auto unmasked = posenc::reference::softmax_rows(cc, n, n, false);
                CHECK(max_abs_diff(r.nope.masked.data(), masked.data(), n * n) <= 1e-5);
                CHECK(max_abs_diff(r.nope.unmasked.data(), unmasked.data(), n * n) <= 1e-5);
                CHECK(same_bits(r.nope.weights, causal ? r.nope.masked : r.nope.unmasked));
                for (std::size_t i = 0; i < n; ++i)
                    for (std::size_t j = 0; j < n; ++j)
                        CHECK(r.t5.buckets[i * n + j] == posenc::t5_bucket(static_cast<long>(j) - static_cast<long>(i), !causal, 16, 20));
                CHECK(r.alibi.slopes == std::vector<double>{std::pow(2.0, -2.5)});  // 12 heads, head 11 (Press et al. §3)
                CHECK(r.yarn.scale_factor == Approx(2000.0 / 512.0).epsilon(1e-15));
                CHECK(r.yarn.qk_factor == Approx(0.1 * std::log(2000.0 / 512.0) + 1.0).epsilon(1e-15));
                CHECK(r.rotary.scale_factor == 1.0);
                CHECK(r.xpos.scale_factor == 1.0);
            }
        }
    }
}

TEST_CASE("compare: RoPE scalings are plain RoPE at s = 1, bit for bit, with and without heads", "[compare][schemes]") {
    for (std::size_t heads : {0, 2}) {
        for (bool causal : {false, true}) {
            CompareConfig cfg = config(17, 16, scheme_bit(Scheme::rotary) | scheme_bit(Scheme::rope_pi) |
                                                   scheme_bit(Scheme::rope_ntk) | scheme_bit(Scheme::yarn), causal);
            cfg.heads = heads;
            cfg.options.trained_length = 4096;
            cfg.options.eval_length = 1000;  // ≤ L: s = 1
            const auto e = random_values(17 * 16, 9, 1.5f);
            CompareResult r;
            posenc::compare(cfg, e.data(), r);
            for (Scheme s : {Scheme::rope_pi, Scheme::rope_ntk, Scheme::yarn}) {
                CHECK(same_bits(r.lane(s).weights, r.rotary.weights));
                CHECK(same_bits(r.lane(s).terms, r.rotary.terms));
                CHECK(r.lane(s).frequencies == r.rotary.frequencies);
            }
        }
    }
}

TEST_CASE("compare: relative schemes ignore prepended fillers; absolute ones do not", "[compare][schemes]") {
    const std::size_t n = 12, k = 5, d = 16;
    const auto e = random_values(n * d, 21, 1.5f);
    auto shifted = random_values((n + k) * d, 22, 1.5f);
    std::copy(e.begin(), e.end(), shifted.begin() + k * d);
    for (std::size_t heads : {0, 2}) {
        for (bool causal : {false, true}) {
            CompareConfig cfg = config(n, d, posenc::kAllSchemes, causal);
            cfg.heads = heads;
            cfg.options.t5_buckets = 8;
            cfg.options.t5_max_distance = 12;
            CompareConfig longer = cfg;
            longer.n = n + k;
            CompareResult one, two;
            posenc::compare(cfg, e.data(), one);
            posenc::compare(longer, shifted.data(), two);
            for (unsigned s = 0; s < posenc::kSchemeCount; ++s) {
                const Scheme scheme = static_cast<Scheme>(s);
                float change = 0.0f;
                for (std::size_t h = 0; h < std::max<std::size_t>(heads, 1); ++h) {
                    change = std::max(change, posenc::max_shift_change(one.lane(scheme).weights.data() + h * n * n,
                                                                       two.lane(scheme).weights.data() + h * (n + k) * (n + k), n, k));
                }
                CAPTURE(heads, causal, s, change);
                // W = I concatenation is relative too (αe·αe + PE(i)·PE(j)); its heads mix the parts.
                const bool absolute = scheme == Scheme::additive || scheme == Scheme::learned ||
                                      (scheme == Scheme::concatenated && heads > 0);
                if (absolute) {
                    CHECK(change > 1e-3f);
                } else {
                    CHECK(change <= 2e-5f);  // float rounding of logits formed at other positions
                }
            }
        }
    }
}

TEST_CASE("distance_curves: every scheme against its formula", "[compare][schemes][curves]") {
    posenc::CurveConfig cfg;
    cfg.d = 32;
    cfg.max_distance = 700;
    cfg.d_pos = 8;
    cfg.schemes = posenc::kAllSchemes;
    cfg.options.trained_length = 256;
    cfg.options.eval_length = 1024;
    const std::size_t row = cfg.max_distance + 1, d = cfg.d;
    REQUIRE(posenc::validate(cfg) == nullptr);
    std::vector<float> out(posenc::kSchemeCount * row);
    posenc::distance_curves(cfg, out.data());
    auto curve = [&](Scheme s) { return out.data() + static_cast<unsigned>(s) * row; };
    const posenc::SchemeOptions& o = cfg.options;
    const double s_factor = 4.0, qk = 0.1 * std::log(4.0) + 1.0;
    std::vector<double> slopes(8), yarn_omega(d / 2), ntk_omega(d / 2);
    posenc::alibi_slopes(8, slopes.data());
    std::vector<float> values(32), table(row * d);
    posenc::t5_bucket_values(posenc::kT5Seed, 32, values.data());
    posenc::learned_table(posenc::kLearnedSeed, row, d, table.data());
    double worst = 0.0;
    for (std::size_t k = 0; k < row; ++k) {
        double additive = 0.0, concat = 0.0, rotary = 0.0, xpos = 0.0, pi = 0.0, ntk = 0.0, yarn = 0.0, learned = 0.0;
        for (std::size_t i = 0; i < d / 2; ++i) {
            const double w = std::pow(10000.0, -2.0 * i / d);
            const double r = o.trained_length * w / (2.0 * M_PI);
            const double g = r < 1.0 ? 0.0 : r > 32.0 ? 1.0 : (r - 1.0) / 31.0;
            const double zeta = (2.0 * i / d + 0.4) / 1.4;
            additive += std::cos(k * w);
            rotary += 2.0 * std::cos(k * w);
            xpos += 2.0 * std::cos(k * w) * std::pow(zeta, k / 512.0);
            pi += 2.0 * std::cos(k * w / s_factor);
            ntk += 2.0 * std::cos(k * std::pow(10000.0 * std::pow(s_factor, d / (d - 2.0)), -2.0 * i / d));
            yarn += 2.0 * std::cos(k * ((1.0 - g) * w / s_factor + g * w)) * qk * qk;
        }
        for (std::size_t i = 0; i < cfg.d_pos / 2; ++i) concat += std::cos(k * std::pow(10000.0, -2.0 * i / cfg.d_pos));
        for (std::size_t j = 0; j < d; ++j) learned += static_cast<double>(table[k * d + j]) * table[j];
        const double root = std::sqrt(static_cast<double>(d));
        const std::pair<Scheme, double> want[] = {
            {Scheme::additive, additive / root}, {Scheme::concatenated, concat / root}, {Scheme::rotary, rotary / root},
            {Scheme::learned, learned / root}, {Scheme::alibi, -slopes[0] * k},
            {Scheme::t5, values[posenc::t5_bucket(-static_cast<long>(k), true, 32, 128)]}, {Scheme::nope, 0.0},
            {Scheme::xpos, xpos / root}, {Scheme::rope_pi, pi / root}, {Scheme::rope_ntk, ntk / root}, {Scheme::yarn, yarn / root}};
        for (const auto& [s, v] : want) worst = std::fmax(worst, std::fabs(curve(s)[k] - v) / (1.0 + std::fabs(v)));
    }
    CAPTURE(worst);
    CHECK(worst <= 1e-6);
    CHECK(curve(Scheme::rotary)[0] == Approx(std::sqrt(32.0)).epsilon(1e-7));
    CHECK(curve(Scheme::yarn)[0] == Approx(std::sqrt(32.0) * qk * qk).epsilon(1e-7));
    CHECK(curve(Scheme::alibi)[0] == 0.0f);
    CHECK(!std::signbit(curve(Scheme::alibi)[0]));

    // s = 1: the scalings are RoPE's curve exactly.
    cfg.options.eval_length = 256;
    posenc::distance_curves(cfg, out.data());
    for (Scheme s : {Scheme::rope_pi, Scheme::rope_ntk, Scheme::yarn})
        CHECK(std::memcmp(curve(s), curve(Scheme::rotary), row * sizeof(float)) == 0);

    // Validation.
    posenc::CurveConfig bad = cfg;
    bad.max_distance = 65537;
    CHECK(posenc::validate(bad) != nullptr);
    bad = cfg;
    bad.d = 4096;
    bad.max_distance = 4096;  // (K + 1)·d > 2^24
    CHECK(posenc::validate(bad) != nullptr);
    bad = cfg;
    bad.options.yarn_beta = 0.5;
    CHECK(posenc::validate(bad) != nullptr);
}

TEST_CASE("compare: reused buffers give the results of a fresh call (learned table kept between calls)", "[compare][schemes]") {
    const auto e = random_values(20 * 16, 5, 1.5f);
    CompareResult reused;
    for (auto [n, d] : {std::pair<std::size_t, std::size_t>{20, 16}, {5, 16}, {9, 8}, {20, 8}, {3, 16}}) {
        CompareConfig cfg = config(n, d, posenc::kAllSchemes, n % 2 == 1);
        posenc::compare(cfg, e.data(), reused);
        CompareResult fresh;
        posenc::compare(cfg, e.data(), fresh);
        CAPTURE(n, d);
        for (unsigned s = 0; s < posenc::kSchemeCount; ++s) {
            const Scheme scheme = static_cast<Scheme>(s);
            CHECK(same_bits(reused.lane(scheme).x, fresh.lane(scheme).x));
            CHECK(same_bits(reused.lane(scheme).weights, fresh.lane(scheme).weights));
            CHECK(same_bits(reused.lane(scheme).terms, fresh.lane(scheme).terms));
        }
    }
}
