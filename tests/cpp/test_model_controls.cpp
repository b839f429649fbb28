// The add-versus-concatenate controls' model options: positionScale scales the
// sinusoidal input table and nothing else, wordPca records how a word model's wte was reduced,
// both travel in the weights file only when they are not their defaults (so every file made
// before them keeps its bytes), and the uncentred reduction projects onto the rows' own second
// moments. Gradients with a scaled table: test_model_gradients.cpp.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "analysis/pca.hpp"
#include "model/forward_backward.hpp"
#include "model/safetensors.hpp"
#include "model/word_vocabulary.hpp"
#include "model_test_support.hpp"

using namespace posenc;
using namespace posenc::model;
using namespace posenc::test;

namespace {

// Every position's input row (T × d) of token 0 with wte all zero: the position table alone.
std::vector<float> position_rows(const ModelConfig& cfg, std::size_t T) {
    Transformer m(cfg);
    std::fill(m.parameters(), m.parameters() + m.specs().front().size(), 0.0f);
    Workspace<float> ws;
    prepare_workspace(cfg, 1, T, false, EvalOptions{}, ws);
    std::vector<float> rows(T * cfg.d);
    for (std::size_t p = 0; p < T; ++p) detail::embed_row(cfg, tensor_offsets(cfg), m.parameters(), 0, p, ws, rows.data() + p * cfg.d);
    return rows;
}

}  // namespace

TEST_CASE("positionScale: the input rows hold scale·PE exactly, the loss moves, and 1 is the plain model bit for bit",
          "[model][controls]") {
    for (const Variant& v : {kVariants[1], kVariants[3]}) {  // additive, concatenated
        INFO(v.name);
        ModelConfig plain = variant_config(v, 7, 8, 1, 2, 12);
        ModelConfig scaled = plain;
        scaled.position_scale = 0.5099f;
        const std::vector<float> a = position_rows(plain, 12), b = position_rows(scaled, 12);
        // wte = 0: every row is 0 + fl(scale·PE), the product rounded once.
        std::size_t nonzero = 0;
        for (std::size_t i = 0; i < a.size(); ++i) {
            CHECK(b[i] == scaled.position_scale * a[i]);
            nonzero += a[i] != 0.0f;
        }
        CHECK(nonzero >= 12);  // each row's cos(p·ω_0) at least: the check compares real values
        const auto tokens = random_tokens(2 * 13, plain.vocab, 3);
        ModelConfig one = plain;
        one.position_scale = 1.0f;
        Transformer p(plain), s(scaled), o(one);
        perturb(p, 0.3f, 5);
        std::copy(p.parameters(), p.parameters() + p.parameter_count(), s.parameters());
        std::copy(p.parameters(), p.parameters() + p.parameter_count(), o.parameters());
        const double lp = p.loss(tokens.data(), 2, 12, nullptr), ls = s.loss(tokens.data(), 2, 12, nullptr);
        CHECK(std::fabs(lp - ls) > 1e-4);
        CHECK(o.loss(tokens.data(), 2, 12, nullptr) == lp);
    }
}

TEST_CASE("positionScale and wordPca in the config JSON: absent at their defaults, round-tripped otherwise, refused where they do not apply",
          "[model][controls][safetensors]") {
    ModelConfig add = variant_config(kVariants[1], 7, 8, 1, 2, 12);
    const std::string plain = config_to_json(add);
    CHECK(plain.find("positionScale") == std::string::npos);
    CHECK(plain.find("wordPca") == std::string::npos);
    // A stated default reads as the default and writes the same bytes as before the keys existed.
    std::string stated = plain;
    stated.insert(stated.find(",\"t5Buckets\""), ",\"positionScale\":1,\"wordPca\":\"centred\"");
    ModelConfig back;
    REQUIRE(config_from_json(stated, back) == "");
    CHECK(config_to_json(back) == plain);

    add.position_scale = 0.50990195f;
    REQUIRE(config_from_json(config_to_json(add), back) == "");
    CHECK(back.position_scale == add.position_scale);
    CHECK(config_to_json(add).find("\"positionScale\":0.50990194") != std::string::npos);

    ModelConfig cat = variant_config(kVariants[3], 7, 8, 1, 2, 12);
    cat.word_pca = WordPca::uncentred;
    CHECK(config_to_json(cat).find("\"wordPca\":\"uncentred\"") != std::string::npos);
    REQUIRE(config_from_json(config_to_json(cat), back) == "");
    CHECK(back.word_pca == WordPca::uncentred);

    // In a weights file: the model's config comes back with both.
    cat.position_scale = 2.0f;
    Transformer m(cat);
    std::vector<std::uint8_t> bytes;
    REQUIRE(write_weights(cat, m.parameters(), m.parameter_count(), nullptr, WeightsDtype::f32, bytes) == "");
    LoadedWeights loaded;
    REQUIRE(read_weights(bytes.data(), bytes.size(), loaded) == "");
    CHECK(loaded.config.position_scale == 2.0f);
    CHECK(loaded.config.word_pca == WordPca::uncentred);

    ModelConfig bad = variant_config(kVariants[4], 7, 8, 1, 2, 12);  // rotary
    bad.position_scale = 0.5f;
    CHECK(std::string(validate(bad)) == "positionScale applies to the additive and concatenated schemes only");
    bad.position_scale = 1.0f;
    bad.word_pca = WordPca::uncentred;
    CHECK(std::string(validate(bad)) == "wordPca applies to the concatenated scheme only");
    for (float scale : {0.0f, -1.0f, std::numeric_limits<float>::quiet_NaN(), 2e6f}) {
        ModelConfig c = variant_config(kVariants[1], 7, 8, 1, 2, 12);
        c.position_scale = scale;
        CHECK(std::string(validate(c)) == "positionScale must be a number above 0 and at most 1e6");
    }
    std::string wrong = plain;
    wrong.insert(wrong.find(",\"t5Buckets\""), ",\"wordPca\":\"whitened\"");
    CHECK(config_from_json(wrong, back) == "wordPca must be 'centred' or 'uncentred'");
}

TEST_CASE("uncentred PCA: the word rows' coordinates on their second-moment axes, no mean taken off",
          "[model][controls][words]") {
    // Words w0 … w6, dim 4: rows (x, x², 1, −x) with x = i/7 share a large constant component.
    VectorSet set;
    set.count = 7;
    set.dim = 4;
    for (std::size_t i = 0; i < 7; ++i) {
        set.words.push_back("w" + std::to_string(i));
        set.index[set.words.back()] = static_cast<std::uint32_t>(i);
        const float x = static_cast<float>(i) / 7.0f;
        for (float v : {x, x * x, 1.0f, -x}) set.rows.push_back(v);
    }
    WordVocabulary vocab;
    REQUIRE(vocab.set({"w4", "<unk>", "w1", "w6", "w2"}) == "");
    std::vector<float> words;
    for (std::size_t i : {4, 1, 6, 2}) words.insert(words.end(), set.rows.begin() + i * 4, set.rows.begin() + i * 4 + 4);
    const Pca pca = principal_components(words.data(), 4, 4, false);
    for (double m : pca.mean) CHECK(m == 0.0);
    const std::vector<float> full = embedding_rows(vocab, set, 4);
    const std::vector<float> reduced = embedding_rows(vocab, set, 2, WordPca::uncentred);
    REQUIRE(reduced.size() == 10);
    for (std::size_t r = 0; r < 5; ++r) {
        for (std::size_t a = 0; a < 2; ++a) {
            double dot = 0;
            for (std::size_t j = 0; j < 4; ++j) dot += full[r * 4 + j] * pca.axes[a * 4 + j];
            CHECK(reduced[r * 2 + a] == Approx(dot).margin(1e-6));  // float dot products against double
        }
    }
    // The first uncentred axis carries the rows' common part, so its coordinate keeps their mean
    // (every word's |coordinate| ≥ its component 1 along the axis ≥ 0.7 here); the centred first
    // coordinates average to zero over the words. Different bases: the rows differ.
    const std::vector<float> centred = embedding_rows(vocab, set, 2);
    double uncentred_mean = 0, centred_mean = 0;
    for (std::size_t r : {0, 2, 3, 4}) uncentred_mean += reduced[r * 2] / 4.0, centred_mean += centred[r * 2] / 4.0;
    CHECK(std::fabs(uncentred_mean) > 0.7);
    CHECK(std::fabs(centred_mean) < 1e-6);
    CHECK(reduced != centred);
    // frozen_rows passes the choice on (F16 rounding aside, the same rows).
    CHECK(frozen_rows(vocab, set, 2, false, WordPca::uncentred) == reduced);
}
