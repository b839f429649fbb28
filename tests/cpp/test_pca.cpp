// pca.hpp: principal_components against known covariances (independent scaled columns, a known
// rotation), against its own eigen-equation C·a = λ·a with C computed here in float64, and
// Pca::project / retained against float64 loops.
#include <catch2/catch.hpp>

#include "test_support.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <vector>

#include "vectors/embedding.hpp"
#include "analysis/pca.hpp"

namespace {

using posenc::test::verbose;

// v rows of d independent N(mean_j, sigma_j²) columns (synthetic_embedding gives N(0, 1)).
std::vector<float> scaled_gaussian_rows(std::size_t v, const std::vector<double>& sigma, const std::vector<double>& mean,
                                        std::uint64_t seed) {
    const std::size_t d = sigma.size();
    std::vector<float> rows(v * d), z(d);
    for (std::size_t r = 0; r < v; ++r) {
        posenc::synthetic_embedding(seed + r, d, z.data());
        for (std::size_t j = 0; j < d; ++j) rows[r * d + j] = static_cast<float>(mean[j] + sigma[j] * z[j]);
    }
    return rows;
}

// Population covariance (1/v) in float64, two passes.
std::vector<double> covariance64(const std::vector<float>& rows, std::size_t v, std::size_t d) {
    std::vector<double> mean(d, 0.0), cov(d * d, 0.0);
    for (std::size_t r = 0; r < v; ++r)
        for (std::size_t j = 0; j < d; ++j) mean[j] += rows[r * d + j];
    for (double& m : mean) m /= static_cast<double>(v);
    for (std::size_t r = 0; r < v; ++r)
        for (std::size_t a = 0; a < d; ++a)
            for (std::size_t b = 0; b < d; ++b) cov[a * d + b] += (rows[r * d + a] - mean[a]) * (rows[r * d + b] - mean[b]);
    for (double& c : cov) c /= static_cast<double>(v);
    return cov;
}

// Largest |a_i·a_j − δ_ij| over the axes.
double orthonormality_error(const posenc::Pca& pca) {
    const std::size_t d = pca.d;
    double worst = 0.0;
    for (std::size_t a = 0; a < d; ++a) {
        for (std::size_t b = a; b < d; ++b) {
            double s = 0.0;
            for (std::size_t j = 0; j < d; ++j) s += pca.axes[a * d + j] * pca.axes[b * d + j];
            worst = std::fmax(worst, std::fabs(s - (a == b ? 1.0 : 0.0)));
        }
    }
    return worst;
}

// Largest ‖C·a − λ·a‖ over the axes, relative to the largest eigenvalue.
double eigen_residual(const posenc::Pca& pca, const std::vector<double>& cov) {
    const std::size_t d = pca.d;
    double worst = 0.0;
    for (std::size_t a = 0; a < d; ++a) {
        double ss = 0.0;
        for (std::size_t i = 0; i < d; ++i) {
            double ca = 0.0;
            for (std::size_t j = 0; j < d; ++j) ca += cov[i * d + j] * pca.axes[a * d + j];
            const double r = ca - pca.variances[a] * pca.axes[a * d + i];
            ss += r * r;
        }
        worst = std::fmax(worst, std::sqrt(ss));
    }
    return worst / std::fmax(pca.variances[0], 1e-300);
}

}  // namespace

TEST_CASE("PCA of independent columns with variances 25, 9, 4, 1, 0.25: values, axes, retained", "[pca]") {
    const std::size_t v = 5000;
    // Columns listed out of order so that sorting is tested; non-zero means so centring is.
    const std::vector<double> sigma = {1.0, 5.0, 0.5, 3.0, 2.0};
    const std::vector<double> mean = {3.0, -2.0, 10.0, 0.5, -7.0};
    const std::vector<double> truth = {25.0, 9.0, 4.0, 1.0, 0.25};
    const std::vector<std::size_t> column_of = {1, 3, 4, 0, 2};  // axis a ≈ ±e_{column_of[a]}
    const std::size_t d = sigma.size();
    const auto rows = scaled_gaussian_rows(v, sigma, mean, 42);
    const posenc::Pca pca = posenc::principal_components(rows.data(), v, d);
    REQUIRE(pca.d == d);
    REQUIRE(pca.variances.size() == d);
    REQUIRE(pca.axes.size() == d * d);
    const auto cov = covariance64(rows, v, d);

    for (std::size_t a = 0; a < d; ++a) {
        CAPTURE(a, pca.variances[a], truth[a]);
        if (a > 0) CHECK(pca.variances[a - 1] >= pca.variances[a]);  // sorted descending
        // Sample variance of v normals: relative standard error √(2/v) = 2%; 5 of them.
        CHECK(std::fabs(pca.variances[a] / truth[a] - 1.0) <= 5.0 * std::sqrt(2.0 / v));
        // Axis a ≈ ±e_column: the sample covariance's off-diagonals (~σ_aσ_b/√v) tilt it by at
        // most ~σ_aσ_b/(√v·|λ_a − λ_b|) ≤ 0.015 per neighbour here, so its main component
        // exceeds 0.999 (1 − 0.5·Σ tilt² with room to spare).
        CHECK(std::fabs(pca.axes[a * d + column_of[a]]) >= 0.999);
    }
    // Exact properties, independent of sampling: orthonormal axes (Jacobi rotations are
    // orthogonal up to ~sweeps·d·2^-53), the eigen-equation, the trace and the mean.
    CHECK(orthonormality_error(pca) <= 1e-9);
    CHECK(eigen_residual(pca, cov) <= 1e-9);
    double trace = 0.0;
    for (std::size_t j = 0; j < d; ++j) trace += cov[j * d + j];
    CHECK(std::fabs(std::accumulate(pca.variances.begin(), pca.variances.end(), 0.0) - trace) <= 1e-9 * trace);
    for (std::size_t j = 0; j < d; ++j) {
        CAPTURE(j, pca.mean[j]);
        // Standard error σ/√v ≤ 0.071; 5 of them.
        CHECK(std::fabs(pca.mean[j] - mean[j]) <= 5.0 * sigma[j] / std::sqrt(static_cast<double>(v)));
    }

    // retained(k): increasing, retained(d) exactly 1 (the same sum over the same terms), and
    // retained(1) ≈ 25/39.25 within the same sampling error.
    CHECK(pca.retained(0) == 0.0);
    for (std::size_t k = 1; k <= d; ++k) {
        CAPTURE(k);
        CHECK(pca.retained(k) > pca.retained(k - 1));
    }
    CHECK(pca.retained(d) == 1.0);
    CHECK(pca.retained(d + 3) == 1.0);
    CHECK(std::fabs(pca.retained(1) - 25.0 / 39.25) <= 0.03);
}

TEST_CASE("PCA recovers a known 2-D rotation", "[pca]") {
    // Variances 9 and 1 along (cos θ, sin θ) and (−sin θ, cos θ). Sampling tilts the axis by
    // ~σ₁σ₂/(√v·(λ₁ − λ₂)) = 3/(70.7·8) ≈ 0.0053 rad; allow 0.02 rad (~4 standard errors).
    const std::size_t v = 5000;
    for (double theta : {0.3, 1.2, -0.7, 2.5}) {
        const auto base = scaled_gaussian_rows(v, {3.0, 1.0}, {0.0, 0.0}, 7);
        std::vector<float> rows(2 * v);
        const double c = std::cos(theta), s = std::sin(theta);
        for (std::size_t r = 0; r < v; ++r) {
            const double x = base[2 * r], y = base[2 * r + 1];
            rows[2 * r] = static_cast<float>(c * x - s * y + 1.5);
            rows[2 * r + 1] = static_cast<float>(s * x + c * y - 4.0);
        }
        const posenc::Pca pca = posenc::principal_components(rows.data(), v, 2);
        const double angle = std::atan2(pca.axes[1], pca.axes[0]);
        // An axis is defined up to sign: compare angles modulo π.
        double diff = std::remainder(angle - theta, M_PI);
        CAPTURE(theta, angle, diff, pca.variances[0], pca.variances[1]);
        CHECK(std::fabs(diff) <= 0.02);
        // The second axis is the first turned by ±90°.
        CHECK(std::fabs(pca.axes[0] * pca.axes[2] + pca.axes[1] * pca.axes[3]) <= 1e-12);
        CHECK(std::fabs(pca.variances[0] / 9.0 - 1.0) <= 5.0 * std::sqrt(2.0 / v));
        CHECK(std::fabs(pca.variances[1] / 1.0 - 1.0) <= 5.0 * std::sqrt(2.0 / v));
    }
}

TEST_CASE("PCA on correlated data of every SIMD-tail width: eigen-equation and orthonormal axes", "[pca]") {
    // Rows x = z·M for a random d×d M: a full covariance with no structure to exploit.
    for (std::size_t d : {std::size_t{1}, std::size_t{3}, std::size_t{4}, std::size_t{5}, std::size_t{7},
                          std::size_t{8}, std::size_t{15}, std::size_t{16}, std::size_t{17}, std::size_t{63},
                          std::size_t{100}}) {
        const std::size_t v = std::max<std::size_t>(3 * d, 200);
        std::vector<float> m(d * d), z(d), rows(v * d);
        posenc::gaussian_matrix(900 + d, d, d, 1.0, m.data());
        for (std::size_t r = 0; r < v; ++r) {
            posenc::synthetic_embedding(5000 + r, d, z.data());
            for (std::size_t j = 0; j < d; ++j) {
                double s = 0.5;  // an offset, so the mean is not 0
                for (std::size_t i = 0; i < d; ++i) s += static_cast<double>(z[i]) * m[i * d + j];
                rows[r * d + j] = static_cast<float>(s);
            }
        }
        const posenc::Pca pca = posenc::principal_components(rows.data(), v, d);
        const auto cov = covariance64(rows, v, d);
        CAPTURE(d);
        const double ortho = orthonormality_error(pca), resid = eigen_residual(pca, cov);
        if (verbose()) std::printf("  pca d=%zu: orthonormality %.2g, eigen residual %.2g\n", d, ortho, resid);
        // Jacobi converges to off-diagonal² ≤ 1e-30·diagonal², i.e. residual ~1e-15 of λ_max;
        // 1e-9 is far above rounding yet far below any wrong axis (≥ 1e-3).
        CHECK(ortho <= 1e-9);
        CHECK(resid <= 1e-9);
        for (std::size_t a = 1; a < d; ++a) CHECK(pca.variances[a - 1] >= pca.variances[a]);
        CHECK(pca.variances[d - 1] >= 0.0);
        CHECK(pca.retained(d) == 1.0);
    }
}

TEST_CASE("Pca::project equals (x − mean)·axesᵀ in float64 within float rounding", "[pca]") {
    double worst = 0.0;
    for (std::size_t d : {std::size_t{1}, std::size_t{3}, std::size_t{4}, std::size_t{5}, std::size_t{7},
                          std::size_t{8}, std::size_t{15}, std::size_t{16}, std::size_t{17}, std::size_t{63},
                          std::size_t{100}}) {
        std::vector<double> sigma(d), mean(d);
        for (std::size_t j = 0; j < d; ++j) {
            sigma[j] = 0.2 + 0.05 * static_cast<double>((j * 7) % 11);
            mean[j] = 0.3 * static_cast<double>(static_cast<int>(j % 5) - 2);
        }
        const std::size_t v = 400;
        const auto rows = scaled_gaussian_rows(v, sigma, mean, 100 + d);
        const posenc::Pca pca = posenc::principal_components(rows.data(), v, d);
        // Query rows that are not in the fitted set.
        const std::size_t n = 9;
        const auto x = scaled_gaussian_rows(n, sigma, mean, 99999 + d);
        for (std::size_t k : {std::size_t{1}, (d + 1) / 2, d}) {
            std::vector<float> out(n * k + 1, 12345.0f);
            pca.project(x.data(), n, k, out.data());
            CHECK(out[n * k] == 12345.0f);  // n×k written, nothing more
            for (std::size_t p = 0; p < n; ++p) {
                for (std::size_t a = 0; a < k; ++a) {
                    double want = 0.0, magnitude = 0.0;
                    for (std::size_t j = 0; j < d; ++j) {
                        want += (x[p * d + j] - pca.mean[j]) * pca.axes[a * d + j];
                        magnitude += std::fabs(x[p * d + j] * pca.axes[a * d + j]) + std::fabs(pca.mean[j] * pca.axes[a * d + j]);
                    }
                    // project() takes a float dot of the uncentred x with the float axes and
                    // subtracts mean·axis: each of the d products and sums errs by ≤ 2^-24 of the
                    // running Σ|x_j·axis_j|, the axes' rounding to float adds 2^-24 per term, and
                    // the final rounding 2^-24 of |want|: (d + 4)·2^-24·magnitude bounds it.
                    const double err = std::fabs(out[p * k + a] - want);
                    worst = std::fmax(worst, err / magnitude);
                    CAPTURE(d, k, p, a, out[p * k + a], want);
                    CHECK(err <= (d + 4) * 0x1p-24 * magnitude);
                }
            }
        }
        // Coordinates of the fitted rows over all d axes are an orthogonal transform of the
        // centred rows: their variances are the eigenvalues (float rounding ≈ 1e-6 relative).
        std::vector<float> all(v * d);
        pca.project(rows.data(), v, d, all.data());
        for (std::size_t a = 0; a < d; ++a) {
            double s = 0.0, ss = 0.0;
            for (std::size_t r = 0; r < v; ++r) {
                s += all[r * d + a];
                ss += static_cast<double>(all[r * d + a]) * all[r * d + a];
            }
            const double var = ss / v - (s / v) * (s / v);
            CAPTURE(d, a, var, pca.variances[a]);
            CHECK(std::fabs(s / v) <= 1e-5);  // centred: the mean coordinate is ~0 (float rounding)
            CHECK(std::fabs(var - pca.variances[a]) <= 1e-5 * pca.variances[0]);
        }
    }
    if (verbose()) std::printf("  Pca::project vs float64: max error / Σ|terms| %.3g\n", worst);
}

TEST_CASE("PCA of one row or of constant rows: zero variances, retained 0, orthonormal axes", "[pca]") {
    for (std::size_t v : {std::size_t{1}, std::size_t{5}}) {
        const std::size_t d = 6;
        std::vector<float> rows(v * d);
        for (std::size_t r = 0; r < v; ++r)
            for (std::size_t j = 0; j < d; ++j) rows[r * d + j] = 0.25f * static_cast<float>(j) - 1.0f;
        const posenc::Pca pca = posenc::principal_components(rows.data(), v, d);
        CAPTURE(v);
        for (double var : pca.variances) CHECK(var == 0.0);
        for (std::size_t j = 0; j < d; ++j) CHECK(pca.mean[j] == 0.25 * static_cast<double>(j) - 1.0);
        CHECK(pca.retained(3) == 0.0);  // total variance 0: nothing to keep, and no NaN
        CHECK(orthonormality_error(pca) <= 1e-12);
        // A zero covariance needs no rotation, so the axes are the identity and every row
        // projects to x_a − mean_a = 0 exactly.
        std::vector<float> out(v * d, 1.0f);
        pca.project(rows.data(), v, d, out.data());
        for (float c : out) CHECK(c == 0.0f);
    }
}
