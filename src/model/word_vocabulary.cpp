#include "model/word_vocabulary.hpp"

#include <algorithm>

#include "analysis/pca.hpp"
#include "base/limits.hpp"
#include "model/safetensors.hpp"
#include "vectors/tokenizer.hpp"

namespace posenc::model {

std::string WordVocabulary::set(std::vector<std::string> tokens) {
    if (tokens.size() < 2 || tokens.size() > kMaxVocab)
        return limits::limit_message("vocab must hold 2 to ", kMaxVocab, " token strings");
    std::unordered_map<std::string, std::int32_t> ids;
    std::int32_t unknown = -1;
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        if (tokens[i].empty()) return "vocab has an empty token (id " + std::to_string(i) + ")";
        if (!ids.emplace(tokens[i], static_cast<std::int32_t>(i)).second)
            return "vocab repeats the token \"" + tokens[i] + "\"";
        if (tokens[i] == kUnknownToken) unknown = static_cast<std::int32_t>(i);
    }
    if (unknown < 0) return "vocab has no unknown token " + std::string(kUnknownToken);
    tokens_ = std::move(tokens);
    ids_ = std::move(ids);
    unknown_ = unknown;
    return {};
}

std::int32_t WordVocabulary::id(std::string_view token) const {
    const auto it = ids_.find(std::string(token));
    return it == ids_.end() ? unknown_ : it->second;
}

void WordVocabulary::encode(std::string_view text, std::vector<std::int32_t>& out) const {
    const std::vector<std::string> words = tokenize(text);
    out.resize(words.size());
    for (std::size_t i = 0; i < words.size(); ++i) out[i] = id(words[i]);
}

std::vector<std::string> frequent_vector_words(const std::unordered_map<std::string, std::size_t>& counts,
                                               const VectorSet& vectors, std::size_t V) {
    std::vector<std::pair<std::size_t, std::string>> known;
    for (const auto& [word, count] : counts)
        if (vectors.find(word) >= 0) known.emplace_back(count, word);
    const std::size_t keep = std::min(known.size(), V - 1);
    const auto more_frequent = [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first > b.first : a.second < b.second;
    };
    std::partial_sort(known.begin(), known.begin() + static_cast<std::ptrdiff_t>(keep), known.end(), more_frequent);
    std::vector<std::string> words;
    for (std::size_t i = 0; i < keep; ++i) words.push_back(known[i].second);
    words.emplace_back(kUnknownToken);
    return words;
}

namespace {

// embedding_rows before any reduction (V × vectors.dim); words: the vocabulary's word rows (for
// the principal axes).
std::vector<float> unreduced_rows(const WordVocabulary& vocab, const VectorSet& vectors, std::vector<float>& words) {
    const std::size_t d = vectors.dim, V = vocab.size();
    std::vector<float> full(V * d, 0.0f);
    std::vector<bool> in_vocab(vectors.count, false);
    for (std::size_t i = 0; i < V; ++i) {
        if (static_cast<std::int32_t>(i) == vocab.unknown_id()) continue;
        const auto row = static_cast<std::size_t>(vectors.find(vocab.tokens()[i]));
        in_vocab[row] = true;
        std::copy_n(vectors.rows.begin() + static_cast<std::ptrdiff_t>(row * d), d, full.begin() + static_cast<std::ptrdiff_t>(i * d));
        words.insert(words.end(), full.begin() + static_cast<std::ptrdiff_t>(i * d), full.begin() + static_cast<std::ptrdiff_t>((i + 1) * d));
    }
    std::vector<double> mean(d, 0.0);
    std::size_t others = 0;
    for (std::size_t r = 0; r < vectors.count; ++r) {
        if (in_vocab[r]) continue;
        ++others;
        for (std::size_t j = 0; j < d; ++j) mean[j] += vectors.rows[r * d + j];
    }
    float* unknown = full.data() + static_cast<std::size_t>(vocab.unknown_id()) * d;
    for (std::size_t j = 0; j < d; ++j) unknown[j] = others ? static_cast<float>(mean[j] / static_cast<double>(others)) : 0.0f;
    return full;
}

void round_to_f16(std::vector<float>& rows) {
    for (float& x : rows) x = from_f16(to_f16(x));
}

}  // namespace

std::vector<float> embedding_rows(const WordVocabulary& vocab, const VectorSet& vectors, std::size_t cols,
                                  WordPca centring) {
    const std::size_t d = vectors.dim, V = vocab.size();
    std::vector<float> words;
    std::vector<float> full = unreduced_rows(vocab, vectors, words);
    if (cols >= d) return full;
    const Pca pca = principal_components(words.data(), words.size() / d, d, centring == WordPca::centred);
    std::vector<float> reduced(V * cols);
    pca.project(full.data(), V, cols, reduced.data());
    return reduced;
}

std::vector<float> frozen_rows(const WordVocabulary& vocab, const VectorSet& vectors, std::size_t cols, bool f16,
                               WordPca pca) {
    std::vector<float> rows = embedding_rows(vocab, vectors, cols, pca);
    if (f16) round_to_f16(rows);
    return rows;
}

std::string rebuild_frozen_rows(LoadedWeights& weights, const VectorSet& vectors) {
    const ModelConfig& cfg = weights.config;
    if (vectors.dim != cfg.d)
        return "word vectors: " + std::to_string(vectors.dim) + " wide, the model's d is " + std::to_string(cfg.d);
    WordVocabulary vocab;
    if (std::string e = vocab.set(weights.vocab); !e.empty()) return "weights file: " + e;
    for (std::size_t i = 0; i < vocab.size(); ++i) {
        if (static_cast<std::int32_t>(i) != vocab.unknown_id() && vectors.find(vocab.tokens()[i]) < 0)
            return "word vectors: no row for the model's word \"" + vocab.tokens()[i] + "\" (not the vectors it was trained on)";
    }
    for (const TensorSpec& spec : parameter_specs(cfg)) {
        if (spec.name != "wte.weight") continue;
        // PCA-reduced rows (the concatenated scheme) differ by a few ulps between the SIMD and
        // scalar cores, enough to move binary16 roundings: only unreduced rows are rebuilt.
        if (spec.cols != vectors.dim) return "weights file: tensor wte.weight is missing (only unreduced rows are rebuilt from word vectors)";
        // frozen_rows for cols = vectors.dim, without linking the PCA it never needs here.
        std::vector<float> words;
        std::vector<float> rows = unreduced_rows(vocab, vectors, words);
        if (weights.f16) round_to_f16(rows);
        std::copy(rows.begin(), rows.end(), weights.params.begin() + static_cast<std::ptrdiff_t>(spec.offset));
    }
    weights.wte_missing = false;
    return {};
}

}  // namespace posenc::model
