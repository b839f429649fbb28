// One sentence through the three schemes: the data behind every lane of the page.
//
// Shapes (n tokens, d word-vector dims, w a scheme's input width, h' = max(heads, 1)):
//   embeddings      — n×d, caller-owned input (unscaled word vectors)
//   concat_words    — n×d or nullptr: the word vectors in the basis whose leading coordinates the
//                     concatenated scheme keeps (PCA coordinates for real vectors); nullptr keeps
//                     the leading coordinates of embeddings (truncation, for synthetic vectors)
//   pe              — n×d   sinusoidal table added by the additive scheme
//   pe_concat       — n×d_pos table appended by the concatenated scheme
//   scheme.x        — n×w   encoded input (rotary: α·E itself; its rotation happens on q, k)
//   scheme.weights  — h'×n×n attention weights, one n×n block per head
//   scheme.terms    — t×n×n logit terms of head 0 (or W = I): t = 4 for additive and
//                     concatenated [content·content, content·position, position·content,
//                     position·position], t = 1 for rotary (the rotated content term)
// Head projections: heads = 0 means W_q = W_k = W_v = I; otherwise h seeded N(0, 1/w) matrices
// of w×(w/h) each, so every head sees the same input and w must divide by h.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "phases.hpp"

namespace posenc {

enum class ConcatMode { same_width, widened };

struct CompareConfig {
    std::size_t n = 0;
    std::size_t d = 0;
    float alpha = 1.0f;
    double base = 10000.0;
    Layout layout = Layout::interleaved;
    Layout pairing = Layout::interleaved;
    std::size_t d_pos = 0;               // concatenated: position dims (even)
    ConcatMode concat_mode = ConcatMode::same_width;
    bool causal = false;
    std::size_t heads = 0;
    std::uint64_t head_seed = 1;
    float scale = 0.0f;                  // 0: 1/√d_head
};

struct SchemeResult {
    std::size_t width = 0;
    std::size_t term_count = 0;
    std::vector<float> x, weights, terms;
};

struct CompareResult {
    std::vector<float> pe, pe_concat;
    SchemeResult additive, concatenated, rotary;
    // Scratch reused across calls so that a repeated compare allocates nothing once warm.
    std::vector<float> word_part, position_part, projected, w_q, w_k, q, k, q2, k2;
};

// Returns nullptr when cfg is valid, else a message naming the offending field.
const char* validate(const CompareConfig& cfg);

// Requires validate(cfg) == nullptr.
void compare(const CompareConfig& cfg, const float* embeddings, CompareResult& result,
             const float* concat_words = nullptr);

}  // namespace posenc
