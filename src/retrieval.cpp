#include "retrieval.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "attention.hpp"
#include "simd.hpp"
#include "sinusoidal.hpp"

// Bookkeeping, not hot loops (those are decode_scores and the blocked product it calls): compiled
// for size, which keeps the size-budgeted wasm cores small.
#if defined(__clang__)
#define POSENC_MINSIZE __attribute__((minsize))
#else
#define POSENC_MINSIZE
#endif

namespace posenc {

namespace {
// One pass over s_r = alpha·content[r] + position[r]: the largest score, and how many rows score
// above s_truth (greater) and at least s_truth (at_least, the truth row itself included).
struct Counts {
    float best;
    std::uint32_t greater = 0, at_least = 0;
};

Counts count_scores(const float* content, float alpha, const float* position, std::size_t v, float s_truth) {
    Counts c{-std::numeric_limits<float>::infinity()};
    std::size_t r = 0;
#if POSENC_SIMD
    if (v >= kLanes) {
        const Batch a(alpha), st(s_truth);
        Batch top(c.best);
        IntBatch gt(0), ge(0);
        for (; r + kLanes <= v; r += kLanes) {
            const Batch s = a * load(content + r) + load(position + r);
            top = max_of(top, s);
            // A true comparison is all-ones, i.e. −1 per lane.
            gt = gt + to_bits(Batch((s > st).data));
            ge = ge + to_bits(Batch((s >= st).data));
        }
        alignas(16) float lanes[kLanes];
        store(lanes, top);
        for (float lane : lanes) c.best = max_of(c.best, lane);
        alignas(16) std::int32_t counts[kLanes];
        gt.store_aligned(counts);
        for (std::int32_t k : counts) c.greater += static_cast<std::uint32_t>(-k);
        ge.store_aligned(counts);
        for (std::int32_t k : counts) c.at_least += static_cast<std::uint32_t>(-k);
    }
#endif
    for (; r < v; ++r) {
        const float s = alpha * content[r] + position[r];
        c.best = max_of(c.best, s);
        c.greater += s > s_truth;
        c.at_least += s >= s_truth;
    }
    return c;
}
}  // namespace

// Not inlined: one copy serves the retriever and the tests (it keeps the wasm cores small).
__attribute__((noinline)) Retrieved decode_scores(const float* content, float alpha, const float* position,
                                                  std::size_t v, float x_norm, std::uint32_t truth) {
    // Without a position row the score is alpha·content + 0 (the same comparisons as alpha·content).
    std::vector<float> zeros;
    if (!position) {
        zeros.assign(v, 0.0f);
        position = zeros.data();
    }
    Retrieved out;
    const bool has_truth = truth < v;
    const float s_truth = has_truth ? alpha * content[truth] + position[truth] : 0.0f;
    const Counts c = count_scores(content, alpha, position, v, s_truth);
    // First row with the best score (ties to the lower row).
    std::size_t r = 0;
    while (r < v && alpha * content[r] + position[r] != c.best) ++r;
    out.best = static_cast<std::uint32_t>(r);
    if (has_truth) {
        // Rank = rows scoring higher + rows before the truth scoring the same. Ties other than the
        // truth itself are rare, so they are located only when there are any.
        std::uint32_t ties_before = 0;
        if (c.at_least - c.greater > 1) {
            for (std::size_t q = 0; q < truth; ++q) ties_before += alpha * content[q] + position[q] == s_truth;
        }
        out.rank = c.greater + ties_before + 1;
    }
    out.cosine = x_norm > 0.0f ? c.best / x_norm : 0.0f;
    return out;
}

POSENC_MINSIZE void IdentityRetriever::set_vocabulary(const float* unit_vocab, std::size_t v, std::size_t d) {
    vocab_ = unit_vocab;
    v_ = v;
    d_ = d;
    clear();
}

namespace {
constexpr std::size_t kEmpty = static_cast<std::size_t>(-1);
}

POSENC_MINSIZE void IdentityRetriever::SlotMap::clear() {
    keys_.clear();
    slots_.clear();
    count_ = 0;
}

POSENC_MINSIZE std::size_t IdentityRetriever::SlotMap::probe(std::uint64_t key) const {
    const std::size_t mask = keys_.size() - 1;
    std::uint64_t h = key * 0x9e3779b97f4a7c15ull;  // keys may be small integers: spread them
    std::size_t i = static_cast<std::size_t>(h >> 32) & mask;
    while (slots_[i] != kEmpty && keys_[i] != key) i = (i + 1) & mask;
    return i;
}

POSENC_MINSIZE std::size_t IdentityRetriever::SlotMap::find_or_insert(std::uint64_t key, std::size_t slot, bool& inserted) {
    if (2 * (count_ + 1) > keys_.size()) {  // keep at most half full
        std::vector<std::uint64_t> old_keys;
        std::vector<std::size_t> old_slots;
        old_keys.swap(keys_);
        old_slots.swap(slots_);
        const std::size_t capacity = old_keys.empty() ? 64 : 2 * old_keys.size();
        keys_.assign(capacity, 0);
        slots_.assign(capacity, kEmpty);
        for (std::size_t i = 0; i < old_keys.size(); ++i) {
            if (old_slots[i] == kEmpty) continue;
            const std::size_t j = probe(old_keys[i]);
            keys_[j] = old_keys[i];
            slots_[j] = old_slots[i];
        }
    }
    const std::size_t i = probe(key);
    inserted = slots_[i] == kEmpty;
    if (inserted) {
        keys_[i] = key;
        slots_[i] = slot;
        ++count_;
    }
    return slots_[i];
}

POSENC_MINSIZE std::size_t IdentityRetriever::SlotMap::at(std::uint64_t key) const { return slots_[probe(key)]; }

POSENC_MINSIZE std::size_t IdentityRetriever::max_cached_tokens() const {
    const std::size_t by_floats = v_ ? kMaxCachedFloats / v_ : kMaxCachedTokens;
    return std::max<std::size_t>(1, std::min(kMaxCachedTokens, by_floats));
}

POSENC_MINSIZE void IdentityRetriever::clear() {
    forget_decoded();
    slot_of_.clear();
    content_.clear();
    position_.clear();
    positions_ = 0;
}

POSENC_MINSIZE void IdentityRetriever::ensure_positions(std::size_t count, double base, Layout layout) {
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

POSENC_MINSIZE void IdentityRetriever::retrieve(const float* e, const std::uint64_t* keys, const std::uint32_t* truth, std::size_t n,
                                 float alpha, bool additive, double base, Layout layout, Retrieved* out) {
    // Content rows for the keys not cached yet, computed together: each new key gets the next
    // slot. If that overflows the cache, it is emptied and filled again (once: a single call may
    // exceed the bound).
    std::size_t first_slot = slot_of_.size();
    pending_.clear();
    for (std::size_t p = 0; p < n; ++p) {
        bool inserted = false;
        slot_of_.find_or_insert(keys[p], first_slot + pending_.size(), inserted);
        if (inserted) pending_.push_back(p);
        if (first_slot > 0 && slot_of_.size() > max_cached_tokens()) {
            forget_decoded();
            slot_of_.clear();
            content_.clear();
            first_slot = 0;
            pending_.clear();
            p = static_cast<std::size_t>(-1);  // start over
        }
    }
    if (!pending_.empty()) {
        const std::size_t m = pending_.size();
        scratch_.resize(m * d_);
        for (std::size_t i = 0; i < m; ++i) {
            const float* row = e + pending_[i] * d_;
            std::copy(row, row + d_, scratch_.data() + i * d_);
        }
        content_.resize((first_slot + m) * v_);
        attention_scores(scratch_.data(), vocab_, m, v_, d_, 1.0f, false, content_.data() + first_slot * v_);
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
        if (!additive && zeros_.size() != v_) zeros_.assign(v_, 0.0f);
        const float* position = additive ? position_.data() + p * v_ : zeros_.data();
        out[p] = decode_scores(content, alpha, position, v_, x_norm, t);
        m = Decoded{true, keys[p], alpha, t, out[p]};
    }
}

}  // namespace posenc
