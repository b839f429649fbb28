// Bindings of comparisons, word vectors and the per-keystroke analysis (block `analysis`): every
// core module has them. Thin embind wrappers; see common.hpp for the conventions they follow.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "analysis/analyses.hpp"
#include "analysis/analysis.hpp"
#include "bindings/common.hpp"
#include "compare/compare.hpp"
#include "base/limits.hpp"
#include "analysis/pca.hpp"
#include "analysis/retrieval.hpp"
#include "attention/attention.hpp"
#include "encodings/scheme_table.hpp"
#include "vectors/tokenizer.hpp"
#include "vectors/vectors.hpp"

namespace {

using namespace posenc::bindings;
using posenc::Layout;
namespace limits = posenc::limits;

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
    if (const char* e = check_layout(layout)) return e;
    if (const char* e = check_pairing(pairing)) return e;
    if (const char* e = check_concat(concat_mode)) return e;
    if (const char* e = limits::check_seed(head_seed)) return e;
    if (const char* e = limits::check_float32("alpha", alpha)) return e;
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

// n: the result's tokens (every lane's weights are heads × n softmax rows of n).
const char* overflow_error(const posenc::CompareResult& result, std::size_t n) {
    for (unsigned s = 0; s < posenc::kSchemeCount; ++s) {
        const std::vector<float>& w = result.lane(static_cast<posenc::Scheme>(s)).weights;
        if (!posenc::softmax_rows_finite(w.data(), w.size() / n, n)) {
            return "alpha·embeddings or scale too large: attention logits overflow float32";
        }
    }
    return nullptr;
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
// (valid until the next call that may grow the heap). configure() sets the scheme set, its
// input-only and skip-terms subsets (bit s for posenc::Scheme s) and the scheme parameters for the
// following run() calls.
class Comparison {
public:
    // params: the scheme parameters in kParamTable's order. Returns "" or what is wrong.
    std::string configure(std::uint32_t schemes, std::uint32_t input_only, std::uint32_t skip_terms, emscripten::val params) {
        schemes_ = schemes;
        input_only_ = input_only;
        skip_terms_ = skip_terms;
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
        cfg.input_only = input_only_;
        cfg.skip_terms = skip_terms_;
        cfg.options = options_;
        if (const char* e = posenc::validate(cfg)) return e;
        posenc::compare(cfg, heap(embeddings), result_, concat_words ? heap(concat_words) : nullptr);
        if (const char* e = overflow_error(result_, n)) return e;
        return {};
    }

    // Every lane's arrays as heap views in one object (lanes_view).
    emscripten::val lanes() const { return lanes_view(result_, schemes_); }

private:
    posenc::CompareResult result_;
    posenc::SchemeSet schemes_ = posenc::kClassicSchemes;
    posenc::SchemeSet input_only_ = 0;
    posenc::SchemeSet skip_terms_ = 0;
    posenc::SchemeOptions options_;
};

// out: one row of max_distance + 1 floats per scheme in the set, in Scheme order.
std::string distance_curves(std::size_t d, std::size_t max_distance, double base, std::size_t d_pos, int concat_mode,
                            bool causal, std::uint32_t schemes, emscripten::val params, std::uintptr_t out) {
    if (const char* e = check_concat(concat_mode)) return e;
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
        if (v_ == 0) {
            return limits::limit_message("vocabulary: v and d must be at least 1, d at most ", limits::kMaxDim,
                                         " and v·d at most ", limits::kMaxElements);
        }
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
                        std::uintptr_t best, std::uintptr_t cosine, std::uintptr_t rank) {
        return nearest_unit_rows(unit(), set_.count, set_.dim, queries, n, d, truth, best, cosine, rank);
    }

    // Identity retrieval (IdentityRetriever, src/analysis/retrieval.hpp): decodes x_p = alpha·e_p + PE(p)
    // (additive; PE with base and layout) or alpha·e_p (not additive: rotary's input) for n tokens.
    // rows: n uint32 vocabulary rows (kNoTruth = 0xffffffff for a token outside the vocabulary:
    // rank 0); vectors: the n×dim unscaled word vectors. Content rows are cached by a 64-bit hash
    // of each vector's bits, so any vector (a known word's row or an unknown token's hashed one)
    // is decoded as given. Outputs: best (uint32 n), cosine (float n), rank (uint32 n).
    __attribute__((minsize)) std::string identity(std::uintptr_t rows, std::uintptr_t vectors, std::size_t n, double alpha, bool additive,
                         double base, int layout, std::uintptr_t best, std::uintptr_t cosine, std::uintptr_t rank) {
        if (set_.count == 0) return "vectors: nothing loaded";
        if (const char* e = limits::check_rows_dim(n, set_.dim, limits::kMaxRows, additive)) return e;
        if (const char* e = limits::check_float32("alpha", alpha)) return e;
        if (const char* e = limits::check_base(base)) return e;
        if (const char* e = check_layout(layout)) return e;
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
        unit();
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
        if (n < 1 || n * set_.dim > limits::kMaxElements)
            return limits::limit_message("n·dim must be between 1 and ", limits::kMaxElements);
        if (k < 1 || k > set_.dim) return "k must be between 1 and the vectors' dimension";
        pca().project(heap(x), n, k, heap(out));
        return {};
    }

    // Writes up to k neighbours of the query (dim floats at `query`); returns how many.
    std::size_t neighbors(std::uintptr_t query, std::size_t k, int exclude, std::uintptr_t rows_out,
                          std::uintptr_t cosines_out) {
        return top_k_unit_rows(unit(), set_.count, set_.dim, query, k, exclude, rows_out, cosines_out);
    }

    // For an Analysis attached to this set (C++ only, not bound).
    const posenc::VectorSet& set() const { return set_; }
    const posenc::Pca& pca() {
        if (pca_.d != set_.dim) pca_ = posenc::principal_components(set_.rows.data(), set_.count, set_.dim);
        return pca_;
    }

private:
    // The unit rows, and the identity retriever over them, made on first use: only the analyses
    // and the nearest-word queries read them, so a set that the page only tokenizes and embeds
    // (its first views, while the models load) does not hold or normalise them yet.
    const std::vector<float>& unit() {
        if (unit_.empty() && !set_.rows.empty()) {
            unit_.resize(set_.rows.size());
            posenc::normalize_rows(set_.rows.data(), set_.count, set_.dim, unit_.data());
            retriever_.set_vocabulary(unit_.data(), set_.count, set_.dim);
        }
        return unit_;
    }

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

    // settings: { schemes, inputOnly, skipTerms (bit s for posenc::Scheme s), params (kParamTable's order), alpha, base,
    // layout, pairing, dPos, concat, causal, heads, seed, scale, d (synthetic), maxTokens, peTables,
    // skipRepeat (Analysis::update's skip_repeat) }.
    // → { error } or { tokens, total, unknown, embeddings, words, pe, peConcat, …lanes_view } (no
    // lanes when there are no tokens; pe and peConcat: Analysis::pe, pe_concat), or { repeated:
    // true } alone when skipRepeat found the last call's tokens again (nothing computed).
    emscripten::val update(const std::string& text, emscripten::val s) {
        posenc::CompareConfig cfg;
        cfg.schemes = s["schemes"].as<std::uint32_t>();
        cfg.input_only = s["inputOnly"].as<std::uint32_t>();
        cfg.skip_terms = s["skipTerms"].as<std::uint32_t>();
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
        if (!error) {
            error = analysis_.update(text, source, cfg, s["maxTokens"].as<std::size_t>(), s["peTables"].as<bool>(),
                                     s["skipRepeat"].as<bool>());
        }
        if (!error && analysis_.repeated()) {
            emscripten::val out = emscripten::val::object();
            out.set("repeated", true);
            return out;
        }
        if (!error && !analysis_.tokens().empty()) error = overflow_error(analysis_.result(), analysis_.tokens().size());
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

}  // namespace

EMSCRIPTEN_BINDINGS(analysis) {
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
