// Validation of compare()'s and distance_curves' configurations, in one place: the scheme
// parameters against the scheme table (limits and dependent rules), the rest against limits.hpp.
#include <algorithm>
#include <cmath>

#include "base/cold.hpp"
#include "compare/compare.hpp"
#include "base/limits.hpp"

namespace posenc {

namespace {
// xPos scales queries by ζ^(P/λ) and keys by ζ^(−P/λ); e^±40 (≈ 2^±58) keeps both factors far
// inside float32's normal range, so the logits lose no precision to underflow.
inline constexpr double kMaxXposExponent = 40.0;

// All lanes of one compare() together: as much as the three original ones could take.
inline constexpr std::size_t kMaxLaneElements = 3 * limits::kMaxElements;

using limits::limit_message;

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

ParamValues to_params(const SchemeOptions& o) {
    ParamValues v{};
    v[Param::trained_length] = o.trained_length;
    v[Param::eval_length] = o.eval_length;
    v[Param::alibi_heads] = static_cast<double>(o.alibi_heads);
    v[Param::alibi_head] = static_cast<double>(o.alibi_head);
    v[Param::t5_buckets] = o.t5_buckets;
    v[Param::t5_max_distance] = o.t5_max_distance;
    v[Param::xpos_gamma] = o.xpos_gamma;
    v[Param::xpos_scale_base] = o.xpos_scale_base;
    v[Param::yarn_alpha] = o.yarn_alpha;
    v[Param::yarn_beta] = o.yarn_beta;
    return v;
}

SchemeOptions from_params(const ParamValues& v) {
    SchemeOptions o;
    o.trained_length = v[Param::trained_length];
    o.eval_length = v[Param::eval_length];
    o.alibi_heads = static_cast<std::size_t>(v[Param::alibi_heads]);
    o.alibi_head = static_cast<std::size_t>(v[Param::alibi_head]);
    o.t5_buckets = static_cast<int>(v[Param::t5_buckets]);
    o.t5_max_distance = static_cast<int>(v[Param::t5_max_distance]);
    o.xpos_gamma = v[Param::xpos_gamma];
    o.xpos_scale_base = v[Param::xpos_scale_base];
    o.yarn_alpha = v[Param::yarn_alpha];
    o.yarn_beta = v[Param::yarn_beta];
    return o;
}

// Each parameter within its limits (kParamTable), then the rules between them.
POSENC_COLD const char* validate(const SchemeOptions& o, bool causal) {
    const ParamValues values = to_params(o);
    for (const ParamInfo& p : kParamTable) {
        if (const char* e = check_param(p.id, values[p.id])) return e;
    }
    return check_dependent(values, causal);
}

POSENC_COLD const char* validate(const CompareConfig& cfg) {
    if (const char* e = limits::check_rows_dim(cfg.n, cfg.d, limits::kMaxCompareTokens, true)) return e;
    if (const char* e = limits::check_base(cfg.base)) return e;
    if (!std::isfinite(cfg.alpha)) return "alpha must be a finite number";
    if (!std::isfinite(cfg.scale) || cfg.scale < 0.0f) return "scale must be a finite number ≥ 0 (0 means 1/√d_head)";
    if (cfg.schemes == 0 || (cfg.schemes & ~kAllSchemes) != 0) return "schemes must be a non-empty set of known schemes";
    if ((cfg.input_only & ~cfg.schemes) != 0) return "inputOnly must name only schemes that are computed (in schemes)";
    if ((cfg.skip_terms & ~cfg.schemes) != 0) return "skipTerms must name only schemes that are computed (in schemes)";
    const bool concatenated = has(cfg.schemes, Scheme::concatenated);
    if (concatenated) {
        if (cfg.d_pos < 2 || cfg.d_pos % 2 != 0) return "d_pos must be an even number ≥ 2";
        if (cfg.concat_mode == ConcatMode::same_width && cfg.d_pos >= cfg.d) {
            return "d_pos must be smaller than d when the concatenation keeps the same width";
        }
        if (cfg.d_pos > limits::kMaxDim) return limit_message("d_pos must be at most ", limits::kMaxDim);
    }
    if (cfg.heads > limits::kMaxHeads) return limit_message("heads must be at most ", limits::kMaxHeads);
    const std::size_t blocks = std::max<std::size_t>(cfg.heads, 1) * cfg.n * cfg.n;
    if (blocks > limits::kMaxElements) {
        return limit_message("heads·n² must be at most ", limits::kMaxElements, " (fewer heads or tokens)");
    }
    if (scheme_count(cfg.schemes) * blocks > kMaxLaneElements) {
        return limit_message("heads·n² times the number of schemes must be at most ", kMaxLaneElements,
                             " (fewer heads, tokens or schemes)");
    }
    if (cfg.heads > 0) {
        const std::size_t widened = cfg.concat_mode == ConcatMode::widened ? cfg.d + cfg.d_pos : cfg.d;
        if (cfg.d % cfg.heads != 0 || (concatenated && widened % cfg.heads != 0)) return "heads must divide every scheme's width";
        if ((cfg.d / cfg.heads) % 2 != 0) return "d / heads must be even (rotary pairs dimensions)";
    }
    if (const char* e = validate(cfg.options, cfg.causal)) return e;
    if (has(cfg.schemes, Scheme::xpos) && xpos_exponent(cfg.options, cfg.n - 1) > kMaxXposExponent) {
        return limit_message("xposScaleBase is too small for n tokens: ζ^(±(n−1)/xposScaleBase) would leave float32 "
                             "range (need (n−1)·ln((1+xposGamma)/xposGamma)/xposScaleBase ≤ ", kMaxXposExponent, ")");
    }
    return nullptr;
}

POSENC_COLD const char* validate(const CurveConfig& cfg) {
    if (cfg.d < 2 || cfg.d > limits::kMaxDim || cfg.d % 2 != 0)
        return limit_message("d must be an even integer from 2 to ", limits::kMaxDim);
    if (cfg.max_distance < 1 || cfg.max_distance > kMaxCurveDistance)
        return limit_message("maxDistance must be an integer from 1 to ", kMaxCurveDistance);
    if ((cfg.max_distance + 1) * cfg.d > limits::kMaxElements)
        return limit_message("(maxDistance + 1)·d must be at most ", limits::kMaxElements);
    if (const char* e = limits::check_base(cfg.base)) return e;
    if (cfg.schemes == 0 || (cfg.schemes & ~kAllSchemes) != 0) return "schemes must be a non-empty set of known schemes";
    if (has(cfg.schemes, Scheme::concatenated)) {
        if (cfg.d_pos < 2 || cfg.d_pos % 2 != 0 || cfg.d_pos > limits::kMaxDim) return limit_message("d_pos must be an even number from 2 to ", limits::kMaxDim);
        if (cfg.concat_mode == ConcatMode::same_width && cfg.d_pos >= cfg.d) {
            return "d_pos must be smaller than d when the concatenation keeps the same width";
        }
    }
    return validate(cfg.options, cfg.causal);
}

}  // namespace posenc
