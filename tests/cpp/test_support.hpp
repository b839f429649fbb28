// Helpers shared by the Catch2 suites: seeded inputs, the tail sizes, error measures.
#pragma once

#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "compare/compare.hpp"
#include "vectors/embedding.hpp"

namespace posenc::test {

// True under `-s`, where tests print the errors they measured.
inline bool verbose() { return Catch::getCurrentContext().getConfig()->includeSuccessfulResults(); }

// Deterministic uniform values in [-scale, scale) on every platform (SplitMix64, fixed seed).
inline std::vector<float> random_values(std::size_t count, std::uint64_t seed, float scale = 1.0f) {
    std::vector<float> out(count);
    posenc::uniform_values(seed, count, scale, out.data());
    return out;
}

// A file of the repository (path relative to its root, found from this header's own path) →
// bytes; false when it cannot be read (the wasm suite under Node has no file system).
inline bool read_repo_file(const char* relative, std::vector<std::uint8_t>& out, std::string* path_out = nullptr) {
    std::string path = __FILE__;  // <root>/tests/cpp/test_support.hpp
    for (int up = 0; up < 3; ++up) {
        const std::size_t slash = path.find_last_of("/\\");
        path.resize(slash == std::string::npos ? 0 : slash);
    }
    path = (path.empty() ? std::string(".") : path) + "/" + relative;
    if (path_out) *path_out = path;
    out.clear();
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) return false;
    std::vector<std::uint8_t> buffer(65536);  // on the heap: wasm stacks are small
    std::size_t got;
    while ((got = std::fread(buffer.data(), 1, buffer.size(), f)) > 0) out.insert(out.end(), buffer.begin(), buffer.begin() + got);
    std::fclose(f);
    return true;
}

// Sizes that hit every tail of the 4-lane loops (and the 8-wide two-accumulator loop of dot).
inline constexpr std::size_t kTailSizes[] = {1, 2, 3, 4, 5, 6, 7, 8, 10, 14, 15, 16, 17, 63, 64, 100, 128};

// A compare() call's sizes: n tokens of width d, d_pos concatenated position components, the
// lanes computed; every other field keeps CompareConfig's default for the suite to set.
inline posenc::CompareConfig compare_config(std::size_t n, std::size_t d, std::size_t d_pos,
                                            posenc::SchemeSet schemes = posenc::kClassicSchemes) {
    posenc::CompareConfig cfg;
    cfg.n = n;
    cfg.d = d;
    cfg.d_pos = d_pos;
    cfg.schemes = schemes;
    return cfg;
}

inline double max_abs_diff(const float* got, const double* want, std::size_t count) {
    double m = 0.0;
    for (std::size_t i = 0; i < count; ++i) m = std::fmax(m, std::fabs(got[i] - want[i]));
    return m;
}

}  // namespace posenc::test
