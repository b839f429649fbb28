#include "encodings/encodings.hpp"

#include <cstring>

#include "base/simd.hpp"

namespace posenc {

void add_encoding(const float* e, float alpha, const float* pe, std::size_t count, float* out) {
    std::size_t j = 0;
#if POSENC_SIMD
    for (; j + kLanes <= count; j += kLanes) store(out + j, Batch(alpha) * load(e + j) + load(pe + j));
#endif
    POSENC_SCALAR_TAIL
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

}  // namespace posenc
