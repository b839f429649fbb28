// Bindings of the trainable models (block `models`; docs/ARCHITECTURE.md, "The trained model"; JS side:
// web/model.mjs). They make a module pair of their own, posenc-models-{simd,scalar} (CMakeLists.txt),
// fetched the first time a model is needed, so the cores of the page's first paint and of the
// <posenc-lab> element carry none of the model routines. Thin embind wrappers; see common.hpp for
// the conventions they follow.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "base/names.hpp"
#include "bindings/common.hpp"
#include "model/safetensors.hpp"
#include "model/tasks.hpp"
#include "model/training.hpp"
#include "model/transformer.hpp"
#include "model/word_vocabulary.hpp"
#include "vectors/vectors.hpp"

namespace {

using namespace posenc::bindings;

namespace model = posenc::model;

// Growing wasm memory for a request that cannot fit would abort the instance (operator new has no
// way to fail softly here), so every allocation a call may make is first tried with malloc.
bool memory_available(std::uint64_t bytes) {
    if (bytes > (std::uint64_t{1} << 31)) return false;
    void* probe = std::malloc(static_cast<std::size_t>(bytes));
    std::free(probe);
    return probe != nullptr;
}
const char* kNoMemory = "not enough wasm memory for this model or batch: dispose other models or use smaller sizes";

// A model's parameters; its gradient and AdamW state come with its first training call, which
// checks for them then (training_fits).
std::uint64_t model_bytes(const model::ModelConfig& cfg) {
    return std::uint64_t{4} * model::parameter_count(cfg);
}

// The word-vector file the last load rebuilt frozen rows from, kept with its bytes and parsed
// once: the page loads each shipped model twice (its heads first, then whole) against the same
// GloVe file, and parsing that file is most of a load's work. A file whose bytes differ in any
// way is parsed anew and replaces it.
class ParsedVectors {
public:
    // The parsed set of bytes[0, size), or null with *error set.
    const posenc::VectorSet* of(const std::uint8_t* bytes, std::size_t size, const char** error) {
        if (bytes_.size() != size || !std::equal(bytes_.begin(), bytes_.end(), bytes)) {
            bytes_.clear();
            set_ = posenc::VectorSet{};
            if ((*error = posenc::parse_packed_vectors(bytes, size, set_))) return nullptr;
            bytes_.assign(bytes, bytes + size);
        }
        return &set_;
    }

private:
    std::vector<std::uint8_t> bytes_;  // empty until a file parsed
    posenc::VectorSet set_;
};
ParsedVectors& parsed_vectors() {
    static ParsedVectors cache;
    return cache;
}

// rope: a kRopeScalingNames name; factor: a number (checked finite by the JS API), or undefined
// for s = max(1, length / context) at each evaluated length. "", or the message naming
// ropeScaling.type (then the caller returns it).
std::string eval_options(const std::string& rope, const emscripten::val& factor, model::EvalOptions& eval) {
    if (!posenc::enum_from_name(posenc::kRopeScalingNames, rope, eval.rope))
        return posenc::one_of("ropeScaling.type", posenc::kRopeScalingNames, rope);
    eval.factor_from_length = factor.isUndefined();
    if (!eval.factor_from_length) eval.factor = factor.as<double>();
    return {};
}

std::int32_t* ids(std::uintptr_t address) { return reinterpret_cast<std::int32_t*>(address); }
std::uint8_t* bytes_at(std::uintptr_t address) { return reinterpret_cast<std::uint8_t*>(address); }

// A training task (model/training.hpp) built once from text bytes or a synthetic spec; it writes
// its batches into its own buffers, so the page's train/evaluate calls cross the boundary once.
class TrainingTask {
public:
    // bytes: size bytes of UTF-8 text; the vocabulary is the text's own characters.
    std::string from_text(std::uintptr_t address, std::size_t size, unsigned held_out_percent) {
        if (!memory_available(12 * std::uint64_t{size})) return kNoMemory;
        return task_.set_text(std::string_view(reinterpret_cast<const char*>(address), size), held_out_percent);
    }
    // name: a kSyntheticKindNames name.
    std::string from_synthetic(const std::string& name, std::size_t symbols) {
        model::SyntheticKind kind;
        if (!posenc::enum_from_name(model::kSyntheticKindNames, name, kind))
            return posenc::one_of("kind", model::kSyntheticKindNames, name);
        const char* error = task_.set_synthetic(kind, symbols);
        return error ? error : "";
    }

    bool is_text() const { return task_.is_text(); }
    std::size_t vocab_size() const { return task_.vocab_size(); }
    emscripten::val vocab() const { return token_array(task_.vocab_tokens()); }
    std::size_t heldout_windows(std::size_t T) const { return task_.heldout_windows(T); }

    model::TrainingTask& core() { return task_; }

private:
    model::TrainingTask task_;
};

model::AdamWOptions adamw_options(std::uintptr_t options) {
    const double* o = reinterpret_cast<const double*>(options);
    model::AdamWOptions adamw;
    adamw.lr = static_cast<float>(o[0]);
    adamw.beta1 = static_cast<float>(o[1]);
    adamw.beta2 = static_cast<float>(o[2]);
    adamw.eps = static_cast<float>(o[3]);
    adamw.weight_decay = static_cast<float>(o[4]);
    adamw.clip = static_cast<float>(o[5]);
    return adamw;
}

// One model: its Transformer, and the last saved file until JS has copied it out.
class TrainableModel {
public:
    std::string create(const std::string& config_json) {
        model::ModelConfig cfg;
        const std::string error = model::config_from_json(config_json, cfg);
        if (!error.empty()) return error;
        return adopt(cfg);
    }

    // bytes: size bytes of a weights file. Nothing changes unless the whole file is valid.
    // vectors: vectors_size bytes of a word-vector file (vectors.hpp), or 0: what a file that
    // leaves its frozen wte out (the shipped models) rebuilds it from.
    std::string load(std::uintptr_t address, std::size_t size, std::uintptr_t vectors, std::size_t vectors_size) {
        // The file, its parsed weights; the vector file kept (parsed_vectors) and its float rows.
        if (!memory_available(2 * std::uint64_t{size} + 5 * std::uint64_t{vectors_size})) return kNoMemory;
        model::LoadedWeights loaded;
        const std::string error = model::read_weights(bytes_at(address), size, loaded, true);
        if (!error.empty()) return error;
        if (loaded.wte_missing) {
            if (vectors_size == 0) {
                return "weights file: wte.weight is left out (frozen word-vector rows): load it with the word vectors it was "
                       "trained on (loadModel(bytes, { vectors }); lab.loadPretrained does)";
            }
            const char* parse_error = nullptr;
            const posenc::VectorSet* set = parsed_vectors().of(bytes_at(vectors), vectors_size, &parse_error);
            if (!set) return std::string("word vectors: ") + parse_error;
            if (std::string e = model::rebuild_frozen_rows(loaded, *set); !e.empty()) return e;
        }
        // The parsed weights become the model's, not copied: a load touches their memory once.
        // read_weights validated the config and sized params to its parameter_count.
        model_ = std::make_unique<model::Transformer>(loaded.config, std::move(loaded.params));
        vocab_ = std::move(loaded.vocab);
        has_vocab_ = loaded.has_vocab;
        // A vocabulary with <unk> makes a word-level model (tokenize); any other keeps none.
        words_ = model::WordVocabulary{};
        if (has_vocab_) (void)words_.set(vocab_);
        return {};
    }

    std::string config() const { return model::config_to_json(model_->config()); }
    // [[name, rows, cols, offset], …] in parameter_specs order (cols 0: a 1-D tensor).
    std::string tensors() const {
        std::string json = "[";
        for (const auto& spec : model_->specs()) {
            if (json.size() > 1) json += ',';
            json += "[\"" + spec.name + "\"," + std::to_string(spec.rows) + ',' + std::to_string(spec.cols) + ',' +
                    std::to_string(spec.offset) + ']';
        }
        return json + "]";
    }
    std::size_t parameter_count() const { return model_->parameter_count(); }
    std::uintptr_t parameters() { return reinterpret_cast<std::uintptr_t>(model_->parameters()); }
    std::uintptr_t gradients_address() const { return reinterpret_cast<std::uintptr_t>(model_->gradient_buffer()); }
    double steps() const { return static_cast<double>(model_->steps()); }
    bool has_vocab() const { return has_vocab_; }
    emscripten::val vocab() const { return token_array(vocab_); }
    // −1 unless the file's vocabulary is a word vocabulary (model/word_vocabulary.hpp).
    int unknown_id() const { return words_.unknown_id(); }
    // A new Int32Array: the ids of lab.tokenize(text)'s tokens, in order (word models only).
    emscripten::val tokenize(const std::string& text) {
        words_.encode(text, encoded_);
        return emscripten::val::global("Int32Array").new_(emscripten::typed_memory_view(encoded_.size(), encoded_.data()));
    }

    // out: one double, the loss.
    std::string loss(std::uintptr_t tokens, std::size_t count, std::size_t B, std::size_t T, std::uintptr_t mask,
                     std::size_t mask_count, const std::string& rope, const emscripten::val& factor, std::uintptr_t out) {
        model::EvalOptions eval;
        if (std::string e = eval_options(rope, factor, eval); !e.empty()) return e;
        if (const char* e = model::validate(model_->config(), eval)) return e;
        if (const char* e = check_batch(tokens, count, B, T, mask, mask_count, false)) return e;
        *reinterpret_cast<double*>(out) = model_->loss(ids(tokens), B, T, mask_or_null(mask), eval);
        return {};
    }

    std::string gradients(std::uintptr_t tokens, std::size_t count, std::size_t B, std::size_t T, std::uintptr_t mask,
                          std::size_t mask_count, std::uintptr_t out) {
        if (const char* e = check_batch(tokens, count, B, T, mask, mask_count, true)) return e;
        *reinterpret_cast<double*>(out) = model_->gradients(ids(tokens), B, T, mask_or_null(mask));
        return {};
    }

    // options: lr, beta1, beta2, eps, weightDecay, clip (6 doubles at `options`).
    std::string train_step(std::uintptr_t tokens, std::size_t count, std::size_t B, std::size_t T, std::uintptr_t mask,
                           std::size_t mask_count, std::uintptr_t options, std::uintptr_t out) {
        const model::AdamWOptions adamw = adamw_options(options);
        if (const char* e = model::validate(adamw)) return e;
        if (const char* e = check_batch(tokens, count, B, T, mask, mask_count, true, true)) return e;
        *reinterpret_cast<double*>(out) = model_->train_step(ids(tokens), B, T, mask_or_null(mask), adamw);
        return {};
    }

    // `steps` AdamW steps on the task's training batches first_index, first_index + 1, …;
    // losses (steps floats at `out`) are each step's loss before its update.
    std::string train(TrainingTask& task, std::size_t B, std::size_t T, double seed, double first_index,
                      std::size_t steps, std::uintptr_t options, std::uintptr_t out) {
        const model::AdamWOptions adamw = adamw_options(options);
        if (const char* e = model::validate_training(model_->config(), task.core(), B, T, steps, adamw)) return e;
        if (!memory_available(task.core().batch_bytes(B, T))) return kNoMemory;
        if (const char* e = training_fits(true)) return e;
        if (const char* e = workspace_fits(model::workspace_sizes(model_->config(), B, T, true).total())) return e;
        return model::train(*model_, task.core(), B, T, static_cast<std::uint64_t>(seed),
                            static_cast<std::uint64_t>(first_index), steps, adamw, heap(out));
    }

    // For each length at `lengths` (count doubles): loss, token accuracy and exact accuracy over
    // `batches` held-out batches of B rows (model::evaluate). out: 3 doubles per length.
    std::string evaluate(TrainingTask& task, std::size_t B, std::size_t batches, double seed, std::uintptr_t lengths,
                         std::size_t count, const std::string& rope, const emscripten::val& factor, std::uintptr_t out) {
        model::EvalOptions eval;
        if (std::string e = eval_options(rope, factor, eval); !e.empty()) return e;
        if (count < 1 || count > model::kMaxEvalLengths) {
            return posenc::limits::limit_message("lengths must hold 1 to ", model::kMaxEvalLengths, " lengths");
        }
        const double* L = reinterpret_cast<const double*>(lengths);
        std::vector<std::size_t> T(count);
        for (std::size_t i = 0; i < count; ++i) {
            // Not a whole number in range: 0, which the core refuses with the lengths message.
            const bool whole = L[i] >= 0 && L[i] <= model::kMaxSequence && L[i] == std::floor(L[i]);
            T[i] = whole ? static_cast<std::size_t>(L[i]) : 0;
            if (const char* e = model::validate_evaluation(model_->config(), task.core(), B, T[i], batches, eval))
                return e;
            if (const char* e = workspace_fits(model::workspace_sizes(model_->config(), B, T[i], false).total()))
                return e;
            if (!memory_available(task.core().batch_bytes(B, T[i]))) return kNoMemory;
        }
        double* results = reinterpret_cast<double*>(out);
        for (std::size_t i = 0; i < count; ++i) {
            model::Evaluation e;
            const std::string error =
                model::evaluate(*model_, task.core(), B, T[i], batches, static_cast<std::uint64_t>(seed), eval, e);
            if (!error.empty()) return error;
            results[3 * i] = e.loss;
            results[3 * i + 1] = e.token_accuracy;
            results[3 * i + 2] = e.exact_accuracy;
        }
        return {};
    }

    // `length` tokens continuing the prompt (count ids at `prompt`; model::generate). out: length int32.
    std::string generate(std::uintptr_t prompt, std::size_t count, std::size_t length, double temperature,
                         double seed, std::uintptr_t out) {
        const model::ModelConfig& cfg = model_->config();
        if (const char* e = model::validate_generation(cfg, ids(prompt), count, length, temperature)) return e;
        if (const char* e = workspace_fits(model::workspace_sizes(cfg, 1, cfg.context, false).total())) return e;
        if (!memory_available(model::generation_bytes(cfg, count, length))) return kNoMemory;
        model::generate(*model_, ids(prompt), count, length, temperature, static_cast<std::uint64_t>(seed), ids(out));
        return {};
    }

    // out: L·h·n·n floats (attention) or n·V floats (logits).
    std::string attention(std::uintptr_t tokens, std::size_t n, const std::string& rope, const emscripten::val& factor, std::uintptr_t out) {
        return on_sequence(tokens, n, rope, factor, [&](const model::EvalOptions& eval) {
            model_->attention(ids(tokens), n, heap(out), eval);
            return std::string{};
        });
    }
    // map: layer·h + head, or −1 for every map; attention_out: each map's rows from_row … n − 1,
    // (n − from_row)·n or L·h·(n − from_row)·n floats, or 0 for none (tokenLosses); surprise_out:
    // n − 1 floats (Transformer::inspect).
    std::string inspect(std::uintptr_t tokens, std::size_t n, const std::string& rope, const emscripten::val& factor, int map,
                        std::size_t from_row, std::uintptr_t attention_out, std::uintptr_t surprise_out) {
        return on_sequence(tokens, n, rope, factor, [&](const model::EvalOptions& eval) -> std::string {
            const std::size_t chosen = map < 0 ? model::kEveryMap : static_cast<std::size_t>(map);
            if (const char* e = model::validate_inspect(model_->config(), n, chosen, from_row)) return e;
            if (const char* e = fits(model_->inspect_capacity(), model::inspect_floats(model_->config(), n))) return e;
            model_->inspect(ids(tokens), n, heap(attention_out), heap(surprise_out), eval, chosen, from_row);
            return {};
        }, false);
    }
    std::string logits(std::uintptr_t tokens, std::size_t n, const std::string& rope, const emscripten::val& factor, std::uintptr_t out) {
        return on_sequence(tokens, n, rope, factor, [&](const model::EvalOptions& eval) {
            model_->logits(ids(tokens), n, heap(out), eval);
            return std::string{};
        });
    }

    // The weights file in saved_ (savedAddress/savedSize) until releaseSaved.
    std::string save(bool f16) {
        if (!memory_available(4 * std::uint64_t{model_->parameter_count()} + (1 << 20))) return kNoMemory;
        return model::write_weights(model_->config(), model_->parameters(), model_->parameter_count(),
                                    has_vocab_ ? &vocab_ : nullptr,
                                    f16 ? model::WeightsDtype::f16 : model::WeightsDtype::f32, saved_);
    }
    std::uintptr_t saved_address() const { return reinterpret_cast<std::uintptr_t>(saved_.data()); }
    std::size_t saved_size() const { return saved_.size(); }
    void release_saved() { std::vector<std::uint8_t>().swap(saved_); }

private:
    std::string adopt(const model::ModelConfig& cfg) {
        if (const char* e = model::validate(cfg)) return e;
        if (!memory_available(model_bytes(cfg))) return kNoMemory;
        model_ = std::make_unique<model::Transformer>(cfg);
        return {};
    }

    static const std::uint8_t* mask_or_null(std::uintptr_t mask) { return mask ? bytes_at(mask) : nullptr; }

    const char* check_batch(std::uintptr_t tokens, std::size_t count, std::size_t B, std::size_t T, std::uintptr_t mask,
                            std::size_t mask_count, bool training, bool optimizer = false) const {
        if (const char* e = model::validate_batch(model_->config(), ids(tokens), count, B, T, mask_or_null(mask),
                                                  mask_count, training))
            return e;
        if (training) {
            if (const char* e = training_fits(optimizer)) return e;
        }
        return workspace_fits(model::workspace_sizes(model_->config(), B, T, training).total());
    }

    // whole_pass: the call sizes a whole pass's workspace (attention, logits), else only what
    // inspect's pass over cached rows reads (its rows are in its cache, which inspect checks).
    const char* check_sequence(std::uintptr_t tokens, std::size_t n, const model::EvalOptions& eval, bool whole_pass) const {
        const model::ModelConfig& cfg = model_->config();
        if (const char* e = model::validate(cfg, eval)) return e;
        if (const char* e = model::validate_sequence(cfg, ids(tokens), n, n)) return e;
        return workspace_fits(whole_pass ? model::workspace_sizes(cfg, 1, n, false).total() : model::row_workspace_floats(cfg, n));
    }

    // A call on one sequence: its evaluation options from JS (a RoPE scaling's name and factor)
    // and the ids and workspace checked for them (check_sequence's whole_pass), then body(eval);
    // "" or what is wrong.
    template <class Body>
    std::string on_sequence(std::uintptr_t tokens, std::size_t n, const std::string& rope, const emscripten::val& factor,
                            Body&& body, bool whole_pass = true) {
        model::EvalOptions eval;
        if (std::string e = eval_options(rope, factor, eval); !e.empty()) return e;
        if (const char* e = check_sequence(tokens, n, eval, whole_pass)) return e;
        return body(eval);
    }

    // The workspace and inspect's cache only grow; a call that needs no more than they hold
    // allocates nothing (and probes nothing: a probe of megabytes costs more than a one-row pass).
    const char* workspace_fits(std::uint64_t floats) const { return fits(model_->workspace_capacity(), floats); }
    // The gradient (and for a step, m and v) that the model's first training call allocates.
    const char* training_fits(bool optimizer) const { return fits(0, model_->training_floats(optimizer)); }
    static const char* fits(std::uint64_t held, std::uint64_t floats) {
        if (held >= floats) return nullptr;
        return memory_available(4 * floats) ? nullptr : kNoMemory;
    }

    std::unique_ptr<model::Transformer> model_;
    std::vector<std::string> vocab_;
    bool has_vocab_ = false;
    model::WordVocabulary words_;
    std::vector<std::int32_t> encoded_;  // tokenize's ids, reused
    std::vector<std::uint8_t> saved_;
};

// The model limits the JS API documents and pre-checks (one home: model/config.hpp, transformer.hpp).
emscripten::val model_limits() {
    emscripten::val limits = emscripten::val::object();
    // Every value is a whole number below 2^53: exact as a double (a JS number).
    const std::pair<const char*, double> known[] = {
        {"maxVocab", model::kMaxVocab}, {"maxWidth", model::kMaxWidth}, {"maxLayers", model::kMaxLayers},
        {"maxHeads", model::kMaxHeads}, {"maxContext", model::kMaxContext}, {"maxParameters", model::kMaxParameters},
        {"maxBatch", model::kMaxBatch}, {"maxSequence", model::kMaxSequence},
        {"maxWorkspaceFloats", static_cast<double>(model::kMaxWorkspaceFloats)}, {"maxSymbols", model::kMaxSymbols},
        {"maxHeldOutPercent", model::kMaxHeldOutPercent}, {"defaultHeldOutPercent", model::kDefaultHeldOutPercent},
        {"maxTrainSteps", model::kMaxTrainSteps}, {"maxEvalLengths", model::kMaxEvalLengths},
        {"maxEvalBatches", model::kMaxEvalBatches}, {"maxGenerate", model::kMaxGenerate}};
    for (const auto& [name, value] : known) limits.set(name, value);
    // trainStep's defaults (AdamWOptions's, docs/ARCHITECTURE.md, "Training step") and createTask's
    // synthetic kinds.
    const model::AdamWOptions o;
    emscripten::val adamw = emscripten::val::object();
    const std::pair<const char*, float> defaults[] = {{"lr", o.lr}, {"beta1", o.beta1}, {"beta2", o.beta2},
                                                      {"eps", o.eps}, {"weightDecay", o.weight_decay}, {"clip", o.clip}};
    for (const auto& [name, value] : defaults) adamw.set(name, std::stod(posenc::float_text(value)));
    limits.set("adamw", adamw);
    limits.set("syntheticKinds", name_list(model::kSyntheticKindNames));
    return limits;
}

}  // namespace

EMSCRIPTEN_BINDINGS(models) {
    emscripten::function("modelLimits", &model_limits);
    emscripten::class_<TrainingTask>("TrainingTask")
        .constructor<>()
        .function("fromText", &TrainingTask::from_text)
        .function("fromSynthetic", &TrainingTask::from_synthetic)
        .function("isText", &TrainingTask::is_text)
        .function("vocabSize", &TrainingTask::vocab_size)
        .function("vocab", &TrainingTask::vocab)
        .function("heldoutWindows", &TrainingTask::heldout_windows);
    emscripten::class_<TrainableModel>("TrainableModel")
        .constructor<>()
        .function("create", &TrainableModel::create)
        .function("load", &TrainableModel::load)
        .function("config", &TrainableModel::config)
        .function("tensors", &TrainableModel::tensors)
        .function("parameterCount", &TrainableModel::parameter_count)
        .function("parameters", &TrainableModel::parameters)
        .function("gradientsAddress", &TrainableModel::gradients_address)
        .function("steps", &TrainableModel::steps)
        .function("hasVocab", &TrainableModel::has_vocab)
        .function("vocab", &TrainableModel::vocab)
        .function("unknownId", &TrainableModel::unknown_id)
        .function("tokenize", &TrainableModel::tokenize)
        .function("loss", &TrainableModel::loss)
        .function("gradients", &TrainableModel::gradients)
        .function("trainStep", &TrainableModel::train_step)
        .function("attention", &TrainableModel::attention)
        .function("inspect", &TrainableModel::inspect)
        .function("logits", &TrainableModel::logits)
        .function("train", &TrainableModel::train)
        .function("evaluate", &TrainableModel::evaluate)
        .function("generate", &TrainableModel::generate)
        .function("save", &TrainableModel::save)
        .function("savedAddress", &TrainableModel::saved_address)
        .function("savedSize", &TrainableModel::saved_size)
        .function("releaseSaved", &TrainableModel::release_saved);
}
