// The schemes that bias the logits by key − query: ALiBi (a slope per head) and T5 (a seeded
// value per bucket of distances). x = αE is left alone.
#include <algorithm>
#include <vector>

#include "compare/lanes.hpp"

namespace posenc::detail {

// The per-head bias table by offset (2n − 1 entries) of ALiBi or T5 into s.work.bias_by_offset.
POSENC_COLD void bias_table(const CompareConfig& cfg, Scheme scheme, std::size_t head, const SchemeResult& lane,
                CompareResult& s) {
    const std::size_t n = cfg.n;
    s.work.bias_by_offset.resize(2 * n - 1);
    if (scheme == Scheme::alibi) {
        // −m·|j − i|, as alibi_bias computes it (double product, one rounding); the causal mask
        // is softmax's job, so the term stays finite above the diagonal.
        const double slope = lane.slopes[head];
        for (std::size_t k = 0; k < 2 * n - 1; ++k) {
            const double distance = k >= n - 1 ? static_cast<double>(k - (n - 1)) : static_cast<double>((n - 1) - k);
            s.work.bias_by_offset[k] = static_cast<float>(-slope * distance);
        }
        return;
    }
    const int buckets = cfg.options.t5_buckets;
    s.work.t5_values.resize(static_cast<std::size_t>(buckets));
    t5_bucket_values(kT5Seed + head, buckets, s.work.t5_values.data());
    for (std::size_t k = 0; k < 2 * n - 1; ++k) s.work.bias_by_offset[k] = s.work.t5_values[s.work.bucket_by_offset[k]];
}

POSENC_COLD void run_bias_lanes(const CompareConfig& cfg, CompareResult& r) {
    const std::size_t n = cfg.n, d = cfg.d;
    const SchemeSet set = cfg.schemes;
    const SchemeOptions& o = cfg.options;

    if (has(set, Scheme::alibi)) {
        set_content(r.alibi, r, d);
        if (cfg.heads == 0) {
            std::vector<double>& slopes = r.alibi.slopes;
            slopes.resize(o.alibi_heads);
            alibi_slopes(o.alibi_heads, slopes.data());
            const double chosen = slopes[o.alibi_head - 1];
            slopes.assign(1, chosen);
        } else {
            r.alibi.slopes.resize(cfg.heads);
            alibi_slopes(cfg.heads, r.alibi.slopes.data());
        }
        run_scheme(cfg, Scheme::alibi, nullptr, nullptr, r.alibi, r);
    }

    if (has(set, Scheme::t5)) {
        set_content(r.t5, r, d);
        // Buckets depend on j − i only: the 2n − 1 offsets once, then the n×n map for the page.
        r.work.bucket_by_offset.resize(2 * n - 1);
        for (std::size_t k = 0; k < 2 * n - 1; ++k) {
            const std::int64_t relative = static_cast<std::int64_t>(k) - static_cast<std::int64_t>(n - 1);
            r.work.bucket_by_offset[k] = t5_bucket(relative, !cfg.causal, o.t5_buckets, o.t5_max_distance);
        }
        r.t5.buckets.resize(n * n);
        for (std::size_t i = 0; i < n; ++i) {
            std::copy_n(r.work.bucket_by_offset.data() + (n - 1 - i), n, r.t5.buckets.data() + i * n);
        }
        run_scheme(cfg, Scheme::t5, nullptr, nullptr, r.t5, r);
    }
}

// alibi −m·k (m: slope alibiHead of alibiHeads); t5 the seeded value of bucket(−k).
POSENC_COLD void bias_curve(const CurveConfig& cfg, Scheme scheme, float* out) {
    const std::size_t row = cfg.max_distance + 1;
    const SchemeOptions& o = cfg.options;
    if (scheme == Scheme::alibi) {
        std::vector<double> slopes(o.alibi_heads);
        alibi_slopes(o.alibi_heads, slopes.data());
        // 0 − m·k, not −(m·k): +0 at k = 0.
        for (std::size_t k = 0; k < row; ++k) out[k] = static_cast<float>(0.0 - slopes[o.alibi_head - 1] * static_cast<double>(k));
        return;
    }
    std::vector<float> values(static_cast<std::size_t>(o.t5_buckets));
    t5_bucket_values(kT5Seed, o.t5_buckets, values.data());
    for (std::size_t k = 0; k < row; ++k) {
        out[k] = values[t5_bucket(-static_cast<std::int64_t>(k), !cfg.causal, o.t5_buckets, o.t5_max_distance)];
    }
}

}  // namespace posenc::detail
