// model/training.hpp: the task's batches are deterministic, training in chunks is one call bit for
// bit, evaluate's loss and accuracies match a hand-built model, generate at temperature 0 is the
// argmax, and every validation message names its argument.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "model/training.hpp"
#include "model_test_support.hpp"

using namespace posenc;
using namespace posenc::model;

namespace {

// V = symbols + 2; d = 8 with 2 heads keeps every case fast under ASan and in wasm.
ModelConfig small_config(std::size_t vocab, Scheme scheme = Scheme::rotary) {
    return test::variant_config({scheme, Layout::interleaved, ""}, vocab, 8, 1, 2, 8, 3);
}

TrainingTask copy_task(std::size_t symbols) {
    TrainingTask task;
    REQUIRE(task.set_synthetic(SyntheticKind::copy, symbols) == nullptr);
    return task;
}

const TensorSpec& spec_named(const Transformer& model, const std::string& name) {
    const auto& specs = model.specs();
    const auto it = std::find_if(specs.begin(), specs.end(), [&](const TensorSpec& s) { return s.name == name; });
    REQUIRE(it != specs.end());
    return *it;
}

}  // namespace

TEST_CASE("TrainingTask: batch k is a pure function of (B, T, seed, k)", "[model]") {
    TrainingTask a = copy_task(5), b = copy_task(5);
    REQUIRE(a.batch(3, 8, 11, 4, false).empty());
    const std::vector<std::int32_t> first(a.tokens(), a.tokens() + a.token_count());
    REQUIRE(a.batch(3, 8, 11, 5, false).empty());
    const std::vector<std::int32_t> next(a.tokens(), a.tokens() + a.token_count());
    REQUIRE(b.batch(3, 8, 11, 4, false).empty());
    CHECK(std::vector<std::int32_t>(b.tokens(), b.tokens() + b.token_count()) == first);
    CHECK(next != first);
    CHECK(a.vocab_size() == 7);
    CHECK(a.heldout_windows(8) == 0);

    // Synthetic rows at length T hold ⌊T/2⌋ items: the separator sits at position ⌊T/2⌋.
    REQUIRE(a.batch(2, 11, 1, 0, true).empty());
    CHECK(a.tokens()[5] == kSepToken);
    CHECK(a.token_count() == 2 * 12);
}

TEST_CASE("TrainingTask: text tasks hold out their tail and count every target", "[model]") {
    TrainingTask task;
    CHECK(task.set_text(std::string(1, '\xff'), 10).find("text") != std::string::npos);
    std::string varied;
    for (int i = 0; i < 200; ++i) varied += static_cast<char>('a' + i % 5);
    REQUIRE(task.set_text(varied, 10).empty());
    CHECK(task.is_text());
    CHECK(task.vocab_size() == 5);
    // 20 held-out ids: ⌊(20 − 1)/8⌋ = 2 windows of 8, none of 20.
    CHECK(task.heldout_windows(8) == 2);
    CHECK(task.heldout_windows(20) == 0);
    REQUIRE(task.batch(2, 8, 1, 0, false).empty());
    CHECK(task.mask() == nullptr);
    CHECK_FALSE(evaluable(small_config(5), task, 20));
    CHECK(evaluable(small_config(5), task, 8));
}

TEST_CASE("train: chunks with first_index give one call's losses and parameters bit for bit", "[model]") {
    const ModelConfig cfg = small_config(7);
    TrainingTask task = copy_task(5);
    REQUIRE(validate_training(cfg, task, 3, 8, 6, AdamWOptions{}) == nullptr);
    Transformer whole(cfg), chunked(cfg);
    std::vector<float> losses(6), pieces(6);
    REQUIRE(train(whole, task, 3, 8, 9, 0, 6, AdamWOptions{}, losses.data()).empty());
    REQUIRE(train(chunked, task, 3, 8, 9, 0, 2, AdamWOptions{}, pieces.data()).empty());
    REQUIRE(train(chunked, task, 3, 8, 9, 2, 4, AdamWOptions{}, pieces.data() + 2).empty());
    CHECK(losses == pieces);
    CHECK(std::equal(whole.parameters(), whole.parameters() + whole.parameter_count(), chunked.parameters()));
    CHECK(whole.steps() == 6);
    // Training learns: the copy task's loss falls from ln V within a few steps at lr 1e-2.
    Transformer fast(cfg);
    AdamWOptions adamw;
    adamw.lr = 1e-2f;
    std::vector<float> curve(40);
    REQUIRE(train(fast, task, 8, 8, 1, 0, 40, adamw, curve.data()).empty());
    CHECK(curve.back() < curve.front());

    // The same seed and model seed reproduce; another data seed gives other batches.
    Transformer again(cfg), other(cfg);
    std::vector<float> repeat(6), elsewhere(6);
    REQUIRE(train(again, task, 3, 8, 9, 0, 6, AdamWOptions{}, repeat.data()).empty());
    REQUIRE(train(other, task, 3, 8, 10, 0, 6, AdamWOptions{}, elsewhere.data()).empty());
    CHECK(repeat == losses);
    CHECK(elsewhere != losses);
}

TEST_CASE("a diverged step is not applied: weights, AdamW state and t stay; train stops there", "[model][diverged]") {
    const ModelConfig cfg = small_config(7);
    TrainingTask task = copy_task(5);
    Transformer poisoned(cfg), twin(cfg);
    std::vector<float> losses(5, 0.0f), twin_losses(5);
    REQUIRE(train(poisoned, task, 3, 8, 9, 0, 3, AdamWOptions{}, losses.data()).empty());
    // One NaN weight in lm_head makes the next loss NaN (what a diverged run's weights hold).
    const TensorSpec& head = spec_named(poisoned, "lm_head.weight");
    float* weight = poisoned.parameters() + head.offset + 5;
    const float kept = *weight;
    *weight = NAN;
    const std::vector<float> before(poisoned.parameters(), poisoned.parameters() + poisoned.parameter_count());
    float nan_loss = 0.0f;
    REQUIRE(train(poisoned, task, 3, 8, 9, 3, 2, AdamWOptions{}, &nan_loss).empty());
    CHECK(std::isnan(nan_loss));
    CHECK(poisoned.steps() == 3);  // stopped at the diverged step: the second was never taken
    CHECK(std::memcmp(poisoned.parameters(), before.data(), before.size() * sizeof(float)) == 0);
    CHECK(std::isnan(poisoned.train_step(task.tokens(), 3, 8, task.mask(), AdamWOptions{})));
    CHECK(poisoned.steps() == 3);
    // With the weight back, training goes on as if the diverged steps had never been tried: m, v
    // and t were untouched, so the bits are those of a run that never diverged.
    *weight = kept;
    REQUIRE(train(poisoned, task, 3, 8, 9, 3, 2, AdamWOptions{}, losses.data() + 3).empty());
    REQUIRE(train(twin, task, 3, 8, 9, 0, 5, AdamWOptions{}, twin_losses.data()).empty());
    CHECK(losses == twin_losses);
    CHECK(std::memcmp(poisoned.parameters(), twin.parameters(), twin.parameter_count() * sizeof(float)) == 0);
}

TEST_CASE("a run whose finite weights overflow the forward pass stops with every weight finite", "[model][diverged]") {
    // A run at lr 1, no clipping, beta2 0.5 grows its weights until the loss is NaN (about step
    // 130), and every weight is NaN after the next update unless train() stops. Here the weights
    // are made that large at once (every one ×1e17: finite, but LayerNorm's squares overflow), so
    // the first step diverges whatever the build's rounding: train() stops at it, nothing applied.
    const ModelConfig cfg = small_config(7);
    TrainingTask task = copy_task(5);
    Transformer model(cfg);
    for (std::size_t i = 0; i < model.parameter_count(); ++i) model.parameters()[i] *= 1e17f;
    const std::vector<float> before(model.parameters(), model.parameters() + model.parameter_count());
    REQUIRE(std::all_of(before.begin(), before.end(), [](float w) { return std::isfinite(w); }));
    AdamWOptions wild;
    wild.lr = 1.0f;
    wild.clip = 0.0f;
    wild.beta2 = 0.5f;
    std::vector<float> losses(4, 0.0f);
    REQUIRE(train(model, task, 4, 8, 1, 0, 4, wild, losses.data()).empty());
    CHECK(model.steps() == 0);
    CHECK(!std::isfinite(losses[0]));
    CHECK(losses[1] == 0.0f);  // never reached
    CHECK(std::memcmp(model.parameters(), before.data(), before.size() * sizeof(float)) == 0);
}

TEST_CASE("evaluate: loss and accuracies of a model that always predicts one symbol", "[model]") {
    // Every weight zero but ln_f.bias = e_0 and lm_head[favourite][0] = 1: the final LayerNorm
    // outputs e_0 at every position, so the logits are 1 for `favourite` and 0 elsewhere.
    const std::size_t symbols = 2, V = symbols + 2, B = 5, T = 8, batches = 3;
    const std::int32_t favourite = kFirstSymbolToken;
    ModelConfig cfg = small_config(V, Scheme::nope);
    Transformer model(cfg);
    std::vector<float> params(model.parameter_count(), 0.0f);
    params[spec_named(model, "ln_f.bias").offset] = 1.0f;
    params[spec_named(model, "lm_head.weight").offset + favourite * cfg.d] = 1.0f;
    REQUIRE(model.set_parameters(params.data(), params.size()) == nullptr);

    TrainingTask task = copy_task(symbols);
    REQUIRE(validate_evaluation(cfg, task, B, T, batches, {}) == nullptr);
    Evaluation e;
    REQUIRE(evaluate(model, task, B, T, batches, 77, {}, e).empty());

    // By hand from the same held-out batches: −log p(target) is log(V − 1 + e) − [target = favourite].
    const double log_z = std::log(static_cast<double>(V - 1) + std::exp(1.0));
    double loss = 0, right = 0, answers = 0, exact = 0;
    TrainingTask same = copy_task(symbols);
    for (std::size_t k = 0; k < batches; ++k) {
        REQUIRE(same.batch(B, T, 77, k, true).empty());
        double batch_loss = 0, counted = 0;
        for (std::size_t b = 0; b < B; ++b) {
            bool all = true;
            for (std::size_t p = 0; p < T; ++p) {
                if (!same.mask()[b * T + p]) continue;
                const bool hit = same.tokens()[b * (T + 1) + p + 1] == favourite;
                batch_loss += log_z - (hit ? 1.0 : 0.0);
                counted += 1;
                right += hit;
                all = all && hit;
            }
            exact += all;
        }
        loss += batch_loss / counted;
        answers += counted;
    }
    // The model's loss is float math over at most 20 targets per batch: 1e-6 relative covers it.
    CHECK(e.loss == Approx(loss / batches).epsilon(1e-6));
    CHECK(e.token_accuracy == Approx(right / answers).epsilon(1e-12));
    CHECK(e.exact_accuracy == Approx(exact / (B * batches)).epsilon(1e-12));
    CHECK(e.token_accuracy > 0.2);  // K = 2: about half the answer tokens are the favourite
    CHECK(e.token_accuracy < 0.8);

    // Beyond a learned table: NaN, not an error.
    ModelConfig learned = small_config(V, Scheme::learned);
    Transformer table(learned);
    Evaluation beyond;
    REQUIRE(evaluate(table, task, B, 16, 1, 1, {}, beyond).empty());
    CHECK(std::isnan(beyond.loss));
    CHECK(std::isnan(beyond.exact_accuracy));
}

TEST_CASE("generate: temperature 0 is the argmax of the last position over the last context tokens", "[model]") {
    const ModelConfig cfg = small_config(9);
    Transformer model(cfg);
    const std::vector<std::int32_t> prompt = test::random_tokens(11, cfg.vocab, 5);  // longer than context 8
    const std::size_t length = 13;
    REQUIRE(validate_generation(cfg, prompt.data(), prompt.size(), length, 0.0) == nullptr);
    std::vector<std::int32_t> out(length);
    generate(model, prompt.data(), prompt.size(), length, 0.0, 1, out.data());

    std::vector<std::int32_t> text = prompt;
    std::vector<float> logits(cfg.context * cfg.vocab);
    for (std::size_t i = 0; i < length; ++i) {
        const std::size_t n = std::min(cfg.context, text.size());
        model.logits(text.data() + text.size() - n, n, logits.data());
        const float* last = logits.data() + (n - 1) * cfg.vocab;
        text.push_back(static_cast<std::int32_t>(std::max_element(last, last + cfg.vocab) - last));
        CHECK(out[i] == text.back());
    }

    std::vector<std::int32_t> drawn(length), redrawn(length);
    generate(model, prompt.data(), prompt.size(), length, 1.0, 42, drawn.data());
    generate(model, prompt.data(), prompt.size(), length, 1.0, 42, redrawn.data());
    CHECK(drawn == redrawn);
    CHECK(std::all_of(drawn.begin(), drawn.end(), [&](std::int32_t t) { return t >= 0 && t < 9; }));
}

TEST_CASE("training validation: messages name the argument, checked before anything is made", "[model]") {
    const ModelConfig cfg = small_config(7);
    TrainingTask task = copy_task(5), other = copy_task(6);
    const std::string none;
    auto text = [](const char* e) { return std::string(e ? e : ""); };
    AdamWOptions bad;
    bad.lr = -1.0f;
    CHECK_THAT(text(TrainingTask().set_synthetic(SyntheticKind::sort, 1)), Catch::StartsWith("symbols"));
    CHECK_THAT(text(TrainingTask().set_synthetic(SyntheticKind::sort, kMaxSymbols + 1)), Catch::StartsWith("symbols"));
    CHECK_THAT(text(validate_training(cfg, task, 3, 8, 0, {})), Catch::StartsWith("steps"));
    CHECK_THAT(text(validate_training(cfg, task, 3, 8, kMaxTrainSteps + 1, {})), Catch::StartsWith("steps"));
    CHECK_THAT(text(validate_training(cfg, other, 3, 8, 1, {})), Catch::StartsWith("task"));
    CHECK_THAT(text(validate_training(cfg, task, 3, 8, 1, bad)), Catch::StartsWith("lr"));
    CHECK_THAT(text(validate_training(cfg, task, 0, 8, 1, {})), Catch::StartsWith("B "));
    CHECK_THAT(text(validate_training(cfg, task, 3, 1, 1, {})), Catch::StartsWith("T "));
    CHECK_THAT(text(validate_training(small_config(7, Scheme::learned), task, 3, 9, 1, {})), Catch::StartsWith("T "));
    // 1024 rows of 4096 positions exceed the 2^26-float workspace limit.
    CHECK_THAT(text(validate_training(cfg, task, kMaxBatch, kMaxContext, 1, {})), Catch::StartsWith("B·T"));

    EvalOptions ntk;
    ntk.rope = RopeScaling::ntk;
    ntk.factor = 0.5;
    CHECK_THAT(text(validate_evaluation(cfg, task, 3, 8, 1, ntk)), Catch::StartsWith("ropeScaling"));
    CHECK_THAT(text(validate_evaluation(cfg, other, 3, 8, 1, {})), Catch::StartsWith("task"));
    CHECK_THAT(text(validate_evaluation(cfg, task, 3, 8, 0, {})), Catch::StartsWith("batches"));
    CHECK_THAT(text(validate_evaluation(cfg, task, 3, 1, 1, {})), Catch::StartsWith("lengths"));
    CHECK_THAT(text(validate_evaluation(cfg, task, 0, 8, 1, {})), Catch::StartsWith("B "));
    CHECK_THAT(text(validate_evaluation(cfg, task, kMaxBatch, kMaxSequence, 1, {})), Catch::StartsWith("B·length"));
    CHECK(validate_evaluation(small_config(7, Scheme::learned), task, 3, 64, 1, {}) == nullptr);  // NaN, not refused

    const std::int32_t prompt[] = {1, 2, 3};
    const std::int32_t outside[] = {1, 7};
    CHECK_THAT(text(validate_generation(cfg, prompt, 3, 0, 0.0)), Catch::StartsWith("length"));
    CHECK_THAT(text(validate_generation(cfg, prompt, 3, kMaxGenerate + 1, 0.0)), Catch::StartsWith("length"));
    CHECK_THAT(text(validate_generation(cfg, prompt, 3, 4, -1.0)), Catch::StartsWith("temperature"));
    CHECK_THAT(text(validate_generation(cfg, prompt, 3, 4, std::nan(""))), Catch::StartsWith("temperature"));
    CHECK_THAT(text(validate_generation(cfg, outside, 2, 4, 0.0)), Catch::StartsWith("tokens"));
    CHECK_THAT(text(validate_generation(cfg, prompt, 0, 4, 0.0)), Catch::StartsWith("n "));
    CHECK(text(validate_generation(cfg, prompt, 3, 4, 100.0)) == none);
}
