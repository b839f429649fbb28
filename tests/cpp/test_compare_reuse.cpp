// compare()'s row reuse (compare.hpp): a CompareResult that remembers its last call must give the
// same bits as a fresh one after every kind of edit — the last token changed, a token appended or
// removed, a middle token changed, the concatenated scheme's words changed alone, a setting
// changed, the lane set changed, heads switched on and off — for every scheme, causal or not,
// terms kept or skipped, at sizes across the 4-row and 8-key blocks (1 … 63). Tolerance: none
// (bit-identical).
#include <catch2/catch.hpp>

#include "test_support.hpp"

#include <cstring>
#include <string>
#include <vector>

#include "compare/compare.hpp"
#include "compare_bits.hpp"

namespace {

using posenc::CompareConfig;
using posenc::CompareResult;
using posenc::Scheme;
using posenc::SchemeResult;
using posenc::test::first_difference;

struct Sentence {
    explicit Sentence(std::size_t dim) : d(dim) {}
    std::size_t d;
    std::vector<float> e, words;  // n×d each
    std::uint64_t next_seed = 100;
    std::size_t n() const { return e.size() / d; }
    void set_row(std::size_t p) {
        const std::vector<float> row = posenc::test::random_values(d, next_seed++, 1.5f);
        std::copy(row.begin(), row.end(), e.begin() + p * d);
        const std::vector<float> reduced = posenc::test::random_values(d, next_seed++, 1.5f);
        std::copy(reduced.begin(), reduced.end(), words.begin() + p * d);
    }
    void append() {
        e.resize(e.size() + d);
        words.resize(words.size() + d);
        set_row(n() - 1);
    }
};

// Every lane at width d, with the learned table's rows past L and s > 1 for the RoPE scalings.
CompareConfig every_lane(std::size_t d, bool causal) {
    CompareConfig cfg;
    cfg.d = d;
    cfg.d_pos = 4;
    cfg.alpha = 1.25f;
    cfg.causal = causal;
    cfg.schemes = posenc::kAllSchemes;
    cfg.options.trained_length = 8;
    cfg.options.eval_length = 40;
    return cfg;
}

// One call on the remembering result and one on a fresh one; → the reused row count.
std::size_t check_call(const CompareConfig& base, const Sentence& s, bool with_words, CompareResult& kept) {
    CompareConfig cfg = base;
    cfg.n = s.n();
    REQUIRE(posenc::validate(cfg) == nullptr);
    const float* words = with_words ? s.words.data() : nullptr;
    posenc::compare(cfg, s.e.data(), kept, words);
    CompareResult fresh;
    posenc::compare(cfg, s.e.data(), fresh, words);
    INFO("n = " << cfg.n << ", reused rows " << kept.cache.reuse_rows);
    CHECK(first_difference(kept, fresh) == "");
    return kept.cache.reuse_rows;
}

// The same call on a fresh result with a lane set (input_only, skip_terms) emptied: what the set
// must leave alone.
CompareResult full_call(CompareConfig cfg, const Sentence& s, posenc::SchemeSet CompareConfig::*cleared) {
    cfg.n = s.n();
    cfg.*cleared = 0;
    CompareResult full;
    posenc::compare(cfg, s.e.data(), full, s.words.data());
    return full;
}

// A lane set (input_only, skip_terms) naming a lane that is not computed is refused, by its JS name.
void check_refused_outside_schemes(CompareConfig cfg, posenc::SchemeSet CompareConfig::*set, const char* js_name) {
    cfg.schemes = posenc::kClassicSchemes;
    cfg.*set = posenc::kAllSchemes;
    const char* error = posenc::validate(cfg);
    REQUIRE(error != nullptr);
    CHECK(std::string(error).find(js_name) != std::string::npos);
}

}  // namespace

TEST_CASE("compare: a remembering result gives a fresh result's bits after every edit", "[compare][reuse]") {
    const bool causal = GENERATE(false, true);
    const bool with_words = GENERATE(false, true);
    const auto mode = GENERATE(posenc::ConcatMode::same_width, posenc::ConcatMode::widened);
    // Every lane's terms skipped (the page's folded decompositions): the decomposed lanes keep
    // their summed logits instead of their terms, and reuse those.
    const bool skip = GENERATE(false, true);
    const std::size_t d = 12;
    CompareConfig cfg = every_lane(d, causal);
    cfg.concat_mode = mode;
    INFO("causal " << causal << ", words " << with_words << ", widened " << (mode == posenc::ConcatMode::widened)
                   << ", terms skipped " << skip);

    Sentence s(d);
    CompareResult kept;
    const auto call = [&] {
        cfg.skip_terms = skip ? cfg.schemes : 0;
        return check_call(cfg, s, with_words, kept);
    };
    std::size_t reused_total = 0;
    // Typing: one token at a time from 1 to 17 tokens, each also edited once as it is typed.
    for (std::size_t n = 1; n <= 17; ++n) {
        s.append();
        const std::size_t appended = call();
        if (n >= 5) CHECK(appended == n - 1);  // the point of it: only the new row is computed
        s.set_row(n - 1);
        const std::size_t edited = call();
        if (n >= 4) CHECK(edited == n - 1);
        reused_total += appended + edited;
    }
    CHECK(reused_total > 0);
    // Backspace over a token, then a change in the middle.
    s.e.resize(s.e.size() - d);
    s.words.resize(s.words.size() - d);
    CHECK(call() == s.n());
    s.set_row(5);
    CHECK(call() == 5);
    // Only the concatenated scheme's reduced words change (the embeddings stay).
    if (with_words) {
        s.words[7 * d] += 0.5f;
        CHECK(call() == 7);
    }
    // A setting changes: nothing is reused; then the same again reuses everything.
    cfg.alpha = 0.75f;
    CHECK(call() == 0);
    CHECK(call() == s.n());
    // Fewer lanes, then all again: the lanes left out have no products to keep.
    cfg.schemes = posenc::kClassicSchemes;
    call();
    cfg.schemes = posenc::kAllSchemes;
    s.set_row(s.n() - 1);
    call();
    // Heads switch reuse off and back on.
    cfg.heads = 2;
    CHECK(call() == 0);
    s.set_row(s.n() - 1);
    CHECK(call() == 0);
    cfg.heads = 0;
    CHECK(call() == 0);
    s.set_row(s.n() - 1);
    CHECK(call() == s.n() - 1);
}

TEST_CASE("compare: row reuse across the blocks of longer sentences", "[compare][reuse]") {
    // n crosses several 4-row query blocks and 8-key panels; one token typed at each size, then
    // (n = 63) a token early in the sentence changed, so that the new rows span several of the
    // 16-row blocks in which a skipped lane sums them (sum_identity_region): 3 … 58 new rows.
    const bool skip = GENERATE(false, true);
    const auto mode = GENERATE(posenc::ConcatMode::same_width, posenc::ConcatMode::widened);
    const bool with_words = GENERATE(false, true);
    INFO("terms skipped " << skip << ", widened " << (mode == posenc::ConcatMode::widened) << ", words " << with_words);
    const std::size_t d = 100;
    CompareConfig cfg;
    cfg.d = d;
    cfg.d_pos = 26;
    cfg.alpha = 2.5f;
    cfg.concat_mode = mode;
    cfg.schemes = posenc::kAllSchemes;
    cfg.skip_terms = skip ? cfg.schemes : 0;
    Sentence s(d);
    CompareResult kept;
    for (std::size_t n : {15, 16, 17, 63}) {
        while (s.n() < n) s.append();
        check_call(cfg, s, with_words, kept);
        s.set_row(n - 1);
        CHECK(check_call(cfg, s, with_words, kept) == n - 1);
        s.append();
        CHECK(check_call(cfg, s, with_words, kept) == n);
    }
    for (std::size_t row : {61, 47, 31, 5}) {
        s.set_row(row);
        CHECK(check_call(cfg, s, with_words, kept) == row);
    }
}

TEST_CASE("compare: input-only lanes bring x and parameters alone, and the next full call starts afresh", "[compare][reuse]") {
    // The page's covered lanes (CompareConfig::input_only) while typing, then unfolded: every call
    // still equals a fresh result's bits, and an input-only lane's x, parameters and term count
    // equal those of the same lane computed in full.
    const bool causal = GENERATE(false, true);
    const std::size_t d = 12;
    CompareConfig cfg = every_lane(d, causal);
    Sentence s(d);
    CompareResult kept;
    const posenc::SchemeSet patterns[] = {0, posenc::kAllSchemes, posenc::kClassicSchemes, posenc::kAllSchemes & ~posenc::kClassicSchemes};
    for (std::size_t n = 1; n <= 13; ++n) {
        s.append();
        // Each size twice (appended, then its last token edited) with another input-only set.
        cfg.input_only = patterns[(n + 1) % 4];
        check_call(cfg, s, true, kept);
        s.set_row(n - 1);
        cfg.input_only = patterns[n % 4];
        INFO("n = " << n << ", input-only set " << cfg.input_only);
        check_call(cfg, s, true, kept);
        const CompareResult full = full_call(cfg, s, &CompareConfig::input_only);
        for (unsigned i = 0; i < posenc::kSchemeCount; ++i) {
            const Scheme scheme = static_cast<Scheme>(i);
            const SchemeResult& lane = kept.lane(scheme);
            const SchemeResult& whole = full.lane(scheme);
            INFO("scheme " << i);
            CHECK(lane.width == whole.width);
            CHECK(lane.term_count == whole.term_count);
            CHECK(posenc::test::same_bits(lane.x, whole.x));
            CHECK(lane.slopes == whole.slopes);
            CHECK(lane.frequencies == whole.frequencies);
            CHECK(lane.scale_factor == whole.scale_factor);
            if (posenc::has(cfg.input_only, scheme)) {
                CHECK(lane.weights.empty());
                CHECK(lane.terms.empty());
                CHECK(lane.masked.empty());
                CHECK(lane.unmasked.empty());
                CHECK(lane.max_abs.size() == 1);
            } else {
                CHECK(posenc::test::same_bits(lane.weights, whole.weights));
                CHECK(posenc::test::same_bits(lane.terms, whole.terms));
                CHECK(lane.max_abs == whole.max_abs);
            }
        }
    }
    cfg.n = s.n();
    check_refused_outside_schemes(cfg, &CompareConfig::input_only, "inputOnly");
}

TEST_CASE("compare: skip-terms lanes give the weights of a full call without forming their terms", "[compare][reuse]") {
    // The page's folded decompositions (CompareConfig::skip_terms) while typing, with heads or
    // W = I, causal or not: every call's weights (and NoPE's masked and unmasked) equal a full
    // call's bits, skipped lanes bring no terms and max|x| alone, the others their terms, and the
    // remembering result still equals a fresh one with the same set. Sizes cross the 16-entry
    // tiles of the summed terms (n = 1 … 17, then 33). Tolerance: none.
    const bool causal = GENERATE(false, true);
    const std::size_t heads = GENERATE(0, 2);
    const auto mode = GENERATE(posenc::ConcatMode::same_width, posenc::ConcatMode::widened);
    const std::size_t d = 12;
    CompareConfig cfg = every_lane(d, causal);
    cfg.heads = heads;
    cfg.concat_mode = mode;
    Sentence s(d);
    CompareResult kept;
    const posenc::SchemeSet patterns[] = {posenc::kAllSchemes, 0, posenc::kClassicSchemes, posenc::kAllSchemes & ~posenc::kClassicSchemes};
    for (std::size_t n = 1; n <= 33; n += n < 17 ? 1 : 16) {
        while (s.n() < n) s.append();
        s.set_row(n - 1);
        cfg.skip_terms = patterns[n % 4];
        INFO("n = " << n << ", heads " << heads << ", causal " << causal << ", skip-terms set " << cfg.skip_terms);
        check_call(cfg, s, true, kept);
        const CompareResult full = full_call(cfg, s, &CompareConfig::skip_terms);
        for (unsigned i = 0; i < posenc::kSchemeCount; ++i) {
            const Scheme scheme = static_cast<Scheme>(i);
            const SchemeResult& lane = kept.lane(scheme);
            const SchemeResult& whole = full.lane(scheme);
            INFO("scheme " << i);
            CHECK(posenc::test::same_bits(lane.x, whole.x));
            CHECK(posenc::test::same_bits(lane.weights, whole.weights));
            CHECK(posenc::test::same_bits(lane.masked, whole.masked));
            CHECK(posenc::test::same_bits(lane.unmasked, whole.unmasked));
            CHECK(lane.term_count == whole.term_count);
            REQUIRE_FALSE(whole.terms.empty());
            if (posenc::has(cfg.skip_terms, scheme)) {
                CHECK(lane.terms.empty());
                CHECK(lane.max_abs == std::vector<float>{whole.max_abs[0]});
            } else {
                CHECK(posenc::test::same_bits(lane.terms, whole.terms));
                CHECK(lane.max_abs == whole.max_abs);
            }
        }
    }
    cfg.n = s.n();
    check_refused_outside_schemes(cfg, &CompareConfig::skip_terms, "skipTerms");
}
