// Benchmark workloads shared by the native (Google Benchmark) and wasm (Node / Chromium) runs, so
// every variant times exactly the same C++.
//
// "Full recompute of every panel" (FullRecompute::run) is what one keystroke costs the page for a
// sentence of n tokens with d = 100 GloVe vectors (or synthetic ones for other d):
//   1. compare(): additive, concatenated (d_pos = 2·round(d/8)) and rotary — PE tables, the three
//      n×n attention maps (W = I) and the logit decomposition terms;
//   2. position retrieval: each additive x_p decoded to the nearest PE(p'), p' < n, by cosine;
//   3. identity retrieval over the whole vocabulary (20,000 words): additive x_p = αe + PE(p) and
//      rotary x_p = αe, through IdentityRetriever (content rows cached per token, position rows
//      per position). Keystroke mode: caches warm except for the last token, which is new every
//      call (typing changes the last word). Cold mode: caches emptied before every call;
//   4. shift invariance: compare() of the sentence with k = 4 filler tokens prepended, and
//      max_shift_change for each scheme;
//   5. offset curves: score_by_offset and rope_decay_bound for offsets 0 … n;
//   6. per-dimension disturbance: column_spread of PE and of αE.
// Not included: tokenizing, embedding lookup, PCA of the concatenated scheme's reduced
// vocabulary (computed once per d_pos), painting.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "analysis/analyses.hpp"
#include "compare/compare.hpp"
#include "analysis/retrieval.hpp"

namespace posenc::bench {

// Deterministic values in [-scale, scale).
std::vector<float> random_values(std::size_t count, std::uint64_t seed, float scale = 1.0f);

// n vocabulary rows below v, Zipf-like (row ⌊v^u⌋ for u uniform): frequent words (low rows)
// repeat, as in text. Seeded, so every variant decodes the same sentence.
std::vector<std::uint32_t> zipf_rows(std::size_t n, std::size_t v, std::uint64_t seed);

class FullRecompute {
public:
    // vocab: v×d raw word vectors (copied and normalised); component_rms sets α = 1/rms.
    void set_vocabulary(const float* vocab, std::size_t v, std::size_t d, float component_rms);
    // Picks n tokens (vocabulary rows, Zipf-like repeats) for the sentence; resets caches.
    void set_sentence(std::size_t n);
    // One full recompute; cold empties the retrieval caches first. Returns a checksum.
    double run(bool cold);

    std::size_t vocab_size() const { return v_; }
    const float* unit_vocab() const { return unit_.data(); }

private:
    std::size_t v_ = 0, d_ = 0, n_ = 0;
    float alpha_ = 1.0f;
    std::vector<float> raw_, unit_;
    std::vector<std::uint32_t> rows_;
    std::vector<std::uint64_t> keys_;
    std::vector<float> e_, e_shifted_, unit_pe_, scratch_;
    std::uint64_t next_key_ = 1ull << 40;
    CompareResult base_, shifted_;
    IdentityRetriever retriever_;
    std::vector<Retrieved> retrieved_;
    std::vector<std::uint32_t> best_, position_truth_;
    std::vector<float> cosine_, curve_, bound_, spread_;
};

}  // namespace posenc::bench
