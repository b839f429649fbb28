// Transformer::inspect: one pass giving attention() and the per-position surprise, and its reuse
// of the previous call's rows, bit for bit against fresh passes.
#include <catch2/catch.hpp>

#include <cmath>
#include <utility>
#include <vector>

#include "compare_bits.hpp"
#include "model_test_support.hpp"

using namespace posenc;
using namespace posenc::model;
using namespace posenc::test;

namespace {

// d 12 (d_h 6: 3 rotary pairs; 4d = 48), context 70 so learned takes every n below; lengths hit
// every SIMD tail of the n-wide rows and 65 > 64 regrows the cache (inspect.cpp's row step).
constexpr std::size_t kVocab = 37, kD = 12, kContext = 70;
constexpr std::size_t kLengths[] = {1, 2, 3, 5, 8, 9, 17, 33, 64, 65, 70};

Transformer perturbed_model(const Variant& v) {
    Transformer m(variant_config(v, kVocab, kD, 2, 2, kContext, 11));
    perturb(m, 0.5f, 23);  // weights of ordinary size: attention far from uniform
    return m;
}

struct Outputs {
    std::vector<float> attention, surprise;
};

Outputs inspect(Transformer& m, const std::vector<std::int32_t>& ids, const EvalOptions& eval = {}) {
    const ModelConfig& cfg = m.config();
    const std::size_t n = ids.size();
    Outputs o{std::vector<float>(cfg.layers * cfg.heads * n * n, -1.0f), std::vector<float>(n - 1, -1.0f)};
    m.inspect(ids.data(), n, o.attention.data(), o.surprise.data(), eval);
    return o;
}

// A fresh model with the same weights: its inspect has nothing to reuse.
Outputs fresh_inspect(const Transformer& m, const std::vector<std::int32_t>& ids, const EvalOptions& eval = {}) {
    Transformer fresh(m.config());
    fresh.set_parameters(m.parameters(), m.parameter_count());
    return inspect(fresh, ids, eval);
}

}  // namespace

TEST_CASE("inspect: attention() bit for bit, surprise = the terms of loss() exactly, every scheme and tail",
          "[model][inspect]") {
    for (const Variant& v : kVariants) {
        Transformer m = perturbed_model(v);
        for (std::size_t n : kLengths) {
            CAPTURE(v.name, n);
            const auto ids = random_tokens(n, kVocab, 100 + n);
            const Outputs got = fresh_inspect(m, ids);
            std::vector<float> attention(got.attention.size());
            m.attention(ids.data(), n, attention.data());
            REQUIRE(same_bits(got.attention, attention));
            if (n < 2) continue;
            // loss over the one row ids[0 … n − 2] → ids[1 … n − 1] sums the same float terms in
            // the same order in double, so the mean is equal, not close.
            double total = 0.0;
            for (float s : got.surprise) total += static_cast<double>(s);
            REQUIRE(total / static_cast<double>(n - 1) == m.loss(ids.data(), 1, n - 1, nullptr));
            // Against a float64 log-softmax of logits(): the core's exp (fastmath) and float sums
            // differ from it by a few ulps of the row's logsumexp (|value| < 20 here): 1e-5.
            std::vector<float> logits(n * kVocab);
            m.logits(ids.data(), n, logits.data());
            for (std::size_t p = 0; p + 1 < n; ++p) {
                const float* z = logits.data() + p * kVocab;
                double max = z[0], sum = 0.0;
                for (std::size_t j = 1; j < kVocab; ++j) max = std::max(max, static_cast<double>(z[j]));
                for (std::size_t j = 0; j < kVocab; ++j) sum += std::exp(z[j] - max);
                REQUIRE(got.surprise[p] == Approx(std::log(sum) + max - z[ids[p + 1]]).margin(1e-5));
            }
        }
    }
}

TEST_CASE("inspect: reused rows equal a fresh pass bit for bit through edits, deletions and regrowth",
          "[model][inspect]") {
    for (const Variant& v : kVariants) {
        Transformer m = perturbed_model(v);
        std::vector<std::int32_t> ids = random_tokens(20, kVocab, 5);
        std::vector<std::vector<std::int32_t>> steps;
        auto step = [&](std::vector<std::int32_t> next) {
            steps.push_back(next);
            ids = std::move(next);
        };
        step(ids);
        auto typed = ids;
        typed.back() = (typed.back() + 1) % kVocab;  // the last word changes (a keystroke)
        step(typed);
        typed.back() = (typed.back() + 2) % kVocab;  // and again: the kept normaliser, a new target
        step(typed);
        typed.push_back(3);  // a word appended
        step(typed);
        typed[7] = (typed[7] + 5) % kVocab;  // an edit in the middle
        step(typed);
        typed.pop_back();  // a deletion at the end
        step(typed);
        step(typed);  // the same ids again: nothing recomputed
        step(std::vector<std::int32_t>(typed.begin(), typed.begin() + 4));  // n shrinks
        auto shrunk = steps.back();
        shrunk[3] = (shrunk[3] + 1) % kVocab;  // then its last word changes: a row scored two calls ago
        step(shrunk);
        step(std::vector<std::int32_t>(typed.begin(), typed.begin() + 1));  // one word: no surprise
        step(random_tokens(66, kVocab, 9));                                // past the cache's 64 rows
        auto longer = steps.back();
        longer[65] = (longer[65] + 1) % kVocab;
        step(longer);
        // Typing across the cache's 64 rows: a regrow moves the kept rows to the new row stride.
        auto across = random_tokens(62, kVocab, 12);
        step(across);  // new ids: the cache sized afresh for 64 rows
        across.push_back(4);
        across.push_back(5);
        step(across);  // 64: the last two rows fill it
        across.back() = 6;
        across.push_back(7);
        step(across);  // 65: regrown with 63 rows kept, row 62 rescored for its new target
        auto edited = random_tokens(60, kVocab, 13);
        step(edited);  // new ids again: 64 rows
        edited[10] = (edited[10] + 1) % kVocab;
        edited.resize(68, 8);
        step(edited);  // 68: regrown with the 10 rows before the edit kept
        for (std::size_t i = 0; i < steps.size(); ++i) {
            CAPTURE(v.name, i, steps[i].size());
            const Outputs got = inspect(m, steps[i]);
            const Outputs want = fresh_inspect(m, steps[i]);
            REQUIRE(same_bits(got.attention, want.attention));
            REQUIRE(same_bits(got.surprise, want.surprise));
        }
    }
}

TEST_CASE("inspect: a call for one map that scores no new row leaves the layers above it, and later calls compute them",
          "[model][inspect]") {
    // One map's output: its n·n weights (map = layer·h + head) and the surprise.
    auto one_map = [](Transformer& m, const std::vector<std::int32_t>& ids, std::size_t map) {
        const std::size_t n = ids.size();
        Outputs o{std::vector<float>(n * n, -1.0f), std::vector<float>(n - 1, -1.0f)};
        m.inspect(ids.data(), n, o.attention.data(), o.surprise.data(), {}, map);
        return o;
    };
    // Layer 0's first head, the last layer's last head, and every map (kEveryMap), in turn.
    for (const Variant& v : kVariants) {
        Transformer m = perturbed_model(v);
        const ModelConfig& cfg = m.config();
        const std::size_t low = 0, high = cfg.layers * cfg.heads - 1;
        auto ids = random_tokens(30, kVocab, 21);
        struct Step {
            std::vector<std::int32_t> ids;
            std::size_t map;
        };
        std::vector<Step> steps;
        steps.push_back({ids, low});
        ids.back() = (ids.back() + 1) % kVocab;  // the last word changes: layer 0 alone
        steps.push_back({ids, low});
        ids.back() = (ids.back() + 3) % kVocab;  // again
        steps.push_back({ids, low});
        steps.push_back({ids, high});  // the same words, the last layer: its rows left out come now
        ids.back() = (ids.back() + 1) % kVocab;
        steps.push_back({ids, low});
        ids.push_back(2);  // a word appended: the row before it is scored, so every layer's rows
        steps.push_back({ids, low});
        ids.back() = 9;
        steps.push_back({ids, low});
        ids.pop_back();  // a deletion: nothing to score, the last layer still left behind
        steps.push_back({ids, low});
        steps.push_back({ids, kEveryMap});
        ids.back() = (ids.back() + 2) % kVocab;
        steps.push_back({ids, low});
        for (std::int32_t id : random_tokens(40, kVocab, 22)) ids.push_back(id);  // 69: regrown past 64 rows
        steps.push_back({ids, low});
        ids[68] = (ids[68] + 1) % kVocab;
        steps.push_back({ids, low});
        ids.resize(66);
        ids[65] = (ids[65] + 4) % kVocab;
        steps.push_back({ids, low});
        steps.push_back({ids, high});
        for (std::size_t i = 0; i < steps.size(); ++i) {
            CAPTURE(v.name, i, steps[i].ids.size(), steps[i].map);
            const Step& s = steps[i];
            const std::size_t n = s.ids.size();
            // The const parameters(): the writable one would empty m's cache.
            Transformer fresh(cfg);
            fresh.set_parameters(std::as_const(m).parameters(), m.parameter_count());
            if (s.map == kEveryMap) {
                const Outputs got = inspect(m, s.ids), want = inspect(fresh, s.ids);
                REQUIRE(same_bits(got.attention, want.attention));
                REQUIRE(same_bits(got.surprise, want.surprise));
                continue;
            }
            const Outputs got = one_map(m, s.ids, s.map), want = one_map(fresh, s.ids, s.map);
            REQUIRE(got.attention.size() == n * n);
            REQUIRE(same_bits(got.attention, want.attention));
            REQUIRE(same_bits(got.surprise, want.surprise));
        }
    }
}

TEST_CASE("inspect: new weights, ropeScaling and a refused learned call are never served from the cache",
          "[model][inspect]") {
    const Variant rotary{Scheme::rotary, Layout::interleaved, "rotary"};
    Transformer m = perturbed_model(rotary);
    const auto ids = random_tokens(12, kVocab, 3);
    const Outputs before = inspect(m, ids);
    const EvalOptions yarn{RopeScaling::yarn, 4.0};
    const Outputs scaled = inspect(m, ids, yarn);
    REQUIRE_FALSE(same_bits(scaled.attention, before.attention));  // the check can fail
    REQUIRE(same_bits(scaled.attention, fresh_inspect(m, ids, yarn).attention));
    REQUIRE(same_bits(inspect(m, ids).attention, before.attention));

    perturb(m, 0.1f, 77);  // writes through parameters()
    const Outputs moved = inspect(m, ids);
    REQUIRE_FALSE(same_bits(moved.surprise, before.surprise));
    REQUIRE(same_bits(moved.surprise, fresh_inspect(m, ids).surprise));

    // learned: n > context is refused before inspect runs (validate_sequence); the cache still
    // holds the last accepted call and serves the next one correctly.
    Transformer learned = perturbed_model({Scheme::learned, Layout::interleaved, "learned"});
    const auto accepted = random_tokens(kContext, kVocab, 4);
    inspect(learned, accepted);
    const auto too_long = random_tokens(kContext + 1, kVocab, 4);
    REQUIRE(validate_sequence(learned.config(), too_long.data(), kContext + 1, kContext + 1) != nullptr);
    auto edited = accepted;
    edited[kContext - 1] = (edited[kContext - 1] + 1) % kVocab;
    REQUIRE(same_bits(inspect(learned, edited).surprise, fresh_inspect(learned, edited).surprise));
}

TEST_CASE("inspect: the cache is bounded like the workspace", "[model][inspect]") {
    ModelConfig cfg = variant_config({Scheme::nope, Layout::interleaved, "nope"}, kVocab, kD, 2, 2, kContext);
    REQUIRE(validate_inspect(cfg, 64, kEveryMap) == nullptr);
    cfg.layers = 8;
    cfg.heads = 4;
    cfg.d = 16;
    REQUIRE(validate_inspect(cfg, 4096, kEveryMap) != nullptr);  // 8·4·4096² floats of weights alone
}

TEST_CASE("inspect: the workspace holds no whole pass's activations, and inspect after a whole pass is a fresh pass",
          "[model][inspect]") {
    for (const Variant& v : kVariants) {
        CAPTURE(v.name);
        Transformer m = perturbed_model(v);
        const ModelConfig& cfg = m.config();
        const auto short_ids = random_tokens(33, kVocab, 7);
        auto long_ids = short_ids;
        for (std::int32_t id : random_tokens(32, kVocab, 8)) long_ids.push_back(id);  // 65: the cache regrows
        const std::size_t n = long_ids.size();
        // The rows live in inspect's cache: the workspace holds head_t and the position tables
        // for n positions (O(n·d) floats), and no whole pass's activations: its weights alone are
        // h·n² floats, more than all of those here.
        (void)inspect(m, short_ids);
        (void)inspect(m, long_ids);
        const WorkspaceSizes whole = workspace_sizes(cfg, 1, n, false);
        REQUIRE(m.workspace_capacity() >= row_workspace_floats(cfg, n));
        REQUIRE(m.workspace_capacity() < whole.floats[static_cast<std::size_t>(Act::probs)]);
        // A whole pass sizes every activation; inspect after it, on edited ids, is still a fresh pass.
        std::vector<float> attention(cfg.layers * cfg.heads * n * n);
        m.attention(long_ids.data(), n, attention.data());
        REQUIRE(m.workspace_capacity() >= whole.total());
        long_ids[40] = (long_ids[40] + 1) % static_cast<std::int32_t>(kVocab);
        const Outputs got = inspect(m, long_ids), want = fresh_inspect(m, long_ids);
        REQUIRE(same_bits(got.attention, want.attention));
        REQUIRE(same_bits(got.surprise, want.surprise));
    }
}

TEST_CASE("inspect: one map is that map of every map's output, bit for bit, cached or not", "[model][inspect]") {
    Transformer m = perturbed_model({Scheme::alibi, Layout::interleaved, "alibi"});  // heads differ by slope
    const ModelConfig& cfg = m.config();
    const std::size_t maps = cfg.layers * cfg.heads;
    REQUIRE(validate_inspect(cfg, 9, maps - 1) == nullptr);
    REQUIRE(validate_inspect(cfg, 9, maps) != nullptr);
    auto ids = random_tokens(9, kVocab, 6);
    for (int call = 0; call < 2; ++call) {  // the second call reuses every row but the last
        const Outputs every = fresh_inspect(m, ids);
        const std::size_t n = ids.size(), nn = n * n;
        for (std::size_t map = 0; map < maps; ++map) {
            CAPTURE(call, map);
            std::vector<float> one(nn, -1.0f), surprise(n - 1, -1.0f);
            m.inspect(ids.data(), n, one.data(), surprise.data(), {}, map);
            REQUIRE(same_bits(one, std::vector<float>(every.attention.begin() + map * nn, every.attention.begin() + (map + 1) * nn)));
            REQUIRE(same_bits(surprise, every.surprise));
        }
        ids.back() = (ids.back() + 1) % kVocab;
    }
}

TEST_CASE("inspect: rows from from_row are those rows of the whole output, every map or one, cached or not",
          "[model][inspect]") {
    Transformer m = perturbed_model({Scheme::rotary, Layout::interleaved, "rotary"});
    const ModelConfig& cfg = m.config();
    const std::size_t maps = cfg.layers * cfg.heads;
    auto ids = random_tokens(33, kVocab, 8);  // 33 ids: the pass's 33-wide rows end in a SIMD tail
    const std::size_t n = ids.size();
    REQUIRE(validate_inspect(cfg, n, kEveryMap, n - 1) == nullptr);
    REQUIRE(validate_inspect(cfg, n, kEveryMap, n) != nullptr);
    REQUIRE(validate_inspect(cfg, n, 0, n + 5) != nullptr);
    for (int call = 0; call < 2; ++call) {  // the second call reuses every row but the last
        const Outputs whole = fresh_inspect(m, ids);
        for (std::size_t from : {std::size_t{0}, std::size_t{1}, std::size_t{17}, n - 1}) {
            const std::size_t rows = n - from;
            // map = maps stands for every map (kEveryMap): maps blocks of rows·n.
            for (std::size_t map = 0; map <= maps; ++map) {
                CAPTURE(call, from, map);
                const bool every = map == maps;
                const std::size_t count = every ? maps : 1;
                std::vector<float> got(count * rows * n, -1.0f), surprise(n - 1, -1.0f);
                m.inspect(ids.data(), n, got.data(), surprise.data(), {}, every ? kEveryMap : map, from);
                std::vector<float> want;
                for (std::size_t k = 0; k < count; ++k) {
                    const auto block = whole.attention.begin() + static_cast<std::ptrdiff_t>(((every ? k : map) * n + from) * n);
                    want.insert(want.end(), block, block + static_cast<std::ptrdiff_t>(rows * n));
                }
                REQUIRE(same_bits(got, want));
                REQUIRE(same_bits(surprise, whole.surprise));
            }
        }
        ids.back() = (ids.back() + 1) % kVocab;
    }
}
