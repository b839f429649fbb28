// Bindings of the core's kernels, schemes and tables (block `posenc`): every core module has them.
// Thin embind wrappers; see common.hpp for the conventions every binding follows.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "analysis/analyses.hpp"
#include "attention/attention.hpp"
#include "base/names.hpp"
#include "bindings/common.hpp"
#include "compare/compare.hpp"
#include "vectors/embedding.hpp"
#include "base/limits.hpp"
#include "encodings/rotary.hpp"
#include "encodings/scheme_table.hpp"
#include "encodings/schemes.hpp"
#include "encodings/sinusoidal.hpp"
#include "model/adamw.hpp"
#include "model/config.hpp"
#include "model/tasks.hpp"
#include "vectors/tokenizer.hpp"

namespace {

using namespace posenc::bindings;
using posenc::Layout;
using posenc::limits::limit_message;
namespace limits = posenc::limits;

std::string sinusoidal(std::uintptr_t out, std::size_t n, std::size_t d, double base, int layout) {
    if (const char* e = limits::check_rows_dim(n, d, limits::kMaxRows, true)) return e;
    if (const char* e = limits::check_base(base)) return e;
    if (const char* e = check_layout(layout)) return e;
    posenc::sinusoidal_table(n, d, base, static_cast<Layout>(layout), heap(out));
    return {};
}

std::string rotate(std::uintptr_t x, std::uintptr_t out, std::size_t n, std::size_t d, double base,
                   double offset, int pairing) {
    if (const char* e = limits::check_rows_dim(n, d, limits::kMaxRows, true)) return e;
    if (const char* e = limits::check_base(base)) return e;
    if (const char* e = limits::check_offset(offset)) return e;
    if (const char* e = check_pairing(pairing)) return e;
    posenc::rotate(heap(x), n, d, base, offset, static_cast<Layout>(pairing), heap(out));
    return {};
}

std::string attention(std::uintptr_t q, std::uintptr_t k, std::uintptr_t v, std::size_t n, std::size_t d,
                      double scale, bool causal, std::uintptr_t weights, std::uintptr_t output) {
    if (const char* e = limits::check_rows_dim(n, d, limits::kMaxAttentionRows, false)) return e;
    if (const char* e = limits::check_scale(scale)) return e;
    posenc::attention(heap(q), heap(k), heap(v), n, d, static_cast<float>(scale), causal, heap(weights),
                      heap(output));
    if (!posenc::softmax_rows_finite(heap(weights), n, n)) return "q·kᵀ·scale overflows float32: use smaller q, k or scale";
    return {};
}

emscripten::val tokenize(const std::string& text) { return token_array(posenc::tokenize(text)); }

std::string synthetic_embedding(const std::string& token, std::uintptr_t out, std::size_t d) {
    if (d < 1 || d > limits::kMaxDim) return limit_message("d must be between 1 and ", limits::kMaxDim);
    posenc::synthetic_embedding(posenc::hash_token(token), d, heap(out));
    return {};
}

std::string column_spread(std::uintptr_t m, std::size_t n, std::size_t d, std::uintptr_t out) {
    if (d < 1 || d > limits::kMaxDim) return limit_message("d must be between 1 and ", limits::kMaxDim);
    if (n < 1 || n * d > limits::kMaxElements) return limit_message("n·d must be between 1 and ", limits::kMaxElements);
    posenc::column_spread(heap(m), n, d, heap(out));
    return {};
}

std::string max_shift_change(std::uintptr_t base, std::uintptr_t shifted, std::size_t n, std::size_t k,
                             std::uintptr_t out) {
    if (n < 1 || k > limits::kMaxAttentionRows || n + k > limits::kMaxAttentionRows) {
        return limit_message("n + k must be between 1 and ", limits::kMaxAttentionRows);
    }
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
    if (limits::check_seed(seed)) return emscripten::val::null();  // the cast below needs it
    const posenc::CosineSpread s = posenc::random_cosine_spread(d, pairs, static_cast<std::uint64_t>(seed));
    emscripten::val out = emscripten::val::object();
    out.set("mean", s.mean);
    out.set("std", s.std);
    return out;
}

// ---- More schemes (schemes.hpp). JS validates first; these re-check and return "" or the error.

std::string alibi_bias(double slope, std::size_t n, bool causal, std::uintptr_t out) {
    if (n < 1 || n > limits::kMaxAttentionRows) return limit_message("n must be between 1 and ", limits::kMaxAttentionRows);
    if (!(slope > 0.0 && slope <= 1.0)) return "slope must be in (0, 1]";
    posenc::alibi_bias(slope, n, causal, heap(out));
    return {};
}

// slopes: h doubles (8-byte aligned heap address).
std::string alibi_slopes(std::size_t h, std::uintptr_t slopes) {
    if (h < 1 || h > limits::kMaxHeads) return limit_message("heads must be between 1 and ", limits::kMaxHeads);
    posenc::alibi_slopes(h, reinterpret_cast<double*>(slopes));
    return {};
}

// out: n×n floats; buckets: n×n int32; values: num_buckets floats (the seeded stand-ins).
std::string t5_bias(std::size_t n, bool bidirectional, int num_buckets, int max_distance, double seed,
                    std::uintptr_t out, std::uintptr_t buckets, std::uintptr_t values) {
    if (n < 1 || n > limits::kMaxAttentionRows) return limit_message("n must be between 1 and ", limits::kMaxAttentionRows);
    const posenc::ParamInfo& bucket_limits = posenc::param_info(posenc::Param::t5_buckets);
    if (num_buckets < bucket_limits.min || num_buckets > bucket_limits.max || num_buckets % 2 != 0) {
        return limit_message("numBuckets must be an even integer from ", bucket_limits.min, " to ", bucket_limits.max);
    }
    if (max_distance < posenc::t5_min_max_distance(num_buckets, !bidirectional) || max_distance > posenc::kMaxT5Distance)
        return "maxDistance must exceed the exact buckets and be at most " + posenc::whole_text(posenc::kMaxT5Distance);
    if (const char* e = limits::check_seed(seed)) return e;
    posenc::t5_bucket_values(static_cast<std::uint64_t>(seed), num_buckets, heap(values));
    posenc::t5_bias(n, bidirectional, num_buckets, max_distance, heap(values), heap(out),
                    reinterpret_cast<std::int32_t*>(buckets));
    return {};
}

// scaling: a kRopeScalingNames name. out: d/2 + 2 doubles (8-byte aligned): the frequencies,
// then s and the q/k factor (YaRN's √(1/t); 1 for the others).
std::string rope_frequencies(std::size_t d, double base, const std::string& scaling, double trained, double eval,
                             double alpha, double beta, std::uintptr_t out) {
    using posenc::kMaxContextLength;
    if (d < 2 || d > limits::kMaxDim || d % 2 != 0) return limit_message("d must be even, from 2 to ", limits::kMaxDim);
    if (const char* e = limits::check_base(base)) return e;
    posenc::RopeScaling kind;
    if (!posenc::enum_from_name(posenc::kRopeScalingNames, scaling, kind))
        return posenc::one_of("scaling", posenc::kRopeScalingNames, scaling);
    const auto within = [](double v, double min) { return v >= min && v <= kMaxContextLength; };
    if (!within(trained, 1)) return limit_message("trainedLength must be a number from 1 to ", kMaxContextLength);
    if (!within(eval, 1)) return limit_message("evalLength must be a number from 1 to ", kMaxContextLength);
    if (!within(alpha, 0)) return limit_message("alpha must be a number from 0 to ", kMaxContextLength);
    if (!within(beta, 0)) return limit_message("beta must be a number from 0 to ", kMaxContextLength);
    if (!(beta > alpha)) return "beta must be greater than alpha";
    posenc::RopeScalingConfig cfg;
    cfg.kind = kind;
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
    if (const char* e = check_pairing(pairing)) return e;
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
    if (const char* e = check_pairing(pairing)) return e;
    if (!(gamma > 0.0 && gamma <= posenc::kMaxXposGamma))
        return limit_message("gamma must be a number above 0 and at most ", posenc::kMaxXposGamma);
    if (!(scale_base >= posenc::kMinXposScaleBase && scale_base <= posenc::kMaxXposScaleBase)) {
        return limit_message("scaleBase must be a number from ", posenc::kMinXposScaleBase, " to ",
                             posenc::kMaxXposScaleBase);
    }
    posenc::xpos_rotate(heap(x), n, d, base, offset, static_cast<Layout>(pairing), gamma, scale_base, key, heap(out));
    if (!all_finite(heap(out), n * d)) {
        return "xPos scale ζ^(±P/scaleBase) overflows float32 at these positions: use a smaller offset or n, or a larger scaleBase";
    }
    return {};
}

std::string learned_table(std::uintptr_t out, std::size_t n, std::size_t d, double seed) {
    if (const char* e = limits::check_rows_dim(n, d, limits::kMaxRows, true)) return e;
    if (const char* e = limits::check_seed(seed)) return e;
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
    emscripten::val schemes = emscripten::val::array();
    for (const posenc::SchemeInfo& s : posenc::kSchemeTable) {
        emscripten::val entry = emscripten::val::object();
        put(entry, "name", emscripten::val(std::string(s.name)));
        put(entry, "label", emscripten::val(std::string(s.label)));
        put(entry, "family", emscripten::val(std::string(posenc::kFamilyNames[static_cast<unsigned>(s.family)])));
        put(entry, "trainable", emscripten::val(s.trainable));
        put(entry, "seeded", emscripten::val(s.seeded));
        emscripten::val terms = emscripten::val::array();
        for (unsigned t = 0; t < s.term_count; ++t) terms.call<void>("push", std::string(s.terms[t]));
        put(entry, "terms", emscripten::val(terms));
        put(entry, "paper", emscripten::val(std::string(s.paper)));
        if (s.family == posenc::Family::rotation) {
            const char* scaling = posenc::kRopeScalingNames[static_cast<unsigned>(s.rope_scaling)];
            put(entry, "ropeScaling", emscripten::val(std::string(scaling)));
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
        {"maxAlpha", limits::kMaxAlpha}, {"minLr", posenc::model::kMinLr}, {"maxLr", posenc::model::kMaxLr},
        {"maxBuckets", posenc::kMaxT5Buckets}, {"maxT5Distance", posenc::kMaxT5Distance},
        {"maxContextLength", posenc::kMaxContextLength}, {"maxDistance", posenc::kMaxCurveDistance},
        {"maxSeed", limits::kMaxSeed},
        {"maxVectorWords", limits::kMaxVectorWords}};
    emscripten::val out = emscripten::val::object();
    for (const auto& [name, value] : known) put(out, name, emscripten::val(value));
    return out;
}

// { schemes, params, trainable, classic, limits, ropeScalings, layouts, concatModes, families,
// syntheticKinds, wordPcas, ropeDefaults }
// (web/options.mjs, deriveTable).
emscripten::val scheme_table() {
    emscripten::val table = emscripten::val::object();
    put(table, "schemes", emscripten::val(scheme_entries()));
    put(table, "params", emscripten::val(param_entries()));
    put(table, "trainable", emscripten::val(scheme_names(posenc::kTrainableSchemes)));
    put(table, "classic", emscripten::val(scheme_names(posenc::kClassicSchemes)));  // compare()'s default lanes
    put(table, "limits", emscripten::val(limit_entries()));
    put(table, "ropeScalings", name_list(posenc::kRopeScalingNames));
    put(table, "layouts", name_list(posenc::kLayoutNames));          // layout and pairing
    put(table, "concatModes", name_list(posenc::kConcatModeNames));
    put(table, "families", name_list(posenc::kFamilyNames));
    // The model core's enums, so their unions are generated before any model core loads.
    put(table, "syntheticKinds", name_list(posenc::model::kSyntheticKindNames));
    put(table, "wordPcas", name_list(posenc::model::kWordPcaNames));
    // ropeFrequencies' defaults (RopeScalingConfig's): L, and YaRN's ramp α, β.
    const posenc::RopeScalingConfig rope;
    emscripten::val defaults = emscripten::val::object();
    put(defaults, "trainedLength", emscripten::val(rope.trained_length));
    put(defaults, "alpha", emscripten::val(rope.alpha));
    put(defaults, "beta", emscripten::val(rope.beta));
    put(table, "ropeDefaults", defaults);
    return table;
}

// The dependent rules (settle_params) on parameters in kParamTable's order: { values: the
// settled numbers in the same order, rules: [indices of the posenc::Rule values applied],
// t5Exact: the exact T5 buckets (their count, for the notes), scaleFactor: the RoPE extensions'
// s = max(1, L′/L) }, or { error } when a value is
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
    // The RoPE extensions' s for the settled L and L′, so no caller restates rope_scale_factor.
    posenc::RopeScalingConfig rope;
    rope.trained_length = v[posenc::Param::trained_length];
    rope.eval_length = v[posenc::Param::eval_length];
    put(out, "scaleFactor", emscripten::val(posenc::rope_scale_factor(rope)));
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
    emscripten::function("version", &version);
    emscripten::function("schemeTable", &scheme_table);
    emscripten::function("settleSchemeOptions", &settle_scheme_options);
}
