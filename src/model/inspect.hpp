// One evaluation pass for the lanes: every layer's and head's attention weights and the surprise
// −ln p(token p + 1 | tokens 0 … p) at each position, with the rows of the previous call reused.
//
// Shapes (n ids, cap ≥ n the rows the cache holds, L layers, h heads, d width, V vocabulary):
//   attention out — L·h·n·n (row = query, exactly 0 above the diagonal), or n·n for one map
//   (map = layer·h + head); with from_row = r, each map's rows r … n − 1 alone: L·h·(n − r)·n or
//   (n − r)·n (a caller that holds the map of ids sharing their first r with these needs no more);
//   surprise out — n − 1
//   cache: stream (L + 1)·cap·d (x_0 … x_L), qkv L·cap·3d (q and k rotated), probs in blocks of
//   S = 64 rows (block k: rows kS … kS + S − 1 of the L·h maps, map-major, row stride (k + 1)·S,
//   which row i's columns 0 … i fit; cap/S blocks, so more rows add blocks and move none),
//   surprise cap, final cap·d (ln_f(x_L)) and normalizer cap (ln Σ e^logits),
//   both valid on rows 0 … scored − 1; scratch rows for the recomputed part only; weights_t: every
//   linear layer's Wᵀ (per layer c_attn, attn c_proj, c_fc, mlp c_proj: 12d², then lm_head d·V),
//   made once per set of weights (a transpose of lm_head costs more than a one-row pass).
// The model is causal, so row p of every activation depends on ids 0 … p alone: after a call on
// ids a, a call on ids b recomputes rows ≥ the first position where a and b differ (or
// min(|a|, |b|)) and keeps the rest. A call that scores no new row (the last word changed, or a
// deletion) computes its rows in the layers up to its map's only; the rows left out of the layers
// above are computed by the first call that reads them (another map, or a row to score).
// Recomputed rows go through the same kernels on the same row values as a whole pass (per-row
// LayerNorm and softmax, matmul summing each element in k order), so the outputs equal a fresh
// pass's bit for bit; test_model_inspect.cpp checks it. Typing inside the last word changes only
// the target of the surprise before it, on an unchanged row: its kept normaliser minus one logit
// (a dot product of d) replaces that row's lm_head product (d·V).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "model/config.hpp"
#include "model/forward_backward.hpp"

namespace posenc::model {

struct PrefixCache {
    std::vector<std::int32_t> ids;  // the last call's ids (empty: nothing reusable)
    EvalOptions eval;
    std::size_t cap = 0;
    std::vector<float> stream, qkv, surprise, final, normalizer;
    std::vector<std::vector<float>> probs;  // the blocks (shapes above)
    std::vector<float*> probs_blocks;       // their data(), for BlockRows
    std::size_t scored = 0;  // rows of final and normalizer that match ids
    // Per layer, its rows that match ids (stream slot l + 1, qkv and probs of layer l): a call
    // that scores no new row computes the layers up to its map's only, and the layers above wait
    // for the call that needs them. Slot 0 (the embeddings) matches every id.
    std::vector<std::size_t> layer_rows;
    // Scratch for the recomputed rows, named as in kActivationTable; ln_out and ln_stats serve
    // ln_1, ln_2 and ln_f in turn.
    std::vector<float> ln_out, ln_stats, attn_out, after_attn, mlp_pre, gelu_out, gelu_tanh, logits;
    std::vector<float> weights_t;
    bool weights_stale = true;
    // Floats held, over every buffer of the one list (inspect.cpp's cache_buffers) and probs.
    std::size_t capacity_floats() const;
    // The weights may change: nothing cached is valid.
    void forget() {
        ids.clear();
        weights_stale = true;
    }
};

// inspect_pass's map argument for every layer's every head.
inline constexpr std::size_t kEveryMap = static_cast<std::size_t>(-1);

// Floats a PrefixCache holds for a call on n ids (validate_inspect in transformer.hpp bounds it).
std::uint64_t inspect_floats(const ModelConfig& cfg, std::uint64_t n);

// Preconditions: the ids validated (validate_sequence, validate_inspect), ws prepared by
// prepare_row_workspace for (n, eval) (head_t, tables, scale); map kEveryMap or < L·h; from_row < n.
// attention_out and surprise_out nullable.
void inspect_pass(const ModelConfig& cfg, const TensorOffsets& at, const float* params, const std::int32_t* tokens,
                  std::size_t n, const EvalOptions& eval, Workspace<float>& ws, PrefixCache& cache,
                  float* attention_out, float* surprise_out, std::size_t map, std::size_t from_row);

}  // namespace posenc::model
