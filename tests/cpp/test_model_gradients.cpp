// The model's backward pass against central finite differences of its own float64 forward, for
// every parameter tensor of every scheme (tests/cpp/model_reference.hpp).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>

#include "model_reference.hpp"
#include "model_test_support.hpp"
#include "test_support.hpp"

using namespace posenc;
using namespace posenc::model;
using namespace posenc::test;

namespace {

// Entries checked per tensor: the first, the last and a few seeded ones in between (a full check
// of every entry costs two passes each; these reach every tensor's every role: each tensor's
// gradient is one formula over its entries).
std::vector<std::size_t> probe_entries(const TensorSpec& s, std::uint64_t seed) {
    std::vector<std::size_t> out = {0, s.size() - 1};
    std::vector<float> u(4);
    uniform_values(seed, u.size(), 1.0f, u.data());
    for (float x : u) out.push_back(static_cast<std::size_t>((x * 0.5f + 0.5f) * static_cast<float>(s.size())) % s.size());
    return out;
}

// Step h = 1e-5: the truncation error of the central difference is h²/6·|f'''| ≈ 1e-11 for these
// O(1) losses, the rounding error about 2^-52·|f|/h ≈ 1e-11; together under 1e-9. Tolerance
// 1e-7 + 1e-6·|g| leaves a factor of about 100 to those, and is 4 orders below any real formula
// error (a wrong factor or a missing term moves a gradient by ~|g|).
constexpr double kStep = 1e-5;
double tolerance(double g) { return 1e-7 + 1e-6 * std::fabs(g); }

// Checks cfg's backward pass at length T (B = 2 rows) against central differences of the float64
// forward on the probe entries of every tensor; → the worst error / tolerance.
double check_gradients(const ModelConfig& cfg, const char* name, std::size_t T, std::uint64_t seed) {
    const std::size_t B = 2;
    REQUIRE(validate(cfg) == nullptr);
    Transformer init_model(cfg);
    perturb(init_model, 0.3f, 11 + seed);
    std::vector<double> params = to_double(init_model.parameters(), init_model.parameter_count());
    const auto tokens = random_tokens(B * (T + 1), cfg.vocab, 5 + T);
    std::vector<std::uint8_t> mask(B * T, 1);
    mask[0] = 0;  // row 0's first target does not count; with n = 1 row 1 still does
    if (T > 2) mask[B * T - 2] = 0;
    ReferenceModel ref(cfg);
    std::vector<double> grads;
    ref.loss(params, tokens.data(), B, T, mask.data(), &grads);
    double worst = 0.0;
    for (const TensorSpec& s : parameter_specs(cfg)) {
        for (std::size_t e : probe_entries(s, s.offset + seed)) {
            const std::size_t i = s.offset + e;
            const double keep = params[i];
            params[i] = keep + kStep;
            const double up = ref.loss(params, tokens.data(), B, T, mask.data(), nullptr);
            params[i] = keep - kStep;
            const double down = ref.loss(params, tokens.data(), B, T, mask.data(), nullptr);
            params[i] = keep;
            const double fd = (up - down) / (2 * kStep);
            const double err = std::fabs(fd - grads[i]);
            worst = std::fmax(worst, err / tolerance(grads[i]));
            INFO(name << " d_h " << cfg.d / cfg.heads << " n " << T << " " << s.name << "[" << e << "] fd " << fd
                      << " analytic " << grads[i]);
            CHECK(err <= tolerance(grads[i]));
        }
    }
    return worst;
}

}  // namespace

TEST_CASE("model gradients match central differences of the float64 forward, every tensor and scheme",
          "[model][gradcheck]") {
    // (head width, n) pairs: every d_h of 2, 4, 6, 8 and every n of 1, 3, 17 for every scheme.
    const std::size_t cases[][2] = {{2, 17}, {4, 3}, {6, 1}, {8, 17}};
    double worst_overall = 0.0;
    for (const Variant& variant : kVariants) {
        for (const auto& c : cases) {
            const std::size_t dh = c[0], T = c[1], heads = 2, V = 5;
            const ModelConfig cfg = variant_config(variant, V, heads * dh, 2, heads, 17);
            worst_overall = std::fmax(worst_overall, check_gradients(cfg, variant.name, T, dh));
        }
    }
    if (verbose()) std::printf("gradient check: worst error / tolerance %.3g\n", worst_overall);
}

TEST_CASE("model gradients with a scaled position table (positionScale) match central differences",
          "[model][gradcheck][controls]") {
    // The scaled table changes the forward pass (the loss and every gradient), not the backward
    // formulas; the scale itself is checked against the table in test_model_controls.cpp.
    for (const Variant& variant : {kVariants[1], kVariants[3]}) {  // additive, concatenated
        for (float scale : {0.25f, 2.5f}) {
            ModelConfig cfg = variant_config(variant, 5, 8, 2, 2, 17);
            cfg.position_scale = scale;
            check_gradients(cfg, variant.name, 17, 4);
        }
    }
}

TEST_CASE("the gradient check can fail: a wrong gradient is caught", "[model][gradcheck]") {
    // The key bias has an exactly zero gradient (it adds one amount to a whole row of logits, which
    // softmax ignores); a perturbed LayerNorm weight does not.
    const ModelConfig cfg = variant_config(kVariants[1], 5, 8, 1, 2, 8);  // additive: no rotation of the key bias
    Transformer m(cfg);
    perturb(m, 0.3f, 3);
    std::vector<double> params = to_double(m.parameters(), m.parameter_count());
    const auto tokens = random_tokens(2 * 9, 5, 1);
    ReferenceModel ref(cfg);
    std::vector<double> grads;
    ref.loss(params, tokens.data(), 2, 8, nullptr, &grads);
    const auto at = tensor_offsets(cfg);
    const std::size_t i = at.layers[0][Tensor::ln1_w] + 3;
    const double h = kStep;
    params[i] += h;
    const double up = ref.loss(params, tokens.data(), 2, 8, nullptr, nullptr);
    params[i] -= 2 * h;
    const double down = ref.loss(params, tokens.data(), 2, 8, nullptr, nullptr);
    const double fd = (up - down) / (2 * h);
    CHECK(std::fabs(fd) > 1e-4);
    CHECK(std::fabs(fd - 1.01 * grads[i]) > tolerance(grads[i]));  // a 1% error is out of tolerance
    // The key bias (unrotated): zero to rounding.
    for (std::size_t j = 0; j < cfg.d; ++j) CHECK(std::fabs(grads[at.layers[0][Tensor::attn_b] + cfg.d + j]) < 1e-12);
}
