// libFuzzer target: posenc::parse_packed_vectors (PELVEC01, data/README.md) on arbitrary bytes,
// then, when a file parses, the operations the page runs on it: find, normalize_rows,
// top_k_by_cosine, nearest_by_cosine and tokenize with the file as vocabulary.
//
// The first input byte chooses how the rest is read: odd → the bytes are the file; even → a
// file is assembled around them with a consistent header (word count, dimension, vocabulary
// length, total size), so that most inputs get past the size check and exercise the vocabulary,
// scale and tail checks; bits of the byte then damage one field of the header.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "analysis/analyses.hpp"
#include "vectors/tokenizer.hpp"
#include "vectors/vectors.hpp"

namespace {

#define FUZZ_CHECK(cond)                                                                \
    do {                                                                                \
        if (!(cond)) {                                                                  \
            std::fprintf(stderr, "fuzz_vectors: invariant failed: %s (line %d)\n", #cond, \
                         __LINE__);                                                     \
            std::abort();                                                               \
        }                                                                               \
    } while (0)

void put_u32(std::vector<std::uint8_t>& out, std::size_t at, std::uint32_t v) {
    for (int b = 0; b < 4; ++b) out[at + b] = static_cast<std::uint8_t>(v >> (8 * b));
}

// A PELVEC01 file whose header agrees with its body, built from the fuzzer's bytes.
std::vector<std::uint8_t> assemble(std::uint8_t mode, const std::uint8_t* data, std::size_t size) {
    std::size_t at = 0;
    const auto next = [&]() -> std::uint8_t { return at < size ? data[at++] : 0; };
    const std::uint32_t count = 1 + next() % 12;
    const std::uint32_t dim = 2 * (1 + next() % 8);
    // Vocabulary: up to 64 bytes of the input; words separated by '\n' wherever the input has one.
    const std::size_t vocabulary_bytes = std::min<std::size_t>(next() % 65, size - std::min(at, size));
    std::string vocabulary(reinterpret_cast<const char*>(data + at), vocabulary_bytes);
    at += vocabulary_bytes;
    const std::size_t padded = (vocabulary_bytes + 3) / 4 * 4;
    std::vector<std::uint8_t> file(24 + padded + 4 * count + count * dim + 8, 0);
    std::memcpy(file.data(), "PELVEC01", 8);
    put_u32(file, 8, count);
    put_u32(file, 12, dim);
    put_u32(file, 16, static_cast<std::uint32_t>(vocabulary_bytes));
    std::memcpy(file.data() + 24, vocabulary.data(), vocabulary.size());
    // Scales, values and the tail straight from the remaining bytes (zeros when they run out).
    for (std::size_t i = 24 + padded; i < file.size(); ++i) file[i] = next();
    // Damage: bit 1 → a header field gets a raw 32-bit value from the input; bit 2 → truncate.
    if (mode & 2) {
        const std::size_t field = 8 + 4 * (next() % 4);
        std::uint32_t v = 0;
        for (int b = 0; b < 4; ++b) v |= std::uint32_t{next()} << (8 * b);
        put_u32(file, field, v);
    }
    if (mode & 4) file.resize(file.size() - std::min<std::size_t>(file.size(), 1 + next() % 16));
    return file;
}

void exercise(const posenc::VectorSet& set) {
    FUZZ_CHECK(set.count >= 1 && set.dim >= 2 && set.dim % 2 == 0);
    FUZZ_CHECK(set.words.size() == set.count);
    FUZZ_CHECK(set.rows.size() == set.count * set.dim);
    FUZZ_CHECK(std::isfinite(set.component_rms) && set.component_rms > 0.0f && std::isfinite(set.mean_norm));
    for (std::size_t i = 0; i < set.count; ++i) {
        FUZZ_CHECK(!set.words[i].empty());
        FUZZ_CHECK(set.find(set.words[i]) == static_cast<std::int64_t>(i));
    }
    for (float v : set.rows) FUZZ_CHECK(std::isfinite(v));

    const std::size_t v = set.count, d = set.dim;
    std::vector<float> unit(v * d);
    posenc::normalize_rows(set.rows.data(), v, d, unit.data());
    for (std::size_t r = 0; r < v; ++r) {
        double norm2 = 0.0, original2 = 0.0;
        for (std::size_t j = 0; j < d; ++j) {
            norm2 += double{unit[r * d + j]} * unit[r * d + j];
            original2 += double{set.rows[r * d + j]} * set.rows[r * d + j];
        }
        FUZZ_CHECK(std::isfinite(norm2));
        // A non-zero row becomes unit length; a zero row stays zero.
        if (original2 > 0.0) FUZZ_CHECK(std::fabs(norm2 - 1.0) < 1e-4);
        else FUZZ_CHECK(norm2 == 0.0);
    }

    // Neighbours of row 0 (excluded), at most 3: sorted, in range, never row 0.
    const std::size_t k = std::min<std::size_t>(3, v);
    std::vector<std::uint32_t> rows(k);
    std::vector<float> cosines(k);
    const std::size_t found = posenc::top_k_by_cosine(set.rows.data(), unit.data(), v, d, k, 0, rows.data(), cosines.data());
    FUZZ_CHECK(found <= k && found <= v - 1);
    for (std::size_t i = 0; i < found; ++i) {
        FUZZ_CHECK(rows[i] < v && rows[i] != 0);
        FUZZ_CHECK(!(cosines[i] > 1.0001f) && !(cosines[i] < -1.0001f));
        if (i > 0) FUZZ_CHECK(!(cosines[i] > cosines[i - 1]));
    }

    // Every row decoded against the vocabulary, with ranks.
    std::vector<std::uint32_t> truth(v), best(v), rank(v);
    std::vector<float> cosine(v);
    for (std::size_t i = 0; i < v; ++i) truth[i] = static_cast<std::uint32_t>(i);
    posenc::nearest_by_cosine(set.rows.data(), v, unit.data(), v, d, truth.data(), best.data(), cosine.data(), rank.data());
    for (std::size_t i = 0; i < v; ++i) {
        FUZZ_CHECK(best[i] < v);
        FUZZ_CHECK(rank[i] >= 1 && rank[i] <= v);
    }

    // The vocabulary steers the tokenizer's hyphen splitting; its words are fuzz-made text.
    std::string text;
    for (const std::string& w : set.words) text += w + " x-" + w + "-y ";
    for (const std::string& t : posenc::tokenize(text, &set)) FUZZ_CHECK(!t.empty());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0 || size > (1u << 16)) return 0;
    posenc::VectorSet set;
    const char* error;
    if (data[0] & 1) {
        error = posenc::parse_packed_vectors(data + 1, size - 1, set);
    } else {
        const std::vector<std::uint8_t> file = assemble(data[0], data + 1, size - 1);
        error = posenc::parse_packed_vectors(file.data(), file.size(), set);
    }
    if (error) {
        // A refused file leaves the set empty and says why.
        FUZZ_CHECK(set.count == 0 && set.words.empty() && set.rows.empty() && set.index.empty());
        FUZZ_CHECK(std::strlen(error) > 0);
        return 0;
    }
    exercise(set);
    return 0;
}
