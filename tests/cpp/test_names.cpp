// base/names.hpp: enum names in enum order, the messages for a wrong one, limits as messages
// write them. And the enums that cross the wasm boundary by name keep one name per value.
#include <catch2/catch.hpp>

#include <iterator>
#include <set>
#include <string>

#include "base/names.hpp"
#include "compare/compare.hpp"
#include "encodings/schemes.hpp"
#include "model/adamw.hpp"
#include "model/config.hpp"
#include "model/tasks.hpp"
#include "model/transformer.hpp"

using namespace posenc;

TEST_CASE("enum names: each name maps to its own enum value, a wrong one to a message naming it", "[names]") {
    for (std::size_t i = 0; i < std::size(kRopeScalingNames); ++i) {
        RopeScaling out = RopeScaling::none;
        REQUIRE(enum_from_name(kRopeScalingNames, kRopeScalingNames[i], out));
        CHECK(static_cast<std::size_t>(out) == i);
    }
    model::SyntheticKind kind = model::SyntheticKind::copy;
    CHECK(enum_from_name(model::kSyntheticKindNames, "sort", kind));
    CHECK(kind == model::SyntheticKind::sort);
    CHECK_FALSE(enum_from_name(model::kSyntheticKindNames, "Sort", kind));  // names are exact
    CHECK_FALSE(enum_from_name(model::kSyntheticKindNames, "", kind));
    CHECK(kind == model::SyntheticKind::sort);  // untouched on failure
    CHECK(one_of("scaling", kRopeScalingNames, "linear") ==
          "scaling must be one of 'none', 'pi', 'ntk', 'yarn' (got 'linear')");
    CHECK(std::set<std::string>(std::begin(kRopeScalingNames), std::end(kRopeScalingNames)).size() ==
          std::size(kRopeScalingNames));
}

TEST_CASE("limits and defaults as messages write them", "[names]") {
    CHECK(number_text(4096) == "4096");
    CHECK(number_text(1024.0) == "1024");
    CHECK(number_text(0.5) == "0.5");
    CHECK(number_text(1e9) == "1e9");
    CHECK(number_text(1e12) == "1e12");
    CHECK(number_text(1048576.0) == "1048576");
    CHECK(float_text(1e-3f) == "0.001");
    CHECK(float_text(0.95f) == "0.95");
    CHECK(float_text(1e-8f) == "1e-08");
    CHECK(float_text(1.0f) == "1");
    CHECK(std::stod(float_text(1e-8f)) == 1e-8);  // what JS reads for lab.modelLimits.adamw.eps
    CHECK(power_of_two_text(1ull << 26) == "2^26");
    CHECK(power_of_two_text(1) == "2^0");
    CHECK(whole_text(1e6) == "1000000");  // in full, where number_text writes 1e6
    CHECK(whole_text(-32768) == "-32768");
    CHECK(whole_text(0) == "0");
    CHECK(number_text(-32768) == "-32768");
}

TEST_CASE("enums that cross as indices name their allowed values from the core's names", "[names]") {
    CHECK(either_of("layout", kLayoutNames) == "layout must be 'interleaved' or 'half'");
    CHECK(either_of("concat", kConcatModeNames) == "concat must be 'same-width' or 'widened'");
    CHECK(either_of("kind", model::kSyntheticKindNames) == "kind must be 'copy', 'reverse' or 'sort'");
    Layout pairing = Layout::interleaved;
    CHECK((enum_from_name(kLayoutNames, "half", pairing) && pairing == Layout::half));
}

TEST_CASE("model messages are formatted from their constants", "[names]") {
    using namespace posenc::model;
    CHECK(workspace_message("B·T", "B or T") == "B·T needs more than 2^26 floats of workspace: reduce B or T");
    CHECK(text_too_long("text") == "text has more than 67108864 bytes");
    CHECK(std::string(trainable_scheme_message()) ==
          "scheme must be one of additive, concatenated, rotary, learned, alibi, nope, t5");
    AdamWOptions o;
    o.lr = static_cast<float>(kMaxLr) * 2;
    CHECK(std::string(validate(o)) == "lr must be a finite number from 0 to 1");
    o.lr = static_cast<float>(kMaxLr);
    CHECK(validate(o) == nullptr);
}
