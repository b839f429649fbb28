#include "attention.hpp"

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

void attention_scores(const float* q, const float* k, std::size_t n_q, std::size_t n_k,
                      std::size_t d, float scale, bool causal, float* scores) {
    const float minus_infinity = -std::numeric_limits<float>::infinity();
    for (std::size_t i = 0; i < n_q; ++i) {
        const std::size_t visible = causal ? (i + 1 < n_k ? i + 1 : n_k) : n_k;
        float* row = scores + i * n_k;
        for (std::size_t j = 0; j < visible; ++j) {
            row[j] = scale * dot(q + i * d, k + j * d, d);
        }
        for (std::size_t j = visible; j < n_k; ++j) {
            row[j] = minus_infinity;
        }
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
        const float sum = exp_shifted(row, visible, m, out);
        scale_in_place(out, visible, 1.0f / sum);
        for (std::size_t j = visible; j < n_k; ++j) out[j] = 0.0f;
    }
}

void weighted_sum(const float* weights, const float* v, std::size_t n_q, std::size_t n_k,
                  std::size_t d, bool causal, float* output) {
    for (std::size_t i = 0; i < n_q; ++i) {
        const std::size_t visible = causal ? (i + 1 < n_k ? i + 1 : n_k) : n_k;
        float* out = output + i * d;
        for (std::size_t c = 0; c < d; ++c) out[c] = 0.0f;
        for (std::size_t j = 0; j < visible; ++j) {
            add_scaled(out, v + j * d, weights[i * n_k + j], d);
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
