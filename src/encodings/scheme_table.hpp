// The scheme table: the one home of every positional scheme's facts (name, label, family, term
// names, paper, whether a model can be trained with it) and of the scheme parameters (JS name,
// default, limits, the page's narrower range), with the rules that tie parameters to each other.
// The bindings hand it to the JS API, which derives its scheme list, limits and validators from
// it; the page and the element read it from there.
//
// Adding a scheme: an enum value (scheme.hpp), an entry in kSchemeTable, its family's lanes in
// src/compare/ (absolute.cpp, rotation.cpp, bias.cpp), its tests.
#pragma once

#include <cstddef>
#include <vector>

#include "base/limits.hpp"
#include "encodings/scheme.hpp"
#include "encodings/schemes.hpp"

namespace posenc {

// Where a scheme puts position: added to x, concatenated to x, a rotation of q and k, a bias on
// the logits, or nowhere (the causal mask alone).
enum class Family : unsigned { absolute, concatenated, rotation, logit_bias, none };
// The JS names, in enum order (schemeTable().families; each scheme's family).
inline constexpr const char* kFamilyNames[] = {"absolute", "concatenated", "rotation", "logit bias", "none"};
static_assert(sizeof(kFamilyNames) / sizeof(kFamilyNames[0]) == static_cast<std::size_t>(Family::none) + 1);

struct SchemeInfo {
    Scheme id;
    const char* name;    // the JS API's and the URL's name: "rope-ntk"
    const char* label;   // short display name: "RoPE + NTK"
    Family family;
    bool trainable;      // a trainable model (model/) can be built with it
    bool seeded;         // its position values are seeded stand-ins, not trained ones
    unsigned term_count; // logit terms of compare()'s lane (compare.hpp)
    const char* terms[4];
    const char* paper;
    RopeScaling rope_scaling = RopeScaling::none;  // rotation family: how RoPE's ω is rescaled
};

inline constexpr SchemeInfo kSchemeTable[kSchemeCount] = {
    {Scheme::additive, "additive", "Additive", Family::absolute, true, false, 4,
     {"content · content", "content · position", "position · content", "position · position"},
     "Vaswani et al. 2017, Attention Is All You Need, §3.5"},
    {Scheme::concatenated, "concatenated", "Concatenated", Family::concatenated, true, false, 4,
     {"content · content", "content · position", "position · content", "position · position"},
     "Vaswani et al. 2017, §3.5, concatenated instead of summed; Ke, He & Liu 2021 (TUPE) on the cross terms"},
    {Scheme::rotary, "rotary", "Rotary", Family::rotation, true, false, 1, {"rotated content · content"},
     "Su et al. 2021, RoFormer, §3.2"},
    {Scheme::learned, "learned", "Learned-style table", Family::absolute, true, true, 4,
     {"content · content", "content · position", "position · content", "position · position"},
     "Devlin et al. 2019, BERT; Radford et al. 2019, GPT-2"},
    {Scheme::alibi, "alibi", "ALiBi", Family::logit_bias, true, false, 2, {"content · content", "ALiBi bias"},
     "Press, Smith & Lewis 2022, Train Short, Test Long, §3"},
    {Scheme::nope, "nope", "NoPE", Family::none, true, false, 1, {"content · content"},
     "Kazemnejad et al. 2023, The Impact of Positional Encoding on Length Generalization"},
    {Scheme::t5, "t5", "T5 bias", Family::logit_bias, true, true, 2, {"content · content", "T5 bucket bias"},
     "Raffel et al. 2020, Exploring the Limits of Transfer Learning (T5), §2.1"},
    {Scheme::xpos, "xpos", "xPos", Family::rotation, false, false, 1, {"rotated content · content"},
     "Sun et al. 2023, A Length-Extrapolatable Transformer, §3.2"},
    {Scheme::rope_pi, "rope-pi", "RoPE + PI", Family::rotation, false, false, 1, {"rotated content · content"},
     "Chen et al. 2023, Extending Context Window via Positional Interpolation, §2.3", RopeScaling::pi},
    {Scheme::rope_ntk, "rope-ntk", "RoPE + NTK", Family::rotation, false, false, 1, {"rotated content · content"},
     "bloc97 2023, NTK-Aware Scaled RoPE; Peng et al. 2023, YaRN, §3.1", RopeScaling::ntk},
    {Scheme::yarn, "yarn", "YaRN", Family::rotation, false, false, 1, {"rotated content · content"},
     "Peng et al. 2023, YaRN: Efficient Context Window Extension, §3.2–3.4", RopeScaling::yarn},
};

constexpr const SchemeInfo& scheme_info(Scheme s) { return kSchemeTable[static_cast<unsigned>(s)]; }

// The schemes a trainable model (model/) can be built with, read from the table's trainable
// column: docs/ARCHITECTURE.md, "The trained model".
constexpr SchemeSet table_trainable_schemes() {
    SchemeSet set = 0;
    for (const SchemeInfo& info : kSchemeTable) {
        if (info.trainable) set |= scheme_bit(info.id);
    }
    return set;
}
inline constexpr SchemeSet kTrainableSchemes = table_trainable_schemes();

constexpr bool table_in_enum_order() {
    for (unsigned i = 0; i < kSchemeCount; ++i) {
        if (static_cast<unsigned>(kSchemeTable[i].id) != i) return false;
    }
    return true;
}
static_assert(table_in_enum_order(), "kSchemeTable lists the schemes in Scheme order");

// ---- Scheme parameters (compare()'s and distanceCurves' options beyond the shared ones) ---------

enum class Param : unsigned {
    trained_length, eval_length, alibi_heads, alibi_head, t5_buckets, t5_max_distance, xpos_gamma,
    xpos_scale_base, yarn_alpha, yarn_beta
};

// A parameter's static limits: [min, max] (min excluded when min_open), whole or even numbers
// where asked. The page's controls and links keep to [page_min, page_max], inside them: the xPos
// bounds there keep ζ^(±p/λ) within float32 for every position the page shows (n ≤ 512).
// Limits that depend on another value are dependent rules (settle_scheme_options below).
struct ParamInfo {
    Param id;
    const char* name;   // the JS option name and error-message name: "t5Buckets"
    const char* label;  // the page's name for it: "T5 buckets"
    double fallback;    // the default
    double min, max;
    bool min_open, integer, even;
    double page_min, page_max;
    SchemeSet used_by;
};

inline constexpr double kMaxT5Buckets = 256.0;          // compare, distanceCurves, t5Bias, models
inline constexpr double kMaxT5Distance = 1e6;
inline constexpr double kUnbounded = 1.7976931348623157e308;  // finite, no other upper limit
inline constexpr double kMaxAlibiHeads = static_cast<double>(limits::kMaxHeads);  // alibiSlopes' own limit

inline constexpr SchemeSet kScaledRope =
    scheme_bit(Scheme::rope_pi) | scheme_bit(Scheme::rope_ntk) | scheme_bit(Scheme::yarn);

inline constexpr ParamInfo kParamTable[] = {
    {Param::trained_length, "trainedLength", "L", 2048, 1, kMaxContextLength, false, true, false, 1, kMaxContextLength,
     kScaledRope | scheme_bit(Scheme::learned)},
    {Param::eval_length, "evalLength", "L′", 8192, 1, kMaxContextLength, false, true, false, 1, kMaxContextLength,
     kScaledRope},
    {Param::alibi_heads, "alibiHeads", "ALiBi heads H", 8, 1, kMaxAlibiHeads, false, true, false, 1, kMaxAlibiHeads,
     scheme_bit(Scheme::alibi)},
    {Param::alibi_head, "alibiHead", "ALiBi head k", 1, 1, kMaxAlibiHeads, false, true, false, 1, kMaxAlibiHeads,
     scheme_bit(Scheme::alibi)},
    {Param::t5_buckets, "t5Buckets", "T5 buckets", 32, 4, kMaxT5Buckets, false, true, true, 4, kMaxT5Buckets,
     scheme_bit(Scheme::t5)},
    {Param::t5_max_distance, "t5MaxDistance", "T5 max distance", 128, 2, kMaxT5Distance, false, true, false, 2,
     kMaxT5Distance, scheme_bit(Scheme::t5)},
    {Param::xpos_gamma, "xposGamma", "xPos γ", 0.4, 0, 10, true, false, false, 0.01, 10, scheme_bit(Scheme::xpos)},
    {Param::xpos_scale_base, "xposScaleBase", "xPos λ", 512, 0, kMaxXposScaleBase, true, false, false, 64, 1e6,
     scheme_bit(Scheme::xpos)},
    {Param::yarn_alpha, "yarnAlpha", "YaRN α", RopeScalingConfig{}.alpha, 0, kUnbounded, false, false, false, 0, 1e6, scheme_bit(Scheme::yarn)},
    {Param::yarn_beta, "yarnBeta", "YaRN β", RopeScalingConfig{}.beta, 0, kUnbounded, false, false, false, 0, 1e6, scheme_bit(Scheme::yarn)},
};

inline constexpr unsigned kParamCount = sizeof(kParamTable) / sizeof(kParamTable[0]);
static_assert(kParamCount == static_cast<unsigned>(Param::yarn_beta) + 1, "kParamTable has a row for every Param");
constexpr const ParamInfo& param_info(Param p) { return kParamTable[static_cast<unsigned>(p)]; }

constexpr bool params_in_enum_order() {
    for (unsigned i = 0; i < kParamCount; ++i) {
        if (static_cast<unsigned>(kParamTable[i].id) != i) return false;
    }
    return true;
}
static_assert(params_in_enum_order(), "kParamTable lists the parameters in Param order");

// The parameter values, indexed by Param (SchemeOptions holds them by name).
struct ParamValues {
    double v[kParamCount];
    double& operator[](Param p) { return v[static_cast<unsigned>(p)]; }
    double operator[](Param p) const { return v[static_cast<unsigned>(p)]; }
};
ParamValues default_params();

// nullptr when value is within the parameter's static limits, else a message naming it
// ("t5Buckets must be an even integer from 4 to 256").
const char* check_param(Param p, double value);

// ---- Dependent rules -------------------------------------------------------------------------
// Values valid one by one but not together, each with one fallback, the same for every caller
// (page, element, API; the JS API words one note per rule applied, lab.settleSchemeOptions):
//   alibiHead ≤ alibiHeads                   — else head H (the last head of the model)
//   t5MaxDistance > the exact buckets         — else max(default, exact + 1); exact = t5Buckets/4,
//                                                t5Buckets/2 with causal buckets (t5_bucket)
//   yarnAlpha < yarnBeta                      — else both defaults
// The smallest t5MaxDistance beyond the exact buckets: t5_bucket's precondition.
int t5_min_max_distance(int t5_buckets, bool causal);

enum class Rule : unsigned { alibi_head_within_heads, t5_distance_beyond_exact, yarn_alpha_below_beta };

// Applies the rules to values that pass check_param; returns the rules that changed a value, in
// the order above (none when nothing changed).
std::vector<Rule> settle_params(ParamValues& values, bool causal);

// nullptr when the values satisfy the rules, else the message naming the parameter.
const char* check_dependent(const ParamValues& values, bool causal);

}  // namespace posenc
