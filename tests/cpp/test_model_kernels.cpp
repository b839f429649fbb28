// The float kernels of the trainable model (SIMD in the SIMD build) against their float64
// instantiation, on sizes that hit every tail of the 4-row × 2-batch blocks, the single-batch
// columns and the scalar columns; and the whole float model against the float64 one.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "model/attention_train.hpp"
#include "model/gelu.hpp"
#include "model/matmul.hpp"
#include "model_reference.hpp"
#include "model_test_support.hpp"
#include "test_support.hpp"

using namespace posenc;
using namespace posenc::model;
using namespace posenc::test;

namespace {
constexpr double kUnit = 0x1p-24;  // float's unit roundoff
constexpr std::size_t kSizes[] = {1, 3, 4, 5, 8, 11, 12, 13, 16, 25};
}  // namespace

TEST_CASE("matmul (float, SIMD) against float64 within the summation error bound", "[model][kernels]") {
    // Each element sums K products of float inputs from zero (one rounding per product and per
    // addition), then optionally adds C: |error| ≤ (K + 1)·u·(Σ_k |a_k·b_k| + |c|) to first order
    // (Higham, Accuracy and Stability, §3.1), u = 2^-24. The test checks that bound exactly.
    double worst = 0.0;
    for (std::size_t M : kSizes) {
        for (std::size_t N : kSizes) {
            for (std::size_t K : {std::size_t{1}, std::size_t{7}, std::size_t{64}}) {
                for (int transposed = 0; transposed < 2; ++transposed) {
                    const bool accumulate = (M + N) % 2 == 0;
                    const auto a = random_values(M * K, M * 100 + N * 10 + K);
                    const auto b = random_values(K * N, M + N * 7 + K * 3);
                    const auto c0 = random_values(M * N, K + 5);
                    const std::size_t a_row = transposed ? 1 : K, a_col = transposed ? M : 1;
                    std::vector<float> c = c0;
                    matmul(M, N, K, a.data(), a_row, a_col, b.data(), N, c.data(), N, accumulate);
                    const auto ad = to_double(a.data(), a.size()), bd = to_double(b.data(), b.size());
                    std::vector<double> cd = to_double(c0.data(), c0.size());
                    matmul(M, N, K, ad.data(), a_row, a_col, bd.data(), N, cd.data(), N, accumulate);
                    for (std::size_t m = 0; m < M; ++m) {
                        for (std::size_t n = 0; n < N; ++n) {
                            double magnitude = accumulate ? std::fabs(c0[m * N + n]) : 0.0;
                            for (std::size_t k = 0; k < K; ++k) magnitude += std::fabs(ad[m * a_row + k * a_col] * bd[k * N + n]);
                            const double bound = (K + 1) * kUnit * magnitude * (1 + 1e-6);
                            const double err = std::fabs(c[m * N + n] - cd[m * N + n]);
                            worst = std::fmax(worst, err / bound);
                            INFO("M " << M << " N " << N << " K " << K << " at " << m << "," << n);
                            CHECK(err <= bound);
                        }
                    }
                }
            }
        }
    }
    if (verbose()) std::printf("matmul: worst error / bound %.3g\n", worst);
}

TEST_CASE("matmul gives the scalar formula's bits whatever the blocking", "[model][kernels]") {
    // The order of each element's sum does not depend on where it sits in the blocks: computing C
    // as a whole or one row and one column at a time gives the same floats.
    const std::size_t M = 13, N = 25, K = 19;
    const auto a = random_values(M * K, 1), b = random_values(K * N, 2);
    std::vector<float> whole(M * N), single(M * N);
    matmul(M, N, K, a.data(), K, 1, b.data(), N, whole.data(), N, false);
    for (std::size_t m = 0; m < M; ++m)
        for (std::size_t n = 0; n < N; ++n)
            matmul(1, 1, K, a.data() + m * K, K, 1, b.data() + n, N, single.data() + m * N + n, N, false);
    CHECK(whole == single);
}

TEST_CASE("attention head forward and backward (float) against float64, every bias, tails of n and d_h",
          "[model][kernels]") {
    // Tolerance 2e-5 relative to the output's scale: the scores are dot products of d_h ≤ 8 terms
    // (error ≤ 9u·Σ|q||k|, matmul's bound), softmax adds a few u per weight (fastmath's exp is
    // within 2 ulp, the normalisation 2 roundings), and P·V and the backward products another
    // (n + 1)·u ≤ 18u each: about 50u ≈ 3e-6 of the magnitudes involved; 2e-5 leaves a margin of 6.
    for (std::size_t dh : {2, 4, 6, 8}) {
        for (std::size_t n : {1, 3, 5, 17}) {
            for (int kind = 0; kind < 3; ++kind) {
                const std::size_t stride = 3 * dh + 1;  // rows wider than the head, as in qkv
                const auto qkv = random_values(n * stride, dh * 31 + n, 1.5f);
                const auto dout = random_values(n * dh, dh + n * 3);
                const auto table = random_values(8, 3);
                std::vector<std::int32_t> buckets(n);
                for (std::size_t i = 0; i < n; ++i) buckets[i] = static_cast<std::int32_t>(std::min<std::size_t>(i, 7));
                auto make_bias = [&](auto* values) {
                    HeadBias<std::remove_const_t<std::remove_pointer_t<decltype(values)>>> bias;
                    if (kind == 1) bias.kind = decltype(bias)::Kind::alibi, bias.slope = 0.25;
                    if (kind == 2) bias.kind = decltype(bias)::Kind::t5, bias.t5_values = values, bias.bucket_of_distance = buckets.data();
                    return bias;
                };
                std::vector<float> probs(n * n), out(n * dh), scratch(n * dh), dprobs(n * n), dqkv(n * stride, 0.0f),
                    dt5(8, 0.0f);
                const float scale = static_cast<float>(1.0 / std::sqrt(static_cast<double>(dh)));
                const auto bias_f = make_bias(table.data());
                attention_head_forward(qkv.data(), qkv.data() + dh, qkv.data() + 2 * dh, stride, n, dh, scale, bias_f,
                                       scratch.data(), probs.data(), out.data(), dh);
                attention_head_backward(qkv.data(), qkv.data() + dh, qkv.data() + 2 * dh, stride, n, dh, scale,
                                        probs.data(), dout.data(), dh, bias_f, kind == 2 ? dt5.data() : nullptr,
                                        scratch.data(), dprobs.data(), dqkv.data(), dqkv.data() + dh, dqkv.data() + 2 * dh);
                const auto qkv_d = to_double(qkv.data(), qkv.size()), dout_d = to_double(dout.data(), dout.size()),
                           table_d = to_double(table.data(), table.size());
                std::vector<double> probs_d(n * n), out_d(n * dh), scratch_d(n * dh), dprobs_d(n * n),
                    dqkv_d(n * stride, 0.0), dt5_d(8, 0.0);
                const auto bias_d = make_bias(table_d.data());
                attention_head_forward(qkv_d.data(), qkv_d.data() + dh, qkv_d.data() + 2 * dh, stride, n, dh,
                                       static_cast<double>(scale), bias_d, scratch_d.data(), probs_d.data(), out_d.data(), dh);
                attention_head_backward(qkv_d.data(), qkv_d.data() + dh, qkv_d.data() + 2 * dh, stride, n, dh,
                                        static_cast<double>(scale), probs_d.data(), dout_d.data(), dh, bias_d,
                                        kind == 2 ? dt5_d.data() : nullptr, scratch_d.data(), dprobs_d.data(),
                                        dqkv_d.data(), dqkv_d.data() + dh, dqkv_d.data() + 2 * dh);
                INFO("d_h " << dh << " n " << n << " bias kind " << kind);
                CHECK(max_abs_diff(probs.data(), probs_d.data(), n * n) <= 2e-5);
                CHECK(max_abs_diff(out.data(), out_d.data(), n * dh) <= 2e-5 * 1.5);
                CHECK(max_abs_diff(dqkv.data(), dqkv_d.data(), n * stride) <= 2e-5 * 1.5 * n);
                CHECK(max_abs_diff(dt5.data(), dt5_d.data(), 8) <= 2e-5 * n);
                for (std::size_t i = 0; i < n; ++i)
                    for (std::size_t j = i + 1; j < n; ++j) CHECK(probs[i * n + j] == 0.0f);
            }
        }
    }
}

TEST_CASE("the float model's loss, gradients, logits and attention match float64, every scheme",
          "[model][kernels]") {
    // The float pass chains ~10 kernels per layer; each adds a relative error of at most ~(K + 1)u
    // with K ≤ 4d = 64 (matmul's bound), and LayerNorm's rstd can amplify absolute errors by
    // 1/σ of its input. Measured worst here is below 2e-6 relative; the tolerances (loss 1e-5,
    // logits and attention 1e-5 absolute, gradients 1e-4 of each tensor's largest entry) leave a
    // margin of at least 5 and stay far below a formula error (which is O(1) relative).
    double worst_grad = 0.0;
    for (const Variant& variant : kVariants) {
        for (std::size_t dh : {2, 6, 8}) {
            const std::size_t heads = 2, T = dh == 6 ? 3 : 17, B = 3, V = 7;
            const ModelConfig cfg = variant_config(variant, V, heads * dh, 2, heads, 17);
            Transformer m(cfg);
            perturb(m, 0.2f, 21 + dh);
            const auto tokens = random_tokens(B * (T + 1), V, 9 + dh);
            std::vector<std::uint8_t> mask(B * T, 1);
            mask[1] = 0;
            const double loss = m.gradients(tokens.data(), B, T, mask.data());
            ReferenceModel ref(cfg);
            const auto params = to_double(m.parameters(), m.parameter_count());
            std::vector<double> grads;
            const double loss_d = ref.loss(params, tokens.data(), B, T, mask.data(), &grads);
            INFO(variant.name << " d_h " << dh);
            CHECK(std::fabs(loss - loss_d) <= 1e-5);
            CHECK(std::fabs(m.loss(tokens.data(), B, T, mask.data()) - loss) == 0.0);
            for (const TensorSpec& s : m.specs()) {
                double largest = 0.0, err = 0.0;
                for (std::size_t i = s.offset; i < s.offset + s.size(); ++i) {
                    largest = std::fmax(largest, std::fabs(grads[i]));
                    err = std::fmax(err, std::fabs(m.gradient_buffer()[i] - grads[i]));
                }
                INFO(s.name << " largest " << largest << " error " << err);
                CHECK(err <= 1e-4 * largest + 1e-9);
                if (largest > 0) worst_grad = std::fmax(worst_grad, err / largest);
            }
            std::vector<double> att_d, logits_d;
            ref.evaluate(params, tokens.data(), T, att_d, logits_d);
            std::vector<float> att(cfg.layers * heads * T * T), logits(T * V);
            m.attention(tokens.data(), T, att.data());
            m.logits(tokens.data(), T, logits.data());
            CHECK(max_abs_diff(att.data(), att_d.data(), att.size()) <= 1e-5);
            CHECK(max_abs_diff(logits.data(), logits_d.data(), logits.size()) <= 1e-5);
        }
    }
    if (verbose()) std::printf("float vs float64 model: worst gradient error / tensor max %.3g\n", worst_grad);
}

TEST_CASE("GELU (float, SIMD tanh) against float64, every tail", "[model][kernels]") {
    // tanh from exp(−2|u|): e carries ≤ 2 ulp, (1 − e)/(1 + e) three more roundings, so t is
    // within ~4·2^-24 ≈ 2.4e-7 absolute; y = 0.5x(1 + t) then errs by ≤ 0.5|x|·2.4e-7 plus its own
    // two roundings of |y|; the slope's terms are O(1 + x²) with the same absolute error in t.
    // Tolerances: |Δt| ≤ 3e-7, |Δy| ≤ 3e-7·(1 + |x|), |Δdx| ≤ 1e-6·(1 + x²)·|dy|.
    for (std::size_t count : kTailSizes) {
        const auto x = random_values(count, count, 6.0f);
        const auto dy = random_values(count, count + 1);
        std::vector<float> y(count), t(count), dx(count);
        gelu_forward(x.data(), count, y.data(), t.data());
        gelu_backward(x.data(), t.data(), dy.data(), count, dx.data());
        const auto xd = to_double(x.data(), count), dyd = to_double(dy.data(), count);
        std::vector<double> yd(count), td(count), dxd(count);
        gelu_forward(xd.data(), count, yd.data(), td.data());
        gelu_backward(xd.data(), td.data(), dyd.data(), count, dxd.data());
        for (std::size_t i = 0; i < count; ++i) {
            INFO("count " << count << " x " << x[i]);
            CHECK(std::fabs(t[i] - td[i]) <= 3e-7);
            CHECK(std::fabs(y[i] - yd[i]) <= 3e-7 * (1 + std::fabs(xd[i])));
            CHECK(std::fabs(dx[i] - dxd[i]) <= 1e-6 * (1 + xd[i] * xd[i]) * std::fabs(dyd[i]));
        }
    }
    float zero = 0.0f, y0, t0;
    gelu_forward(&zero, 1, &y0, &t0);
    CHECK(y0 == 0.0f);
}

TEST_CASE("GELU forward gives the same bits in its 4-batch loop, single batches and scalar tail", "[model][kernels]") {
    // Every value takes the same operations whichever loop holds it (fastmath's _n form), so the
    // whole-array call must match one call per element (count 1: the scalar tail) exactly.
    const std::size_t count = 16 * 3 + 4 + 3;
    const auto x = random_values(count, 91, 6.0f);
    std::vector<float> y(count), t(count);
    gelu_forward(x.data(), count, y.data(), t.data());
    for (std::size_t i = 0; i < count; ++i) {
        float yi, ti;
        gelu_forward(&x[i], 1, &yi, &ti);
        INFO("i " << i << " x " << x[i]);
        CHECK(y[i] == yi);
        CHECK(t[i] == ti);
    }
}
