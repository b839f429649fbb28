// Identity retrieval (docs/ARCHITECTURE.md, "What the page measures", 2) made cheap enough to rerun on every keystroke.
//
// Decoding x_p = α·e_p + PE(p) back to a word by cosine over a v-word unit vocabulary û_r costs
// n·v·d multiply-adds brute force (64 × 20,000 × 100 = 128 M). The algebra
//     x_p·û_r = α·(e_p·û_r) + PE(p)·û_r
// splits it into a content row c_t[r] = e_t·û_r, one per distinct token (tokens repeat across
// keystrokes, so it is cached by a caller-chosen key), and a position row q_p[r] = PE(p)·û_r, one
// per position (cached for one d, base and layout). Results are memoised per position (key,
// alpha and truth unchanged ⇒ same result), so a keystroke that changes one token decodes one.
//
// The answer is defined by exact float scores: s_r = fl(fl(α·c_r) + q_r) with c_r and q_r
// sequential_dot sums (j = 0, 1, … in order, the blocked QKᵀ kernel's rounding), decoded by
// decode_scores' rules. A new row streams the vocabulary, which is memory-bound (20,000 × 100
// floats = 8 MB against a 1 MB L2), so the cached rows hold APPROXIMATE scores from an int8 copy
// of the vocabulary (¼ of the bytes, exact int32 sums) together with a rigorous bound on their
// distance to the exact ones. A decode compares approximate scores with those bounds and computes
// exact scores only for the rows whose interval could change the answer (could be the best, or
// could rank either side of the true word), so best, cosine and rank equal those of the exact
// scores bit for bit. Inputs whose bound is not finite (huge α or vectors) are decoded exactly.
// The scalar core (POSENC_SIMD=0) is compute-bound whatever the bytes, so its rows are exact
// (bound 0) and only rows within rounding of the best or of the truth are rescored.
//
// Shapes and terms:
//   unit_vocab — v×d, rows unit length or zero (normalize_rows in analyses.hpp)
//   e          — n×d unscaled word vectors;  keys — n cache keys (equal key ⇒ equal vector)
//   truth      — n vocabulary rows (kNoTruth for a word outside the vocabulary: rank 0)
//   stride     — d rounded up to a multiple of 8 (one int16 lane group); codes are zero-padded
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "encodings/phases.hpp"

namespace posenc {

inline constexpr std::uint32_t kNoTruth = 0xffffffffu;

struct Retrieved {
    std::uint32_t best = 0;   // nearest row
    float cosine = 0.0f;      // its cosine with x
    std::uint32_t rank = 0;   // 1-based rank of the true row (1 = decoded correctly); 0 without truth
};

// Nearest row by score s_r = alpha·content[r] + position[r] (position may be null: s = alpha·content),
// ties to the lower row; cosine = s_best / x_norm (0 when x_norm is 0). rank counts rows with a
// higher score, plus equal ones before truth.
Retrieved decode_scores(const float* content, float alpha, const float* position, std::size_t v, float x_norm,
                        std::uint32_t truth);

// Σ_j a[j]·b[j] in float, j = 0 … d−1 in order: the exact score every decoded answer rests on.
float sequential_dot(const float* a, const float* b, std::size_t d);

// ---- int8 vocabulary and int16 queries ------------------------------------------------------
// Row r ≈ scales[r]·codes[r] with scales[r] = max_j |û_r[j]| / 127 (a PELVEC01 file's own
// quantisation, data/README.md, so GloVe's codes come back exactly); a query x ≈ scale·codes with
// |codes| ≤ limit, limit a multiple of 127 (an int8-quantised vector is then represented exactly)
// small enough that Σ_j |code_x·code_r| < 2^31.
struct QuantizedRows {
    std::size_t v = 0, d = 0, stride = 0;
    std::vector<std::int8_t> codes;  // v×stride
    std::vector<float> scales;       // v
    double residual = 0.0;           // ≥ max_r ‖û_r − scales[r]·codes[r]‖
    double norm = 0.0;               // ≥ max_r ‖û_r‖
};
void quantize_rows(const float* rows, std::size_t v, std::size_t d, QuantizedRows& out);

struct QuantizedQuery {
    std::vector<std::int16_t> codes;  // stride
    float scale = 0.0f;
    double residual = 0.0;            // ≥ ‖x − scale·codes‖
    double norm = 0.0;                // ≥ ‖x‖
};
std::int32_t query_code_limit(std::size_t stride);
void quantize_query(const float* x, const QuantizedRows& rows, QuantizedQuery& out);

// out[r − r0] = (float(I_r)·scales[r])·q.scale for r in [r0, r1), I_r = Σ_j q.codes[j]·codes[r][j]
// (exact in int32). The SIMD and scalar paths give the same bits.
void approximate_scores(const QuantizedRows& rows, const QuantizedQuery& q, std::size_t r0, std::size_t r1,
                        float* out);

// E ≥ |sequential_dot(x, û_r) − approximate score r| for every row r (float rounding of both,
// quantisation of both, underflow); +∞ when the inputs are too large for the bound to hold.
double approximate_score_bound(const QuantizedRows& rows, const QuantizedQuery& q);

class IdentityRetriever {
public:
    // Borrows unit_vocab (it must outlive the retriever or the next set_vocabulary) and builds the
    // int8 copy (v·stride bytes); clears caches.
    void set_vocabulary(const float* unit_vocab, std::size_t v, std::size_t d);

    // Decodes x_p = alpha·e_p + PE(p) (additive = true; PE with base and layout) or x_p = alpha·e_p (additive = false: rotary's input, or any scheme
    // whose word part carries no position) for p < n. Requires d = the vocabulary's d.
    void retrieve(const float* e, const std::uint64_t* keys, const std::uint32_t* truth, std::size_t n, float alpha,
                  bool additive, double base, Layout layout, Retrieved* out);

    std::size_t cached_tokens() const { return slot_of_.size(); }
    std::size_t cached_positions() const { return positions_; }
    // Rows scored exactly by the last retrieve() (candidates for best or rank; v per fallback).
    std::size_t last_exact_rows() const { return exact_rows_; }
    void clear();

    // Bounds the content cache (rows of v floats): at most kMaxCachedTokens rows and at most
    // kMaxCachedFloats floats (32 MiB; 419 rows at v = 20,000). Reaching it evicts the rows used
    // longest ago, never one the current call needs: a single call with more distinct tokens
    // than that keeps them all (the bound is then exceeded until the next call evicts).
    static constexpr std::size_t kMaxCachedTokens = 1024;
    static constexpr std::size_t kMaxCachedFloats = std::size_t{8} << 20;
    std::size_t max_cached_tokens() const;

private:
    // An approximate score row and the bounds a decode needs: |exact − row[r]| ≤ bound and
    // |exact|, |row[r]| ≤ magnitude for every r.
    struct ScoreRow {
        std::vector<float> values;  // v
        double bound = 0.0, magnitude = 0.0;
    };
    struct Slot {
        std::uint64_t key = 0;
        std::uint64_t used = 0;  // call counter when last needed
        bool live = false;
        ScoreRow row;
    };
    // Approximate rows for the queries (rows of d floats), a vocabulary chunk at a time so that
    // several queries share each chunk's trip from memory.
    void score_rows(const std::vector<const float*>& queries, const std::vector<ScoreRow*>& rows);
    void ensure_positions(std::size_t count, double base, Layout layout);
    void make_room(std::size_t needed);
    Retrieved decode(const float* e, const float* pe, float alpha, const ScoreRow& content, const ScoreRow* position,
                     float x_norm, std::uint32_t truth);
    Retrieved decode_exactly(const float* e, const float* pe, float alpha, float x_norm, std::uint32_t truth);
    // The true row and its exact score, the window [lo, hi] outside which the bounds decide a row
    // against it, and the rows above hi.
    struct Truth {
        bool known = false;
        std::uint32_t row = 0;
        float score = 0.0f, lo = 0.0f, hi = 0.0f;
        std::uint32_t above = 0;
    };
    Retrieved rank_candidates(const float* e, const float* pe, float alpha, const float* c, const float* q,
                              const Truth& t, float x_norm);

    const float* vocab_ = nullptr;
    std::size_t v_ = 0, d_ = 0;
    QuantizedRows quantized_;
    std::vector<QuantizedQuery> quantized_queries_;  // one per row being computed (reused)
    // key → content slot: open addressing with linear probing (a few lines of code instead of
    // std::unordered_map's, which the size-budgeted wasm cores notice). Rebuilt on eviction.
    class SlotMap {
    public:
        std::size_t size() const { return count_; }
        void clear();
        // The key's slot, inserting `slot` for a new key; `inserted` tells which.
        std::size_t find_or_insert(std::uint64_t key, std::size_t slot, bool& inserted);
        std::size_t find(std::uint64_t key) const;  // kNone when absent
        static constexpr std::size_t kNone = static_cast<std::size_t>(-1);

    private:
        std::size_t probe(std::uint64_t key) const;  // the key's index or the empty one it would take
        std::vector<std::uint64_t> keys_;
        std::vector<std::size_t> slots_;  // kNone where free
        std::size_t count_ = 0;
    };
    SlotMap slot_of_;
    std::vector<Slot> slots_;
    std::vector<std::size_t> free_slots_;
    std::uint64_t calls_ = 0;
    std::vector<ScoreRow> position_rows_;  // positions_ rows (capacity kept across clears)
    std::vector<float> pe_;                // positions_×d sinusoidal rows
    std::size_t positions_ = 0;
    double base_ = 0.0;
    Layout layout_ = Layout::interleaved;
    struct Decoded {
        bool valid = false;
        std::uint64_t key = 0;
        float alpha = 0.0f;
        std::uint32_t truth = kNoTruth;
        Retrieved result;
    };
    void forget_decoded() { memo_[0].clear(); memo_[1].clear(); }
    std::size_t find_pending(const std::uint64_t* keys, const std::uint32_t* truth, std::size_t n, float alpha,
                             const std::vector<Decoded>& memo, Retrieved* out);
    void cache_content_rows(const float* e, const std::uint64_t* keys, std::size_t unknown);
    std::vector<Decoded> memo_[2];    // per position: [plain, additive]
    std::vector<float> x_;            // one query row
    std::vector<float> exact_c_, exact_q_;  // v: the exact fallback's rows
    std::vector<std::uint32_t> candidates_;  // rows a decode scores exactly
    std::vector<std::size_t> pending_;       // token positions to decode this call
    std::vector<const float*> queries_;
    std::vector<ScoreRow*> targets_;
    std::size_t exact_rows_ = 0;
};

}  // namespace posenc
