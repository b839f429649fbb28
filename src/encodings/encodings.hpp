// Combining word vectors with position: additive and concatenated inputs. The logit
// decomposition into content and position terms (Ke et al., TUPE) is a product, in
// attention/products.hpp.
//
// Shapes:
//   e      — n×d_src word vectors;  pe — n×d_pos sinusoidal table
//   out    — n×d (additive) or n×(d_word + d_pos) (concatenated), caller-owned
#pragma once

#include <cstddef>

namespace posenc {

// out = alpha·e + pe over count elements.
void add_encoding(const float* e, float alpha, const float* pe, std::size_t count, float* out);

// out row p = [alpha·e[p][0 … d_word) ; pe[p]] — the word vector truncated to d_word dims.
void concatenate_encoding(const float* e, std::size_t n, std::size_t d_src, std::size_t d_word,
                          float alpha, const float* pe, std::size_t d_pos, float* out);

}  // namespace posenc
