// Training: AdamW against float64, learning a copy task, determinism, evaluation options,
// validation and the workspace's memory.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <string>

#include "model/transformer.hpp"
#include "model_reference.hpp"
#include "model_test_support.hpp"
#include "test_support.hpp"

using namespace posenc;
using namespace posenc::model;
using namespace posenc::test;

namespace {

// A copy batch: each row is k seeded symbols from [2, V), the separator 1, the same k symbols
// (length 2k + 1 = T + 1). Only the answer counts: targets at positions k … 2k − 1 of the input.
void copy_batch(std::size_t B, std::size_t k, std::size_t V, std::uint64_t seed, std::vector<std::int32_t>& tokens,
                std::vector<std::uint8_t>& mask) {
    const std::size_t T = 2 * k;
    tokens.assign(B * (T + 1), 0);
    mask.assign(B * T, 0);
    const auto symbols = random_tokens(B * k, V - 2, seed);
    for (std::size_t b = 0; b < B; ++b) {
        std::int32_t* row = tokens.data() + b * (T + 1);
        for (std::size_t i = 0; i < k; ++i) row[i] = row[k + 1 + i] = 2 + symbols[b * k + i];
        row[k] = 1;
        for (std::size_t p = k; p < T; ++p) mask[b * T + p] = 1;
    }
}

std::string msg(const char* m) { return m ? m : ""; }

}  // namespace

TEST_CASE("clip and AdamW match a float64 re-implementation of the documented step over several steps", "[model][adamw]") {
    // Both get the same float gradients (from the float model at its current parameters), so
    // what differs is the optimiser's arithmetic only: per step the float update carries a few
    // roundings of lr·m̂/(√v̂ + eps) (|·| ≤ lr·~3 here) and of θ·(1 − lr·wd): after 6 steps the
    // parameters agree to 1e-6 absolute (measured ~1e-7), far below one step's lr = 1e-2.
    for (float clip : {0.0f, 0.05f}) {  // clipping off, and on (the gradient norms here are ~0.5–2)
        const ModelConfig cfg = variant_config(kVariants[4], 9, 8, 2, 2, 6);
        Transformer m(cfg);
        perturb(m, 0.1f, 1);
        AdamWOptions o;
        o.lr = 1e-2f;
        o.clip = clip;
        std::vector<double> ref_params = to_double(m.parameters(), m.parameter_count());
        ReferenceAdamW ref;
        std::vector<float> m1(m.parameter_count(), 0.0f), v1(m.parameter_count(), 0.0f);
        bool clipped = false;
        for (std::uint64_t step = 1; step <= 6; ++step) {
            const auto tokens = random_tokens(3 * 7, cfg.vocab, step);
            m.gradients(tokens.data(), 3, 6, nullptr);
            std::vector<float> g(m.gradient_buffer(), m.gradient_buffer() + m.parameter_count());
            ref.step(m.specs(), ref_params, to_double(g.data(), g.size()), o);
            const double norm = clip_gradients(g.data(), g.size(), o.clip);
            clipped = clipped || (clip > 0 && norm > clip);
            adamw_update(m.specs(), m.parameters(), g.data(), m1.data(), v1.data(), step, o);
        }
        CHECK(clipped == (clip > 0));
        CHECK(max_abs_diff(m.parameters(), ref_params.data(), ref_params.size()) <= 1e-6);
    }
}

TEST_CASE("a model built from parameters holds no training state until it trains, and then trains as one given them later",
          "[model][adamw]") {
    const ModelConfig cfg = variant_config(kVariants[7], 9, 8, 2, 2, 6);
    Transformer source(cfg);
    perturb(source, 0.1f, 3);
    const std::size_t count = source.parameter_count();
    Transformer a(cfg, std::vector<float>(source.parameters(), source.parameters() + count));
    CHECK(std::memcmp(a.parameters(), source.parameters(), count * sizeof(float)) == 0);
    CHECK(a.gradient_buffer() == nullptr);
    CHECK(a.training_floats(false) == count);
    CHECK(a.training_floats(true) == 3 * count);
    const auto tokens = random_tokens(2 * 7, cfg.vocab, 5);
    std::vector<float> logits(6 * cfg.vocab);
    a.logits(tokens.data(), 6, logits.data());  // inference allocates none of it
    CHECK(a.training_floats(true) == 3 * count);
    a.gradients(tokens.data(), 2, 6, nullptr);
    CHECK(a.training_floats(false) == 0);
    CHECK(a.training_floats(true) == 2 * count);
    // Steps from here match a model initialised, then given the same parameters (optimiser reset).
    Transformer b(cfg);
    REQUIRE(b.set_parameters(source.parameters(), count) == nullptr);
    AdamWOptions o;
    for (std::uint64_t step = 1; step <= 3; ++step) {
        const auto batch = random_tokens(2 * 7, cfg.vocab, 60 + step);
        CHECK(a.train_step(batch.data(), 2, 6, nullptr, o) == b.train_step(batch.data(), 2, 6, nullptr, o));
    }
    CHECK(a.training_floats(true) == 0);
    CHECK(std::memcmp(a.parameters(), b.parameters(), count * sizeof(float)) == 0);
}

TEST_CASE("a model built from moved parameters keeps their buffer and runs as the model they came from", "[model]") {
    const ModelConfig cfg = variant_config(kVariants[3], 9, 8, 2, 2, 6);
    Transformer source(cfg);
    perturb(source, 0.1f, 4);
    const std::size_t count = source.parameter_count();
    std::vector<float> params(source.parameters(), source.parameters() + count);
    const float* buffer = params.data();
    Transformer moved(cfg, std::move(params));
    CHECK(moved.parameters() == buffer);  // taken over: a load touches the weights' memory once
    CHECK(moved.gradient_buffer() == nullptr);
    REQUIRE(moved.parameter_count() == count);
    CHECK(std::memcmp(moved.parameters(), source.parameters(), count * sizeof(float)) == 0);
    const auto tokens = random_tokens(6, cfg.vocab, 8);
    std::vector<float> a(6 * cfg.vocab), b(6 * cfg.vocab);
    moved.logits(tokens.data(), 6, a.data());
    source.logits(tokens.data(), 6, b.data());
    CHECK(std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
}

TEST_CASE("train_step = gradients, clip, AdamW; the loss it returns is the one before the update", "[model][adamw]") {
    const ModelConfig cfg = variant_config(kVariants[7], 9, 8, 2, 2, 6);
    Transformer a(cfg), b(cfg);
    AdamWOptions o;
    o.clip = 0.3f;
    std::vector<float> m1(b.parameter_count(), 0.0f), v1(b.parameter_count(), 0.0f);
    for (std::uint64_t step = 1; step <= 4; ++step) {
        const auto tokens = random_tokens(2 * 7, cfg.vocab, 40 + step);
        const double before = b.loss(tokens.data(), 2, 6, nullptr);
        CHECK(a.train_step(tokens.data(), 2, 6, nullptr, o) == before);
        b.gradients(tokens.data(), 2, 6, nullptr);
        std::vector<float> g(b.gradient_buffer(), b.gradient_buffer() + b.parameter_count());
        clip_gradients(g.data(), g.size(), o.clip);
        adamw_update(b.specs(), b.parameters(), g.data(), m1.data(), v1.data(), step, o);
        CHECK(std::memcmp(a.parameters(), b.parameters(), a.parameter_count() * sizeof(float)) == 0);
    }
    CHECK(a.steps() == 4);
    a.reset_optimizer();
    CHECK(a.steps() == 0);
    // A whole buffer in: refused when short or not finite (nothing changes), else copied.
    std::vector<float> values(a.parameters(), a.parameters() + a.parameter_count());
    a.train_step(random_tokens(2 * 7, cfg.vocab, 1).data(), 2, 6, nullptr, o);
    std::vector<float> trained(a.parameters(), a.parameters() + a.parameter_count());
    CHECK(msg(a.set_parameters(values.data(), values.size() - 1)).rfind("weights", 0) == 0);
    values[7] = NAN;
    CHECK(msg(a.set_parameters(values.data(), values.size())).rfind("weights", 0) == 0);
    CHECK(std::memcmp(a.parameters(), trained.data(), trained.size() * sizeof(float)) == 0);
    values[7] = 0.5f;
    CHECK(a.set_parameters(values.data(), values.size()) == nullptr);
    CHECK(std::memcmp(a.parameters(), values.data(), values.size() * sizeof(float)) == 0);
    CHECK(a.steps() == 0);
}

TEST_CASE("every scheme learns to copy at its training length within its step budget", "[model][learning]") {
    // Copy 4 symbols of 8 (chance: ln 8 = 2.08), d = 32, L = 2, h = 2, B = 16, lr = 1e-2, 300
    // steps of fresh seeded batches. Measured (mean of the last 10 losses): additive, learned,
    // concatenated, rotary (both pairings) and t5 reach ≤ 0.001 (target 0.1); nope and alibi learn
    // the copy more slowly (1.25 and 1.31 here, about 1.03 after 500 steps), so their target is
    // that they clearly left chance: ≤ 1.6, 0.48 below ln 8.
    const std::size_t k = 4, V = 10, B = 16, T = 2 * k;
    for (const Variant& variant : kVariants) {
        ModelConfig cfg = variant_config(variant, V, 32, 2, 2, T, 1);
        if (variant.scheme == Scheme::concatenated) cfg.d_pos = 8;
        if (variant.scheme == Scheme::t5) cfg.t5_buckets = 32, cfg.t5_max_distance = 128;
        Transformer m(cfg);
        AdamWOptions o;
        o.lr = 1e-2f;
        std::vector<std::int32_t> tokens;
        std::vector<std::uint8_t> mask;
        double last = 0.0;
        const int steps = 300;
        for (int step = 0; step < steps; ++step) {
            copy_batch(B, k, V, 1000 + step, tokens, mask);
            const double loss = m.train_step(tokens.data(), B, T, mask.data(), o);
            if (step >= steps - 10) last += loss / 10;
        }
        const bool slow = variant.scheme == Scheme::nope || variant.scheme == Scheme::alibi;
        INFO(variant.name << ": mean loss of the last 10 steps " << last);
        CHECK(last <= (slow ? 1.6 : 0.1));
        if (verbose()) std::printf("copy, %s: %.4f\n", variant.name, last);
    }
}

TEST_CASE("two identical runs give bit-identical parameters", "[model][determinism]") {
    for (const Variant& variant : kVariants) {
        const ModelConfig cfg = variant_config(variant, 9, 16, 2, 2, 8);
        Transformer a(cfg), b(cfg);
        for (std::uint64_t step = 0; step < 3; ++step) {
            const auto tokens = random_tokens(4 * 9, cfg.vocab, step);
            CHECK(a.train_step(tokens.data(), 4, 8, nullptr, {}) == b.train_step(tokens.data(), 4, 8, nullptr, {}));
        }
        INFO(variant.name);
        CHECK(std::memcmp(a.parameters(), b.parameters(), a.parameter_count() * sizeof(float)) == 0);
        Transformer c(variant_config(variant, 9, 16, 2, 2, 8, /*seed=*/8));
        CHECK(std::memcmp(a.parameters(), c.parameters(), a.parameter_count() * sizeof(float)) != 0);
    }
}

TEST_CASE("evaluation past the training length: learned refuses, rotary scalings", "[model][eval]") {
    const auto tokens = random_tokens(2 * 13, 9, 3);
    for (const Variant& variant : kVariants) {
        const ModelConfig cfg = variant_config(variant, 9, 8, 1, 2, 6);
        INFO(variant.name);
        if (variant.scheme == Scheme::learned) {
            CHECK(msg(validate_sequence(cfg, tokens.data(), 7, 7)).rfind("n must be at most context", 0) == 0);
            CHECK(msg(validate_batch(cfg, tokens.data(), 2 * 8, 2, 7, nullptr, 0, false)).rfind("T must be at most context", 0) == 0);
            CHECK(validate_sequence(cfg, tokens.data(), 6, 6) == nullptr);
        } else {
            CHECK(validate_sequence(cfg, tokens.data(), 13, 13) == nullptr);
            CHECK(validate_batch(cfg, tokens.data(), 2 * 13, 2, 12, nullptr, 0, false) == nullptr);
            Transformer m(cfg);
            CHECK(std::isfinite(m.loss(tokens.data(), 2, 12, nullptr)));
        }
    }
    // Rotary: each scaling at factor 1 is plain rotary bit for bit; at factor 4 it changes the weights.
    const ModelConfig cfg = variant_config(kVariants[5], 9, 16, 2, 2, 6);
    Transformer m(cfg);
    perturb(m, 0.3f, 4);
    const std::size_t n = 13;
    std::vector<float> plain(2 * 2 * n * n), scaled(plain.size()), logits(n * 9), logits_scaled(n * 9);
    m.attention(tokens.data(), n, plain.data());
    m.logits(tokens.data(), n, logits.data());
    for (RopeScaling kind : {RopeScaling::pi, RopeScaling::ntk, RopeScaling::yarn}) {
        INFO("scaling " << static_cast<int>(kind));
        CHECK(validate(cfg, EvalOptions{kind, 1.0}) == nullptr);
        m.attention(tokens.data(), n, scaled.data(), {kind, 1.0});
        m.logits(tokens.data(), n, logits_scaled.data(), {kind, 1.0});
        CHECK(scaled == plain);
        CHECK(logits_scaled == logits);
        m.attention(tokens.data(), n, scaled.data(), {kind, 4.0});
        CHECK(scaled != plain);
    }
    CHECK(msg(validate(variant_config(kVariants[1], 9, 8, 1, 2, 6), EvalOptions{RopeScaling::pi, 2.0}))
              .rfind("ropeScaling", 0) == 0);
    CHECK(msg(validate(cfg, EvalOptions{RopeScaling::yarn, 0.5})).rfind("ropeScaling.factor", 0) == 0);
}

TEST_CASE("validation names the argument", "[model][validation]") {
    const ModelConfig cfg = variant_config(kVariants[1], 9, 8, 1, 2, 6);
    std::vector<std::int32_t> tokens(2 * 7, 1);
    std::vector<std::uint8_t> mask(2 * 6, 1);
    CHECK(validate_batch(cfg, tokens.data(), 14, 2, 6, mask.data(), 12, true) == nullptr);
    CHECK(msg(validate_batch(cfg, tokens.data(), 14, 0, 6, nullptr, 0, true)).rfind("B ", 0) == 0);
    CHECK(msg(validate_batch(cfg, tokens.data(), 14, kMaxBatch + 1, 6, nullptr, 0, true)).rfind("B ", 0) == 0);
    CHECK(msg(validate_batch(cfg, tokens.data(), 14, 2, 0, nullptr, 0, true)).rfind("T ", 0) == 0);
    CHECK(msg(validate_batch(cfg, tokens.data(), 14, 2, kMaxSequence + 1, nullptr, 0, true)).rfind("T ", 0) == 0);
    CHECK(msg(validate_batch(cfg, tokens.data(), 13, 2, 6, nullptr, 0, true)).rfind("tokens", 0) == 0);
    tokens[5] = 9;
    CHECK(msg(validate_batch(cfg, tokens.data(), 14, 2, 6, nullptr, 0, true)).rfind("tokens", 0) == 0);
    tokens[5] = -1;
    CHECK(msg(validate_batch(cfg, tokens.data(), 14, 2, 6, nullptr, 0, true)).rfind("tokens", 0) == 0);
    tokens[5] = 0;
    CHECK(msg(validate_batch(cfg, tokens.data(), 14, 2, 6, mask.data(), 11, true)).rfind("mask", 0) == 0);
    mask[3] = 2;
    CHECK(msg(validate_batch(cfg, tokens.data(), 14, 2, 6, mask.data(), 12, true)).rfind("mask", 0) == 0);
    std::fill(mask.begin(), mask.end(), 0);
    CHECK(msg(validate_batch(cfg, tokens.data(), 14, 2, 6, mask.data(), 12, true)).rfind("mask", 0) == 0);
    // The workspace limit is checked before anything is allocated: n = 4096 with h = 64 heads.
    ModelConfig wide = cfg;
    wide.d = 128;
    wide.heads = 64;
    std::vector<std::int32_t> long_tokens(4096, 0);
    CHECK(msg(validate_sequence(wide, long_tokens.data(), 4096, 4096)).rfind("n ", 0) == 0);
    CHECK(msg(validate_sequence(cfg, long_tokens.data(), 4095, 4096)).rfind("tokens", 0) == 0);
    AdamWOptions o;
    CHECK(validate(o) == nullptr);
    const std::pair<float AdamWOptions::*, const char*> fields[] = {
        {&AdamWOptions::lr, "lr"}, {&AdamWOptions::beta1, "beta1"}, {&AdamWOptions::beta2, "beta2"},
        {&AdamWOptions::eps, "eps"}, {&AdamWOptions::weight_decay, "weightDecay"}, {&AdamWOptions::clip, "clip"}};
    for (const auto& [field, name] : fields) {
        for (float bad : {-1.0f, NAN, INFINITY}) {
            AdamWOptions x;
            x.*field = bad;
            INFO(name << " = " << bad);
            CHECK(msg(validate(x)).rfind(std::string(name) + " ", 0) == 0);
        }
    }
    AdamWOptions x;
    x.beta2 = 1.0f;
    CHECK(msg(validate(x)).rfind("beta2", 0) == 0);
}

TEST_CASE("repeated steps and smaller shapes do not grow the workspace", "[model][memory]") {
    const ModelConfig cfg = variant_config(kVariants[6], 9, 16, 2, 2, 8);
    Transformer m(cfg);
    const auto tokens = random_tokens(4 * 9, cfg.vocab, 1);
    m.train_step(tokens.data(), 4, 8, nullptr, {});
    m.loss(tokens.data(), 4, 8, nullptr);
    std::vector<float> att(2 * 2 * 8 * 8), logits(8 * 9);
    m.attention(tokens.data(), 8, att.data());
    const std::size_t capacity = m.workspace_capacity();
    for (int step = 0; step < 50; ++step) {
        m.train_step(tokens.data(), 4, 8, nullptr, {});
        m.train_step(tokens.data(), 2, 8, nullptr, {});  // a smaller batch reuses the buffers
        m.loss(tokens.data(), 4, 8, nullptr);
        m.logits(tokens.data(), 8, logits.data());
        m.attention(tokens.data(), 5, att.data());
        CHECK(m.workspace_capacity() == capacity);
    }
    const auto longer = random_tokens(8 * 9, cfg.vocab, 2);
    m.train_step(longer.data(), 8, 8, nullptr, {});  // a larger batch must grow it: the probe works
    CHECK(m.workspace_capacity() > capacity);
}

TEST_CASE("train_step end to end against the float64 model and AdamW, the key bias aside", "[model][adamw]") {
    // Float and float64 gradients differ by rounding (~1e-6 of their size, the kernels test), and
    // Adam divides by √v̂, so an entry moves by lr·m̂/√v̂ whatever its scale: where the true
    // gradient is exactly zero (the key bias of a scheme without rotation: one amount on a whole
    // row of logits) the two implementations take unrelated full-size steps on rounding noise, so
    // those entries are skipped. Everywhere else the steps agree to about 1e-6·lr per step; the tolerance 1e-3·lr
    // after 4 steps leaves a wide margin and still catches any formula error (an O(lr) change).
    for (const Variant& variant : {kVariants[1], kVariants[5]}) {
        const ModelConfig cfg = variant_config(variant, 9, 8, 2, 2, 6);
        Transformer m(cfg);
        perturb(m, 0.2f, 9);
        std::vector<double> params = to_double(m.parameters(), m.parameter_count());
        ReferenceModel ref(cfg);
        ReferenceAdamW adam;
        AdamWOptions o;
        o.lr = 1e-2f;
        o.clip = 0.5f;
        for (std::uint64_t step = 0; step < 4; ++step) {
            const auto tokens = random_tokens(3 * 7, cfg.vocab, 60 + step);
            const double loss = m.train_step(tokens.data(), 3, 6, nullptr, o);
            std::vector<double> grads;
            CHECK(std::fabs(ref.loss(params, tokens.data(), 3, 6, nullptr, &grads) - loss) <= 1e-5);
            adam.step(m.specs(), params, grads, o);
        }
        const auto at = tensor_offsets(cfg);
        double worst = 0.0;
        for (std::size_t i = 0; i < params.size(); ++i) {
            bool key_bias = false;
            for (const auto& layer : at.layers)
                key_bias = key_bias || (i >= layer[Tensor::attn_b] + cfg.d && i < layer[Tensor::attn_b] + 2 * cfg.d);
            if (key_bias && variant.scheme != Scheme::rotary) continue;
            worst = std::fmax(worst, std::fabs(m.parameters()[i] - params[i]));
        }
        INFO(variant.name << " worst parameter difference " << worst);
        CHECK(worst <= 1e-3 * o.lr);
    }
}

TEST_CASE("AdamW's batch loop and scalar tail give the same bits", "[model][adamw]") {
    // One 2-D tensor of 13 entries (batches + a tail of 1) against 13 tensors of 1 entry (tail only).
    const std::size_t count = 13;
    const std::vector<TensorSpec> whole = {{"w", count, 1, 0}};
    std::vector<TensorSpec> single;
    for (std::size_t i = 0; i < count; ++i) single.push_back({"w", 1, 1, i});
    const auto grads = random_values(count, 3, 0.01f);
    std::vector<float> p1 = random_values(count, 4), p2 = p1, m1(count, 0.0f), m2(count, 0.0f), v1(count, 0.0f),
                       v2(count, 0.0f);
    for (std::uint64_t t = 1; t <= 3; ++t) {
        adamw_update(whole, p1.data(), grads.data(), m1.data(), v1.data(), t, {});
        adamw_update(single, p2.data(), grads.data(), m2.data(), v2.data(), t, {});
    }
    CHECK(p1 == p2);
    CHECK(m1 == m2);
    CHECK(v1 == v2);
    CHECK(p1 != random_values(count, 4));
}
