#include "reference.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace posenc::reference {

std::vector<double> sinusoidal(std::size_t n, std::size_t d, double base, Layout layout,
                               double first_position) {
    std::vector<double> out(n * d);
    for (std::size_t p = 0; p < n; ++p) {
        for (std::size_t i = 0; i < d / 2; ++i) {
            const double angle = (first_position + p) * std::pow(base, -2.0 * i / d);
            const std::size_t sin_dim = layout == Layout::interleaved ? 2 * i : i;
            const std::size_t cos_dim = layout == Layout::interleaved ? 2 * i + 1 : i + d / 2;
            out[p * d + sin_dim] = std::sin(angle);
            out[p * d + cos_dim] = std::cos(angle);
        }
    }
    return out;
}

namespace {
// Rotates pair i of row p by angle(p, i): components (2i, 2i+1) or (i, i + d/2).
template <typename Angle>
std::vector<double> rotate_pairs(const float* x, std::size_t n, std::size_t d, Layout pairing, Angle angle_of) {
    std::vector<double> out(n * d);
    for (std::size_t p = 0; p < n; ++p) {
        for (std::size_t i = 0; i < d / 2; ++i) {
            const double angle = angle_of(p, i);
            const std::size_t first = pairing == Layout::interleaved ? 2 * i : i;
            const std::size_t second = pairing == Layout::interleaved ? 2 * i + 1 : i + d / 2;
            const double a = x[p * d + first], b = x[p * d + second];
            out[p * d + first] = a * std::cos(angle) - b * std::sin(angle);
            out[p * d + second] = a * std::sin(angle) + b * std::cos(angle);
        }
    }
    return out;
}
}  // namespace

std::vector<double> rotate(const float* x, std::size_t n, std::size_t d, double base, double offset,
                           Layout pairing) {
    return rotate_pairs(x, n, d, pairing,
                        [&](std::size_t p, std::size_t i) { return (offset + p) * std::pow(base, -2.0 * i / d); });
}

std::vector<double> rotate_with_frequencies(const float* x, std::size_t n, std::size_t d, const double* omega,
                                            Layout pairing) {
    return rotate_pairs(x, n, d, pairing, [&](std::size_t p, std::size_t i) { return static_cast<double>(p) * omega[i]; });
}

std::vector<double> logits(const std::vector<double>& q, const std::vector<double>& k, std::size_t n, std::size_t d,
                           double scale) {
    std::vector<double> out(n * n);
    for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t j = 0; j < n; ++j) {
            double s = 0.0;
            for (std::size_t c = 0; c < d; ++c) s += q[i * d + c] * k[j * d + c];
            out[i * n + j] = s * scale;
        }
    }
    return out;
}

std::vector<double> softmax_rows(const std::vector<double>& scores, std::size_t n_q, std::size_t n_k, bool causal) {
    std::vector<double> weights(n_q * n_k, 0.0);
    for (std::size_t i = 0; i < n_q; ++i) {
        const std::size_t visible = causal ? std::min(i + 1, n_k) : n_k;
        const double* row = scores.data() + i * n_k;
        double row_max = -std::numeric_limits<double>::infinity();
        for (std::size_t j = 0; j < visible; ++j) row_max = std::fmax(row_max, row[j]);
        double sum = 0.0;
        for (std::size_t j = 0; j < visible; ++j) sum += std::exp(row[j] - row_max);
        for (std::size_t j = 0; j < visible; ++j) weights[i * n_k + j] = std::exp(row[j] - row_max) / sum;
    }
    return weights;
}

AttentionResult attention(const float* q, const float* k, const float* v, std::size_t n, std::size_t d,
                          double scale, bool causal) {
    AttentionResult r{std::vector<double>(n * n), {}, std::vector<double>(n * d)};
    for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t j = 0; j < n; ++j) {
            double s = 0.0;
            for (std::size_t c = 0; c < d; ++c) s += static_cast<double>(q[i * d + c]) * k[j * d + c];
            r.scores[i * n + j] = causal && j > i ? -std::numeric_limits<double>::infinity() : s * scale;
        }
    }
    r.weights = softmax_rows(r.scores, n, n, causal);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j)
            for (std::size_t c = 0; c < d; ++c) r.output[i * d + c] += r.weights[i * n + j] * v[j * d + c];
    return r;
}

}  // namespace posenc::reference
