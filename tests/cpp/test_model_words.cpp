// Word-level models: a frozen embedding (AdamW and clipping leave wte.weight alone, gradients()
// still reports it), the word vocabulary (tokenizer tokens → ids, <unk>), the vocabulary choice,
// the frozen input rows (GloVe rows, PCA-reduced for concatenated) and the words task.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "model/safetensors.hpp"
#include "model/training.hpp"
#include "model/word_vocabulary.hpp"
#include "model_test_support.hpp"
#include "analysis/pca.hpp"
#include "vectors/tokenizer.hpp"

using namespace posenc;
using namespace posenc::model;
using namespace posenc::test;

namespace {

bool tensor_equal(const float* a, const float* b, const TensorSpec& s) {
    return std::memcmp(a + s.offset, b + s.offset, s.size() * sizeof(float)) == 0;
}

// Words w0 … w{count−1}, dim 4, row i = (i, i², 1, −i)/count: distinct rows, a known mean.
VectorSet toy_vectors(std::size_t count) {
    VectorSet set;
    set.count = count;
    set.dim = 4;
    for (std::size_t i = 0; i < count; ++i) {
        set.words.push_back("w" + std::to_string(i));
        set.index[set.words.back()] = static_cast<std::uint32_t>(i);
        const float x = static_cast<float>(i) / static_cast<float>(count);
        for (float v : {x, x * x, 1.0f, -x}) set.rows.push_back(v);
    }
    return set;
}

}  // namespace

TEST_CASE("frozen embedding: wte stays bit-identical, every other tensor moves, its gradient is reported",
          "[model][frozen]") {
    for (const Variant& v : kVariants) {
        INFO(v.name);
        ModelConfig cfg = variant_config(v, 9, 8, 2, 2, 6);
        cfg.frozen_embedding = true;
        Transformer m(cfg);
        perturb(m, 0.1f, 3);
        const std::vector<float> before(m.parameters(), m.parameters() + m.parameter_count());
        const auto tokens = random_tokens(3 * 7, cfg.vocab, 11);
        m.gradients(tokens.data(), 3, 6, nullptr);
        const TensorSpec& wte = m.specs().front();
        REQUIRE(wte.name == "wte.weight");
        double norm = 0;
        for (std::size_t i = 0; i < wte.size(); ++i) norm += std::abs(m.gradient_buffer()[i]);
        CHECK(norm > 0);  // the gradient is still computed and reported
        AdamWOptions o;
        o.lr = 1e-2f;
        for (int step = 0; step < 3; ++step) m.train_step(tokens.data(), 3, 6, nullptr, o);
        for (const TensorSpec& s : m.specs()) {
            INFO(s.name);
            CHECK(tensor_equal(m.parameters(), before.data(), s) == (s.name == "wte.weight"));
        }
    }
}

TEST_CASE("frozen embedding: clipping measures the trained tensors only, as PyTorch does without wte's grad",
          "[model][frozen]") {
    ModelConfig cfg = variant_config(kVariants[1], 9, 8, 2, 2, 6);
    cfg.frozen_embedding = true;
    Transformer a(cfg), b(cfg), c(cfg);
    perturb(a, 0.1f, 5);
    std::copy(a.parameters(), a.parameters() + a.parameter_count(), b.parameters());
    std::copy(a.parameters(), a.parameters() + a.parameter_count(), c.parameters());
    AdamWOptions o;
    o.clip = 0.05f;  // the gradient norms here are ~0.5–2: clipping is active
    const auto tokens = random_tokens(2 * 7, cfg.vocab, 8);
    a.train_step(tokens.data(), 2, 6, nullptr, o);
    std::vector<float> m1(b.parameter_count(), 0.0f), v1(b.parameter_count(), 0.0f);
    const std::size_t trained = trained_offset(b.specs());
    REQUIRE(trained == b.specs().front().size());
    for (Transformer* t : {&b, &c}) {
        t->gradients(tokens.data(), 2, 6, nullptr);
        std::vector<float> g(t->gradient_buffer(), t->gradient_buffer() + t->parameter_count());
        const std::size_t from = t == &b ? trained : 0;  // c: a norm that wrongly counts wte
        clip_gradients(g.data() + from, g.size() - from, o.clip);
        std::fill(m1.begin(), m1.end(), 0.0f);
        std::fill(v1.begin(), v1.end(), 0.0f);
        adamw_update(t->specs(), t->parameters(), g.data(), m1.data(), v1.data(), 1, o);
    }
    CHECK(std::memcmp(a.parameters(), b.parameters(), a.parameter_count() * sizeof(float)) == 0);
    CHECK(std::memcmp(a.parameters(), c.parameters(), a.parameter_count() * sizeof(float)) != 0);
}

TEST_CASE("frozenEmbedding in the config JSON: written, read back, refused unless a boolean", "[model][frozen]") {
    ModelConfig cfg = small_model_config(Scheme::rotary), back;
    cfg.frozen_embedding = true;
    const std::string json = config_to_json(cfg);
    CHECK(json.find("\"frozenEmbedding\":true}") != std::string::npos);
    REQUIRE(config_from_json(json, back) == "");
    CHECK(back.frozen_embedding);
    CHECK(config_from_json("{\"scheme\":\"rotary\",\"vocab\":11,\"frozenEmbedding\":1}", back) ==
          "frozenEmbedding must be true or false");
    CHECK(config_from_json("{\"scheme\":\"rotary\",\"vocab\":11}", back) == "");
    CHECK_FALSE(back.frozen_embedding);
}

TEST_CASE("WordVocabulary: tokenizer tokens to ids, one per token, unknown tokens to <unk>", "[model][words]") {
    WordVocabulary vocab;
    CHECK(vocab.set({"the"}) == "vocab must hold 2 to 65536 token strings");
    CHECK(vocab.set({"the", "whale"}) == "vocab has no unknown token <unk>");
    CHECK(vocab.set({"the", "the", "<unk>"}) == "vocab repeats the token \"the\"");
    CHECK(vocab.set({"the", "", "<unk>"}) == "vocab has an empty token (id 1)");
    CHECK(vocab.empty());
    REQUIRE(vocab.set({"the", "whale", "<unk>", ",", "'s", "n't", "do"}) == "");
    CHECK(vocab.unknown_id() == 2);
    const std::string text = "The whale's  fin, don't <unk> co-operate\tWHALE";
    std::vector<std::int32_t> ids;
    vocab.encode(text, ids);
    const std::vector<std::string> tokens = tokenize(text);
    REQUIRE(ids.size() == tokens.size());
    // the whale 's fin , do n't < unk > co-operate whale: '<unk>' in a text is three tokens, none of them <unk>
    CHECK(ids == std::vector<std::int32_t>{0, 1, 4, 2, 3, 6, 5, 2, 2, 2, 2, 1});
    vocab.encode("", ids);
    CHECK(ids.empty());
}

TEST_CASE("frequent_vector_words: the most frequent tokens the vectors have, ties by bytes, then <unk>",
          "[model][words]") {
    const VectorSet set = toy_vectors(6);
    const std::unordered_map<std::string, std::size_t> counts = {
        {"w3", 10}, {"absent", 50}, {"w1", 7}, {"w0", 7}, {"w5", 2}, {"w2", 1}};
    CHECK(frequent_vector_words(counts, set, 4) == std::vector<std::string>{"w3", "w0", "w1", "<unk>"});
    CHECK(frequent_vector_words(counts, set, 100) == std::vector<std::string>{"w3", "w0", "w1", "w5", "w2", "<unk>"});
}

TEST_CASE("embedding_rows: the vectors' rows, <unk> = mean of the rest, PCA-reduced when narrower",
          "[model][words]") {
    const VectorSet set = toy_vectors(7);
    WordVocabulary vocab;
    REQUIRE(vocab.set({"w4", "<unk>", "w1", "w6"}) == "");
    const std::vector<float> rows = embedding_rows(vocab, set, 4);
    REQUIRE(rows.size() == 16);
    CHECK(std::memcmp(rows.data(), set.rows.data() + 4 * 4, 16) == 0);
    CHECK(std::memcmp(rows.data() + 8, set.rows.data() + 1 * 4, 16) == 0);
    CHECK(std::memcmp(rows.data() + 12, set.rows.data() + 6 * 4, 16) == 0);
    // The other rows are w0, w2, w3, w5: x = 10/28, x² mean = (0 + 4 + 9 + 25)/4/49, 1, −x.
    CHECK(rows[4] == Approx(10.0 / 28).epsilon(1e-6));
    CHECK(rows[5] == Approx(38.0 / 196).epsilon(1e-6));
    CHECK(rows[6] == 1.0f);
    // Reduced to 2 columns: the projection onto the first 2 principal axes of the 3 word rows.
    const std::vector<float> reduced = embedding_rows(vocab, set, 2);
    std::vector<float> words;
    for (std::size_t i : {4, 1, 6}) words.insert(words.end(), set.rows.begin() + i * 4, set.rows.begin() + i * 4 + 4);
    const Pca pca = principal_components(words.data(), 3, 4);
    std::vector<float> expected(8);
    pca.project(rows.data(), 4, 2, expected.data());
    CHECK(reduced == expected);
}

TEST_CASE("TrainingTask words: training ids, then exactly the held-out text's", "[model][words]") {
    WordVocabulary vocab;
    REQUIRE(vocab.set({"call", "me", "ishmael", ".", "<unk>"}) == "");
    TrainingTask task;
    CHECK(task.set_words(vocab, "call", "me .") == "text has fewer than 2 tokens");
    REQUIRE(task.set_words(vocab, "Call me Ishmael. Call me Ahab.", "Call me Queequeg.") == "");
    CHECK(task.vocab_size() == 5);
    CHECK(task.vocab_tokens() == vocab.tokens());
    CHECK(task.corpus().train_end == 8);
    CHECK(task.corpus().ids == std::vector<std::int32_t>{0, 1, 2, 3, 0, 1, 4, 3, 0, 1, 4, 3});
    CHECK(task.heldout_windows(2) == 1);  // ⌊(4 − 1)/2⌋
}
