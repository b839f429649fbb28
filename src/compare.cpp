#include "compare.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "analyses.hpp"
#include "attention.hpp"
#include "embedding.hpp"
#include "encodings.hpp"
#include "limits.hpp"
#include "packed_scores.hpp"
#include "rotary.hpp"
#include "schemes.hpp"
#include "simd.hpp"
#include "sinusoidal.hpp"

// Set-up and orchestration (validation, per-lane plumbing, the distance curves) are optimised for
// size: the element's wasm has a byte budget, and the O(n²) and O(n·d) work of a lane happens in
// the kernels they call (attention.hpp, rotary.hpp, encodings.hpp) and in the two noinline loops
// below, which keep full optimisation.
#if defined(__clang__)
#define POSENC_COLD __attribute__((minsize))
#else
#define POSENC_COLD
#endif

namespace posenc {

POSENC_COLD SchemeResult& CompareResult::lane(Scheme s) {
    return const_cast<SchemeResult&>(static_cast<const CompareResult&>(*this).lane(s));
}

POSENC_COLD const SchemeResult& CompareResult::lane(Scheme s) const {
    switch (s) {
        case Scheme::additive: return additive;
        case Scheme::concatenated: return concatenated;
        case Scheme::rotary: return rotary;
        case Scheme::learned: return learned;
        case Scheme::alibi: return alibi;
        case Scheme::nope: return nope;
        case Scheme::t5: return t5;
        case Scheme::xpos: return xpos;
        case Scheme::rope_pi: return rope_pi;
        case Scheme::rope_ntk: return rope_ntk;
        case Scheme::yarn: break;
    }
    return yarn;
}

namespace {
inline constexpr double kMaxLength = 1048576.0;  // trainedLength, evalLength
inline constexpr int kMaxT5Buckets = 256;
inline constexpr int kMaxT5Distance = 1000000;
// xPos scales queries by ζ^(P/λ) and keys by ζ^(−P/λ); e^±40 (≈ 2^±58) keeps both factors far
// inside float32's normal range, so the logits lose no precision to underflow.
inline constexpr double kMaxXposExponent = 40.0;

bool is_length(double v) { return v >= 1.0 && v <= kMaxLength && std::trunc(v) == v; }

unsigned scheme_count(SchemeSet set) {
    unsigned c = 0;
    for (; set; set &= set - 1) ++c;
    return c;
}

// Largest |ln ζ|·P/λ over pairs and positions 0 … max_position: ζ_0 = γ/(1 + γ) is the smallest.
double xpos_exponent(const SchemeOptions& o, std::size_t max_position) {
    return std::log((1.0 + o.xpos_gamma) / o.xpos_gamma) * static_cast<double>(max_position) / o.xpos_scale_base;
}
}  // namespace

POSENC_COLD const char* validate(const SchemeOptions& o, bool causal) {
    if (!is_length(o.trained_length)) return "trainedLength must be an integer from 1 to 1048576";
    if (!is_length(o.eval_length)) return "evalLength must be an integer from 1 to 1048576";
    if (o.alibi_heads < 1 || o.alibi_heads > limits::kMaxHeads) return "alibiHeads must be an integer from 1 to 64";
    if (o.alibi_head < 1 || o.alibi_head > o.alibi_heads) return "alibiHead must be an integer from 1 to alibiHeads";
    if (o.t5_buckets < 4 || o.t5_buckets > kMaxT5Buckets || o.t5_buckets % 2 != 0) {
        return "t5Buckets must be an even integer from 4 to 256";
    }
    // t5_bucket's precondition: beyond the exact buckets (b/2 of the b available per direction).
    const int max_exact = (causal ? o.t5_buckets : o.t5_buckets / 2) / 2;
    if (o.t5_max_distance <= max_exact || o.t5_max_distance > kMaxT5Distance) {
        return "t5MaxDistance must exceed the exact buckets (t5Buckets/4, or t5Buckets/2 when causal) and be at most 1000000";
    }
    if (!(o.xpos_gamma > 0.0 && o.xpos_gamma <= 10.0)) return "xposGamma must be a number in (0, 10]";
    if (!(o.xpos_scale_base > 0.0 && o.xpos_scale_base <= 1e9)) return "xposScaleBase must be a number > 0 and at most 1e9";
    if (!(std::isfinite(o.yarn_alpha) && std::isfinite(o.yarn_beta) && o.yarn_alpha >= 0.0 && o.yarn_alpha < o.yarn_beta)) {
        return "yarnAlpha and yarnBeta must be finite numbers with 0 ≤ yarnAlpha < yarnBeta";
    }
    return nullptr;
}

POSENC_COLD const char* validate(const CompareConfig& cfg) {
    if (const char* e = limits::check_rows_dim(cfg.n, cfg.d, limits::kMaxCompareTokens, true)) return e;
    if (const char* e = limits::check_base(cfg.base)) return e;
    if (!std::isfinite(cfg.alpha)) return "alpha must be a finite number";
    if (!std::isfinite(cfg.scale) || cfg.scale < 0.0f) return "scale must be a finite number ≥ 0 (0 means 1/√d_head)";
    if (cfg.schemes == 0 || (cfg.schemes & ~kAllSchemes) != 0) return "schemes must be a non-empty set of known schemes";
    const bool concatenated = has(cfg.schemes, Scheme::concatenated);
    if (concatenated) {
        if (cfg.d_pos < 2 || cfg.d_pos % 2 != 0) return "d_pos must be an even number ≥ 2";
        if (cfg.concat_mode == ConcatMode::same_width && cfg.d_pos >= cfg.d) {
            return "d_pos must be smaller than d when the concatenation keeps the same width";
        }
        if (cfg.d_pos > limits::kMaxDim) return "d_pos must be at most 4096";
    }
    if (cfg.heads > limits::kMaxHeads) return "heads must be at most 64";
    const std::size_t blocks = std::max<std::size_t>(cfg.heads, 1) * cfg.n * cfg.n;
    if (blocks > limits::kMaxElements) return "heads·n² must be at most 16777216 (fewer heads or tokens)";
    // All lanes together: as much as the three original ones could take.
    if (scheme_count(cfg.schemes) * blocks > 3 * limits::kMaxElements) {
        return "heads·n² times the number of schemes must be at most 50331648 (fewer heads, tokens or schemes)";
    }
    if (cfg.heads > 0) {
        const std::size_t widened = cfg.concat_mode == ConcatMode::widened ? cfg.d + cfg.d_pos : cfg.d;
        if (cfg.d % cfg.heads != 0 || (concatenated && widened % cfg.heads != 0)) return "heads must divide every scheme's width";
        if ((cfg.d / cfg.heads) % 2 != 0) return "d / heads must be even (rotary pairs dimensions)";
    }
    if (const char* e = validate(cfg.options, cfg.causal)) return e;
    if (has(cfg.schemes, Scheme::xpos) && xpos_exponent(cfg.options, cfg.n - 1) > kMaxXposExponent) {
        return "xposScaleBase is too small for n tokens: ζ^(±(n−1)/xposScaleBase) would leave float32 range "
               "(need (n−1)·ln((1+xposGamma)/xposGamma)/xposScaleBase ≤ 40)";
    }
    return nullptr;
}

namespace {
std::uint64_t head_matrix_seed(std::uint64_t seed, std::size_t width, std::size_t head, std::size_t which) {
    return hash_token("head") ^ (seed * 0x9e3779b97f4a7c15ull) ^ (std::uint64_t{width} << 40) ^
           (std::uint64_t{head} << 8) ^ which;
}

// out = terms[0] + terms[1] + terms[2] + terms[3] (four n×n blocks of count entries each).
__attribute__((noinline)) void sum_terms(const float* terms, std::size_t count, float* out) {
    for (std::size_t i = 0; i < count; ++i) {
        out[i] = ((terms[i] + terms[count + i]) + terms[2 * count + i]) + terms[3 * count + i];
    }
}


// out (n×n) = scale·x·xᵀ for x with n rows of d floats at row stride `stride` (a leading block
// of wider rows is allowed). x·xᵀ is symmetric: only blocks touching the upper triangle are
// computed (≈ n²/2 products instead of n²) and the lower triangle is copied from the upper, so
// out is bit-symmetric. Entries are attention_scores(x, x, …) bit for bit: the same products
// summed in the same order with one scale multiply (n < 4 rows in the SIMD build: its own call).
// pack grows once and is reused.
__attribute__((noinline)) void gram(const float* x, std::size_t n, std::size_t d, std::size_t stride, float scale,
                                    std::vector<float>& pack, float* out) {
#if POSENC_SIMD
    constexpr std::size_t kRows = packed::kQueryRows, kKeys = packed::kKeyBlock;
    if (n < kRows && stride == d) {
        // Nothing to halve with one block row; attention_scores' own path for so few rows.
        attention_scores(x, x, n, n, d, scale, false, out);
        return;
    }
    const std::size_t padded = (n + kKeys - 1) / kKeys * kKeys;
    if (pack.size() < padded * d) pack.resize(padded * d);
    // Rows past n are zeros in the panels (computed, never stored).
    packed::pack_keys(x, stride, 0, n, d, pack.data());
    for (std::size_t i0 = 0; i0 < n; i0 += kRows) {
        const std::size_t rows = n - i0 < kRows ? n - i0 : kRows;
        // From the key block holding the diagonal: entries left of it lie in the lower triangle.
        for (std::size_t j0 = i0 / kKeys * kKeys; j0 < n; j0 += kKeys) {
            const std::size_t columns = n - j0 < kKeys ? n - j0 : kKeys;
            const float* panels = pack.data() + j0 * d;
            float* o = out + i0 * n + j0;
            packed::score_rows(x + i0 * stride, stride, rows, d, panels, scale, o, n, columns);
        }
    }
#else
    (void)pack;
    for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t j = i; j < n; ++j) {
            float sum = 0.0f;
            for (std::size_t c = 0; c < d; ++c) sum = sum + x[i * stride + c] * x[j * stride + c];
            out[i * n + j] = scale * sum;
        }
    }
#endif
    // Lower triangle from the upper, in 16×16 tiles so the column reads stay in cache.
    constexpr std::size_t kTile = 16;
    for (std::size_t i0 = 0; i0 < n; i0 += kTile) {
        const std::size_t i1 = std::min(n, i0 + kTile);
        for (std::size_t j0 = 0; j0 <= i0; j0 += kTile) {
            for (std::size_t i = i0; i < i1; ++i) {
                const std::size_t j1 = std::min(i, j0 + kTile);
                for (std::size_t j = j0; j < j1; ++j) out[i * n + j] = out[j * n + i];
            }
        }
    }
}

// out (n×n) = the transpose of in (n×n), in 16×16 tiles so the column reads stay in cache.
__attribute__((noinline)) void transpose(const float* in, std::size_t n, float* out) {
    constexpr std::size_t kTile = 16;
    for (std::size_t i0 = 0; i0 < n; i0 += kTile) {
        const std::size_t i1 = std::min(n, i0 + kTile);
        for (std::size_t j0 = 0; j0 < n; j0 += kTile) {
            const std::size_t j1 = std::min(n, j0 + kTile);
            for (std::size_t i = i0; i < i1; ++i)
                for (std::size_t j = j0; j < j1; ++j) out[i * n + j] = in[j * n + i];
        }
    }
}

// m (old_n×old_n) → n×n with its block [0, keep)² in place (keep ≤ min(old_n, n)); the other
// entries are left unspecified for the caller to compute. Rows move towards the end when n grows
// (last row first) and towards the start when it shrinks, so no row overwrites one still to move.
void restride(std::vector<float>& m, std::size_t old_n, std::size_t keep, std::size_t n) {
    if (n > old_n) {
        m.resize(n * n);
        for (std::size_t i = keep; i-- > 0;) std::memmove(m.data() + i * n, m.data() + i * old_n, keep * sizeof(float));
    } else {
        for (std::size_t i = 0; i < keep; ++i) std::memmove(m.data() + i * n, m.data() + i * old_n, keep * sizeof(float));
        m.resize(n * n);
    }
}

// out[i][j] = scale·a_i·b_j for i in [i0, i1), j in [j0, j1) (rows of d floats at `stride`; out
// at row stride out_stride; transposed: stored at out[j][i] instead): attention_scores' and
// gram's entries bit for bit for n ≥ 4 rows (the same packed micro-kernel, sums in order
// c = 0 … d − 1, one scale multiply; a_i[c]·b_j[c] = b_j[c]·a_i[c], so either side may be the
// packed one).
__attribute__((noinline)) void score_region(const float* a, const float* b, std::size_t stride, std::size_t d,
                                            std::size_t i0, std::size_t i1, std::size_t j0, std::size_t j1,
                                            float scale, std::vector<float>& pack, float* out, std::size_t out_stride,
                                            bool transposed = false) {
    if (i0 >= i1 || j0 >= j1) return;
#if POSENC_SIMD
    constexpr std::size_t kRows = packed::kQueryRows, kKeys = packed::kKeyBlock;
    if (i1 - i0 < kRows) {
        // A row or two (a token typed): packing every key would cost more than the products.
        // Plain float sums in the kernel's order, four keys at a time.
        for (std::size_t i = i0; i < i1; ++i) {
            const float* q = a + i * stride;
            std::size_t j = j0;
            for (; j + 4 <= j1; j += 4) {
                const float* k0 = b + j * stride;
                float sums[4];
                sequential_dots4(q, k0, k0 + stride, k0 + 2 * stride, k0 + 3 * stride, d, sums);
                for (std::size_t t = 0; t < 4; ++t) {
                    out[transposed ? (j + t) * out_stride + i : i * out_stride + j + t] = scale * sums[t];
                }
            }
            for (; j < j1; ++j) {
                float sum = 0.0f;
                for (std::size_t c = 0; c < d; ++c) sum = sum + q[c] * b[j * stride + c];
                out[transposed ? j * out_stride + i : i * out_stride + j] = scale * sum;
            }
        }
        return;
    }
    const std::size_t count = j1 - j0;
    const std::size_t padded = (count + kKeys - 1) / kKeys * kKeys;
    if (pack.size() < padded * d) pack.resize(padded * d);
    packed::pack_keys(b, stride, j0, count, d, pack.data());
    alignas(16) float block[kRows * kKeys];
    for (std::size_t i = i0; i < i1; i += kRows) {
        const std::size_t rows = i1 - i < kRows ? i1 - i : kRows;
        for (std::size_t kb = 0; kb < count; kb += kKeys) {
            const std::size_t columns = count - kb < kKeys ? count - kb : kKeys;
            const float* panels = pack.data() + kb * d;
            float* o = transposed ? block : out + i * out_stride + j0 + kb;
            const std::size_t o_stride = transposed ? kKeys : out_stride;
            packed::score_rows(a + i * stride, stride, rows, d, panels, scale, o, o_stride, columns);
            if (transposed) {
                for (std::size_t r = 0; r < rows; ++r)
                    for (std::size_t c = 0; c < columns; ++c) out[(j0 + kb + c) * out_stride + i + r] = block[r * kKeys + c];
            }
        }
    }
#else
    (void)pack;
    for (std::size_t i = i0; i < i1; ++i) {
        for (std::size_t j = j0; j < j1; ++j) {
            float sum = 0.0f;
            for (std::size_t c = 0; c < d; ++c) sum = sum + a[i * stride + c] * b[j * stride + c];
            out[transposed ? j * out_stride + i : i * out_stride + j] = scale * sum;
        }
    }
#endif
}

// m (n×n) = scale·a·bᵀ (a == b: the symmetric gram; otherwise stride must be d), keeping the
// entries among rows [0, keep) of the previous m (old_n×old_n, made from the same leading rows).
// keep = 0 computes everything; row reuse needs n, old_n ≥ 4 (below that the SIMD kernels take
// a path with another summation order).
void refresh_product(const float* a, const float* b, std::size_t n, std::size_t d, std::size_t stride, float scale,
                     std::size_t keep, std::size_t old_n, std::vector<float>& pack, std::vector<float>& m) {
    const bool symmetric = a == b;
    if (keep == 0) {
        m.resize(n * n);
        if (symmetric) {
            gram(a, n, d, stride, scale, pack, m.data());
        } else {
            attention_scores(a, b, n, n, d, scale, false, m.data());
        }
        return;
    }
    restride(m, old_n, keep, n);
    score_region(a, b, stride, d, keep, n, 0, n, scale, pack, m.data(), n);
    if (symmetric) {
        for (std::size_t i = keep; i < n; ++i)
            for (std::size_t j = 0; j < keep; ++j) m[j * n + i] = m[i * n + j];
    } else {
        // Rows [0, keep) × columns [keep, n), usually one column: computed with the new rows of b
        // as the queries, so the kernel packs the many old rows of a instead of padding one key.
        score_region(b, a, stride, d, keep, n, 0, keep, scale, pack, m.data(), n, true);
    }
}

// Everything compare() reads besides the inputs' rows and n (the lane set aside: lanes are
// independent of each other).
bool same_settings(const CompareConfig& a, const CompareConfig& b) {
    const SchemeOptions &x = a.options, &y = b.options;
    return a.d == b.d && a.alpha == b.alpha && a.base == b.base && a.layout == b.layout && a.pairing == b.pairing &&
           a.d_pos == b.d_pos && a.concat_mode == b.concat_mode && a.causal == b.causal && a.heads == b.heads &&
           a.head_seed == b.head_seed && a.scale == b.scale && x.trained_length == y.trained_length &&
           x.eval_length == y.eval_length && x.alibi_heads == y.alibi_heads && x.alibi_head == y.alibi_head &&
           x.t5_buckets == y.t5_buckets && x.t5_max_distance == y.t5_max_distance && x.xpos_gamma == y.xpos_gamma &&
           x.xpos_scale_base == y.xpos_scale_base && x.yarn_alpha == y.yarn_alpha && x.yarn_beta == y.yarn_beta;
}

// Rows this call shares with the last one (see compare.hpp); then remembers this call's inputs.
POSENC_COLD void track_inputs(const CompareConfig& cfg, const float* embeddings, const float* concat_words,
                              CompareResult& r) {
    const std::size_t n = cfg.n, d = cfg.d, row = d * sizeof(float);
    std::size_t shared = 0;
    if (r.last_valid && cfg.heads == 0 && n >= 4 && r.last_n >= 4 && same_settings(cfg, r.last_cfg) &&
        (concat_words != nullptr) == r.last_had_words) {
        const std::size_t limit = std::min(n, r.last_n);
        while (shared < limit && std::memcmp(embeddings + shared * d, r.last_embeddings.data() + shared * d, row) == 0 &&
               (!concat_words || std::memcmp(concat_words + shared * d, r.last_words.data() + shared * d, row) == 0)) {
            ++shared;
        }
    }
    r.reuse_rows = shared;
    // The position·position values by distance depend on the settings alone.
    if (!(r.last_valid && same_settings(cfg, r.last_cfg))) {
        for (unsigned s = 0; s < kSchemeCount; ++s) r.lane(static_cast<Scheme>(s)).kept_distances.clear();
    }
    r.last_embeddings.assign(embeddings, embeddings + n * d);
    if (concat_words) r.last_words.assign(concat_words, concat_words + n * d);
    else r.last_words.clear();
    r.last_had_words = concat_words != nullptr;
}

// Rows of a lane's kept matrix (rows of row_size floats) reusable this call: the lane must have
// been computed last call.
std::size_t lane_reuse(const CompareResult& r, Scheme scheme, const std::vector<float>& kept, std::size_t row_size) {
    return has(r.last_cfg.schemes, scheme) && kept.size() == r.last_n * row_size ? r.reuse_rows : 0;
}

// table (n×d) = the sinusoidal table; rows already there for the same (d, base, layout) are
// kept (a row does not depend on n), the others computed.
POSENC_COLD void extend_table(std::vector<float>& table, CompareResult::TableKey& key, std::size_t n, std::size_t d,
                              double base, Layout layout) {
    const bool same = key.d == d && key.base == base && key.layout == layout;
    const std::size_t kept = same ? std::min(n, table.size() / d) : 0;
    table.resize(n * d);
    if (kept < n) sinusoidal_table(n - kept, d, base, layout, table.data() + kept * d, static_cast<double>(kept));
    key = {d, base, layout};
}

// out[i][j] = by_offset[j − i + n − 1] (n×n): a bias that depends on j − i only (ALiBi, T5) is
// a row-by-row copy of a (2n − 1)-entry table. With accumulate, added to out instead.
POSENC_COLD void fill_by_offset(const float* by_offset, std::size_t n, bool accumulate, float* out) {
    for (std::size_t i = 0; i < n; ++i) {
        const float* from = by_offset + (n - 1 - i);
        float* row = out + i * n;
        if (accumulate) {
            add_encoding(row, 1.0f, from, n, row);  // 1·x is exact: row + from, one rounding
        } else {
            std::memcpy(row, from, n * sizeof(float));
        }
    }
}

// out (n×n) = scale·PE·PEᵀ for a sinusoidal table PE (n×d, rows at positions 0 … n − 1):
// PE(i)·PE(j) = Σ_k sin(iω_k)sin(jω_k) + cos(iω_k)cos(jω_k) = Σ_k cos((i − j)ω_k) = PE(|i − j|)·PE(0),
// so n dot products (in double, one rounding to float) and an n×n fill replace n² dot products.
// out is exactly a function of |i − j|; against the float64 product of the float32 table rows it
// differs by the table's own rounding, ≤ d·2^-24·scale (PE entries are within 2^-24 of
// sin/cos; both sides are sums of d/2 such cos values or pairs of products).
POSENC_COLD void sinusoid_products(const float* table, std::size_t n, std::size_t d, float scale, CompareResult& s,
                                   std::vector<float>& by_distance, float* out) {
    // by_distance[k] = PE(k)·PE(0)·scale depends on the settings only: the last call's entries are
    // kept while they stay the same (by_distance arrives emptied otherwise).
    const std::size_t known = std::min(n, by_distance.size());
    by_distance.resize(n);
    for (std::size_t k = known; k < n; ++k) {
        double sum = 0.0;
        for (std::size_t c = 0; c < d; ++c) sum += static_cast<double>(table[k * d + c]) * table[c];
        by_distance[k] = static_cast<float>(sum * static_cast<double>(scale));
    }
    s.bias_by_offset.resize(2 * n - 1);
    for (std::size_t k = 0; k < n; ++k) s.bias_by_offset[n - 1 + k] = s.bias_by_offset[n - 1 - k] = by_distance[k];
    fill_by_offset(s.bias_by_offset.data(), n, false, out);
}

// out = alpha·e over count values (also scale·dots: attention_scores' final multiply).
__attribute__((noinline)) void scale_into(float alpha, const float* e, std::size_t count, float* out) {
    std::size_t i = 0;
#if POSENC_SIMD
    for (; i + kLanes <= count; i += kLanes) store(out + i, Batch(alpha) * load(e + i));
#endif
    for (; i < count; ++i) out[i] = alpha * e[i];
}

// The W = I content products αE·αEᵀ (unscaled) of this call, computed on first use (rows
// shared with the last call kept when it made them too).
const float* content_dots(const CompareConfig& cfg, CompareResult& s) {
    if (!s.content_dots_ready) {
        const std::size_t keep = s.content_dots_kept && s.content_dots.size() == s.last_n * s.last_n ? s.reuse_rows : 0;
        refresh_product(s.content.data(), s.content.data(), cfg.n, cfg.d, cfg.d, 1.0f, keep, s.last_n, s.gram_pack,
                        s.content_dots);
        s.content_dots_ready = true;
    }
    return s.content_dots.data();
}

enum class Kind { decomposed, rotated, biased, plain };

Kind kind_of(Scheme s) {
    if (s == Scheme::additive || s == Scheme::concatenated || s == Scheme::learned) return Kind::decomposed;
    if (s == Scheme::alibi || s == Scheme::t5) return Kind::biased;
    if (s == Scheme::nope) return Kind::plain;
    return Kind::rotated;
}

RopeScaling scaling_of(Scheme s) {
    return s == Scheme::rope_pi ? RopeScaling::pi
           : s == Scheme::rope_ntk ? RopeScaling::ntk
           : s == Scheme::yarn ? RopeScaling::yarn
                               : RopeScaling::none;
}

// The RoPE scaling of a rope-family scheme, with the trained/evaluation lengths and YaRN's ramp.
RopeScalingConfig rope_config(Scheme scheme, const SchemeOptions& o) {
    RopeScalingConfig rope;
    rope.kind = scaling_of(scheme);
    rope.trained_length = o.trained_length;
    rope.eval_length = o.eval_length;
    rope.alpha = o.yarn_alpha;
    rope.beta = o.yarn_beta;
    return rope;
}

// The per-head bias table by offset (2n − 1 entries) of ALiBi or T5 into s.bias_by_offset.
POSENC_COLD void bias_table(const CompareConfig& cfg, Scheme scheme, std::size_t head, const SchemeResult& lane,
                CompareResult& s) {
    const std::size_t n = cfg.n;
    s.bias_by_offset.resize(2 * n - 1);
    if (scheme == Scheme::alibi) {
        // −m·|j − i|, as alibi_bias computes it (double product, one rounding); the causal mask
        // is softmax's job, so the term stays finite above the diagonal.
        const double slope = lane.slopes[head];
        for (std::size_t k = 0; k < 2 * n - 1; ++k) {
            const double distance = k >= n - 1 ? static_cast<double>(k - (n - 1)) : static_cast<double>((n - 1) - k);
            s.bias_by_offset[k] = static_cast<float>(-slope * distance);
        }
        return;
    }
    const int buckets = cfg.options.t5_buckets;
    s.t5_values.resize(static_cast<std::size_t>(buckets));
    t5_bucket_values(kT5Seed + head, buckets, s.t5_values.data());
    for (std::size_t k = 0; k < 2 * n - 1; ++k) s.bias_by_offset[k] = s.t5_values[s.bucket_by_offset[k]];
}

// Rows [from, n) of q, k (n×d_head) rotated as the scheme wants into q_out, k_out (k_out null:
// the rotated keys are the rotated queries — W = I, every scheme but xPos, whose keys scale the
// other way); returns the logit scale it implies. Row p's rotation depends on x_p and p alone,
// so rotating from `from` with that offset gives the rows of a whole-matrix call bit for bit —
// except xPos's scaling (a running product from row 0), which callers rotate from 0.
POSENC_COLD float rotate_for(const CompareConfig& cfg, Scheme scheme, const SchemeResult& lane, const float* q,
                             const float* k, std::size_t d_head, float scale, std::size_t from, float* q_out,
                             float* k_out) {
    const std::size_t rows = cfg.n - from, at = from * d_head;
    const double offset = static_cast<double>(from);
    switch (scheme) {
        case Scheme::rotary:
            rotate(q + at, rows, d_head, cfg.base, offset, cfg.pairing, q_out + at);
            if (k_out) rotate(k + at, rows, d_head, cfg.base, offset, cfg.pairing, k_out + at);
            return scale;
        case Scheme::xpos: {
            const SchemeOptions& o = cfg.options;
            xpos_rotate(q, cfg.n, d_head, cfg.base, 0.0, cfg.pairing, o.xpos_gamma, o.xpos_scale_base, false, q_out);
            xpos_rotate(k, cfg.n, d_head, cfg.base, 0.0, cfg.pairing, o.xpos_gamma, o.xpos_scale_base, true, k_out);
            return scale;
        }
        default:
            rotate_with_frequencies(q + at, rows, d_head, lane.frequencies.data(), offset, cfg.pairing, q_out + at);
            if (k_out) rotate_with_frequencies(k + at, rows, d_head, lane.frequencies.data(), offset, cfg.pairing, k_out + at);
            // YaRN's factor on q and k, i.e. its square on the logits; exactly scale when it is 1.
            return lane.qk_factor == 1.0 ? scale
                                         : static_cast<float>(static_cast<double>(scale) * lane.qk_factor * lane.qk_factor);
    }
}

// W = I terms of a decomposed scheme (n×n each, times scale) without forming products that are
// known in advance:
//   content·content  αE·αEᵀ shared with the other lanes (concatenated: over its d_word word
//                    coordinates only, shared when those are αE itself, widened without a basis)
//   cross terms      concatenated: exactly 0 (disjoint coordinates); otherwise a·bᵀ and its
//                    transpose (the same products in the same order, so bit for bit)
//   position·position sinusoidal tables from the n offsets (sinusoid_products); learned: the
//                    symmetric product
POSENC_COLD void identity_terms(const CompareConfig& cfg, Scheme scheme, SchemeResult& lane, float scale,
                                bool concat_shares_content, CompareResult& s, float* terms) {
    const std::size_t n = cfg.n, d = cfg.d, nn = n * n;
    const std::size_t keep = lane_reuse(s, scheme, lane.kept_product, s.last_n);
    if (scheme == Scheme::concatenated) {
        const std::size_t d_word = lane.width - cfg.d_pos;
        if (concat_shares_content) {
            scale_into(scale, content_dots(cfg, s), nn, terms);
        } else {
            refresh_product(lane.x.data(), lane.x.data(), n, d_word, lane.width, scale, keep, s.last_n, s.gram_pack,
                            lane.kept_product);
            std::copy_n(lane.kept_product.data(), nn, terms);
        }
        std::fill(terms + nn, terms + 3 * nn, 0.0f);
        sinusoid_products(s.pe_concat.data(), n, cfg.d_pos, scale, s, lane.kept_distances, terms + 3 * nn);
        return;
    }
    const float* position = scheme == Scheme::additive ? s.pe.data() : s.table.data();
    scale_into(scale, content_dots(cfg, s), nn, terms);
    refresh_product(s.content.data(), position, n, d, d, scale, keep, s.last_n, s.gram_pack, lane.kept_product);
    std::copy_n(lane.kept_product.data(), nn, terms + nn);
    transpose(terms + nn, n, terms + 2 * nn);
    if (scheme == Scheme::additive) {
        sinusoid_products(position, n, d, scale, s, lane.kept_distances, terms + 3 * nn);
    } else {
        refresh_product(position, position, n, d, d, scale, lane_reuse(s, scheme, lane.kept_position, s.last_n), s.last_n,
                        s.gram_pack, lane.kept_position);
        std::copy_n(lane.kept_position.data(), nn, terms + 3 * nn);
    }
}

// word_part, position_part: the decomposed schemes' two summands of x (n×w each), read with
// projection heads only.
POSENC_COLD void run_scheme(const CompareConfig& cfg, Scheme scheme, const float* word_part, const float* position_part,
                SchemeResult& lane, CompareResult& s, bool concat_shares_content = false) {
    const Kind kind = kind_of(scheme);
    const std::size_t n = cfg.n, w = lane.width, nn = n * n;
    const std::size_t head_count = std::max<std::size_t>(cfg.heads, 1);
    const std::size_t d_head = w / head_count;
    const float base_scale = cfg.scale > 0.0f ? cfg.scale : 1.0f / std::sqrt(static_cast<float>(d_head));
    lane.weights.resize(head_count * nn);
    lane.term_count = kind == Kind::decomposed ? 4 : kind == Kind::biased ? 2 : 1;
    lane.terms.resize(lane.term_count * nn);
    if (cfg.heads > 0) {
        s.q.resize(n * d_head);
        s.k.resize(n * d_head);
        s.w_q.resize(w * d_head);
        s.w_k.resize(w * d_head);
    }
    if (kind == Kind::rotated) {
        s.q2.resize(n * d_head);
        if (cfg.heads > 0 || scheme == Scheme::xpos) s.k2.resize(n * d_head);
    }

    for (std::size_t head = 0; head < head_count; ++head) {
        const float* q = lane.x.data();
        const float* k = lane.x.data();
        if (cfg.heads > 0) {
            const double sigma = 1.0 / std::sqrt(static_cast<double>(w));
            gaussian_matrix(head_matrix_seed(cfg.head_seed, w, head, 0), w, d_head, sigma, s.w_q.data());
            gaussian_matrix(head_matrix_seed(cfg.head_seed, w, head, 1), w, d_head, sigma, s.w_k.data());
            project(lane.x.data(), n, w, s.w_q.data(), d_head, s.q.data());
            project(lane.x.data(), n, w, s.w_k.data(), d_head, s.k.data());
            q = s.q.data();
            k = s.k.data();
        }
        float scale = base_scale;
        if (kind == Kind::rotated) {
            const bool shared = q == k && scheme != Scheme::xpos;  // see rotate_for
            float* q_out = s.q2.data();
            float* k_out = shared ? nullptr : s.k2.data();
            std::size_t from = 0;
            if (cfg.heads == 0 && scheme != Scheme::xpos) {
                // W = I: the rotated rows are kept, and the next call rotates only its new rows.
                from = lane_reuse(s, scheme, lane.kept_rotated, d_head);
                lane.kept_rotated.resize(n * d_head);
                q_out = lane.kept_rotated.data();
            }
            scale = rotate_for(cfg, scheme, lane, q, k, d_head, base_scale, from, q_out, k_out);
            q = q_out;
            k = shared ? q : k_out;
        }
        float* weights = lane.weights.data() + head * nn;
        float* terms = lane.terms.data();
        // softmax_rows never reads above the diagonal of a causal row, so unmasked logits serve
        // both cases wherever they are needed anyway (head 0's terms).
        if (kind == Kind::decomposed) {
            if (cfg.heads == 0) {
                // W = I: the logits are the terms' sum, derived rather than computed again, so
                // terms and weights agree whatever the terms' rounding.
                identity_terms(cfg, scheme, lane, scale, concat_shares_content, s, terms);
                sum_terms(terms, nn, weights);
            } else {
                attention_scores(q, k, n, n, d_head, scale, cfg.causal, weights);
                if (head == 0) {
                    s.projected.resize(4 * n * d_head);
                    float* p = s.projected.data();
                    project(word_part, n, w, s.w_q.data(), d_head, p);
                    project(position_part, n, w, s.w_q.data(), d_head, p + n * d_head);
                    project(word_part, n, w, s.w_k.data(), d_head, p + 2 * n * d_head);
                    project(position_part, n, w, s.w_k.data(), d_head, p + 3 * n * d_head);
                    logit_terms(p, p + n * d_head, p + 2 * n * d_head, p + 3 * n * d_head, n, d_head, scale, terms);
                }
            }
        } else {
            // The (rotated) content logits: head 0's first term, or straight into weights.
            float* logits = head == 0 ? terms : weights;
            if (cfg.heads == 0 && kind != Kind::rotated) {
                // W = I: αE·αEᵀ is the same for every unrotated lane; computed once a call.
                scale_into(scale, content_dots(cfg, s), nn, logits);
            } else if (cfg.heads == 0) {
                // W = I rotated: R(i)x_i·R(j)x_j is symmetric in i, j (xPos's scaled keys are not).
                refresh_product(q, k, n, d_head, d_head, scale, lane_reuse(s, scheme, lane.kept_product, s.last_n), s.last_n,
                                s.gram_pack, lane.kept_product);
                std::copy_n(lane.kept_product.data(), nn, logits);
            } else if (q == k) {
                gram(q, n, d_head, d_head, scale, s.gram_pack, logits);
            } else {
                attention_scores(q, k, n, n, d_head, scale, head == 0 ? false : cfg.causal, logits);
            }
            if (kind == Kind::biased) {
                bias_table(cfg, scheme, head, lane, s);
                if (head == 0) {
                    fill_by_offset(s.bias_by_offset.data(), n, false, terms + nn);
                    add_encoding(terms, 1.0f, terms + nn, nn, weights);
                } else {
                    fill_by_offset(s.bias_by_offset.data(), n, true, weights);
                }
            } else if (head == 0) {
                std::copy(terms, terms + nn, weights);
            }
        }
        if (scheme == Scheme::nope && head == 0) {
            lane.masked.resize(nn);
            lane.unmasked.resize(nn);
            softmax_rows(weights, n, n, true, lane.masked.data());
            softmax_rows(weights, n, n, false, lane.unmasked.data());
            const std::vector<float>& chosen = cfg.causal ? lane.masked : lane.unmasked;
            std::copy(chosen.begin(), chosen.end(), weights);
            continue;
        }
        softmax_rows(weights, n, n, cfg.causal, weights);
    }
}

POSENC_COLD void set_content(SchemeResult& lane, const CompareResult& r, std::size_t d) {
    lane.width = d;
    lane.x.assign(r.content.begin(), r.content.end());
}
}  // namespace

POSENC_COLD void compare(const CompareConfig& cfg, const float* embeddings, CompareResult& r, const float* concat_words) {
    const std::size_t n = cfg.n, d = cfg.d, d_pos = cfg.d_pos;
    const SchemeSet set = cfg.schemes;
    // Lanes not asked for give their memory back.
    for (unsigned i = 0; i < kSchemeCount; ++i) {
        if (!has(set, static_cast<Scheme>(i))) r.lane(static_cast<Scheme>(i)) = SchemeResult{};
    }
    if (!has(set, Scheme::additive)) r.pe = {};
    if (!has(set, Scheme::concatenated)) r.pe_concat = {};
    track_inputs(cfg, embeddings, concat_words, r);
    r.content_dots_kept = r.content_dots_ready;
    r.content_dots_ready = false;  // the W = I content products of this call, made on first use

    // αE: the content part of every scheme and the whole input of those acting on q, k or logits.
    r.content.resize(n * d);
    scale_into(cfg.alpha, embeddings, n * d, r.content.data());

    if (has(set, Scheme::additive)) {
        // x = αE + PE.
        extend_table(r.pe, r.pe_key, n, d, cfg.base, cfg.layout);
        r.additive.width = d;
        r.additive.x.resize(n * d);
        add_encoding(embeddings, cfg.alpha, r.pe.data(), n * d, r.additive.x.data());
        run_scheme(cfg, Scheme::additive, r.content.data(), r.pe.data(), r.additive, r);
    }

    if (has(set, Scheme::concatenated)) {
        // x = [αE_t ; PE_p]; the parts are x with the other block zeroed.
        extend_table(r.pe_concat, r.pe_concat_key, n, d_pos, cfg.base, cfg.layout);
        const std::size_t d_word = cfg.concat_mode == ConcatMode::same_width ? d - d_pos : d;
        const std::size_t w = d_word + d_pos;
        r.concatenated.width = w;
        r.concatenated.x.resize(n * w);
        concatenate_encoding(concat_words ? concat_words : embeddings, n, d, d_word, cfg.alpha, r.pe_concat.data(),
                             d_pos, r.concatenated.x.data());
        if (cfg.heads > 0) {
            // Projections mix the blocks: the parts as n×w matrices, x with the other block zeroed.
            r.word_part.assign(n * w, 0.0f);
            r.position_part.assign(n * w, 0.0f);
            for (std::size_t p = 0; p < n; ++p) {
                const float* row = r.concatenated.x.data() + p * w;
                std::copy(row, row + d_word, r.word_part.data() + p * w);
                std::copy(row + d_word, row + w, r.position_part.data() + p * w + d_word);
            }
        }
        // Widened without a basis, the word block is αE itself (the same float multiply).
        const bool shares_content = cfg.concat_mode == ConcatMode::widened && concat_words == nullptr;
        run_scheme(cfg, Scheme::concatenated, r.word_part.data(), r.position_part.data(), r.concatenated, r,
                   shares_content);
    }

    if (has(set, Scheme::learned)) {
        // x = αE + L, L the seeded learned-style table. Row p does not depend on n, so the table
        // is kept between calls and regenerated only when d changes or n grows past it.
        if (r.table_d != d || r.table.size() < n * d) {
            r.table.resize(n * d);
            learned_table(kLearnedSeed, n, d, r.table.data());
            r.table_d = d;
        }
        r.learned.width = d;
        r.learned.x.resize(n * d);
        add_encoding(embeddings, cfg.alpha, r.table.data(), n * d, r.learned.x.data());
        run_scheme(cfg, Scheme::learned, r.content.data(), r.table.data(), r.learned, r);
    }

    const std::size_t head_count = std::max<std::size_t>(cfg.heads, 1);
    const std::size_t d_head = d / head_count;
    const SchemeOptions& o = cfg.options;
    for (Scheme scheme : {Scheme::rotary, Scheme::xpos, Scheme::rope_pi, Scheme::rope_ntk, Scheme::yarn}) {
        if (!has(set, scheme)) continue;
        SchemeResult& lane = r.lane(scheme);
        set_content(lane, r, d);
        const RopeScalingConfig rope = rope_config(scheme, o);
        lane.frequencies.resize(d_head / 2);
        rope_frequencies(d_head, cfg.base, rope, lane.frequencies.data());
        lane.scale_factor = rope.kind == RopeScaling::none ? 1.0 : rope_scale_factor(rope);
        lane.qk_factor = rope.kind == RopeScaling::yarn ? yarn_qk_factor(lane.scale_factor) : 1.0;
        run_scheme(cfg, scheme, nullptr, nullptr, lane, r);
    }

    if (has(set, Scheme::alibi)) {
        set_content(r.alibi, r, d);
        if (cfg.heads == 0) {
            std::vector<double>& slopes = r.alibi.slopes;
            slopes.resize(o.alibi_heads);
            alibi_slopes(o.alibi_heads, slopes.data());
            const double chosen = slopes[o.alibi_head - 1];
            slopes.assign(1, chosen);
        } else {
            r.alibi.slopes.resize(cfg.heads);
            alibi_slopes(cfg.heads, r.alibi.slopes.data());
        }
        run_scheme(cfg, Scheme::alibi, nullptr, nullptr, r.alibi, r);
    }

    if (has(set, Scheme::t5)) {
        set_content(r.t5, r, d);
        // Buckets depend on j − i only: the 2n − 1 offsets once, then the n×n map for the page.
        r.bucket_by_offset.resize(2 * n - 1);
        for (std::size_t k = 0; k < 2 * n - 1; ++k) {
            const std::int64_t relative = static_cast<std::int64_t>(k) - static_cast<std::int64_t>(n - 1);
            r.bucket_by_offset[k] = t5_bucket(relative, !cfg.causal, o.t5_buckets, o.t5_max_distance);
        }
        r.t5.buckets.resize(n * n);
        for (std::size_t i = 0; i < n; ++i) {
            std::copy_n(r.bucket_by_offset.data() + (n - 1 - i), n, r.t5.buckets.data() + i * n);
        }
        run_scheme(cfg, Scheme::t5, nullptr, nullptr, r.t5, r);
    }

    if (has(set, Scheme::nope)) {
        set_content(r.nope, r, d);
        run_scheme(cfg, Scheme::nope, nullptr, nullptr, r.nope, r);
    }
    for (unsigned i = 0; i < kSchemeCount; ++i) {
        if (!has(set, static_cast<Scheme>(i))) continue;
        SchemeResult& lane = r.lane(static_cast<Scheme>(i));
        lane.max_abs.resize(1 + lane.term_count);
        lane.max_abs[0] = max_abs(lane.x.data(), lane.x.size());
        for (std::size_t t = 0; t < lane.term_count; ++t) lane.max_abs[1 + t] = max_abs(lane.terms.data() + t * n * n, n * n);
    }
    r.last_cfg = cfg;
    r.last_n = n;
    r.last_valid = true;
}

// ---- Distance curves ---------------------------------------------------------------------------

POSENC_COLD const char* validate(const CurveConfig& cfg) {
    if (cfg.d < 2 || cfg.d > limits::kMaxDim || cfg.d % 2 != 0) return "d must be an even integer from 2 to 4096";
    if (cfg.max_distance < 1 || cfg.max_distance > kMaxCurveDistance) return "maxDistance must be an integer from 1 to 65536";
    if ((cfg.max_distance + 1) * cfg.d > limits::kMaxElements) return "(maxDistance + 1)·d must be at most 16777216";
    if (const char* e = limits::check_base(cfg.base)) return e;
    if (cfg.schemes == 0 || (cfg.schemes & ~kAllSchemes) != 0) return "schemes must be a non-empty set of known schemes";
    if (has(cfg.schemes, Scheme::concatenated)) {
        if (cfg.d_pos < 2 || cfg.d_pos % 2 != 0 || cfg.d_pos > limits::kMaxDim) return "d_pos must be an even number from 2 to 4096";
        if (cfg.concat_mode == ConcatMode::same_width && cfg.d_pos >= cfg.d) {
            return "d_pos must be smaller than d when the concatenation keeps the same width";
        }
    }
    return validate(cfg.options, cfg.causal);
}

namespace {
// out[k] = factor·Σ_i cos(k·ω_i)·(zeta ? ζ_i^(k/λ) : 1), k = 0 … K, in double (pow, not exp:
// pow is linked already).
POSENC_COLD void cosine_sum_curve(const std::vector<double>& omega, const double* zeta, double scale_base, double factor,
                      std::size_t max_distance, float* out) {
    for (std::size_t k = 0; k <= max_distance; ++k) {
        const double position = static_cast<double>(k);
        double sum = 0.0;
        for (std::size_t i = 0; i < omega.size(); ++i) {
            const double c = std::cos(position * omega[i]);
            sum += zeta ? c * std::pow(zeta[i], position / scale_base) : c;
        }
        out[k] = static_cast<float>(factor * sum);
    }
}
}  // namespace

POSENC_COLD void distance_curves(const CurveConfig& cfg, float* out) {
    const std::size_t d = cfg.d, K = cfg.max_distance, row = K + 1;
    const SchemeOptions& o = cfg.options;
    const double inv_sqrt_d = 1.0 / std::sqrt(static_cast<double>(d));
    std::vector<double> omega(d / 2);
    for (unsigned index = 0; index < kSchemeCount; ++index) {
        const Scheme scheme = static_cast<Scheme>(index);
        if (!has(cfg.schemes, scheme)) continue;
        switch (scheme) {
            case Scheme::additive:
                rope_frequencies(d, cfg.base, RopeScalingConfig{}, omega.data());
                cosine_sum_curve(omega, nullptr, 1.0, inv_sqrt_d, K, out);
                break;
            case Scheme::concatenated: {
                const std::size_t w = cfg.concat_mode == ConcatMode::same_width ? d : d + cfg.d_pos;
                std::vector<double> omega_pos(cfg.d_pos / 2);
                rope_frequencies(cfg.d_pos, cfg.base, RopeScalingConfig{}, omega_pos.data());
                cosine_sum_curve(omega_pos, nullptr, 1.0, 1.0 / std::sqrt(static_cast<double>(w)), K, out);
                break;
            }
            case Scheme::learned: {
                std::vector<float> table(row * d);
                learned_table(kLearnedSeed, row, d, table.data());
                for (std::size_t k = 0; k < row; ++k) {
                    double sum = 0.0;
                    for (std::size_t j = 0; j < d; ++j) sum += static_cast<double>(table[k * d + j]) * table[j];
                    out[k] = static_cast<float>(sum * inv_sqrt_d);
                }
                break;
            }
            case Scheme::alibi: {
                std::vector<double> slopes(o.alibi_heads);
                alibi_slopes(o.alibi_heads, slopes.data());
                // 0 − m·k, not −(m·k): +0 at k = 0.
                for (std::size_t k = 0; k < row; ++k) out[k] = static_cast<float>(0.0 - slopes[o.alibi_head - 1] * static_cast<double>(k));
                break;
            }
            case Scheme::t5: {
                std::vector<float> values(static_cast<std::size_t>(o.t5_buckets));
                t5_bucket_values(kT5Seed, o.t5_buckets, values.data());
                for (std::size_t k = 0; k < row; ++k) {
                    out[k] = values[t5_bucket(-static_cast<std::int64_t>(k), !cfg.causal, o.t5_buckets, o.t5_max_distance)];
                }
                break;
            }
            case Scheme::nope:
                std::fill(out, out + row, 0.0f);
                break;
            default: {  // rope family
                const RopeScalingConfig rope = rope_config(scheme, o);
                rope_frequencies(d, cfg.base, rope, omega.data());
                double factor = 2.0 * inv_sqrt_d;
                if (scheme == Scheme::yarn) {
                    const double qk = yarn_qk_factor(rope_scale_factor(rope));
                    factor *= qk * qk;
                }
                std::vector<double> zeta;
                if (scheme == Scheme::xpos) {
                    zeta.resize(d / 2);
                    xpos_zeta(d, o.xpos_gamma, zeta.data());
                }
                cosine_sum_curve(omega, zeta.empty() ? nullptr : zeta.data(), o.xpos_scale_base, factor, K, out);
                break;
            }
        }
        out += row;
    }
}

}  // namespace posenc
