// Documented limits on every entry point, and the checks that enforce them.
//
// Each check returns nullptr when the arguments are valid, else a message that names the
// argument and the limit. Checks run before any allocation, so an oversized request is refused
// rather than attempted.
#pragma once

#include <cstddef>

namespace posenc::limits {

inline constexpr std::size_t kMaxRows = 8192;              // n for sinusoidal and rotate
inline constexpr std::size_t kMaxAttentionRows = 4096;     // n for attention (n×n weights)
inline constexpr std::size_t kMaxDim = 4096;               // d
inline constexpr std::size_t kMaxElements = std::size_t{1} << 24;  // n·d (64 MiB of floats)
inline constexpr std::size_t kMaxCompareTokens = 1024;     // tokens per compare()
inline constexpr std::size_t kMaxHeads = 64;
inline constexpr double kMinBase = 1.0;                    // exclusive: base must exceed 1
inline constexpr double kMaxBase = 1e12;
inline constexpr double kMaxOffset = 32768.0;              // |offset|, an integer
inline constexpr double kMaxAlpha = 1e6;                   // α scaling word vectors (model config, the page's lanes); > 0
inline constexpr double kMaxSeed = 4294967295.0;           // 2^32 − 1: seeds are 32-bit on the JS side
inline constexpr std::size_t kMaxVectorWords = std::size_t{1} << 22;  // words in a vector file (PELVEC01)

const char* check_rows_dim(std::size_t n, std::size_t d, std::size_t max_rows, bool d_must_be_even);
const char* check_base(double base);
const char* check_offset(double offset);
const char* check_scale(double scale);
// nullptr when |value| is within float32's range (a kernel casts it to float), else
// "<name> must be a finite number within float32 range"; NaN fails.
const char* check_float32(const char* name, double value);
const char* check_seed(double seed);

// A check's message with its limits written from their constants (number_text: 4096, 1e12):
// limit_message("d must be at most ", kMaxDim) is "d must be at most 4096". Each distinct text is
// made once, on the first failure, and kept, so a check can return it as a const char*; out of
// line, so a check pays for one call (the element's cores have a byte budget).
const char* limit_message(const char* before, double limit, const char* after = "");
const char* limit_message(const char* before, double limit, const char* middle, double limit2,
                          const char* after = "");

}  // namespace posenc::limits
