#include "vectors/vectors.hpp"

#include <cmath>
#include <cstring>

#include "base/limits.hpp"

namespace posenc {

std::int64_t VectorSet::find(std::string_view word) const {
    const auto it = index.find(std::string(word));
    return it == index.end() ? -1 : static_cast<std::int64_t>(it->second);
}

namespace {
std::uint32_t read_u32(const std::uint8_t* p) {
    return static_cast<std::uint32_t>(p[0]) | static_cast<std::uint32_t>(p[1]) << 8 |
           static_cast<std::uint32_t>(p[2]) << 16 | static_cast<std::uint32_t>(p[3]) << 24;
}
float read_f32(const std::uint8_t* p) {
    const std::uint32_t bits = read_u32(p);
    float v;
    std::memcpy(&v, &bits, sizeof v);
    return v;
}

const char* parse(const std::uint8_t* bytes, std::size_t size, VectorSet& out) {
    constexpr std::size_t kHeader = 24;
    using limits::kMaxDim;
    constexpr std::size_t kMaxCount = limits::kMaxVectorWords;
    constexpr float kMaxScale = 1e6f;
    constexpr std::size_t kMaxFileBytes = std::size_t{64} << 20;
    // Parsing needs about 9 bytes of memory per file byte (rows and unit rows as floats), so the
    // size is bounded before anything is allocated: a bigger file would exhaust wasm memory.
    if (size > kMaxFileBytes) {
        return limits::limit_message("vector file is larger than ", kMaxFileBytes >> 20, " MiB (", kMaxFileBytes,
                                     " bytes)");
    }
    if (size < kHeader) return "vector file is truncated (shorter than its 24-byte header)";
    if (std::memcmp(bytes, "PELVEC01", 8) != 0) return "not a PosEnc vector file (magic PELVEC01 missing)";
    const std::size_t count = read_u32(bytes + 8), dim = read_u32(bytes + 12);
    const std::size_t vocabulary_bytes = read_u32(bytes + 16);
    if (count == 0 || count > kMaxCount)
        return limits::limit_message("vector file: word count must be between 1 and ", kMaxCount);
    if (dim == 0 || dim > kMaxDim || dim % 2 != 0)
        return limits::limit_message("vector file: dimension must be even and between 2 and ", kMaxDim);
    // In 64 bits: with wasm32's 32-bit size_t, vocabulary_bytes + 3 or count·dim could wrap and
    // make a short file look complete (found while fuzzing; regression test in test_vectors.cpp).
    const std::uint64_t padded = (std::uint64_t{vocabulary_bytes} + 3) / 4 * 4;
    const std::uint64_t expected = kHeader + padded + std::uint64_t{4} * count + std::uint64_t{count} * dim + 8;
    if (std::uint64_t{size} != expected) return std::uint64_t{size} < expected ? "vector file is truncated" : "vector file has trailing bytes";

    out.count = count;
    out.dim = dim;
    out.words.reserve(count);
    out.index.reserve(count);
    const char* text = reinterpret_cast<const char*>(bytes + kHeader);
    std::size_t start = 0;
    for (std::size_t i = 0; i <= vocabulary_bytes; ++i) {
        if (i == vocabulary_bytes || text[i] == '\n') {
            if (i == start) return "vector file: empty word in the vocabulary";
            out.words.emplace_back(text + start, i - start);
            if (!out.index.emplace(out.words.back(), static_cast<std::uint32_t>(out.words.size() - 1)).second) {
                return "vector file: duplicate word in the vocabulary";
            }
            start = i + 1;
        }
    }
    if (out.words.size() != count) return "vector file: vocabulary does not hold `count` words";

    const std::uint8_t* scales = bytes + kHeader + padded;
    const auto* values = reinterpret_cast<const std::int8_t*>(scales + 4 * count);
    out.rows.resize(count * dim);
    for (std::size_t r = 0; r < count; ++r) {
        const float scale = read_f32(scales + 4 * r);
        // Bounded so that every component (|value| ≤ 128) and the dot products of 4096 of them stay
        // far from float overflow; real word vectors have scales around 0.01.
        if (!(scale >= 0.0f && scale <= kMaxScale)) return "vector file: a scale is not a number from 0 to 1e6";
        for (std::size_t j = 0; j < dim; ++j) out.rows[r * dim + j] = scale * static_cast<float>(values[r * dim + j]);
    }
    const std::uint8_t* tail = bytes + expected - 8;
    out.component_rms = read_f32(tail);
    out.mean_norm = read_f32(tail + 4);
    if (!(out.component_rms > 0.0f && out.component_rms <= 1e6f) || !std::isfinite(out.mean_norm)) {
        return "vector file: component_rms must be positive and at most 1e6, and mean_norm finite";
    }
    return nullptr;
}
}  // namespace

const char* parse_packed_vectors(const std::uint8_t* bytes, std::size_t size, VectorSet& out) {
    out = VectorSet{};
    const char* error = parse(bytes, size, out);
    if (error) out = VectorSet{};
    return error;
}

}  // namespace posenc
