// libFuzzer target: the top-level compare entry and the limit checks in front of every kernel.
//
// The first byte picks the mode; the rest is read front to back (zeros once it runs out):
//   even → a CompareConfig (n, d, d_pos, heads, flags, base, alpha, scale, seed, scheme set,
//          SchemeOptions) from the bytes, sizes either small or raw 32-bit values, options picked
//          from tables of valid and invalid values or raw; validate() must refuse what the rules
//          forbid, and a valid, small config runs compare() (sometimes with a concatenation basis)
//          on bytes-derived finite embeddings: requested lanes have their shapes and the others
//          are empty; every weight is finite and in [0, 1], each row sums to 1, causal rows are
//          zero above the diagonal, terms are finite; with W = I the symmetric terms are
//          bit-symmetric, the sinusoidal position terms depend on |i − j| only and the
//          concatenated cross terms are exactly +0; a run into buffers last used by another
//          config gives the fresh results bit for bit.
//   odd  → limits::check_rows_dim / check_base / check_offset / check_scale, the checks the
//          embind entries run, on bytes-derived values; when they pass and the sizes are small,
//          sinusoidal_table, rotate and attention run and their outputs are checked.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <vector>

#include "attention/attention.hpp"
#include "compare/compare.hpp"
#include "base/limits.hpp"
#include "encodings/rotary.hpp"
#include "encodings/sinusoidal.hpp"

namespace {

#define FUZZ_CHECK(cond)                                                                 \
    do {                                                                                 \
        if (!(cond)) {                                                                   \
            std::fprintf(stderr, "fuzz_compare: invariant failed: %s (line %d)\n", #cond, \
                         __LINE__);                                                      \
            std::abort();                                                                \
        }                                                                                \
    } while (0)

struct Reader {
    const std::uint8_t* data;
    std::size_t size, at = 0;
    std::uint8_t u8() { return at < size ? data[at++] : 0; }
    std::uint32_t u32() {
        std::uint32_t v = 0;
        for (int b = 0; b < 4; ++b) v |= std::uint32_t{u8()} << (8 * b);
        return v;
    }
    float f32() {
        const std::uint32_t bits = u32();
        float v;
        std::memcpy(&v, &bits, sizeof v);
        return v;
    }
    double f64() {
        std::uint64_t bits = u32();
        bits |= std::uint64_t{u32()} << 32;
        double v;
        std::memcpy(&v, &bits, sizeof v);
        return v;
    }
    template <class T, std::size_t N>
    T pick(const T (&table)[N]) { return table[u8() % N]; }
};

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kBases[] = {10000.0, 2.0, 1.0000001, 500.0, 1e12, 1e12 * 1.0000001, 1.0, 0.5, 0.0, -10.0, kNaN, kInf};
const float kAlphas[] = {1.0f, 0.0f, -1.0f, 8.0f, 1e-30f, 1e4f, 3e38f, -0.0f, float(kInf), float(kNaN)};
const float kScales[] = {0.0f, 0.125f, 1.0f, 1e-38f, 1e-45f, 1e4f, -1.0f, float(kInf), float(kNaN)};
const double kOffsets[] = {0.0, 1.0, -5.0, 32768.0, -32768.0, 32769.0, 0.5, -0.25, 1e300, kNaN, kInf, -kInf};
// SchemeOptions values: defaults, edges on both sides, non-integers and non-finite ones.
const double kLengths[] = {2048.0, 8192.0, 1.0, 512.0, 1048576.0, 1048577.0, 0.0, 2.5, -4.0, kNaN, kInf};
const std::size_t kAlibiHeads[] = {8, 1, 12, 64, 65, 0};
const int kT5Buckets[] = {32, 4, 8, 16, 256, 258, 2, 7, -2};
const int kT5Distances[] = {128, 1, 2, 3, 5, 9, 17, 1000000, 1000001, 0, -1};
const double kGammas[] = {0.4, 10.0, 1e-6, 10.5, 0.0, -0.4, kNaN};
const double kScaleBases[] = {512.0, 1.0, 32.0, 1e9, 2e9, 0.0, -1.0, kNaN, kInf};
const double kYarn[] = {1.0, 32.0, 0.0, 0.5, 1e6, -1.0, kNaN, kInf};

posenc::SchemeOptions read_options(Reader& in) {
    posenc::SchemeOptions o;
    const std::uint8_t raw = in.u8();  // bit set: that field from raw bytes instead of the table
    o.trained_length = (raw & 1) ? in.f64() : in.pick(kLengths);
    o.eval_length = (raw & 2) ? in.f64() : in.pick(kLengths);
    o.alibi_heads = (raw & 4) ? in.u32() : in.pick(kAlibiHeads);
    o.alibi_head = in.u8() % 66;
    o.t5_buckets = (raw & 8) ? static_cast<int>(in.u32()) : in.pick(kT5Buckets);
    o.t5_max_distance = (raw & 16) ? static_cast<int>(in.u32()) : in.pick(kT5Distances);
    o.xpos_gamma = (raw & 32) ? in.f64() : in.pick(kGammas);
    o.xpos_scale_base = (raw & 64) ? in.f64() : in.pick(kScaleBases);
    o.yarn_alpha = (raw & 128) ? in.f64() : in.pick(kYarn);
    o.yarn_beta = in.pick(kYarn);
    return o;
}

bool is_length(double v) { return v >= 1.0 && v <= 1048576.0 && std::trunc(v) == v; }

// What validate must refuse in the options, whatever else is wrong.
bool options_forbidden(const posenc::SchemeOptions& o, bool causal) {
    const int exact = (causal ? o.t5_buckets : o.t5_buckets / 2) / 2;
    return !is_length(o.trained_length) || !is_length(o.eval_length) || o.alibi_heads < 1 || o.alibi_heads > 64 ||
           o.alibi_head < 1 || o.alibi_head > o.alibi_heads || o.t5_buckets < 4 || o.t5_buckets > 256 ||
           o.t5_buckets % 2 != 0 || o.t5_max_distance <= exact || o.t5_max_distance > 1000000 ||
           !(o.xpos_gamma > 0.0 && o.xpos_gamma <= 10.0) || !(o.xpos_scale_base > 0.0) ||
           !(std::isfinite(o.yarn_alpha) && std::isfinite(o.yarn_beta) && o.yarn_alpha >= 0.0 && o.yarn_alpha < o.yarn_beta);
}

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
}

// m (n×n) equals its transpose bit for bit.
bool bit_symmetric(const float* m, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < i; ++j)
            if (std::memcmp(m + i * n + j, m + j * n + i, sizeof(float)) != 0) return false;
    return true;
}

// m[i][j] is m[0][|i − j|] bit for bit.
bool by_distance(const float* m, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j)
            if (std::memcmp(m + i * n + j, m + (i > j ? i - j : j - i), sizeof(float)) != 0) return false;
    return true;
}

bool all_finite(const std::vector<float>& v) {
    return std::all_of(v.begin(), v.end(), [](float x) { return std::isfinite(x); });
}

// Softmax rows: finite, in [0, 1], summing to 1; causal rows exactly zero above the diagonal.
void check_weights(const float* w, std::size_t rows, std::size_t n, bool causal) {
    for (std::size_t i = 0; i < rows; ++i) {
        double sum = 0.0;
        for (std::size_t j = 0; j < n; ++j) {
            const float x = w[i * n + j];
            FUZZ_CHECK(std::isfinite(x) && x >= 0.0f && x <= 1.0f);
            if (causal && j > i % n) FUZZ_CHECK(x == 0.0f);
            sum += x;
        }
        FUZZ_CHECK(std::fabs(sum - 1.0) <= 1e-4);
    }
}

void fuzz_compare(Reader& in) {
    const std::uint8_t flags = in.u8();
    const bool raw_sizes = flags & 0x10;
    posenc::CompareConfig cfg;
    cfg.layout = (flags & 1) ? posenc::Layout::half : posenc::Layout::interleaved;
    cfg.pairing = (flags & 2) ? posenc::Layout::half : posenc::Layout::interleaved;
    cfg.concat_mode = (flags & 4) ? posenc::ConcatMode::widened : posenc::ConcatMode::same_width;
    cfg.causal = flags & 8;
    cfg.n = raw_sizes ? in.u32() : in.u8() % 41;         // 0 … 40
    cfg.d = raw_sizes ? in.u32() : in.u8() % 67;         // 0 … 66, odd ones too
    cfg.d_pos = raw_sizes ? in.u32() : in.u8() % 67;
    cfg.heads = raw_sizes ? in.u32() : in.u8() % 9;      // 0 … 8
    cfg.base = (flags & 0x20) ? in.f64() : in.pick(kBases);
    cfg.alpha = (flags & 0x40) ? in.f32() : in.pick(kAlphas);
    cfg.scale = (flags & 0x80) ? in.f32() : in.pick(kScales);
    cfg.head_seed = in.u32();
    const std::uint8_t set_flags = in.u8();
    // Mostly a few schemes from the bytes; sometimes the classic three, all, or raw bits (which
    // may be empty or name unknown schemes).
    const std::uint32_t set_bits = in.u32();
    cfg.schemes = (set_flags & 3) == 0   ? posenc::kClassicSchemes
                  : (set_flags & 3) == 1 ? posenc::kAllSchemes
                  : (set_flags & 3) == 2 ? set_bits & posenc::kAllSchemes
                                         : set_bits;
    cfg.options = read_options(in);
    const bool with_basis = set_flags & 4;
    const bool concatenated = posenc::has(cfg.schemes, posenc::Scheme::concatenated);

    const char* error = posenc::validate(cfg);
    // What validate must refuse, whatever else is wrong.
    const bool must_refuse = cfg.n == 0 || cfg.n > posenc::limits::kMaxCompareTokens || cfg.d == 0 ||
                             cfg.d % 2 != 0 || cfg.d > posenc::limits::kMaxDim ||
                             (concatenated && (cfg.d_pos < 2 || cfg.d_pos % 2 != 0 || cfg.d_pos > posenc::limits::kMaxDim ||
                                               (cfg.concat_mode == posenc::ConcatMode::same_width && cfg.d_pos >= cfg.d))) ||
                             !(cfg.base > 1.0 && cfg.base <= 1e12) || !std::isfinite(cfg.alpha) ||
                             !std::isfinite(cfg.scale) || cfg.scale < 0.0f || cfg.heads > posenc::limits::kMaxHeads ||
                             (cfg.heads > 0 && (cfg.d % cfg.heads != 0 || (cfg.d / cfg.heads) % 2 != 0)) ||
                             cfg.schemes == 0 || (cfg.schemes & ~posenc::kAllSchemes) != 0 ||
                             options_forbidden(cfg.options, cfg.causal);
    if (must_refuse) FUZZ_CHECK(error != nullptr);
    if (error) {
        FUZZ_CHECK(std::strlen(error) > 0);
        return;
    }
    // Valid; run it when small (large valid configs are the JS tests' business: they are slow).
    const std::size_t width = cfg.concat_mode == posenc::ConcatMode::widened ? cfg.d + cfg.d_pos : cfg.d;
    if (cfg.n > 24 || width > 96) return;

    std::vector<float> embeddings(cfg.n * cfg.d), basis;
    for (float& e : embeddings) e = static_cast<float>(static_cast<std::int8_t>(in.u8())) / 16.0f;  // |e| ≤ 8
    if (with_basis) {
        basis.resize(cfg.n * cfg.d);
        for (float& e : basis) e = static_cast<float>(static_cast<std::int8_t>(in.u8())) / 16.0f;
    }
    const float* words = with_basis ? basis.data() : nullptr;
    posenc::CompareResult result;
    posenc::compare(cfg, embeddings.data(), result, words);

    const std::size_t n = cfg.n, nn = n * n, heads = std::max<std::size_t>(cfg.heads, 1);
    const bool additive = posenc::has(cfg.schemes, posenc::Scheme::additive);
    FUZZ_CHECK(result.pe.size() == (additive ? n * cfg.d : 0));
    FUZZ_CHECK(result.pe_concat.size() == (concatenated ? n * cfg.d_pos : 0));
    FUZZ_CHECK(all_finite(result.pe) && all_finite(result.pe_concat));
    // Moderate inputs (|α·e| ≤ 8·10^4, scale ≤ 10^4, width ≤ 96) keep every logit far from overflow
    // (xPos's factors stay within e^±40 by validate(); ALiBi's and T5's biases are bounded).
    const bool moderate = std::fabs(cfg.alpha) <= 1e4f && cfg.scale <= 1e4f;
    for (unsigned index = 0; index < posenc::kSchemeCount; ++index) {
        const posenc::Scheme scheme = static_cast<posenc::Scheme>(index);
        const posenc::SchemeResult& s = result.lane(scheme);
        if (!posenc::has(cfg.schemes, scheme)) {
            FUZZ_CHECK(s.x.empty() && s.weights.empty() && s.terms.empty());
            continue;
        }
        FUZZ_CHECK(s.width == (scheme == posenc::Scheme::concatenated ? width : cfg.d));
        FUZZ_CHECK(s.x.size() == n * s.width);
        FUZZ_CHECK(s.weights.size() == heads * nn);
        FUZZ_CHECK(s.term_count >= 1 && s.term_count <= 4 && s.terms.size() == s.term_count * nn);
        if (!moderate) continue;
        FUZZ_CHECK(all_finite(s.x));
        FUZZ_CHECK(all_finite(s.terms));
        check_weights(s.weights.data(), heads * n, n, cfg.causal);
        if (cfg.heads > 0) continue;
        // W = I structure (compare.cpp, identity_terms and gram).
        const bool symmetric_first = scheme != posenc::Scheme::xpos;
        if (symmetric_first) FUZZ_CHECK(bit_symmetric(s.terms.data(), n));
        if (scheme == posenc::Scheme::additive || scheme == posenc::Scheme::concatenated) {
            FUZZ_CHECK(by_distance(s.terms.data() + 3 * nn, n));
        }
        if (scheme == posenc::Scheme::learned) FUZZ_CHECK(bit_symmetric(s.terms.data() + 3 * nn, n));
        if (scheme == posenc::Scheme::concatenated) {
            for (std::size_t i = nn; i < 3 * nn; ++i) FUZZ_CHECK(s.terms[i] == 0.0f && !std::signbit(s.terms[i]));
        }
    }

    // Buffers last used by another config (other n, base, layout) give the fresh results.
    posenc::CompareConfig other = cfg;
    other.n = cfg.n > 1 ? cfg.n - 1 : 2;
    other.base = cfg.base == 10000.0 ? 500.0 : 10000.0;
    other.layout = cfg.layout == posenc::Layout::half ? posenc::Layout::interleaved : posenc::Layout::half;
    std::vector<float> other_embeddings(other.n * other.d, 0.25f);
    if (posenc::validate(other) == nullptr) {
        posenc::compare(other, other_embeddings.data(), result, with_basis ? other_embeddings.data() : nullptr);
    }
    posenc::CompareResult fresh;
    posenc::compare(cfg, embeddings.data(), fresh, words);
    posenc::compare(cfg, embeddings.data(), result, words);
    FUZZ_CHECK(same_bits(fresh.pe, result.pe) && same_bits(fresh.pe_concat, result.pe_concat));
    for (unsigned index = 0; index < posenc::kSchemeCount; ++index) {
        const posenc::Scheme scheme = static_cast<posenc::Scheme>(index);
        FUZZ_CHECK(same_bits(fresh.lane(scheme).x, result.lane(scheme).x));
        FUZZ_CHECK(same_bits(fresh.lane(scheme).weights, result.lane(scheme).weights));
        FUZZ_CHECK(same_bits(fresh.lane(scheme).terms, result.lane(scheme).terms));
    }

    // Row reuse (compare.hpp): one row edited, or one appended, on the remembering result.
    const std::size_t edited = n > 0 ? in.u8() % n : 0;
    if (in.u8() % 2 == 0 && n > 0) {
        embeddings[edited * cfg.d] += 0.5f;
    } else {
        posenc::CompareConfig longer = cfg;
        longer.n = n + 1;
        if (posenc::validate(longer) != nullptr) return;
        cfg = longer;
        embeddings.resize(cfg.n * cfg.d, 0.125f);
        if (with_basis) basis.resize(cfg.n * cfg.d, -0.25f);
    }
    const float* words_now = with_basis ? basis.data() : nullptr;
    posenc::compare(cfg, embeddings.data(), result, words_now);
    posenc::CompareResult again;
    posenc::compare(cfg, embeddings.data(), again, words_now);
    for (unsigned index = 0; index < posenc::kSchemeCount; ++index) {
        const posenc::Scheme scheme = static_cast<posenc::Scheme>(index);
        FUZZ_CHECK(same_bits(again.lane(scheme).x, result.lane(scheme).x));
        FUZZ_CHECK(same_bits(again.lane(scheme).weights, result.lane(scheme).weights));
        FUZZ_CHECK(same_bits(again.lane(scheme).terms, result.lane(scheme).terms));
    }
}

void fuzz_kernels(Reader& in) {
    namespace limits = posenc::limits;
    const std::uint8_t flags = in.u8();
    const std::size_t n = (flags & 1) ? in.u32() : in.u8() % 33;
    const std::size_t d = (flags & 2) ? in.u32() : in.u8() % 35;
    const double base = (flags & 4) ? in.f64() : in.pick(kBases);
    const double offset = (flags & 8) ? in.f64() : in.pick(kOffsets);
    const double scale = (flags & 16) ? in.f64() : in.pick(kOffsets);
    const posenc::Layout layout = (flags & 32) ? posenc::Layout::half : posenc::Layout::interleaved;
    const bool causal = flags & 64;

    const char* rows_error = limits::check_rows_dim(n, d, limits::kMaxRows, true);
    const char* base_error = limits::check_base(base);
    const char* offset_error = limits::check_offset(offset);
    const char* scale_error = limits::check_scale(scale);
    if (n == 0 || n > limits::kMaxRows || d == 0 || d % 2 != 0 || d > limits::kMaxDim) FUZZ_CHECK(rows_error);
    if (!(base > 1.0 && base <= limits::kMaxBase)) FUZZ_CHECK(base_error);
    if (!(std::fabs(offset) <= limits::kMaxOffset) || offset != std::trunc(offset)) FUZZ_CHECK(offset_error);
    if (!(std::fabs(scale) <= 3.4028234663852886e38)) FUZZ_CHECK(scale_error);
    if (rows_error || base_error || n * d > 4096) return;

    std::vector<float> pe(n * d);
    posenc::sinusoidal_table(n, d, base, layout, pe.data());
    for (float v : pe) FUZZ_CHECK(std::isfinite(v) && std::fabs(v) <= 1.0f + 1e-6f);

    std::vector<float> x(n * d), rotated(n * d);
    for (float& v : x) v = static_cast<float>(static_cast<std::int8_t>(in.u8())) / 8.0f;
    if (!offset_error) {
        posenc::rotate(x.data(), n, d, base, offset, layout, rotated.data());
        // A rotation keeps each pair's length.
        for (std::size_t p = 0; p < n; ++p) {
            for (std::size_t i = 0; i < d / 2; ++i) {
                const std::size_t a = layout == posenc::Layout::interleaved ? 2 * i : i;
                const std::size_t b = layout == posenc::Layout::interleaved ? 2 * i + 1 : i + d / 2;
                const float* r = x.data() + p * d;
                const float* o = rotated.data() + p * d;
                const double before = std::hypot(double{r[a]}, double{r[b]}), after = std::hypot(double{o[a]}, double{o[b]});
                FUZZ_CHECK(std::fabs(before - after) <= 1e-5 * (1.0 + before));
            }
        }
    }
    if (!scale_error && n <= limits::kMaxAttentionRows && !limits::check_rows_dim(n, d, limits::kMaxAttentionRows, false)) {
        std::vector<float> weights(n * n), output(n * d);
        posenc::attention(x.data(), x.data(), x.data(), n, d, static_cast<float>(scale), causal, weights.data(),
                          output.data());
        // |logit| ≤ |scale|·d·16²: finite for moderate scales, where the rows must be proper softmax rows.
        if (std::fabs(scale) <= 1e30) check_weights(weights.data(), n, n, causal);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0 || size > 8192) return 0;
    Reader in{data + 1, size - 1};
    if (data[0] % 2 == 0) fuzz_compare(in);
    else fuzz_kernels(in);
    return 0;
}
