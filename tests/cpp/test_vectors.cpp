// vectors.hpp: parse_packed_vectors on PELVEC01 files packed here from data/README.md's format
// table (valid files, exact dequantisation, find(); every kind of damage gives a message and an
// empty set), and on the shipped data/glove-6b-100d-20k.i8.
#include <catch2/catch.hpp>

#include "test_support.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "analysis/analyses.hpp"
#include "vectors/vectors.hpp"

namespace {

using Catch::Matchers::Contains;

// Everything a PELVEC01 file holds; pack() writes it exactly as data/README.md lays it out.
// count_override / vocabulary_bytes_override write a header that disagrees with the contents.
struct FileSpec {
    std::vector<std::string> words;
    std::uint32_t dim = 0;
    std::vector<float> scales;
    std::vector<std::int8_t> values;  // words.size()·dim, row-major
    float component_rms = 0.5f;
    float mean_norm = 5.0f;
    std::int64_t count_override = -1;
    std::uint32_t flags = 0;
};

void put_u32(std::vector<std::uint8_t>& out, std::uint32_t v) {
    for (int b = 0; b < 4; ++b) out.push_back(static_cast<std::uint8_t>(v >> (8 * b)));
}
void put_f32(std::vector<std::uint8_t>& out, float f) {
    std::uint32_t bits;
    std::memcpy(&bits, &f, sizeof bits);
    put_u32(out, bits);
}

std::vector<std::uint8_t> pack(const FileSpec& s) {
    std::string vocabulary;
    for (std::size_t i = 0; i < s.words.size(); ++i) {
        if (i > 0) vocabulary += '\n';  // joined by \n, no trailing newline
        vocabulary += s.words[i];
    }
    const std::uint32_t count =
        s.count_override >= 0 ? static_cast<std::uint32_t>(s.count_override) : static_cast<std::uint32_t>(s.words.size());
    std::vector<std::uint8_t> out;
    for (char c : std::string("PELVEC01")) out.push_back(static_cast<std::uint8_t>(c));
    put_u32(out, count);
    put_u32(out, s.dim);
    put_u32(out, static_cast<std::uint32_t>(vocabulary.size()));
    put_u32(out, s.flags);
    out.insert(out.end(), vocabulary.begin(), vocabulary.end());
    while (out.size() % 4 != 0) out.push_back(0);  // zero padding to a multiple of 4
    for (float scale : s.scales) put_f32(out, scale);
    for (std::int8_t v : s.values) out.push_back(static_cast<std::uint8_t>(v));
    put_f32(out, s.component_rms);
    put_f32(out, s.mean_norm);
    return out;
}

// Three words of four dims; the vocabulary is 3 + 1 + 5 + 2 = 11 bytes, so one byte of padding,
// and the values include both extremes (±127), 0 and −128 (never written, but representable).
FileSpec small_spec() {
    FileSpec s;
    s.words = {"the", ",", "caf\xc3\xa9"};
    s.dim = 4;
    s.scales = {0.01f, 0.0031415926f, 1.5e-3f};
    s.values = {127, -127, 0, 5, -128, 1, -1, 64, 3, -7, 100, -100};
    return s;
}

bool is_empty(const posenc::VectorSet& set) {
    return set.count == 0 && set.dim == 0 && set.words.empty() && set.index.empty() && set.rows.empty() &&
           set.component_rms == 0.0f && set.mean_norm == 0.0f;
}

// Parses into a set that already holds a valid file, so "left empty" means "cleared".
std::string parse_damaged(const std::vector<std::uint8_t>& bytes) {
    posenc::VectorSet set;
    const auto good = pack(small_spec());
    REQUIRE(posenc::parse_packed_vectors(good.data(), good.size(), set) == nullptr);
    REQUIRE_FALSE(is_empty(set));
    const char* error = posenc::parse_packed_vectors(bytes.data(), bytes.size(), set);
    const std::string message = error ? error : "(accepted)";
    CAPTURE(message);
    CHECK(error != nullptr);
    CHECK(is_empty(set));
    return message;
}

}  // namespace

TEST_CASE("PELVEC01: a small packed file parses and dequantises exactly", "[vectors]") {
    const FileSpec spec = small_spec();
    const auto bytes = pack(spec);
    // Layout check of the packer itself against the README: 24 + pad4(11) + 4·3 + 3·4 + 8.
    REQUIRE(bytes.size() == 24 + 12 + 12 + 12 + 8);
    posenc::VectorSet set;
    const char* error = posenc::parse_packed_vectors(bytes.data(), bytes.size(), set);
    INFO((error ? error : "(ok)"));
    REQUIRE(error == nullptr);
    CHECK(set.count == 3);
    CHECK(set.dim == 4);
    CHECK(set.words == spec.words);
    REQUIRE(set.rows.size() == 12);
    for (std::size_t r = 0; r < 3; ++r) {
        for (std::size_t j = 0; j < 4; ++j) {
            // Exactly scale·int8 in float: one rounding, bit for bit.
            const float want = spec.scales[r] * static_cast<float>(spec.values[r * 4 + j]);
            CAPTURE(r, j);
            CHECK(std::memcmp(&set.rows[r * 4 + j], &want, sizeof want) == 0);
        }
    }
    CHECK(set.component_rms == 0.5f);
    CHECK(set.mean_norm == 5.0f);
    CHECK(set.find("the") == 0);
    CHECK(set.find(",") == 1);
    CHECK(set.find("caf\xc3\xa9") == 2);
    for (const char* absent : {"", "th", "the ", "The", "cafe", "\n", "the\n,"}) {
        CAPTURE(absent);
        CHECK(set.find(absent) == -1);
    }
}

TEST_CASE("PELVEC01: vocabulary sizes 0–3 mod 4 pad correctly; one word; flags are ignored", "[vectors]") {
    for (const std::string& word : {std::string("a"), std::string("ab"), std::string("abc"), std::string("abcd")}) {
        FileSpec s;
        s.words = {word};
        s.dim = 2;
        s.scales = {0.5f};
        s.values = {-2, 3};
        s.flags = 7;
        const auto bytes = pack(s);
        posenc::VectorSet set;
        const char* error = posenc::parse_packed_vectors(bytes.data(), bytes.size(), set);
        CAPTURE(word, (error ? error : "(ok)"));
        REQUIRE(error == nullptr);
        CHECK(set.count == 1);
        CHECK(set.rows == std::vector<float>{-1.0f, 1.5f});
        CHECK(set.find(word) == 0);
    }
}

TEST_CASE("PELVEC01: truncation at every length and a trailing byte are rejected", "[vectors]") {
    const auto bytes = pack(small_spec());
    for (std::size_t size = 0; size < bytes.size(); ++size) {
        CAPTURE(size);
        const std::vector<std::uint8_t> cut(bytes.begin(), bytes.begin() + size);
        CHECK_THAT(parse_damaged(cut), Contains("truncated"));
    }
    auto longer = bytes;
    longer.push_back(0);
    CHECK_THAT(parse_damaged(longer), Contains("trailing"));
}

TEST_CASE("PELVEC01: damaged headers and vocabularies give a message and an empty set", "[vectors]") {
    SECTION("bad magic") {
        for (std::size_t at = 0; at < 8; ++at) {
            auto bytes = pack(small_spec());
            bytes[at] ^= 0x20;
            CAPTURE(at);
            CHECK_THAT(parse_damaged(bytes), Contains("magic"));
        }
    }
    SECTION("count 0") {
        FileSpec s = small_spec();
        s.count_override = 0;
        CHECK_THAT(parse_damaged(pack(s)), Contains("count"));
    }
    SECTION("count far beyond the data") {
        FileSpec s = small_spec();
        s.count_override = 0xFFFFFFFF;
        CHECK(parse_damaged(pack(s)).size() > 0);
    }
    SECTION("odd dimension and dimension 0") {
        for (std::uint32_t dim : {0u, 1u, 3u, 4097u}) {
            FileSpec s = small_spec();
            s.dim = dim;
            CAPTURE(dim);
            CHECK_THAT(parse_damaged(pack(s)), Contains("dimension"));
        }
    }
    SECTION("duplicate word") {
        FileSpec s = small_spec();
        s.words = {"the", ",", "the"};
        CHECK_THAT(parse_damaged(pack(s)), Contains("duplicate"));
    }
    SECTION("empty word: first, middle, last") {
        for (std::size_t at = 0; at < 3; ++at) {
            FileSpec s = small_spec();
            s.words[at] = "";
            CAPTURE(at);
            CHECK_THAT(parse_damaged(pack(s)), Contains("empty word"));
        }
    }
    SECTION("vocabulary holding fewer or more words than count") {
        FileSpec fewer = small_spec();
        fewer.words = {"the", ",caf\xc3\xa9"};  // same bytes minus a newline: 2 words, count 3
        fewer.count_override = 3;
        CHECK_THAT(parse_damaged(pack(fewer)), Contains("count"));
        FileSpec more = small_spec();
        more.words = {"the", ",", "caf", "\xc3\xa9"};  // 4 words, count 3
        more.count_override = 3;
        CHECK_THAT(parse_damaged(pack(more)), Contains("count"));
    }
}

TEST_CASE("PELVEC01: a NaN, infinite or negative scale is rejected", "[vectors]") {
    for (float bad : {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
                      -std::numeric_limits<float>::infinity(), -1.0f, -1e-30f}) {
        for (std::size_t row = 0; row < 3; ++row) {
            FileSpec s = small_spec();
            s.scales[row] = bad;
            CAPTURE(bad, row);
            CHECK_THAT(parse_damaged(pack(s)), Contains("scale"));
        }
    }
    // A zero scale (an all-zero vector) is allowed.
    FileSpec zero = small_spec();
    zero.scales[1] = 0.0f;
    const auto bytes = pack(zero);
    posenc::VectorSet set;
    CHECK(posenc::parse_packed_vectors(bytes.data(), bytes.size(), set) == nullptr);
}

TEST_CASE("PELVEC01: component_rms must be positive (not NaN or infinite); mean_norm finite", "[vectors]") {
    for (float bad : {0.0f, -0.0f, -0.5f, std::numeric_limits<float>::quiet_NaN(),
                      std::numeric_limits<float>::infinity()}) {
        FileSpec s = small_spec();
        s.component_rms = bad;
        CAPTURE(bad);
        CHECK_THAT(parse_damaged(pack(s)), Contains("component_rms"));
    }
    for (float bad : {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
                      -std::numeric_limits<float>::infinity()}) {
        FileSpec s = small_spec();
        s.mean_norm = bad;
        CAPTURE(bad);
        CHECK_THAT(parse_damaged(pack(s)), Contains("mean_norm"));
    }
}

TEST_CASE("PELVEC01: scales and component_rms above 1e6 are rejected; 1e6 itself is accepted", "[vectors]") {
    // Bounded so that 4096 components of |value| ≤ 128 and their dot products stay finite in float.
    for (float bad : {1.0000001e6f, 1e30f, std::numeric_limits<float>::max()}) {
        FileSpec s = small_spec();
        s.scales[2] = bad;
        CAPTURE(bad);
        CHECK_THAT(parse_damaged(pack(s)), Contains("scale"));
        FileSpec r = small_spec();
        r.component_rms = bad;
        CHECK_THAT(parse_damaged(pack(r)), Contains("component_rms"));
    }
    FileSpec edge = small_spec();
    edge.scales[0] = 1e6f;
    edge.component_rms = 1e6f;
    edge.mean_norm = 0.0f;  // only finiteness is required of mean_norm
    const auto bytes = pack(edge);
    posenc::VectorSet set;
    const char* error = posenc::parse_packed_vectors(bytes.data(), bytes.size(), set);
    INFO((error ? error : "(ok)"));
    CHECK(error == nullptr);
    CHECK(set.rows[0] == 1.27e8f);
}

TEST_CASE("PELVEC01: header sizes that wrap 32-bit arithmetic do not make a short file look complete",
          "[vectors]") {
    // On wasm32 (size_t is 32 bits) vocabulary_bytes + 3 and count·dim could wrap: a header
    // claiming ~4 GiB of vocabulary, or count·dim = 2^32, would then "expect" a file of a few
    // bytes and the parser would read far past the buffer. The file sizes below are exactly
    // what the wrapped arithmetic expects; both must be rejected as truncated.
    SECTION("vocabulary_bytes near 2^32") {
        for (std::uint32_t vocabulary_bytes : {0xFFFFFFFDu, 0xFFFFFFFEu, 0xFFFFFFFFu}) {
            const std::uint32_t count = 1, dim = 2;
            const std::uint32_t padded32 = (vocabulary_bytes + 3u) / 4u * 4u;  // wraps to 0
            REQUIRE(padded32 == 0u);
            std::vector<std::uint8_t> bytes;
            for (char c : std::string("PELVEC01")) bytes.push_back(static_cast<std::uint8_t>(c));
            put_u32(bytes, count);
            put_u32(bytes, dim);
            put_u32(bytes, vocabulary_bytes);
            put_u32(bytes, 0);
            bytes.resize(24 + padded32 + 4 * count + count * dim + 8, 0x41);
            CAPTURE(vocabulary_bytes, bytes.size());
            CHECK_THAT(parse_damaged(bytes), Contains("truncated"));
        }
    }
    SECTION("count·dim = 2^32") {
        const std::uint32_t count = 1u << 22, dim = 1024;  // both within the format's limits
        REQUIRE(static_cast<std::uint32_t>(count * dim) == 0u);
        std::vector<std::uint8_t> bytes;
        for (char c : std::string("PELVEC01")) bytes.push_back(static_cast<std::uint8_t>(c));
        put_u32(bytes, count);
        put_u32(bytes, dim);
        put_u32(bytes, 1);
        put_u32(bytes, 0);
        bytes.resize(24 + 4 + 4 * std::size_t{count} + 0 + 8, 0);  // what a 32-bit size_t would expect
        bytes[24] = 'a';
        CAPTURE(bytes.size());
        CHECK_THAT(parse_damaged(bytes), Contains("truncated"));
    }
}


TEST_CASE("the shipped GloVe file parses: 20000 × 100, `the` at row 0", "[vectors]") {
    std::string path;
    std::vector<std::uint8_t> bytes;
    const bool found = posenc::test::read_repo_file("data/glove-6b-100d-20k.i8", bytes, &path);
#ifdef __EMSCRIPTEN__
    if (!found) {
        WARN("no file system access under this runtime; skipping " << path);
        return;
    }
#endif
    INFO(path);
    REQUIRE(found);
    REQUIRE(bytes.size() == 2241404);  // data/README.md
    posenc::VectorSet set;
    const char* error = posenc::parse_packed_vectors(bytes.data(), bytes.size(), set);
    INFO((error ? error : "(ok)"));
    REQUIRE(error == nullptr);
    CHECK(set.count == 20000);
    CHECK(set.dim == 100);
    CHECK(set.words.size() == 20000);
    CHECK(set.index.size() == 20000);
    CHECK(set.rows.size() == 20000u * 100u);
    CHECK(set.words[0] == "the");
    CHECK(set.find("the") == 0);
    const char* top_ten[] = {"the", ",", ".", "of", "to", "and", "in", "\"", "for", "-"};
    for (std::size_t i = 0; i < 10; ++i) CHECK(set.words[i] == top_ten[i]);
    // data/README.md's "king (654th)", "queen (1,948th)", … are the 0-based rows.
    CHECK(set.find("king") == 654);
    CHECK(set.find("queen") == 1948);
    CHECK(set.find("paris") == 966);
    CHECK(set.find("tokyo") == 1276);
    CHECK(set.find("banana") == 10117);
    // The vocabulary split here independently of the parser: same words, same order.
    std::uint32_t vocabulary_bytes;
    std::memcpy(&vocabulary_bytes, &bytes[16], sizeof vocabulary_bytes);  // little-endian host
    CHECK(vocabulary_bytes == 161371u);
    std::vector<std::string> words(1);
    for (std::size_t i = 0; i < vocabulary_bytes; ++i) {
        if (bytes[24 + i] == '\n') words.emplace_back();
        else words.back() += static_cast<char>(bytes[24 + i]);
    }
    CHECK(words == set.words);
    CHECK(set.find("1999") == -1);
    CHECK(std::fabs(set.component_rms - 0.54051685f) <= 1e-7f);
    CHECK(std::fabs(set.mean_norm - 5.3616719f) <= 1e-6f);
    // Every row reaches ±127 (README: scale = max|v|/127), so max|row| = 127·scale exactly.
    std::size_t rows_without_extreme = 0;
    const std::size_t scales_at = 24 + (161371 + 3) / 4 * 4;
    for (std::size_t r = 0; r < set.count; ++r) {
        float scale;
        std::memcpy(&scale, &bytes[scales_at + 4 * r], sizeof scale);  // little-endian host
        float peak = 0.0f;
        for (std::size_t j = 0; j < set.dim; ++j) peak = std::fmax(peak, std::fabs(set.rows[r * set.dim + j]));
        if (peak != 127.0f * scale) ++rows_without_extreme;
    }
    CHECK(rows_without_extreme == 0);
}

// Regression (fuzz_vectors): normalize_rows took the norm as a float dot product, which
// underflows to 0 for rows of tiny components (a file with a subnormal scale) and overflows for
// huge ones; such non-zero rows came out as zero rows, i.e. never anyone's neighbour.
TEST_CASE("normalize_rows: rows of tiny or huge components still become unit rows", "[vectors][fuzz]") {
    const std::vector<float> rows = {1e-40f, 3e-41f, 0.0f, 1e-44f,   // subnormal components
                                     3e38f, -3e38f, 1e38f, 0.0f,     // squares overflow float
                                     0.0f, 0.0f, 0.0f, 0.0f,         // a zero row stays zero
                                     1.0f, 2.0f, 2.0f, 4.0f};
    std::vector<float> unit(rows.size(), 9.0f);
    posenc::normalize_rows(rows.data(), 4, 4, unit.data());
    for (std::size_t r = 0; r < 4; ++r) {
        double norm2 = 0.0;
        for (std::size_t j = 0; j < 4; ++j) norm2 += double{unit[r * 4 + j]} * unit[r * 4 + j];
        CAPTURE(r);
        if (r == 2) CHECK(norm2 == 0.0);
        else CHECK(norm2 == Approx(1.0).epsilon(1e-6));
    }
    CHECK(unit[12] == Approx(0.2f));
    CHECK(unit[15] == Approx(0.8f));
}
