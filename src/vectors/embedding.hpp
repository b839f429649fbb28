// Token hashes and synthetic word vectors.
//
// Shapes:
//   out — d floats, caller-owned.
// A token's synthetic vector is d draws from N(0, 1) by a generator seeded with the 64-bit
// FNV-1a hash of its text, so the same word always gets the same vector on every platform that
// has IEEE doubles and a correctly rounded sqrt (log and cos may differ in the last double bit,
// which rounding to float hides in all but rare cases).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace posenc {

std::uint64_t hash_token(std::string_view text);

void synthetic_embedding(std::uint64_t seed, std::size_t d, float* out);

// Seeded uniform values in [-scale, scale) (SplitMix64, 24-bit resolution): the same numbers on
// every platform, for tests and benchmarks.
void uniform_values(std::uint64_t seed, std::size_t count, float scale, float* out);

// Seeded N(0, sigma²) matrix (rows×cols, row-major), for random projection heads.
void gaussian_matrix(std::uint64_t seed, std::size_t rows, std::size_t cols, double sigma, float* out);

}  // namespace posenc
