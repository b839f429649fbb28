// Analysis (analysis.hpp): one call from text to lanes must give exactly what the separate steps
// give (tokenize, embed, PCA, compare — the path the page took before), and its token-keyed cache
// must not change a bit whatever the edit: typing, deleting, editing the middle, clearing, switching
// the word source or d, changing the lanes. Tolerance: none (bit-identical), d = 14 and n up to
// 17 reach the SIMD tails.
#include <catch2/catch.hpp>

#include "test_support.hpp"

#include <string>
#include <vector>

#include "analysis/analysis.hpp"
#include "compare_bits.hpp"
#include "vectors/embedding.hpp"
#include "analysis/pca.hpp"
#include "encodings/sinusoidal.hpp"
#include "vectors/tokenizer.hpp"
#include "vectors/vectors.hpp"

namespace {

using posenc::Analysis;
using posenc::CompareConfig;
using posenc::CompareResult;
using posenc::Scheme;
using posenc::WordSource;
using posenc::test::first_difference;
using posenc::test::same_bits;

constexpr std::size_t kDim = 14;

// A small vocabulary with seeded rows (the words of the test sentences but "smiled").
posenc::VectorSet small_set() {
    posenc::VectorSet set;
    set.words = {"the", "king", "sat", "on", "throne", ",", "and", "queen", "at", ".", "a", "cat"};
    set.count = set.words.size();
    set.dim = kDim;
    for (std::size_t i = 0; i < set.count; ++i) set.index.emplace(set.words[i], static_cast<std::uint32_t>(i));
    set.rows = posenc::test::random_values(set.count * kDim, 77, 0.6f);
    set.component_rms = 0.37f;
    return set;
}

CompareConfig all_lanes() {
    CompareConfig cfg;
    cfg.alpha = 2.5f;
    cfg.d_pos = 4;
    cfg.schemes = posenc::kAllSchemes;
    return cfg;
}

// The steps one at a time, as the JS API ran them: → the fresh result, and the inputs it used.
struct Steps {
    std::vector<std::string> tokens;
    std::vector<float> e, words;
    CompareResult result;
};
Steps separate_steps(const std::string& text, const WordSource& source, CompareConfig cfg, std::size_t max_tokens) {
    Steps s;
    s.tokens = posenc::tokenize(text, source.set);
    if (s.tokens.size() > max_tokens) s.tokens.resize(max_tokens);
    const std::size_t d = source.set ? source.set->dim : source.synthetic_d;
    const std::size_t n = s.tokens.size();
    s.e.resize(n * d);
    for (std::size_t p = 0; p < n; ++p) {
        const std::int64_t row = source.set ? source.set->find(s.tokens[p]) : -1;
        if (row >= 0) {
            for (std::size_t j = 0; j < d; ++j) s.e[p * d + j] = source.set->rows[row * d + j];
            continue;
        }
        posenc::synthetic_embedding(posenc::hash_token(s.tokens[p]), d, &s.e[p * d]);
        if (source.set) for (std::size_t j = 0; j < d; ++j) s.e[p * d + j] = float(double(s.e[p * d + j]) * double(source.set->component_rms));
    }
    const bool reduced = source.pca && posenc::has(cfg.schemes, Scheme::concatenated);
    if (reduced) {
        s.words.resize(n * d);
        source.pca->project(s.e.data(), n, d, s.words.data());
    }
    cfg.n = n;
    cfg.d = d;
    if (n > 0) {
        REQUIRE(posenc::validate(cfg) == nullptr);
        posenc::compare(cfg, s.e.data(), s.result, reduced ? s.words.data() : nullptr);
    }
    return s;
}

// What the analysis holds, against the separate steps for text (with PE tables).
void check_holds_steps(const Analysis& analysis, const std::string& text, const WordSource& source, const CompareConfig& cfg,
                       std::size_t max_tokens = 1024) {
    INFO("text \"" << text << "\"");
    const Steps want = separate_steps(text, source, cfg, max_tokens);
    CHECK(analysis.tokens() == want.tokens);
    CHECK(analysis.total_tokens() == posenc::tokenize(text, source.set).size());
    CHECK(same_bits(analysis.embeddings(), want.e));
    if (!want.words.empty()) CHECK(same_bits(analysis.words(), want.words));
    for (std::size_t p = 0; p < want.tokens.size(); ++p) {
        CHECK(analysis.unknown()[p] == (source.set && source.set->find(want.tokens[p]) < 0));
    }
    if (want.tokens.empty()) return;
    CHECK(first_difference(analysis.result(), want.result) == "");
    // The PE tables: whole tables made at once (lab.sinusoidal's), whichever lanes are chosen.
    const std::size_t n = want.tokens.size(), d = analysis.d();
    std::vector<float> pe(n * d), pe_concat(n * cfg.d_pos);
    posenc::sinusoidal_table(n, d, cfg.base, cfg.layout, pe.data());
    posenc::sinusoidal_table(n, cfg.d_pos, cfg.base, cfg.layout, pe_concat.data());
    CHECK(same_bits(analysis.pe(), pe));
    CHECK(same_bits(analysis.pe_concat(), pe_concat));
}

void check_against_steps(Analysis& analysis, const std::string& text, const WordSource& source, const CompareConfig& cfg,
                         std::size_t max_tokens = 1024) {
    REQUIRE(analysis.update(text, source, cfg, max_tokens, true) == nullptr);
    CHECK_FALSE(analysis.repeated());
    check_holds_steps(analysis, text, source, cfg, max_tokens);
}

}  // namespace

TEST_CASE("Analysis: one call gives the separate steps' bits", "[analysis]") {
    const posenc::VectorSet set = small_set();
    const posenc::Pca pca = posenc::principal_components(set.rows.data(), set.count, set.dim);
    const std::string text = "The king sat on the throne, and the queen smiled at the king.";
    SECTION("a vector set with its PCA (smiled is unknown)") {
        Analysis analysis;
        check_against_steps(analysis, text, WordSource{&set, &pca, 0}, all_lanes());
        CHECK(analysis.unknown()[10] == 1);  // "smiled"
    }
    SECTION("a vector set without PCA keeps the leading coordinates") {
        Analysis analysis;
        check_against_steps(analysis, text, WordSource{&set, nullptr, 0}, all_lanes());
    }
    SECTION("synthetic vectors") {
        Analysis analysis;
        check_against_steps(analysis, text, WordSource{nullptr, nullptr, 16}, all_lanes());
    }
    SECTION("random heads, causal") {
        CompareConfig cfg = all_lanes();
        cfg.heads = 7;  // d_head = 2: the only even split of d = 14 besides one head
        cfg.causal = true;
        Analysis analysis;
        check_against_steps(analysis, text, WordSource{&set, &pca, 0}, cfg);
    }
    SECTION("max_tokens cuts the tokens, not the count") {
        Analysis analysis;
        check_against_steps(analysis, text, WordSource{&set, &pca, 0}, all_lanes(), 5);
        CHECK(analysis.tokens().size() == 5);
        CHECK(analysis.total_tokens() == 15);
    }
}

TEST_CASE("Analysis: its cache keeps the bits through every edit", "[analysis][reuse]") {
    const posenc::VectorSet set = small_set();
    const posenc::Pca pca = posenc::principal_components(set.rows.data(), set.count, set.dim);
    const WordSource glove{&set, &pca, 0};
    Analysis analysis;
    const std::string sentence = "the king sat on the throne and the queen smiled at a cat , and the king sat";
    for (std::size_t cut = 1; cut <= sentence.size(); ++cut) check_against_steps(analysis, sentence.substr(0, cut), glove, all_lanes());
    for (std::size_t cut = sentence.size(); cut-- > 1;) check_against_steps(analysis, sentence.substr(0, cut), glove, all_lanes());
    check_against_steps(analysis, "the queen sat on the throne", glove, all_lanes());   // middle word changed
    check_against_steps(analysis, "", glove, all_lanes());                              // cleared
    CHECK(analysis.tokens().empty());
    check_against_steps(analysis, "the queen sat", glove, all_lanes());
    CompareConfig classic = all_lanes();
    classic.schemes = posenc::kClassicSchemes & ~posenc::scheme_bit(Scheme::concatenated);
    check_against_steps(analysis, "the queen sat on", glove, classic);                 // no PCA rows, PE tables made here
    CompareConfig rotary_only = all_lanes();
    rotary_only.schemes = posenc::scheme_bit(Scheme::rotary);
    check_against_steps(analysis, "the queen sat on a", glove, rotary_only);
    rotary_only.base = 500.0;
    check_against_steps(analysis, "the queen sat on a", glove, rotary_only);           // new base: tables redone
    check_against_steps(analysis, "the queen sat", glove, rotary_only);
    check_against_steps(analysis, "the queen sat on it", glove, all_lanes());          // … then all of them
    check_against_steps(analysis, "the queen sat on it", WordSource{nullptr, nullptr, kDim}, all_lanes());  // same d, synthetic
    check_against_steps(analysis, "the queen sat on it", WordSource{nullptr, nullptr, 8}, all_lanes());
    check_against_steps(analysis, "the queen sat on it", glove, all_lanes());
}

TEST_CASE("Analysis: bad settings are refused by name and leave it usable", "[analysis]") {
    const posenc::VectorSet set = small_set();
    Analysis analysis;
    CompareConfig cfg = all_lanes();
    CHECK(std::string(analysis.update("a cat", WordSource{&set, nullptr, 0}, cfg, 0)) == "maxTokens must be between 1 and 1024");
    CHECK(std::string(analysis.update("a cat", WordSource{nullptr, nullptr, 7}, cfg, 8)) == "d must be an even number from 2 to 4096");
    cfg.d_pos = 3;
    const char* error = analysis.update("a cat", WordSource{&set, nullptr, 0}, cfg, 8);
    REQUIRE(error != nullptr);
    CHECK(std::string(error).find("d_pos") != std::string::npos);
    check_against_steps(analysis, "a cat sat", WordSource{&set, nullptr, 0}, all_lanes());
}

TEST_CASE("Analysis: a text with the last call's tokens computes nothing when asked to skip repeats", "[analysis][reuse]") {
    const posenc::VectorSet set = small_set();
    const posenc::Pca pca = posenc::principal_components(set.rows.data(), set.count, set.dim);
    const WordSource glove{&set, &pca, 0};
    const CompareConfig cfg = all_lanes();
    Analysis analysis;
    const auto skipping = [&](const std::string& text, const WordSource& source, const CompareConfig& c, std::size_t max_tokens = 1024) {
        REQUIRE(analysis.update(text, source, c, max_tokens, true, true) == nullptr);
        return analysis.repeated();
    };
    check_against_steps(analysis, "the king sat", glove, cfg);
    SECTION("a space, spaces and a line break give the same tokens: nothing changes") {
        CHECK(skipping("the king sat ", glove, cfg));
        CHECK(skipping("  the king\nsat  ", glove, cfg));
        check_holds_steps(analysis, "the king sat", glove, cfg);
    }
    SECTION("settings the caller vouches for are taken on its word: the last results stand") {
        // Proof that nothing was computed: a new base would change every sinusoidal lane.
        CompareConfig other = cfg;
        other.base = 500.0;
        CHECK(skipping("the king sat ", glove, other));
        check_holds_steps(analysis, "the king sat", glove, cfg);
    }
    SECTION("another token, word or source is computed") {
        CHECK_FALSE(skipping("the king sat on", glove, cfg));
        check_holds_steps(analysis, "the king sat on", glove, cfg);
        CHECK_FALSE(skipping("the king sa", glove, cfg));
        check_holds_steps(analysis, "the king sa", glove, cfg);
        CHECK_FALSE(skipping("the king sa", WordSource{nullptr, nullptr, kDim}, cfg));
        check_holds_steps(analysis, "the king sa", WordSource{nullptr, nullptr, kDim}, cfg);
    }
    SECTION("the same kept tokens with another total are computed (the count is shown)") {
        check_against_steps(analysis, "the king sat", glove, cfg, 2);
        CHECK_FALSE(skipping("the king sat on", glove, cfg, 2));
        check_holds_steps(analysis, "the king sat on", glove, cfg, 2);
    }
    SECTION("without skip_repeat, or after no tokens or a refused call, it computes") {
        REQUIRE(analysis.update("the king sat ", glove, cfg, 1024, true) == nullptr);
        CHECK_FALSE(analysis.repeated());
        CHECK_FALSE(skipping("", glove, cfg));
        CHECK_FALSE(skipping(" ", glove, cfg));
        check_against_steps(analysis, "the king sat", glove, cfg);
        CompareConfig bad = cfg;
        bad.d_pos = 3;
        REQUIRE(analysis.update("the king sat", glove, bad, 1024, true, true) != nullptr);
        CHECK_FALSE(analysis.repeated());
        CHECK_FALSE(skipping("the king sat", glove, cfg));
        check_holds_steps(analysis, "the king sat", glove, cfg);
    }
}
