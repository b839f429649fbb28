#include "reference.hpp"

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

std::vector<double> rotate(const float* x, std::size_t n, std::size_t d, double base, double offset,
                           Layout pairing) {
    std::vector<double> out(n * d);
    for (std::size_t p = 0; p < n; ++p) {
        for (std::size_t i = 0; i < d / 2; ++i) {
            const double angle = (offset + p) * std::pow(base, -2.0 * i / d);
            const std::size_t first = pairing == Layout::interleaved ? 2 * i : i;
            const std::size_t second = pairing == Layout::interleaved ? 2 * i + 1 : i + d / 2;
            const double a = x[p * d + first], b = x[p * d + second];
            out[p * d + first] = a * std::cos(angle) - b * std::sin(angle);
            out[p * d + second] = a * std::sin(angle) + b * std::cos(angle);
        }
    }
    return out;
}

AttentionResult attention(const float* q, const float* k, const float* v, std::size_t n, std::size_t d,
                          double scale, bool causal) {
    AttentionResult r{std::vector<double>(n * n), std::vector<double>(n * n), std::vector<double>(n * d)};
    for (std::size_t i = 0; i < n; ++i) {
        double row_max = -std::numeric_limits<double>::infinity();
        for (std::size_t j = 0; j < n; ++j) {
            double s = 0.0;
            for (std::size_t c = 0; c < d; ++c) s += static_cast<double>(q[i * d + c]) * k[j * d + c];
            s *= scale;
            if (causal && j > i) s = -std::numeric_limits<double>::infinity();
            r.scores[i * n + j] = s;
            row_max = std::fmax(row_max, s);
        }
        double sum = 0.0;
        for (std::size_t j = 0; j < n; ++j) sum += std::exp(r.scores[i * n + j] - row_max);
        for (std::size_t j = 0; j < n; ++j) {
            const double w = std::exp(r.scores[i * n + j] - row_max) / sum;
            r.weights[i * n + j] = w;
            for (std::size_t c = 0; c < d; ++c) r.output[i * d + c] += w * v[j * d + c];
        }
    }
    return r;
}

}  // namespace posenc::reference
