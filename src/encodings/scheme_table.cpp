#include "encodings/scheme_table.hpp"

#include <cmath>
#include <string>

#include "base/names.hpp"

namespace posenc {

namespace {
// "t5Buckets must be an even integer from 4 to 256", built once per parameter from its limits.
std::string range_message(const ParamInfo& p) {
    std::string m = std::string(p.name) + " must be ";
    if (p.integer) {
        m += p.even ? "an even integer from " : "an integer from ";
        return m + whole_text(p.min) + " to " + whole_text(p.max);
    }
    if (p.max == kUnbounded) return m + "a finite number ≥ " + whole_text(p.min);
    if (p.min_open) return m + "a number > " + whole_text(p.min) + " and at most " + whole_text(p.max);
    return m + "a number from " + whole_text(p.min) + " to " + whole_text(p.max);
}

const std::string& message_for(Param p) {
    static std::string messages[kParamCount];
    std::string& m = messages[static_cast<unsigned>(p)];
    if (m.empty()) m = range_message(param_info(p));
    return m;
}
}  // namespace

ParamValues default_params() {
    ParamValues values{};
    for (const ParamInfo& p : kParamTable) values[p.id] = p.fallback;
    return values;
}

const char* check_param(Param id, double value) {
    const ParamInfo& p = param_info(id);
    const bool above_min = p.min_open ? value > p.min : value >= p.min;
    const bool whole = !p.integer || (std::trunc(value) == value && (!p.even || std::fmod(value, 2.0) == 0.0));
    // NaN fails every comparison, so it is refused here too.
    if (!(std::isfinite(value) && above_min && value <= p.max && whole)) return message_for(id).c_str();
    return nullptr;
}

int t5_min_max_distance(int t5_buckets, bool causal) {
    const int exact = (causal ? t5_buckets : t5_buckets / 2) / 2;
    return exact + 1;
}

namespace {

// One rule between parameters (Rule), written once: when it holds, the message when it does not,
// and how settle_params makes it hold.
struct DependentRule {
    Rule id;
    bool (*holds)(const ParamValues& v, bool causal);
    const char* (*message)();
    void (*settle)(ParamValues& v, bool causal);
};

constexpr DependentRule kDependentRules[] = {
    {Rule::alibi_head_within_heads,
     [](const ParamValues& v, bool) { return !(v[Param::alibi_head] > v[Param::alibi_heads]); },
     [] { return "alibiHead must be an integer from 1 to alibiHeads"; },
     [](ParamValues& v, bool) { v[Param::alibi_head] = v[Param::alibi_heads]; }},
    {Rule::t5_distance_beyond_exact,
     [](const ParamValues& v, bool causal) {
         return !(v[Param::t5_max_distance] < t5_min_max_distance(static_cast<int>(v[Param::t5_buckets]), causal));
     },
     [] {
         static const std::string message =
             "t5MaxDistance must exceed the exact buckets (t5Buckets/4, or t5Buckets/2 when causal) and be at most " +
             whole_text(kMaxT5Distance);
         return message.c_str();
     },
     [](ParamValues& v, bool causal) {
         const int least = t5_min_max_distance(static_cast<int>(v[Param::t5_buckets]), causal);
         v[Param::t5_max_distance] = std::fmax(param_info(Param::t5_max_distance).fallback, least);
     }},
    {Rule::yarn_alpha_below_beta,
     [](const ParamValues& v, bool) { return v[Param::yarn_alpha] < v[Param::yarn_beta]; },
     [] { return "yarnAlpha and yarnBeta must be finite numbers with 0 ≤ yarnAlpha < yarnBeta"; },
     [](ParamValues& v, bool) {
         v[Param::yarn_alpha] = param_info(Param::yarn_alpha).fallback;
         v[Param::yarn_beta] = param_info(Param::yarn_beta).fallback;
     }},
};

}  // namespace

const char* check_dependent(const ParamValues& v, bool causal) {
    for (const DependentRule& rule : kDependentRules)
        if (!rule.holds(v, causal)) return rule.message();
    return nullptr;
}

std::vector<Rule> settle_params(ParamValues& v, bool causal) {
    std::vector<Rule> applied;
    for (const DependentRule& rule : kDependentRules) {
        if (rule.holds(v, causal)) continue;
        rule.settle(v, causal);
        applied.push_back(rule.id);
    }
    return applied;
}

}  // namespace posenc
