#include "pca.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "attention.hpp"

namespace posenc {

double Pca::retained(std::size_t k) const {
    const double total = std::accumulate(variances.begin(), variances.end(), 0.0);
    const double kept = std::accumulate(variances.begin(), variances.begin() + std::min(k, d), 0.0);
    return total > 0.0 ? kept / total : 0.0;
}

void Pca::project(const float* x, std::size_t n, std::size_t k, float* out) const {
    for (std::size_t p = 0; p < n; ++p) {
        for (std::size_t a = 0; a < k; ++a) {
            out[p * k + a] = static_cast<float>(dot(x + p * d, axes_float.data() + a * d, d) - mean_along_axis[a]);
        }
    }
}

Pca principal_components(const float* rows, std::size_t v, std::size_t d) {
    Pca pca;
    pca.d = d;
    pca.mean.assign(d, 0.0);
    for (std::size_t r = 0; r < v; ++r)
        for (std::size_t j = 0; j < d; ++j) pca.mean[j] += rows[r * d + j];
    for (double& m : pca.mean) m /= static_cast<double>(v);

    std::vector<double> cov(d * d, 0.0), centered(d);
    for (std::size_t r = 0; r < v; ++r) {
        for (std::size_t j = 0; j < d; ++j) centered[j] = rows[r * d + j] - pca.mean[j];
        for (std::size_t a = 0; a < d; ++a)
            for (std::size_t b = a; b < d; ++b) cov[a * d + b] += centered[a] * centered[b];
    }
    for (std::size_t a = 0; a < d; ++a) {
        for (std::size_t b = a; b < d; ++b) {
            cov[a * d + b] /= static_cast<double>(v);
            cov[b * d + a] = cov[a * d + b];
        }
    }

    // Cyclic Jacobi: rotate away every off-diagonal entry until they are negligible next to the
    // diagonal; the accumulated rotations are the eigenvectors (columns of vectors).
    std::vector<double> vectors(d * d, 0.0);
    for (std::size_t a = 0; a < d; ++a) vectors[a * d + a] = 1.0;
    for (int sweep = 0; sweep < 100; ++sweep) {
        double off = 0.0, diag = 0.0;
        for (std::size_t a = 0; a < d; ++a) {
            diag += cov[a * d + a] * cov[a * d + a];
            for (std::size_t b = a + 1; b < d; ++b) off += cov[a * d + b] * cov[a * d + b];
        }
        if (off <= 1e-30 * diag || off == 0.0) break;
        for (std::size_t p = 0; p < d; ++p) {
            for (std::size_t q = p + 1; q < d; ++q) {
                const double apq = cov[p * d + q];
                if (apq == 0.0) continue;
                const double theta = (cov[q * d + q] - cov[p * d + p]) / (2.0 * apq);
                const double t = (theta >= 0 ? 1.0 : -1.0) / (std::fabs(theta) + std::sqrt(theta * theta + 1.0));
                const double c = 1.0 / std::sqrt(t * t + 1.0), s = t * c;
                for (std::size_t k = 0; k < d; ++k) {  // columns p, q
                    const double akp = cov[k * d + p], akq = cov[k * d + q];
                    cov[k * d + p] = c * akp - s * akq;
                    cov[k * d + q] = s * akp + c * akq;
                }
                for (std::size_t k = 0; k < d; ++k) {  // rows p, q
                    const double apk = cov[p * d + k], aqk = cov[q * d + k];
                    cov[p * d + k] = c * apk - s * aqk;
                    cov[q * d + k] = s * apk + c * aqk;
                }
                for (std::size_t k = 0; k < d; ++k) {
                    const double vkp = vectors[k * d + p], vkq = vectors[k * d + q];
                    vectors[k * d + p] = c * vkp - s * vkq;
                    vectors[k * d + q] = s * vkp + c * vkq;
                }
            }
        }
    }

    std::vector<std::size_t> order(d);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return cov[a * d + a] > cov[b * d + b]; });
    pca.variances.resize(d);
    pca.axes.resize(d * d);
    for (std::size_t rank = 0; rank < d; ++rank) {
        const std::size_t column = order[rank];
        pca.variances[rank] = std::max(0.0, cov[column * d + column]);
        for (std::size_t j = 0; j < d; ++j) pca.axes[rank * d + j] = vectors[j * d + column];
    }
    pca.axes_float.assign(pca.axes.begin(), pca.axes.end());
    pca.mean_along_axis.assign(d, 0.0);
    for (std::size_t a = 0; a < d; ++a)
        for (std::size_t j = 0; j < d; ++j) pca.mean_along_axis[a] += pca.mean[j] * pca.axes[a * d + j];
    return pca;
}

}  // namespace posenc
