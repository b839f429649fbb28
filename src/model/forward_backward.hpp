// The model of docs/ARCHITECTURE.md ("The trained model") written once over the real type: float in the core
// (the kernels' float overloads are SIMD), double in the tests' reference (tests/cpp).
//
// Shapes (B rows, T positions, N = B·T, d width, h heads, dh = d/h, V vocabulary, L layers):
//   tokens   — B rows of at least T (+1 with targets) ids at row stride `token_stride`
//   x        — N×d residual stream, row r = (b, p) with r = b·T + p
//   qkv      — N×3d (q | k | v, head j at columns j·dh of each part), rotary applied to q and k
//   probs    — B×h×T×T softmax weights, per stored layer
//   logits   — N×V
// Training passes store every layer's activations (slot l); evaluation passes reuse slot 0.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

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

// Float counts of every activation buffer for a pass over (B, T); total() is what the workspace
// limit bounds. Computed in 64 bits: the products exceed a 32-bit size_t for absurd shapes.
struct WorkspaceSizes {
    std::uint64_t stream, per_slot_d, qkv, probs, hidden, stats, logits, weight_t, head_t, dprobs, grads_stream;
    std::uint64_t slots;
    std::uint64_t total() const {
        return stream + slots * (4 * per_slot_d + qkv + probs + 3 * hidden + 2 * stats) + per_slot_d + stats + logits +
               weight_t + head_t + dprobs + grads_stream;
    }
};
WorkspaceSizes workspace_sizes(const ModelConfig& cfg, std::uint64_t B, std::uint64_t T, bool training);

template <class Real>
struct Workspace {
    std::size_t B = 0, T = 0, N = 0, slots = 0;
    bool training = false;
    // Per slot: ln_1 out, attention out, residual after attention, ln_2 out (N·d each); qkv;
    // probs; MLP pre-activation, GELU out, its tanh (N·4d each); LN stats (mean | rstd, 2N).
    std::vector<Real> stream, u1, att, after_attn, u2, qkv, probs, pre, act, act_tanh, stats1, stats2;
    std::vector<Real> uf, statsf, logits, weight_t, head_t;
    std::vector<Real> d_stream, d_u, d_qkv, d_att, d_hidden, dprobs;  // training only
    std::vector<std::int32_t> targets;
    // Cached tables (rebuilt only when n or the options change).
    std::vector<Real> input_table, rope_table;
    std::size_t input_rows = 0, rope_rows = 0;
    EvalOptions rope_options;
    std::vector<double> omega, slopes;
    std::vector<std::int32_t> buckets;
    std::size_t bucket_rows = 0;
    Real scale = 0;

    std::size_t capacity_floats() const {
        std::size_t total = 0;
        for (const auto* v : {&stream, &u1, &att, &after_attn, &u2, &qkv, &probs, &pre, &act, &act_tanh, &stats1,
                              &stats2, &uf, &statsf, &logits, &weight_t, &head_t, &d_stream, &d_u, &d_qkv, &d_att,
                              &d_hidden, &dprobs, &input_table, &rope_table})
            total += v->capacity();
        return total;
    }
};

namespace detail {

template <class Real>
void grow(std::vector<Real>& v, std::uint64_t count) {
    if (v.size() < count) v.resize(static_cast<std::size_t>(count));
}

// Sizes every buffer for (B, T); allocates only when a buffer must grow. The caller has checked
// workspace_sizes(...).total() against the limit.
template <class Real>
void prepare(const ModelConfig& cfg, std::size_t B, std::size_t T, bool training, const EvalOptions& eval,
             Workspace<Real>& ws) {
    const WorkspaceSizes s = workspace_sizes(cfg, B, T, training);
    ws.B = B, ws.T = T, ws.N = B * T, ws.training = training, ws.slots = static_cast<std::size_t>(s.slots);
    grow(ws.stream, s.stream);
    for (auto* v : {&ws.u1, &ws.att, &ws.after_attn, &ws.u2}) grow(*v, s.slots * s.per_slot_d);
    grow(ws.qkv, s.slots * s.qkv);
    grow(ws.probs, s.slots * s.probs);
    for (auto* v : {&ws.pre, &ws.act, &ws.act_tanh}) grow(*v, s.slots * s.hidden);
    grow(ws.stats1, s.slots * s.stats);
    grow(ws.stats2, s.slots * s.stats);
    grow(ws.uf, s.per_slot_d);
    grow(ws.statsf, s.stats);
    grow(ws.logits, s.logits);
    grow(ws.weight_t, s.weight_t);
    grow(ws.head_t, s.head_t);
    if (training) {
        for (auto* v : {&ws.d_stream, &ws.d_u, &ws.d_att}) grow(*v, s.per_slot_d);
        grow(ws.d_qkv, s.qkv);
        grow(ws.d_hidden, s.hidden);
        grow(ws.dprobs, s.dprobs);
    }
    if (ws.targets.size() < B * T) ws.targets.resize(B * T);
    const std::size_t d = cfg.d, dh = cfg.d / cfg.heads;
    const std::size_t width = cfg.scheme == Scheme::additive ? d : cfg.scheme == Scheme::concatenated ? cfg.d_pos : 0;
    if (width && ws.input_rows < T) {  // row p does not depend on n: a longer table serves shorter calls
        if (ws.omega.size() < width / 2) ws.omega.resize(width / 2);
        for (std::size_t i = 0; i < width / 2; ++i) ws.omega[i] = frequency(i, width, cfg.base);
        grow(ws.input_table, std::uint64_t{T} * width);
        sin_cos_table(ws.omega.data(), width / 2, T, ws.input_table.data());
        // positionScale·PE; skipped at 1 (the plain table, bit for bit).
        if (cfg.position_scale != 1.0f) {
            const Real scale = static_cast<Real>(cfg.position_scale);
            for (std::size_t i = 0; i < T * width; ++i) ws.input_table[i] *= scale;
        }
        ws.input_rows = T;
    }
    double qk = 1.0;
    if (cfg.scheme == Scheme::rotary) {
        const double factor = resolved_factor(eval, cfg.context, T);
        RopeScalingConfig rope;
        rope.kind = eval.rope;
        rope.trained_length = static_cast<double>(cfg.context);
        rope.eval_length = static_cast<double>(cfg.context) * factor;
        if (eval.rope == RopeScaling::yarn) qk = yarn_qk_factor(rope_scale_factor(rope));
        const bool same = ws.rope_options.rope == eval.rope && ws.rope_options.factor == factor;
        if (!same || ws.rope_rows < T) {
            if (ws.omega.size() < dh / 2) ws.omega.resize(dh / 2);
            rope_frequencies(dh, cfg.base, rope, ws.omega.data());
            grow(ws.rope_table, std::uint64_t{T} * dh);
            sin_cos_table(ws.omega.data(), dh / 2, T, ws.rope_table.data());
            ws.rope_rows = T;
            ws.rope_options = {eval.rope, factor, false};
        }
    }
    ws.scale = static_cast<Real>(qk * qk / std::sqrt(static_cast<double>(dh)));
    if (cfg.scheme == Scheme::alibi && ws.slopes.size() != cfg.heads) {
        ws.slopes.resize(cfg.heads);
        alibi_slopes(cfg.heads, ws.slopes.data());
    }
    if (cfg.scheme == Scheme::t5 && ws.bucket_rows < T) {
        ws.buckets.resize(T);
        for (std::size_t dist = 0; dist < T; ++dist)
            ws.buckets[dist] = t5_bucket(-static_cast<std::int64_t>(dist), false, cfg.t5_buckets, cfg.t5_max_distance);
        ws.bucket_rows = T;
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
            embed_row(cfg, at, params, tokens[b * token_stride + p], p, ws, ws.stream.data() + (b * ws.T + p) * cfg.d);
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
            const Real* row = ws.d_stream.data() + (b * T + p) * d;
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

template <class Real>
Real* slot(std::vector<Real>& v, const Workspace<Real>& ws, std::size_t l, std::size_t per_slot) {
    return v.data() + (ws.training ? l : 0) * per_slot;
}

// One block's buffers over rows first … T − 1 of B sequences of T positions, m = B·(T − first)
// rows (first > 0 only with B = 1: inspect's recomputed tail). Row buffers (x, x_next, u1, u2,
// att, after_attn: m×d; pre, act, act_tanh: m×4d; stats1, stats2: mean | rstd, 2m) hold those m
// rows; qkv holds every one of the B·T rows (rows before first: the kept keys and values); probs
// one ld×ld map per (b, head), ld ≥ T. u2 and stats2 may alias u1 and stats1.
template <class Real>
struct BlockRows {
    std::size_t B = 0, T = 0, first = 0;
    const Real* x = nullptr;
    Real* x_next = nullptr;
    Real *u1 = nullptr, *stats1 = nullptr, *qkv = nullptr, *probs = nullptr;
    std::size_t ld = 0;
    Real *att = nullptr, *after_attn = nullptr, *u2 = nullptr, *stats2 = nullptr;
    Real *pre = nullptr, *act = nullptr, *act_tanh = nullptr;
    // The block's Wᵀ packed in table order (packed_offset_d2), or null: each W is transposed into
    // ws.weight_t before its product (the same values either way, so the same bits).
    const Real* packed = nullptr;
};

// The block on a row range (DESIGN.md): x → x_next = a + MLP(LN(a)), a = x + Attn(LN(x)). Training
// passes run it on every row; inspect on the rows after the first changed id.
template <class Real>
void block_forward(const ModelConfig& cfg, const TensorOffsets::Layer& at, const Real* params, const Real* t5_table,
                   Workspace<Real>& ws, const BlockRows<Real>& r) {
    const std::size_t d = cfg.d, h = cfg.heads, dh = d / h, T = r.T, first = r.first, m = r.B * (T - first);
    const std::size_t hid = 4 * d;
    auto linear = [&](const Real* in, std::size_t in_width, Tensor w, Tensor b, std::size_t out, Real* y) {
        if (r.packed)
            linear_forward_transposed(in, m, in_width, r.packed + packed_offset_d2(w) * d * d, params + at[b], out, y);
        else
            linear_forward(in, m, in_width, params + at[w], params + at[b], out, ws.weight_t.data(), y);
    };
    layernorm_forward(r.x, m, d, params + at[Tensor::ln1_w], params + at[Tensor::ln1_b], r.u1, r.stats1, r.stats1 + m);
    linear(r.u1, d, Tensor::attn_w, Tensor::attn_b, 3 * d, r.qkv + first * 3 * d);
    if (cfg.scheme == Scheme::rotary)
        for (std::size_t b = 0; b < r.B; ++b)
            for (std::size_t p = first; p < T; ++p) rotate_qk_row(cfg, ws, r.qkv + (b * T + p) * 3 * d, p, false);
    for (std::size_t b = 0; b < r.B; ++b) {
        for (std::size_t head = 0; head < h; ++head) {
            const Real* q = r.qkv + b * T * 3 * d + head * dh;
            attention_head_rows(q, q + d, q + 2 * d, 3 * d, T, first, dh, ws.scale, head_bias(cfg, ws, t5_table, head),
                                ws.head_t.data(), r.probs + (b * h + head) * r.ld * r.ld, r.ld,
                                r.att + b * (T - first) * d + head * dh, d);
        }
    }
    linear(r.att, d, Tensor::proj_w, Tensor::proj_b, d, r.after_attn);
    add_into(r.after_attn, r.x, m * d);
    layernorm_forward(r.after_attn, m, d, params + at[Tensor::ln2_w], params + at[Tensor::ln2_b], r.u2, r.stats2,
                      r.stats2 + m);
    linear(r.u2, d, Tensor::fc_w, Tensor::fc_b, hid, r.pre);
    gelu_forward(r.pre, m * hid, r.act, r.act_tanh);
    linear(r.act, hid, Tensor::mlp_proj_w, Tensor::mlp_proj_b, d, r.x_next);
    add_into(r.x_next, r.after_attn, m * d);
}

// A pass's block l over every row: stream slot l (x_l) → slot l + 1; evaluation passes overwrite x_l.
template <class Real>
BlockRows<Real> pass_rows(const ModelConfig& cfg, Workspace<Real>& ws, std::size_t l) {
    const std::size_t d = cfg.d, N = ws.N, T = ws.T, hid = 4 * d;
    BlockRows<Real> r;
    r.B = ws.B, r.T = T, r.first = 0, r.ld = T;
    r.x = slot(ws.stream, ws, l, N * d);
    r.x_next = slot(ws.stream, ws, l + 1, N * d);
    r.u1 = slot(ws.u1, ws, l, N * d);
    r.stats1 = slot(ws.stats1, ws, l, 2 * N);
    r.qkv = slot(ws.qkv, ws, l, N * 3 * d);
    r.probs = slot(ws.probs, ws, l, ws.B * cfg.heads * T * T);
    r.att = slot(ws.att, ws, l, N * d);
    r.after_attn = slot(ws.after_attn, ws, l, N * d);
    r.u2 = slot(ws.u2, ws, l, N * d);
    r.stats2 = slot(ws.stats2, ws, l, 2 * N);
    r.pre = slot(ws.pre, ws, l, N * hid);
    r.act = slot(ws.act, ws, l, N * hid);
    r.act_tanh = slot(ws.act_tanh, ws, l, N * hid);
    return r;
}

// Backward of block l: ws.d_stream holds dL/dx_{l+1} on entry and dL/dx_l on exit.
template <class Real>
void block_backward(const ModelConfig& cfg, const TensorOffsets::Layer& at, const Real* params, const Real* t5_table,
                    std::size_t l, Workspace<Real>& ws, Real* grads, Real* d_t5) {
    const std::size_t d = cfg.d, h = cfg.heads, dh = d / h, N = ws.N, T = ws.T, hid = 4 * d;
    const Real* x = slot(ws.stream, ws, l, N * d);
    Real* st1 = slot(ws.stats1, ws, l, 2 * N);
    Real* qkv = slot(ws.qkv, ws, l, N * 3 * d);
    Real* probs = slot(ws.probs, ws, l, ws.B * h * T * T);
    Real* st2 = slot(ws.stats2, ws, l, 2 * N);
    Real* d_stream = ws.d_stream.data();
    Real* d_u = ws.d_u.data();
    Real* d_hidden = ws.d_hidden.data();
    linear_backward(slot(ws.act, ws, l, N * hid), d_stream, N, hid, d, params + at[Tensor::mlp_proj_w], d_hidden,
                    grads + at[Tensor::mlp_proj_w], grads + at[Tensor::mlp_proj_b]);
    gelu_backward(slot(ws.pre, ws, l, N * hid), slot(ws.act_tanh, ws, l, N * hid), d_hidden, N * hid, d_hidden);
    linear_backward(slot(ws.u2, ws, l, N * d), d_hidden, N, d, hid, params + at[Tensor::fc_w], d_u, grads + at[Tensor::fc_w],
                    grads + at[Tensor::fc_b]);
    const Real* a = slot(ws.after_attn, ws, l, N * d);
    layernorm_backward(a, d_u, N, d, params + at[Tensor::ln2_w], st2, st2 + N, d_stream, grads + at[Tensor::ln2_w], grads + at[Tensor::ln2_b],
                       true);
    linear_backward(slot(ws.att, ws, l, N * d), d_stream, N, d, d, params + at[Tensor::proj_w], ws.d_att.data(),
                    grads + at[Tensor::proj_w], grads + at[Tensor::proj_b]);
    Real* d_qkv = ws.d_qkv.data();
    for (std::size_t b = 0; b < ws.B; ++b) {
        for (std::size_t head = 0; head < h; ++head) {
            const std::size_t off = b * T * 3 * d + head * dh;
            const HeadBias<Real> bias = head_bias(cfg, ws, t5_table, head);
            attention_head_backward(qkv + off, qkv + off + d, qkv + off + 2 * d, 3 * d, T, dh, ws.scale,
                                    probs + (b * h + head) * T * T, ws.d_att.data() + b * T * d + head * dh, d, bias,
                                    d_t5 ? d_t5 + head : nullptr, ws.head_t.data(), ws.dprobs.data(), d_qkv + off,
                                    d_qkv + off + d, d_qkv + off + 2 * d);
        }
    }
    if (cfg.scheme == Scheme::rotary) rotate_qk(cfg, ws, d_qkv, true);
    linear_backward(slot(ws.u1, ws, l, N * d), d_qkv, N, d, 3 * d, params + at[Tensor::attn_w], d_u, grads + at[Tensor::attn_w],
                    grads + at[Tensor::attn_b]);
    layernorm_backward(x, d_u, N, d, params + at[Tensor::ln1_w], st1, st1 + N, d_stream, grads + at[Tensor::ln1_w], grads + at[Tensor::ln1_b],
                       true);
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
        detail::block_forward(cfg, at.layers[l], params, t5_table, ws, detail::pass_rows(cfg, ws, l));
        if (attention_out) std::memcpy(attention_out + l * probs_size, ws.probs.data(), probs_size * sizeof(Real));
    }
}

// One pass over B rows of T tokens (row b starts at tokens + b·token_stride). Writes ws.logits
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
    const Real* x_last = detail::slot(ws.stream, ws, L, N * d);
    layernorm_forward(x_last, N, d, params + at[Tensor::lnf_w], params + at[Tensor::lnf_b], ws.uf.data(), ws.statsf.data(),
                      ws.statsf.data() + N);
    linear_forward(ws.uf.data(), N, d, params + at[Tensor::lm_head], static_cast<const Real*>(nullptr), V, ws.weight_t.data(),
                   ws.logits.data());
    if (!with_targets) return 0.0;
    for (std::size_t b = 0; b < ws.B; ++b)
        for (std::size_t p = 0; p < T; ++p) ws.targets[b * T + p] = tokens[b * token_stride + p + 1];
    const double loss =
        cross_entropy(ws.logits.data(), ws.targets.data(), mask, N, V, grads ? ws.logits.data() : static_cast<Real*>(nullptr));
    if (!grads) return loss;
    linear_backward(ws.uf.data(), ws.logits.data(), N, d, V, params + at[Tensor::lm_head], ws.d_u.data(), grads + at[Tensor::lm_head],
                    static_cast<Real*>(nullptr));
    layernorm_backward(x_last, ws.d_u.data(), N, d, params + at[Tensor::lnf_w], ws.statsf.data(), ws.statsf.data() + N,
                       ws.d_stream.data(), grads + at[Tensor::lnf_w], grads + at[Tensor::lnf_b], false);
    Real* d_t5 = cfg.scheme == Scheme::t5 ? grads + at[Tensor::t5_bias] : nullptr;
    for (std::size_t l = L; l-- > 0;) detail::block_backward(cfg, at.layers[l], params, t5_table, l, ws, grads, d_t5);
    detail::embed_backward(cfg, at, tokens, token_stride, ws, grads);
    return loss;
}

template <class Real>
void prepare_workspace(const ModelConfig& cfg, std::size_t B, std::size_t T, bool training, const EvalOptions& eval,
                       Workspace<Real>& ws) {
    detail::prepare(cfg, B, T, training, eval, ws);
}

}  // namespace posenc::model
