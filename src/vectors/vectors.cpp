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

constexpr std::size_t kHeader = 24;

// The header's sizes, checked against the limits and the file's length.
struct FileLayout {
    std::size_t count = 0, dim = 0, vocabulary_bytes = 0;
    std::uint64_t padded = 0;    // vocabulary_bytes rounded up to 4
    std::uint64_t expected = 0;  // the whole file's length
};

const char* read_layout(const std::uint8_t* bytes, std::size_t size, FileLayout& l) {
    using limits::kMaxDim;
    constexpr std::size_t kMaxCount = limits::kMaxVectorWords;
    constexpr std::size_t kMaxFileBytes = std::size_t{64} << 20;
    // Parsing needs about 9 bytes of memory per file byte (rows and unit rows as floats), so the
    // size is bounded before anything is allocated: a bigger file would exhaust wasm memory.
    if (size > kMaxFileBytes) {
        return limits::limit_message("vector file is larger than ", kMaxFileBytes >> 20, " MiB (", kMaxFileBytes,
                                     " bytes)");
    }
    if (size < kHeader) return "vector file is truncated (shorter than its 24-byte header)";
    if (std::memcmp(bytes, "PELVEC01", 8) != 0) return "not a PosEnc vector file (magic PELVEC01 missing)";
    l.count = read_u32(bytes + 8), l.dim = read_u32(bytes + 12);
    l.vocabulary_bytes = read_u32(bytes + 16);
    if (l.count == 0 || l.count > kMaxCount)
        return limits::limit_message("vector file: word count must be between 1 and ", kMaxCount);
    if (l.dim == 0 || l.dim > kMaxDim || l.dim % 2 != 0)
        return limits::limit_message("vector file: dimension must be even and between 2 and ", kMaxDim);
    // In 64 bits: with wasm32's 32-bit size_t, vocabulary_bytes + 3 or count·dim could wrap and
    // make a short file look complete (regression test in test_vectors.cpp).
    l.padded = (std::uint64_t{l.vocabulary_bytes} + 3) / 4 * 4;
    l.expected = kHeader + l.padded + std::uint64_t{4} * l.count + std::uint64_t{l.count} * l.dim + 8;
    if (std::uint64_t{size} != l.expected)
        return std::uint64_t{size} < l.expected ? "vector file is truncated" : "vector file has trailing bytes";
    return nullptr;
}

// The vocabulary: count words, one per line, none empty, none twice.
const char* read_vocabulary(const char* text, const FileLayout& l, VectorSet& out) {
    out.words.reserve(l.count);
    out.index.reserve(l.count);
    std::size_t start = 0;
    for (std::size_t i = 0; i <= l.vocabulary_bytes; ++i) {
        if (i == l.vocabulary_bytes || text[i] == '\n') {
            if (i == start) return "vector file: empty word in the vocabulary";
            out.words.emplace_back(text + start, i - start);
            if (!out.index.emplace(out.words.back(), static_cast<std::uint32_t>(out.words.size() - 1)).second) {
                return "vector file: duplicate word in the vocabulary";
            }
            start = i + 1;
        }
    }
    if (out.words.size() != l.count) return "vector file: vocabulary does not hold `count` words";
    return nullptr;
}

// The rows (a float scale per row times its int8 values) and the two statistics after them.
const char* read_rows(const std::uint8_t* bytes, const FileLayout& l, VectorSet& out) {
    constexpr float kMaxScale = 1e6f;
    const std::size_t count = l.count, dim = l.dim;
    const std::uint8_t* scales = bytes + kHeader + l.padded;
    const auto* values = reinterpret_cast<const std::int8_t*>(scales + 4 * count);
    out.rows.resize(count * dim);
    for (std::size_t r = 0; r < count; ++r) {
        const float scale = read_f32(scales + 4 * r);
        // Bounded so that every component (|value| ≤ 128) and the dot products of 4096 of them stay
        // far from float overflow; real word vectors have scales around 0.01.
        if (!(scale >= 0.0f && scale <= kMaxScale)) return "vector file: a scale is not a number from 0 to 1e6";
        for (std::size_t j = 0; j < dim; ++j) out.rows[r * dim + j] = scale * static_cast<float>(values[r * dim + j]);
    }
    const std::uint8_t* tail = bytes + l.expected - 8;
    out.component_rms = read_f32(tail);
    out.mean_norm = read_f32(tail + 4);
    if (!(out.component_rms > 0.0f && out.component_rms <= 1e6f) || !std::isfinite(out.mean_norm)) {
        return "vector file: component_rms must be positive and at most 1e6, and mean_norm finite";
    }
    return nullptr;
}

const char* parse(const std::uint8_t* bytes, std::size_t size, VectorSet& out) {
    FileLayout l;
    if (const char* error = read_layout(bytes, size, l)) return error;
    out.count = l.count;
    out.dim = l.dim;
    if (const char* error = read_vocabulary(reinterpret_cast<const char*>(bytes + kHeader), l, out)) return error;
    return read_rows(bytes, l, out);
}
}  // namespace

const char* parse_packed_vectors(const std::uint8_t* bytes, std::size_t size, VectorSet& out) {
    out = VectorSet{};
    const char* error = parse(bytes, size, out);
    if (error) out = VectorSet{};
    return error;
}

}  // namespace posenc
