// The only file that knows about Emscripten: thin embind wrappers over the core.
//
// Arrays cross the boundary as heap addresses owned by the JS API module (web/posenc.mjs),
// which validates types and lengths first; every entry here re-checks sizes and values against
// limits.hpp and returns "" on success or the error message, which JS raises as a RangeError.
// Nothing here throws or aborts, so a bad call never takes the instance down.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "analyses.hpp"
#include "analysis.hpp"
#include "attention.hpp"
#include "compare.hpp"
#include "embedding.hpp"
#include "limits.hpp"
#if POSENC_MODELS
#include "model/safetensors.hpp"
#include "model/tasks.hpp"
#include "model/training.hpp"
#include "model/transformer.hpp"
#include "model/word_vocabulary.hpp"
#endif
#include "pca.hpp"
#include "retrieval.hpp"
#include "rotary.hpp"
#include "scheme_table.hpp"
#include "schemes.hpp"
#include "sinusoidal.hpp"
#include "tokenizer.hpp"
#include "vectors.hpp"

namespace {

using posenc::Layout;
namespace limits = posenc::limits;

float* heap(std::uintptr_t address) { return reinterpret_cast<float*>(address); }

// Finite inputs can still overflow float32 inside a kernel (α·E or q·kᵀ·scale beyond ~3.4e38);
// the result is then checked rather than handed back full of NaN.
bool all_finite(const float* p, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) {
        if (!std::isfinite(p[i])) return false;
    }
    return true;
}

const char* check_layout(int layout, const char* name_error) {
    return (layout == 0 || layout == 1) ? nullptr : name_error;
}

std::string sinusoidal(std::uintptr_t out, std::size_t n, std::size_t d, double base, int layout) {
    if (const char* e = limits::check_rows_dim(n, d, limits::kMaxRows, true)) return e;
    if (const char* e = limits::check_base(base)) return e;
    if (const char* e = check_layout(layout, "layout must be 'interleaved' or 'half'")) return e;
    posenc::sinusoidal_table(n, d, base, static_cast<Layout>(layout), heap(out));
    return {};
}

std::string rotate(std::uintptr_t x, std::uintptr_t out, std::size_t n, std::size_t d, double base,
                   double offset, int pairing) {
    if (const char* e = limits::check_rows_dim(n, d, limits::kMaxRows, true)) return e;
    if (const char* e = limits::check_base(base)) return e;
    if (const char* e = limits::check_offset(offset)) return e;
    if (const char* e = check_layout(pairing, "pairing must be 'interleaved' or 'half'")) return e;
    posenc::rotate(heap(x), n, d, base, offset, static_cast<Layout>(pairing), heap(out));
    return {};
}

std::string attention(std::uintptr_t q, std::uintptr_t k, std::uintptr_t v, std::size_t n, std::size_t d,
                      double scale, bool causal, std::uintptr_t weights, std::uintptr_t output) {
    if (const char* e = limits::check_rows_dim(n, d, limits::kMaxAttentionRows, false)) return e;
    if (const char* e = limits::check_scale(scale)) return e;
    posenc::attention(heap(q), heap(k), heap(v), n, d, static_cast<float>(scale), causal, heap(weights),
                      heap(output));
    if (!all_finite(heap(weights), n * n)) return "q·kᵀ·scale overflows float32: use smaller q, k or scale";
    return {};
}

emscripten::val token_array(const std::vector<std::string>& tokens) {
    emscripten::val array = emscripten::val::array();
    for (const std::string& token : tokens) array.call<void>("push", token);
    return array;
}

emscripten::val tokenize(const std::string& text) { return token_array(posenc::tokenize(text)); }

std::string synthetic_embedding(const std::string& token, std::uintptr_t out, std::size_t d) {
    if (d < 1 || d > limits::kMaxDim) return "d must be between 1 and 4096";
    posenc::synthetic_embedding(posenc::hash_token(token), d, heap(out));
    return {};
}

// The scheme parameters as the JS API passes them: an array of numbers in kParamTable's order.
posenc::ParamValues param_values(const emscripten::val& values) {
    posenc::ParamValues v{};
    for (unsigned i = 0; i < posenc::kParamCount; ++i) v.v[i] = values[i].as<double>();
    return v;
}

// The scheme parameters checked against the table's limits, before any cast to an integer field.
const char* scheme_options(const emscripten::val& values, posenc::SchemeOptions& options) {
    const posenc::ParamValues v = param_values(values);
    for (const posenc::ParamInfo& p : posenc::kParamTable) {
        if (const char* e = posenc::check_param(p.id, v[p.id])) return e;
    }
    options = posenc::from_params(v);
    return nullptr;
}

// The compare() configuration from the JS API's arguments (n, d, schemes and options aside):
// nullptr or what is wrong, checked before the casts to float, undefined beyond float32 range.
const char* compare_config(double alpha, double base, int layout, int pairing, std::size_t d_pos, int concat_mode,
                           bool causal, std::size_t heads, double head_seed, double scale, posenc::CompareConfig& cfg) {
    if (const char* e = check_layout(layout, "layout must be 'interleaved' or 'half'")) return e;
    if (const char* e = check_layout(pairing, "pairing must be 'interleaved' or 'half'")) return e;
    if (concat_mode != 0 && concat_mode != 1) return "concat must be 'same-width' or 'widened'";
    if (!(head_seed >= 0 && head_seed <= 4294967295.0)) return "seed must be an integer from 0 to 2^32-1";
    if (!(std::fabs(alpha) <= 3.4028234663852886e38)) return "alpha must be a finite number within float32 range";
    if (const char* e = limits::check_scale(scale)) return e;
    cfg.alpha = static_cast<float>(alpha);
    cfg.base = base;
    cfg.layout = static_cast<Layout>(layout);
    cfg.pairing = static_cast<Layout>(pairing);
    cfg.d_pos = d_pos;
    cfg.concat_mode = static_cast<posenc::ConcatMode>(concat_mode);
    cfg.causal = causal;
    cfg.heads = heads;
    cfg.head_seed = static_cast<std::uint64_t>(head_seed);
    cfg.scale = static_cast<float>(scale);
    return nullptr;
}

const char* overflow_error(const posenc::CompareResult& result) {
    for (unsigned s = 0; s < posenc::kSchemeCount; ++s) {
        const std::vector<float>& w = result.lane(static_cast<posenc::Scheme>(s)).weights;
        if (!all_finite(w.data(), w.size())) return "alpha·embeddings or scale too large: attention logits overflow float32";
    }
    return nullptr;
}

template <typename T>
emscripten::val memory_view(const std::vector<T>& v) {
    return emscripten::val(emscripten::typed_memory_view(v.size(), v.data()));
}

// A result's arrays as heap views, valid until the next call that may grow the heap:
// { pe, peConcat, buckets (t5), lanes: [one per posenc::Scheme, null unless in schemes] } with a
// lane { width, x, weights, terms, magnitudes ([max|x|, max|term 0|, …]), parameters (alibi:
// slopes; rope family: frequencies), masked, unmasked (nope), scaleFactor, qkFactor }.
emscripten::val lanes_view(const posenc::CompareResult& result, posenc::SchemeSet schemes) {
    emscripten::val out = emscripten::val::object();
    out.set("pe", memory_view(result.pe));
    out.set("peConcat", memory_view(result.pe_concat));
    out.set("buckets", memory_view(result.t5.buckets));
    emscripten::val lanes = emscripten::val::array();
    for (unsigned s = 0; s < posenc::kSchemeCount; ++s) {
        if (!posenc::has(schemes, static_cast<posenc::Scheme>(s))) {
            lanes.call<void>("push", emscripten::val::null());
            continue;
        }
        const posenc::SchemeResult& r = result.lane(static_cast<posenc::Scheme>(s));
        emscripten::val lane = emscripten::val::object();
        lane.set("width", r.width);
        lane.set("x", memory_view(r.x));
        lane.set("weights", memory_view(r.weights));
        lane.set("terms", memory_view(r.terms));
        lane.set("magnitudes", memory_view(r.max_abs));
        lane.set("parameters", memory_view(r.slopes.empty() ? r.frequencies : r.slopes));
        lane.set("masked", memory_view(r.masked));
        lane.set("unmasked", memory_view(r.unmasked));
        lane.set("scaleFactor", r.scale_factor);
        lane.set("qkFactor", r.qk_factor);
        lanes.call<void>("push", lane);
    }
    out.set("lanes", lanes);
    return out;
}

// Holds one compare() result between calls so its buffers are reused, and hands JS views of them
// (valid until the next call that may grow the heap). configure() sets the scheme set (bit s for
// posenc::Scheme s) and the scheme parameters for the following run() calls.
class Comparison {
public:
    // params: the scheme parameters in kParamTable's order. Returns "" or what is wrong.
    std::string configure(std::uint32_t schemes, emscripten::val params) {
        schemes_ = schemes;
        if (const char* e = scheme_options(params, options_)) return e;
        return {};
    }

    std::string run(std::uintptr_t embeddings, std::size_t n, std::size_t d, double alpha, double base,
                    int layout, int pairing, std::size_t d_pos, int concat_mode, bool causal,
                    std::size_t heads, double head_seed, double scale, std::uintptr_t concat_words) {
        posenc::CompareConfig cfg;
        if (const char* e = compare_config(alpha, base, layout, pairing, d_pos, concat_mode, causal, heads, head_seed, scale, cfg)) {
            return e;
        }
        cfg.n = n;
        cfg.d = d;
        cfg.schemes = schemes_;
        cfg.options = options_;
        if (const char* e = posenc::validate(cfg)) return e;
        posenc::compare(cfg, heap(embeddings), result_, concat_words ? heap(concat_words) : nullptr);
        if (const char* e = overflow_error(result_)) return e;
        return {};
    }

    // Every lane's arrays as heap views in one object (lanes_view).
    emscripten::val lanes() const { return lanes_view(result_, schemes_); }

private:
    posenc::CompareResult result_;
    posenc::SchemeSet schemes_ = posenc::kClassicSchemes;
    posenc::SchemeOptions options_;
};

// out: one row of max_distance + 1 floats per scheme in the set, in Scheme order.
std::string distance_curves(std::size_t d, std::size_t max_distance, double base, std::size_t d_pos, int concat_mode,
                            bool causal, std::uint32_t schemes, emscripten::val params, std::uintptr_t out) {
    if (concat_mode != 0 && concat_mode != 1) return "concat must be 'same-width' or 'widened'";
    posenc::SchemeOptions options;
    if (const char* e = scheme_options(params, options)) return e;
    posenc::CurveConfig cfg;
    cfg.d = d;
    cfg.max_distance = max_distance;
    cfg.base = base;
    cfg.d_pos = d_pos;
    cfg.concat_mode = static_cast<posenc::ConcatMode>(concat_mode);
    cfg.causal = causal;
    cfg.schemes = schemes;
    cfg.options = options;
    if (const char* e = posenc::validate(cfg)) return e;
    posenc::distance_curves(cfg, heap(out));
    return {};
}

std::string column_spread(std::uintptr_t m, std::size_t n, std::size_t d, std::uintptr_t out) {
    if (d < 1 || d > limits::kMaxDim) return "d must be between 1 and 4096";
    if (n < 1 || n * d > limits::kMaxElements) return "n·d must be between 1 and 16777216";
    posenc::column_spread(heap(m), n, d, heap(out));
    return {};
}

std::string max_shift_change(std::uintptr_t base, std::uintptr_t shifted, std::size_t n, std::size_t k,
                             std::uintptr_t out) {
    if (n < 1 || k > limits::kMaxAttentionRows || n + k > limits::kMaxAttentionRows) return "n + k must be between 1 and 4096";
    *heap(out) = posenc::max_shift_change(heap(base), heap(shifted), n, k);
    return {};
}

std::string offset_curves(std::size_t max_offset, std::size_t d, double base, std::uintptr_t scores,
                          std::uintptr_t bound) {
    if (const char* e = limits::check_rows_dim(max_offset + 1, d, limits::kMaxRows, true)) return e;
    if (const char* e = limits::check_base(base)) return e;
    posenc::score_by_offset(max_offset, d, base, heap(scores));
    posenc::rope_decay_bound(max_offset, d, base, heap(bound));
    return {};
}

emscripten::val cosine_spread(std::size_t d, std::size_t pairs, double seed) {
    if (d < 1 || d > limits::kMaxDim || pairs < 2 || pairs > 100000) return emscripten::val::null();
    if (!(seed >= 0 && seed <= 4294967295.0)) return emscripten::val::null();  // the cast below needs it
    const posenc::CosineSpread s = posenc::random_cosine_spread(d, pairs, static_cast<std::uint64_t>(seed));
    emscripten::val out = emscripten::val::object();
    out.set("mean", s.mean);
    out.set("std", s.std);
    return out;
}

// Nearest unit row to each query (see nearest_by_cosine); truth may be 0 (no ranks). Outputs:
// best (uint32 n), cosine (float n), rank (uint32 n).
std::string nearest_unit_rows(const std::vector<float>& unit, std::size_t v, std::size_t v_dim, std::uintptr_t queries,
                              std::size_t n, std::size_t d, std::uintptr_t truth, std::uintptr_t best,
                              std::uintptr_t cosine, std::uintptr_t rank) {
    if (d != v_dim) return "queries must have the vocabulary's dimension";
    if (const char* e = limits::check_rows_dim(n, d, limits::kMaxRows, false)) return e;
    const auto* truth_rows = reinterpret_cast<const std::uint32_t*>(truth);
    if (truth_rows) {
        for (std::size_t i = 0; i < n; ++i) {
            if (truth_rows[i] >= v) return "truth indices must be below the vocabulary size";
        }
    }
    posenc::nearest_by_cosine(heap(queries), n, unit.data(), v, d, truth_rows, reinterpret_cast<std::uint32_t*>(best),
                              heap(cosine), truth_rows ? reinterpret_cast<std::uint32_t*>(rank) : nullptr);
    return {};
}

// Up to k best unit rows for one query (d floats), skipping row `exclude` (< 0: none).
std::size_t top_k_unit_rows(const std::vector<float>& unit, std::size_t v, std::size_t d, std::uintptr_t query,
                            std::size_t k, int exclude, std::uintptr_t rows_out, std::uintptr_t cosines_out) {
    if (v == 0) return 0;
    const std::size_t skip = exclude < 0 ? v : static_cast<std::size_t>(exclude);
    return posenc::top_k_by_cosine(heap(query), unit.data(), v, d, std::min(k, v), skip,
                                   reinterpret_cast<std::uint32_t*>(rows_out), heap(cosines_out));
}

// A vocabulary kept in wasm memory as unit rows, so that decoding many queries against it does
// not copy or renormalise it each time.
class Vocabulary {
public:
    // Sizes beyond the limits leave an empty vocabulary (a constructor cannot return an error;
    // nearest() then reports it) instead of a huge or wrapped allocation.
    Vocabulary(std::uintptr_t rows, std::size_t v, std::size_t d)
        : v_(valid(v, d) ? v : 0), d_(valid(v, d) ? d : 0), unit_(v_ * d_) {
        posenc::normalize_rows(heap(rows), v_, d_, unit_.data());
    }
    std::string nearest(std::uintptr_t queries, std::size_t n, std::size_t d, std::uintptr_t truth,
                        std::uintptr_t best, std::uintptr_t cosine, std::uintptr_t rank) const {
        if (v_ == 0) return "vocabulary: v and d must be at least 1, d at most 4096 and v·d at most 16777216";
        return nearest_unit_rows(unit_, v_, d_, queries, n, d, truth, best, cosine, rank);
    }
    // Writes up to k best rows for one query (d_ floats); returns how many.
    std::size_t neighbors(std::uintptr_t query, std::size_t k, int exclude, std::uintptr_t rows_out,
                          std::uintptr_t cosines_out) const {
        return top_k_unit_rows(unit_, v_, d_, query, k, exclude, rows_out, cosines_out);
    }

private:
    static bool valid(std::size_t v, std::size_t d) {
        return v >= 1 && d >= 1 && d <= limits::kMaxDim && v <= limits::kMaxElements / d;
    }
    std::size_t v_, d_;
    std::vector<float> unit_;
};

// A parsed word-vector file plus its unit rows for neighbour queries.
class WordVectors {
public:
    // bytes: heap address of the file's contents. Returns "" or what is wrong with the file.
    std::string load(std::uintptr_t bytes, std::size_t size) {
        retriever_.set_vocabulary(nullptr, 0, 0);
        unit_.clear();
        pca_ = posenc::Pca{};
        if (const char* e = posenc::parse_packed_vectors(reinterpret_cast<const std::uint8_t*>(bytes), size, set_)) {
            return e;
        }
        unit_.resize(set_.rows.size());
        posenc::normalize_rows(set_.rows.data(), set_.count, set_.dim, unit_.data());
        retriever_.set_vocabulary(unit_.data(), set_.count, set_.dim);
        return {};
    }
    std::size_t size() const { return set_.count; }
    std::size_t dim() const { return set_.dim; }
    double component_rms() const { return set_.component_rms; }
    double mean_norm() const { return set_.mean_norm; }
    // Tokenizes with this vocabulary deciding whether hyphenated words stay whole.
    emscripten::val tokenize(const std::string& text) const { return token_array(posenc::tokenize(text, &set_)); }
    int find(const std::string& word) const { return static_cast<int>(set_.find(word)); }
    std::string word(std::size_t row) const { return row < set_.count ? set_.words[row] : std::string(); }
    emscripten::val rows() const {
        return emscripten::val(emscripten::typed_memory_view(set_.rows.size(), set_.rows.data()));
    }
    std::string nearest(std::uintptr_t queries, std::size_t n, std::size_t d, std::uintptr_t truth,
                        std::uintptr_t best, std::uintptr_t cosine, std::uintptr_t rank) const {
        return nearest_unit_rows(unit_, set_.count, set_.dim, queries, n, d, truth, best, cosine, rank);
    }

    // Identity retrieval (IdentityRetriever, src/retrieval.hpp): decodes x_p = alpha·e_p + PE(p)
    // (additive; PE with base and layout) or alpha·e_p (not additive: rotary's input) for n tokens.
    // rows: n uint32 vocabulary rows (kNoTruth = 0xffffffff for a token outside the vocabulary:
    // rank 0); vectors: the n×dim unscaled word vectors. Content rows are cached by a 64-bit hash
    // of each vector's bits, so any vector (a known word's row or an unknown token's hashed one)
    // is decoded as given. Outputs: best (uint32 n), cosine (float n), rank (uint32 n).
    __attribute__((minsize)) std::string identity(std::uintptr_t rows, std::uintptr_t vectors, std::size_t n, double alpha, bool additive,
                         double base, int layout, std::uintptr_t best, std::uintptr_t cosine, std::uintptr_t rank) {
        if (set_.count == 0) return "vectors: nothing loaded";
        if (const char* e = limits::check_rows_dim(n, set_.dim, limits::kMaxRows, additive)) return e;
        if (!(std::fabs(alpha) <= 3.4028234663852886e38)) return "alpha must be a finite number within float32 range";
        if (const char* e = limits::check_base(base)) return e;
        if (const char* e = check_layout(layout, "layout must be 'interleaved' or 'half'")) return e;
        const auto* truth = reinterpret_cast<const std::uint32_t*>(rows);
        for (std::size_t p = 0; p < n; ++p) {
            if (truth[p] != posenc::kNoTruth && truth[p] >= set_.count) {
                return "rows must be vocabulary rows or 0xffffffff (unknown)";
            }
        }
        const float* e = heap(vectors);
        const std::size_t d = set_.dim;
        keys_.resize(n);
        for (std::size_t p = 0; p < n; ++p) {
            // FNV-1a over the 32-bit words, then a splitmix64 finaliser.
            std::uint64_t h = 0xcbf29ce484222325ull;
            for (std::size_t j = 0; j < d; ++j) {
                std::uint32_t bits;
                std::memcpy(&bits, e + p * d + j, 4);
                h = (h ^ bits) * 0x100000001b3ull;
            }
            h ^= h >> 30; h *= 0xbf58476d1ce4e5b9ull; h ^= h >> 27; h *= 0x94d049bb133111ebull; h ^= h >> 31;
            keys_[p] = h;
        }
        found_.resize(n);
        retriever_.retrieve(e, keys_.data(), truth, n, static_cast<float>(alpha), additive, base,
                            static_cast<Layout>(layout), found_.data());
        auto* best_out = reinterpret_cast<std::uint32_t*>(best);
        auto* rank_out = reinterpret_cast<std::uint32_t*>(rank);
        for (std::size_t p = 0; p < n; ++p) {
            best_out[p] = found_[p].best;
            heap(cosine)[p] = found_[p].cosine;
            rank_out[p] = found_[p].rank;
        }
        return {};
    }

    // Principal components of the vocabulary, computed on first use (≈ v·d²/2 multiply-adds).
    double pca_retained(std::size_t k) { return pca().retained(k); }
    // out (n×k) = PCA coordinates of n vectors (dim each), first k axes.
    std::string reduce(std::uintptr_t x, std::size_t n, std::size_t k, std::uintptr_t out) {
        if (n < 1 || n * set_.dim > limits::kMaxElements) return "n·dim must be between 1 and 16777216";
        if (k < 1 || k > set_.dim) return "k must be between 1 and the vectors' dimension";
        pca().project(heap(x), n, k, heap(out));
        return {};
    }

    // Writes up to k neighbours of the query (dim floats at `query`); returns how many.
    std::size_t neighbors(std::uintptr_t query, std::size_t k, int exclude, std::uintptr_t rows_out,
                          std::uintptr_t cosines_out) const {
        return top_k_unit_rows(unit_, set_.count, set_.dim, query, k, exclude, rows_out, cosines_out);
    }

    // For an Analysis attached to this set (C++ only, not bound).
    const posenc::VectorSet& set() const { return set_; }
    const posenc::Pca& pca() {
        if (pca_.d != set_.dim) pca_ = posenc::principal_components(set_.rows.data(), set_.count, set_.dim);
        return pca_;
    }

private:
    posenc::VectorSet set_;
    std::vector<float> unit_;
    posenc::Pca pca_;
    posenc::IdentityRetriever retriever_;
    std::vector<std::uint64_t> keys_;
    std::vector<posenc::Retrieved> found_;
};

// One keystroke in one call (posenc::Analysis): text and settings in, tokens, word vectors and
// every chosen lane out as heap views. attach() picks a WordVectors (the JS API keeps it alive
// and checks it is not disposed before each update); without one the vectors are synthetic.
class AnalysisHandle {
public:
    void attach(WordVectors& vectors) { vectors_ = &vectors; }

    // settings: { schemes (bit s for posenc::Scheme s), params (kParamTable's order), alpha, base,
    // layout, pairing, dPos, concat, causal, heads, seed, scale, d (synthetic), maxTokens, peTables }.
    // → { error } or { tokens, total, unknown, embeddings, words, pe, peConcat, …lanes_view } (no
    // lanes when there are no tokens; pe and peConcat: Analysis::pe, pe_concat).
    emscripten::val update(const std::string& text, emscripten::val s) {
        posenc::CompareConfig cfg;
        cfg.schemes = s["schemes"].as<std::uint32_t>();
        const char* error = scheme_options(s["params"], cfg.options);
        if (!error) {
            error = compare_config(s["alpha"].as<double>(), s["base"].as<double>(), s["layout"].as<int>(), s["pairing"].as<int>(),
                                   s["dPos"].as<std::size_t>(), s["concat"].as<int>(), s["causal"].as<bool>(),
                                   s["heads"].as<std::size_t>(), s["seed"].as<double>(), s["scale"].as<double>(), cfg);
        }
        posenc::WordSource source;
        if (vectors_) {
            source.set = &vectors_->set();
            if (posenc::has(cfg.schemes, posenc::Scheme::concatenated)) source.pca = &vectors_->pca();
        } else {
            source.synthetic_d = s["d"].as<std::size_t>();
        }
        if (!error) error = analysis_.update(text, source, cfg, s["maxTokens"].as<std::size_t>(), s["peTables"].as<bool>());
        if (!error && !analysis_.tokens().empty()) error = overflow_error(analysis_.result());
        emscripten::val out = error || analysis_.tokens().empty() ? emscripten::val::object()
                                                                  : lanes_view(analysis_.result(), cfg.schemes);
        if (error) {
            out.set("error", std::string(error));
            return out;
        }
        out.set("tokens", token_array(analysis_.tokens()));
        out.set("total", analysis_.total_tokens());
        out.set("unknown", memory_view(analysis_.unknown()));
        out.set("embeddings", memory_view(analysis_.embeddings()));
        out.set("words", memory_view(analysis_.words()));
        out.set("pe", memory_view(analysis_.pe()));
        out.set("peConcat", memory_view(analysis_.pe_concat()));
        return out;
    }

private:
    WordVectors* vectors_ = nullptr;
    posenc::Analysis analysis_;
};

// ---- More schemes (schemes.hpp). JS validates first; these re-check and return "" or the error.

std::string alibi_bias(double slope, std::size_t n, bool causal, std::uintptr_t out) {
    if (n < 1 || n > limits::kMaxAttentionRows) return "n must be between 1 and 4096";
    if (!(slope > 0.0 && slope <= 1.0)) return "slope must be in (0, 1]";
    posenc::alibi_bias(slope, n, causal, heap(out));
    return {};
}

// slopes: h doubles (8-byte aligned heap address).
std::string alibi_slopes(std::size_t h, std::uintptr_t slopes) {
    if (h < 1 || h > limits::kMaxHeads) return "heads must be between 1 and 64";
    posenc::alibi_slopes(h, reinterpret_cast<double*>(slopes));
    return {};
}

// out: n×n floats; buckets: n×n int32; values: num_buckets floats (the seeded stand-ins).
std::string t5_bias(std::size_t n, bool bidirectional, int num_buckets, int max_distance, double seed,
                    std::uintptr_t out, std::uintptr_t buckets, std::uintptr_t values) {
    if (n < 1 || n > limits::kMaxAttentionRows) return "n must be between 1 and 4096";
    if (num_buckets < 4 || num_buckets > posenc::kMaxT5Buckets || num_buckets % 2 != 0) {
        return "numBuckets must be an even integer from 4 to 256";
    }
    const int max_exact = (bidirectional ? num_buckets / 2 : num_buckets) / 2;
    if (max_distance <= max_exact || max_distance > 1000000) return "maxDistance must exceed the exact buckets and be at most 1000000";
    if (!(seed >= 0 && seed <= 4294967295.0)) return "seed must be an integer from 0 to 2^32-1";
    posenc::t5_bucket_values(static_cast<std::uint64_t>(seed), num_buckets, heap(values));
    posenc::t5_bias(n, bidirectional, num_buckets, max_distance, heap(values), heap(out),
                    reinterpret_cast<std::int32_t*>(buckets));
    return {};
}

// kind: 0 none, 1 pi, 2 ntk, 3 yarn. out: d/2 + 2 doubles (8-byte aligned): the frequencies,
// then s and the q/k factor (YaRN's √(1/t); 1 for the others).
std::string rope_frequencies(std::size_t d, double base, int kind, double trained, double eval, double alpha,
                             double beta, std::uintptr_t out) {
    if (d < 2 || d > limits::kMaxDim || d % 2 != 0) return "d must be even, from 2 to 4096";
    if (const char* e = limits::check_base(base)) return e;
    if (kind < 0 || kind > 3) return "scaling must be 'none', 'pi', 'ntk' or 'yarn'";
    if (!(trained >= 1 && trained <= 1e9 && eval >= 1 && eval <= 1e9)) return "trainedLength and evalLength must be from 1 to 1e9";
    if (!(alpha >= 0 && beta > alpha && beta <= 1e9)) return "beta must be greater than alpha (both from 0 to 1e9)";
    posenc::RopeScalingConfig cfg;
    cfg.kind = static_cast<posenc::RopeScaling>(kind);
    cfg.trained_length = trained;
    cfg.eval_length = eval;
    cfg.alpha = alpha;
    cfg.beta = beta;
    double* omega = reinterpret_cast<double*>(out);
    posenc::rope_frequencies(d, base, cfg, omega);
    const double s = posenc::rope_scale_factor(cfg);
    omega[d / 2] = s;
    omega[d / 2 + 1] = cfg.kind == posenc::RopeScaling::yarn ? posenc::yarn_qk_factor(s) : 1.0;
    return {};
}

// frequencies: d/2 doubles (8-byte aligned heap address).
std::string rotate_with(std::uintptr_t x, std::uintptr_t out, std::size_t n, std::size_t d, std::uintptr_t frequencies,
                        double offset, int pairing) {
    if (const char* e = limits::check_rows_dim(n, d, limits::kMaxRows, true)) return e;
    if (const char* e = limits::check_offset(offset)) return e;
    if (const char* e = check_layout(pairing, "pairing must be 'interleaved' or 'half'")) return e;
    const double* omega = reinterpret_cast<const double*>(frequencies);
    for (std::size_t i = 0; i < d / 2; ++i) {
        if (!(omega[i] >= 0.0 && omega[i] <= 1.0)) return "frequencies must be numbers from 0 to 1";
    }
    posenc::rotate_with_frequencies(heap(x), n, d, omega, offset, static_cast<Layout>(pairing), heap(out));
    return {};
}

std::string xpos_rotate(std::uintptr_t x, std::uintptr_t out, std::size_t n, std::size_t d, double base,
                        double offset, int pairing, double gamma, double scale_base, bool key) {
    if (const char* e = limits::check_rows_dim(n, d, limits::kMaxRows, true)) return e;
    if (const char* e = limits::check_base(base)) return e;
    if (const char* e = limits::check_offset(offset)) return e;
    if (const char* e = check_layout(pairing, "pairing must be 'interleaved' or 'half'")) return e;
    if (!(gamma > 0.0 && gamma <= 1e6)) return "gamma must be a positive number";
    if (!(scale_base >= 1.0 && scale_base <= 1e9)) return "scaleBase must be from 1 to 1e9";
    posenc::xpos_rotate(heap(x), n, d, base, offset, static_cast<Layout>(pairing), gamma, scale_base, key, heap(out));
    if (!all_finite(heap(out), n * d)) {
        return "xPos scale ζ^(±P/scaleBase) overflows float32 at these positions: use a smaller offset or n, or a larger scaleBase";
    }
    return {};
}

std::string learned_table(std::uintptr_t out, std::size_t n, std::size_t d, double seed) {
    if (const char* e = limits::check_rows_dim(n, d, limits::kMaxRows, true)) return e;
    if (!(seed >= 0 && seed <= 4294967295.0)) return "seed must be an integer from 0 to 2^32-1";
    posenc::learned_table(static_cast<std::uint64_t>(seed), n, d, heap(out));
    return {};
}

// ---- The scheme table (scheme_table.hpp) and the limits (limits.hpp), for the JS API to derive
// its scheme list, parameter defaults and validators from.

// obj[key] = value through one instantiation of val::set (each key length and value type would
// otherwise instantiate its own, which the element's wasm pays for).
void put(emscripten::val& obj, const char* key, const emscripten::val& value) { obj.set(key, value); }

emscripten::val scheme_names(posenc::SchemeSet set) {
    emscripten::val names = emscripten::val::array();
    for (const posenc::SchemeInfo& s : posenc::kSchemeTable) {
        if (posenc::has(set, s.id)) names.call<void>("push", std::string(s.name));
    }
    return names;
}

emscripten::val scheme_entries() {
    static const char* const kFamilies[] = {"absolute", "concatenated", "rotation", "logit bias", "none"};
    emscripten::val schemes = emscripten::val::array();
    for (const posenc::SchemeInfo& s : posenc::kSchemeTable) {
        emscripten::val entry = emscripten::val::object();
        put(entry, "name", emscripten::val(std::string(s.name)));
        put(entry, "label", emscripten::val(std::string(s.label)));
        put(entry, "family", emscripten::val(std::string(kFamilies[static_cast<unsigned>(s.family)])));
        put(entry, "trainable", emscripten::val(s.trainable));
        put(entry, "seeded", emscripten::val(s.seeded));
        emscripten::val terms = emscripten::val::array();
        for (unsigned t = 0; t < s.term_count; ++t) terms.call<void>("push", std::string(s.terms[t]));
        put(entry, "terms", emscripten::val(terms));
        put(entry, "paper", emscripten::val(std::string(s.paper)));
        static const char* const kScalings[] = {"none", "pi", "ntk", "yarn"};  // RopeScaling, as ropeFrequencies names it
        if (s.family == posenc::Family::rotation) {
            put(entry, "ropeScaling", emscripten::val(std::string(kScalings[static_cast<unsigned>(s.rope_scaling)])));
        }
        schemes.call<void>("push", entry);
    }
    return schemes;
}

emscripten::val param_entries() {
    emscripten::val params = emscripten::val::array();
    for (const posenc::ParamInfo& p : posenc::kParamTable) {
        emscripten::val entry = emscripten::val::object();
        put(entry, "name", emscripten::val(std::string(p.name)));
        put(entry, "label", emscripten::val(std::string(p.label)));
        put(entry, "default", emscripten::val(p.fallback));
        put(entry, "min", emscripten::val(p.min));
        put(entry, "max", emscripten::val(p.max == posenc::kUnbounded ? std::numeric_limits<double>::infinity() : p.max));
        put(entry, "minOpen", emscripten::val(p.min_open));
        put(entry, "integer", emscripten::val(p.integer));
        put(entry, "even", emscripten::val(p.even));
        put(entry, "pageMin", emscripten::val(p.page_min));
        put(entry, "pageMax", emscripten::val(p.page_max));
        put(entry, "schemes", emscripten::val(scheme_names(p.used_by)));
        params.call<void>("push", entry);
    }
    return params;
}

// The limits the JS API also knows before it loads a core (its LIMITS, checked against these).
emscripten::val limit_entries() {
    const std::pair<const char*, double> known[] = {
        {"maxRows", limits::kMaxRows}, {"maxAttentionRows", limits::kMaxAttentionRows}, {"maxDim", limits::kMaxDim},
        {"maxElements", limits::kMaxElements}, {"maxCompareTokens", limits::kMaxCompareTokens},
        {"maxHeads", limits::kMaxHeads}, {"maxBase", limits::kMaxBase}, {"maxOffset", limits::kMaxOffset},
        {"maxBuckets", posenc::kMaxT5Buckets}, {"maxT5Distance", posenc::kMaxT5Distance},
        {"maxContextLength", posenc::kMaxContextLength}, {"maxDistance", posenc::kMaxCurveDistance}};
    emscripten::val out = emscripten::val::object();
    for (const auto& [name, value] : known) put(out, name, emscripten::val(value));
    return out;
}

// { schemes, params, trainable, limits } (web/posenc.mjs, deriveTable).
emscripten::val scheme_table() {
    emscripten::val table = emscripten::val::object();
    put(table, "schemes", emscripten::val(scheme_entries()));
    put(table, "params", emscripten::val(param_entries()));
    put(table, "trainable", emscripten::val(scheme_names(posenc::kTrainableSchemes)));
    put(table, "limits", emscripten::val(limit_entries()));
    return table;
}

// The dependent rules (settle_params) on parameters in kParamTable's order: { values: the
// settled numbers in the same order, rules: [indices of the posenc::Rule values applied],
// t5Exact: the exact T5 buckets (their count, for the notes) }, or { error } when a value is
// outside its own limits. The JS API words the notes.
emscripten::val settle_scheme_options(emscripten::val params, bool causal) {
    emscripten::val out = emscripten::val::object();
    posenc::ParamValues v = param_values(params);
    for (const posenc::ParamInfo& p : posenc::kParamTable) {
        if (const char* e = posenc::check_param(p.id, v[p.id])) {
            put(out, "error", emscripten::val(std::string(e)));
            return out;
        }
    }
    const std::vector<posenc::Rule> applied = posenc::settle_params(v, causal);
    emscripten::val values = emscripten::val::array();
    for (unsigned i = 0; i < posenc::kParamCount; ++i) values.call<void>("push", v.v[i]);
    emscripten::val rules = emscripten::val::array();
    for (posenc::Rule rule : applied) rules.call<void>("push", static_cast<unsigned>(rule));
    put(out, "values", values);
    put(out, "rules", rules);
    put(out, "t5Exact", emscripten::val(posenc::t5_min_max_distance(static_cast<int>(v[posenc::Param::t5_buckets]), causal) - 1));
    return out;
}

bool simd_build() { return POSENC_SIMD != 0; }
std::string version() { return POSENC_VERSION; }

}  // namespace

EMSCRIPTEN_BINDINGS(posenc) {
    emscripten::function("sinusoidal", &sinusoidal);
    emscripten::function("rotate", &rotate);
    emscripten::function("attention", &attention);
    emscripten::function("tokenize", &tokenize);
    emscripten::function("syntheticEmbedding", &synthetic_embedding);
    emscripten::function("columnSpread", &column_spread);
    emscripten::function("maxShiftChange", &max_shift_change);
    emscripten::function("offsetCurves", &offset_curves);
    emscripten::function("cosineSpread", &cosine_spread);
    emscripten::function("simdBuild", &simd_build);
    emscripten::function("alibiSlopes", &alibi_slopes);
    emscripten::function("alibiBias", &alibi_bias);
    emscripten::function("t5Bias", &t5_bias);
    emscripten::function("ropeFrequencies", &rope_frequencies);
    emscripten::function("rotateWith", &rotate_with);
    emscripten::function("xposRotate", &xpos_rotate);
    emscripten::function("learnedTable", &learned_table);
    emscripten::class_<WordVectors>("WordVectors")
        .constructor<>()
        .function("load", &WordVectors::load)
        .function("size", &WordVectors::size)
        .function("dim", &WordVectors::dim)
        .function("componentRms", &WordVectors::component_rms)
        .function("meanNorm", &WordVectors::mean_norm)
        .function("find", &WordVectors::find)
        .function("tokenize", &WordVectors::tokenize)
        .function("word", &WordVectors::word)
        .function("rows", &WordVectors::rows)
        .function("neighbors", &WordVectors::neighbors)
        .function("nearest", &WordVectors::nearest)
        .function("identity", &WordVectors::identity)
        .function("pcaRetained", &WordVectors::pca_retained)
        .function("reduce", &WordVectors::reduce);
    emscripten::class_<Vocabulary>("Vocabulary")
        .constructor<std::uintptr_t, std::size_t, std::size_t>()
        .function("nearest", &Vocabulary::nearest)
        .function("neighbors", &Vocabulary::neighbors);
    emscripten::function("version", &version);
    emscripten::function("schemeTable", &scheme_table);
    emscripten::function("settleSchemeOptions", &settle_scheme_options);
    emscripten::class_<Comparison>("Comparison")
        .constructor<>()
        .function("configure", &Comparison::configure)
        .function("run", &Comparison::run)
        .function("lanes", &Comparison::lanes);
    emscripten::class_<AnalysisHandle>("Analysis")
        .constructor<>()
        .function("attach", &AnalysisHandle::attach)
        .function("update", &AnalysisHandle::update);
    emscripten::function("distanceCurves", &distance_curves);
}

// ---- Trainable models (docs/ARCHITECTURE.md, "The trained model"; JS side: web/model.mjs) ---
// Only in the page's cores (POSENC_MODELS): the <posenc-lab> element's cores leave them out, and
// with them every model routine the linker would otherwise keep (about 130 KB of wasm per core).
#if POSENC_MODELS
namespace {

namespace model = posenc::model;

// Growing wasm memory for a request that cannot fit would abort the instance (operator new has no
// way to fail softly here), so every allocation a call may make is first tried with malloc.
bool memory_available(std::uint64_t bytes) {
    if (bytes > (std::uint64_t{1} << 31)) return false;
    void* probe = std::malloc(static_cast<std::size_t>(bytes));
    std::free(probe);
    return probe != nullptr;
}
const char* kNoMemory = "not enough wasm memory for this model or batch: dispose other models or use smaller sizes";

std::uint64_t model_bytes(const model::ModelConfig& cfg) {
    return 4 * std::uint64_t{4} * model::parameter_count(cfg);  // parameters, gradients, m, v
}

// rope: 0 none, 1 pi, 2 ntk, 3 yarn (RopeScaling's order).
model::EvalOptions eval_options(int rope, double factor) {
    model::EvalOptions eval;
    eval.rope = rope >= 0 && rope <= 3 ? static_cast<posenc::RopeScaling>(rope) : posenc::RopeScaling::none;
    eval.factor = factor;
    return eval;
}

std::int32_t* ids(std::uintptr_t address) { return reinterpret_cast<std::int32_t*>(address); }
std::uint8_t* bytes_at(std::uintptr_t address) { return reinterpret_cast<std::uint8_t*>(address); }

// A training task (model/training.hpp) built once from text bytes or a synthetic spec; it writes
// its batches into its own buffers, so the page's train/evaluate calls cross the boundary once.
class TrainingTask {
public:
    // bytes: size bytes of UTF-8 text; the vocabulary is the text's own characters.
    std::string from_text(std::uintptr_t address, std::size_t size, unsigned held_out_percent) {
        if (!memory_available(12 * std::uint64_t{size})) return kNoMemory;
        return task_.set_text(std::string_view(reinterpret_cast<const char*>(address), size), held_out_percent);
    }
    // kind: 0 copy, 1 reverse, 2 sort (SyntheticKind's order).
    std::string from_synthetic(int kind, std::size_t symbols) {
        if (kind < 0 || kind > 2) return "kind must be 'text', 'copy', 'reverse' or 'sort'";
        const char* error = task_.set_synthetic(static_cast<model::SyntheticKind>(kind), symbols);
        return error ? error : "";
    }

    bool is_text() const { return task_.is_text(); }
    std::size_t vocab_size() const { return task_.vocab_size(); }
    emscripten::val vocab() const { return token_array(task_.vocab_tokens()); }
    std::size_t heldout_windows(std::size_t T) const { return task_.heldout_windows(T); }

    model::TrainingTask& core() { return task_; }

private:
    model::TrainingTask task_;
};

model::AdamWOptions adamw_options(std::uintptr_t options) {
    const double* o = reinterpret_cast<const double*>(options);
    model::AdamWOptions adamw;
    adamw.lr = static_cast<float>(o[0]);
    adamw.beta1 = static_cast<float>(o[1]);
    adamw.beta2 = static_cast<float>(o[2]);
    adamw.eps = static_cast<float>(o[3]);
    adamw.weight_decay = static_cast<float>(o[4]);
    adamw.clip = static_cast<float>(o[5]);
    return adamw;
}

// One model: its Transformer, and the last saved file until JS has copied it out.
class TrainableModel {
public:
    std::string create(const std::string& config_json) {
        model::ModelConfig cfg;
        const std::string error = model::config_from_json(config_json, cfg);
        if (!error.empty()) return error;
        return adopt(cfg, nullptr);
    }

    // bytes: size bytes of a weights file. Nothing changes unless the whole file is valid.
    std::string load(std::uintptr_t address, std::size_t size) {
        if (!memory_available(2 * std::uint64_t{size})) return kNoMemory;
        model::LoadedWeights loaded;
        const std::string error = model::read_weights(bytes_at(address), size, loaded);
        if (!error.empty()) return error;
        std::string adopted = adopt(loaded.config, loaded.params.data());
        if (!adopted.empty()) return adopted;
        vocab_ = std::move(loaded.vocab);
        has_vocab_ = loaded.has_vocab;
        // A vocabulary with <unk> makes a word-level model (tokenize); any other keeps none.
        words_ = model::WordVocabulary{};
        if (has_vocab_) (void)words_.set(vocab_);
        return {};
    }

    std::string config() const { return model::config_to_json(model_->config()); }
    // [[name, rows, cols, offset], …] in parameter_specs order (cols 0: a 1-D tensor).
    std::string tensors() const {
        std::string json = "[";
        for (const auto& spec : model_->specs()) {
            if (json.size() > 1) json += ',';
            json += "[\"" + spec.name + "\"," + std::to_string(spec.rows) + ',' + std::to_string(spec.cols) + ',' +
                    std::to_string(spec.offset) + ']';
        }
        return json + "]";
    }
    std::size_t parameter_count() const { return model_->parameter_count(); }
    std::uintptr_t parameters() { return reinterpret_cast<std::uintptr_t>(model_->parameters()); }
    std::uintptr_t gradients_address() const { return reinterpret_cast<std::uintptr_t>(model_->gradient_buffer()); }
    double steps() const { return static_cast<double>(model_->steps()); }
    bool has_vocab() const { return has_vocab_; }
    emscripten::val vocab() const { return token_array(vocab_); }
    // −1 unless the file's vocabulary is a word vocabulary (model/word_vocabulary.hpp).
    int unknown_id() const { return words_.unknown_id(); }
    // A new Int32Array: the ids of lab.tokenize(text)'s tokens, in order (word models only).
    emscripten::val tokenize(const std::string& text) {
        words_.encode(text, encoded_);
        return emscripten::val::global("Int32Array").new_(emscripten::typed_memory_view(encoded_.size(), encoded_.data()));
    }

    // out: one double, the loss.
    std::string loss(std::uintptr_t tokens, std::size_t count, std::size_t B, std::size_t T, std::uintptr_t mask,
                     std::size_t mask_count, int rope, double factor, std::uintptr_t out) {
        const model::EvalOptions eval = eval_options(rope, factor);
        if (const char* e = model::validate(model_->config(), eval)) return e;
        if (const char* e = check_batch(tokens, count, B, T, mask, mask_count, false)) return e;
        *reinterpret_cast<double*>(out) = model_->loss(ids(tokens), B, T, mask_or_null(mask), eval);
        return {};
    }

    std::string gradients(std::uintptr_t tokens, std::size_t count, std::size_t B, std::size_t T, std::uintptr_t mask,
                          std::size_t mask_count, std::uintptr_t out) {
        if (const char* e = check_batch(tokens, count, B, T, mask, mask_count, true)) return e;
        *reinterpret_cast<double*>(out) = model_->gradients(ids(tokens), B, T, mask_or_null(mask));
        return {};
    }

    // options: lr, beta1, beta2, eps, weightDecay, clip (6 doubles at `options`).
    std::string train_step(std::uintptr_t tokens, std::size_t count, std::size_t B, std::size_t T, std::uintptr_t mask,
                           std::size_t mask_count, std::uintptr_t options, std::uintptr_t out) {
        const model::AdamWOptions adamw = adamw_options(options);
        if (const char* e = model::validate(adamw)) return e;
        if (const char* e = check_batch(tokens, count, B, T, mask, mask_count, true)) return e;
        *reinterpret_cast<double*>(out) = model_->train_step(ids(tokens), B, T, mask_or_null(mask), adamw);
        return {};
    }

    // `steps` AdamW steps on the task's training batches first_index, first_index + 1, …;
    // losses (steps floats at `out`) are each step's loss before its update.
    std::string train(TrainingTask& task, std::size_t B, std::size_t T, double seed, double first_index,
                      std::size_t steps, std::uintptr_t options, std::uintptr_t out) {
        const model::AdamWOptions adamw = adamw_options(options);
        if (const char* e = model::validate_training(model_->config(), task.core(), B, T, steps, adamw)) return e;
        if (!memory_available(task.core().batch_bytes(B, T))) return kNoMemory;
        if (const char* e = workspace_fits(model::workspace_sizes(model_->config(), B, T, true).total())) return e;
        return model::train(*model_, task.core(), B, T, static_cast<std::uint64_t>(seed),
                            static_cast<std::uint64_t>(first_index), steps, adamw, heap(out));
    }

    // For each length at `lengths` (count doubles): loss, token accuracy and exact accuracy over
    // `batches` held-out batches of B rows (model::evaluate). out: 3 doubles per length.
    std::string evaluate(TrainingTask& task, std::size_t B, std::size_t batches, double seed, std::uintptr_t lengths,
                         std::size_t count, int rope, double factor, std::uintptr_t out) {
        const model::EvalOptions eval = eval_options(rope, factor);
        if (count < 1 || count > model::kMaxEvalLengths) return "lengths must hold 1 to 64 lengths";
        const double* L = reinterpret_cast<const double*>(lengths);
        std::vector<std::size_t> T(count);
        for (std::size_t i = 0; i < count; ++i) {
            // Not a whole number in range: 0, which the core refuses with the lengths message.
            const bool whole = L[i] >= 0 && L[i] <= model::kMaxSequence && L[i] == std::floor(L[i]);
            T[i] = whole ? static_cast<std::size_t>(L[i]) : 0;
            if (const char* e = model::validate_evaluation(model_->config(), task.core(), B, T[i], batches, eval))
                return e;
            if (const char* e = workspace_fits(model::workspace_sizes(model_->config(), B, T[i], false).total()))
                return e;
            if (!memory_available(task.core().batch_bytes(B, T[i]))) return kNoMemory;
        }
        double* results = reinterpret_cast<double*>(out);
        for (std::size_t i = 0; i < count; ++i) {
            model::Evaluation e;
            const std::string error =
                model::evaluate(*model_, task.core(), B, T[i], batches, static_cast<std::uint64_t>(seed), eval, e);
            if (!error.empty()) return error;
            results[3 * i] = e.loss;
            results[3 * i + 1] = e.token_accuracy;
            results[3 * i + 2] = e.exact_accuracy;
        }
        return {};
    }

    // `length` tokens continuing the prompt (count ids at `prompt`; model::generate). out: length int32.
    std::string generate(std::uintptr_t prompt, std::size_t count, std::size_t length, double temperature,
                         double seed, std::uintptr_t out) {
        const model::ModelConfig& cfg = model_->config();
        if (const char* e = model::validate_generation(cfg, ids(prompt), count, length, temperature)) return e;
        if (const char* e = workspace_fits(model::workspace_sizes(cfg, 1, cfg.context, false).total())) return e;
        if (!memory_available(model::generation_bytes(cfg, count, length))) return kNoMemory;
        model::generate(*model_, ids(prompt), count, length, temperature, static_cast<std::uint64_t>(seed), ids(out));
        return {};
    }

    // out: L·h·n·n floats (attention) or n·V floats (logits).
    std::string attention(std::uintptr_t tokens, std::size_t n, int rope, double factor, std::uintptr_t out) {
        const model::EvalOptions eval = eval_options(rope, factor);
        if (const char* e = check_sequence(tokens, n, eval)) return e;
        model_->attention(ids(tokens), n, heap(out), eval);
        return {};
    }
    // map: layer·h + head, or −1 for every map; attention_out: n·n or L·h·n·n floats, or 0 for
    // none (tokenLosses); surprise_out: n − 1 floats (Transformer::inspect).
    std::string inspect(std::uintptr_t tokens, std::size_t n, int rope, double factor, int map,
                        std::uintptr_t attention_out, std::uintptr_t surprise_out) {
        const model::EvalOptions eval = eval_options(rope, factor);
        const std::size_t chosen = map < 0 ? model::kEveryMap : static_cast<std::size_t>(map);
        if (const char* e = check_sequence(tokens, n, eval)) return e;
        if (const char* e = model::validate_inspect(model_->config(), n, chosen)) return e;
        if (const char* e = fits(model_->inspect_capacity(), model::inspect_floats(model_->config(), n))) return e;
        model_->inspect(ids(tokens), n, heap(attention_out), heap(surprise_out), eval, chosen);
        return {};
    }
    std::string logits(std::uintptr_t tokens, std::size_t n, int rope, double factor, std::uintptr_t out) {
        const model::EvalOptions eval = eval_options(rope, factor);
        if (const char* e = check_sequence(tokens, n, eval)) return e;
        model_->logits(ids(tokens), n, heap(out), eval);
        return {};
    }

    // The weights file in saved_ (savedAddress/savedSize) until releaseSaved.
    std::string save(bool f16) {
        if (!memory_available(4 * std::uint64_t{model_->parameter_count()} + (1 << 20))) return kNoMemory;
        return model::write_weights(model_->config(), model_->parameters(), model_->parameter_count(),
                                    has_vocab_ ? &vocab_ : nullptr,
                                    f16 ? model::WeightsDtype::f16 : model::WeightsDtype::f32, saved_);
    }
    std::uintptr_t saved_address() const { return reinterpret_cast<std::uintptr_t>(saved_.data()); }
    std::size_t saved_size() const { return saved_.size(); }
    void release_saved() { std::vector<std::uint8_t>().swap(saved_); }

private:
    std::string adopt(const model::ModelConfig& cfg, const float* params) {
        if (const char* e = model::validate(cfg)) return e;
        if (!memory_available(model_bytes(cfg))) return kNoMemory;
        auto next = std::make_unique<model::Transformer>(cfg);
        if (params) std::copy(params, params + next->parameter_count(), next->parameters());
        model_ = std::move(next);
        return {};
    }

    static const std::uint8_t* mask_or_null(std::uintptr_t mask) { return mask ? bytes_at(mask) : nullptr; }

    const char* check_batch(std::uintptr_t tokens, std::size_t count, std::size_t B, std::size_t T, std::uintptr_t mask,
                            std::size_t mask_count, bool training) const {
        if (const char* e = model::validate_batch(model_->config(), ids(tokens), count, B, T, mask_or_null(mask),
                                                  mask_count, training))
            return e;
        return workspace_fits(model::workspace_sizes(model_->config(), B, T, training).total());
    }

    const char* check_sequence(std::uintptr_t tokens, std::size_t n, const model::EvalOptions& eval) const {
        if (const char* e = model::validate(model_->config(), eval)) return e;
        if (const char* e = model::validate_sequence(model_->config(), ids(tokens), n, n)) return e;
        return workspace_fits(model::workspace_sizes(model_->config(), 1, n, false).total());
    }

    // The workspace and inspect's cache only grow; a call that needs no more than they hold
    // allocates nothing (and probes nothing: a probe of megabytes costs more than a one-row pass).
    const char* workspace_fits(std::uint64_t floats) const { return fits(model_->workspace_capacity(), floats); }
    static const char* fits(std::uint64_t held, std::uint64_t floats) {
        if (held >= floats) return nullptr;
        return memory_available(4 * floats) ? nullptr : kNoMemory;
    }

    std::unique_ptr<model::Transformer> model_;
    std::vector<std::string> vocab_;
    bool has_vocab_ = false;
    model::WordVocabulary words_;
    std::vector<std::int32_t> encoded_;  // tokenize's ids, reused
    std::vector<std::uint8_t> saved_;
};

// The model limits the JS API documents and pre-checks (one home: model/config.hpp, transformer.hpp).
emscripten::val model_limits() {
    emscripten::val limits = emscripten::val::object();
    limits.set("maxVocab", model::kMaxVocab);
    limits.set("maxWidth", model::kMaxWidth);
    limits.set("maxLayers", model::kMaxLayers);
    limits.set("maxHeads", model::kMaxHeads);
    limits.set("maxContext", model::kMaxContext);
    limits.set("maxParameters", model::kMaxParameters);
    limits.set("maxBatch", model::kMaxBatch);
    limits.set("maxSequence", model::kMaxSequence);
    limits.set("maxWorkspaceFloats", static_cast<double>(model::kMaxWorkspaceFloats));
    limits.set("maxSymbols", model::kMaxSymbols);
    limits.set("maxHeldOutPercent", model::kMaxHeldOutPercent);
    limits.set("maxTrainSteps", model::kMaxTrainSteps);
    limits.set("maxEvalLengths", model::kMaxEvalLengths);
    limits.set("maxEvalBatches", model::kMaxEvalBatches);
    limits.set("maxGenerate", model::kMaxGenerate);
    return limits;
}

}  // namespace

EMSCRIPTEN_BINDINGS(models) {
    emscripten::function("modelLimits", &model_limits);
    emscripten::class_<TrainingTask>("TrainingTask")
        .constructor<>()
        .function("fromText", &TrainingTask::from_text)
        .function("fromSynthetic", &TrainingTask::from_synthetic)
        .function("isText", &TrainingTask::is_text)
        .function("vocabSize", &TrainingTask::vocab_size)
        .function("vocab", &TrainingTask::vocab)
        .function("heldoutWindows", &TrainingTask::heldout_windows);
    emscripten::class_<TrainableModel>("TrainableModel")
        .constructor<>()
        .function("create", &TrainableModel::create)
        .function("load", &TrainableModel::load)
        .function("config", &TrainableModel::config)
        .function("tensors", &TrainableModel::tensors)
        .function("parameterCount", &TrainableModel::parameter_count)
        .function("parameters", &TrainableModel::parameters)
        .function("gradientsAddress", &TrainableModel::gradients_address)
        .function("steps", &TrainableModel::steps)
        .function("hasVocab", &TrainableModel::has_vocab)
        .function("vocab", &TrainableModel::vocab)
        .function("unknownId", &TrainableModel::unknown_id)
        .function("tokenize", &TrainableModel::tokenize)
        .function("loss", &TrainableModel::loss)
        .function("gradients", &TrainableModel::gradients)
        .function("trainStep", &TrainableModel::train_step)
        .function("attention", &TrainableModel::attention)
        .function("inspect", &TrainableModel::inspect)
        .function("logits", &TrainableModel::logits)
        .function("train", &TrainableModel::train)
        .function("evaluate", &TrainableModel::evaluate)
        .function("generate", &TrainableModel::generate)
        .function("save", &TrainableModel::save)
        .function("savedAddress", &TrainableModel::saved_address)
        .function("savedSize", &TrainableModel::saved_size)
        .function("releaseSaved", &TrainableModel::release_saved);
}
#endif  // POSENC_MODELS
