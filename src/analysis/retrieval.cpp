#include "analysis/retrieval.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "analysis/bounds.hpp"
#include "attention/attention.hpp"
#include "base/simd.hpp"
#include "encodings/sinusoidal.hpp"

// Bookkeeping, not hot loops (those are approximate_scores, the decode passes and
// sequential_dot): compiled for size, which keeps the size-budgeted wasm cores small.
#if defined(__clang__)
#define POSENC_MINSIZE __attribute__((minsize))
#else
#define POSENC_MINSIZE
#endif

namespace posenc {

using namespace retrieval_bounds;

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
        alignas(64) float lanes[kLanes];
        store(lanes, top);
        for (float lane : lanes) c.best = max_of(c.best, lane);
        alignas(64) std::int32_t counts[kLanes];
        gt.store_aligned(counts);
        for (std::int32_t k : counts) c.greater += static_cast<std::uint32_t>(-k);
        ge.store_aligned(counts);
        for (std::int32_t k : counts) c.at_least += static_cast<std::uint32_t>(-k);
    }
#endif
    POSENC_SCALAR_TAIL
    for (; r < v; ++r) {
        const float s = alpha * content[r] + position[r];
        c.best = max_of(c.best, s);
        c.greater += s > s_truth;
        c.at_least += s >= s_truth;
    }
    return c;
}

// Nearest float at or above / at or below x.
float round_up(double x) {
    float f = static_cast<float>(x);
    if (static_cast<double>(f) < x) f = std::nextafter(f, std::numeric_limits<float>::infinity());
    return f;
}
float round_down(double x) {
    float f = static_cast<float>(x);
    if (static_cast<double>(f) > x) f = std::nextafter(f, -std::numeric_limits<float>::infinity());
    return f;
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

float sequential_dot(const float* a, const float* b, std::size_t d) {
    float sum = 0.0f;
    for (std::size_t j = 0; j < d; ++j) sum = sum + a[j] * b[j];
    return sum;
}

namespace {
// sequential_dot(x, vocab row) for each listed row (rows = null: rows 0 … count − 1); four rows
// side by side so that four independent sums hide the add latency (each keeps its own order).
void sequential_dots(const float* x, const float* vocab, std::size_t d, const std::uint32_t* rows, std::size_t count,
                     float* out) {
    const auto row = [&](std::size_t i) { return vocab + (rows ? std::size_t{rows[i]} : i) * d; };
    std::size_t i = 0;
    for (; i + 4 <= count; i += 4) sequential_dots4(x, row(i), row(i + 1), row(i + 2), row(i + 3), d, out + i);
    for (; i < count; ++i) out[i] = sequential_dot(x, row(i), d);
}
}  // namespace


// ---- the retriever ------------------------------------------------------------------------------

namespace {
// Σ x_j² in double; not inlined (see quantize_row).
[[maybe_unused]] __attribute__((noinline)) double squared_norm(const float* x, std::size_t d) {
    double sum = 0.0;
    for (std::size_t j = 0; j < d; ++j) sum += static_cast<double>(x[j]) * x[j];
    return sum;
}
}  // namespace

POSENC_MINSIZE void IdentityRetriever::set_vocabulary(const float* unit_vocab, std::size_t v, std::size_t d) {
    vocab_ = unit_vocab;
    v_ = unit_vocab ? v : 0;
    d_ = unit_vocab ? d : 0;
    // A new vocabulary: release the rows of the old one.
    slots_ = {};
    free_slots_ = {};
    position_rows_ = {};
    quantized_ = {};
#if POSENC_SIMD
    if (vocab_) quantize_rows(vocab_, v_, d_, quantized_);
#else
    // The scalar core scores rows exactly (score_rows) and needs only max ‖û_r‖.
    double largest = 0.0;
    for (std::size_t r = 0; r < v_; ++r) largest = std::max(largest, squared_norm(vocab_ + r * d_, d_));
    quantized_.norm = std::sqrt(largest) * kInflate;
#endif
    clear();
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
    while (slots_[i] != kNone && keys_[i] != key) i = (i + 1) & mask;
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
        slots_.assign(capacity, kNone);
        for (std::size_t i = 0; i < old_keys.size(); ++i) {
            if (old_slots[i] == kNone) continue;
            const std::size_t j = probe(old_keys[i]);
            keys_[j] = old_keys[i];
            slots_[j] = old_slots[i];
        }
    }
    const std::size_t i = probe(key);
    inserted = slots_[i] == kNone;
    if (inserted) {
        keys_[i] = key;
        slots_[i] = slot;
        ++count_;
    }
    return slots_[i];
}

POSENC_MINSIZE std::size_t IdentityRetriever::SlotMap::find(std::uint64_t key) const {
    return keys_.empty() ? kNone : slots_[probe(key)];
}

POSENC_MINSIZE std::size_t IdentityRetriever::max_cached_tokens() const {
    const std::size_t by_floats = v_ ? kMaxCachedFloats / v_ : kMaxCachedTokens;
    return std::max<std::size_t>(1, std::min(kMaxCachedTokens, by_floats));
}

POSENC_MINSIZE void IdentityRetriever::clear() {
    forget_decoded();
    slot_of_.clear();
    // Rows stay allocated for reuse (a cold recompute then writes into memory it already has).
    free_slots_.clear();
    for (std::size_t s = slots_.size(); s-- > 0;) {
        slots_[s].live = false;
        free_slots_.push_back(s);
    }
    positions_ = 0;
    pe_.clear();
}

// Evicts the rows used longest ago, never one marked for this call, until `needed` new rows fit
// the bound (or nothing more may go).
POSENC_MINSIZE void IdentityRetriever::make_room(std::size_t needed) {
    const std::size_t limit = max_cached_tokens();
    std::size_t live = slot_of_.size();
    if (live + needed <= limit) return;
    std::vector<std::size_t> old;
    for (std::size_t s = 0; s < slots_.size(); ++s) {
        if (slots_[s].live && slots_[s].used < calls_) old.push_back(s);
    }
    std::sort(old.begin(), old.end(), [&](std::size_t a, std::size_t b) { return slots_[a].used < slots_[b].used; });
    for (std::size_t s : old) {
        if (live + needed <= limit) break;
        slots_[s].live = false;
        free_slots_.push_back(s);
        --live;
    }
    slot_of_.clear();
    bool inserted = false;
    for (std::size_t s = 0; s < slots_.size(); ++s) {
        if (slots_[s].live) slot_of_.find_or_insert(slots_[s].key, s, inserted);
    }
}

void IdentityRetriever::score_rows(const std::vector<const float*>& queries, const std::vector<ScoreRow*>& rows) {
    const std::size_t m = queries.size();
    if (m == 0) return;
    const double gamma = static_cast<double>(d_) * kUnit / (1.0 - static_cast<double>(d_) * kUnit);
#if POSENC_SIMD
    if (quantized_queries_.size() < m) quantized_queries_.resize(m);
    std::vector<QuantizedQuery>& quantized = quantized_queries_;
    for (std::size_t i = 0; i < m; ++i) {
        quantize_query(queries[i], quantized_, quantized[i]);
        ScoreRow& row = *rows[i];
        row.values.resize(v_);
        row.bound = approximate_score_bound(quantized_, quantized[i]);
        // |exact| ≤ n_x·N·(1 + γ_d) + underflow, and |approximate| ≤ |exact| + bound.
        row.magnitude = (quantized[i].norm * quantized_.norm * (1.0 + gamma) + row.bound + 0x1p-130) * kInflate;
    }
    // Chunks of ~128 KB of codes stay in L2 while every query passes over them.
    const std::size_t chunk = m == 1 ? v_ : std::max<std::size_t>(64, (std::size_t{128} << 10) / quantized_.stride);
    for (std::size_t r0 = 0; r0 < v_; r0 += chunk) {
        const std::size_t r1 = std::min(v_, r0 + chunk);
        for (std::size_t i = 0; i < m; ++i) approximate_scores(quantized_, quantized[i], r0, r1, rows[i]->values.data() + r0);
    }
#else
    // Without SIMD the pass is compute-bound whatever the bytes (measured: the int8 pass was no
    // faster in the scalar wasm core), so rows are scored exactly: bound 0, and a decode rescores
    // only rows within float rounding of the best or of the truth.
    for (std::size_t i = 0; i < m; ++i) {
        ScoreRow& row = *rows[i];
        row.values.resize(v_);
        const double norm = squared_norm(queries[i], d_);
        row.bound = 0.0;
        row.magnitude = (std::sqrt(norm) * kInflate * quantized_.norm * (1.0 + gamma) + 0x1p-130) * kInflate;
        sequential_dots(queries[i], vocab_, d_, nullptr, v_, row.values.data());
    }
#endif
}

POSENC_MINSIZE void IdentityRetriever::ensure_positions(std::size_t count, double base, Layout layout) {
    if (base != base_ || layout != layout_) {
        forget_decoded();
        positions_ = 0;
        pe_.clear();
        base_ = base;
        layout_ = layout;
    }
    if (count <= positions_) return;
    // Rows start..count−1 of the table; row p depends on p only, so they equal those of a table
    // computed from 0 in one go.
    const std::size_t start = positions_;
    pe_.resize(count * d_);
    sinusoidal_table(count - start, d_, base, layout, pe_.data() + start * d_, static_cast<double>(start));
    if (position_rows_.size() < count) position_rows_.resize(count);
    for (std::size_t p = start; p < count; ++p) {
        queries_.push_back(pe_.data() + p * d_);
        targets_.push_back(&position_rows_[p]);
    }
    positions_ = count;
}

Retrieved IdentityRetriever::decode_exactly(const float* e, const float* pe, float alpha, float x_norm,
                                            std::uint32_t truth) {
    exact_c_.resize(v_);
    for (std::size_t r = 0; r < v_; ++r) exact_c_[r] = sequential_dot(e, vocab_ + r * d_, d_);
    if (pe) {
        exact_q_.resize(v_);
        for (std::size_t r = 0; r < v_; ++r) exact_q_[r] = sequential_dot(pe, vocab_ + r * d_, d_);
    }
    exact_rows_ += v_;
    return decode_scores(exact_c_.data(), alpha, pe ? exact_q_.data() : nullptr, v_, x_norm, truth);
}

namespace {
// Pass 1 over approximate scores s̃_r = alpha·c̃[r] (+ q̃[r]): the largest, and how many exceed hi.
template <bool kPosition>
float scan_scores(const float* c, const float* q, float alpha, std::size_t v, float hi, std::uint32_t& above) {
    float top = -std::numeric_limits<float>::infinity();
    std::uint32_t count = 0;
    std::size_t r = 0;
#if POSENC_SIMD
    if (v >= kLanes) {
        const Batch a(alpha), h(hi);
        Batch best(top);
        IntBatch gt(0);
        for (; r + kLanes <= v; r += kLanes) {
            Batch s = a * load(c + r);
            if (kPosition) s = s + load(q + r);
            best = max_of(best, s);
            gt = gt + to_bits(Batch((s > h).data));  // true lanes are −1
        }
        alignas(64) float lanes[kLanes];
        store(lanes, best);
        for (float lane : lanes) top = max_of(top, lane);
        alignas(64) std::int32_t counts[kLanes];
        gt.store_aligned(counts);
        for (std::int32_t k : counts) count += static_cast<std::uint32_t>(-k);
    }
#endif
    POSENC_SCALAR_TAIL
    for (; r < v; ++r) {
        float s = alpha * c[r];
        if (kPosition) s = s + q[r];
        top = max_of(top, s);
        count += s > hi;
    }
    above = count;
    return top;
}

// Pass 2: the rows with s̃_r ≥ floor (could be the best) or lo ≤ s̃_r ≤ hi (could rank either side
// of the truth), in increasing order.
template <bool kPosition>
void collect_rows(const float* c, const float* q, float alpha, std::size_t v, float floor, float lo, float hi,
                  std::vector<std::uint32_t>& rows) {
    rows.clear();
    std::size_t r = 0;
    const auto keep = [&](std::size_t i) {
        float s = alpha * c[i];
        if (kPosition) s = s + q[i];
        if (s >= floor || (s >= lo && s <= hi)) rows.push_back(static_cast<std::uint32_t>(i));
    };
#if POSENC_SIMD
    const Batch a(alpha), f(floor), l(lo), h(hi);
    for (; r + kLanes <= v; r += kLanes) {
        Batch s = a * load(c + r);
        if (kPosition) s = s + load(q + r);
        if (xsimd::any((s >= f) | ((s >= l) & (s <= h)))) {
            for (std::size_t i = r; i < r + kLanes; ++i) keep(i);
        }
    }
#endif
    POSENC_SCALAR_TAIL
    for (; r < v; ++r) keep(r);
}
}  // namespace

Retrieved IdentityRetriever::decode(const float* e, const float* pe, float alpha, const ScoreRow& content,
                                    const ScoreRow* position, float x_norm, std::uint32_t truth) {
    // |exact − approximate score| ≤ B: |α|·(content error) + position error, plus the two
    // roundings of α·c + q on each side (≤ 2.01u·(|α·c| + |q|) each).
    const double a = std::fabs(static_cast<double>(alpha));
    const double magnitude = a * content.magnitude + (position ? position->magnitude : 0.0);
    const double bound =
        (a * content.bound + (position ? position->bound : 0.0) + 4.02 * kUnit * magnitude + 0x1p-146) * kInflate;
    if (!(magnitude < kTooLarge && bound < kTooLarge)) return decode_exactly(e, pe, alpha, x_norm, truth);

    const float* c = content.values.data();
    const float* q = position ? position->values.data() : nullptr;
    const auto exact = [&](std::uint32_t r) {
        const float* u = vocab_ + std::size_t{r} * d_;
        return alpha * sequential_dot(e, u, d_) + (pe ? sequential_dot(pe, u, d_) : 0.0f);
    };
    const bool has_truth = truth < v_;
    const float s_truth = has_truth ? exact(truth) : 0.0f;
    // Rows scoring above hi certainly beat the truth; below lo certainly do not.
    const float inf = std::numeric_limits<float>::infinity();
    const float hi = has_truth ? round_up(s_truth + bound) : inf;
    const float lo = has_truth ? round_down(s_truth - bound) : inf;
    std::uint32_t above = 0;
    const float top = q ? scan_scores<true>(c, q, alpha, v_, hi, above) : scan_scores<false>(c, q, alpha, v_, hi, above);
    // The best exact score is ≥ top − B, so a row below top − 2B cannot reach it.
    const float floor = round_down(static_cast<double>(top) - 2.0 * bound);
    if (q) {
        collect_rows<true>(c, q, alpha, v_, floor, lo, hi, candidates_);
    } else {
        collect_rows<false>(c, q, alpha, v_, floor, lo, hi, candidates_);
    }

    return rank_candidates(e, pe, alpha, c, q, Truth{has_truth, truth, s_truth, lo, hi, above}, x_norm);
}

// Exact scores of the candidates (ascending rows: ties go to the lower one): the best row, and the
// truth's rank from the rows above it by the bounds plus the undecided rows that beat or tie it.
Retrieved IdentityRetriever::rank_candidates(const float* e, const float* pe, float alpha, const float* c, const float* q,
                                             const Truth& t, float x_norm) {
    const std::size_t count = candidates_.size();
    exact_c_.resize(count);
    exact_q_.resize(count);
    sequential_dots(e, vocab_, d_, candidates_.data(), count, exact_c_.data());
    if (pe) sequential_dots(pe, vocab_, d_, candidates_.data(), count, exact_q_.data());
    exact_rows_ += count;
    Retrieved out;
    float best = -std::numeric_limits<float>::infinity();
    std::uint32_t greater = t.above, ties_before = 0;
    for (std::size_t i = 0; i < count; ++i) {
        const std::uint32_t r = candidates_[i];
        const float s = alpha * exact_c_[i] + (pe ? exact_q_[i] : 0.0f);
        if (i == 0 || s > best) {
            best = s;
            out.best = r;
        }
        if (t.known) {
            const float approximate = q ? alpha * c[r] + q[r] : alpha * c[r];
            if (approximate >= t.lo && approximate <= t.hi) {  // undecided by the bounds alone
                greater += s > t.score;
                ties_before += s == t.score && r < t.row;
            }
        }
    }
    if (t.known) out.rank = greater + ties_before + 1;
    out.cosine = x_norm > 0.0f ? best / x_norm : 0.0f;
    return out;
}

// Positions whose memo does not hold this call's result go to pending_; the others are copied
// out. Returns how many pending keys have no content row cached.
std::size_t IdentityRetriever::find_pending(const std::uint64_t* keys, const std::uint32_t* truth, std::size_t n,
                                            float alpha, const std::vector<Decoded>& memo, Retrieved* out) {
    pending_.clear();
    std::size_t unknown = 0;
    for (std::size_t p = 0; p < n; ++p) {
        const std::uint32_t t = truth ? truth[p] : kNoTruth;
        const Decoded& m = memo[p];
        if (m.valid && m.key == keys[p] && m.alpha == alpha && m.truth == t) {
            out[p] = m.result;
            continue;
        }
        pending_.push_back(p);
        const std::size_t s = slot_of_.find(keys[p]);
        if (s == SlotMap::kNone) {
            ++unknown;
        } else {
            slots_[s].used = calls_;
        }
    }
    return unknown;
}

// Content rows for the pending keys not cached, computed together with any new position rows.
void IdentityRetriever::cache_content_rows(const float* e, const std::uint64_t* keys, std::size_t unknown) {
    make_room(unknown);
    std::vector<std::size_t> new_slots;
    for (std::size_t p : pending_) {
        std::size_t slot = free_slots_.empty() ? slots_.size() : free_slots_.back();
        bool inserted = false;
        slot = slot_of_.find_or_insert(keys[p], slot, inserted);
        if (!inserted) continue;
        if (slot == slots_.size()) {
            slots_.emplace_back();
        } else {
            free_slots_.pop_back();
        }
        slots_[slot].key = keys[p];
        slots_[slot].used = calls_;
        slots_[slot].live = true;
        queries_.push_back(e + p * d_);
        new_slots.push_back(slot);
    }
    for (std::size_t s : new_slots) targets_.push_back(&slots_[s].row);  // slots_ no longer grows
    score_rows(queries_, targets_);
}

void IdentityRetriever::retrieve(const float* e, const std::uint64_t* keys, const std::uint32_t* truth, std::size_t n,
                                 float alpha, bool additive, double base, Layout layout, Retrieved* out) {
    ++calls_;
    exact_rows_ = 0;
    queries_.clear();
    targets_.clear();
    if (additive) ensure_positions(n, base, layout);

    // A token whose key, position and alpha are unchanged since the last call decodes to the same
    // result (its rows, and so its exact scores, are the same): only changed tokens are decoded.
    std::vector<Decoded>& memo = memo_[additive ? 1 : 0];
    if (memo.size() < n) memo.resize(n);
    cache_content_rows(e, keys, find_pending(keys, truth, n, alpha, memo, out));

    x_.resize(d_);
    for (std::size_t p : pending_) {
        const std::uint32_t t = truth ? truth[p] : kNoTruth;
        const float* ep = e + p * d_;
        const float* pe = additive ? pe_.data() + p * d_ : nullptr;
        for (std::size_t j = 0; j < d_; ++j) x_[j] = additive ? alpha * ep[j] + pe[j] : alpha * ep[j];
        const float x_norm = std::sqrt(dot(x_.data(), x_.data(), d_));
        const Slot& slot = slots_[slot_of_.find(keys[p])];
        out[p] = decode(ep, pe, alpha, slot.row, additive ? &position_rows_[p] : nullptr, x_norm, t);
        memo[p] = Decoded{true, keys[p], alpha, t, out[p]};
    }
}

}  // namespace posenc
