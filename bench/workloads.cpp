#include "workloads.hpp"

#include <algorithm>
#include <cmath>

#include "vectors/embedding.hpp"
#include "encodings/sinusoidal.hpp"

namespace posenc::bench {

std::vector<float> random_values(std::size_t count, std::uint64_t seed, float scale) {
    std::vector<float> out(count);
    uniform_values(seed, count, scale, out.data());
    return out;
}

std::vector<std::uint32_t> zipf_rows(std::size_t n, std::size_t v, std::uint64_t seed) {
    std::vector<std::uint32_t> rows(n);
    std::uint64_t s = seed;
    for (std::uint32_t& row : rows) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;  // 64-bit LCG (Knuth's MMIX constants)
        const double u = static_cast<double>(s >> 11) * 0x1p-53;
        row = static_cast<std::uint32_t>(std::min<double>(v - 1, std::floor(std::pow(v, u))));
    }
    return rows;
}

void FullRecompute::set_vocabulary(const float* vocab, std::size_t v, std::size_t d, float component_rms) {
    v_ = v;
    d_ = d;
    alpha_ = component_rms > 0.0f ? 1.0f / component_rms : 1.0f;
    raw_.assign(vocab, vocab + v * d);
    unit_.resize(v * d);
    normalize_rows(raw_.data(), v, d, unit_.data());
    retriever_.set_vocabulary(unit_.data(), v, d);
}

void FullRecompute::set_sentence(std::size_t n) {
    n_ = n;
    keys_.resize(n);
    e_.resize(n * d_);
    rows_ = zipf_rows(n, v_, 12345);
    for (std::size_t p = 0; p < n; ++p) {
        keys_[p] = rows_[p];
        std::copy(raw_.begin() + rows_[p] * d_, raw_.begin() + (rows_[p] + 1) * d_, e_.begin() + p * d_);
    }
    // Filler tokens for the shift test: k = 4 copies of row 0 ("the" in GloVe) before the sentence.
    const std::size_t k = 4;
    e_shifted_.resize((n + k) * d_);
    for (std::size_t p = 0; p < k; ++p) std::copy(raw_.begin(), raw_.begin() + d_, e_shifted_.begin() + p * d_);
    std::copy(e_.begin(), e_.end(), e_shifted_.begin() + k * d_);
    retriever_.clear();
    retrieved_.resize(n);
    best_.resize(n);
    cosine_.resize(n);
    position_truth_.resize(n);
    for (std::size_t p = 0; p < n; ++p) position_truth_[p] = static_cast<std::uint32_t>(p);
    curve_.resize(n + 1);
    bound_.resize(n + 1);
    spread_.resize(d_);
    scratch_.resize(n * d_);
}

double FullRecompute::run(bool cold) {
    const std::size_t n = n_, d = d_, k = 4;
    if (cold) retriever_.clear();
    // Typing changes the last word: a new key (and a slightly different vector) every call.
    keys_[n - 1] = next_key_++;
    e_[(n - 1) * d] += 1e-3f;

    CompareConfig cfg;
    cfg.n = n;
    cfg.d = d;
    cfg.alpha = alpha_;
    cfg.d_pos = std::max<std::size_t>(2, 2 * static_cast<std::size_t>(std::lround(d / 8.0)));
    compare(cfg, e_.data(), base_);

    // Position retrieval: additive x_p against the unit PE rows of the sentence's positions.
    unit_pe_.resize(n * d);
    normalize_rows(base_.pe.data(), n, d, unit_pe_.data());
    nearest_by_cosine(base_.additive.x.data(), n, unit_pe_.data(), n, d, position_truth_.data(), best_.data(),
                      cosine_.data(), nullptr);

    // Identity retrieval: additive and rotary (x = αe).
    double check = 0.0;
    retriever_.retrieve(e_.data(), keys_.data(), rows_.data(), n, alpha_, true, cfg.base, cfg.layout, retrieved_.data());
    for (const Retrieved& r : retrieved_) check += r.rank;
    retriever_.retrieve(e_.data(), keys_.data(), rows_.data(), n, alpha_, false, cfg.base, cfg.layout, retrieved_.data());
    for (const Retrieved& r : retrieved_) check += r.rank;

    // Shift invariance.
    std::copy(e_.begin(), e_.end(), e_shifted_.begin() + k * d);
    CompareConfig shifted = cfg;
    shifted.n = n + k;
    compare(shifted, e_shifted_.data(), shifted_);
    check += max_shift_change(base_.additive.weights.data(), shifted_.additive.weights.data(), n, k);
    check += max_shift_change(base_.concatenated.weights.data(), shifted_.concatenated.weights.data(), n, k);
    check += max_shift_change(base_.rotary.weights.data(), shifted_.rotary.weights.data(), n, k);

    // Offset curves and per-dimension disturbance.
    score_by_offset(n, d, cfg.base, curve_.data());
    rope_decay_bound(n, d, cfg.base, bound_.data());
    column_spread(base_.pe.data(), n, d, spread_.data());
    check += spread_[0];
    column_spread(base_.rotary.x.data(), n, d, spread_.data());
    check += spread_[0] + curve_[n] + bound_[n] + best_[0] + base_.rotary.weights[0];
    return check;
}

}  // namespace posenc::bench
