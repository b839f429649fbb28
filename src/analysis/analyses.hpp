// The measurements behind the page's shared panels (docs/ARCHITECTURE.md, "What the page measures").
//
// Shapes and terms:
//   m      — n×d row-major matrix (n rows, d columns)
//   vocab  — v×d candidate rows for nearest-neighbour decoding
//   K      — largest offset for score-versus-distance curves; outputs have K + 1 entries
// All outputs are caller-owned.
#pragma once

#include <cstddef>
#include <cstdint>

#include "encodings/phases.hpp"

namespace posenc {

// Population standard deviation of every column over the rows: out[j] = std_p m[p][j].
// The per-dimension disturbance is std(PE[:, j]) / std(αE[:, j]).
void column_spread(const float* m, std::size_t n, std::size_t d, float* out);

// Scales every row to unit length (an all-zero row stays zero): the vocabulary form that
// nearest_by_cosine expects, computed once per vocabulary rather than once per query.
void normalize_rows(const float* m, std::size_t n, std::size_t d, float* out);

// Nearest row of unit_vocab (rows unit length or zero) to each query by cosine similarity:
// best[i] is the row index and cosine[i] its similarity (ties go to the lower index; a zero
// query has cosine 0 with every row). rank[i] is the 1-based rank of row truth[i] among all rows
// for query i (1 = decoded correctly); pass truth = nullptr and rank = nullptr to skip ranks.
void nearest_by_cosine(const float* queries, std::size_t n, const float* unit_vocab, std::size_t v,
                       std::size_t d, const std::uint32_t* truth, std::uint32_t* best, float* cosine,
                       std::uint32_t* rank);

// The k rows of unit_vocab most similar to one query by cosine, best first (ties by lower index),
// skipping row `exclude` (pass v or more to exclude none). Returns how many it wrote: k, or
// fewer when the vocabulary has fewer candidates.
std::size_t top_k_by_cosine(const float* query, const float* unit_vocab, std::size_t v, std::size_t d,
                     std::size_t k, std::size_t exclude, std::uint32_t* rows, float* cosines);

// Largest |A_shifted − A| over the original tokens after k tokens were prepended: the shifted
// weights (n+k)×(n+k) are restricted to the original block and each row renormalised, which is
// exactly the softmax over the original tokens' logits. base is n×n.
float max_shift_change(const float* base, const float* shifted, std::size_t n, std::size_t k);

// out[k] = PE(0)·PE(k) = Σ_i cos(k·ω_i), k = 0 … K; equal to PE(p)·PE(p+k) for every p.
void score_by_offset(std::size_t max_offset, std::size_t d, double base, float* out);

// RoFormer §3.4.3 long-term decay bound: out[k] = (1/(d/2)) Σ_{j=1}^{d/2} |Σ_{m<j} e^{i·k·ω_m}|.
void rope_decay_bound(std::size_t max_offset, std::size_t d, double base, float* out);

// Mean and standard deviation of the cosine between `pairs` pairs of independent N(0, I_d)
// vectors drawn from `seed` (≈ 0 and ≈ 1/√d: near-orthogonality in high dimensions).
struct CosineSpread {
    double mean, std;
};
CosineSpread random_cosine_spread(std::size_t d, std::size_t pairs, std::uint64_t seed);

}  // namespace posenc
