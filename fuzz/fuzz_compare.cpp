// libFuzzer target: the top-level compare entry and the limit checks in front of every kernel.
//
// The first byte picks the mode; the rest is read front to back (zeros once it runs out):
//   even → a CompareConfig (n, d, d_pos, heads, flags, base, alpha, scale, seed) from the bytes,
//          sizes either small or raw 32-bit values; validate() must refuse what the rules
//          forbid, and a valid, small config runs compare() on bytes-derived finite embeddings:
//          every weight is finite and in [0, 1], each row sums to 1, causal rows are zero above
//          the diagonal, terms are finite, and a second run into the same (reused) buffers gives
//          identical results.
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

#include "attention.hpp"
#include "compare.hpp"
#include "limits.hpp"
#include "rotary.hpp"
#include "sinusoidal.hpp"

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

    const char* error = posenc::validate(cfg);
    // What validate must refuse, whatever else is wrong.
    const bool must_refuse = cfg.n == 0 || cfg.n > posenc::limits::kMaxCompareTokens || cfg.d == 0 ||
                             cfg.d % 2 != 0 || cfg.d > posenc::limits::kMaxDim || cfg.d_pos < 2 ||
                             cfg.d_pos % 2 != 0 || cfg.d_pos > posenc::limits::kMaxDim ||
                             !(cfg.base > 1.0 && cfg.base <= 1e12) || !std::isfinite(cfg.alpha) ||
                             !std::isfinite(cfg.scale) || cfg.scale < 0.0f || cfg.heads > posenc::limits::kMaxHeads ||
                             (cfg.concat_mode == posenc::ConcatMode::same_width && cfg.d_pos >= cfg.d) ||
                             (cfg.heads > 0 && (cfg.d % cfg.heads != 0 || (cfg.d / cfg.heads) % 2 != 0));
    if (must_refuse) FUZZ_CHECK(error != nullptr);
    if (error) {
        FUZZ_CHECK(std::strlen(error) > 0);
        return;
    }
    // Valid; run it when small (large valid configs are the JS tests' business: they are slow).
    const std::size_t width = cfg.concat_mode == posenc::ConcatMode::widened ? cfg.d + cfg.d_pos : cfg.d;
    if (cfg.n > 24 || width > 96) return;

    std::vector<float> embeddings(cfg.n * cfg.d);
    for (float& e : embeddings) e = static_cast<float>(static_cast<std::int8_t>(in.u8())) / 16.0f;  // |e| ≤ 8
    posenc::CompareResult result;
    posenc::compare(cfg, embeddings.data(), result);

    const std::size_t n = cfg.n, heads = std::max<std::size_t>(cfg.heads, 1);
    FUZZ_CHECK(result.pe.size() == n * cfg.d && result.pe_concat.size() == n * cfg.d_pos);
    FUZZ_CHECK(all_finite(result.pe) && all_finite(result.pe_concat));
    // Moderate inputs (|α·e| ≤ 8·10^4, scale ≤ 10^4, width ≤ 96) keep every logit far from overflow.
    const bool moderate = std::fabs(cfg.alpha) <= 1e4f && cfg.scale <= 1e4f;
    for (const posenc::SchemeResult* s : {&result.additive, &result.concatenated, &result.rotary}) {
        FUZZ_CHECK(s->x.size() == n * s->width);
        FUZZ_CHECK(s->weights.size() == heads * n * n);
        FUZZ_CHECK(s->terms.size() == s->term_count * n * n);
        if (!moderate) continue;
        FUZZ_CHECK(all_finite(s->x));
        FUZZ_CHECK(all_finite(s->terms));
        check_weights(s->weights.data(), heads * n, n, cfg.causal);
    }
    FUZZ_CHECK(result.additive.width == cfg.d && result.rotary.width == cfg.d && result.concatenated.width == width);

    // Reusing the buffers changes nothing.
    const std::vector<float> first_weights = result.concatenated.weights, first_x = result.additive.x;
    posenc::compare(cfg, embeddings.data(), result);
    FUZZ_CHECK(std::memcmp(first_weights.data(), result.concatenated.weights.data(), first_weights.size() * 4) == 0);
    FUZZ_CHECK(std::memcmp(first_x.data(), result.additive.x.data(), first_x.size() * 4) == 0);
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
