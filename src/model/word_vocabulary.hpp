// A word-level model's vocabulary: the page tokenizer's tokens (tokenizer.hpp, called without a
// vector set, exactly as lab.tokenize does) mapped to model ids, every other token to the
// unknown id. Its token strings are the weights file's "vocab" (model/safetensors.hpp).
//
// Shapes (V tokens, n tokens of a text):
//   tokens   V strings, id order; exactly one is kUnknownToken, none is empty, none repeats
//   encode   text → n ids in [0, V), one per tokenize() token, same order (n = tokenize(text).size())
// kUnknownToken cannot come out of the tokenizer ('<' is a token of its own), so no word collides
// with it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "model/config.hpp"
#include "vectors/vectors.hpp"

namespace posenc::model {

inline constexpr std::string_view kUnknownToken = "<unk>";

class WordVocabulary {
public:
    // "" and the vocabulary replaced, or a message naming vocab (nothing changes then).
    std::string set(std::vector<std::string> tokens);

    bool empty() const { return tokens_.empty(); }
    std::size_t size() const { return tokens_.size(); }
    const std::vector<std::string>& tokens() const { return tokens_; }
    std::int32_t unknown_id() const { return unknown_; }
    // The id of one token, or unknown_id().
    std::int32_t id(std::string_view token) const;
    // out = the ids of tokenize(text), in order (out is resized to their count).
    void encode(std::string_view text, std::vector<std::int32_t>& out) const;

private:
    std::vector<std::string> tokens_;
    std::unordered_map<std::string, std::int32_t> ids_;
    std::int32_t unknown_ = -1;
};

// The V − 1 tokens of `counts` (token → occurrences in a training text) that `vectors` has,
// most frequent first (ties by byte order, so the choice is a pure function of the counts),
// then kUnknownToken last. Fewer when fewer such tokens exist. V ≥ 2.
std::vector<std::string> frequent_vector_words(const std::unordered_map<std::string, std::size_t>& counts,
                                               const VectorSet& vectors, std::size_t V);

// The input table wte [V, cols] for a frozen-embedding model: row i is vectors' row of token i;
// the unknown token's row is the mean of the vectors' rows outside the vocabulary (the words it
// stands for). cols = vectors.dim, or fewer: then every row is reduced to its first `cols`
// principal coordinates, the axes computed over the vocabulary's word rows (the concatenated
// scheme's smaller word vector, pca.hpp), centred or not (pca). Every token but kUnknownToken
// must be in vectors.
std::vector<float> embedding_rows(const WordVocabulary& vocab, const VectorSet& vectors, std::size_t cols,
                                  WordPca pca = WordPca::centred);

// A word model's frozen input rows (wte, V × cols) as it trains on them and its file stores them:
// embedding_rows, each value rounded to binary16 when the file is F16. The trainer (cli/) and the
// loader of a file that leaves wte out (rebuild_frozen_rows) share it, so a rebuilt wte is the
// trained one bit for bit.
std::vector<float> frozen_rows(const WordVocabulary& vocab, const VectorSet& vectors, std::size_t cols, bool f16,
                               WordPca pca = WordPca::centred);

struct LoadedWeights;
// A file read with its wte left out (LoadedWeights::wte_missing) gets wte back from the word-vector
// set it was trained on: "" or what is wrong (the vectors' width is not the model's, or they lack
// one of its words).
std::string rebuild_frozen_rows(LoadedWeights& weights, const VectorSet& vectors);

}  // namespace posenc::model
