// posenc-train: trains one model of docs/ARCHITECTURE.md ("The trained model") natively, from the same core the
// page runs in wasm, and writes its weights file. The only layer with file I/O besides the page.
//
//   posenc-train --scheme rotary --task copy --steps 500 --out copy-rotary.safetensors
//   posenc-train --scheme additive --task text --text data/moby-dick.txt --context 64 --steps 2000
//   posenc-train --scheme rotary --task words --text train.txt --held-out-text data/words-heldout.txt
//       --vectors data/glove-6b-100d-20k.i8 --vocab-size 4096 --d 100 --heads 5 --context 32 --f16
//
// --task words: a word-level model on the page tokenizer's tokens (model/word_vocabulary.hpp).
// The vocabulary is the training text's vocab-size − 1 most frequent tokens that the vector file
// has, plus <unk>; wte holds their vectors (PCA-reduced to d − dPos for concatenated, on centred
// or, with --word-pca uncentred, uncentred axes; unreduced when d − dPos is the vectors' width, the
// widened split), rounded to the file's dtype before the first step, and is frozen
// (frozenEmbedding) unless --train-embedding.
// alpha defaults to 1/(the vectors' component RMS), the page's embedding scale. The final held-out
// loss is measured on the model read back from the bytes written, so it is the shipped file's.
//
// Prints one line per --log-every steps (step, training loss, held-out loss or accuracy,
// tokens/s) and a final line; everything is a pure function of the flags, so a run reproduces
// bit for bit on the same build.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <unordered_map>
#include <utility>
#include <algorithm>
#include <string>
#include <thread>
#include <vector>

#include "base/names.hpp"
#include "encodings/phases.hpp"
#include "encodings/scheme_table.hpp"
#include "model/safetensors.hpp"
#include "model/tasks.hpp"
#include "model/training.hpp"
#include "model/transformer.hpp"
#include "model/word_vocabulary.hpp"
#include "vectors/tokenizer.hpp"
#include "vectors/vectors.hpp"

namespace {

using namespace posenc::model;

struct Options {
    ModelConfig model;
    AdamWOptions adamw;
    std::string task = kSyntheticKindNames[0];  // a SyntheticKind's name, text or words
    std::string text_path = "data/moby-dick.txt";
    std::string held_out_path, vectors_path = "data/glove-6b-100d-20k.i8";  // words
    std::size_t vocab_size = 4096;                                          // words
    bool train_embedding = false, alpha_given = false;                      // words
    std::string out_path;
    std::size_t batch = 16, steps = 200, log_every = 50, eval_batches = 4;
    std::size_t symbols = 10, items = 8;  // copy, reverse, sort
    std::uint64_t data_seed = 1;
    std::uint64_t eval_seed = 0;        // held-out synthetic rows; 0: ~data_seed
    bool f16 = false;
    // Threads for one model: each step's batch split into this many parts (Transformer::set_parallel).
    // Deterministic for a given count; different counts round differently. 0: one per core.
    std::size_t threads = 0;
};

const char* kUsage =
    "usage: posenc-train [--flag value …]\n"
    "  model:    --scheme {schemes}  --d 64 --layers 2 --heads 4\n"
    "            --context 64 (T, the training length)  --dpos (concatenated)  --base 10000\n"
    "            --pairing {layouts}  --alpha 1  --seed 1\n"
    "            --position-scale 1 (additive, concatenated: the sinusoidal table's factor)\n"
    "            --t5-buckets N --t5-max-distance N (default: from --context, every bucket reached; model/config.hpp)\n"
    "  task:     --task {kinds}|text|words  --text FILE (text, words; default data/moby-dick.txt)\n"
    "            --held-out-text FILE --vectors FILE.i8 --vocab-size 4096 --train-embedding (words)\n"
    "            --word-pca centred|uncentred (words, concatenated: the axes of the word part)\n"
    "            (words: --d is the vectors' width, or for concatenated their width + --dpos)\n"
    "            --symbols 10 --items 8 (copy, reverse, sort; items ≤ context/2)  --data-seed 1\n"
    "            --eval-seed N (held-out copy/reverse/sort rows; default: the bits of data-seed flipped)\n"
    "  training: --batch 16 --steps 200 --lr LR --beta1 B1 --beta2 B2 --eps EPS\n"
    "            --weight-decay WD --clip CLIP  --log-every 50 --eval-batches 4\n"
    "  output:   --out FILE.safetensors  --f16 (half-precision tensors)\n"
    "  threads:  --threads N (default: one per core; the bits depend on N, not on timing)\n";

// names joined by `between`: the core's own lists (the enums' names, the trainable schemes).
template <std::size_t N>
std::string joined(const char* const (&names)[N], const char* between) {
    std::string text;
    for (std::size_t i = 0; i < N; ++i) text += (i ? between : "") + std::string(names[i]);
    return text;
}

std::string trainable_names(const char* between) {
    std::string text;
    for (const posenc::SchemeInfo& s : posenc::kSchemeTable) {
        if (s.trainable) text += (text.empty() ? "" : between) + std::string(s.name);
    }
    return text;
}

// kUsage with the core's names in its {placeholders}, and AdamW's defaults, which only the core
// states (model/adamw.hpp).
std::string usage() {
    std::string text = kUsage;
    for (const auto& [key, names] : {std::pair<std::string, std::string>{"{schemes}", trainable_names("|")},
                                     {"{layouts}", joined(posenc::kLayoutNames, "|")},
                                     {"{kinds}", joined(kSyntheticKindNames, "|")}}) {
        text.replace(text.find(key), key.size(), names);
    }
    const posenc::model::AdamWOptions o;
    return text + "  AdamW defaults: --lr " + posenc::float_text(o.lr) + " --beta1 " +
           posenc::float_text(o.beta1) + " --beta2 " + posenc::float_text(o.beta2) + " --eps " +
           posenc::float_text(o.eps) + " --weight-decay " + posenc::float_text(o.weight_decay) + " --clip " +
           posenc::float_text(o.clip) + "\n";
}

[[noreturn]] void fail(const std::string& message) {
    std::fprintf(stderr, "posenc-train: %s\n", message.c_str());
    std::exit(2);
}

double number(const std::string& flag, const std::string& text) {
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || !std::isfinite(value)) fail(flag + " must be a number, got '" + text + "'");
    return value;
}

std::size_t count(const std::string& flag, const std::string& text) {
    const double value = number(flag, text);
    if (value < 0 || value > 1e15 || value != std::floor(value)) fail(flag + " must be a whole number, got '" + text + "'");
    return static_cast<std::size_t>(value);
}

posenc::Scheme scheme_named(const std::string& name) {
    static const std::map<std::string, posenc::Scheme> kNames = {
        {"nope", posenc::Scheme::nope},     {"additive", posenc::Scheme::additive},
        {"learned", posenc::Scheme::learned}, {"concatenated", posenc::Scheme::concatenated},
        {"rotary", posenc::Scheme::rotary}, {"alibi", posenc::Scheme::alibi},
        {"t5", posenc::Scheme::t5}};
    const auto it = kNames.find(name);
    if (it == kNames.end()) fail("--scheme must be one of nope, additive, learned, concatenated, rotary, alibi, t5");
    return it->second;
}

Options parse(int argc, char** argv) {
    Options o;
    o.model.vocab = 0;  // set from the task
    for (int i = 1; i < argc; ++i) {
        const std::string flag = argv[i];
        if (flag == "--help" || flag == "-h") {
            std::fputs(usage().c_str(), stdout);
            std::exit(0);
        }
        if (flag == "--f16" || flag == "--train-embedding") {
            (flag == "--f16" ? o.f16 : o.train_embedding) = true;
            continue;
        }
        if (i + 1 >= argc) fail(flag + " needs a value\n" + usage());
        const std::string v = argv[++i];
        if (flag == "--scheme") o.model.scheme = scheme_named(v);
        else if (flag == "--d") o.model.d = count(flag, v);
        else if (flag == "--layers") o.model.layers = count(flag, v);
        else if (flag == "--heads") o.model.heads = count(flag, v);
        else if (flag == "--context") o.model.context = count(flag, v);
        else if (flag == "--dpos") o.model.d_pos = count(flag, v);
        else if (flag == "--base") o.model.base = number(flag, v);
        else if (flag == "--pairing") {
            if (!posenc::enum_from_name(posenc::kLayoutNames, v, o.model.pairing))
                fail(posenc::one_of("--pairing", posenc::kLayoutNames, v));
        } else if (flag == "--alpha") {
            o.model.alpha = static_cast<float>(number(flag, v));
            o.alpha_given = true;
        }
        else if (flag == "--position-scale") o.model.position_scale = static_cast<float>(number(flag, v));
        else if (flag == "--word-pca") {
            if (!posenc::enum_from_name(kWordPcaNames, v, o.model.word_pca))
                fail(posenc::one_of("--word-pca", kWordPcaNames, v));
        }
        else if (flag == "--t5-buckets") o.model.t5_buckets = static_cast<int>(count(flag, v));
        else if (flag == "--t5-max-distance") o.model.t5_max_distance = static_cast<int>(count(flag, v));
        else if (flag == "--seed") o.model.seed = count(flag, v);
        else if (flag == "--task") o.task = v;
        else if (flag == "--text") o.text_path = v;
        else if (flag == "--held-out-text") o.held_out_path = v;
        else if (flag == "--vectors") o.vectors_path = v;
        else if (flag == "--vocab-size") o.vocab_size = count(flag, v);
        else if (flag == "--symbols") o.symbols = count(flag, v);
        else if (flag == "--items") o.items = count(flag, v);
        else if (flag == "--data-seed") o.data_seed = count(flag, v);
        else if (flag == "--eval-seed") o.eval_seed = count(flag, v);
        else if (flag == "--batch") o.batch = count(flag, v);
        else if (flag == "--steps") o.steps = count(flag, v);
        else if (flag == "--lr") o.adamw.lr = static_cast<float>(number(flag, v));
        else if (flag == "--beta1") o.adamw.beta1 = static_cast<float>(number(flag, v));
        else if (flag == "--beta2") o.adamw.beta2 = static_cast<float>(number(flag, v));
        else if (flag == "--eps") o.adamw.eps = static_cast<float>(number(flag, v));
        else if (flag == "--weight-decay") o.adamw.weight_decay = static_cast<float>(number(flag, v));
        else if (flag == "--clip") o.adamw.clip = static_cast<float>(number(flag, v));
        else if (flag == "--log-every") o.log_every = count(flag, v);
        else if (flag == "--eval-batches") o.eval_batches = count(flag, v);
        else if (flag == "--out") o.out_path = v;
        else if (flag == "--threads") o.threads = count(flag, v);
        else fail("unknown flag " + flag + "\n" + usage());
    }
    SyntheticKind kind;
    if (!posenc::enum_from_name(kSyntheticKindNames, o.task, kind) && o.task != "text" && o.task != "words")
        fail("--task must be " + joined(kSyntheticKindNames, ", ") + ", text or words");
    if (o.task == "words" && o.held_out_path.empty()) fail("--task words needs --held-out-text");
    if (o.vocab_size < 2) fail("--vocab-size must be at least 2");
    if (o.steps < 1) fail("--steps must be at least 1");
    if (o.log_every < 1) fail("--log-every must be at least 1");
    if (o.threads == 0) o.threads = std::max(1u, std::thread::hardware_concurrency());
    if (o.threads > 256) fail("--threads must be from 1 to 256");
    return o;
}

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) fail("cannot read " + path);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

posenc::VectorSet read_vectors(const std::string& path) {
    const std::string bytes = read_file(path);
    posenc::VectorSet vectors;
    if (const char* e = posenc::parse_packed_vectors(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size(),
                                                     vectors))
        fail("--vectors " + path + ": " + e);
    return vectors;
}

// The words task: vocabulary from the training text's counts, corpus, and the frozen input rows
// (rounded as the file will store them). Sets o.model.vocab, alpha and frozen_embedding.
std::vector<float> prepare_words(Options& o, TrainingTask& task) {
    const posenc::VectorSet vectors = read_vectors(o.vectors_path);
    const std::string text = read_file(o.text_path);
    std::unordered_map<std::string, std::size_t> counts;
    for (const std::string& token : posenc::tokenize(text)) ++counts[token];
    WordVocabulary vocab;
    if (std::string e = vocab.set(frequent_vector_words(counts, vectors, o.vocab_size)); !e.empty()) fail(e);
    if (std::string e = task.set_words(vocab, text, read_file(o.held_out_path)); !e.empty()) fail(e);
    o.model.vocab = vocab.size();
    o.model.frozen_embedding = !o.train_embedding;
    if (!o.alpha_given) o.model.alpha = 1.0f / vectors.component_rms;
    // Concatenated: the word part is d − dPos columns, at most the vectors' width (equal: widened).
    const bool concatenated = o.model.scheme == posenc::Scheme::concatenated;
    const std::size_t cols = concatenated && o.model.d_pos < o.model.d ? o.model.d - o.model.d_pos : o.model.d;
    if (concatenated ? cols > vectors.dim || o.model.d < vectors.dim : vectors.dim != o.model.d)
        fail("--d must be the vectors' width " + std::to_string(vectors.dim) +
             " for --task words (concatenated: from that width to that width + --dpos)");
    std::vector<float> rows = frozen_rows(vocab, vectors, cols, o.f16, o.model.word_pca);
    std::size_t unknown = 0;
    for (std::int32_t id : task.corpus().ids) unknown += id == vocab.unknown_id();
    std::printf("words: %zu training tokens, %zu held out, %.2f%% of them %s\n", task.corpus().train_end,
                task.corpus().ids.size() - task.corpus().train_end,
                100.0 * static_cast<double>(unknown) / static_cast<double>(task.corpus().ids.size()),
                std::string(kUnknownToken).c_str());
    return rows;
}

// The task of the flags; sets o.model.vocab from it. Returns wte's rows for a words task.
std::vector<float> prepare(Options& o, TrainingTask& task) {
    if (o.task == "words") return prepare_words(o, task);
    if (o.task == "text") {
        const std::string error = task.set_text(read_file(o.text_path), kDefaultHeldOutPercent);
        if (!error.empty()) fail(error);
    } else {
        SyntheticKind kind = SyntheticKind::copy;
        posenc::enum_from_name(kSyntheticKindNames, o.task, kind);  // parse() refused any other name
        if (const char* e = task.set_synthetic(kind, o.symbols, o.items)) fail(e);
    }
    o.model.vocab = task.vocab_size();
    return {};
}

Evaluation held_out(Transformer& model, TrainingTask& task, const Options& o) {
    Evaluation e;
    const std::uint64_t seed = o.eval_seed ? o.eval_seed : ~o.data_seed;
    const std::string error = evaluate(model, task, o.batch, o.model.context, o.eval_batches, seed, {}, e);
    if (!error.empty()) fail(error);
    return e;
}

void log_line(std::size_t step, double train_loss, const Evaluation& e, bool text, double tokens_per_second) {
    if (text) {
        std::printf("step %6zu  loss %.4f  held-out %.4f  %.0f tokens/s\n", step, train_loss, e.loss, tokens_per_second);
    } else {
        std::printf("step %6zu  loss %.4f  held-out %.4f  accuracy %.3f (tokens) %.3f (examples)  %.0f tokens/s\n",
                    step, train_loss, e.loss, e.token_accuracy, e.exact_accuracy, tokens_per_second);
    }
    std::fflush(stdout);
}

std::vector<std::uint8_t> weights_bytes(const Options& o, const Transformer& model, const TrainingTask& task) {
    const std::vector<std::string> vocab = task.vocab_tokens();
    std::vector<std::uint8_t> bytes;
    const std::string error = write_weights(model.config(), model.parameters(), model.parameter_count(), &vocab,
                                            o.f16 ? WeightsDtype::f16 : WeightsDtype::f32, bytes);
    if (!error.empty()) fail(error);
    return bytes;
}

void write_file(const std::string& path, const std::vector<std::uint8_t>& bytes) {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    if (!out) fail("cannot write --out " + path);
    std::printf("wrote %s (%zu bytes)\n", path.c_str(), bytes.size());
}

// The model becomes exactly what the file holds (F16 rounding included).
void adopt_file(Transformer& model, const std::vector<std::uint8_t>& bytes) {
    LoadedWeights loaded;
    if (std::string e = read_weights(bytes.data(), bytes.size(), loaded); !e.empty()) fail(e);
    if (const char* e = model.set_parameters(loaded.params.data(), loaded.params.size())) fail(e);
}

// Transformer::ParallelFor on std::thread: parts 1 … count − 1 on their own threads, part 0 here.
void run_parts(std::size_t count, const std::function<void(std::size_t)>& body) {
    std::vector<std::thread> threads;
    threads.reserve(count - 1);
    for (std::size_t s = 1; s < count; ++s) threads.emplace_back(body, s);
    body(0);
    for (std::thread& t : threads) t.join();
}

}  // namespace

int main(int argc, char** argv) {
    Options o = parse(argc, argv);
    TrainingTask task;
    const std::vector<float> input_rows = prepare(o, task);
    if (const char* e = validate(o.model)) fail(e);
    if (const char* e = validate_training(o.model, task, o.batch, o.model.context, 1, o.adamw)) fail(e);
    if (const char* e = validate_evaluation(o.model, task, o.batch, o.model.context, o.eval_batches, {})) fail(e);
    Transformer model(o.model);
    std::copy(input_rows.begin(), input_rows.end(), model.parameters());  // wte.weight comes first
    model.set_parallel(o.threads, run_parts);
    std::printf("%s on %s: %zu parameters, V = %zu, d = %zu, L = %zu, h = %zu, T = %zu, B = %zu, %zu threads\n",
                config_to_json(o.model).c_str(), o.task.c_str(), model.parameter_count(), o.model.vocab, o.model.d,
                o.model.layers, o.model.heads, o.model.context, o.batch, o.threads);

    using Clock = std::chrono::steady_clock;
    double seconds = 0, window_loss = 0;
    std::size_t window = 0;
    Evaluation last;
    for (std::size_t step = 1; step <= o.steps; ++step) {
        float loss = 0;
        const auto start = Clock::now();
        const std::string error = train(model, task, o.batch, o.model.context, o.data_seed, step - 1, 1, o.adamw, &loss);
        seconds += std::chrono::duration<double>(Clock::now() - start).count();
        if (!error.empty()) fail(error);
        if (model.steps() != step) {
            // The core refused the step (model/transformer.hpp): the weights are those after step - 1.
            const std::string why = std::isfinite(loss) ? "a gradient was not finite" : "the loss was " + std::to_string(loss);
            fail("diverged at step " + std::to_string(step) + " (" + why +
                 "): the step was not applied and training stops, nothing written; lower --lr or keep --clip above 0");
        }
        window_loss += loss;
        ++window;
        if (step % o.log_every == 0 || step == o.steps) {
            last = held_out(model, task, o);
            log_line(step, window_loss / window, last, task.is_text(),
                     static_cast<double>(step * o.batch * o.model.context) / seconds);
            window_loss = 0;
            window = 0;
        }
    }
    std::vector<std::uint8_t> bytes;
    if (!o.out_path.empty()) {
        bytes = weights_bytes(o, model, task);
        adopt_file(model, bytes);
        last = held_out(model, task, o);
    }
    // Every digit of the final model's held-out loss (the file's model when one is written), for
    // checking a weights file against the run.
    std::printf("final held-out loss %.17g (B = %zu, T = %zu, %zu batches)\n", last.loss, o.batch, o.model.context,
                o.eval_batches);
    std::printf("training seconds %.1f\n", seconds);
    if (!o.out_path.empty()) write_file(o.out_path, bytes);
    return 0;
}
