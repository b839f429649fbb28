// scheme_table.hpp: every scheme and parameter has every field, the limits accept their edges and
// refuse one step beyond, the dependent rules settle every combination into a valid one with one
// note each, and compare() follows the table (term counts, families).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "compare/compare.hpp"
#include "vectors/embedding.hpp"
#include "encodings/scheme_table.hpp"

using namespace posenc;
using Catch::Matchers::Contains;

TEST_CASE("every scheme has a unique name, a label, a family, its terms and a paper", "[table]") {
    std::set<std::string> names, labels;
    for (const SchemeInfo& s : kSchemeTable) {
        const std::string name = s.name;
        CAPTURE(name);
        // Names are the JS API's and the URL's: lowercase letters, digits and inner hyphens.
        REQUIRE(!name.empty());
        for (char c : name) CHECK(((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'));
        CHECK(name.front() != '-');
        CHECK(name.back() != '-');
        CHECK(std::strlen(s.label) > 0);
        CHECK(std::strlen(s.paper) > 0);
        CHECK(static_cast<unsigned>(s.family) <= static_cast<unsigned>(Family::none));
        REQUIRE(s.term_count >= 1);
        REQUIRE(s.term_count <= 4);
        for (unsigned t = 0; t < s.term_count; ++t) CHECK(std::strlen(s.terms[t]) > 0);
        for (unsigned t = s.term_count; t < 4; ++t) CHECK(s.terms[t] == nullptr);
        // The first term is always the content term every scheme shares.
        CHECK_THAT(s.terms[0], Contains("content · content"));
        names.insert(name);
        labels.insert(s.label);
    }
    CHECK(names.size() == kSchemeCount);
    CHECK(labels.size() == kSchemeCount);
}

TEST_CASE("the table's families and term counts are what compare() computes", "[table]") {
    CompareConfig cfg;
    cfg.n = 6;
    cfg.d = 8;
    cfg.d_pos = 2;
    cfg.schemes = kAllSchemes;
    std::vector<float> e(cfg.n * cfg.d);
    gaussian_matrix(3, cfg.n, cfg.d, 1.0, e.data());
    REQUIRE(validate(cfg) == nullptr);
    CompareResult r;
    compare(cfg, e.data(), r);
    for (const SchemeInfo& s : kSchemeTable) {
        CAPTURE(s.name);
        const SchemeResult& lane = r.lane(s.id);
        CHECK(lane.term_count == s.term_count);
        // Only the absolute and concatenated families change x; the others leave x = αE.
        const bool x_is_content = std::memcmp(lane.x.data(), r.work.content.data(), r.work.content.size() * 4) == 0 &&
                                  lane.x.size() == r.work.content.size();
        const bool encodes_x = s.family == Family::absolute || s.family == Family::concatenated;
        CHECK(x_is_content == !encodes_x);
        CHECK(!lane.frequencies.empty() == (s.family == Family::rotation));
        // Only rotation schemes rescale RoPE, and a rescaled lane reports its scale factor s.
        if (s.family != Family::rotation) CHECK(s.rope_scaling == RopeScaling::none);
        CHECK((lane.scale_factor != 1.0) == (s.rope_scaling != RopeScaling::none));
        CHECK(!lane.slopes.empty() == (s.id == Scheme::alibi));
    }
}

TEST_CASE("every parameter has a name, a label, a default within its limits and a page range inside them", "[table]") {
    std::set<std::string> names;
    const ParamValues defaults = default_params();
    for (const ParamInfo& p : kParamTable) {
        CAPTURE(p.name);
        names.insert(p.name);
        CHECK(std::strlen(p.label) > 0);
        CHECK(p.used_by != 0);
        CHECK((p.used_by & ~kAllSchemes) == 0);
        CHECK(check_param(p.id, p.fallback) == nullptr);
        CHECK(defaults[p.id] == p.fallback);
        CHECK(p.page_min >= p.min);
        CHECK(p.page_max <= p.max);
        CHECK(p.page_min <= p.fallback);
        CHECK(p.fallback <= p.page_max);
        CHECK(check_param(p.id, p.page_min) == nullptr);
        CHECK(check_param(p.id, p.page_max) == nullptr);
        if (p.even) CHECK(p.integer);
        // Messages print the limits as whole numbers (scheme_table.cpp, number_text).
        CHECK(std::trunc(p.min) == p.min);
        CHECK((p.max == kUnbounded || std::trunc(p.max) == p.max));
        CHECK_THAT(check_param(p.id, NAN), Contains(std::to_string(static_cast<long long>(p.min))));
    }
    CHECK(names.size() == kParamCount);
    CHECK(check_dependent(defaults, false) == nullptr);
    CHECK(check_dependent(defaults, true) == nullptr);
    // SchemeOptions' defaults are the table's.
    const ParamValues from_options = to_params(SchemeOptions{});
    for (const ParamInfo& p : kParamTable) CHECK(from_options[p.id] == p.fallback);
}

TEST_CASE("check_param accepts each limit and refuses one step beyond, naming the parameter", "[table]") {
    for (const ParamInfo& p : kParamTable) {
        CAPTURE(p.name);
        const double step = p.even ? 2.0 : 1.0;
        if (p.integer) {
            CHECK(check_param(p.id, p.min) == nullptr);
            CHECK(check_param(p.id, p.max) == nullptr);
            CHECK_THAT(check_param(p.id, p.min - step), Contains(p.name));
            CHECK_THAT(check_param(p.id, p.max + step), Contains(p.name));
            CHECK_THAT(check_param(p.id, p.min + 0.5), Contains(p.name));
            if (p.even) CHECK_THAT(check_param(p.id, p.min + 1), Contains(p.name));
        } else if (p.min_open) {
            CHECK_THAT(check_param(p.id, p.min), Contains(p.name));
            CHECK(check_param(p.id, std::nextafter(p.min, p.max)) == nullptr);
        } else {
            CHECK(check_param(p.id, p.min) == nullptr);
            CHECK_THAT(check_param(p.id, std::nextafter(p.min, -1e300)), Contains(p.name));
        }
        CHECK_THAT(check_param(p.id, NAN), Contains(p.name));
        CHECK_THAT(check_param(p.id, INFINITY), Contains(p.name));
    }
    // The one T5 bucket limit (compare, distanceCurves and t5Bias alike).
    CHECK(check_param(Param::t5_buckets, 256) == nullptr);
    CHECK_THAT(check_param(Param::t5_buckets, 258), Contains("from 4 to 256"));
}

TEST_CASE("settle_params: one fallback per broken rule, and the result is valid", "[table]") {
    using Rules = std::vector<Rule>;
    ParamValues v = default_params();
    CHECK(settle_params(v, false).empty());

    v = default_params();
    v[Param::alibi_heads] = 2;
    v[Param::alibi_head] = 3;
    CHECK(settle_params(v, false) == Rules{Rule::alibi_head_within_heads});
    CHECK(v[Param::alibi_head] == 2);  // head H, the model's last

    v = default_params();
    v[Param::t5_buckets] = 32;
    v[Param::t5_max_distance] = 16;  // causal: 16 exact buckets, so 17 is the least
    CHECK(t5_min_max_distance(32, true) == 17);
    CHECK(t5_min_max_distance(32, false) == 9);
    CHECK(settle_params(v, true) == Rules{Rule::t5_distance_beyond_exact});
    CHECK(v[Param::t5_max_distance] == 128);
    v[Param::t5_buckets] = 256;  // 128 exact: the default no longer reaches beyond them
    v[Param::t5_max_distance] = 100;
    CHECK(settle_params(v, true) == Rules{Rule::t5_distance_beyond_exact});
    CHECK(v[Param::t5_max_distance] == 129);

    v = default_params();
    v[Param::yarn_alpha] = 5;
    v[Param::yarn_beta] = 2.5;
    CHECK(settle_params(v, false) == Rules{Rule::yarn_alpha_below_beta});
    CHECK(v[Param::yarn_alpha] == 1);
    CHECK(v[Param::yarn_beta] == 32);

    // Property: every combination within the static limits settles into one check_dependent
    // accepts, and only a combination it refused is changed.
    for (double heads : {1, 2, 7, 64}) for (double head : {1, 3, 64}) for (double buckets : {4, 8, 32, 256})
    for (double distance : {2, 3, 5, 64, 200}) for (double alpha : {0.0, 1.0, 40.0}) for (int causal = 0; causal < 2; ++causal) {
        ParamValues w = default_params();
        w[Param::alibi_heads] = heads;
        w[Param::alibi_head] = head;
        w[Param::t5_buckets] = buckets;
        w[Param::t5_max_distance] = distance;
        w[Param::yarn_alpha] = alpha;
        const bool valid_before = check_dependent(w, causal) == nullptr;
        const std::size_t applied = settle_params(w, causal).size();
        CAPTURE(heads, head, buckets, distance, alpha, causal, applied);
        CHECK(check_dependent(w, causal) == nullptr);
        CHECK((applied == 0) == valid_before);
    }
}

TEST_CASE("to_params and from_params round-trip SchemeOptions", "[table]") {
    SchemeOptions o;
    o.trained_length = 100;
    o.eval_length = 900;
    o.alibi_heads = 12;
    o.alibi_head = 11;
    o.t5_buckets = 8;
    o.t5_max_distance = 40;
    o.xpos_gamma = 0.25;
    o.xpos_scale_base = 64;
    o.yarn_alpha = 2;
    o.yarn_beta = 16;
    const SchemeOptions back = from_params(to_params(o));
    CHECK(std::memcmp(&back, &o, sizeof o) == 0);
}
