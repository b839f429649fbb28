#include "model/inspect.hpp"

#include <algorithm>
#include <array>
#include <cstring>

#include "model/cross_entropy.hpp"
#include "model/layernorm.hpp"
#include "model/linear.hpp"

namespace posenc::model {

namespace {

// Rows the cache is sized for: a multiple of 64, so typing past n rarely regrows it (a regrow
// moves the kept rows to the new row stride).
constexpr std::uint64_t kCacheRowStep = 64;
// lm_head rows per product: the logits scratch stays kHeadRows·V whatever n is.
constexpr std::size_t kHeadRows = 16;

std::uint64_t cache_rows(std::uint64_t n) { return (n + kCacheRowStep - 1) / kCacheRowStep * kCacheRowStep; }

template <class T>
void ensure(std::vector<T>& v, std::uint64_t count) {
    if (v.size() < count) v.resize(static_cast<std::size_t>(count));
}

// Rows of the previous call still valid for ids (0 when the options changed).
std::size_t reusable_rows(const PrefixCache& c, const std::int32_t* tokens, std::size_t n, const EvalOptions& eval) {
    // eval's factor is resolved (factor_from_length already turned into n's s), as is the cache's.
    if (c.ids.empty() || c.eval.rope != eval.rope || c.eval.factor != eval.factor) return 0;
    const std::size_t common = std::min(n, c.ids.size());
    return static_cast<std::size_t>(std::mismatch(tokens, tokens + common, c.ids.begin()).first - tokens);
}

// weights_t's layout (inspect.hpp): layer l's packed block (packed_offset_d2) at l·12d², lm_head's
// after the layers.
std::size_t layer_weights_t(const ModelConfig& cfg, std::size_t l) { return l * kPackedLayerD2 * cfg.d * cfg.d; }

// The sizes a PrefixCache's buffers are given for a call on n ids, cap = cache_rows(n) (the zero
// shape when only the buffers themselves are read).
struct CacheShape {
    std::uint64_t cap = 0, d = 0, layers = 0, heads = 0, vocab = 0;
};
CacheShape cache_shape(const ModelConfig& cfg, std::uint64_t n) { return {cache_rows(n), cfg.d, cfg.layers, cfg.heads, cfg.vocab}; }

struct CacheBuffer {
    std::vector<float> PrefixCache::*member;
    std::uint64_t floats;
};

// Every float buffer of a PrefixCache but the probs blocks, and its size (inspect.hpp's shapes):
// the one list that size_cache, inspect_floats and capacity_floats read.
std::array<CacheBuffer, 14> cache_buffers(const CacheShape& s) {
    const std::uint64_t cap = s.cap, d = s.d, L = s.layers;
    return {{
        {&PrefixCache::stream, (L + 1) * cap * d},
        {&PrefixCache::qkv, L * cap * 3 * d},
        {&PrefixCache::surprise, cap},
        {&PrefixCache::final, cap * d},
        {&PrefixCache::normalizer, cap},
        {&PrefixCache::ln_out, cap * d},
        {&PrefixCache::ln_stats, 2 * cap},
        {&PrefixCache::attn_out, cap * d},
        {&PrefixCache::after_attn, cap * d},
        {&PrefixCache::mlp_pre, cap * 4 * d},
        {&PrefixCache::gelu_out, cap * 4 * d},
        {&PrefixCache::gelu_tanh, cap * 4 * d},
        {&PrefixCache::logits, std::uint64_t{kHeadRows} * s.vocab},
        {&PrefixCache::weights_t, L * kPackedLayerD2 * d * d + d * s.vocab},
    }};
}

// Floats of probs block k (inspect.hpp's shapes): kCacheRowStep rows of each of the L·h maps at
// row stride (k + 1)·kCacheRowStep.
std::uint64_t probs_block_floats(const CacheShape& s, std::uint64_t k) {
    const auto step = static_cast<std::size_t>(kCacheRowStep);
    return s.layers * s.heads * kCacheRowStep * detail::block_stride(step, static_cast<std::size_t>(k) * step);
}

// Floats of the cap / kCacheRowStep probs blocks of a call's shape.
std::uint64_t probs_floats(const CacheShape& s) {
    std::uint64_t total = 0;
    for (std::uint64_t k = 0; k < s.cap / kCacheRowStep; ++k) total += probs_block_floats(s, k);
    return total;
}

void transpose_weights(const ModelConfig& cfg, const TensorOffsets& at, const float* params, PrefixCache& c) {
    const std::size_t d = cfg.d;
    c.weights_t.resize(layer_weights_t(cfg, cfg.layers) + d * cfg.vocab);
    for (std::size_t l = 0; l < cfg.layers; ++l) {
        float* wt = c.weights_t.data() + layer_weights_t(cfg, l);
        for (const TensorRule& r : kTensorTable) {
            if (!r.per_layer || r.cols == Dim::none) continue;
            const std::size_t rows = d_multiple(r.rows) * d, cols = d_multiple(r.cols) * d;
            transpose(params + at.layers[l][r.id], rows, cols, cols, wt + packed_offset_d2(r.id) * d * d);
        }
    }
    transpose(params + at[Tensor::lm_head], cfg.vocab, d, d, c.weights_t.data() + layer_weights_t(cfg, cfg.layers));
    c.weights_stale = false;
}

// Grows every buffer but weights_t (transpose_weights sizes it) for a call on n ids, and adds the
// probs blocks its rows need (a block's size depends on the model alone: none ever moves).
void size_cache(const ModelConfig& cfg, std::size_t n, PrefixCache& c) {
    const CacheShape shape = cache_shape(cfg, n);
    c.cap = static_cast<std::size_t>(shape.cap);
    for (const CacheBuffer& b : cache_buffers(shape))
        if (b.member != &PrefixCache::weights_t) ensure(c.*b.member, b.floats);
    const auto blocks = static_cast<std::size_t>(shape.cap / kCacheRowStep);
    if (c.probs.size() < blocks) c.probs.resize(blocks);
    c.probs_blocks.resize(c.probs.size());
    for (std::size_t k = 0; k < c.probs.size(); ++k) {
        ensure(c.probs[k], probs_block_floats(shape, k));
        c.probs_blocks[k] = c.probs[k].data();
    }
}

// The cache resized for n ids (cap = cache_rows(n) > c.cap) with rows 0 … kept − 1 of the
// row-indexed buffers moved to the new row stride (inspect.hpp's shapes), so that they need not
// be computed again; the probs blocks stay where they are, and the scratch buffers are only grown.
void regrow_cache(const ModelConfig& cfg, std::size_t n, std::size_t kept, PrefixCache& c) {
    const std::size_t d = cfg.d, old_cap = c.cap, cap = static_cast<std::size_t>(cache_rows(n));
    const std::size_t scored = std::min(c.scored, kept);  // rows of final and normalizer kept
    // Copies `rows` rows of `width` floats from each of `blocks` blocks of old_cap rows to blocks of cap rows.
    auto moved = [&](const std::vector<float>& from, std::size_t blocks, std::size_t width, std::size_t rows) {
        std::vector<float> to(blocks * cap * width);
        for (std::size_t b = 0; b < blocks; ++b)
            std::copy_n(from.begin() + static_cast<std::ptrdiff_t>(b * old_cap * width), rows * width,
                        to.begin() + static_cast<std::ptrdiff_t>(b * cap * width));
        return to;
    };
    c.stream = moved(c.stream, cfg.layers + 1, d, kept);
    c.qkv = moved(c.qkv, cfg.layers, 3 * d, kept);
    c.final = moved(c.final, 1, d, scored);
    c.normalizer = moved(c.normalizer, 1, 1, scored);
    c.surprise = moved(c.surprise, 1, 1, scored);
    c.scored = scored;
    size_cache(cfg, n, c);  // the scratch buffers and new probs blocks; the moved ones have their size
}

// Block l on rows first … n − 1: cache stream slot l → slot l + 1, through the training pass's block.
void block_rows(const ModelConfig& cfg, const TensorOffsets::Layer& at, const float* params, const float* t5_table,
                std::size_t l, std::size_t n, std::size_t first, Workspace<float>& ws, PrefixCache& c) {
    const std::size_t d = cfg.d, cap = c.cap;
    detail::BlockRows<float> r;
    r.B = 1, r.T = n, r.first = first;
    r.x = c.stream.data() + l * cap * d + first * d;
    r.x_next = c.stream.data() + (l + 1) * cap * d + first * d;
    r.ln1_out = r.ln2_out = c.ln_out.data();
    r.ln1_stats = r.ln2_stats = c.ln_stats.data();
    r.qkv = c.qkv.data() + l * cap * 3 * d;
    r.probs_blocks = c.probs_blocks.data();
    r.block = static_cast<std::size_t>(kCacheRowStep);
    r.map0 = l * cfg.heads;
    r.attn_out = c.attn_out.data();
    r.after_attn = c.after_attn.data();
    r.mlp_pre = c.mlp_pre.data();
    r.gelu_out = c.gelu_out.data();
    r.gelu_tanh = c.gelu_tanh.data();
    r.packed = c.weights_t.data() + layer_weights_t(cfg, l);
    detail::block_forward(cfg, at, params, t5_table, ws, r);
}

// Surprise at positions from … n − 2: ln_f and lm_head on those rows of x_L, kHeadRows at a time,
// each row's ln_f output and log-normaliser kept for rescore_row.
void surprise_rows(const ModelConfig& cfg, const TensorOffsets& at, const float* params, const std::int32_t* tokens,
                   std::size_t n, std::size_t from, PrefixCache& c) {
    const std::size_t d = cfg.d, V = cfg.vocab;
    const float* x_last = c.stream.data() + cfg.layers * c.cap * d;
    for (std::size_t r0 = from; r0 + 1 < n; r0 += kHeadRows) {
        const std::size_t rows = std::min(kHeadRows, n - 1 - r0);
        float* u = c.final.data() + r0 * d;
        layernorm_forward(x_last + r0 * d, rows, d, params + at[Tensor::lnf_w], params + at[Tensor::lnf_b], u, c.ln_stats.data(),
                          c.ln_stats.data() + rows);
        linear_forward_transposed(static_cast<const float*>(u), rows, d,
                                  c.weights_t.data() + layer_weights_t(cfg, cfg.layers), static_cast<const float*>(nullptr),
                                  V, c.logits.data());
        for (std::size_t r = 0; r < rows; ++r) {
            const float* z = c.logits.data() + r * V;
            c.normalizer[r0 + r] = log_normalizer(z, V);
            c.surprise[r0 + r] = c.normalizer[r0 + r] - z[tokens[r0 + r + 1]];
        }
    }
}

// Surprise at position p of a kept row (p < scored) with a new target tokens[p + 1]: the target's
// logit summed in k order from 0, as matmul sums each element (lm_head has no bias: 0 + Σ), so
// the value is the one surprise_rows would give.
void rescore_row(const ModelConfig& cfg, const TensorOffsets& at, const float* params, const std::int32_t* tokens,
                 std::size_t p, PrefixCache& c) {
    const std::size_t d = cfg.d;
    const float* u = c.final.data() + p * d;
    const float* w = params + at[Tensor::lm_head] + static_cast<std::size_t>(tokens[p + 1]) * d;  // lm_head row: Wᵀ's column
    float sum = 0.0f;
    for (std::size_t k = 0; k < d; ++k) sum = sum + u[k] * w[k];
    c.surprise[p] = c.normalizer[p] - (0.0f + sum);
}

// Each chosen map's rows from_row … n − 1 (inspect.hpp's shapes).
void copy_out(const ModelConfig& cfg, const PrefixCache& c, std::size_t n, float* attention_out, float* surprise_out,
              std::size_t map, std::size_t from_row) {
    if (surprise_out && n > 1) std::copy(c.surprise.begin(), c.surprise.begin() + static_cast<std::ptrdiff_t>(n - 1), surprise_out);
    if (!attention_out) return;
    const std::size_t first = map == kEveryMap ? 0 : map, end = map == kEveryMap ? cfg.layers * cfg.heads : map + 1;
    const std::size_t rows = n - from_row;
    // Cached rows hold their causal part (columns 0 … i); the rest of an output row is 0.
    for (std::size_t m = first; m < end; ++m) {
        for (std::size_t i = from_row; i < n; ++i) {
            const float* row = detail::block_row(c.probs_blocks.data(), static_cast<std::size_t>(kCacheRowStep), m, i);
            float* out = attention_out + ((m - first) * rows + (i - from_row)) * n;
            std::copy(row, row + i + 1, out);
            std::fill(out + i + 1, out + n, 0.0f);
        }
    }
}

}  // namespace

std::uint64_t inspect_floats(const ModelConfig& cfg, std::uint64_t n) {
    const CacheShape shape = cache_shape(cfg, n);
    std::uint64_t total = probs_floats(shape);
    for (const CacheBuffer& b : cache_buffers(shape)) total += b.floats;
    return total;
}

std::size_t PrefixCache::capacity_floats() const {
    std::size_t total = 0;
    for (const CacheBuffer& b : cache_buffers(CacheShape{})) total += (this->*b.member).capacity();
    for (const std::vector<float>& block : probs) total += block.capacity();
    return total;
}

void inspect_pass(const ModelConfig& cfg, const TensorOffsets& at, const float* params, const std::int32_t* tokens,
                  std::size_t n, const EvalOptions& requested, Workspace<float>& ws, PrefixCache& cache,
                  float* attention_out, float* surprise_out, std::size_t map, std::size_t from_row) {
    const EvalOptions eval{requested.rope, resolved_factor(requested, cfg.context, n), false};
    if (cache.weights_stale) transpose_weights(cfg, at, params, cache);
    const std::size_t first = reusable_rows(cache, tokens, n, eval);
    if (first == 0) size_cache(cfg, n, cache);
    else if (n > cache.cap) regrow_cache(cfg, n, first, cache);
    // Surprise p reads id p + 1: a change at `first` < n reaches position first − 1, whose row is
    // kept (first > 0) and maybe scored already; rows from … n − 2 are scored through lm_head.
    std::size_t from = first > 0 ? first - 1 : 0;
    const bool rescore = first > 0 && first < n && from < cache.scored;
    if (rescore) ++from;
    // The layers this call reads: all of them to score a row, else those up to its map's.
    const std::size_t top = from + 1 < n || map == kEveryMap ? cfg.layers : map / cfg.heads + 1;
    const std::size_t d = cfg.d;
    for (std::size_t p = first; p < n; ++p) detail::embed_row(cfg, at, params, tokens[p], p, ws, cache.stream.data() + p * d);
    const float* t5_table = cfg.scheme == Scheme::t5 ? params + at[Tensor::t5_bias] : nullptr;
    cache.layer_rows.resize(cfg.layers, 0);
    for (std::size_t l = 0; l < cfg.layers; ++l) {
        // Rows before `first` match in every layer whose rows reached them; a layer a call above
        // left out starts lower. The layers below l match all n rows by now.
        const std::size_t start = std::min(first, cache.layer_rows[l]);
        if (l >= top) {
            cache.layer_rows[l] = start;
            continue;
        }
        if (start < n) block_rows(cfg, at.layers[l], params, t5_table, l, n, start, ws, cache);
        cache.layer_rows[l] = n;
    }
    if (rescore) rescore_row(cfg, at, params, tokens, from - 1, cache);
    surprise_rows(cfg, at, params, tokens, n, from, cache);
    cache.scored = n - 1;
    cache.ids.assign(tokens, tokens + n);
    cache.eval = eval;
    copy_out(cfg, cache, n, attention_out, surprise_out, map, from_row);
}

}  // namespace posenc::model
