// One sentence through any of the positional schemes: the data behind every lane of the page.
//
// Shapes (n tokens, d word-vector dims, w a scheme's input width, h' = max(heads, 1),
// d_head = w/h', t a scheme's term count):
//   embeddings      — n×d, caller-owned input (unscaled word vectors)
//   concat_words    — n×d or nullptr: the word vectors in the basis whose leading coordinates the
//                     concatenated scheme keeps (PCA coordinates for real vectors); nullptr keeps
//                     the leading coordinates of embeddings (truncation, for synthetic vectors)
//   pe              — n×d   sinusoidal table added by the additive scheme (empty unless requested)
//   pe_concat       — n×d_pos table appended by the concatenated scheme (empty unless requested)
//   lane.x          — n×w   encoded input: αE + PE (additive), [αE_t ; PE_p] (concatenated),
//                     αE + L (learned); every other scheme acts on q, k or the logits, so αE
//   lane.weights    — h'×n×n attention weights, one n×n block per head
//   lane.terms      — t×n×n logit terms of head 0 (or W = I), scaled like the logits, before the
//                     mask (empty for a lane in CompareConfig::skip_terms); they sum (to float
//                     rounding) to head 0's pre-mask logits:
//                       additive, concatenated, learned: t = 4 [content·content, content·position,
//                         position·content, position·position]
//                       rotary, xpos, rope_pi, rope_ntk, yarn: t = 1 [rotated content·content]
//                         (yarn: times its qk factor²; xpos: with its ζ scaling)
//                       alibi, t5: t = 2 [content·content, bias]; nope: t = 1 [content·content]
//                     With W = I: every symmetric term (content·content, rotated content·content
//                     but xPos's, learned position·position) is bit-symmetric; the sinusoidal
//                     position·position terms (additive, concatenated) are exactly a function of
//                     |i − j| (PE(|i − j|)·PE(0), one rounding from double); concatenated's cross
//                     terms are exactly +0; content·content is the same bits in every lane of
//                     the same width and scale.
//   lane.slopes      — alibi: h' ALiBi slopes actually used (head k: slope k of alibi_slopes(h);
//                      W = I: slope alibi_head of an alibi_heads-head model)
//   lane.frequencies — rope family: d_head/2 frequencies ω actually used
//   lane.buckets     — t5: n×n bucket of (key − query), bidirectional unless causal
//   lane.masked, lane.unmasked — nope: n×n weights of head 0 (or W = I) with and without the
//                      causal mask, whatever cfg.causal is
//   lane.max_abs     — 1 + t values: max|x|, then max|term| of each term (1 for a lane
//                      without terms: CompareConfig::input_only, skip_terms)
// Tokens sit at positions 0 … n − 1 in every scheme.
// Row reuse (W = I): a CompareResult remembers the inputs of its last call. When the next call
// has the same configuration (n aside) and its first p rows of embeddings (and concat_words) are
// bit-identical to the last call's — typing at the end of a sentence changes only the last token
// or appends one — the n×n·d products keep their entries among rows [0, p) and compute only the
// rest (O(n·d·(n − p)) instead of O(n²·d)); everything O(n²) or O(n·d) is recomputed. Results are
// bit-identical to those of a fresh CompareResult: every entry is the same products summed in
// the same order.
// Head projections: heads = 0 means W_q = W_k = W_v = I; otherwise h seeded N(0, 1/w) matrices
// of w×(w/h) each, so every head sees the same input and w must divide by h.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "encodings/phases.hpp"
#include "encodings/scheme.hpp"
#include "encodings/scheme_table.hpp"

namespace posenc {

enum class ConcatMode { same_width, widened };
// Its JS names in enum order (the first is the default): they cross to JS in the scheme table.
inline constexpr const char* kConcatModeNames[] = {"same-width", "widened"};
static_assert(sizeof(kConcatModeNames) / sizeof(kConcatModeNames[0]) == static_cast<std::size_t>(ConcatMode::widened) + 1);

// Parameters of the further schemes (schemes.hpp has the formulas); defaults, limits and the
// rules between them: the scheme table (scheme_table.hpp, kParamTable).
struct SchemeOptions {
    double trained_length = param_info(Param::trained_length).fallback;  // L
    double eval_length = param_info(Param::eval_length).fallback;        // L'; s = max(1, L'/L)
    std::size_t alibi_heads = static_cast<std::size_t>(param_info(Param::alibi_heads).fallback);  // with W = I the
    std::size_t alibi_head = static_cast<std::size_t>(param_info(Param::alibi_head).fallback);    // map uses slope k of H
    int t5_buckets = static_cast<int>(param_info(Param::t5_buckets).fallback);
    int t5_max_distance = static_cast<int>(param_info(Param::t5_max_distance).fallback);
    double xpos_gamma = param_info(Param::xpos_gamma).fallback;
    double xpos_scale_base = param_info(Param::xpos_scale_base).fallback;
    double yarn_alpha = param_info(Param::yarn_alpha).fallback;
    double yarn_beta = param_info(Param::yarn_beta).fallback;
};

// The options as the table's values, and back (integers cast; valid values are whole).
ParamValues to_params(const SchemeOptions& options);
SchemeOptions from_params(const ParamValues& values);

// Fixed seeds: the learned-style table (lab.learnedTable's default) and T5's bucket values
// (head k uses kT5Seed + k; W = I uses kT5Seed, lab.t5Bias's default).
inline constexpr std::uint64_t kLearnedSeed = 1;
inline constexpr std::uint64_t kT5Seed = 1;

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
    SchemeSet schemes = kClassicSchemes; // only these lanes are computed
    // Lanes (a subset of schemes) whose n×n parts nobody will read this call — the page's lanes
    // showing a trained head's map, their decomposition folded: only x and the scheme's
    // parameters are made (weights, terms, masked, unmasked come back empty, max_abs holds max|x|
    // alone). Their kept products are dropped, so the next call computing them starts afresh.
    SchemeSet input_only = 0;
    // Lanes (a subset of schemes) whose logit terms nobody will read this call — the page's
    // folded decompositions: their weights are made as ever, bit for bit, but no term is formed
    // where the weights can do without (terms come back empty, max_abs holds max|x| alone).
    SchemeSet skip_terms = 0;
    SchemeOptions options;
};

// W = I: a lane's n×n·d products of the last call (scaled like its terms), kept for row reuse:
// product = content·position (additive, learned), the word-part gram (concatenated), the rotated
// gram (rope family); position = the learned table's gram; rotated = the rotated rows αE (n×w;
// rotary, rope_pi, rope_ntk, yarn); distances = the sinusoidal position·position term by distance
// k = 0 … n − 1 (additive, concatenated), kept while the settings stay the same; exps, shifts =
// the weights' exps (n×n) and each row's shift (n), for softmax_rows_kept (attention.hpp; every
// lane but NoPE's, whose head 0 takes two softmaxes); logits = the decomposed lanes' summed
// logits (n×n) while their terms are skipped, which the softmax reads in place. While additive's
// or concatenated's terms are skipped and its logits kept, a key sums its new rows and columns
// from the vectors and that lane keeps no product (sum_identity_region).
struct LaneCache {
    std::vector<float> product, position, rotated, distances, exps, shifts, logits;
};

struct SchemeResult {
    std::size_t width = 0;
    std::size_t term_count = 0;
    std::vector<float> x, weights, terms;
    std::vector<double> slopes, frequencies;
    double scale_factor = 1.0, qk_factor = 1.0;  // rope family: s, and YaRN's √(1/t)
    std::vector<std::int32_t> buckets;
    std::vector<float> masked, unmasked;
    // [max|x|, max|term 0|, …, max|term t−1|] (analyses.hpp max_abs): the lane's colour ranges.
    std::vector<float> max_abs;
    LaneCache cache;
};

// Scratch reused across calls so that a repeated compare allocates nothing once warm; nothing in
// it carries meaning from one call to the next. content: αE (n×d); gram_pack: packed rows for
// the symmetric products; bias_by_offset, bucket_by_offset: a bias or bucket by key − query;
// region: a key's new rows of a decomposed lane's products (sum_identity_region).
struct CompareWorkspace {
    std::vector<float> content, word_part, position_part, projected, w_q, w_k, q, k, q2, k2, bias_by_offset,
        t5_values, gram_pack, region;
    std::vector<std::int32_t> bucket_by_offset;
};

// What one call leaves for the next (row reuse, compare.hpp's header): the last call's
// configuration and inputs, how many leading rows this call shares with them (0 when the
// configuration differs, heads > 0, or n < 4), and the tables and products whose rows survive.
struct CompareCache {
    CompareConfig last_cfg;
    bool last_valid = false, last_had_words = false;
    std::vector<float> last_embeddings, last_words;
    std::size_t last_n = 0, reuse_rows = 0;
    // The W = I content products αE·αEᵀ (n×n, unscaled), made on first use in a call and shared
    // by every lane whose content term they are.
    std::vector<float> content_dots;
    bool content_dots_ready = false;  // content_dots holds this call's products
    bool content_dots_kept = false;   // … and the last call's, at the start of a call
    // The first table.size()/table_d rows of the learned table for this d.
    std::vector<float> table;
    std::size_t table_d = 0;
    // pe and pe_concat are kept between calls: a row depends on (d, base, layout) only, so while
    // those stay the same the rows already there are reused and only new rows are computed.
    struct TableKey {
        std::size_t d = 0;
        double base = 0.0;
        Layout layout = Layout::interleaved;
    };
    TableKey pe_key, pe_concat_key;
};

// The lanes (what a caller reads), with the workspace and the cache of the calls that made them.
// Callers must not modify pe or pe_concat (kept rows, CompareCache).
struct CompareResult {
    std::vector<float> pe, pe_concat;
    SchemeResult additive, concatenated, rotary, learned, alibi, nope, t5, xpos, rope_pi, rope_ntk, yarn;
    SchemeResult& lane(Scheme s);
    const SchemeResult& lane(Scheme s) const;
    CompareWorkspace work;
    CompareCache cache;
};

// Returns nullptr when cfg is valid, else a message naming the offending field.
const char* validate(const CompareConfig& cfg);
const char* validate(const SchemeOptions& options, bool causal);

// Requires validate(cfg) == nullptr. Lanes not in cfg.schemes are emptied.
void compare(const CompareConfig& cfg, const float* embeddings, CompareResult& result,
             const float* concat_words = nullptr);

// ---- Score against distance, per scheme ------------------------------------------------------
// curve[k], k = 0 … max_distance: the position-dependent part of the logit between two identical
// content vectors k tokens apart (query at position k, key at 0), in logit units (÷√width):
//   additive      PE(k)·PE(0)/√d = Σ_i cos(k·ω_i)/√d
//   concatenated  PE_{d_pos}(k)·PE_{d_pos}(0)/√w (its own ω; w = d, or d + d_pos widened)
//   learned       L(k)·L(0)/√d (the seeded table)
//   rope family   u·R(k·ω)·u/√d for the all-ones u = (2/√d)·Σ_i cos(k·ω_i), with the scheme's ω,
//                 times ζ_i^(k/λ) inside the sum for xpos, times qk factor² for yarn
//   alibi         −m·k (m: slope alibi_head of alibi_heads)
//   t5            value of bucket(−k) (seed kT5Seed; bidirectional unless causal)
//   nope          0
struct CurveConfig {
    std::size_t d = 0;
    std::size_t max_distance = 0;        // 1 … 65536, (max_distance + 1)·d ≤ 2^24
    double base = 10000.0;
    std::size_t d_pos = 0;
    ConcatMode concat_mode = ConcatMode::same_width;
    bool causal = false;
    SchemeSet schemes = kClassicSchemes;
    SchemeOptions options;
};
inline constexpr std::size_t kMaxCurveDistance = 65536;

const char* validate(const CurveConfig& cfg);

// out: one row of max_distance + 1 floats per scheme in cfg.schemes, in Scheme order.
// Requires validate(cfg) == nullptr.
void distance_curves(const CurveConfig& cfg, float* out);

}  // namespace posenc
