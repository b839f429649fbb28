// SplitMix64: a full-period 64-bit generator with one state word; the same numbers on every
// platform. Good enough for test vectors, initial values and batch sampling, not for secrets.
#pragma once

#include <cstdint>

namespace posenc {

struct SplitMix64 {
    std::uint64_t state;
    std::uint64_t next() {
        std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    // Uniform in (0, 1]: never 0, so log() of it is finite.
    double uniform_open_zero() { return (static_cast<double>(next() >> 11) + 1.0) * 0x1.0p-53; }
    // Uniform in [0, n) for 1 ≤ n < 2^32 by multiply-shift; the bias is below n/2^32.
    std::uint32_t below(std::uint32_t n) {
        return static_cast<std::uint32_t>(((next() >> 32) * n) >> 32);
    }
};

}  // namespace posenc
