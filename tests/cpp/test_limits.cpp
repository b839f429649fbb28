// limits.hpp: every check returns nullptr on valid input and otherwise a message that names the
// argument.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <string>

#include "base/limits.hpp"

namespace {
using Catch::Matchers::StartsWith;
namespace limits = posenc::limits;

std::string msg(const char* m) { return m ? m : "(valid)"; }
const double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();
}  // namespace

TEST_CASE("check_rows_dim", "[limits]") {
    using limits::check_rows_dim;
    CHECK(check_rows_dim(1, 1, limits::kMaxRows, false) == nullptr);
    CHECK(check_rows_dim(8192, 2048, limits::kMaxRows, true) == nullptr);       // n·d = 2^24 exactly
    CHECK(check_rows_dim(4096, 4096, limits::kMaxAttentionRows, false) == nullptr);
    CHECK(check_rows_dim(1024, 4096, limits::kMaxCompareTokens, true) == nullptr);
    CHECK(check_rows_dim(3, 7, limits::kMaxRows, false) == nullptr);           // odd d allowed when pairs are not needed

    CHECK_THAT(msg(check_rows_dim(0, 4, limits::kMaxRows, true)), StartsWith("n must be at least 1"));
    CHECK_THAT(msg(check_rows_dim(8193, 4, limits::kMaxRows, true)), StartsWith("n must be at most 8192"));
    CHECK_THAT(msg(check_rows_dim(4097, 4, limits::kMaxAttentionRows, false)), StartsWith("n must be at most 4096"));
    CHECK_THAT(msg(check_rows_dim(1025, 4, limits::kMaxCompareTokens, true)), StartsWith("n must be at most 1024"));
    CHECK_THAT(msg(check_rows_dim(4, 0, limits::kMaxRows, true)), StartsWith("d must be at least 1"));
    CHECK_THAT(msg(check_rows_dim(4, 4097, limits::kMaxRows, false)), StartsWith("d must be at most 4096"));
    CHECK_THAT(msg(check_rows_dim(4, 7, limits::kMaxRows, true)), StartsWith("d must be even"));
    CHECK_THAT(msg(check_rows_dim(8192, 2050, limits::kMaxRows, true)), StartsWith("n·d must be at most"));
    CHECK_THAT(msg(check_rows_dim(4096, 4097, limits::kMaxAttentionRows, false)), StartsWith("d must be at most 4096"));
}

TEST_CASE("check_base", "[limits]") {
    using limits::check_base;
    for (double ok : {1.0000001, 2.0, 10000.0, 500000.0, 1e12}) {
        CAPTURE(ok);
        CHECK(check_base(ok) == nullptr);
    }
    for (double bad : {1.0, 0.5, 0.0, -10000.0, 1.0000001e12, kInf, -kInf, kNaN}) {
        CAPTURE(bad);
        CHECK_THAT(msg(check_base(bad)), StartsWith("base must be"));
    }
}

TEST_CASE("check_offset", "[limits]") {
    using limits::check_offset;
    for (double ok : {0.0, -0.0, 1.0, -1.0, 32768.0, -32768.0, 12345.0}) {
        CAPTURE(ok);
        CHECK(check_offset(ok) == nullptr);
    }
    for (double bad : {32769.0, -32769.0, 0.5, -0.25, 1e300, kInf, -kInf, kNaN}) {
        CAPTURE(bad);
        CHECK_THAT(msg(check_offset(bad)), StartsWith("offset must be"));
    }
}

TEST_CASE("check_scale", "[limits]") {
    using limits::check_scale;
    const double float_max = std::numeric_limits<float>::max();
    for (double ok : {0.0, 0.125, -1.0, 1e-30, float_max, -float_max}) {
        CAPTURE(ok);
        CHECK(check_scale(ok) == nullptr);
    }
    // Beyond float range the kernels' float scale would be ±∞: refused like non-finite values.
    for (double bad : {kInf, -kInf, kNaN, 1e39, -1e300}) {
        CAPTURE(bad);
        CHECK_THAT(msg(check_scale(bad)), StartsWith("scale must be"));
    }
}

TEST_CASE("check_seed", "[limits]") {
    using limits::check_seed;
    for (double ok : {0.0, 1.0, 4294967295.0}) {
        CAPTURE(ok);
        CHECK(check_seed(ok) == nullptr);
    }
    for (double bad : {-1.0, 4294967296.0, kInf, kNaN}) {
        CAPTURE(bad);
        CHECK(msg(check_seed(bad)) == "seed must be an integer from 0 to 2^32-1");
    }
}

TEST_CASE("messages write the limits from their constants, each text made once", "[limits]") {
    using limits::limit_message;
    CHECK(msg(limits::check_rows_dim(4097, 4, limits::kMaxAttentionRows, false)) == "n must be at most 4096 for attention");
    CHECK(msg(limits::check_rows_dim(8192, 2050, limits::kMaxRows, true)) == "n·d must be at most 16777216");
    CHECK(msg(limits::check_base(0.5)) == "base must be a finite number greater than 1 and at most 1e12");
    CHECK(msg(limits::check_offset(0.5)) == "offset must be an integer between -32768 and 32768");
    CHECK(std::string(limit_message("at most ", 1e9, " (a power of ten)")) == "at most 1e9 (a power of ten)");
    CHECK(std::string(limit_message("from ", 2, " to ", 65536)) == "from 2 to 65536");
    // The same text is one pointer for the program's life: callers keep it as a const char*.
    CHECK(limit_message("d must be at most ", limits::kMaxDim) == limit_message("d must be at most ", 4096));
    CHECK(limit_message("d must be at most ", 4096) != limit_message("d must be at most ", 4095));
}

TEST_CASE("check_float32 names its argument", "[limits]") {
    const double float_max = std::numeric_limits<float>::max();
    CHECK(limits::check_float32("alpha", float_max) == nullptr);
    CHECK(limits::check_float32("alpha", -float_max) == nullptr);
    for (double bad : {kInf, kNaN, 3.5e38}) {
        CAPTURE(bad);
        CHECK(msg(limits::check_float32("alpha", bad)) == "alpha must be a finite number within float32 range");
    }
}
