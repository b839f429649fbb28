#include "retrieval.hpp"

#include <cmath>
#include <limits>

#include "attention.hpp"
#include "simd.hpp"
#include "sinusoidal.hpp"

namespace posenc {

namespace {
// s_r = alpha·content[r] (+ position[r]): the same two operations in the batch loop and the tail.
template <bool WithPosition, class F>
inline F score_at(F alpha, F content, F position) {
    if constexpr (WithPosition) return alpha * content + position;
    return alpha * content;
}

// Rows in [begin, end) whose score beats s_truth (strictly when strict, else also equal ones),
// and the largest score seen, folded into best.
template <bool WithPosition>
std::uint32_t count_better(const float* content, float alpha, const float* position, std::size_t begin,
                           std::size_t end, float s_truth, bool strict, float& best) {
    std::size_t r = begin;
    std::uint32_t count = 0;
#if POSENC_SIMD
    if (end - begin >= kLanes) {
        const Batch a(alpha), st(s_truth);
        Batch top(best);
        IntBatch counted(0);
        for (; r + kLanes <= end; r += kLanes) {
            const Batch s = score_at<WithPosition>(a, load(content + r), WithPosition ? load(position + r) : a);
            top = max_of(top, s);
            // A true comparison is all-ones, i.e. −1 per lane.
            counted = counted + xsimd::bitwise_cast<IntBatch>(Batch((strict ? (s > st) : (s >= st)).data));
        }
        alignas(16) float lanes[kLanes];
        store(lanes, top);
        for (float lane : lanes) best = max_of(best, lane);
        alignas(16) std::int32_t counts[kLanes];
        counted.store_aligned(counts);
        for (std::int32_t c : counts) count += static_cast<std::uint32_t>(-c);
    }
#endif
    for (; r < end; ++r) {
        const float s = score_at<WithPosition>(alpha, content[r], WithPosition ? position[r] : alpha);
        best = max_of(best, s);
        count += strict ? (s > s_truth) : (s >= s_truth);
    }
    return count;
}

// First row whose score equals best (it exists: best is one of the scores).
template <bool WithPosition>
std::uint32_t first_with(const float* content, float alpha, const float* position, std::size_t v, float best) {
    std::size_t r = 0;
#if POSENC_SIMD
    const Batch a(alpha), b(best);
    for (; r + kLanes <= v; r += kLanes) {
        const Batch s = score_at<WithPosition>(a, load(content + r), WithPosition ? load(position + r) : a);
        if (xsimd::any(s == b)) break;
    }
#endif
    for (; r < v; ++r) {
        if (score_at<WithPosition>(alpha, content[r], WithPosition ? position[r] : alpha) == best) break;
    }
    return static_cast<std::uint32_t>(r);
}

template <bool WithPosition>
Retrieved decode(const float* content, float alpha, const float* position, std::size_t v, float x_norm,
                 std::uint32_t truth) {
    Retrieved out;
    float best = -std::numeric_limits<float>::infinity();
    const bool has_truth = truth < v;
    const float s_truth =
        has_truth ? score_at<WithPosition>(alpha, content[truth], WithPosition ? position[truth] : alpha) : 0.0f;
    // Rows before the truth win ties (the lower index is listed first); rows after it must be higher.
    const std::size_t split = has_truth ? truth : v;
    std::uint32_t better = count_better<WithPosition>(content, alpha, position, 0, split, s_truth, false, best);
    better += count_better<WithPosition>(content, alpha, position, split, v, s_truth, true, best);
    out.best = first_with<WithPosition>(content, alpha, position, v, best);
    // The truth row itself is counted as ≥ s_truth in neither half: split excludes it from the
    // first half, and s_truth > s_truth is false in the second.
    out.rank = has_truth ? better + 1 : 0;
    out.cosine = x_norm > 0.0f ? best / x_norm : 0.0f;
    return out;
}
}  // namespace

Retrieved decode_scores(const float* content, float alpha, const float* position, std::size_t v, float x_norm,
                        std::uint32_t truth) {
    return position ? decode<true>(content, alpha, position, v, x_norm, truth)
                    : decode<false>(content, alpha, position, v, x_norm, truth);
}

void IdentityRetriever::set_vocabulary(const float* unit_vocab, std::size_t v, std::size_t d) {
    vocab_ = unit_vocab;
    v_ = v;
    d_ = d;
    clear();
}

void IdentityRetriever::clear() {
    forget_decoded();
    slot_of_.clear();
    content_.clear();
    position_.clear();
    positions_ = 0;
}

void IdentityRetriever::ensure_positions(std::size_t count, double base, Layout layout) {
    if (base != base_ || layout != layout_) {
        forget_decoded();
        position_.clear();
        positions_ = 0;
        base_ = base;
        layout_ = layout;
    }
    if (count <= positions_) return;
    const std::size_t added = count - positions_;
    scratch_.resize(added * d_);
    sinusoidal_table(added, d_, base, layout, scratch_.data(), static_cast<double>(positions_));
    position_.resize(count * v_);
    // PE rows against every vocabulary row at once: the blocked QKᵀ kernel with scale 1.
    attention_scores(scratch_.data(), vocab_, added, v_, d_, 1.0f, false, position_.data() + positions_ * v_);
    positions_ = count;
}

void IdentityRetriever::retrieve(const float* e, const std::uint64_t* keys, const std::uint32_t* truth, std::size_t n,
                                 float alpha, bool additive, double base, Layout layout, Retrieved* out) {
    // Content rows for the keys not cached yet, computed together.
    pending_.clear();
    std::vector<std::size_t> pending_rows;
    std::unordered_map<std::uint64_t, std::size_t> pending_index;
    for (std::size_t p = 0; p < n; ++p) {
        if (slot_of_.count(keys[p]) || pending_index.count(keys[p])) continue;
        pending_index.emplace(keys[p], pending_.size());
        pending_.push_back(keys[p]);
        pending_rows.push_back(p);
    }
    if (!pending_.empty()) {
        if (slot_of_.size() + pending_.size() > kMaxCachedTokens) {
            forget_decoded();
            slot_of_.clear();
            content_.clear();
            // Everything is pending again.
            return retrieve(e, keys, truth, n, alpha, additive, base, layout, out);
        }
        const std::size_t first_slot = slot_of_.size(), m = pending_.size();
        scratch_.resize(m * d_);
        for (std::size_t i = 0; i < m; ++i) {
            const float* row = e + pending_rows[i] * d_;
            std::copy(row, row + d_, scratch_.data() + i * d_);
        }
        content_.resize((first_slot + m) * v_);
        attention_scores(scratch_.data(), vocab_, m, v_, d_, 1.0f, false, content_.data() + first_slot * v_);
        for (std::size_t i = 0; i < m; ++i) slot_of_.emplace(pending_[i], first_slot + i);
    }
    if (additive) ensure_positions(n, base, layout);

    // A token whose key, position and alpha are unchanged since the last call decodes to the same
    // result (its rows are the cached ones): only changed tokens are decoded again.
    std::vector<Decoded>& memo = memo_[additive ? 1 : 0];
    if (memo.size() < n) memo.resize(n);
    if (additive) {
        pe_.resize(n * d_);
        sinusoidal_table(n, d_, base, layout, pe_.data());
    }
    x_.resize(d_);
    for (std::size_t p = 0; p < n; ++p) {
        const std::uint32_t t = truth ? truth[p] : kNoTruth;
        Decoded& m = memo[p];
        if (m.valid && m.key == keys[p] && m.alpha == alpha && m.truth == t) {
            out[p] = m.result;
            continue;
        }
        const float* ep = e + p * d_;
        for (std::size_t j = 0; j < d_; ++j) x_[j] = additive ? alpha * ep[j] + pe_[p * d_ + j] : alpha * ep[j];
        const float x_norm = std::sqrt(dot(x_.data(), x_.data(), d_));
        const float* content = content_.data() + slot_of_.at(keys[p]) * v_;
        const float* position = additive ? position_.data() + p * v_ : nullptr;
        out[p] = decode_scores(content, alpha, position, v_, x_norm, t);
        m = Decoded{true, keys[p], alpha, t, out[p]};
    }
}

}  // namespace posenc
