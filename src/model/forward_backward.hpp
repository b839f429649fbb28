// The model of docs/ARCHITECTURE.md ("The trained model") written once over the real type: float in the core
// (the kernels' float overloads are SIMD), double in the tests' reference (tests/cpp).
//
// Shapes (B rows, T positions, N = B·T, d width, h heads, dh = d/h, V vocabulary, L layers):
//   tokens   — B rows of at least T (+1 with targets) ids at row stride `token_stride`
//   x        — N×d residual stream, row r = (b, p) with r = b·T + p
//   qkv      — N×3d (q | k | v, head j at columns j·dh of each part), rotary applied to q and k
//   probs    — B×h×T×T softmax weights, per stored layer
//   logits   — N×V
// Every activation buffer, its size and meaning: kActivationTable (activations.hpp). Training
// passes store every layer's activations (slot l); evaluation passes reuse slot 0.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "model/activations.hpp"
#include "model/attention_train.hpp"
#include "model/config.hpp"
#include "model/cross_entropy.hpp"
#include "model/gelu.hpp"
#include "model/layernorm.hpp"
#include "model/row_ops.hpp"
#include "model/linear.hpp"
#include "model/position_tables.hpp"
#include "encodings/schemes.hpp"

namespace posenc::model {

// Evaluation-time context extension for rotary models (docs/ARCHITECTURE.md, "Longer contexts at evaluation"; the
// JS contract): factor s, RoPE frequencies per head from rope_frequencies with d_h for d.
// factor_from_length (JS: ropeScaling without a factor): s follows each evaluated length n,
// max(1, n / context), the explorer's scaleFactor rule (rope_scale_factor); the one home of that
// rule for every evaluation caller. factor is then unused.
struct EvalOptions {
    RopeScaling rope = RopeScaling::none;
    double factor = 1.0;
    bool factor_from_length = false;
};

// s for a pass over n positions. Derived as context · max(1, n / context) / context, the value a
// caller passing max(1, n / context) itself gets, so both give the same bits.
// Plain RoPE (rope none) ignores s: 1, so its tables and inspect's rows stay valid as n grows.
inline double resolved_factor(const EvalOptions& eval, std::size_t context, std::size_t n) {
    if (eval.rope == RopeScaling::none) return 1.0;
    if (!eval.factor_from_length) return eval.factor;
    return std::max(1.0, static_cast<double>(n) / static_cast<double>(context));
}

// The options a RoPE table was built for: the scaling and its resolved factor.
struct RopeKey {
    RopeScaling rope = RopeScaling::none;
    double factor = 1.0;
    bool operator==(const RopeKey& o) const { return rope == o.rope && factor == o.factor; }
};

template <class Real>
struct Workspace {
    std::size_t B = 0, T = 0, N = 0, slots = 0;
    bool training = false;
    // kActivationTable's buffers, indexed by Act; one_copy[a] floats per slot.
    std::vector<Real> buffers[kActivationCount];
    std::size_t one_copy[kActivationCount] = {};
    std::vector<std::int32_t> targets;
    CachedTable<Real> input_table;          // additive, concatenated: positionScale·PE, rows × width
    CachedTable<Real, RopeKey> rope_table;  // rotary: sin | cos of p·ω_i per pair, rows × dh
    CachedTable<double> slopes;             // ALiBi: one slope per head
    CachedTable<std::int32_t> buckets;      // T5: the bucket of each distance 0 … rows − 1
    std::vector<double> omega;              // the last sinusoid's or RoPE table's frequencies
    Real scale = 0;                         // the logit scale, YaRN's factor on q and k included

    std::vector<Real>& buffer(Act a) { return buffers[static_cast<std::size_t>(a)]; }
    const std::vector<Real>& buffer(Act a) const { return buffers[static_cast<std::size_t>(a)]; }
    Real* data(Act a) { return buffer(a).data(); }
    const Real* data(Act a) const { return buffer(a).data(); }
    // Copy l of a slot or stream buffer: l in training, 0 in evaluation (every block shares it).
    Real* slot(Act a, std::size_t l) { return data(a) + (training ? l : 0) * one_copy[static_cast<std::size_t>(a)]; }

    std::size_t capacity_floats() const {
        std::size_t total = input_table.values.capacity() + rope_table.values.capacity();
        for (const std::vector<Real>& v : buffers) total += v.capacity();
        return total;
    }
};

namespace detail {

template <class Real>
void grow(std::vector<Real>& v, std::uint64_t count) {
    if (v.size() < count) v.resize(static_cast<std::size_t>(count));
}

// Sizes every activation buffer for (B, T) from kActivationTable; allocates only when a buffer
// must grow. The caller has checked workspace_sizes(...).total() against the limit.
template <class Real>
void size_activations(const ModelConfig& cfg, std::size_t B, std::size_t T, bool training, Workspace<Real>& ws) {
    const WorkspaceSizes s = workspace_sizes(cfg, B, T, training);
    ws.B = B, ws.T = T, ws.N = B * T, ws.training = training, ws.slots = static_cast<std::size_t>(s.slots);
    for (std::size_t a = 0; a < kActivationCount; ++a) {
        grow(ws.buffers[a], s.floats[a]);
        ws.one_copy[a] = static_cast<std::size_t>(s.one_copy[a]);
    }
    if (ws.targets.size() < B * T) ws.targets.resize(B * T);
}

// The tables a pass over T positions reads, each rebuilt only when stale (CachedTable), and the
// logit scale.
template <class Real>
void refresh_tables(const ModelConfig& cfg, std::size_t T, const EvalOptions& eval, Workspace<Real>& ws) {
    const std::size_t d = cfg.d, dh = cfg.d / cfg.heads;
    const std::size_t width = cfg.scheme == Scheme::additive ? d : cfg.scheme == Scheme::concatenated ? cfg.d_pos : 0;
    if (width) {
        ws.input_table.ensure(T, {}, [&](std::vector<Real>& table, std::size_t rows) {
            if (ws.omega.size() < width / 2) ws.omega.resize(width / 2);
            for (std::size_t i = 0; i < width / 2; ++i) ws.omega[i] = frequency(i, width, cfg.base);
            grow(table, std::uint64_t{rows} * width);
            sin_cos_table(ws.omega.data(), width / 2, rows, table.data());
            // positionScale·PE; skipped at 1 (the plain table, bit for bit).
            if (cfg.position_scale != 1.0f) {
                const Real scale = static_cast<Real>(cfg.position_scale);
                for (std::size_t i = 0; i < rows * width; ++i) table[i] *= scale;
            }
        });
    }
    double qk = 1.0;
    if (cfg.scheme == Scheme::rotary) {
        const double factor = resolved_factor(eval, cfg.context, T);
        RopeScalingConfig rope;
        rope.kind = eval.rope;
        rope.trained_length = static_cast<double>(cfg.context);
        rope.eval_length = static_cast<double>(cfg.context) * factor;
        if (eval.rope == RopeScaling::yarn) qk = yarn_qk_factor(rope_scale_factor(rope));
        ws.rope_table.ensure(T, RopeKey{eval.rope, factor}, [&](std::vector<Real>& table, std::size_t rows) {
            if (ws.omega.size() < dh / 2) ws.omega.resize(dh / 2);
            rope_frequencies(dh, cfg.base, rope, ws.omega.data());
            grow(table, std::uint64_t{rows} * dh);
            sin_cos_table(ws.omega.data(), dh / 2, rows, table.data());
        });
    }
    ws.scale = static_cast<Real>(qk * qk / std::sqrt(static_cast<double>(dh)));
    if (cfg.scheme == Scheme::alibi) {
        ws.slopes.ensure(cfg.heads, {}, [](std::vector<double>& slopes, std::size_t heads) {
            slopes.resize(heads);
            alibi_slopes(heads, slopes.data());
        });
    }
    if (cfg.scheme == Scheme::t5) {
        ws.buckets.ensure(T, {}, [&](std::vector<std::int32_t>& buckets, std::size_t rows) {
            buckets.resize(rows);
            for (std::size_t dist = 0; dist < rows; ++dist)
                buckets[dist] = t5_bucket(-static_cast<std::int64_t>(dist), false, cfg.t5_buckets, cfg.t5_max_distance);
        });
    }
}

template <class Real>
HeadBias<Real> head_bias(const ModelConfig& cfg, const Workspace<Real>& ws, const Real* t5_table, std::size_t head) {
    HeadBias<Real> bias;
    if (cfg.scheme == Scheme::alibi) {
        bias.kind = HeadBias<Real>::Kind::alibi;
        bias.slope = ws.slopes[head];
    } else if (cfg.scheme == Scheme::t5) {
        bias.kind = HeadBias<Real>::Kind::t5;
        bias.t5_values = t5_table + head;
        bias.t5_stride = cfg.heads;
        bias.bucket_of_distance = ws.buckets.data();
    }
    return bias;
}

// The input row x_p of token `token` at position p (docs/ARCHITECTURE.md, "Input") into row (d floats).
template <class Real>
void embed_row(const ModelConfig& cfg, const TensorOffsets& at, const Real* params, std::int32_t token, std::size_t p,
               const Workspace<Real>& ws, Real* row) {
    const std::size_t d = cfg.d;
    const std::size_t wte_cols = cfg.scheme == Scheme::concatenated ? d - cfg.d_pos : d;
    scale_into(row, static_cast<Real>(cfg.alpha), params + at[Tensor::wte] + static_cast<std::size_t>(token) * wte_cols, wte_cols);
    if (cfg.scheme == Scheme::additive) {
        add_into(row, ws.input_table.data() + p * d, d);
    } else if (cfg.scheme == Scheme::learned) {
        add_into(row, params + at[Tensor::wpe] + p * d, d);
    } else if (cfg.scheme == Scheme::concatenated) {
        for (std::size_t j = 0; j < cfg.d_pos; ++j) row[wte_cols + j] = ws.input_table[p * cfg.d_pos + j];
    }
}

template <class Real>
void embed(const ModelConfig& cfg, const TensorOffsets& at, const Real* params, const std::int32_t* tokens,
           std::size_t token_stride, Workspace<Real>& ws) {
    for (std::size_t b = 0; b < ws.B; ++b)
        for (std::size_t p = 0; p < ws.T; ++p)
            embed_row(cfg, at, params, tokens[b * token_stride + p], p, ws, ws.data(Act::stream) + (b * ws.T + p) * cfg.d);
}

template <class Real>
void embed_backward(const ModelConfig& cfg, const TensorOffsets& at, const std::int32_t* tokens,
                    std::size_t token_stride, const Workspace<Real>& ws, Real* grads) {
    const std::size_t d = cfg.d, T = ws.T;
    const std::size_t wte_cols = cfg.scheme == Scheme::concatenated ? d - cfg.d_pos : d;
    const Real alpha = static_cast<Real>(cfg.alpha);
    for (std::size_t b = 0; b < ws.B; ++b) {
        for (std::size_t p = 0; p < T; ++p) {
            Real* word = grads + at[Tensor::wte] + static_cast<std::size_t>(tokens[b * token_stride + p]) * wte_cols;
            const Real* row = ws.data(Act::d_stream) + (b * T + p) * d;
            add_scaled_into(word, alpha, row, wte_cols);
            if (cfg.scheme == Scheme::learned) add_into(grads + at[Tensor::wpe] + p * d, row, d);
        }
    }
}

// Rotates (or, inverse, un-rotates a gradient of) the q and k parts of every row of a qkv-shaped
// buffer.
template <class Real>
void rotate_qk_row(const ModelConfig& cfg, const Workspace<Real>& ws, Real* qkv_row, std::size_t p, bool inverse) {
    const std::size_t d = cfg.d, dh = d / cfg.heads;
    const Real* angles = ws.rope_table.data() + p * dh;
    for (std::size_t part = 0; part < 2; ++part)
        for (std::size_t head = 0; head < cfg.heads; ++head)
            rotate_head(qkv_row + part * d + head * dh, dh, cfg.pairing, angles, inverse);
}

template <class Real>
void rotate_qk(const ModelConfig& cfg, Workspace<Real>& ws, Real* qkv, bool inverse) {
    for (std::size_t r = 0; r < ws.N; ++r) rotate_qk_row(cfg, ws, qkv + r * 3 * cfg.d, r % ws.T, inverse);
}

// One block's buffers over rows first … T − 1 of B sequences of T positions, m = B·(T − first)
// rows (first > 0 only with B = 1: inspect's recomputed tail); names and meanings as in
// kActivationTable. Row buffers (x, x_next, ln1_out, ln2_out, attn_out, after_attn: m×d; mlp_pre,
// gelu_out, gelu_tanh: m×4d; ln1_stats, ln2_stats: mean | rstd, 2m) hold those m rows; qkv holds
// every one of the B·T rows (rows before first: the kept keys and values); probs one ld×ld map
// per (b, head), ld ≥ T, or rows in blocks (probs_blocks). ln2_out and ln2_stats may alias
// ln1_out and ln1_stats.
template <class Real>
struct BlockRows {
    std::size_t B = 0, T = 0, first = 0;
    const Real* x = nullptr;
    Real* x_next = nullptr;
    Real *ln1_out = nullptr, *ln1_stats = nullptr, *qkv = nullptr, *probs = nullptr;
    std::size_t ld = 0;
    // Or, where probs_blocks is set (inspect's cache): rows in blocks of `block` rows, block k
    // holding rows k·block … (k + 1)·block − 1 of every map, map-major, at row stride (k + 1)·block;
    // this block's (b, head) map is map0 + b·h + head.
    Real* const* probs_blocks = nullptr;
    std::size_t block = 0, map0 = 0;
    Real *attn_out = nullptr, *after_attn = nullptr, *ln2_out = nullptr, *ln2_stats = nullptr;
    Real *mlp_pre = nullptr, *gelu_out = nullptr, *gelu_tanh = nullptr;
    // The block's Wᵀ packed in table order (packed_offset_d2), or null: each W is transposed into
    // ws.weight_t before its product (the same values either way, so the same bits).
    const Real* packed = nullptr;
};

// The row stride of the probs block holding row i (BlockRows::probs_blocks's layout): (k + 1)·block
// for block k, which row i's columns 0 … i fit.
inline std::size_t block_stride(std::size_t block, std::size_t i) { return (i / block + 1) * block; }

// Map `map`'s row i in probs blocks of `block` rows (BlockRows::probs_blocks's layout): with
// block_stride, the one place that layout is addressed.
template <class Real>
Real* block_row(Real* const* blocks, std::size_t block, std::size_t map, std::size_t i) {
    const std::size_t k = i / block;
    return blocks[k] + (map * block + i - k * block) * block_stride(block, i);
}

// The block on a row range, x → x_next = a + MLP(LN(a)) with a = x + Attn(LN(x)), as in
// docs/ARCHITECTURE.md, "Block (pre-LayerNorm, decoder-only, GPT-2 style)". Training passes run it
// on every row; inspect on the rows after the first changed id.
template <class Real>
void block_forward(const ModelConfig& cfg, const TensorOffsets::Layer& at, const Real* params, const Real* t5_table,
                   Workspace<Real>& ws, const BlockRows<Real>& r) {
    const std::size_t d = cfg.d, h = cfg.heads, dh = d / h, T = r.T, first = r.first, m = r.B * (T - first);
    const std::size_t hid = 4 * d;
    auto linear = [&](const Real* in, std::size_t in_width, Tensor w, Tensor b, std::size_t out, Real* y) {
        if (r.packed)
            linear_forward_transposed(in, m, in_width, r.packed + packed_offset_d2(w) * d * d, params + at[b], out, y);
        else
            linear_forward(in, m, in_width, params + at[w], params + at[b], out, ws.data(Act::weight_t), y);
    };
    layernorm_forward(r.x, m, d, params + at[Tensor::ln1_w], params + at[Tensor::ln1_b], r.ln1_out, r.ln1_stats, r.ln1_stats + m);
    linear(r.ln1_out, d, Tensor::attn_w, Tensor::attn_b, 3 * d, r.qkv + first * 3 * d);
    if (cfg.scheme == Scheme::rotary)
        for (std::size_t b = 0; b < r.B; ++b)
            for (std::size_t p = first; p < T; ++p) rotate_qk_row(cfg, ws, r.qkv + (b * T + p) * 3 * d, p, false);
    for (std::size_t b = 0; b < r.B; ++b) {
        for (std::size_t head = 0; head < h; ++head) {
            const Real* q = r.qkv + b * T * 3 * d + head * dh;
            Real* out = r.attn_out + b * (T - first) * d + head * dh;
            const HeadBias<Real> bias = head_bias(cfg, ws, t5_table, head);
            if (!r.probs_blocks) {
                attention_head_rows(q, q + d, q + 2 * d, 3 * d, T, first, dh, ws.scale, bias, ws.data(Act::head_t),
                                    r.probs + ((b * h + head) * r.ld + first) * r.ld, r.ld, out, d);
                continue;
            }
            // Block by block: causal rows s0 … s1 − 1 read keys 0 … s1 − 1 only, within their block's row stride.
            for (std::size_t s0 = first; s0 < T;) {
                const std::size_t ld = block_stride(r.block, s0), s1 = std::min(T, ld);
                attention_head_rows(q, q + d, q + 2 * d, 3 * d, s1, s0, dh, ws.scale, bias, ws.data(Act::head_t),
                                    block_row(r.probs_blocks, r.block, r.map0 + b * h + head, s0), ld,
                                    out + (s0 - first) * d, d);
                s0 = s1;
            }
        }
    }
    linear(r.attn_out, d, Tensor::proj_w, Tensor::proj_b, d, r.after_attn);
    add_into(r.after_attn, r.x, m * d);
    layernorm_forward(r.after_attn, m, d, params + at[Tensor::ln2_w], params + at[Tensor::ln2_b], r.ln2_out, r.ln2_stats,
                      r.ln2_stats + m);
    linear(r.ln2_out, d, Tensor::fc_w, Tensor::fc_b, hid, r.mlp_pre);
    gelu_forward(r.mlp_pre, m * hid, r.gelu_out, r.gelu_tanh);
    linear(r.gelu_out, hid, Tensor::mlp_proj_w, Tensor::mlp_proj_b, d, r.x_next);
    add_into(r.x_next, r.after_attn, m * d);
}

// A pass's block l over every row: stream slot l (x_l) → slot l + 1; evaluation passes overwrite x_l.
template <class Real>
BlockRows<Real> pass_rows(Workspace<Real>& ws, std::size_t l) {
    BlockRows<Real> r;
    r.B = ws.B, r.T = ws.T, r.first = 0, r.ld = ws.T;
    r.x = ws.slot(Act::stream, l);
    r.x_next = ws.slot(Act::stream, l + 1);
    r.ln1_out = ws.slot(Act::ln1_out, l);
    r.ln1_stats = ws.slot(Act::ln1_stats, l);
    r.qkv = ws.slot(Act::qkv, l);
    r.probs = ws.slot(Act::probs, l);
    r.attn_out = ws.slot(Act::attn_out, l);
    r.after_attn = ws.slot(Act::after_attn, l);
    r.ln2_out = ws.slot(Act::ln2_out, l);
    r.ln2_stats = ws.slot(Act::ln2_stats, l);
    r.mlp_pre = ws.slot(Act::mlp_pre, l);
    r.gelu_out = ws.slot(Act::gelu_out, l);
    r.gelu_tanh = ws.slot(Act::gelu_tanh, l);
    return r;
}

// Backward of block l: d_stream holds dL/dx_{l+1} on entry and dL/dx_l on exit.
template <class Real>
void block_backward(const ModelConfig& cfg, const TensorOffsets::Layer& at, const Real* params, const Real* t5_table,
                    std::size_t l, Workspace<Real>& ws, Real* grads, Real* d_t5) {
    const std::size_t d = cfg.d, h = cfg.heads, dh = d / h, N = ws.N, T = ws.T, hid = 4 * d;
    const Real* x = ws.slot(Act::stream, l);
    const Real* ln1_stats = ws.slot(Act::ln1_stats, l);
    const Real* qkv = ws.slot(Act::qkv, l);
    const Real* probs = ws.slot(Act::probs, l);
    const Real* ln2_stats = ws.slot(Act::ln2_stats, l);
    Real* d_stream = ws.data(Act::d_stream);
    Real* d_ln_out = ws.data(Act::d_ln_out);
    Real* d_attn_out = ws.data(Act::d_attn_out);
    Real* d_hidden = ws.data(Act::d_hidden);
    Real* d_qkv = ws.data(Act::d_qkv);
    linear_backward(ws.slot(Act::gelu_out, l), d_stream, N, hid, d, params + at[Tensor::mlp_proj_w], d_hidden,
                    grads + at[Tensor::mlp_proj_w], grads + at[Tensor::mlp_proj_b]);
    gelu_backward(ws.slot(Act::mlp_pre, l), ws.slot(Act::gelu_tanh, l), d_hidden, N * hid, d_hidden);
    linear_backward(ws.slot(Act::ln2_out, l), d_hidden, N, d, hid, params + at[Tensor::fc_w], d_ln_out,
                    grads + at[Tensor::fc_w], grads + at[Tensor::fc_b]);
    layernorm_backward(ws.slot(Act::after_attn, l), d_ln_out, N, d, params + at[Tensor::ln2_w], ln2_stats, ln2_stats + N,
                       d_stream, grads + at[Tensor::ln2_w], grads + at[Tensor::ln2_b], true);
    linear_backward(ws.slot(Act::attn_out, l), d_stream, N, d, d, params + at[Tensor::proj_w], d_attn_out,
                    grads + at[Tensor::proj_w], grads + at[Tensor::proj_b]);
    for (std::size_t b = 0; b < ws.B; ++b) {
        for (std::size_t head = 0; head < h; ++head) {
            const std::size_t off = b * T * 3 * d + head * dh;
            const HeadBias<Real> bias = head_bias(cfg, ws, t5_table, head);
            attention_head_backward(qkv + off, qkv + off + d, qkv + off + 2 * d, 3 * d, T, dh, ws.scale,
                                    probs + (b * h + head) * T * T, d_attn_out + b * T * d + head * dh, d, bias,
                                    d_t5 ? d_t5 + head : nullptr, ws.data(Act::head_t), ws.data(Act::d_probs),
                                    d_qkv + off, d_qkv + off + d, d_qkv + off + 2 * d);
        }
    }
    if (cfg.scheme == Scheme::rotary) rotate_qk(cfg, ws, d_qkv, true);
    linear_backward(ws.slot(Act::ln1_out, l), d_qkv, N, d, 3 * d, params + at[Tensor::attn_w], d_ln_out,
                    grads + at[Tensor::attn_w], grads + at[Tensor::attn_b]);
    layernorm_backward(x, d_ln_out, N, d, params + at[Tensor::ln1_w], ln1_stats, ln1_stats + N, d_stream,
                       grads + at[Tensor::ln1_w], grads + at[Tensor::ln1_b], true);
}

}  // namespace detail

// The blocks of a pass (no final LayerNorm, no lm_head): the stream's last slot holds x_L.
// attention_out (nullable, evaluation with B = 1): every layer's and head's weights, L·h·T·T.
template <class Real>
void forward_blocks(const ModelConfig& cfg, const TensorOffsets& at, const Real* params, const std::int32_t* tokens,
                    std::size_t token_stride, Workspace<Real>& ws, Real* attention_out) {
    const Real* t5_table = cfg.scheme == Scheme::t5 ? params + at[Tensor::t5_bias] : nullptr;
    detail::embed(cfg, at, params, tokens, token_stride, ws);
    const std::size_t probs_size = ws.B * cfg.heads * ws.T * ws.T;
    for (std::size_t l = 0; l < cfg.layers; ++l) {
        detail::block_forward(cfg, at.layers[l], params, t5_table, ws, detail::pass_rows(ws, l));
        if (attention_out) std::memcpy(attention_out + l * probs_size, ws.data(Act::probs), probs_size * sizeof(Real));
    }
}

// One pass over B rows of T tokens (row b starts at tokens + b·token_stride). Writes the logits
// (N×V). With targets (tokens[b][p + 1]): returns the mean masked loss, and with grads (zeroed
// by the caller, parameter layout) adds the gradient. attention_out (nullable, evaluation with
// B = 1): every layer's and head's weights, L·h·T·T. Preconditions: the inputs validated, the
// workspace prepared by prepare_workspace for (B, T, grads != null, eval).
template <class Real>
double run_pass(const ModelConfig& cfg, const TensorOffsets& at, const Real* params, const std::int32_t* tokens,
                std::size_t token_stride, bool with_targets, const std::uint8_t* mask, Workspace<Real>& ws, Real* grads,
                Real* attention_out) {
    const std::size_t d = cfg.d, N = ws.N, V = cfg.vocab, L = cfg.layers, T = ws.T;
    const Real* t5_table = cfg.scheme == Scheme::t5 ? params + at[Tensor::t5_bias] : nullptr;
    forward_blocks(cfg, at, params, tokens, token_stride, ws, attention_out);
    const Real* x_last = ws.slot(Act::stream, L);
    Real* lnf_out = ws.data(Act::lnf_out);
    Real* lnf_stats = ws.data(Act::lnf_stats);
    Real* logits = ws.data(Act::logits);
    layernorm_forward(x_last, N, d, params + at[Tensor::lnf_w], params + at[Tensor::lnf_b], lnf_out, lnf_stats,
                      lnf_stats + N);
    linear_forward(lnf_out, N, d, params + at[Tensor::lm_head], static_cast<const Real*>(nullptr), V,
                   ws.data(Act::weight_t), logits);
    if (!with_targets) return 0.0;
    for (std::size_t b = 0; b < ws.B; ++b)
        for (std::size_t p = 0; p < T; ++p) ws.targets[b * T + p] = tokens[b * token_stride + p + 1];
    const double loss = cross_entropy(logits, ws.targets.data(), mask, N, V, grads ? logits : static_cast<Real*>(nullptr));
    if (!grads) return loss;
    // logits now hold dL/dlogits.
    Real* d_ln_out = ws.data(Act::d_ln_out);
    linear_backward(lnf_out, logits, N, d, V, params + at[Tensor::lm_head], d_ln_out, grads + at[Tensor::lm_head],
                    static_cast<Real*>(nullptr));
    layernorm_backward(x_last, d_ln_out, N, d, params + at[Tensor::lnf_w], lnf_stats, lnf_stats + N, ws.data(Act::d_stream),
                       grads + at[Tensor::lnf_w], grads + at[Tensor::lnf_b], false);
    Real* d_t5 = cfg.scheme == Scheme::t5 ? grads + at[Tensor::t5_bias] : nullptr;
    for (std::size_t l = L; l-- > 0;) detail::block_backward(cfg, at.layers[l], params, t5_table, l, ws, grads, d_t5);
    detail::embed_backward(cfg, at, tokens, token_stride, ws, grads);
    return loss;
}

// Sizes the activations for (B, T) and refreshes the tables a pass reads (the caller has checked
// workspace_sizes(...).total() against the limit).
template <class Real>
void prepare_workspace(const ModelConfig& cfg, std::size_t B, std::size_t T, bool training, const EvalOptions& eval,
                       Workspace<Real>& ws) {
    detail::size_activations(cfg, B, T, training, ws);
    detail::refresh_tables(cfg, T, eval, ws);
}

// What a pass over cached rows (inspect_pass, model/inspect.hpp) reads from the workspace for T
// positions: head_t, the tables and the scale. Its activations live in its PrefixCache, so a whole
// pass's (h·T² weights, T·V logits, …) are not sized: grown with T as a reader types, they would be
// copied and zeroed onto fresh pages and never read. Only head_t of the buffers holds T rows
// afterwards; a whole pass prepares the workspace again.
template <class Real>
void prepare_row_workspace(const ModelConfig& cfg, std::size_t T, const EvalOptions& eval, Workspace<Real>& ws) {
    const auto head_t = static_cast<std::size_t>(Act::head_t);
    ws.B = 1, ws.T = T, ws.N = T, ws.training = false;
    ws.one_copy[head_t] = static_cast<std::size_t>(row_workspace_floats(cfg, T));
    detail::grow(ws.buffers[head_t], ws.one_copy[head_t]);
    detail::refresh_tables(cfg, T, eval, ws);
}

}  // namespace posenc::model
