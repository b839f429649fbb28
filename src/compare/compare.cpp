// compare(): one sentence through the requested schemes. This file clears and tracks the call
// (row reuse), runs each lane's heads (run_scheme: one function per kind of lane) and NoPE's lane;
// the families' own work is in absolute.cpp, rotation.cpp and bias.cpp (lanes.hpp).
#include "compare/compare.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "attention/attention.hpp"
#include "compare/lanes.hpp"
#include "vectors/embedding.hpp"
#include "encodings/encodings.hpp"
#include "attention/products.hpp"

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

namespace detail {

namespace {
std::uint64_t head_matrix_seed(std::uint64_t seed, std::size_t width, std::size_t head, std::size_t which) {
    return hash_token("head") ^ (seed * 0x9e3779b97f4a7c15ull) ^ (std::uint64_t{width} << 40) ^
           (std::uint64_t{head} << 8) ^ which;
}

// Everything compare() reads besides the inputs' rows and n (the lane set aside: lanes are
// independent of each other).
bool same_settings(const CompareConfig& a, const CompareConfig& b) {
    const ParamValues x = to_params(a.options), y = to_params(b.options);
    for (unsigned i = 0; i < kParamCount; ++i) {
        if (x.v[i] != y.v[i]) return false;
    }
    return a.d == b.d && a.alpha == b.alpha && a.base == b.base && a.layout == b.layout && a.pairing == b.pairing &&
           a.d_pos == b.d_pos && a.concat_mode == b.concat_mode && a.causal == b.causal && a.heads == b.heads &&
           a.head_seed == b.head_seed && a.scale == b.scale;
}

// Rows this call shares with the last one (see compare.hpp); then remembers this call's inputs.
POSENC_COLD void track_inputs(const CompareConfig& cfg, const float* embeddings, const float* concat_words,
                              CompareResult& r) {
    const std::size_t n = cfg.n, d = cfg.d, row = d * sizeof(float);
    std::size_t shared = 0;
    if (r.cache.last_valid && cfg.heads == 0 && n >= 4 && r.cache.last_n >= 4 && same_settings(cfg, r.cache.last_cfg) &&
        (concat_words != nullptr) == r.cache.last_had_words) {
        const std::size_t limit = std::min(n, r.cache.last_n);
        while (shared < limit && std::memcmp(embeddings + shared * d, r.cache.last_embeddings.data() + shared * d, row) == 0 &&
               (!concat_words || std::memcmp(concat_words + shared * d, r.cache.last_words.data() + shared * d, row) == 0)) {
            ++shared;
        }
    }
    r.cache.reuse_rows = shared;
    // The position·position values by distance depend on the settings alone.
    if (!(r.cache.last_valid && same_settings(cfg, r.cache.last_cfg))) {
        for (unsigned s = 0; s < kSchemeCount; ++s) r.lane(static_cast<Scheme>(s)).cache.distances.clear();
    }
    r.cache.last_embeddings.assign(embeddings, embeddings + n * d);
    if (concat_words) r.cache.last_words.assign(concat_words, concat_words + n * d);
    else r.cache.last_words.clear();
    r.cache.last_had_words = concat_words != nullptr;
}
}  // namespace

// Rows of a lane's kept matrix (rows of row_size floats) reusable this call: the lane must have
// been computed last call.
std::size_t lane_reuse(const CompareResult& r, Scheme scheme, const std::vector<float>& kept, std::size_t row_size) {
    return has(r.cache.last_cfg.schemes, scheme) && kept.size() == r.cache.last_n * row_size ? r.cache.reuse_rows : 0;
}

// The W = I content products αE·αEᵀ (unscaled) of this call, computed on first use (rows
// shared with the last call kept when it made them too).
const float* content_dots(const CompareConfig& cfg, CompareResult& s) {
    if (!s.cache.content_dots_ready) {
        const std::size_t keep = s.cache.content_dots_kept && s.cache.content_dots.size() == s.cache.last_n * s.cache.last_n ? s.cache.reuse_rows : 0;
        refresh_product(s.work.content.data(), s.work.content.data(), cfg.n, cfg.d, cfg.d, 1.0f, keep, s.cache.last_n, s.work.gram_pack,
                        s.cache.content_dots);
        s.cache.content_dots_ready = true;
    }
    return s.cache.content_dots.data();
}

Kind kind_of(Scheme s) {
    switch (scheme_info(s).family) {
        case Family::absolute:
        case Family::concatenated: return Kind::decomposed;
        case Family::logit_bias: return Kind::biased;
        case Family::none: return Kind::plain;
        case Family::rotation: break;
    }
    return Kind::rotated;
}

POSENC_COLD void set_content(SchemeResult& lane, const CompareResult& r, std::size_t d) {
    lane.width = d;
    lane.x.assign(r.work.content.begin(), r.work.content.end());
}

namespace {

// One lane's run_scheme call: its inputs and the sizes every head shares.
struct LaneRun {
    const CompareConfig& cfg;
    Scheme scheme;
    SchemeResult& lane;
    CompareResult& s;
    const float* word_part;      // decomposed lanes with heads: x's two summands, n×w each
    const float* position_part;
    bool concat_shares_content;
    bool keep_terms;   // head 0's terms are formed (the lane is not in cfg.skip_terms)
    std::size_t n, w, nn, d_head;
    float base_scale;  // cfg.scale, or 1/√d_head
};

// A head's queries and keys, n×d_head each (the same pointer when they are equal rows).
struct QueryKey {
    const float* q;
    const float* k;
};

// Input only: nothing n×n. Emptied rather than left stale, and no kept product survives a call
// that did not refresh it (lane_reuse sees the size mismatch).
POSENC_COLD void clear_products(SchemeResult& lane) {
    lane.weights.clear();
    lane.terms.clear();
    lane.masked.clear();
    lane.unmasked.clear();
    lane.cache.product.clear();
    lane.cache.position.clear();
    lane.cache.rotated.clear();
    lane.cache.exps.clear();
    lane.cache.shifts.clear();
    lane.cache.logits.clear();
}

// The lane's outputs (head_count weight maps, term_count term maps) and its heads' scratch.
POSENC_COLD void size_buffers(const LaneRun& run, Kind kind, std::size_t head_count) {
    const std::size_t n = run.n, w = run.w, d_head = run.d_head;
    CompareWorkspace& work = run.s.work;
    run.lane.weights.resize(head_count * run.nn);
    if (run.keep_terms) run.lane.terms.resize(run.lane.term_count * run.nn);
    else run.lane.terms.clear();
    if (run.cfg.heads > 0) {
        work.q.resize(n * d_head);
        work.k.resize(n * d_head);
        work.w_q.resize(w * d_head);
        work.w_k.resize(w * d_head);
    }
    if (kind == Kind::rotated) {
        work.q2.resize(n * d_head);
        if (run.cfg.heads > 0 || run.scheme == Scheme::xpos) work.k2.resize(n * d_head);
    }
}

// Head `head`'s q and k: x itself with W = I; otherwise x through the head's seeded N(0, 1/w)
// projections, which stay in work.w_q and work.w_k for the decomposed lanes' terms.
POSENC_COLD QueryKey project_head(const LaneRun& run, std::size_t head) {
    const float* x = run.lane.x.data();
    if (run.cfg.heads == 0) return {x, x};
    CompareWorkspace& work = run.s.work;
    const std::size_t n = run.n, w = run.w, d_head = run.d_head;
    const double sigma = 1.0 / std::sqrt(static_cast<double>(w));
    gaussian_matrix(head_matrix_seed(run.cfg.head_seed, w, head, 0), w, d_head, sigma, work.w_q.data());
    gaussian_matrix(head_matrix_seed(run.cfg.head_seed, w, head, 1), w, d_head, sigma, work.w_k.data());
    project(x, n, w, work.w_q.data(), d_head, work.q.data());
    project(x, n, w, work.w_k.data(), d_head, work.k.data());
    return {work.q.data(), work.k.data()};
}

// Whether this head's logits go to the lane's terms first (head 0 of a lane that keeps them).
bool into_terms(const LaneRun& run, std::size_t head) { return head == 0 && run.keep_terms; }

// The content logits q·kᵀ·scale: head 0's first term, or straight into the head's weights.
// → where they are: those two, or (W = I rotated, no terms) the lane's kept product itself,
// which softmax reads without a copy (n² floats). softmax_rows never reads above the diagonal
// of a causal row, so unmasked logits serve both cases wherever they are needed anyway (head 0's
// terms).
POSENC_COLD const float* content_logits(const LaneRun& run, std::size_t head, QueryKey qk, float scale, bool rotated,
                                        float* weights) {
    const CompareConfig& cfg = run.cfg;
    CompareResult& s = run.s;
    const std::size_t n = run.n, nn = run.nn, d_head = run.d_head;
    float* logits = into_terms(run, head) ? run.lane.terms.data() : weights;
    if (cfg.heads == 0 && !rotated) {
        // W = I: αE·αEᵀ is the same for every unrotated lane; computed once a call.
        scale_into(scale, content_dots(cfg, s), nn, logits);
    } else if (cfg.heads == 0) {
        // W = I rotated: R(i)x_i·R(j)x_j is symmetric in i, j (xPos's scaled keys are not).
        std::vector<float>& product = run.lane.cache.product;
        refresh_product(qk.q, qk.k, n, d_head, d_head, scale, lane_reuse(s, run.scheme, product, s.cache.last_n),
                        s.cache.last_n, s.work.gram_pack, product);
        if (logits == weights) return product.data();
        std::copy_n(product.data(), nn, logits);
    } else if (qk.q == qk.k) {
        gram(qk.q, n, d_head, d_head, scale, s.work.gram_pack, logits);
    } else {
        // Head 0 unmasked: its terms, and NoPE's unmasked weights, need the whole matrix.
        attention_scores(qk.q, qk.k, n, n, d_head, scale, head == 0 ? false : cfg.causal, logits);
    }
    return logits;
}

// ---- One function per kind (kind_of): a head's logits into weights, and head 0's terms --------

// Absolute and concatenated: x = word part + position part, so head 0's logits split into four
// terms (Ke et al.). With W = I the logits are the terms' sum, derived rather than computed
// again, so terms and weights agree whatever the terms' rounding; skipped terms are summed as
// they would be, without being formed.
POSENC_COLD const float* decomposed_logits(const LaneRun& run, std::size_t head, QueryKey qk, float* weights) {
    const CompareConfig& cfg = run.cfg;
    const std::size_t n = run.n, w = run.w, d_head = run.d_head;
    float* terms = run.lane.terms.data();
    if (cfg.heads == 0 && !run.keep_terms) {
        return identity_logits(cfg, run.scheme, run.lane, run.base_scale, run.concat_shares_content, run.s);
    }
    run.lane.cache.logits.clear();  // not refreshed this call: none kept for the next (lane_reuse)
    if (cfg.heads == 0) {
        identity_terms(cfg, run.scheme, run.lane, run.base_scale, run.concat_shares_content, run.s, terms);
        sum_terms(terms, run.nn, weights);
        return weights;
    }
    attention_scores(qk.q, qk.k, n, n, d_head, run.base_scale, cfg.causal, weights);
    if (!into_terms(run, head)) return weights;
    // Head 0's terms: each summand through the head's own projections.
    CompareWorkspace& work = run.s.work;
    work.projected.resize(4 * n * d_head);
    float* p = work.projected.data();
    project(run.word_part, n, w, work.w_q.data(), d_head, p);
    project(run.position_part, n, w, work.w_q.data(), d_head, p + n * d_head);
    project(run.word_part, n, w, work.w_k.data(), d_head, p + 2 * n * d_head);
    project(run.position_part, n, w, work.w_k.data(), d_head, p + 3 * n * d_head);
    logit_terms(p, p + n * d_head, p + 2 * n * d_head, p + 3 * n * d_head, n, d_head, run.base_scale, terms);
    return weights;
}

// Rotation: q and k rotated at their positions (rotate_for also gives the scale, YaRN's
// included), then their product. With W = I the rotated rows are kept, and the next call rotates
// only its new rows.
POSENC_COLD const float* rotated_logits(const LaneRun& run, std::size_t head, QueryKey qk, float* weights) {
    const bool shared = qk.q == qk.k && run.scheme != Scheme::xpos;  // see rotate_for
    float* q_out = run.s.work.q2.data();
    float* k_out = shared ? nullptr : run.s.work.k2.data();
    std::size_t from = 0;
    if (run.cfg.heads == 0 && run.scheme != Scheme::xpos) {
        from = lane_reuse(run.s, run.scheme, run.lane.cache.rotated, run.d_head);
        run.lane.cache.rotated.resize(run.n * run.d_head);
        q_out = run.lane.cache.rotated.data();
    }
    const float scale =
        rotate_for(run.cfg, run.scheme, run.lane, qk.q, qk.k, run.d_head, run.base_scale, from, q_out, k_out);
    return content_logits(run, head, {q_out, shared ? q_out : k_out}, scale, true, weights);
}

// Logit bias: the content logits plus a bias by key − query; head 0 keeps the two as its terms
// (1·bias is exact, so adding in place gives the bits of their sum).
POSENC_COLD const float* biased_logits(const LaneRun& run, std::size_t head, QueryKey qk, float* weights) {
    const std::size_t n = run.n, nn = run.nn;
    content_logits(run, head, qk, run.base_scale, false, weights);
    bias_table(run.cfg, run.scheme, head, run.lane, run.s);
    const float* by_offset = run.s.work.bias_by_offset.data();
    float* terms = run.lane.terms.data();
    if (into_terms(run, head)) {
        fill_by_offset(by_offset, n, false, terms + nn);
        add_encoding(terms, 1.0f, terms + nn, nn, weights);
    } else {
        fill_by_offset(by_offset, n, true, weights);
    }
    return weights;
}

// None (NoPE): the content logits alone (head 0's only term, where the terms are kept).
POSENC_COLD const float* plain_logits(const LaneRun& run, std::size_t head, QueryKey qk, float* weights) {
    return content_logits(run, head, qk, run.base_scale, false, weights);
}

// A head's logits, in `weights` or in a buffer they already sit in (head 0's terms, a kept
// product): → where they are, for normalise_head to read.
using HeadLogits = const float* (*)(const LaneRun&, std::size_t head, QueryKey qk, float* weights);
// Indexed by Kind, in its order.
constexpr HeadLogits kHeadLogits[] = {decomposed_logits, rotated_logits, biased_logits, plain_logits};
static_assert(static_cast<int>(Kind::decomposed) == 0 && static_cast<int>(Kind::rotated) == 1 &&
              static_cast<int>(Kind::biased) == 2 && static_cast<int>(Kind::plain) == 3);

// W = I: the kept rows' logits are the last call's wherever both are kept (row reuse), so their
// exps are too, where each row's maximum stays where it was (softmax_rows_kept).
POSENC_COLD void softmax_keeping_exps(const LaneRun& run, const float* logits, float* weights) {
    LaneCache& kept = run.lane.cache;
    const std::size_t n = run.n, last_n = run.s.cache.last_n;
    const std::size_t keep = kept.shifts.size() == last_n ? lane_reuse(run.s, run.scheme, kept.exps, last_n) : 0;
    restride(kept.exps, last_n, keep, n);
    kept.shifts.resize(n);
    softmax_rows_kept(logits, n, run.cfg.causal, keep, kept.exps.data(), kept.shifts.data(), weights);
}

// The head's logits (weights itself, or HeadLogits' buffer) become its weights. NoPE's head 0
// keeps both its masked and its unmasked weights (the mask is all that breaks its symmetry) and
// shows the one cfg.causal picks.
void normalise_head(const LaneRun& run, std::size_t head, const float* logits, float* weights) {
    const std::size_t n = run.n;
    SchemeResult& lane = run.lane;
    if (run.scheme == Scheme::nope && head == 0) {
        lane.masked.resize(run.nn);
        lane.unmasked.resize(run.nn);
        softmax_rows(logits, n, n, true, lane.masked.data());
        softmax_rows(logits, n, n, false, lane.unmasked.data());
        const std::vector<float>& chosen = run.cfg.causal ? lane.masked : lane.unmasked;
        std::copy(chosen.begin(), chosen.end(), weights);
        return;
    }
    if (run.cfg.heads > 0) {
        softmax_rows(logits, n, n, run.cfg.causal, weights);
        return;
    }
    softmax_keeping_exps(run, logits, weights);
}

}  // namespace

// word_part, position_part: the decomposed schemes' two summands of x (n×w each), read with
// projection heads only.
POSENC_COLD void run_scheme(const CompareConfig& cfg, Scheme scheme, const float* word_part, const float* position_part,
                            SchemeResult& lane, CompareResult& s, bool concat_shares_content) {
    const Kind kind = kind_of(scheme);
    const std::size_t n = cfg.n, w = lane.width;
    const std::size_t head_count = std::max<std::size_t>(cfg.heads, 1);
    const std::size_t d_head = w / head_count;
    const float base_scale = cfg.scale > 0.0f ? cfg.scale : 1.0f / std::sqrt(static_cast<float>(d_head));
    lane.term_count = kind == Kind::decomposed ? 4 : kind == Kind::biased ? 2 : 1;
    if (has(cfg.input_only, scheme)) {
        clear_products(lane);
        return;
    }
    const LaneRun run{cfg,      scheme,   lane, s,     word_part, position_part, concat_shares_content,
                      !has(cfg.skip_terms, scheme), n, w,        n * n,         d_head, base_scale};
    size_buffers(run, kind, head_count);
    const HeadLogits logits = kHeadLogits[static_cast<int>(kind)];
    for (std::size_t head = 0; head < head_count; ++head) {
        float* weights = lane.weights.data() + head * run.nn;
        normalise_head(run, head, logits(run, head, project_head(run, head), weights), weights);
    }
}

}  // namespace detail

using detail::set_content;
using detail::run_scheme;
using detail::track_inputs;

POSENC_COLD void compare(const CompareConfig& cfg, const float* embeddings, CompareResult& r, const float* concat_words) {
    const std::size_t n = cfg.n, d = cfg.d;
    const SchemeSet set = cfg.schemes;
    // Lanes not asked for give their memory back.
    for (unsigned i = 0; i < kSchemeCount; ++i) {
        if (!has(set, static_cast<Scheme>(i))) r.lane(static_cast<Scheme>(i)) = SchemeResult{};
    }
    if (!has(set, Scheme::additive)) r.pe = {};
    if (!has(set, Scheme::concatenated)) r.pe_concat = {};
    track_inputs(cfg, embeddings, concat_words, r);
    r.cache.content_dots_kept = r.cache.content_dots_ready;
    r.cache.content_dots_ready = false;  // the W = I content products of this call, made on first use

    // αE: the content part of every scheme and the whole input of those acting on q, k or logits.
    r.work.content.resize(n * d);
    scale_into(cfg.alpha, embeddings, n * d, r.work.content.data());

    detail::run_absolute_lanes(cfg, embeddings, concat_words, r);
    detail::run_rotation_lanes(cfg, r);
    detail::run_bias_lanes(cfg, r);

    if (has(set, Scheme::nope)) {
        set_content(r.nope, r, d);
        run_scheme(cfg, Scheme::nope, nullptr, nullptr, r.nope, r);
    }
    for (unsigned i = 0; i < kSchemeCount; ++i) {
        if (!has(set, static_cast<Scheme>(i))) continue;
        SchemeResult& lane = r.lane(static_cast<Scheme>(i));
        const std::size_t measured_terms = lane.terms.empty() ? 0 : lane.term_count;  // input-only: none
        lane.max_abs.resize(1 + measured_terms);
        lane.max_abs[0] = max_abs(lane.x.data(), lane.x.size());
        for (std::size_t t = 0; t < measured_terms; ++t) lane.max_abs[1 + t] = max_abs(lane.terms.data() + t * n * n, n * n);
    }
    r.cache.last_cfg = cfg;
    r.cache.last_n = n;
    r.cache.last_valid = true;
}

}  // namespace posenc
