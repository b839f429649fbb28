#include "base/limits.hpp"

#include <cmath>
#include <limits>
#include <mutex>
#include <string>
#include <utility>

#include "base/names.hpp"

namespace posenc::limits {

namespace {
// The messages made so far, never freed: the pointers handed out stay valid.
struct Kept {
    std::string text;
    const Kept* next;
};
const Kept* kept = nullptr;
std::mutex kept_lock;

const char* keep(std::string text) {
    const std::lock_guard<std::mutex> hold(kept_lock);
    for (const Kept* k = kept; k; k = k->next) {
        if (k->text == text) return k->text.c_str();
    }
    kept = new Kept{std::move(text), kept};
    return kept->text.c_str();
}
}  // namespace

const char* limit_message(const char* before, double limit, const char* after) {
    return keep(before + number_text(limit) + after);
}

const char* limit_message(const char* before, double limit, const char* middle, double limit2, const char* after) {
    return keep(before + number_text(limit) + middle + number_text(limit2) + after);
}

const char* check_rows_dim(std::size_t n, std::size_t d, std::size_t max_rows, bool d_must_be_even) {
    if (n < 1) return "n must be at least 1";
    if (n > max_rows) {
        return max_rows == kMaxAttentionRows ? limit_message("n must be at most ", kMaxAttentionRows, " for attention")
               : max_rows == kMaxCompareTokens ? limit_message("n must be at most ", kMaxCompareTokens, " tokens")
                                               : limit_message("n must be at most ", kMaxRows);
    }
    if (d < 1) return "d must be at least 1";
    if (d > kMaxDim) return limit_message("d must be at most ", kMaxDim);
    if (d_must_be_even && d % 2 != 0) return "d must be even (dimensions form pairs)";
    if (n * d > kMaxElements) return limit_message("n·d must be at most ", kMaxElements);
    return nullptr;
}

const char* check_base(double base) {
    if (!std::isfinite(base) || base <= kMinBase || base > kMaxBase) {
        return limit_message("base must be a finite number greater than ", kMinBase, " and at most ", kMaxBase);
    }
    return nullptr;
}

const char* check_offset(double offset) {
    if (!std::isfinite(offset) || std::fabs(offset) > kMaxOffset || std::trunc(offset) != offset) {
        return limit_message("offset must be an integer between ", -kMaxOffset, " and ", kMaxOffset);
    }
    return nullptr;
}

const char* check_float32(const char* name, double value) {
    if (std::fabs(value) <= std::numeric_limits<float>::max()) return nullptr;
    return keep(name + std::string(" must be a finite number within float32 range"));
}

const char* check_seed(double seed) {
    // NaN fails too; a seed that passes can be cast to an unsigned 64-bit integer.
    if (!(seed >= 0 && seed <= kMaxSeed)) {
        return keep("seed must be an integer from 0 to " + power_of_two_text(kMaxSeed + 1) + "-1");
    }
    return nullptr;
}

const char* check_scale(double scale) {
    return check_float32("scale", scale);
}

}  // namespace posenc::limits
