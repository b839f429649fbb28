// One keystroke's work in one call: text → tokens → word vectors → the concatenated scheme's PCA
// word part → every chosen lane (compare.hpp), with one cache keyed by the tokens.
//
// Shapes (n tokens kept, at most max_tokens; d the word vectors' width):
//   tokens      — n strings (tokenizer.hpp, with the set's vocabulary when there is one)
//   unknown     — n flags, 1 for a token outside the set (always 0 for synthetic vectors)
//   embeddings  — n×d unscaled word vectors: the set's row of a known word; an unknown one's
//                 hashed N(0, 1) vector (embedding.hpp) times the set's component RMS, rounded to
//                 float from double (what WordVectorSet.embed gives); synthetic: the hashed vector
//   words       — n×d PCA coordinates of embeddings (Pca::project, all d axes), only when the
//                 concatenated scheme is chosen and a set with its PCA is given; else empty
//   result      — compare()'s lanes for these embeddings (compare.hpp)
//   pe, pe_concat — with pe_tables: the sinusoidal tables n×d and n×d_pos (base, layout) that the
//                 PE figure shows, the lanes' own when additive or concatenated is chosen, else
//                 made here (rows kept while d, base and layout stay the same); else empty
// Cache: position p keeps its embeddings and words rows while the tokens [0, p] equal the last
// call's and the source (set, d) is the same — a row depends on its token alone, so typing at the
// end of a sentence computes only the new token's rows. compare() then reuses the products of the
// rows its inputs share with the last call (compare.hpp, row reuse). Results are bit-identical to
// a fresh Analysis.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "compare/compare.hpp"

namespace posenc {

struct VectorSet;
struct Pca;

// Where the word vectors come from: a loaded set (and its PCA, needed only by the concatenated
// scheme; nullptr keeps the leading coordinates), or synthetic vectors of width synthetic_d.
struct WordSource {
    const VectorSet* set = nullptr;
    const Pca* pca = nullptr;
    std::size_t synthetic_d = 0;
};

class Analysis {
public:
    // cfg: every compare() field but n and d, which the text and the source decide. Returns
    // nullptr on success, else a message naming what is wrong (the last result is then empty).
    // An empty text (no tokens) is valid: n = 0 and no lanes.
    // skip_repeat: the caller vouches that cfg and pe_tables are the last successful call's. If
    // the text then gives that call's tokens again (and total) from the same source, and it had
    // tokens, nothing is computed: every product stands as it was, and repeated() says so. A space
    // typed after a word is such a call, and at n = 512 the lanes cost milliseconds.
    const char* update(std::string_view text, const WordSource& source, CompareConfig cfg, std::size_t max_tokens,
                       bool pe_tables = false, bool skip_repeat = false);
    bool repeated() const { return repeated_; }  // the last update computed nothing (see above)

    const std::vector<std::string>& tokens() const { return tokens_; }
    std::size_t total_tokens() const { return total_tokens_; }  // before the cut to max_tokens
    const std::vector<std::uint8_t>& unknown() const { return unknown_; }
    const std::vector<float>& embeddings() const { return embeddings_; }
    const std::vector<float>& words() const { return words_; }
    std::size_t d() const { return d_; }
    const CompareResult& result() const { return result_; }
    const std::vector<float>& pe() const { return pe_from_lanes_ ? result_.pe : pe_; }
    const std::vector<float>& pe_concat() const { return pe_concat_from_lanes_ ? result_.pe_concat : pe_concat_; }

private:
    void embed(const WordSource& source, std::size_t from);
    void make_pe_tables(const CompareConfig& cfg, bool wanted);

    std::vector<std::string> tokens_;
    std::size_t total_tokens_ = 0, d_ = 0;
    std::vector<std::uint8_t> unknown_;
    std::vector<float> embeddings_, words_;
    std::size_t words_rows_ = 0;         // leading rows of words_ that are current
    const VectorSet* last_set_ = nullptr;
    CompareResult result_;
    std::vector<float> pe_, pe_concat_;
    CompareCache::TableKey pe_key_, pe_concat_key_;
    bool pe_from_lanes_ = false, pe_concat_from_lanes_ = false;
    bool repeated_ = false;
};

}  // namespace posenc
