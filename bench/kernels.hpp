// One benchmark case (kernel inputs for a given n and d) shared by the native and wasm benchmark
// drivers, so all variants time the same calls on the same data.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "model/transformer.hpp"
#include "analysis/retrieval.hpp"
#include "vectors/vectors.hpp"
#include "workloads.hpp"

namespace posenc::bench {

enum Kernel : int {
    kSinusoidal = 0, kRotate, kScores, kSoftmax, kWeightedSum, kAttention, kDecomposition,
    kIdentity, kIdentityBrute, kFullKeystroke, kFullCold, kAttentionCausal, kTrain, kKernelCount
};
inline const char* const kKernelNames[] = {
    "sinusoidal", "rotate", "scores", "softmax", "weighted_sum", "attention", "decomposition",
    "identity", "identity_brute", "full_keystroke", "full_cold", "attention_causal", "train"};

// The training benchmark's model (bench/tfjs-train.mjs's BENCH_MODEL is its TF.js twin): additive
// scheme, V = 96, L = 2, h = 4, B = 16; the case's n is the context T and its d the width.
inline constexpr std::size_t kTrainVocab = 96, kTrainLayers = 2, kTrainHeads = 4, kTrainBatch = 16;

// Buffers: 0 q, 1 k, 2 v, 3 scores, 4 weights, 5 output, 6 terms (4n²), 7 x.
class Case {
public:
    // vocab: the word-vector set used when d equals its dim (GloVe, d = 100); otherwise a synthetic
    // 20,000-word vocabulary with N(0,1)-like components.
    void setup(std::size_t n, std::size_t d, const VectorSet* vocab);
    double run(int kernel);
    float* buffer(int id);
    std::size_t vocab_rows() const { return vocab_rows_; }
    const float* unit_vocab() const { return full_.unit_vocab(); }

private:
    void ensure_vocab(const VectorSet* vocab);
    std::size_t n_ = 0, d_ = 0, vocab_rows_ = 0, vocab_d_ = 0;
    bool glove_ = false;
    std::vector<float> q_, k_, v_, scores_, weights_, output_, terms_, x_;
    std::vector<std::uint32_t> truth_, best_, rank_;
    std::vector<std::uint64_t> keys_;
    std::vector<float> cosine_;
    std::vector<Retrieved> retrieved_;
    FullRecompute full_;
    IdentityRetriever retriever_;
    bool full_ready_ = false;
    // kTrain: one train_step of the model above on a fixed batch (B rows of T + 1 ids).
    double train_step();
    std::unique_ptr<model::Transformer> model_;
    std::vector<std::int32_t> train_tokens_;
};

}  // namespace posenc::bench
