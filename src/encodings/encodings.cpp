#include "encodings/encodings.hpp"

#include <cstring>

#include "attention/attention.hpp"
#include "base/simd.hpp"

namespace posenc {

void add_encoding(const float* e, float alpha, const float* pe, std::size_t count, float* out) {
    std::size_t j = 0;
#if POSENC_SIMD
    for (; j + kLanes <= count; j += kLanes) store(out + j, Batch(alpha) * load(e + j) + load(pe + j));
#endif
    for (; j < count; ++j) out[j] = alpha * e[j] + pe[j];
}

void concatenate_encoding(const float* e, std::size_t n, std::size_t d_src, std::size_t d_word,
                          float alpha, const float* pe, std::size_t d_pos, float* out) {
    const std::size_t width = d_word + d_pos;
    for (std::size_t p = 0; p < n; ++p) {
        float* row = out + p * width;
        const float* word = e + p * d_src;
        for (std::size_t j = 0; j < d_word; ++j) row[j] = alpha * word[j];
        std::memcpy(row + d_word, pe + p * d_pos, d_pos * sizeof(float));
    }
}

void logit_terms(const float* q_a, const float* q_b, const float* k_a, const float* k_b,
                 std::size_t n, std::size_t d, float scale, float* terms) {
    const std::size_t nn = n * n;
    attention_scores(q_a, k_a, n, n, d, scale, false, terms);
    attention_scores(q_a, k_b, n, n, d, scale, false, terms + nn);
    if (q_a == k_a && q_b == k_b) {
        // Queries are the keys (W = I): b·aᵀ is the transpose of a·bᵀ, bit for bit, since every
        // score sums the same products in the same order; copy instead of a third product.
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = 0; j < n; ++j) terms[2 * nn + i * n + j] = terms[nn + j * n + i];
    } else {
        attention_scores(q_b, k_a, n, n, d, scale, false, terms + 2 * nn);
    }
    attention_scores(q_b, k_b, n, n, d, scale, false, terms + 3 * nn);
}

}  // namespace posenc
