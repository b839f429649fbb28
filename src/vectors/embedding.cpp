#include "vectors/embedding.hpp"

#include <cmath>

#include "base/splitmix.hpp"

namespace posenc {

std::uint64_t hash_token(std::string_view text) {
    std::uint64_t h = 14695981039346656037ull;  // FNV-1a offset basis
    for (unsigned char c : text) {
        h ^= c;
        h *= 1099511628211ull;  // FNV prime
    }
    return h;
}

namespace {
void fill_gaussian(std::uint64_t seed, std::size_t count, double sigma, float* out) {
    SplitMix64 rng{seed};
    const double two_pi = 6.283185307179586;
    for (std::size_t i = 0; i < count; i += 2) {
        // Box–Muller: two independent normals per pair of uniforms.
        const double radius = sigma * std::sqrt(-2.0 * std::log(rng.uniform_open_zero()));
        const double angle = two_pi * rng.uniform_open_zero();
        out[i] = static_cast<float>(radius * std::cos(angle));
        if (i + 1 < count) out[i + 1] = static_cast<float>(radius * std::sin(angle));
    }
}

}  // namespace

void synthetic_embedding(std::uint64_t seed, std::size_t d, float* out) { fill_gaussian(seed, d, 1.0, out); }

void uniform_values(std::uint64_t seed, std::size_t count, float scale, float* out) {
    SplitMix64 rng{seed};
    for (std::size_t i = 0; i < count; ++i) {
        out[i] = scale * static_cast<float>(static_cast<double>(rng.next() >> 40) * 0x1p-23 - 1.0);
    }
}

void gaussian_matrix(std::uint64_t seed, std::size_t rows, std::size_t cols, double sigma, float* out) {
    fill_gaussian(seed, rows * cols, sigma, out);
}

}  // namespace posenc
