#include "attention.hpp"

#include <cmath>
#include <limits>

#include "fastmath.hpp"
#include "simd.hpp"

namespace posenc {

float dot(const float* a, const float* b, std::size_t d) {
    std::size_t j = 0;
    float sum = 0.0f;
#if POSENC_SIMD
    // Two accumulators hide the add latency; they are combined once at the end.
    Batch acc0(0.0f), acc1(0.0f);
    for (; j + 2 * kLanes <= d; j += 2 * kLanes) {
        acc0 = acc0 + load(a + j) * load(b + j);
        acc1 = acc1 + load(a + j + kLanes) * load(b + j + kLanes);
    }
    for (; j + kLanes <= d; j += kLanes) {
        acc0 = acc0 + load(a + j) * load(b + j);
    }
    sum = sum_lanes(acc0 + acc1);
#endif
    for (; j < d; ++j) {
        sum = sum + a[j] * b[j];
    }
    return sum;
}

namespace {
// out[r] = q·k_r for four keys at once: q is loaded once per step for all four, and the four
// accumulators are reduced together (haddp) instead of one horizontal sum per score.
void dot4(const float* q, const float* k0, const float* k1, const float* k2, const float* k3, std::size_t d,
          float* out) {
    std::size_t j = 0;
    float sums[4] = {0.0f, 0.0f, 0.0f, 0.0f};
#if POSENC_SIMD
    static_assert(kLanes == 4, "dot4 reduces four accumulators into one 4-lane batch");
    Batch acc[4] = {Batch(0.0f), Batch(0.0f), Batch(0.0f), Batch(0.0f)};
    for (; j + kLanes <= d; j += kLanes) {
        const Batch qj = load(q + j);
        acc[0] = acc[0] + qj * load(k0 + j);
        acc[1] = acc[1] + qj * load(k1 + j);
        acc[2] = acc[2] + qj * load(k2 + j);
        acc[3] = acc[3] + qj * load(k3 + j);
    }
    xsimd::haddp(acc).store_unaligned(sums);
#endif
    for (; j < d; ++j) {
        sums[0] = sums[0] + q[j] * k0[j];
        sums[1] = sums[1] + q[j] * k1[j];
        sums[2] = sums[2] + q[j] * k2[j];
        sums[3] = sums[3] + q[j] * k3[j];
    }
    for (int r = 0; r < 4; ++r) out[r] = sums[r];
}
}  // namespace

void attention_scores(const float* q, const float* k, std::size_t n_q, std::size_t n_k,
                      std::size_t d, float scale, bool causal, float* scores) {
    const float minus_infinity = -std::numeric_limits<float>::infinity();
    for (std::size_t i = 0; i < n_q; ++i) {
        const std::size_t visible = causal ? (i + 1 < n_k ? i + 1 : n_k) : n_k;
        const float* qi = q + i * d;
        float* row = scores + i * n_k;
        std::size_t j = 0;
        for (; j + 4 <= visible; j += 4) {
            const float* kj = k + j * d;
            dot4(qi, kj, kj + d, kj + 2 * d, kj + 3 * d, d, row + j);
            for (std::size_t r = 0; r < 4; ++r) row[j + r] = scale * row[j + r];
        }
        for (; j < visible; ++j) row[j] = scale * dot(qi, k + j * d, d);
        for (; j < n_k; ++j) row[j] = minus_infinity;
    }
}

namespace {
float row_max(const float* row, std::size_t count) {
    float m = -std::numeric_limits<float>::infinity();
    std::size_t j = 0;
#if POSENC_SIMD
    if (count >= kLanes) {
        Batch acc = load(row);
        for (j = kLanes; j + kLanes <= count; j += kLanes) {
            acc = max_of(acc, load(row + j));
        }
        alignas(16) float lanes[kLanes];
        store(lanes, acc);
        for (float lane : lanes) m = max_of(m, lane);
    }
#endif
    for (; j < count; ++j) m = max_of(m, row[j]);
    return m;
}

// out[j] = exp(row[j] − shift); returns Σ out[j].
float exp_shifted(const float* row, std::size_t count, float shift, float* out) {
    std::size_t j = 0;
    float sum = 0.0f;
#if POSENC_SIMD
    Batch acc(0.0f);
    for (; j + kLanes <= count; j += kLanes) {
        const Batch e = fastmath::exp_nonpositive<Batch, IntBatch>(load(row + j) - Batch(shift));
        store(out + j, e);
        acc = acc + e;
    }
    sum = sum_lanes(acc);
#endif
    for (; j < count; ++j) {
        const float e = fastmath::exp_nonpositive<float, std::int32_t>(row[j] - shift);
        out[j] = e;
        sum = sum + e;
    }
    return sum;
}

// Softmax's limit for a row whose largest score overflowed to +∞ (the +∞ entries share the
// mass) or whose scores are all −∞ (uniform), where max subtraction would produce ∞ − ∞ = NaN.
void infinite_row_limit(const float* row, std::size_t count, float m, float* out) {
    std::size_t winners = 0;
    for (std::size_t j = 0; j < count; ++j) winners += row[j] == m;
    for (std::size_t j = 0; j < count; ++j) out[j] = row[j] == m ? 1.0f / static_cast<float>(winners) : 0.0f;
}

void scale_in_place(float* row, std::size_t count, float factor) {
    std::size_t j = 0;
#if POSENC_SIMD
    for (; j + kLanes <= count; j += kLanes) store(row + j, load(row + j) * Batch(factor));
#endif
    for (; j < count; ++j) row[j] = row[j] * factor;
}

// out += a · x
void add_scaled(float* out, const float* x, float a, std::size_t count) {
    std::size_t j = 0;
#if POSENC_SIMD
    for (; j + kLanes <= count; j += kLanes) store(out + j, load(out + j) + Batch(a) * load(x + j));
#endif
    for (; j < count; ++j) out[j] = out[j] + a * x[j];
}
}  // namespace

void softmax_rows(const float* scores, std::size_t n_q, std::size_t n_k, bool causal, float* weights) {
    for (std::size_t i = 0; i < n_q; ++i) {
        const std::size_t visible = causal ? (i + 1 < n_k ? i + 1 : n_k) : n_k;
        const float* row = scores + i * n_k;
        float* out = weights + i * n_k;
        const float m = row_max(row, visible);
        if (std::isinf(m)) {
            infinite_row_limit(row, visible, m, out);
        } else {
            const float sum = exp_shifted(row, visible, m, out);
            scale_in_place(out, visible, 1.0f / sum);
        }
        for (std::size_t j = visible; j < n_k; ++j) out[j] = 0.0f;
    }
}

void weighted_sum(const float* weights, const float* v, std::size_t n_q, std::size_t n_k,
                  std::size_t d, bool causal, float* output) {
    for (std::size_t i = 0; i < n_q; ++i) {
        const std::size_t visible = causal ? (i + 1 < n_k ? i + 1 : n_k) : n_k;
        const float* w = weights + i * n_k;
        float* out = output + i * d;
        std::size_t c = 0;
#if POSENC_SIMD
        // Sixteen output columns stay in four accumulators across all keys, so each key costs
        // four loads and no store (a row-at-a-time axpy would reload and store out per key).
        for (; c + 4 * kLanes <= d; c += 4 * kLanes) {
            Batch acc0(0.0f), acc1(0.0f), acc2(0.0f), acc3(0.0f);
            for (std::size_t j = 0; j < visible; ++j) {
                const Batch a(w[j]);
                const float* vj = v + j * d + c;
                acc0 = acc0 + a * load(vj);
                acc1 = acc1 + a * load(vj + kLanes);
                acc2 = acc2 + a * load(vj + 2 * kLanes);
                acc3 = acc3 + a * load(vj + 3 * kLanes);
            }
            store(out + c, acc0);
            store(out + c + kLanes, acc1);
            store(out + c + 2 * kLanes, acc2);
            store(out + c + 3 * kLanes, acc3);
        }
        for (; c + kLanes <= d; c += kLanes) {
            Batch acc(0.0f);
            for (std::size_t j = 0; j < visible; ++j) acc = acc + Batch(w[j]) * load(v + j * d + c);
            store(out + c, acc);
        }
#endif
        for (; c < d; ++c) {
            float acc = 0.0f;
            for (std::size_t j = 0; j < visible; ++j) acc = acc + w[j] * v[j * d + c];
            out[c] = acc;
        }
    }
}

void attention(const float* q, const float* k, const float* v, std::size_t n, std::size_t d,
               float scale, bool causal, float* weights, float* output) {
    attention_scores(q, k, n, n, d, scale, causal, weights);
    softmax_rows(weights, n, n, causal, weights);
    weighted_sum(weights, v, n, n, d, causal, output);
}

void project(const float* x, std::size_t n, std::size_t d_in, const float* w, std::size_t d_out,
             float* out) {
    for (std::size_t i = 0; i < n; ++i) {
        float* row = out + i * d_out;
        for (std::size_t c = 0; c < d_out; ++c) row[c] = 0.0f;
        for (std::size_t r = 0; r < d_in; ++r) {
            add_scaled(row, w + r * d_out, x[i * d_in + r], d_out);
        }
    }
}

}  // namespace posenc
