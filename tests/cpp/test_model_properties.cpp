// Properties of the model's math: what each positional scheme can and cannot see.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "model/attention_train.hpp"
#include "model/position_tables.hpp"
#include "model_reference.hpp"
#include "model_test_support.hpp"
#include "encodings/sinusoidal.hpp"
#include "test_support.hpp"

using namespace posenc;
using namespace posenc::model;
using namespace posenc::test;

TEST_CASE("nope: the attention kernel is permutation-equivariant over the keys a query sees", "[model][properties]") {
    // The kernel is always causal, so the property is stated for the last query, which sees every
    // key: permuting the other rows' keys and values together leaves its output unchanged (in
    // float64 up to the reordered sums: 1e-13), and without position information nothing else can
    // change. The same permutation of a rotary head's q/k moves the output (the check can fail).
    const std::size_t n = 9, dh = 6, stride = 3 * dh;
    const auto values = random_values(n * stride, 4, 1.5f);
    const std::vector<double> qkv = to_double(values.data(), values.size());
    const std::size_t perm[n] = {3, 0, 7, 1, 5, 2, 6, 4, 8};  // the last row stays last
    std::vector<double> permuted(n * stride);
    for (std::size_t i = 0; i < n; ++i) std::copy_n(qkv.data() + perm[i] * stride, stride, permuted.data() + i * stride);
    auto last_output = [&](const std::vector<double>& x, bool rotate) {
        std::vector<double> rows = x, table(n * dh), probs(n * n), out(n * dh), scratch(n * dh);
        std::vector<double> omega(dh / 2);
        for (std::size_t i = 0; i < dh / 2; ++i) omega[i] = frequency(i, dh, 10000.0);
        sin_cos_table(omega.data(), dh / 2, n, table.data());
        if (rotate)
            for (std::size_t p = 0; p < n; ++p)
                for (std::size_t part = 0; part < 2; ++part)
                    rotate_head(rows.data() + p * stride + part * dh, dh, Layout::interleaved, table.data() + p * dh, false);
        attention_head_forward(rows.data(), rows.data() + dh, rows.data() + 2 * dh, stride, n, dh, 0.4, HeadBias<double>{},
                               scratch.data(), probs.data(), out.data(), dh);
        return std::vector<double>(out.end() - dh, out.end());
    };
    const auto plain = last_output(qkv, false), plain_perm = last_output(permuted, false);
    const auto rotated = last_output(qkv, true), rotated_perm = last_output(permuted, true);
    double nope_diff = 0, rotary_diff = 0;
    for (std::size_t c = 0; c < dh; ++c) {
        nope_diff = std::fmax(nope_diff, std::fabs(plain[c] - plain_perm[c]));
        rotary_diff = std::fmax(rotary_diff, std::fabs(rotated[c] - rotated_perm[c]));
    }
    CHECK(nope_diff <= 1e-13);
    CHECK(rotary_diff > 1e-3);
}

TEST_CASE("nope model: the last position's logits ignore the order of the tokens before it (one layer)",
          "[model][properties]") {
    // One layer: the last row's input is its own token, its attention sees the set of earlier
    // (token, value) rows. Additive's logits change under the same permutation.
    for (Scheme s : {Scheme::nope, Scheme::additive}) {
        const ModelConfig cfg = variant_config({s, Layout::interleaved, ""}, 9, 8, 1, 2, 16);
        Transformer m(cfg);
        perturb(m, 0.3f, 2);
        const auto params = to_double(m.parameters(), m.parameter_count());
        std::vector<std::int32_t> tokens = {1, 4, 2, 8, 3, 0, 5, 7};
        std::vector<std::int32_t> shuffled = {8, 2, 0, 4, 1, 5, 3, 7};
        ReferenceModel ref(cfg);
        std::vector<double> att, logits_a, logits_b;
        ref.evaluate(params, tokens.data(), tokens.size(), att, logits_a);
        ref.evaluate(params, shuffled.data(), shuffled.size(), att, logits_b);
        double diff = 0;
        for (std::size_t v = 0; v < cfg.vocab; ++v)
            diff = std::fmax(diff, std::fabs(logits_a[7 * cfg.vocab + v] - logits_b[7 * cfg.vocab + v]));
        if (s == Scheme::nope) CHECK(diff <= 1e-12);
        else CHECK(diff > 1e-4);
    }
}

TEST_CASE("rotary: attention weights depend only on relative positions", "[model][properties]") {
    // The kernel fed q and k rotated at positions p + offset gives the weights it gives at p:
    // q_i·k_j after rotation depends on (i − j)·ω only. Float64: 1e-12; float (the core's exact
    // tables, positions up to 1000): 2e-6, a few roundings of the O(1) scores.
    const std::size_t n = 11, dh = 8, stride = 3 * dh;
    for (Layout pairing : {Layout::interleaved, Layout::half}) {
        for (std::size_t offset : {std::size_t{5}, std::size_t{1000}}) {
            const auto values = random_values(n * stride, 8, 1.0f);
            auto weights = [&](auto zero, std::size_t shift) {
                using Real = decltype(zero);
                std::vector<Real> rows(values.begin(), values.end()), table((n + shift) * dh), probs(n * n),
                    out(n * dh), scratch(n * dh);
                std::vector<double> omega(dh / 2);
                for (std::size_t i = 0; i < dh / 2; ++i) omega[i] = frequency(i, dh, 10000.0);
                sin_cos_table(omega.data(), dh / 2, n + shift, table.data());
                for (std::size_t p = 0; p < n; ++p)
                    for (std::size_t part = 0; part < 2; ++part)
                        rotate_head(rows.data() + p * stride + part * dh, dh, pairing, table.data() + (p + shift) * dh, false);
                attention_head_forward(rows.data(), rows.data() + dh, rows.data() + 2 * dh, stride, n, dh, Real(0.35),
                                       HeadBias<Real>{}, scratch.data(), probs.data(), out.data(), dh);
                return probs;
            };
            const auto a = weights(0.0, 0), b = weights(0.0, offset);
            const auto af = weights(0.0f, 0), bf = weights(0.0f, offset);
            double diff = 0, diff_f = 0;
            for (std::size_t i = 0; i < n * n; ++i) {
                diff = std::fmax(diff, std::fabs(a[i] - b[i]));
                diff_f = std::fmax(diff_f, std::fabs(af[i] - bf[i]));
            }
            CHECK(diff <= 1e-12);
            CHECK(diff_f <= 2e-6);
        }
    }
}

TEST_CASE("concatenated: word and position stay apart before the first projection", "[model][properties]") {
    // Layer 0's input row is [alpha·wte[t] ; PE_dPos(p)] exactly: the product alpha·w is the one
    // float multiplication, the position part is sinusoidal_table's row bit for bit.
    ModelConfig cfg = variant_config(kVariants[3], 13, 12, 1, 2, 9);
    cfg.d_pos = 4;
    cfg.alpha = 1.75f;
    Transformer m(cfg);
    perturb(m, 0.5f, 6);
    const std::size_t B = 2, T = 9, wc = cfg.d - cfg.d_pos;
    const auto tokens = random_tokens(B * (T + 1), cfg.vocab, 3);
    Workspace<float> ws;
    prepare_workspace(cfg, B, T, true, EvalOptions{}, ws);
    run_pass<float>(cfg, tensor_offsets(cfg), m.parameters(), tokens.data(), T + 1, true, nullptr, ws, nullptr, nullptr);
    std::vector<float> pe(T * cfg.d_pos);
    sinusoidal_table(T, cfg.d_pos, cfg.base, Layout::interleaved, pe.data());
    for (std::size_t b = 0; b < B; ++b) {
        for (std::size_t p = 0; p < T; ++p) {
            const float* row = ws.data(Act::stream) + (b * T + p) * cfg.d;
            const float* word = m.parameters() + static_cast<std::size_t>(tokens[b * (T + 1) + p]) * wc;
            for (std::size_t j = 0; j < wc; ++j) CHECK(row[j] == cfg.alpha * word[j]);
            for (std::size_t j = 0; j < cfg.d_pos; ++j) CHECK(row[wc + j] == pe[p * cfg.d_pos + j]);
        }
    }
}

TEST_CASE("loss at initialisation is ln V", "[model][properties]") {
    // With N(0, 0.02) weights the logits are about N(0, (0.02·√d)²) per entry (the final LN gives
    // unit-variance rows), so the expected loss is ln V + σ²/2 ≈ ln V + 0.006 for d = 32;
    // tolerance 0.03 covers that and the sampling spread of 8×16 targets.
    for (const Variant& variant : kVariants) {
        const ModelConfig cfg = variant_config(variant, 50, 32, 2, 4, 16, 3);
        Transformer m(cfg);
        const auto tokens = random_tokens(8 * 17, 50, 12);
        INFO(variant.name);
        CHECK(std::fabs(m.loss(tokens.data(), 8, 16, nullptr) - std::log(50.0)) <= 0.03);
    }
}
