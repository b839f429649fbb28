// The quantised vocabulary of the identity retriever (retrieval.hpp): int8 rows with bounds on
// their error, int16 queries, and the approximate scores a decode screens rows with before it
// computes the few candidates exactly (retrieval.cpp).
#include <algorithm>
#include <cmath>
#include <limits>

#include "analysis/bounds.hpp"
#include "analysis/retrieval.hpp"
#include "base/simd.hpp"

namespace posenc {

using namespace retrieval_bounds;

namespace {
#if POSENC_SIMD
// 8 int8 codes sign-extended to 8 int16 lanes. xsimd 8.1 has neither this widening nor the
// int16 dot product below, so both are SSE intrinsics, which Emscripten maps one to one onto
// wasm SIMD128 (i16x8.extend_low_i8x16_s / load8x8_s, i32x4.dot_i16x8_s).
inline __m128i widen8(const std::int8_t* p) {
#if defined(__wasm_simd128__)
    return static_cast<__m128i>(wasm_i16x8_load8x8(p));
#elif defined(__SSE4_1__)
    return _mm_cvtepi8_epi16(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p)));
#else
    const __m128i x = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p));
    return _mm_srai_epi16(_mm_unpacklo_epi8(x, x), 8);  // each byte doubled, then shifted down signed
#endif
}
#endif
}  // namespace

namespace {
// x/scale (x·inverse, inverse = 1/scale in double) rounded half away from zero, the PELVEC01
// writer's rule, and clamped to ±limit. Any code keeps the bounds valid (they are measured from
// the codes chosen); this rounding makes a PELVEC01 row's own codes come back.
std::int32_t round_code(float x, double inverse, std::int32_t limit) {
    // Branch-free: signs are random, and mispredicted branches made this 4× slower.
    const double r = static_cast<double>(x) * inverse;
    const double t = std::min(std::fabs(r) + 0.5, static_cast<double>(limit));
    const std::int32_t q = static_cast<std::int32_t>(t);
    const std::int32_t negative = -static_cast<std::int32_t>(r < 0.0);  // all ones or zero
    return (q ^ negative) - negative;
}
}  // namespace

namespace {
// One row of quantize_rows: codes = round(row/scale) with scale = max|row|/127, and upper bounds
// on ‖row − scale·codes‖ and ‖row‖. Float arithmetic (a batch loop, then the scalar tail with the
// same formula): rounding by adding and subtracting 1.5·2^23 (no float→int conversion
// instruction, which Emscripten scalarises), and each bound covers the float rounding of the
// residual and of the sums of squares (see the comments inside). Not inlined: V8 runs a
// long-running wasm call in its baseline tier to the end (no on-stack replacement), so the
// vocabulary pass reaches optimised code only through a function called again and again.
struct RowBounds {
    double residual, norm;
};
__attribute__((noinline)) RowBounds quantize_row(const float* row, std::size_t d, std::int8_t* codes, float& scale_out) {
    constexpr float kMagic = 12582912.0f;  // 1.5·2^23: x + kMagic − kMagic rounds |x| < 2^22 to an integer
    float largest = 0.0f;
    std::size_t j = 0;
#if POSENC_SIMD
    Batch top(0.0f);
    for (; j + kLanes <= d; j += kLanes) top = max_of(top, xsimd::abs(load(row + j)));
    alignas(64) float lanes[kLanes];
    store(lanes, top);
    for (float lane : lanes) largest = max_of(largest, lane);
#endif
    POSENC_SCALAR_TAIL
    for (; j < d; ++j) largest = max_of(largest, std::fabs(row[j]));
    // fround(max/127), as the PELVEC01 writer does (data/README.md); 0 for a zero (or all-subnormal) row.
    // |x·inverse| ≤ 127·(1 + 2u) < 127.5, so the codes need no clamp. A scale so small that its
    // inverse could overflow gets codes 0 (the residual is then the row itself).
    const float scale = largest / 127.0f;
    const float inverse = scale >= 0x1p-100f ? 1.0f / scale : 0.0f;
    float sum_e = 0.0f, sum_x = 0.0f;
    j = 0;
#if POSENC_SIMD
    {
        const Batch inv(inverse), s(scale), magic(kMagic);
        const IntBatch magic_bits = to_bits(magic);
        Batch acc_e(0.0f), acc_x(0.0f);
        for (; j + kLanes <= d; j += kLanes) {
            const Batch x = load(row + j);
            const Batch q = (x * inv + magic) - magic;
            const Batch e = x - s * q;
            acc_e = acc_e + e * e;
            acc_x = acc_x + x * x;
            alignas(64) std::int32_t ints[kLanes];
            (to_bits(q + magic) - magic_bits).store_aligned(ints);  // q + 1.5·2^23 holds q in its low bits
            for (std::size_t l = 0; l < kLanes; ++l) codes[j + l] = static_cast<std::int8_t>(ints[l]);
        }
        sum_e = sum_lanes(acc_e);
        sum_x = sum_lanes(acc_x);
    }
#endif
    POSENC_SCALAR_TAIL
    for (; j < d; ++j) {
        const float x = row[j];
        const float q = (x * inverse + kMagic) - kMagic;
        const float e = x - scale * q;
        sum_e = sum_e + e * e;
        sum_x = sum_x + x * x;
        codes[j] = static_cast<std::int8_t>(static_cast<std::int32_t>(q));
    }
    scale_out = scale;
    // A float sum of d squares errs by ≤ γ_{d+1} of the exact sum, plus ≤ 2^-149 per square that
    // underflows: Σ ≤ sum/(1 − γ) + d·2^-149. The computed residual e = fl(x − fl(s·q)) differs
    // from x − s·q by ≤ u·|e|/(1 − u) + u·|s·q| with |s·q| ≤ |x| + |x − s·q|, so
    //   ‖x − s·q‖ ≤ (‖e‖/(1 − u) + u·‖x‖)/(1 − u).
    const double u = kUnit, n = static_cast<double>(d);
    const double gamma = (n + 1.0) * u / (1.0 - (n + 1.0) * u);
    const double norm_e = std::sqrt(static_cast<double>(sum_e) / (1.0 - gamma) + n * 0x1p-149);
    const double norm_x = std::sqrt(static_cast<double>(sum_x) / (1.0 - gamma) + n * 0x1p-149);
    return {(norm_e / (1.0 - u) + u * norm_x) / (1.0 - u), norm_x};
}
}  // namespace

void quantize_rows(const float* rows, std::size_t v, std::size_t d, QuantizedRows& out) {
    out.v = v;
    out.d = d;
    out.stride = (d + 7) / 8 * 8;
    out.codes.assign(v * out.stride, 0);
    out.scales.assign(v, 0.0f);
    double worst_residual = 0.0, worst_norm = 0.0;
    for (std::size_t r = 0; r < v; ++r) {
        const RowBounds b = quantize_row(rows + r * d, d, out.codes.data() + r * out.stride, out.scales[r]);
        worst_residual = std::max(worst_residual, b.residual);
        worst_norm = std::max(worst_norm, b.norm);
    }
    // kInflate covers the double arithmetic of the bounds themselves.
    out.residual = worst_residual * kInflate;
    out.norm = worst_norm * kInflate;
}

std::int32_t query_code_limit(std::size_t stride) {
    // Σ_j |q_x[j]·q_r[j]| ≤ limit·127·stride must stay below 2^31 (int32 lanes); limit ≤ 258·127
    // keeps each code in int16 (±32766).
    const std::size_t most = (std::size_t{1} << 31) / (127 * 127 * std::max<std::size_t>(stride, 1));
    return static_cast<std::int32_t>(127 * std::min<std::size_t>(258, std::max<std::size_t>(most, 1)));
}

void quantize_query(const float* x, const QuantizedRows& rows, QuantizedQuery& out) {
    const std::size_t d = rows.d;
    out.codes.assign(rows.stride, 0);
    const std::int32_t limit = query_code_limit(rows.stride);
    float largest = 0.0f;
    for (std::size_t j = 0; j < d; ++j) largest = std::max(largest, std::fabs(x[j]));
    const float scale = largest / static_cast<float>(limit);
    const double inverse = scale > 0.0f ? 1.0 / static_cast<double>(scale) : 0.0;
    double residual = 0.0, norm = 0.0;
    for (std::size_t j = 0; j < d; ++j) {
        const std::int32_t q = scale > 0.0f ? round_code(x[j], inverse, limit) : 0;
        out.codes[j] = static_cast<std::int16_t>(q);
        const double error = static_cast<double>(x[j]) - static_cast<double>(scale) * q;
        residual += error * error;
        norm += static_cast<double>(x[j]) * x[j];
    }
    out.scale = scale > 0.0f ? scale : 0.0f;
    out.residual = std::sqrt(residual) * kInflate;
    out.norm = std::sqrt(norm) * kInflate;
}

void approximate_scores(const QuantizedRows& rows, const QuantizedQuery& q, std::size_t r0, std::size_t r1,
                        float* out) {
    const std::size_t stride = rows.stride;
    const std::int8_t* codes = rows.codes.data();
    const std::int16_t* qc = q.codes.data();
    const float* scales = rows.scales.data();
    const float qs = q.scale;
    std::size_t r = r0;
#if POSENC_SIMD
    const __m128 qsv = _mm_set1_ps(qs);
    for (; r + 4 <= r1; r += 4) {
        const std::int8_t* row = codes + r * stride;
        __m128i a0 = _mm_setzero_si128(), a1 = a0, a2 = a0, a3 = a0;
        for (std::size_t j = 0; j < stride; j += 8) {
            const __m128i qv = _mm_loadu_si128(reinterpret_cast<const __m128i*>(qc + j));
            a0 = _mm_add_epi32(a0, _mm_madd_epi16(widen8(row + j), qv));
            a1 = _mm_add_epi32(a1, _mm_madd_epi16(widen8(row + stride + j), qv));
            a2 = _mm_add_epi32(a2, _mm_madd_epi16(widen8(row + 2 * stride + j), qv));
            a3 = _mm_add_epi32(a3, _mm_madd_epi16(widen8(row + 3 * stride + j), qv));
        }
        // Four horizontal sums at once: [a0, a1, a2, a3] (integer adds: any order is exact).
        const __m128i s01 = _mm_add_epi32(_mm_unpacklo_epi32(a0, a1), _mm_unpackhi_epi32(a0, a1));
        const __m128i s23 = _mm_add_epi32(_mm_unpacklo_epi32(a2, a3), _mm_unpackhi_epi32(a2, a3));
        const __m128i sums = _mm_add_epi32(_mm_unpacklo_epi64(s01, s23), _mm_unpackhi_epi64(s01, s23));
        const __m128 f = _mm_mul_ps(_mm_mul_ps(_mm_cvtepi32_ps(sums), _mm_loadu_ps(scales + r)), qsv);
        _mm_storeu_ps(out + (r - r0), f);
    }
#endif
    POSENC_SCALAR_TAIL
    for (; r < r1; ++r) {
        const std::int8_t* row = codes + r * stride;
        std::int32_t sum = 0;
        for (std::size_t j = 0; j < stride; ++j) sum += std::int32_t{qc[j]} * std::int32_t{row[j]};
        out[r - r0] = (static_cast<float>(sum) * scales[r]) * qs;
    }
}

double approximate_score_bound(const QuantizedRows& rows, const QuantizedQuery& q) {
    // With û = s_r·q_r + ρ (‖ρ‖ ≤ δ), x = s_x·q_x + σ (‖σ‖ ≤ δ_x), ‖x‖ ≤ n_x, ‖û‖ ≤ N:
    //   |x·û − s_x·s_r·(q_x·q_r)| ≤ n_x·δ + δ_x·(N + δ)                      (Cauchy–Schwarz)
    //   |sequential_dot − x·û| ≤ γ_d·n_x·N + d·2^-149, γ_d = d·u/(1 − d·u)   (Higham, Thm 3.1; underflow)
    //   |approximate − s_x·s_r·I| ≤ 3u·|s_x·s_r·I| + 2^-148, |s_x·s_r·I| ≤ (n_x + δ_x)(N + δ)
    // (int32 → float, two products). 3.01u and (d + 4)·2^-148 leave room for rounding here.
    const double d = static_cast<double>(rows.d);
    const double n_x = q.norm, d_x = q.residual, N = rows.norm, delta = rows.residual;
    const double gamma = d * kUnit / (1.0 - d * kUnit);
    const double bound = (n_x * delta + d_x * (N + delta) + gamma * n_x * N + 3.01 * kUnit * (n_x + d_x) * (N + delta) +
                          (d + 4.0) * 0x1p-148) *
                         kInflate;
    return bound < kTooLarge && n_x * N < kTooLarge ? bound : std::numeric_limits<double>::infinity();
}

}  // namespace posenc
