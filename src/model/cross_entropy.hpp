// Mean masked next-token cross-entropy over logits, with its gradient.
//
// Shapes: logits, dlogits — N×V rows;  targets — N token ids in [0, V);  mask — N bytes or null
// (null counts every row). loss = Σ_counted (logsumexp(z) − z[target]) / count; the gradient of
// that mean is (softmax(z) − onehot(target))/count on counted rows and 0 elsewhere. Float rows run
// as batch loops + scalar tails (row_ops.hpp), exp through fastmath's.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>

#include "model/row_ops.hpp"

namespace posenc::model {

inline std::size_t counted_targets(const std::uint8_t* mask, std::size_t N) {
    if (!mask) return N;
    std::size_t count = 0;
    for (std::size_t r = 0; r < N; ++r) count += mask[r] != 0;
    return count;
}

// ln Σ_v e^{z_v} over one row of V logits, as max z + ln Σ e^{z − max z}.
template <class Real>
Real log_normalizer(const Real* z, std::size_t V) {
    const Real zmax = row_max(z, V);
    return std::log(exp_shifted_sum(z, zmax, V, static_cast<Real*>(nullptr))) + zmax;
}

// −ln softmax(z)[t] over one row of V logits: each row's term of cross_entropy, and the surprise
// Transformer::inspect reports per position (which keeps log_normalizer's value per row and
// subtracts a new target's logit from it: the same two operations).
template <class Real>
Real next_token_loss(const Real* z, std::size_t V, std::size_t t) {
    return log_normalizer(z, V) - z[t];
}

// Returns the mean loss (accumulated in double: it is a report, not a gradient); dlogits may be
// null (evaluation only) and may alias logits. count ≥ 1.
template <class Real>
double cross_entropy(const Real* logits, const std::int32_t* targets, const std::uint8_t* mask, std::size_t N,
                     std::size_t V, Real* dlogits) {
    const std::size_t count = counted_targets(mask, N);
    const Real inv_count = Real(1) / static_cast<Real>(count);
    double total = 0.0;
    for (std::size_t r = 0; r < N; ++r) {
        const Real* z = logits + r * V;
        const bool counted = !mask || mask[r] != 0;
        if (!dlogits) {
            if (counted) total += static_cast<double>(next_token_loss(z, V, static_cast<std::size_t>(targets[r])));
            continue;
        }
        const Real zmax = row_max(z, V);
        const std::size_t t = static_cast<std::size_t>(targets[r]);
        const Real z_target = z[t];  // read before g, which may alias z, is written
        Real* g = dlogits ? dlogits + r * V : nullptr;
        const Real sum = exp_shifted_sum(z, zmax, V, g);
        if (counted) total += static_cast<double>(std::log(sum) + zmax - z_target);
        if (!g) continue;
        scale_into(g, counted ? inv_count / sum : Real(0), g, V);
        if (counted) g[t] = g[t] - inv_count;
    }
    return total / static_cast<double>(count);
}

}  // namespace posenc::model
