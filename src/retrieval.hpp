// Identity retrieval (DESIGN.md, analysis 2) made cheap enough to rerun on every keystroke.
//
// Decoding x_p = α·e_p + PE(p) back to a word by cosine over a v-word unit vocabulary û_r costs
// n·v·d multiply-adds brute force (64 × 20,000 × 100 = 128 M). The algebra
//     x_p·û_r = α·(e_p·û_r) + PE(p)·û_r
// splits it into a content row c_t[r] = e_t·û_r, one per distinct token (tokens repeat across
// keystrokes, so it is cached by a caller-chosen key), and a position row q_p[r] = PE(p)·û_r, one
// per position (cached for one d, base and layout). Once both rows exist a token costs v
// multiply-adds and compares, and a keystroke that changes one word costs one content row.
// Results are memoised per position (key, alpha and truth unchanged ⇒ same result), so a
// keystroke that changes one token decodes one token.
//
// Shapes and terms:
//   unit_vocab — v×d, rows unit length or zero (normalize_rows in analyses.hpp)
//   e          — n×d unscaled word vectors;  keys — n cache keys (equal key ⇒ equal vector)
//   truth      — n vocabulary rows (kNoTruth for a word outside the vocabulary: rank 0)
// Results match nearest_by_cosine on x_p up to float rounding: the score is formed as
// α·c + q instead of x·û, so rows whose cosines differ by less than ~1e-6 may swap.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "phases.hpp"

namespace posenc {

inline constexpr std::uint32_t kNoTruth = 0xffffffffu;

struct Retrieved {
    std::uint32_t best = 0;   // nearest row
    float cosine = 0.0f;      // its cosine with x
    std::uint32_t rank = 0;   // 1-based rank of the true row (1 = decoded correctly); 0 without truth
};

// Nearest row by score s_r = alpha·content[r] + position[r] (position may be null: s = alpha·content),
// ties to the lower row; cosine = s_best / x_norm (0 when x_norm is 0). rank counts rows with a
// higher score, plus equal ones before truth.
Retrieved decode_scores(const float* content, float alpha, const float* position, std::size_t v, float x_norm,
                        std::uint32_t truth);

class IdentityRetriever {
public:
    // Borrows unit_vocab (it must outlive the retriever or the next set_vocabulary); clears caches.
    void set_vocabulary(const float* unit_vocab, std::size_t v, std::size_t d);

    // Decodes x_p = alpha·e_p + PE(p) (additive = true; PE with base and layout) or x_p = alpha·e_p (additive = false: rotary's input, or any scheme
    // whose word part carries no position) for p < n. Requires d = the vocabulary's d.
    void retrieve(const float* e, const std::uint64_t* keys, const std::uint32_t* truth, std::size_t n, float alpha,
                  bool additive, double base, Layout layout, Retrieved* out);

    std::size_t cached_tokens() const { return slot_of_.size(); }
    std::size_t cached_positions() const { return positions_; }
    void clear();

    // Bounds the content cache (rows of v floats): at most kMaxCachedTokens rows and at most
    // kMaxCachedFloats floats (32 MiB; 419 rows at v = 20,000); reaching it empties the cache. A
    // single call with more distinct tokens than that computes them all (the bound is then exceeded
    // until the next call that needs a new row).
    static constexpr std::size_t kMaxCachedTokens = 1024;
    static constexpr std::size_t kMaxCachedFloats = std::size_t{8} << 20;
    std::size_t max_cached_tokens() const;

private:
    const float* content_row(std::uint64_t key, const float* e);
    void ensure_positions(std::size_t count, double base, Layout layout);

    const float* vocab_ = nullptr;
    std::size_t v_ = 0, d_ = 0;
    // key → content slot: open addressing with linear probing (a few lines of code instead of
    // std::unordered_map's, which the size-budgeted wasm cores notice).
    class SlotMap {
    public:
        std::size_t size() const { return count_; }
        void clear();
        // The key's slot, inserting `slot` for a new key; `inserted` tells which.
        std::size_t find_or_insert(std::uint64_t key, std::size_t slot, bool& inserted);
        std::size_t at(std::uint64_t key) const;  // the key must be present

    private:
        std::size_t probe(std::uint64_t key) const;  // the key's index or the empty one it would take
        std::vector<std::uint64_t> keys_;
        std::vector<std::size_t> slots_;  // kEmpty where free
        std::size_t count_ = 0;
    };
    SlotMap slot_of_;
    std::vector<float> content_;      // slots × v
    std::vector<float> position_;     // positions_ × v
    std::size_t positions_ = 0;
    double base_ = 0.0;
    Layout layout_ = Layout::interleaved;
    struct Decoded {
        bool valid = false;
        std::uint64_t key = 0;
        float alpha = 0.0f;
        std::uint32_t truth = kNoTruth;
        Retrieved result;
    };
    void forget_decoded() { memo_[0].clear(); memo_[1].clear(); }
    std::vector<Decoded> memo_[2];    // per position: [plain, additive]
    std::vector<float> pe_, x_;       // n×d PE table, one query row
    std::vector<float> zeros_;        // v zeros: the position row of a plain decode
    std::vector<float> scratch_;      // pending rows × d
    std::vector<std::size_t> pending_;  // token positions whose key is new
};

}  // namespace posenc
