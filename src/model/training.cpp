#include "model/training.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "base/limits.hpp"
#include "model/sampling.hpp"
#include "base/splitmix.hpp"

namespace posenc::model {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

using limits::limit_message;

// The argmax token at each of the T positions of each row: predictions int32 [B, T].
void predict_batch(Transformer& model, const std::int32_t* tokens, std::size_t B, std::size_t T,
                   const EvalOptions& eval, float* logits, std::int32_t* predictions) {
    const std::size_t V = model.config().vocab;
    for (std::size_t b = 0; b < B; ++b) {
        model.logits(tokens + b * (T + 1), T, logits, eval);
        for (std::size_t p = 0; p < T; ++p) {
            const float* row = logits + p * V;
            predictions[b * T + p] = static_cast<std::int32_t>(std::max_element(row, row + V) - row);
        }
    }
}

}  // namespace

std::string TrainingTask::set_text(std::string_view text, unsigned held_out_percent) {
    TextCorpus corpus;
    const std::string error = build_corpus(text, nullptr, held_out_percent, corpus);
    if (!error.empty()) return error;
    corpus_ = std::move(corpus);
    words_.clear();
    text_ = true;
    return {};
}

std::string TrainingTask::set_words(const WordVocabulary& vocab, std::string_view text, std::string_view held_out) {
    if (vocab.empty()) return "vocab is empty";
    if (text.size() > kMaxTextBytes) return text_too_long("text");
    if (held_out.size() > kMaxTextBytes) return text_too_long("heldOutText");
    TextCorpus corpus;
    std::vector<std::int32_t> tail;
    vocab.encode(text, corpus.ids);
    vocab.encode(held_out, tail);
    if (corpus.ids.size() < 2) return "text has fewer than 2 tokens";
    if (tail.size() < 2) return "heldOutText has fewer than 2 tokens";
    corpus.train_end = corpus.ids.size();
    corpus.ids.insert(corpus.ids.end(), tail.begin(), tail.end());
    corpus_ = std::move(corpus);
    words_ = vocab.tokens();
    text_ = true;
    return {};
}

const char* TrainingTask::set_synthetic(SyntheticKind kind, std::size_t symbols, std::size_t items) {
    if (symbols < 2 || symbols > kMaxSymbols) return symbols_range();
    synthetic_.kind = kind;
    synthetic_.symbols = symbols;
    fixed_items_ = items;
    text_ = false;
    return nullptr;
}

std::vector<std::string> TrainingTask::vocab_tokens() const {
    if (!text_) return synthetic_tokens(synthetic_);
    return words_.empty() ? vocabulary_tokens(corpus_.vocabulary) : words_;
}

std::uint64_t TrainingTask::batch_bytes(std::size_t B, std::size_t T) const {
    const std::uint64_t rows = std::uint64_t{B} * (T + 1);
    return tokens_.size() >= rows ? 0 : 5 * rows;  // int32 tokens and (about) one mask byte each
}

std::string TrainingTask::batch(std::size_t B, std::size_t T, std::uint64_t seed, std::uint64_t index,
                                bool held_out) {
    if (B < 1 || B > kMaxBatch) return limit_message("B must be an integer from 1 to ", kMaxBatch);
    if (T < 2 || T > kMaxContext) return limit_message("T must be an integer from 2 to ", kMaxContext);
    tokens_.resize(B * (T + 1));
    mask_.resize(B * T);
    if (!text_) {
        synthetic_.items = fixed_items_ ? fixed_items_ : T / 2;
        return synthetic_batch(synthetic_, B, T, seed, index, tokens_.data(), mask_.data());
    }
    return held_out ? heldout_batch(corpus_, B, T, index, tokens_.data(), mask_.data())
                    : text_batch(corpus_, B, T, seed, index, tokens_.data(), mask_.data());
}

const char* validate_task(const ModelConfig& cfg, const TrainingTask& task) {
    return task.vocab_size() == cfg.vocab ? nullptr : "task: its vocabulary size differs from the model's vocab";
}

const char* validate_training(const ModelConfig& cfg, const TrainingTask& task, std::size_t B, std::size_t T,
                              std::size_t steps, const AdamWOptions& adamw) {
    if (steps < 1 || steps > kMaxTrainSteps) return limit_message("steps must be an integer from 1 to ", kMaxTrainSteps);
    if (const char* e = validate_task(cfg, task)) return e;
    if (const char* e = validate(adamw)) return e;
    if (T < 2 || T > kMaxContext) return limit_message("T must be an integer from 2 to ", kMaxContext);
    return validate_shape(cfg, B, T, true);
}

std::string train(Transformer& model, TrainingTask& task, std::size_t B, std::size_t T, std::uint64_t seed,
                  std::uint64_t first_index, std::size_t steps, const AdamWOptions& adamw, float* losses) {
    for (std::size_t i = 0; i < steps; ++i) {
        const std::string error = task.batch(B, T, seed, first_index + i, false);
        if (!error.empty()) return error;
        const std::uint64_t applied = model.steps();
        losses[i] = static_cast<float>(model.train_step(task.tokens(), B, T, task.mask(), adamw));
        if (model.steps() == applied) break;  // diverged: nothing applied, the caller reports it
    }
    return {};
}

const char* validate_evaluation(const ModelConfig& cfg, const TrainingTask& task, std::size_t B, std::size_t T,
                                std::size_t batches, const EvalOptions& eval) {
    if (const char* e = validate(cfg, eval)) return e;
    if (const char* e = validate_task(cfg, task)) return e;
    static const std::string batches_range = "batches must be an integer from 1 to " + std::to_string(kMaxEvalBatches),
                             lengths_range = "lengths must be integers from 2 to " + std::to_string(kMaxSequence),
                             batch_range = "B must be an integer from 1 to " + std::to_string(kMaxBatch);
    if (batches < 1 || batches > kMaxEvalBatches) return batches_range.c_str();
    if (T < 2 || T > kMaxSequence) return lengths_range.c_str();
    if (B < 1 || B > kMaxBatch) return batch_range.c_str();
    static const std::string too_big = workspace_message("B·length", "B or lengths");
    if (workspace_sizes(cfg, B, T, false).total() > kMaxWorkspaceFloats) return too_big.c_str();
    return nullptr;
}

bool evaluable(const ModelConfig& cfg, const TrainingTask& task, std::size_t T) {
    const bool beyond_table = cfg.scheme == Scheme::learned && T > cfg.context;
    const bool beyond_text = task.is_text() && task.heldout_windows(T) == 0;
    return !beyond_table && !beyond_text;
}

std::string evaluate(Transformer& model, TrainingTask& task, std::size_t B, std::size_t T, std::size_t batches,
                     std::uint64_t seed, const EvalOptions& eval, Evaluation& out) {
    if (!evaluable(model.config(), task, T)) {
        out = {kNaN, kNaN, kNaN};
        return {};
    }
    const bool text = task.is_text();
    double loss = 0, right_tokens = 0, right_rows = 0, tokens = 0, rows = 0;
    std::vector<std::int32_t> predictions(text ? 0 : B * T);
    std::vector<float> logits(text ? 0 : T * model.config().vocab);
    for (std::size_t k = 0; k < batches; ++k) {
        if (std::string error = task.batch(B, T, seed, k, true); !error.empty()) return error;
        loss += model.loss(task.tokens(), B, T, task.mask(), eval);
        if (text) continue;
        predict_batch(model, task.tokens(), B, T, eval, logits.data(), predictions.data());
        const SyntheticAccuracy a = synthetic_accuracy(predictions.data(), task.tokens(), task.mask(), B, T);
        right_tokens += a.tokens * static_cast<double>(a.answer_tokens);
        right_rows += a.examples * static_cast<double>(a.rows);
        tokens += static_cast<double>(a.answer_tokens);
        rows += static_cast<double>(a.rows);
    }
    out.loss = loss / static_cast<double>(batches);
    out.token_accuracy = text ? kNaN : right_tokens / tokens;
    out.exact_accuracy = text ? kNaN : right_rows / rows;
    return {};
}

const char* validate_generation(const ModelConfig& cfg, const std::int32_t* prompt, std::size_t count,
                                std::size_t length, double temperature) {
    if (length < 1 || length > kMaxGenerate) return limit_message("length must be an integer from 1 to ", kMaxGenerate);
    if (!(temperature >= 0 && temperature <= kMaxTemperature))
        return limit_message("temperature must be a number from 0 to ", kMaxTemperature);
    return validate_sequence(cfg, prompt, count, count);
}

std::uint64_t generation_bytes(const ModelConfig& cfg, std::size_t count, std::size_t length) {
    return 4 * (std::uint64_t{count} + length + std::uint64_t{cfg.context} * cfg.vocab);
}

void generate(Transformer& model, const std::int32_t* prompt, std::size_t count, std::size_t length,
              double temperature, std::uint64_t seed, std::int32_t* out) {
    const std::size_t window = model.config().context;
    const std::size_t V = model.config().vocab;
    std::vector<std::int32_t> text(prompt, prompt + count);
    std::vector<float> logits(window * V);
    SplitMix64 rng{seed};
    for (std::size_t i = 0; i < length; ++i) {
        const std::size_t n = std::min(window, text.size());
        model.logits(text.data() + text.size() - n, n, logits.data());
        const auto next = static_cast<std::int32_t>(sample_token(logits.data() + (n - 1) * V, V, temperature, rng));
        text.push_back(next);
        out[i] = next;
    }
}

}  // namespace posenc::model
