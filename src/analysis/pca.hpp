// Principal components of a set of row vectors: the concatenated scheme's "smaller word
// embedding" keeps a word vector's first d_t principal coordinates.
//
// Shapes:
//   rows        — v×d row-major input
//   mean        — d, the row mean (zeros for an uncentred decomposition)
//   axes        — d×d row-major; row a is the a-th principal axis (unit length), by decreasing
//                 variance
//   variances   — d eigenvalues of the covariance, decreasing (population covariance, 1/v)
#pragma once

#include <cstddef>
#include <vector>

namespace posenc {

struct Pca {
    std::size_t d = 0;
    std::vector<double> mean, axes, variances;
    // For project(): the axes in float (SIMD dot products) and mean·axis_a per axis, so a
    // coordinate is x·axis_a − mean·axis_a without centring x first.
    std::vector<float> axes_float;
    std::vector<double> mean_along_axis;

    // Fraction of the total variance that the first k axes keep.
    double retained(std::size_t k) const;
    // out (n×k) = (x − mean) · axes[0 … k)ᵀ for x n×d.
    void project(const float* x, std::size_t n, std::size_t k, float* out) const;
};

// Covariance in double (blocked XᵀX over centred rows), eigen-decomposed by Householder
// tridiagonalisation and implicit QL (EISPACK tred2/tql2; dependency-free). Requires v ≥ 1.
// centred = false: the second moments XᵀX/v of the rows as they are (mean taken as 0, so the
// axes keep the rows' common direction and project() does not subtract it; "variances" are then
// the second moments along the axes).
Pca principal_components(const float* rows, std::size_t v, std::size_t d, bool centred = true);

}  // namespace posenc
