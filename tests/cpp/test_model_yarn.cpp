// YaRN in the trainable model: the frequencies, angle table and logit scale a rotary model uses
// at evaluation, pinned against an independent float64 reading of Peng et al. 2023 (§3.2
// "NTK-by-parts", §3.4 temperature) with d_h in place of d (docs/ARCHITECTURE.md), at the Train section's
// default shape (d = 32, 2 heads: d_h = 16; T = 32) and factors 2, 3, 4.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "model/forward_backward.hpp"
#include "model_test_support.hpp"

using namespace posenc;
using namespace posenc::model;
using namespace posenc::test;

namespace {

constexpr double kPi = 3.141592653589793;

// The paper's formulas, written from its text rather than from schemes.cpp: θ_i = b^(−2i/|D|)
// through exp/log, wavelength λ_i = 2π/θ_i, r = L/λ_i, ramp γ with α = 1, β = 32 (the page's
// yarnAlpha/yarnBeta defaults), h(θ_i) = (1 − γ)·θ_i/s + γ·θ_i.
double yarn_frequency(std::size_t i, std::size_t dh, double base, double trained, double s) {
    const double theta = std::exp(-2.0 * static_cast<double>(i) / static_cast<double>(dh) * std::log(base));
    const double r = trained / (2.0 * kPi / theta);
    const double alpha = 1.0, beta = 32.0;
    const double gamma = r < alpha ? 0.0 : r > beta ? 1.0 : (r - alpha) / (beta - alpha);
    return (1.0 - gamma) * theta / s + gamma * theta;
}

// softmax(q·k / (t·√d_h)) with √(1/t) = 0.1·ln s + 1: the factor on every logit.
double yarn_logit_scale(double s, std::size_t dh) {
    const double inv_t = std::pow(0.1 * std::log(s) + 1.0, 2.0);
    return inv_t / std::sqrt(static_cast<double>(dh));
}

ModelConfig default_rotary() {
    ModelConfig cfg = variant_config(kVariants[4], 12, 32, 2, 2, 32);
    REQUIRE(cfg.scheme == Scheme::rotary);
    REQUIRE(cfg.d / cfg.heads == 16);
    return cfg;
}

}  // namespace

TEST_CASE("YaRN at d_h = 16: frequencies, angle table and logit scale match the paper in float64", "[model][yarn]") {
    const ModelConfig cfg = default_rotary();
    const std::size_t dh = 16, pairs = dh / 2;
    for (double s : {2.0, 3.0, 4.0}) {
        INFO("factor " << s);
        const auto T = static_cast<std::size_t>(s * static_cast<double>(cfg.context));
        Workspace<float> ws;
        prepare_workspace(cfg, 1, T, false, EvalOptions{RopeScaling::yarn, s}, ws);
        for (std::size_t i = 0; i < pairs; ++i) {
            INFO("pair " << i);
            const double expected = yarn_frequency(i, dh, cfg.base, static_cast<double>(cfg.context), s);
            // Two double routes to the same number (pow vs exp·log, and the ramp written two ways):
            // a few ulps apart at most.
            CHECK(ws.omega[i] == Approx(expected).epsilon(1e-13));
        }
        // The table's float sin/cos of p·ω against double ones: float rounding of values in
        // [−1, 1] (2^−24) plus the phase split's error, well under 1e-6 for p < 128.
        double worst = 0;
        for (std::size_t p = 0; p < T; ++p) {
            for (std::size_t i = 0; i < pairs; ++i) {
                const double angle = static_cast<double>(p) * yarn_frequency(i, dh, cfg.base, 32.0, s);
                worst = std::max(worst, std::abs(ws.rope_table[p * dh + 2 * i] - std::sin(angle)));
                worst = std::max(worst, std::abs(ws.rope_table[p * dh + 2 * i + 1] - std::cos(angle)));
            }
        }
        CHECK(worst <= 1e-6);
        // One float rounding of the double product.
        CHECK(ws.scale == Approx(yarn_logit_scale(s, dh)).epsilon(1e-7));
    }
}

TEST_CASE("YaRN at d_h = 16, T = 32: only the two fastest pairs escape interpolation", "[model][yarn]") {
    // r_i = T·θ_i/2π: 5.09 for pair 0 and 1.61 for pair 1, below 1 for the rest. With β = 32 the
    // ramp is γ = 0.132 and 0.020 there and 0 elsewhere, so YaRN is position interpolation (θ/s)
    // on six of eight pairs. docs/EXPERIMENTS.md uses this to explain copy's accuracy by factor:
    // at the copy offset T·s/2 pair 0 turns by γ₀·θ₀·(T/2)·(s − 1) ≈ 2.11·(s − 1) rad more than
    // at the trained offset T/2, a whole turn (within 0.05 rad) only at s = 4.
    const ModelConfig cfg = default_rotary();
    const std::size_t dh = 16;
    const double T = static_cast<double>(cfg.context);
    for (double s : {2.0, 3.0, 4.0, 6.0, 8.0}) {
        INFO("factor " << s);
        Workspace<float> ws;
        prepare_workspace(cfg, 1, static_cast<std::size_t>(s * T), false, EvalOptions{RopeScaling::yarn, s}, ws);
        for (std::size_t i = 2; i < dh / 2; ++i) {
            CHECK(ws.omega[i] == Approx(std::exp(-2.0 * static_cast<double>(i) / 16.0 * std::log(cfg.base)) / s).epsilon(1e-13));
        }
        const double theta0 = 1.0;  // b^0
        const double excess = ws.omega[0] * (T * s / 2.0) - theta0 * (T / 2.0);
        const double wrapped = std::remainder(excess, 2.0 * kPi);
        if (s == 4.0) CHECK(std::abs(wrapped) < 0.06);
        else CHECK(std::abs(wrapped) > 1.9);
    }
}

TEST_CASE("A factor left out follows the length: s = max(1, n / T), the tables of that factor given", "[model][yarn]") {
    const ModelConfig cfg = default_rotary();
    const std::size_t T = cfg.context;
    CHECK(resolved_factor(EvalOptions{RopeScaling::none, 1.0, true}, T, 5 * T) == 1.0);  // plain RoPE ignores s
    CHECK(resolved_factor(EvalOptions{RopeScaling::pi, 2.5}, T, 8 * T) == 2.5);
    for (RopeScaling kind : {RopeScaling::pi, RopeScaling::ntk, RopeScaling::yarn}) {
        // n below, at and past T, one not a multiple of it (s = 2.40625 at T = 32).
        for (std::size_t n : {T / 2, T, 2 * T, std::size_t{77}, 4 * T}) {
            INFO("scaling " << static_cast<int>(kind) << ", n " << n);
            const double s = std::max(1.0, static_cast<double>(n) / static_cast<double>(T));
            CHECK(resolved_factor(EvalOptions{kind, 1.0, true}, T, n) == s);
            Workspace<float> derived, given;
            prepare_workspace(cfg, 1, n, false, EvalOptions{kind, 1.0, true}, derived);
            prepare_workspace(cfg, 1, n, false, EvalOptions{kind, s}, given);
            CHECK(derived.omega == given.omega);
            CHECK(derived.scale == given.scale);
            // The same workspace at another length recomputes its frequencies for that length's s.
            prepare_workspace(cfg, 1, 8 * T, false, EvalOptions{kind, 1.0, true}, derived);
            Workspace<float> eight;
            prepare_workspace(cfg, 1, 8 * T, false, EvalOptions{kind, 8.0}, eight);
            CHECK(derived.omega == eight.omega);
        }
    }
}
