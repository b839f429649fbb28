#include "base/limits.hpp"

#include <cmath>

namespace posenc::limits {

const char* check_rows_dim(std::size_t n, std::size_t d, std::size_t max_rows, bool d_must_be_even) {
    if (n < 1) return "n must be at least 1";
    if (n > max_rows) {
        return max_rows == kMaxAttentionRows ? "n must be at most 4096 for attention"
               : max_rows == kMaxCompareTokens ? "n must be at most 1024 tokens"
                                               : "n must be at most 8192";
    }
    if (d < 1) return "d must be at least 1";
    if (d > kMaxDim) return "d must be at most 4096";
    if (d_must_be_even && d % 2 != 0) return "d must be even (dimensions form pairs)";
    if (n * d > kMaxElements) return "n·d must be at most 16777216";
    return nullptr;
}

const char* check_base(double base) {
    if (!std::isfinite(base) || base <= kMinBase || base > kMaxBase) {
        return "base must be a finite number greater than 1 and at most 1e12";
    }
    return nullptr;
}

const char* check_offset(double offset) {
    if (!std::isfinite(offset) || std::fabs(offset) > kMaxOffset || std::trunc(offset) != offset) {
        return "offset must be an integer between -32768 and 32768";
    }
    return nullptr;
}

const char* check_scale(double scale) {
    if (!(std::fabs(scale) <= 3.4028234663852886e38)) return "scale must be a finite number within float32 range";
    return nullptr;
}

}  // namespace posenc::limits
