// Training, evaluation and generation over a task, in the core: the one home of the loops the
// page (through the bindings) and the native trainer (cli/posenc_train.cpp) both run.
//
// Shapes (B rows, T positions fed per row, V vocabulary; batch layout as in model/tasks.hpp):
//   task batch   tokens int32 [B, T+1], mask uint8 [B, T] (synthetic tasks) or none (text: every
//                target counts, the same loss with less work)
//   losses       float [steps]: each training step's loss before its update
//   Evaluation   loss: mean over `batches` batches of the batch's mean loss; token accuracy and
//                exact accuracy: answer tokens and whole answers predicted right (argmax), pooled
//                over every batch; NaN for text tasks
//   generate     prompt int32 [count], out int32 [length]
// Determinism: training batch k and held-out batch k are pure functions of (task, B, T, seed, k),
// so training in chunks (first_index = steps done so far) gives the bits of one long call.
// Every routine assumes arguments that passed its validate_* function (nullptr or a message
// naming the argument by its JS name); limits are checked there, before anything is allocated.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/adamw.hpp"
#include "model/tasks.hpp"
#include "model/transformer.hpp"
#include "model/word_vocabulary.hpp"

namespace posenc::model {

inline constexpr std::size_t kMaxTrainSteps = 100000;
inline constexpr std::size_t kMaxEvalBatches = 1024;
inline constexpr std::size_t kMaxEvalLengths = 64;  // lengths per evaluate call
inline constexpr std::size_t kMaxGenerate = 4096;
inline constexpr double kMaxTemperature = 100;

// A text corpus (character vocabulary, held-out tail) or a copy/reverse/sort task, and the
// buffers its batches are written into. Synthetic rows at length T hold ⌊T/2⌋ items unless a
// fixed item count is given, so longer evaluation lengths mean longer sequences.
class TrainingTask {
public:
    // "" or a message naming text or heldOutPercent. The task is unchanged on failure.
    std::string set_text(std::string_view text, unsigned held_out_percent);
    // Word-level text: the ids of `text` (vocab.encode) for training, then those of `held_out`,
    // which is exactly the held-out part (train_end = the training text's token count). "" or a
    // message naming vocab, text or heldOutText; the task is unchanged on failure.
    std::string set_words(const WordVocabulary& vocab, std::string_view text, std::string_view held_out);
    // nullptr or a message naming symbols (2 … kMaxSymbols). items 0: ⌊T/2⌋ at each length T.
    const char* set_synthetic(SyntheticKind kind, std::size_t symbols, std::size_t items = 0);

    bool is_text() const { return text_; }
    std::size_t vocab_size() const {
        return !text_ ? synthetic_.vocab() : words_.empty() ? corpus_.vocabulary.size() : words_.size();
    }
    // The corpus's ids (text tasks): training ids [0, train_end), then held out.
    const TextCorpus& corpus() const { return corpus_; }
    std::vector<std::string> vocab_tokens() const;
    // Held-out windows of length T (text), or 0 for synthetic tasks (they draw fresh examples).
    std::size_t heldout_windows(std::size_t T) const { return text_ ? heldout_window_count(corpus_, T) : 0; }

    // Bytes batch(B, T, …) would allocate (0 when its buffers are large enough already).
    std::uint64_t batch_bytes(std::size_t B, std::size_t T) const;
    // Training batch `index`, or held-out batch `index` (text: held-out windows, no seed;
    // synthetic: rows seeded from seed, as for training) into tokens()/mask(). "" or a message
    // naming B, T or why the text cannot give such a batch.
    std::string batch(std::size_t B, std::size_t T, std::uint64_t seed, std::uint64_t index, bool held_out);
    const std::int32_t* tokens() const { return tokens_.data(); }
    std::size_t token_count() const { return tokens_.size(); }
    const std::uint8_t* mask() const { return text_ ? nullptr : mask_.data(); }

private:
    bool text_ = false;
    TextCorpus corpus_;
    std::vector<std::string> words_;  // word-level text: the vocabulary's tokens; empty otherwise
    SyntheticTask synthetic_;
    std::size_t fixed_items_ = 0;
    std::vector<std::int32_t> tokens_;
    std::vector<std::uint8_t> mask_;
};

// task: its vocabulary size must be the model's vocab.
const char* validate_task(const ModelConfig& cfg, const TrainingTask& task);

// steps, task, the AdamW options, B, T (as validate_batch), in that order.
const char* validate_training(const ModelConfig& cfg, const TrainingTask& task, std::size_t B, std::size_t T,
                              std::size_t steps, const AdamWOptions& adamw);
// `steps` AdamW steps on training batches first_index, first_index + 1, …; losses: steps floats.
// Stops after the first diverged step (Transformer::train_step: not applied), whose loss is the
// last one written, so model.steps() tells how many were applied. "" or why a batch could not be
// made (a text too short for T).
std::string train(Transformer& model, TrainingTask& task, std::size_t B, std::size_t T, std::uint64_t seed,
                  std::uint64_t first_index, std::size_t steps, const AdamWOptions& adamw, float* losses);

struct Evaluation {
    double loss = 0;
    double token_accuracy = 0;  // NaN for text tasks
    double exact_accuracy = 0;  // NaN for text tasks
};

// ropeScaling, task, batches, B, then the evaluation workspace at length T (named `lengths`).
const char* validate_evaluation(const ModelConfig& cfg, const TrainingTask& task, std::size_t B, std::size_t T,
                                std::size_t batches, const EvalOptions& eval);
// False where length T cannot be evaluated: beyond a learned table, or longer than the held-out text.
bool evaluable(const ModelConfig& cfg, const TrainingTask& task, std::size_t T);
// Held-out batches 0 … batches − 1 at length T (all three results NaN where !evaluable).
std::string evaluate(Transformer& model, TrainingTask& task, std::size_t B, std::size_t T, std::size_t batches,
                     std::uint64_t seed, const EvalOptions& eval, Evaluation& out);

// length (1 … kMaxGenerate), temperature (0 … kMaxTemperature), prompt (ids < vocab, count ≥ 1).
const char* validate_generation(const ModelConfig& cfg, const std::int32_t* prompt, std::size_t count,
                                std::size_t length, double temperature);
// Bytes generate allocates besides the model's workspace (at one row of `context` tokens).
std::uint64_t generation_bytes(const ModelConfig& cfg, std::size_t count, std::size_t length);
// `length` tokens continuing the prompt, each predicted from at most the last `context` tokens;
// temperature 0 is greedy (argmax), else a draw from softmax(logits/temperature) seeded by seed.
void generate(Transformer& model, const std::int32_t* prompt, std::size_t count, std::size_t length,
              double temperature, std::uint64_t seed, std::int32_t* out);

}  // namespace posenc::model
