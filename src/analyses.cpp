#include "analyses.hpp"

#include <cmath>
#include <complex>
#include <vector>

#include "attention.hpp"
#include "embedding.hpp"
#include "sinusoidal.hpp"

namespace posenc {

void column_spread(const float* m, std::size_t n, std::size_t d, float* out) {
    for (std::size_t j = 0; j < d; ++j) {
        // Two passes in double: the spread of a column can be tiny next to its mean (cos ≈ 1
        // columns of a PE table), where a one-pass formula would cancel catastrophically.
        double mean = 0.0;
        for (std::size_t p = 0; p < n; ++p) mean += m[p * d + j];
        mean /= static_cast<double>(n);
        double sum_sq = 0.0;
        for (std::size_t p = 0; p < n; ++p) {
            const double delta = m[p * d + j] - mean;
            sum_sq += delta * delta;
        }
        out[j] = static_cast<float>(std::sqrt(sum_sq / static_cast<double>(n)));
    }
}

void normalize_rows(const float* m, std::size_t n, std::size_t d, float* out) {
    for (std::size_t p = 0; p < n; ++p) {
        // The norm in double: a float dot product underflows to 0 for rows of tiny components
        // and overflows to ∞ for huge ones, and either turned a non-zero row into a zero row
        // (found by fuzz_vectors). Once per vocabulary row, so the cost does not matter.
        double sum_sq = 0.0;
        for (std::size_t j = 0; j < d; ++j) sum_sq += static_cast<double>(m[p * d + j]) * m[p * d + j];
        const double norm = std::sqrt(sum_sq);
        const double inverse = norm > 0.0 ? 1.0 / norm : 0.0;
        for (std::size_t j = 0; j < d; ++j) out[p * d + j] = static_cast<float>(m[p * d + j] * inverse);
    }
}

void nearest_by_cosine(const float* queries, std::size_t n, const float* unit_vocab, std::size_t v,
                       std::size_t d, const std::uint32_t* truth, std::uint32_t* best, float* cosine,
                       std::uint32_t* rank) {
    std::vector<float> unit_query(d);
    for (std::size_t i = 0; i < n; ++i) {
        const float* q = unit_query.data();
        normalize_rows(queries + i * d, 1, d, unit_query.data());
        const float truth_cosine = truth ? dot(q, unit_vocab + std::size_t{truth[i]} * d, d) : 0.0f;
        std::uint32_t best_row = 0, better = 0;
        float best_cosine = -2.0f;
        for (std::size_t r = 0; r < v; ++r) {
            const float c = dot(q, unit_vocab + r * d, d);
            if (c > best_cosine) {
                best_cosine = c;
                best_row = static_cast<std::uint32_t>(r);
            }
            // Rows strictly better than the truth, plus equal ones listed before it.
            if (truth && (c > truth_cosine || (c == truth_cosine && r < truth[i]))) ++better;
        }
        best[i] = best_row;
        cosine[i] = best_cosine;
        if (truth && rank) rank[i] = better + 1;
    }
}

std::size_t top_k_by_cosine(const float* query, const float* unit_vocab, std::size_t v, std::size_t d,
                     std::size_t k, std::size_t exclude, std::uint32_t* rows, float* cosines) {
    if (k == 0) return 0;
    // The query is scaled to unit length first (norm in double, see normalize_rows): dividing a
    // float dot product by a float norm afterwards gave cosines beyond ±1, or 0, for queries of
    // tiny or huge components (found by fuzz_vectors).
    std::vector<float> unit_query(d);
    normalize_rows(query, 1, d, unit_query.data());
    std::size_t filled = 0;
    for (std::size_t r = 0; r < v; ++r) {
        if (r == exclude) continue;
        const float c = dot(unit_query.data(), unit_vocab + r * d, d);
        if (filled == k && !(c > cosines[k - 1])) continue;
        // Insertion into the sorted list of the best k so far.
        std::size_t slot = filled < k ? filled++ : k - 1;
        while (slot > 0 && c > cosines[slot - 1]) {
            cosines[slot] = cosines[slot - 1];
            rows[slot] = rows[slot - 1];
            --slot;
        }
        cosines[slot] = c;
        rows[slot] = static_cast<std::uint32_t>(r);
    }
    return filled;
}

float max_shift_change(const float* base, const float* shifted, std::size_t n, std::size_t k) {
    const std::size_t w = n + k;
    float worst = 0.0f;
    for (std::size_t i = 0; i < n; ++i) {
        const float* row = shifted + (i + k) * w + k;
        double mass = 0.0;
        for (std::size_t j = 0; j < n; ++j) mass += row[j];
        for (std::size_t j = 0; j < n; ++j) {
            const float renormalised = mass > 0.0 ? static_cast<float>(row[j] / mass) : 0.0f;
            worst = std::fmax(worst, std::fabs(renormalised - base[i * n + j]));
        }
    }
    return worst;
}

void score_by_offset(std::size_t max_offset, std::size_t d, double base, float* out) {
    // Row 0 of the table is [0, 1, 0, 1, …]; its dot with row k picks Σ cos(k·ω_i) out of the
    // kernel's own table, so the curve shows exactly what the additive scheme adds.
    std::vector<float> table((max_offset + 1) * d);
    sinusoidal_table(max_offset + 1, d, base, Layout::interleaved, table.data());
    for (std::size_t k = 0; k <= max_offset; ++k) out[k] = dot(table.data(), table.data() + k * d, d);
}

void rope_decay_bound(std::size_t max_offset, std::size_t d, double base, float* out) {
    const std::size_t pairs = d / 2;
    for (std::size_t k = 0; k <= max_offset; ++k) {
        std::complex<double> partial(0.0, 0.0);
        double total = 0.0;
        for (std::size_t j = 1; j <= pairs; ++j) {
            partial += std::polar(1.0, static_cast<double>(k) * frequency(j - 1, d, base));
            total += std::abs(partial);
        }
        out[k] = static_cast<float>(total / static_cast<double>(pairs));
    }
}

CosineSpread random_cosine_spread(std::size_t d, std::size_t pairs, std::uint64_t seed) {
    std::vector<float> a(d), b(d);
    double sum = 0.0, sum_sq = 0.0;
    for (std::size_t s = 0; s < pairs; ++s) {
        synthetic_embedding(seed + 2 * s, d, a.data());
        synthetic_embedding(seed + 2 * s + 1, d, b.data());
        const double c = dot(a.data(), b.data(), d) / std::sqrt(static_cast<double>(dot(a.data(), a.data(), d)) *
                                                                dot(b.data(), b.data(), d));
        sum += c;
        sum_sq += c * c;
    }
    const double mean = sum / static_cast<double>(pairs);
    return {mean, std::sqrt(std::fmax(0.0, sum_sq / static_cast<double>(pairs) - mean * mean))};
}

}  // namespace posenc
