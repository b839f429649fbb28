// The activation buffers of a pass, written once: kActivationTable gives each its name, size rule
// and meaning, and the workspace's buffers, their sizes (workspace_sizes), their preparation and
// capacity all derive from it, as kTensorTable does for the parameters. Also the cached tables a
// pass reads (CachedTable).
//
// Shapes (B rows, T positions, N = B·T, d width, h heads, dh = d/h, V vocabulary, L layers):
//   a slot is one layer's copy: training passes keep L slots (slot l for block l, read again by
//   its backward), evaluation passes one (slot 0, reused by every block); the stream keeps L + 1
//   (x_0 … x_L) in training and one, overwritten in place, in evaluation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "model/config.hpp"

namespace posenc::model {

enum class Act : unsigned char {
    stream, ln1_out, ln1_stats, qkv, probs, attn_out, after_attn, ln2_out, ln2_stats, mlp_pre, gelu_out, gelu_tanh,
    lnf_out, lnf_stats, logits, weight_t, head_t,
    d_stream, d_ln_out, d_attn_out, d_qkv, d_hidden, d_probs,
};

// Floats of one copy (one slot) as a rule on (cfg, B, T).
enum class ActSize : unsigned char {
    nd,        // N·d
    nd3,       // N·3d
    nd4,       // N·4d
    stats,     // 2N: every row's mean, then every row's 1/√(var + eps)
    probs,     // B·h·T·T
    logits,    // N·V
    weight_t,  // max(4d², V·d): the largest W a linear layer transposes
    head_t,    // dh·T: one head's Kᵀ or Vᵀ
    t2,        // T·T: one head's map
};

// How many copies a pass keeps.
enum class ActCopies : unsigned char {
    pass,      // one
    slot,      // one per slot: L in training, 1 in evaluation
    stream,    // L + 1 in training, 1 in evaluation
    training,  // one in training, none in evaluation
};

struct ActivationRule {
    Act id;
    const char* name;
    ActSize size;
    ActCopies copies;
    const char* meaning;
};

inline constexpr ActivationRule kActivationTable[] = {
    {Act::stream, "stream", ActSize::nd, ActCopies::stream, "the residual stream: x_l, block l's input"},
    {Act::ln1_out, "ln1_out", ActSize::nd, ActCopies::slot, "LN(x; ln_1), c_attn's input"},
    {Act::ln1_stats, "ln1_stats", ActSize::stats, ActCopies::slot, "ln_1's mean | rstd"},
    {Act::qkv, "qkv", ActSize::nd3, ActCopies::slot, "q | k | v (head j at columns j·dh of each), q and k rotated"},
    {Act::probs, "probs", ActSize::probs, ActCopies::slot, "softmax weights, one T×T map per (b, head)"},
    {Act::attn_out, "attn_out", ActSize::nd, ActCopies::slot, "the heads' outputs side by side, attn c_proj's input"},
    {Act::after_attn, "after_attn", ActSize::nd, ActCopies::slot, "a = x + Attn(LN(x)), the residual after attention"},
    {Act::ln2_out, "ln2_out", ActSize::nd, ActCopies::slot, "LN(a; ln_2), c_fc's input"},
    {Act::ln2_stats, "ln2_stats", ActSize::stats, ActCopies::slot, "ln_2's mean | rstd"},
    {Act::mlp_pre, "mlp_pre", ActSize::nd4, ActCopies::slot, "c_fc's output, GELU's input"},
    {Act::gelu_out, "gelu_out", ActSize::nd4, ActCopies::slot, "GELU(mlp_pre), mlp c_proj's input"},
    {Act::gelu_tanh, "gelu_tanh", ActSize::nd4, ActCopies::slot, "GELU's tanh, kept for its backward"},
    {Act::lnf_out, "lnf_out", ActSize::nd, ActCopies::pass, "LN(x_L; ln_f), lm_head's input"},
    {Act::lnf_stats, "lnf_stats", ActSize::stats, ActCopies::pass, "ln_f's mean | rstd"},
    {Act::logits, "logits", ActSize::logits, ActCopies::pass, "lm_head's output; dL/dlogits in place when training"},
    {Act::weight_t, "weight_t", ActSize::weight_t, ActCopies::pass, "scratch: a W transposed before its product"},
    {Act::head_t, "head_t", ActSize::head_t, ActCopies::pass, "scratch: one head's Kᵀ or Vᵀ"},
    {Act::d_stream, "d_stream", ActSize::nd, ActCopies::training, "dL/dx, from x_L back to x_0"},
    {Act::d_ln_out, "d_ln_out", ActSize::nd, ActCopies::training, "dL/d a LayerNorm's output: ln_f's, ln_2's, ln_1's"},
    {Act::d_attn_out, "d_attn_out", ActSize::nd, ActCopies::training, "dL/d attn_out"},
    {Act::d_qkv, "d_qkv", ActSize::nd3, ActCopies::training, "dL/d qkv, un-rotated before c_attn's backward"},
    {Act::d_hidden, "d_hidden", ActSize::nd4, ActCopies::training, "dL/d gelu_out, then dL/d mlp_pre in place"},
    {Act::d_probs, "d_probs", ActSize::t2, ActCopies::training, "scratch: one head's dL/dprobs"},
};
inline constexpr std::size_t kActivationCount = sizeof(kActivationTable) / sizeof(kActivationTable[0]);

namespace table_check {
constexpr bool activations_in_order() {
    for (std::size_t i = 0; i < kActivationCount; ++i)
        if (static_cast<std::size_t>(kActivationTable[i].id) != i) return false;
    return true;
}
static_assert(activations_in_order(), "kActivationTable: row i must be Act i");
}  // namespace table_check

// Float counts of every activation buffer for a pass over (B, T), from kActivationTable: one_copy
// per slot, floats in all. total() is what the workspace limit bounds. Computed in 64 bits: the
// products exceed a 32-bit size_t for absurd shapes.
struct WorkspaceSizes {
    std::uint64_t one_copy[kActivationCount] = {};
    std::uint64_t floats[kActivationCount] = {};
    std::uint64_t slots = 0;
    std::uint64_t total() const {
        std::uint64_t sum = 0;
        for (std::uint64_t f : floats) sum += f;
        return sum;
    }
};
WorkspaceSizes workspace_sizes(const ModelConfig& cfg, std::uint64_t B, std::uint64_t T, bool training);
// Floats of the one buffer a pass over cached rows sizes (prepare_row_workspace): head_t for T positions.
std::uint64_t row_workspace_floats(const ModelConfig& cfg, std::uint64_t T);

// A table a pass reads, built from the config for `rows` rows (positions, distances or heads) and
// kept between passes: rebuilt only when a pass needs more rows than it holds or asks for another
// key (RoPE's scaling and factor). Row p never depends on how many rows are built, so a longer
// table serves a shorter pass. values may be longer than rows · width (it never shrinks).
template <class Value, class Key = bool>
struct CachedTable {
    std::vector<Value> values;
    std::size_t rows = 0;
    Key key{};

    // Calls build(values, need) unless the table already holds `need` rows for `want`.
    template <class Build>
    void ensure(std::size_t need, const Key& want, Build&& build) {
        if (rows >= need && key == want) return;
        build(values, need);
        rows = need;
        key = want;
    }
    const Value* data() const { return values.data(); }
    const Value& operator[](std::size_t i) const { return values[i]; }
};

}  // namespace posenc::model
