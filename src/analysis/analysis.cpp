#include "analysis/analysis.hpp"

#include <algorithm>

#include "compare/lanes.hpp"
#include "vectors/embedding.hpp"
#include "base/limits.hpp"
#include "analysis/pca.hpp"
#include "vectors/tokenizer.hpp"
#include "vectors/vectors.hpp"

namespace posenc {

const char* Analysis::update(std::string_view text, const WordSource& source, CompareConfig cfg, std::size_t max_tokens,
                             bool pe_tables, bool skip_repeat) {
    repeated_ = false;
    const std::size_t d = source.set ? source.set->dim : source.synthetic_d;
    if (max_tokens < 1 || max_tokens > limits::kMaxCompareTokens)
        return limits::limit_message("maxTokens must be between 1 and ", limits::kMaxCompareTokens);
    if (!source.set && (d < 2 || d % 2 != 0 || d > limits::kMaxDim))
        return limits::limit_message("d must be an even number from 2 to ", limits::kMaxDim);
    std::vector<std::string> all = tokenize(text, source.set);
    const std::size_t total = all.size();
    all.resize(std::min(all.size(), max_tokens));
    const std::size_t n = all.size();
    cfg.n = n;
    cfg.d = d;
    if (n > 0) {
        if (const char* e = validate(cfg)) {
            tokens_.clear();
            words_rows_ = 0;
            return e;
        }
    }
    // Same settings (the caller's word), source and tokens: the same results, already here. A call
    // refused for its settings cleared tokens_, so the call after it is never a repeat.
    if (skip_repeat && n > 0 && source.set == last_set_ && d == d_ && total == total_tokens_ && all == tokens_) {
        repeated_ = true;
        return nullptr;
    }
    total_tokens_ = total;
    // The rows kept: those of the leading tokens equal to the last call's, from the same source.
    std::size_t same = 0;
    if (source.set == last_set_ && d == d_) {
        const std::size_t limit = std::min(n, tokens_.size());
        while (same < limit && all[same] == tokens_[same]) ++same;
    }
    tokens_ = std::move(all);
    d_ = d;
    last_set_ = source.set;
    words_rows_ = std::min(words_rows_, same);
    embed(source, same);
    if (n == 0) return nullptr;
    const bool concat_words = has(cfg.schemes, Scheme::concatenated) && source.set && source.pca;
    if (concat_words) {
        words_.resize(n * d);
        if (words_rows_ < n) {
            source.pca->project(embeddings_.data() + words_rows_ * d, n - words_rows_, d, words_.data() + words_rows_ * d);
        }
        words_rows_ = n;
    }
    compare(cfg, embeddings_.data(), result_, concat_words ? words_.data() : nullptr);
    make_pe_tables(cfg, pe_tables);
    return nullptr;
}

void Analysis::make_pe_tables(const CompareConfig& cfg, bool wanted) {
    pe_from_lanes_ = wanted && has(cfg.schemes, Scheme::additive);
    pe_concat_from_lanes_ = wanted && has(cfg.schemes, Scheme::concatenated);
    if (wanted && !pe_from_lanes_) detail::extend_table(pe_, pe_key_, cfg.n, cfg.d, cfg.base, cfg.layout);
    if (!wanted) pe_.clear();
    // d_pos is checked only when concatenated is chosen: an unusable one leaves no table.
    const bool d_pos_valid = cfg.d_pos >= 2 && cfg.d_pos % 2 == 0 && cfg.d_pos <= limits::kMaxDim;
    if (wanted && !pe_concat_from_lanes_ && d_pos_valid) {
        detail::extend_table(pe_concat_, pe_concat_key_, cfg.n, cfg.d_pos, cfg.base, cfg.layout);
    } else if (!pe_concat_from_lanes_) {
        pe_concat_.clear();
    }
}

// Rows [from, n) of embeddings and unknown for tokens_.
void Analysis::embed(const WordSource& source, std::size_t from) {
    const std::size_t n = tokens_.size();
    const std::size_t d = d_;
    embeddings_.resize(n * d);
    unknown_.resize(n);
    for (std::size_t p = from; p < n; ++p) {
        float* row = embeddings_.data() + p * d;
        const std::int64_t found = source.set ? source.set->find(tokens_[p]) : -1;
        unknown_[p] = source.set && found < 0;
        if (found >= 0) {
            std::copy_n(source.set->rows.data() + static_cast<std::size_t>(found) * d, d, row);
            continue;
        }
        synthetic_embedding(hash_token(tokens_[p]), d, row);
        if (!source.set) continue;
        // As the JS API scales a hashed vector: the product in double, rounded once to float.
        const double rms = source.set->component_rms;
        for (std::size_t j = 0; j < d; ++j) row[j] = static_cast<float>(static_cast<double>(row[j]) * rms);
    }
}

}  // namespace posenc
