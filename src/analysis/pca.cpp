#include "analysis/pca.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "attention/attention.hpp"
#include "base/simd.hpp"

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

namespace {

// Centred rows per block (128 × 100 doubles = 100 KB). Many short calls rather than one long one
// also matter in wasm: V8 runs a function's first calls in its baseline compiler (Liftoff, several
// times slower for SIMD) and cannot switch a running call to optimised code, so one long call
// would run unoptimised to the end.
constexpr std::size_t kBlockRows = 128;

// cov (dp×dp, upper triangle by 4×4 tiles) += Xᵀ·X for one block X (rows × dp centred values in
// double, dp a multiple of 4). Each entry sums its block's rows in order, in double.
__attribute__((noinline)) void add_block_products(const double* x, std::size_t rows, std::size_t dp, double* cov) {
    for (std::size_t a0 = 0; a0 < dp; a0 += 4) {
        for (std::size_t b0 = a0; b0 < dp; b0 += 4) {
#if POSENC_SIMD
            using D = xsimd::batch<double>;
            static_assert(D::size == 2, "the tile is written for two double lanes");
            D acc[4][2] = {{D(0.0), D(0.0)}, {D(0.0), D(0.0)}, {D(0.0), D(0.0)}, {D(0.0), D(0.0)}};
            // Four rows per iteration: V8's baseline compiler keeps the accumulators on the stack
            // across loop iterations, so longer iterations amortise those loads and stores.
            std::size_t r = 0;
            const auto step = [&](const double* row) {
                const D b_lo = D::load_unaligned(row + b0), b_hi = D::load_unaligned(row + b0 + 2);
                for (int i = 0; i < 4; ++i) {
                    const D a(row[a0 + i]);
                    acc[i][0] = acc[i][0] + a * b_lo;
                    acc[i][1] = acc[i][1] + a * b_hi;
                }
            };
            for (; r + 4 <= rows; r += 4) {
                const double* row = x + r * dp;
                step(row);
                step(row + dp);
                step(row + 2 * dp);
                step(row + 3 * dp);
            }
            for (; r < rows; ++r) step(x + r * dp);
            for (int i = 0; i < 4; ++i) {
                alignas(16) double lanes[4];
                acc[i][0].store_aligned(lanes);
                acc[i][1].store_aligned(lanes + 2);
                for (int j = 0; j < 4; ++j) cov[(a0 + i) * dp + b0 + j] += lanes[j];
            }
#else
            double acc[4][4] = {};
            for (std::size_t r = 0; r < rows; ++r) {
                const double* row = x + r * dp;
                for (int i = 0; i < 4; ++i)
                    for (int j = 0; j < 4; ++j) acc[i][j] += row[a0 + i] * row[b0 + j];
            }
            for (int i = 0; i < 4; ++i)
                for (int j = 0; j < 4; ++j) cov[(a0 + i) * dp + b0 + j] += acc[i][j];
#endif
        }
    }
}

// Householder reduction (EISPACK tred2, as in JAMA), step i = n − 1 … 1: row i of the matrix in
// V is reduced, its reflector kept in V, dg[i] = h and the subdiagonal entry e[i] set.
void reduce_row(std::size_t n, std::size_t i, std::vector<double>& V, std::vector<double>& dg, std::vector<double>& e) {
    auto at = [&](std::size_t r, std::size_t c) -> double& { return V[r * n + c]; };
    double scale = 0.0, h = 0.0;
    for (std::size_t k = 0; k < i; ++k) scale += std::fabs(dg[k]);
    if (scale == 0.0) {
        e[i] = dg[i - 1];
        for (std::size_t j = 0; j < i; ++j) {
            dg[j] = at(i - 1, j);
            at(i, j) = 0.0;
            at(j, i) = 0.0;
        }
    } else {
        for (std::size_t k = 0; k < i; ++k) {
            dg[k] /= scale;
            h += dg[k] * dg[k];
        }
        double f = dg[i - 1];
        double g = std::sqrt(h);
        if (f > 0) g = -g;
        e[i] = scale * g;
        h -= f * g;
        dg[i - 1] = f - g;
        for (std::size_t j = 0; j < i; ++j) e[j] = 0.0;
        for (std::size_t j = 0; j < i; ++j) {
            f = dg[j];
            at(j, i) = f;
            g = e[j] + at(j, j) * f;
            for (std::size_t k = j + 1; k + 1 <= i; ++k) {
                g += at(k, j) * dg[k];
                e[k] += at(k, j) * f;
            }
            e[j] = g;
        }
        f = 0.0;
        for (std::size_t j = 0; j < i; ++j) {
            e[j] /= h;
            f += e[j] * dg[j];
        }
        const double hh = f / (h + h);
        for (std::size_t j = 0; j < i; ++j) e[j] -= hh * dg[j];
        for (std::size_t j = 0; j < i; ++j) {
            f = dg[j];
            g = e[j];
            for (std::size_t k = j; k + 1 <= i; ++k) at(k, j) -= (f * e[k] + g * dg[k]);
            dg[j] = at(i - 1, j);
            at(i, j) = 0.0;
        }
    }
    dg[i] = h;
}

// tred2's last part: the reflectors in V multiplied into the orthogonal transformation, and the
// diagonal read back into dg.
void accumulate_reflectors(std::size_t n, std::vector<double>& V, std::vector<double>& dg) {
    auto at = [&](std::size_t r, std::size_t c) -> double& { return V[r * n + c]; };
    for (std::size_t i = 0; i + 1 < n; ++i) {
        at(n - 1, i) = at(i, i);
        at(i, i) = 1.0;
        const double h = dg[i + 1];
        if (h != 0.0) {
            for (std::size_t k = 0; k <= i; ++k) dg[k] = at(k, i + 1) / h;
            for (std::size_t j = 0; j <= i; ++j) {
                double g = 0.0;
                for (std::size_t k = 0; k <= i; ++k) g += at(k, i + 1) * at(k, j);
                for (std::size_t k = 0; k <= i; ++k) at(k, j) -= g * dg[k];
            }
        }
        for (std::size_t k = 0; k <= i; ++k) at(k, i + 1) = 0.0;
    }
    for (std::size_t j = 0; j < n; ++j) {
        dg[j] = at(n - 1, j);
        at(n - 1, j) = 0.0;
    }
    at(n - 1, n - 1) = 1.0;
}

// Householder reduction of the symmetric n×n matrix in V (row-major) to tridiagonal form: diagonal
// in dg, subdiagonal in e[1 … n), V the accumulated orthogonal transformation. (EISPACK tred2, as
// in JAMA.)
void tridiagonalize(std::size_t n, std::vector<double>& V, std::vector<double>& dg, std::vector<double>& e) {
    for (std::size_t j = 0; j < n; ++j) dg[j] = V[(n - 1) * n + j];
    for (std::size_t i = n - 1; i > 0; --i) reduce_row(n, i, V, dg, e);
    accumulate_reflectors(n, V, dg);
    e[0] = 0.0;
}

// Implicit QL on the tridiagonal (dg, e): eigenvalues in dg, eigenvectors in V's columns.
// (EISPACK tql2, as in JAMA; at most 100 iterations per eigenvalue.)
void tridiagonal_eigen(std::size_t n, std::vector<double>& V, std::vector<double>& dg, std::vector<double>& e) {
    for (std::size_t i = 1; i < n; ++i) e[i - 1] = e[i];
    e[n - 1] = 0.0;
    double f = 0.0, tst1 = 0.0;
    const double eps = std::ldexp(1.0, -52);
    for (std::size_t l = 0; l < n; ++l) {
        tst1 = std::max(tst1, std::fabs(dg[l]) + std::fabs(e[l]));
        std::size_t m = l;
        while (m < n - 1 && !(std::fabs(e[m]) <= eps * tst1)) ++m;
        if (m > l) {
            for (int iter = 0; iter < 100; ++iter) {
                double g = dg[l];
                double p = (dg[l + 1] - g) / (2.0 * e[l]);
                double r = std::hypot(p, 1.0);
                if (p < 0) r = -r;
                dg[l] = e[l] / (p + r);
                dg[l + 1] = e[l] * (p + r);
                const double dl1 = dg[l + 1];
                double h = g - dg[l];
                for (std::size_t i = l + 2; i < n; ++i) dg[i] -= h;
                f += h;
                p = dg[m];
                double c = 1.0, c2 = c, c3 = c, s = 0.0, s2 = 0.0;
                const double el1 = e[l + 1];
                for (std::size_t i = m; i-- > l;) {
                    c3 = c2;
                    c2 = c;
                    s2 = s;
                    g = c * e[i];
                    h = c * p;
                    r = std::hypot(p, e[i]);
                    e[i + 1] = s * r;
                    s = e[i] / r;
                    c = p / r;
                    p = c * dg[i] - s * g;
                    dg[i + 1] = h + s * (c * g + s * dg[i]);
                    for (std::size_t k = 0; k < n; ++k) {
                        h = V[k * n + i + 1];
                        V[k * n + i + 1] = s * V[k * n + i] + c * h;
                        V[k * n + i] = c * V[k * n + i] - s * h;
                    }
                }
                p = -s * s2 * c3 * el1 * e[l] / dl1;
                e[l] = s * p;
                dg[l] = c * p;
                if (!(std::fabs(e[l]) > eps * tst1)) break;
            }
        }
        dg[l] += f;
        e[l] = 0.0;
    }
}

}  // namespace

Pca principal_components(const float* rows, std::size_t v, std::size_t d, bool centred) {
    Pca pca;
    pca.d = d;
    pca.mean.assign(d, 0.0);
    if (centred) {
        for (std::size_t r = 0; r < v; ++r)
            for (std::size_t j = 0; j < d; ++j) pca.mean[j] += rows[r * d + j];
        for (double& m : pca.mean) m /= static_cast<double>(v);
    }

    // Covariance in double: blocks of centred rows (columns padded with zeros to a multiple of 4),
    // XᵀX by 4×4 register tiles, upper triangle only.
    const std::size_t dp = (d + 3) / 4 * 4;
    std::vector<double> upper(dp * dp, 0.0), block(kBlockRows * dp, 0.0);
    for (std::size_t r0 = 0; r0 < v; r0 += kBlockRows) {
        const std::size_t count = std::min(kBlockRows, v - r0);
        for (std::size_t r = 0; r < count; ++r)
            for (std::size_t j = 0; j < d; ++j) block[r * dp + j] = rows[(r0 + r) * d + j] - pca.mean[j];
        add_block_products(block.data(), count, dp, upper.data());
    }
    std::vector<double> vectors(d * d);
    for (std::size_t a = 0; a < d; ++a) {
        for (std::size_t b = a; b < d; ++b) {
            vectors[a * d + b] = vectors[b * d + a] = upper[a * dp + b] / static_cast<double>(v);
        }
    }

    // Eigen-decomposition: Householder tridiagonalisation, then implicit QL (O(d³), ~10× fewer
    // operations than cyclic Jacobi at d = 100). Column c of vectors is the eigenvector of values[c].
    std::vector<double> values(d), off(d);
    tridiagonalize(d, vectors, values, off);
    tridiagonal_eigen(d, vectors, values, off);

    // Decreasing eigenvalue; equal ones keep their column order (insertion sort: stable, and d is small).
    std::vector<std::size_t> order(d);
    std::iota(order.begin(), order.end(), 0);
    for (std::size_t i = 1; i < d; ++i) {
        const std::size_t c = order[i];
        std::size_t k = i;
        for (; k > 0 && values[order[k - 1]] < values[c]; --k) order[k] = order[k - 1];
        order[k] = c;
    }
    pca.variances.resize(d);
    pca.axes.resize(d * d);
    for (std::size_t rank = 0; rank < d; ++rank) {
        const std::size_t column = order[rank];
        pca.variances[rank] = std::max(0.0, values[column]);
        for (std::size_t j = 0; j < d; ++j) pca.axes[rank * d + j] = vectors[j * d + column];
    }
    pca.axes_float.assign(pca.axes.begin(), pca.axes.end());
    pca.mean_along_axis.assign(d, 0.0);
    for (std::size_t a = 0; a < d; ++a)
        for (std::size_t j = 0; j < d; ++j) pca.mean_along_axis[a] += pca.mean[j] * pca.axes[a * d + j];
    return pca;
}

}  // namespace posenc
