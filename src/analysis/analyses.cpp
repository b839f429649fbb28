#include "analysis/analyses.hpp"

#include <cmath>
#include <vector>

#include "attention/attention.hpp"
#include "vectors/embedding.hpp"
#include "base/simd.hpp"
#include "encodings/sinusoidal.hpp"

namespace posenc {

void column_spread(const float* m, std::size_t n, std::size_t d, float* out) {
    // Two passes in double: the spread of a column can be tiny next to its mean (cos ≈ 1
    // columns of a PE table), where a one-pass formula would cancel catastrophically. Rows are
    // walked in order and a block of columns accumulated side by side: each column's sums are
    // the same as a column-at-a-time loop's (same terms, same order), without striding by d.
    constexpr std::size_t kBlock = 256;
    double mean[kBlock], sum_sq[kBlock];
    for (std::size_t j0 = 0; j0 < d; j0 += kBlock) {
        const std::size_t w = d - j0 < kBlock ? d - j0 : kBlock;
        for (std::size_t c = 0; c < w; ++c) mean[c] = 0.0;
        for (std::size_t p = 0; p < n; ++p) {
            const float* row = m + p * d + j0;
            for (std::size_t c = 0; c < w; ++c) mean[c] += row[c];
        }
        for (std::size_t c = 0; c < w; ++c) {
            mean[c] /= static_cast<double>(n);
            sum_sq[c] = 0.0;
        }
        for (std::size_t p = 0; p < n; ++p) {
            const float* row = m + p * d + j0;
            for (std::size_t c = 0; c < w; ++c) {
                const double delta = row[c] - mean[c];
                sum_sq[c] += delta * delta;
            }
        }
        for (std::size_t c = 0; c < w; ++c) out[j0 + c] = static_cast<float>(std::sqrt(sum_sq[c] / static_cast<double>(n)));
    }
}

namespace {
// One row of normalize_rows. Not inlined: V8 runs a long-running wasm call in its baseline tier
// to the end (no on-stack replacement), so the 20,000-row pass at GloVe's load only reaches
// optimised code through a function that is called again and again.
__attribute__((noinline)) void normalize_row(const float* row, std::size_t d, float* out) {
    // The norm in double: a float dot product underflows to 0 for rows of tiny components
    // and overflows to ∞ for huge ones, and either turned a non-zero row into a zero row
    // (found by fuzz_vectors). Once per vocabulary row, so the cost does not matter.
    double sum_sq = 0.0;
    for (std::size_t j = 0; j < d; ++j) sum_sq += static_cast<double>(row[j]) * row[j];
    const double norm = std::sqrt(sum_sq);
    const double inverse = norm > 0.0 ? 1.0 / norm : 0.0;
    for (std::size_t j = 0; j < d; ++j) out[j] = static_cast<float>(row[j] * inverse);
}
}  // namespace

void normalize_rows(const float* m, std::size_t n, std::size_t d, float* out) {
    for (std::size_t p = 0; p < n; ++p) normalize_row(m + p * d, d, out + p * d);
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
        const auto consider = [&](std::size_t r, float c) {
            if (c > best_cosine) {
                best_cosine = c;
                best_row = static_cast<std::uint32_t>(r);
            }
            // Rows strictly better than the truth, plus equal ones listed before it.
            if (truth && (c > truth_cosine || (c == truth_cosine && r < truth[i]))) ++better;
        };
        alignas(16) float block[4];
        std::size_t r = 0;
        for (; r + 4 <= v; r += 4) {
            dot_rows4(q, unit_vocab + r * d, d, block);
            for (std::size_t t = 0; t < 4; ++t) consider(r + t, block[t]);
        }
        for (; r < v; ++r) consider(r, dot(q, unit_vocab + r * d, d));
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
    // PE(0) = [0, 1, 0, 1, …], so PE(0)·PE(k) = Σ_i cos(k·ω_i): only the cos entries of row k are
    // computed (the sines PE(0) multiplies by 0 are not), with the table kernel's own phase() on
    // its own plan entries (quadrant shift 1 = cos), so each term has the bits of the table's
    // column 2i + 1. The terms are summed in double and rounded once.
    const std::size_t pairs = d / 2;
    const PhasePlan plan = make_phase_plan(d, base, Layout::half, 1, 1);  // column i < d/2: cos(p·ω_i)
    std::vector<float> terms(pairs);
    const std::size_t vector_end = simd_prefix(pairs);
    for (std::size_t k = 0; k <= max_offset; ++k) {
        const SplitPosition position = split_position(static_cast<double>(k));
        std::size_t i = 0;
#if POSENC_SIMD
        for (; i < vector_end; i += kLanes) {
            const IntBatch shift = IntBatch::load_unaligned(plan.shift.data() + i);
            store(terms.data() + i, phase(position, load(plan.w_hi.data() + i), load(plan.w_lo.data() + i), shift));
        }
#endif
        POSENC_SCALAR_TAIL
        for (; i < pairs; ++i) terms[i] = phase(position, plan.w_hi[i], plan.w_lo[i], plan.shift[i]);
        double sum = 0.0;
        for (std::size_t t = 0; t < pairs; ++t) sum += terms[t];
        out[k] = static_cast<float>(sum);
    }
    (void)vector_end;
}

void rope_decay_bound(std::size_t max_offset, std::size_t d, double base, float* out) {
    // e^{i·k·ω_m} for every pair, advanced from k − 1 by one complex multiply with e^{i·ω_m}
    // (instead of pow, sincos and hypot per offset and pair), and recomputed directly every
    // kAnchor offsets so rounding never compounds over more than kAnchor steps: each step adds
    // ~2^-52 to a unit phasor, so the terms stay within ~kAnchor·2^-51 of exact, far below the
    // float result's 2^-24.
    constexpr std::size_t kAnchor = 64;
    const std::size_t pairs = d / 2;
    std::vector<double> state(4 * pairs);
    double* step_re = state.data();
    double* step_im = step_re + pairs;
    double* re = step_im + pairs;
    double* im = re + pairs;
    for (std::size_t m = 0; m < pairs; ++m) {
        const double omega = frequency(m, d, base);
        step_re[m] = std::cos(omega);
        step_im[m] = std::sin(omega);
    }
    for (std::size_t k = 0; k <= max_offset; ++k) {
        if (k % kAnchor == 0) {
            for (std::size_t m = 0; m < pairs; ++m) {
                // k = 0 gives exactly 1 + 0i, so out[0] = (d/2 + 1)/2 exactly.
                const double angle = static_cast<double>(k) * frequency(m, d, base);
                re[m] = std::cos(angle);
                im[m] = std::sin(angle);
            }
        } else {
            for (std::size_t m = 0; m < pairs; ++m) {
                const double r = re[m] * step_re[m] - im[m] * step_im[m];
                im[m] = re[m] * step_im[m] + im[m] * step_re[m];
                re[m] = r;
            }
        }
        double partial_re = 0.0, partial_im = 0.0, total = 0.0;
        for (std::size_t m = 0; m < pairs; ++m) {
            partial_re += re[m];
            partial_im += im[m];
            total += std::sqrt(partial_re * partial_re + partial_im * partial_im);
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
